"""A hypothesis ``RuleBasedStateMachine`` playing random legal games through the single-match API.

Each example picks the scenario or, half of the time, a variant of it (a short turn limit,
changed numbers) and starts a match; its rules play biased legal actions, let one of the
scenario's utility bots (the sweeps' players) play a stretch, fast-forward several turns, probe
illegal actions, and start a rematch once a game is over. After every rule the ``@invariant``
checks every position reached and every action played against :mod:`simkit.games.miracle.checking.invariants`
and the game's own invariants, and the utility bots' offered actions against the rules' legal mask
(see :mod:`simkit.games.miracle.checking.checker`); at the end of each game it is replayed and run in a batch with
companions. Hypothesis shrinks any failure to a minimal sequence of steps (``simkit check``
shrinks the failing game with :mod:`simkit.games.miracle.checking.minimize` instead, which is much faster).

In a designer's pytest file::

    from simkit.games.miracle.checking import match_machine
    TestMyPatch = match_machine("scenarios/miracle/my-patch.toml").TestCase
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from simkit.games.miracle.checking.checker import CheckedMatch, CheckStats, InvalidCase
from simkit.games.miracle.checking.strategies import (
    action_groups,
    choose_legal_action,
    deck_pairs,
    decks,
    illegal_action,
    load_variant,
    scenario_patches,
    seeds,
)
from simkit.scenario import Scenario, load_scenario

#: At most one illegal probe per this many played actions (plus one).
ILLEGAL_EVERY = 8
#: At most one fast-forward per this many played actions.
FAST_FORWARD_EVERY = 30
#: Most actions one turn of the sweeps' bots plays in a row.
BOT_ACTIONS = 12


class MatchMachine(RuleBasedStateMachine):
    """Random legal play of matches with the rule invariants checked after every step.

    Use :func:`match_machine` to make one for a scenario; the class attributes ``scenario``,
    ``variants`` and ``stats`` are set there.
    """

    scenario: Scenario
    variants: bool = True
    stats: CheckStats

    def __init__(self):
        super().__init__()
        self.game: CheckedMatch | None = None
        self.played = 0  # actions of the play rule in this game
        self.probes = 0  # illegal actions probed in this game
        self.fast_forwards = 0  # fast-forwards in this game

    # -- games -------------------------------------------------------------------------------

    @initialize(data=st.data())
    def new_match(self, data) -> None:
        """Pick the scenario (or a variant of it), then start the first game."""
        sc, patch = self.scenario, None
        if self.variants and data.draw(st.booleans(), label="variant"):
            patch = data.draw(scenario_patches(self.scenario), label="patch")
            sc = load_variant(self.scenario, patch)
        self.stats.examples += 1
        self.stats.variant_examples += patch is not None
        if self.stats.on_example is not None:
            self.stats.on_example()
        self._start(data, sc, patch)

    def _start(self, data, sc: Scenario, patch: dict | None) -> None:
        """Start a game: decks, seed and batch companions drawn."""
        first, second = data.draw(deck_pairs(sc), label="decks")
        seed = data.draw(seeds(), label="seed")
        companions = data.draw(st.lists(st.tuples(decks(sc), decks(sc), seeds()), max_size=2), label="companions")
        self.stats.games += 1
        self.played = self.probes = self.fast_forwards = 0
        self.game = CheckedMatch(sc, first, second, seed, companions=companions, patch=patch, stats=self.stats)

    @precondition(lambda self: self.game is not None and self.game.over)
    @rule(data=st.data())
    def rematch(self, data) -> None:
        """The game is over: run its end-of-game checks and start another on the same scenario."""
        self.game.finish()
        self._start(data, self.game.scenario, self.game.patch)

    # -- actions -----------------------------------------------------------------------------

    def _playing(self) -> bool:
        return self.game is not None and not self.game.over

    @precondition(lambda self: self._playing())
    @rule(data=st.data())
    def play(self, data) -> None:
        """Play one legal action, biased toward attacks, summons and advancing moves."""
        self.played += 1
        groups = self.game.engine("listing the legal actions", lambda: action_groups(self.game.match))
        self.game.play(choose_legal_action(data.draw, self.game.match, groups))

    @precondition(lambda self: self._playing() and bool(self.game.hooks.bots))
    @rule(data=st.data())
    def bot_plays(self, data) -> None:
        """Let one of the scenario's utility bots (the sweeps' players) play a stretch of the game: real games
        reach the fights, artifact uses and garrisons that random play rarely does."""
        game = self.game
        bots = game.hooks.bots
        bot = bots[data.draw(st.integers(0, len(bots) - 1), label="bot")]
        actions = data.draw(st.integers(1, BOT_ACTIONS), label="bot actions")
        word = data.draw(st.integers(0, 2**64 - 1), label="bot word")
        for i in range(actions):
            if game.over:
                break
            w = (word + i * 0x9E3779B97F4A7C15) % 2**64
            action = game.engine("choosing a bot action", lambda w=w: game.hooks.bot_action(game.match, bot, w))
            try:
                game.play(action)
            except InvalidCase:  # not legal by the rules: bots_offer_the_legal_actions reports it
                break
            self.played += 1

    @precondition(lambda self: self._playing() and self.fast_forwards < self.played // FAST_FORWARD_EVERY)
    @rule(data=st.data())
    def fast_forward(self, data) -> None:
        """End the turn several times in a row (a few, or up to the whole turn limit)."""
        limit = self.game.rules.turn_limit
        turns = data.draw(st.integers(1, 8) | st.integers(1, limit), label="turns")
        self.fast_forwards += 1
        for _ in range(turns):
            if self.game.over:
                break
            self.game.play(("end_turn",))

    @precondition(lambda self: self.game is not None and self.probes <= self.played // ILLEGAL_EVERY)
    @rule(data=st.data())
    def try_illegal(self, data) -> None:
        """Probe an illegal action (any action once the game is over): it must be refused and change nothing."""
        self.probes += 1
        probes = self.game.engine("listing the legal actions", lambda: illegal_action(self.game.match))
        self.game.try_illegal(data.draw(probes, label="illegal"))

    # -- invariants --------------------------------------------------------------------------

    @invariant()
    def rules_hold(self) -> None:
        """Every position reached satisfies the state invariants, every action played the transition ones."""
        if self.game is not None:
            self.game.check()

    def teardown(self) -> None:
        """Replay the last game and run it in a batch (skipped after a failure)."""
        if self.game is not None and not self.game.failed:
            self.game.finish()


def match_machine(
    scenario: Scenario | str | Path, variants: bool = True, stats: CheckStats | None = None
) -> type[MatchMachine]:
    """A :class:`MatchMachine` subclass for ``scenario``.

    Args:
        scenario: a loaded scenario or its file.
        variants: also play scenario variants (patches of it) half of the time.
        stats: counters the machine updates (a fresh :class:`CheckStats` by default), as ``Machine.stats``.

    Returns:
        The machine class; run it with ``hypothesis.stateful.run_state_machine_as_test`` or use
        its ``TestCase`` in pytest.

    Raises:
        ScenarioError: the scenario file is invalid.
        ValueError: the scenario is not a Battle of Miracles scenario.
    """
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    if sc.game_name != "miracle":
        raise ValueError(f"{sc.path}: simkit.games.miracle.checking checks Battle of Miracles scenarios, "
                         f"this one is {sc.game_name!r}")
    name = "".join(p.capitalize() for p in Path(sc.path).stem.replace("-", "_").split("_") if p) or "Scenario"
    attrs = {"scenario": sc, "variants": variants, "stats": stats if stats is not None else CheckStats()}
    return type(f"{name}Machine", (MatchMachine,), attrs)
