"""The hooks a search bot needs of Krypton Tower War (its ``search`` capability), over engine games.

A search must start from its seat's view, never from the whole game: :meth:`KryptonSearch.root`
gives a copy in which what the seat cannot know is guessed. The other side's hand and the pile are
dealt again from the cards the seat cannot see (their counts kept), and the dice stream is keyed
afresh, so the search neither reads the enemy's cards nor foresees the real dice. The unseen cards
are sorted before they are dealt, so the guess depends only on what the seat can count, not on the
real order or split of the hidden cards.

These are the Python hooks of the ``search`` capability, for tests and notebooks; the search bots play
through the compiled ones (:mod:`simkit.games.krypton.fast_search.hooks`: the same view, plan end and
value, compiled), which a test holds equal to these. Besides copy, legal, step, over, to_act and value
they read four public counters: :meth:`~KryptonSearch.in_turn` (the decision is the acting side's own
move, not a counter window or a revival choice), :meth:`~KryptonSearch.turn_count` (hero turns),
:meth:`~KryptonSearch.chance` (dice drawn and judgments begun) and :meth:`~KryptonSearch.moment` (the
decision's place in the game).
"""

from __future__ import annotations

from simkit.core.rng import derive_seed
from simkit.games.krypton.fast_search.hooks import VALUE_NAMES, VALUES  # noqa: F401
from simkit.games.krypton.view import GameView

_EFFECT_OF = {"prayer_towers": "dice", "attack_towers": "attack", "magic_towers": "hand"}


class KryptonSearch:
    """State copy, legal actions, step, end and value for one game (an engine :class:`GameView`).

    Args:
        scenario: the loaded Krypton scenario.
    """

    def __init__(self, scenario):
        self.rules = scenario.rules

    def root(self, state, seat: int, salt: int = 0) -> GameView:
        """``seat``'s view of ``state`` (a :class:`Match` or an engine game): where a search begins.

        ``salt`` picks one guess of the unseen cards and the dice among many (0: the default guess).
        """
        g = getattr(state, "game", state).copy(log=False)
        other = 1 - seat
        unseen = sorted(g.hands[other] + g.pile)
        key = derive_seed(g.key, "view", seat, g.ctr, int(salt))
        for i in range(len(unseen) - 1, 0, -1):
            j = derive_seed(key, i) % (i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        k = len(g.hands[other])
        g.hands[other], g.pile = unseen[:k], unseen[k:]
        g.key, g.ctr = key, 0
        return g

    def copy(self, state: GameView) -> GameView:
        """An independent copy."""
        return state.copy(log=False)

    def legal(self, state: GameView) -> list[tuple]:
        """The legal actions of the seat to act."""
        return state.legal_actions()

    def step(self, state: GameView, action) -> None:
        """Apply a legal action in place."""
        state.do(tuple(action))

    def over(self, state: GameView) -> bool:
        return state.over

    def to_act(self, state: GameView) -> int:
        """The seat whose decision is owed (a counter window's defender, a revival's side)."""
        return state.to_act

    def in_turn(self, state) -> bool:
        """True when the decision owed is a move of the side whose hero turn it is (no counter window
        or revival choice open)."""
        g = getattr(state, "game", state)
        return not g.pending and g.judgment is None

    def turn_count(self, state) -> int:
        """Hero turns begun so far (0-based: the current hero turn's number)."""
        return getattr(state, "game", state).turn

    def chance(self, state) -> int:
        """A count that grows whenever chance or hidden cards may enter the game: the draws made on the
        game's stream (dice, shuffles) plus the attack judgments begun (the defender's hidden counter
        cards may answer in them, even when no die is rolled: a base attack on Satan's Pact's die)."""
        g = getattr(state, "game", state)
        return g.ctr + g.stats[0]["attacks"] + g.stats[1]["attacks"]

    def moment(self, state) -> tuple:
        """The decision's place in the game as public counters: hero turn, draws, events logged, the
        open counter window and the windows closed, revival choices owed."""
        g = getattr(state, "game", state)
        j = g.judgment
        return (g.turn, g.ctr, g.n_events, "" if j is None else j["window"] or "",
                0 if j is None else len(j["closed"]), len(g.pending))

    def value(self, state: GameView, seat: int, weights: dict | None = None) -> float:
        """``seat``'s value of the position.

        Without ``weights``: in [-1, 1], the result once over, else the base HP difference over base HP.
        With ``weights`` (``value_<name>`` of :data:`VALUES`): the result times ``value_win`` once over,
        else the weighted sum of the own-minus-enemy features.
        """
        state = getattr(state, "game", state)
        if weights is None:
            if state.over:
                return 0.0 if state.winner == 2 else (1.0 if state.winner == seat else -1.0)
            top = self.rules.settings["base_hp"]
            return max(-1.0, min(1.0, (state.base_hp[seat] - state.base_hp[1 - seat]) / top))
        if state.over:
            return 0.0 if state.winner == 2 else weights["value_win"] * (1.0 if state.winner == seat else -1.0)
        return sum(weights[f"value_{name}"] * d for name, d in self.features(state, seat).items())

    def features(self, state: GameView, seat: int) -> dict[str, float]:
        """The own-minus-enemy features the weighted value sums (every name of :data:`VALUES` but ``win``)."""
        g = state
        other = 1 - seat
        out = {
            "base": g.base_hp[seat] - g.base_hp[other],
            "hero_hp": (sum(h["hp"] for h in g.heroes[seat] if h["state"] != "dead")
                        - sum(h["hp"] for h in g.heroes[other] if h["state"] != "dead")),
            "energy": g.energy[seat] - g.energy[other],
            "tier": g.base_tier[seat] - g.base_tier[other],
            "cards": len(g.hands[seat]) - len(g.hands[other]),
            "deaths": g.stats[seat]["heroes_lost"] - g.stats[other]["heroes_lost"],
        }
        towers = {s: {"dice": 0, "attack": 0, "hand": 0} for s in (0, 1)}
        for b in g.buildings.values():
            towers[b["side"]][g.rules.towers[b["kind"]].effect] += 1
        for name, eff in _EFFECT_OF.items():
            out[name] = towers[seat][eff] - towers[other][eff]
        out["advance"] = self._closeness(g, seat) - self._closeness(g, other)
        return out

    @staticmethod
    def _closeness(g: GameView, side: int) -> float:
        """Minus the mean distance of ``side``'s heroes to the enemy base (a dead hero: from its spawn point)."""
        base = g.rules.bases[1 - side]
        home = g.rules.spawns[side][0]
        d = [g.dist(h["cell"] if h["state"] != "dead" else home, base) for h in g.heroes[side]]
        return -sum(d) / len(d)
