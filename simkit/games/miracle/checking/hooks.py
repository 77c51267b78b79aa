"""What ``simkit check`` needs of Battle of Miracles beyond the single-match API.

:class:`MiracleChecks` is what the game's own checker (:mod:`.checker`) asks of one scenario:

* the game's own invariants (:mod:`simkit.games.miracle.checking.rule_invariants`);
* the utility bots' own listing of the legal actions (every action they score, enumerated with the
  rules' predicates of :mod:`~simkit.games.miracle.fast.legal` while scoring), compared with the
  rules' legal-action mask;
* the sweeps' own players: a utility bot's choice as an action tuple, so checked games reach the
  fights, artifact uses and garrisons of real games.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from simkit.games.miracle import actions as A
from simkit.games.miracle import rules as R
from simkit.games.miracle.bots import UtilityBot, bot_settings
from simkit.games.miracle.checking.rule_invariants import STATE_INVARIANTS, TRANSITION_INVARIANTS
from simkit.games.miracle.fast.bot import FastScorer
from simkit.games.miracle.state import ATTACK, MOVE, SUMMON, TARGET_MIRACLE, USE, State

#: Checks of the bots against the rules (name: statement).
COMPILED_CHECKS = {
    "bots_offer_the_legal_actions": "the utility bots score exactly the actions the rules' legal mask lists",
}


def state_differences(a: State, b: State) -> list[str]:
    """The fields of two one-game states that differ."""
    return [f.name for f in fields(State) if not np.array_equal(getattr(a, f.name), getattr(b, f.name))]


class MiracleChecks:
    """The game hooks of one scenario (the bots' tables packed once).

    Args:
        scenario: a loaded Battle of Miracles scenario (or variant).
    """

    state_invariants = STATE_INVARIANTS
    transition_invariants = TRANSITION_INVARIANTS
    compiled_checks = COMPILED_CHECKS

    def __init__(self, scenario):
        self.scenario = scenario
        self.rules = scenario.rules
        settings = bot_settings(scenario)
        self.bots = tuple(settings.personalities)
        self._configs = settings.personalities
        self._scorers: dict[str, FastScorer] = {}

    def scorer(self, name: str | None = None) -> FastScorer:
        """The compiled scorer of personality ``name`` (default: the first one)."""
        name = self.bots[0] if name is None else name
        if name not in self._scorers:
            self._scorers[name] = UtilityBot(self._configs[name]).compiled(self.rules)
        return self._scorers[name]

    # -- the bots against the rules -----------------------------------------------------------

    def bot_offers(self, st: State) -> np.ndarray:
        """``bool[B, N]`` the actions the compiled bot offers in each game (its finite scores)."""
        return np.isfinite(self.scorer().scores(st))

    def legal_differences(self, st: State) -> list[tuple[int, str]]:
        """``(game, message)`` for each game where the bots' offered actions differ from the legal mask."""
        want, got = R.legal_mask(self.rules, st), self.bot_offers(st)
        out = []
        for g in np.nonzero((want != got).any(1))[0]:
            extra = np.nonzero(got[g] & ~want[g])[0][:3]
            missing = np.nonzero(want[g] & ~got[g])[0][:3]
            out.append((int(g), f"turn {st.turn[g]}: the bots offer {self.describe(extra)} the legal mask "
                                f"refuses, and miss {self.describe(missing)} it allows"))
        return out

    def describe(self, flat: np.ndarray) -> str:
        """Flat action indices as engine actions ``(kind, a, b, c)``."""
        if len(flat) == 0:
            return "nothing"
        act = A.decode(self.rules, np.asarray(flat))
        names = ("end_turn", "summon", "move", "attack", "use", "pass")
        return ", ".join(f"{names[k]}({a}, {b}, {c})" for k, a, b, c in zip(*act))

    # -- the sweeps' players -------------------------------------------------------------------

    def bot_action(self, match, bot: str, word: int) -> tuple:
        """The action tuple the utility bot ``bot`` chooses in ``match`` with random word ``word``
        (not checked: ``Match.do`` refuses it if the rules do not allow it)."""
        rules, st = self.rules, match.state
        choice = int(self.scorer(bot).choose(st, np.array([word], np.uint64))[0])
        parts = A.layout(rules)
        kind, a, b, c = (int(x[0]) for x in A.decode(rules, np.array([choice])))
        grid, uid = rules.board.grid, st.uid[0]
        if kind == SUMMON:
            return ("summon", rules.cards.kinds[st.deck_kind[0, st.current[0], a]], b, grid.cell(c))
        if kind == MOVE:
            return ("move", int(uid[a]), grid.cell(c))
        if kind == ATTACK:
            return ("attack", int(uid[a]), "miracle" if b == TARGET_MIRACLE else int(uid[b]))
        if kind == USE:
            return ("use", int(uid[b])) if choice >= parts["use_unit"][0] else ("use", grid.cell(c))
        return ("end_turn",)
