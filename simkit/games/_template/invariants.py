"""The template game's invariants, for ``simkit check`` (:func:`simkit.testing.rule_check.run_invariant_games`).

Each is a sentence of the rules restated over :meth:`~simkit.games._template.match.Match.snapshot`
values (the declared state as plain values: each player's ``card`` and ``uses`` by slot), not read from the
engine, so a bug in the engine cannot hide in it.
"""

from __future__ import annotations

from collections.abc import Mapping

from simkit.testing.rule_check import InvariantCheck

NAMES = ("hp_bounds", "energy_bounds", "uses_bounds", "play_accounting", "turn_bounds")


class TemplateInvariants(InvariantCheck):
    """The invariants over snapshots.

    Args:
        scenario: the loaded template scenario (its HP, energy cap, turn limit and cards).
    """

    names = NAMES

    def __init__(self, scenario):
        super().__init__(scenario)
        self.rules = scenario.rules

    def invariants(self, before: Mapping, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        checks = {"hp_bounds": self.hp_bounds(after), "energy_bounds": self.energy_bounds(after),
                  "uses_bounds": self.uses_bounds(before, after),
                  "play_accounting": self.play_accounting(before, action, after),
                  "turn_bounds": self.turn_bounds(after)}
        return [name for name in NAMES if not checks[name]]

    def hp_bounds(self, snap: Mapping) -> bool:
        """HP never above the starting HP; a player at 0 HP or less has lost (``hp_zero``)."""
        top = int(self.rules.settings.hp)
        for seat, p in enumerate(snap["players"]):
            if p["hp"] > top:
                return False
            if p["hp"] <= 0 and not (snap["reason"] == "hp_zero" and snap["winner"] == ("second", "first")[seat]):
                return False
        return True

    def energy_bounds(self, snap: Mapping) -> bool:
        """Energy stays within 0..max_energy."""
        return all(0 <= p["energy"] <= int(self.rules.settings.max_energy) for p in snap["players"])

    @staticmethod
    def uses(player: Mapping) -> dict[str, int]:
        """A player's uses left, by card name (the slots of the deck)."""
        return {card: left for card, left in zip(player["card"], player["uses"]) if card is not None}

    def uses_bounds(self, before: Mapping, after: Mapping) -> bool:
        """A card's uses left stay within 0..its uses and never grow."""
        for b, a in zip(before["players"], after["players"]):
            for card, left in self.uses(a).items():
                most = int(self.rules.cards[self.rules.names.index(card)].uses)
                if not 0 <= left <= most or left > self.uses(b)[card]:
                    return False
        return True

    def play_accounting(self, before: Mapping, action: tuple | None, after: Mapping) -> bool:
        """A play spends one use of the played card and its cost in energy, of the player who played
        it; ending the turn spends no card; nothing else changes anyone's cards."""
        if action is None:
            return True
        seat = before["to_act"]
        spent = [{c: n - self.uses(a)[c] for c, n in self.uses(b).items()}
                 for b, a in zip(before["players"], after["players"])]
        if tuple(action)[0] == "end":
            return not any(v for side in spent for v in side.values())
        card = action[1]
        want = {c: int(c == card) for c in spent[seat]}
        cost = int(self.rules.cards[self.rules.names.index(card)].cost)
        energy = before["players"][seat]["energy"] - after["players"][seat]["energy"]
        return spent[seat] == want and not any(spent[1 - seat].values()) and energy == cost

    def turn_bounds(self, snap: Mapping) -> bool:
        """The turn is within 1..turn_limit, and a game has a winner exactly when it has an end reason."""
        return 1 <= snap["turn"] <= int(self.rules.settings.turn_limit) and (
            (snap["winner"] is None) == (snap["reason"] == "none"))
