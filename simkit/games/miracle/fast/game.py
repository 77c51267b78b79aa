"""Whole games played inside compiled code: each game from its first decision to its end, one after another.

:func:`play` is the loop of :func:`simkit.games.miracle.batch.play_batch` (choose, cap the turn,
apply) for two utility bots, with no Python between the actions: each game's bot words come from
its own counter-based stream (:class:`simkit.core.rng.GameStreams`, drawn here with the same formula),
so a game plays exactly as it does in the batched loop, whatever games share its call.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits.experience import begin, note_choice, note_lead, write
from simkit.games.miracle.fast.choice import mix64
from simkit.games.miracle.fast.decide import decide_one
from simkit.games.miracle.fast.pack import KBotRef, KRulesRef, KSitRef, KStateRef
from simkit.games.miracle.fast.step import step_one
from simkit.games.miracle.lead import lead
from simkit.games.miracle.state import ATTACK, END_TURN, MOVE, SUMMON, TARGET_MIRACLE, USE

F32 = np.float32


@numba.njit(cache=True)
def draw_word(keys, counter, g):
    """The next random word of game ``g``'s stream (``GameStreams.bits(1)``), advancing its counter."""
    word = mix64(keys[g] ^ mix64(counter[g]))
    counter[g] += np.uint64(1)
    return word


@numba.njit(cache=True)
def decode_one(L, cells, units, index):
    """``(kind, a, b, c)`` of flat action ``index`` (``actions.decode`` for one action)."""
    if index >= L.end_turn:
        return END_TURN, 0, 0, 0
    if index >= L.use_unit:
        return USE, 0, index - L.use_unit, 0
    if index >= L.use_cell:
        return USE, 0, 0, index - L.use_cell
    if index >= L.attack:
        i = index - L.attack
        t = i % (units + 1)
        return ATTACK, i // (units + 1), TARGET_MIRACLE if t == units else t, 0
    if index >= L.move:
        i = index - L.move
        return MOVE, i // cells, 0, i % cells
    i = index - L.summon
    return SUMMON, i // (3 * cells), (i // cells) % 3 + 1, i % cells


@numba.njit(cache=True, inline="always")
def _choice(S, R, T, L, sit, g, keys, counter, forced, cand_index, cand_score, cand_high):
    """The flat action the bot ``T`` plays in game ``g`` and the legal actions it chose among (0 when the turn is
    ``forced`` to end: no decision): one word drawn when its temperature is above 0 (also when the turn is forced
    to end, as the batched loop draws it)."""
    word = draw_word(keys, counter, g) if T.temperature > 0 else np.uint64(0)
    if forced:
        return L.end_turn, 0
    return decide_one(S, R, T, L, sit, g, word, T.temperature, cand_index, cand_score, cand_high)


@numba.njit(cache=True)
def play(state, rules, first, second, L, scratch, keys, counter, cap, played, band, records, figures):
    """Play every game of ``state`` to its end in place, the bot ``first`` for the first player and
    ``second`` for the second, noting how each game plays (:mod:`simkit.games.miracle.lead`).

    ``state``, ``rules``, ``first``, ``second``, ``scratch``: the packed :class:`~.pack.KState`,
    :class:`~.pack.KRules`, :class:`~.pack.KBot` (twice) and :class:`~.pack.KSit`; ``L``: the
    :class:`~.pack.Layout`.
    ``keys``, ``counter``: each game's stream (``GameStreams.keys``/``counter``, advanced in place);
    ``cap``: a turn reaching this many actions is ended for the bot; ``played[g]``: actions played.
    ``band``: the scenario's ``[experience] level_band``; ``records``: one
    :data:`~simkit.games.kits.experience.EXPERIENCE` record (scratch); ``figures[g]``: game ``g``'s figures
    (:func:`~simkit.games.kits.experience.write`).
    """
    S, R, sit = KStateRef(*state), KRulesRef(*rules), KSitRef(*scratch)
    first_bot, second_bot = KBotRef(*first), KBotRef(*second)
    cells, units = R.distance.shape[0], S.alive.shape[1]
    cand_index = np.empty(L.size, np.int64)
    cand_score = np.empty(L.size, F32)
    cand_high = np.empty(L.size, np.float64)
    atk = np.zeros(units, np.int32)
    x = records[0]
    for g in range(S.turn.shape[0]):
        in_turn = 0
        begin(x)
        while not S.over[g]:
            forced = in_turn >= cap
            bot = first_bot if S.current[g] == 0 else second_bot
            index, legal = _choice(S, R, bot, L, sit, g, keys, counter, forced, cand_index, cand_score, cand_high)
            if legal > 0:
                note_choice(x, legal)
            turn = S.turn[g]
            kind, a, b, c = decode_one(L, cells, units, index)
            step_one(S, R, g, kind, a, b, c, atk)
            played[g] += 1
            in_turn = 0 if kind == END_TURN else in_turn + 1
            if kind == END_TURN or S.over[g]:
                note_lead(x, turn, lead(S, R, g), band)
        write(x, S.winner[g], S.turn[g], figures[g])


def _packed_type(kind, group):
    """The numba type a kernel gives ``kind(*group)`` (a :mod:`.pack` StructRef of the named tuple ``group``)."""
    return kind([(name, numba.typeof(value)) for name, value in zip(group._fields, group)])


def compile_parts(state, rules, bot, L, scratch) -> list:
    """The two halves of :func:`play`'s compile, each compiled (or loaded from numba's cache) by calling it: the
    bot's decision (:func:`.decide.decide_one`) and the rules' step (:func:`.step.step_one`, with the games'
    start, :func:`.step.start_games`), with the argument types :func:`play` gives them. They share no kernel, so
    two processes may compile them side by side, each writing numba's cache; ``play`` then loads both.

    ``state``, ``rules``, ``bot``, ``scratch``, ``L``: packed as :func:`play` takes them. Empty when the JIT is off.
    """
    if numba.config.DISABLE_JIT:
        return []
    from simkit.games.miracle.fast.pack import KBotType, KRulesType, KSitType, KStateType
    from simkit.games.miracle.fast.step import start_games, turn_start

    S, R = _packed_type(KStateType, state), _packed_type(KRulesType, rules)
    T, sit = _packed_type(KBotType, bot), _packed_type(KSitType, scratch)
    i64, arr = numba.types.int64, numba.types.Array

    def decision() -> None:
        decide_one.compile((S, R, T, numba.typeof(L), sit, i64, numba.types.uint64, T.field_dict["temperature"],
                            arr(numba.types.int64, 1, "C"), arr(numba.types.float32, 1, "C"),
                            arr(numba.types.float64, 1, "C")))

    def rule_step() -> None:
        step_one.compile((S, R, i64, i64, i64, i64, i64, arr(numba.types.int32, 1, "C")))
        turn_start.compile((S, R, i64))
        start_games.compile((numba.typeof(state), numba.typeof(rules)))

    return [decision, rule_step]
