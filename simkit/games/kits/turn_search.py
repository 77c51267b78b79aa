"""The one compiled search: sample plans with a policy, value each over determinizations, keep the best.

At a decision a search bot draws ``plans`` candidate *plans* with its policy (a utility bot with noise):
a plan is the run of decisions the seat to act makes until its turn ends, the seat to act changes or
chance intervenes (dice drawn, a hidden card revealed); a game without chance (Battle of Miracles)
has whole turns as plans. Identical plans are valued once. Each distinct plan is valued over
``samples`` *determinizations* common to every candidate: the seat's view of the real game with the
hidden parts re-drawn from what the seat cannot see and the future chance re-keyed by the sample's
salt (``copy_game``), the plan's actions replayed on it (``replay``), ``depth`` further plays of
whichever seat is to act (the own seat's by the policy, the other's by the ``reply`` bot, both at
``reply_temperature``), then the position's worth to the seat (``value``); the plan's worth is the
mean. Another plan replaces the policy's own (the first candidate) only if its worth beats the
policy's by more than ``margin``. The game's play loop follows the chosen plan while the real game
stays where the plan expected (every action still legal, no chance in between) and searches again
otherwise.

Randomness: the first candidate draws from the game's own stream (stream ``g`` of ``keys``/``counter``),
exactly as the policy bot would when playing that turn; every other draw (further candidates, the
look-ahead) comes from streams keyed by the game's key and its counter after that first candidate,
so every choice depends only on the game's seed and state, never on the batch. With ``samples`` = 1
the look-ahead continues the candidates' stream (one candidate after another, as the search has
always drawn: Miracle's and the Duel's games are unchanged); with more, sample ``j``'s look-ahead
draws from its own stream, restarted for every candidate (common random numbers: the candidates
meet the same luck).

The loop knows a game only through six hooks, :data:`HOOKS`, and passes their context ``ctx`` (a
tuple of the game's own arrays) through unopened:

- ``copy_game(ctx, g, seat, salt)``: copy ``seat``'s view of real game ``g`` into the context's
  one-game work state. Salt 0 is the world the candidates are drawn on, salts ``1..samples - 1`` the
  further determinizations; a game without hidden information or chance may ignore the salt (the
  exact game), a game with them re-draws the hidden parts and re-keys its dice for every salt
  (0 included: the search never sees the real hidden cards or the real future dice); with ``HALVING``
  the salts run past ``samples - 1`` (a candidate kept to the last round meets more determinizations
  than ``samples``), so a game whose worlds are made in advance (the Duel's) does not offer it;
- ``play_turn(ctx, bot, temperature, keys, counter, k, cap, record) -> n``: play one plan of the seat to
  act in the work state with ``bot`` drawing from stream ``k`` of ``keys``/``counter``, recording its
  encoded actions in ``record`` (an empty array: none, a look-ahead play) and returning how many it
  played (at most ``cap``);
- ``replay(ctx, plan, n) -> bool``: apply the ``n`` recorded actions of ``plan`` to the work state;
  False when one is not legal there (the candidate is then not valued on that sample: its worth is
  the mean over the samples it could be played on);
- ``game_over(ctx) -> bool`` and ``to_act(ctx) -> seat``: of the work state;
- ``value(ctx, seat, bot, weights) -> float``: the work state's worth to ``seat``.

A game whose ``play_turn`` also writes a figure beside each action it records (into an array of its
context, only when recording) may hand that array to the search as ``noted``: the search then keeps
the figures with their plan wherever it keeps the actions (the best so far, the candidates of the
halving rounds) and gives the chosen plan's in ``best_noted``. Battle of Miracles keeps so the legal
actions each decision of the chosen turn chose among: its game has no chance and no hidden cards, so
the real turn passes through the very positions the drawing copy did, and the figures need no legal
mask of the real game. Without the two arguments (the other games) that code is pruned when the search
compiles.

The budget ``params`` (``float64[PARAMS]``, data from a ``[bots.search-N]`` table): ``PLANS``,
``DEPTH``, ``TEMPERATURE``, ``REPLY_TEMPERATURE``, ``SAMPLES`` (0 counts as 1), ``MARGIN``, an
optional seventh, ``POLICY_TEMPERATURE``: the first candidate's noise (without it: ``TEMPERATURE``,
so the policy's own draw is one of the noisy ones), and an optional eighth, ``HALVING`` (> 0: on).

**Sequential halving** (``HALVING`` on; Karnin, Koren and Somekh 2013, the root allocation of Gumbel
MuZero): the same valued rollouts as the uniform search (``samples`` per distinct candidate) spent by
rounds instead of evenly. All distinct candidates are drawn first; each round values every candidate
still in on the next determinizations (the same ones for all: sample ``j`` is the world of salt ``j``
with its own look-ahead stream), a round's share of the rollouts split evenly among them; then the worse
half of the candidates other than the policy's own leave (ties: the later drawn), until one other is
left beside the policy's plan, which stays to the end so that the margin is judged on the most samples.
The rounds number ``1 + ceil(log2(distinct - 1))``. Many candidates are screened cheaply and the
rollouts go to the few that matter; with it off, every game plays exactly as before it existed.

A game gets its search with :func:`compile_turn_search`, naming its hook functions (compiled with
numba). Numba caches a kernel only when the functions it calls are fixed when it is compiled: a kernel
taking functions as arguments is not cached, and neither is one built as a closure over them (measured:
a closure recompiles in every process). So the loop below is written against the hook names, and
:func:`compile_turn_search` compiles its code with the game's hooks in place of those names and caches
it beside the game's own module.
"""

# ruff: noqa: F821  (the hook names of search_turn are bound by compile_turn_search)
from __future__ import annotations

import types
from collections.abc import Mapping

import numba
import numpy as np

from simkit.games.kits.mix import mix64

#: the hooks a game supplies, by name (see the module docstring for their signatures)
HOOKS = ("copy_game", "play_turn", "replay", "game_over", "to_act", "value")

#: the search budget, in the order of ``params`` (``POLICY_TEMPERATURE`` and ``HALVING`` optional, past
#: ``PARAMS``)
PLANS, DEPTH, TEMPERATURE, REPLY_TEMPERATURE, SAMPLES, MARGIN, POLICY_TEMPERATURE, HALVING = range(8)
PARAMS = 6


def budget_params(plans: int, depth: int, temperature: float, reply_temperature: float, samples: int = 1,
                  margin: float = 0.0, policy_temperature: float | None = None,
                  halving: bool | None = None) -> np.ndarray:
    """The ``params`` array of a search's budget (see the module docstring), its entries in the loop's order.

    ``policy_temperature`` None is ``temperature``; ``halving`` None leaves the eighth entry out (a game whose
    worlds are made in advance does not offer it), else it is 1 (on) or 0.
    """
    first = temperature if policy_temperature is None else policy_temperature
    out = [plans, depth, temperature, reply_temperature, samples, margin, first]
    if halving is not None:
        out.append(1.0 if halving else 0.0)
    return np.array(out, np.float64)


_SALT = np.uint64(0x5EA5C4B07E11A6E5)  # keeps the look-ahead stream apart from the game's own
_SAMPLE_SALT = np.uint64(0x3C6EF372FE94F82B)  # keys the samples' own look-ahead streams


@numba.njit(cache=True, inline="always")
def _plan_hash(plan, n):
    """A 64-bit hash of the ``n`` first actions of ``plan``."""
    h = np.uint64(n)
    for i in range(n):
        h = mix64(h ^ np.uint64(plan[i]))
    return h


@numba.njit(cache=True, inline="always")
def budget(params):
    """``(plans, depth, temperature, reply_temperature, samples, margin, policy_temperature, halving)`` of a
    ``params`` array (``SAMPLES``, ``MARGIN``, ``POLICY_TEMPERATURE`` and ``HALVING`` optional: 1, 0,
    ``TEMPERATURE``, off)."""
    m = params.shape[0]
    samples = max(1, int(params[SAMPLES])) if m > SAMPLES else 1
    margin = params[MARGIN] if m > MARGIN else 0.0
    first = params[POLICY_TEMPERATURE] if m > POLICY_TEMPERATURE else params[TEMPERATURE]
    halving = m > HALVING and params[HALVING] > 0
    return (int(params[PLANS]), int(params[DEPTH]), params[TEMPERATURE], params[REPLY_TEMPERATURE], samples,
            margin, first, halving)


@numba.njit(cache=True, inline="always")
def sample_stream(local_key, j, sample_key, sample_counter):
    """Start sample ``j``'s own look-ahead stream (``sample_key``/``sample_counter``, one-element arrays):
    keyed by the search's ``local_key`` and ``j``, the same for every candidate (common random numbers)."""
    sample_key[0] = mix64(local_key ^ mix64(np.uint64(j) ^ _SAMPLE_SALT))
    sample_counter[0] = 0


@numba.njit(cache=True)
def halving_rounds(others):
    """Rounds of sequential halving over ``others`` candidates besides the policy's own: one for each halving
    until one is left, and that last one's (``1 + ceil(log2(others))``; 1 for one other)."""
    rounds, left = 1, others
    while left > 1:
        left = (left + 1) // 2
        rounds += 1
    return rounds


@numba.njit(cache=True)
def halve(order_value, alive, count):
    """Keep the better half of the candidates ``alive[1:count]`` (``alive[0]``, the policy's own plan, always
    stays): the ``ceil((count - 1) / 2)`` of highest ``order_value`` (ties: the earlier drawn), moved to
    ``alive[1:]`` in drawing order; returns the new count."""
    others = count - 1
    keep = (others + 1) // 2
    chosen = np.zeros(others, np.bool_)
    for _ in range(keep):
        best = -1
        for i in range(others):
            if not chosen[i] and (best < 0 or order_value[alive[1 + i]] > order_value[alive[1 + best]]):
                best = i
        chosen[best] = True
    w = 1
    for i in range(others):
        if chosen[i]:
            alive[w] = alive[1 + i]
            w += 1
    return w


def look_ahead(ctx, seat, policy, reply, depth, reply_temperature, weights, lk, lc, cap, no_record):
    """Play ``depth`` plays on from the work state (the own seat's by ``policy``, the other's by ``reply``,
    drawing from stream 0 of ``lk``/``lc``) and return the position's worth to ``seat``."""
    for _ in range(depth):
        if game_over(ctx):
            break
        bot = policy if to_act(ctx) == seat else reply
        play_turn(ctx, bot, reply_temperature, lk, lc, 0, cap, no_record)
    return value(ctx, seat, policy, weights)


def search_turn(ctx, g, seat, policy, reply, params, weights, keys, counter, cap, plan, best, seen, noted=None,
                best_noted=None):
    """Choose the plan of ``seat`` (the seat to act) in game ``g``: ``best[:n]`` its actions; returns ``n``.

    ``policy``/``reply``: the bots playing the candidates and the other seat's look-ahead plays;
    ``params``: ``float64[PARAMS]`` the budget (see the module docstring); ``weights``: the value
    weights; ``keys``/``counter``: the games' streams (``counter[g]`` advances by the first candidate's
    draws); ``cap``: a plan reaching this many actions ends; ``plan``, ``best``: ``int64[cap + 1]``
    scratch and result; ``seen``: ``uint64[>= plans]`` scratch. ``noted``, ``best_noted`` (optional, both
    or neither, ``int64[cap + 1]``): ``noted[i]`` a figure ``play_turn`` writes beside each action it
    records (and only then; Battle of Miracles: the legal actions the decision chose among), kept with
    its plan, so that ``best_noted[:n]`` is the chosen plan's; without them the search is as before.
    """
    plans, depth, temperature, reply_temperature, samples, margin, first, halving = budget(params)
    local_key = np.zeros(1, np.uint64)
    local_counter = np.zeros(1, np.uint64)
    sample_key = np.zeros(1, np.uint64)
    sample_counter = np.zeros(1, np.uint64)
    no_record = plan[:0]
    room = plans if halving else 0  # every distinct candidate kept, valued by rounds of sequential halving
    kept = np.zeros((room, plan.shape[0]), np.int64)
    kept_n = np.zeros(room, np.int64)
    if noted is not None:
        kept_noted = np.zeros((room, plan.shape[0]), np.int64)
    total = np.zeros(room, np.float64)
    counted = np.zeros(room, np.int64)
    best_value, bar, best_n, distinct = -np.inf, np.inf, 0, 0
    for i in range(plans):
        copy_game(ctx, g, seat, 0)
        if i == 0:
            n = play_turn(ctx, policy, first, keys, counter, g, cap, plan)
            local_key[0] = mix64(keys[g] ^ mix64(counter[g] ^ _SALT))
            best[:n] = plan[:n]
            if noted is not None:
                best_noted[:n] = noted[:n]
            best_n = n
            if plans == 1:  # nothing to compare: the policy's own plan
                return n
        else:
            n = play_turn(ctx, policy, temperature, local_key, local_counter, 0, cap, plan)
        h = _plan_hash(plan, n)
        repeated = False
        for j in range(distinct):
            if seen[j] == h:
                repeated = True
                break
        if repeated:
            continue
        seen[distinct] = h
        if halving:
            kept[distinct, :n] = plan[:n]
            kept_n[distinct] = n
            if noted is not None:
                kept_noted[distinct, :n] = noted[:n]
            distinct += 1
            continue
        distinct += 1
        v_total, v_counted = 0.0, 0
        for j in range(samples):
            if j > 0:
                copy_game(ctx, g, seat, j)
                if not replay(ctx, plan, n):
                    continue
            if samples == 1:
                lk, lc = local_key, local_counter
            else:
                sample_stream(local_key[0], j, sample_key, sample_counter)
                lk, lc = sample_key, sample_counter
            v_total += look_ahead(ctx, seat, policy, reply, depth, reply_temperature, weights, lk, lc, cap, no_record)
            v_counted += 1
        if v_counted == 0:
            continue
        v = v_total / v_counted
        if i == 0:
            best_value = v
            bar = v + margin  # another plan must beat the policy's own by the margin
        elif v > best_value and v > bar:
            best_value, best_n = v, n
            best[:n] = plan[:n]
            if noted is not None:  # the look-ahead and replays record nothing: still this plan's
                best_noted[:n] = noted[:n]
    if not halving or distinct == 1:
        return best_n
    # Sequential halving: the budget of the uniform search (samples per distinct candidate) spread over
    # rounds, at least one sample a candidate a round; every candidate still in meets the same
    # determinizations, sample j on the world of salt j;
    # after each round the worse half of the others leaves; the policy's own plan stays to the end.
    alive = np.arange(distinct)
    count = distinct
    rounds = halving_rounds(distinct - 1)
    share = distinct * samples // rounds  # valued rollouts a round
    taken = 0  # determinizations every candidate still in has been valued on
    mean = np.full(distinct, -np.inf)
    for _ in range(rounds):
        more = max(1, share // count)
        for a in range(count):
            c = alive[a]
            for j in range(taken, taken + more):
                copy_game(ctx, g, seat, j)
                if not replay(ctx, kept[c], kept_n[c]):
                    continue
                sample_stream(local_key[0], j, sample_key, sample_counter)
                total[c] += look_ahead(ctx, seat, policy, reply, depth, reply_temperature, weights, sample_key,
                                       sample_counter, cap, no_record)
                counted[c] += 1
            if counted[c] > 0:
                mean[c] = total[c] / counted[c]
        taken += more
        if count <= 2:
            break
        count = halve(mean, alive, count)
    # the best other left replaces the policy's own plan only by more than the margin
    winner = alive[1]
    for a in range(2, count):
        if mean[alive[a]] > mean[winner]:
            winner = alive[a]
    if counted[0] > 0 and mean[winner] > mean[0] + margin:  # (margin >= 0)
        best_n = kept_n[winner]
        best[:best_n] = kept[winner, :best_n]
        if noted is not None:
            best_noted[:best_n] = kept_noted[winner, :best_n]
    return best_n


def compile_turn_search(hooks: Mapping[str, object], module_file: str):
    """The search compiled against one game's ``hooks`` and cached beside ``module_file``.

    Args:
        hooks: a compiled function (numba dispatcher) for each name of :data:`HOOKS`.
        module_file: the ``__file__`` of the game's module that calls this (the cache lives in its
            ``__pycache__``; drop it with :func:`simkit.games.kits.numba_cache.drop_stale_cache`
            when the hooks or this file change).

    Returns:
        ``search_turn(ctx, g, seat, policy, reply, params, weights, keys, counter, cap, plan, best, seen,
        noted=None, best_noted=None)``.

    Raises:
        TypeError: a hook is missing, not one of :data:`HOOKS`, or not compiled.
    """
    names = set(hooks)
    if names != set(HOOKS):
        raise TypeError(f"turn search hooks: need exactly {', '.join(HOOKS)}; missing "
                        f"{sorted(set(HOOKS) - names)}, unknown {sorted(names - set(HOOKS))}")
    plain = [n for n, f in hooks.items() if not isinstance(f, numba.core.registry.CPUDispatcher)]
    if plain and not numba.config.DISABLE_JIT:
        raise TypeError(f"turn search hooks must be numba-compiled functions: {', '.join(plain)}")
    namespace = dict(globals())
    namespace.update(hooks)
    for template in (look_ahead, search_turn):  # look_ahead first: search_turn calls it
        code = template.__code__.replace(co_filename=module_file)
        function = types.FunctionType(code, namespace, template.__name__, template.__defaults__)
        namespace[template.__name__] = numba.njit(cache=True)(function)
    return namespace["search_turn"]
