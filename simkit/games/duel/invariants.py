"""The Card Duel's invariants, for ``simkit check`` and :mod:`simkit.testing`.

:meth:`DuelInvariants.invariants` takes two :meth:`~simkit.games.duel.match.Match.snapshot` values
and the action between them and returns the names of the invariants the step broke (empty when all
hold): HP bounds, card conservation across zones, distance in 0..max, status levels never negative,
hand <= the limit after the discard phase, and hidden information: the view a bot is given (the only
thing a bot reads) holds no hidden card and does not change when the hidden parts do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np

from simkit.games.duel import engine as E
from simkit.games.duel.tables import S_HAND_LIMIT, S_MAX_DIST, S_MAX_HP, deck_list

NAMES = ("hp_bounds", "card_conservation", "distance_range", "status_nonnegative", "hand_limit",
         "hidden_information")


def _base_name(name: str) -> str:
    return name.split("#", 1)[0]


class DuelInvariants:
    """The duel's invariants over snapshots.

    Args:
        scenario: the loaded duel scenario (its max HP, max distance, hand limit and decks).
    """

    names = NAMES

    def __init__(self, scenario):
        self.rules = scenario.rules

    def invariants(self, before: Mapping, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        broken = []
        if not self.hp_bounds(after):
            broken.append("hp_bounds")
        if not self.card_conservation(after):
            broken.append("card_conservation")
        if not 0 <= after["distance"] <= int(self.rules.settings[S_MAX_DIST]):
            broken.append("distance_range")
        if any(v < 0 for p in after["players"] for v in p["statuses"].values()):
            broken.append("status_nonnegative")
        if action is not None and tuple(action)[:1] == ("end_turn",):
            ended = before["to_act"]
            if len(after["players"][ended]["hand"]) > int(self.rules.settings[S_HAND_LIMIT]):
                broken.append("hand_limit")
        if not self.hidden_information(after):
            broken.append("hidden_information")
        return broken

    def hp_bounds(self, snap: Mapping) -> bool:
        """HP never above max HP; a player at HP <= 0 has lost (the game ended with them losing)."""
        top = int(self.rules.settings[S_MAX_HP])
        for seat, p in enumerate(snap["players"]):
            if p["hp"] > top:
                return False
            if p["hp"] <= 0 and not (snap["end_reason"] == "hp_zero" and snap["winner"] == ("second", "first")[seat]):
                return False
        return True

    def card_conservation(self, snap: Mapping) -> bool:
        """Every card of each deck is in exactly one zone, and the zone counts agree with the zones."""
        for p in snap["players"]:
            want = Counter(self.rules.names[int(c)] for c in deck_list(self.rules, p["deck"]))
            zones = {
                "hand": p["hand"], "source": p["source"], "discard": p["discard"], "traps": p["traps"],
                "removed": p["removed"], "equipment": [_base_name(e["card"]) for e in p["equipment"]],
            }
            if Counter(c for cards in zones.values() for c in cards) != want:
                return False
            if any(p["counts"][z] != len(cards) for z, cards in zones.items()):
                return False
        return True

    def hidden_information(self, snap: Mapping) -> bool:
        """The view of the seat to act holds no hidden card, and scrambling the hidden parts (the
        opponent's hand, discard pile and traps, both source piles) leaves the view unchanged."""
        s = np.array(snap["state"], np.int64)
        seat = int(s[E.G_CUR])
        view = np.zeros_like(s)
        E.make_view(s, seat, view)
        n = int(s[E.G_N])
        for q in range(2):
            b = E.base(q)
            for i in range(n):
                z = int(s[b + E.A_ZONE + i])
                hidden = z == E.Z_SRC or (q != seat and z in (E.Z_HAND, E.Z_DISC, E.Z_TRAP))
                if hidden and (view[b + E.A_CARD + i] != -1 or view[b + E.A_ZONE + i] != E.Z_HIDDEN):
                    return False
            if (view[b + E.A_SRC: b + E.A_SRC + E.M] != -1).any():
                return False
        if view[E.G_SEED] != 0 or view[E.G_CTR] != 0:
            return False
        other = scramble_hidden(s, seat)
        view2 = np.zeros_like(s)
        E.make_view(other, seat, view2)
        return bool((view == view2).all())


def scramble_hidden(s: np.ndarray, seat: int) -> np.ndarray:
    """A copy of state ``s`` that differs from it only where ``seat`` cannot see: the opponent's hidden
    cards trade places among the opponent's hand, discard pile, trap zone and source pile (zone sizes
    kept), both source piles are reversed, and the shuffle stream moves on."""
    t = s.copy()
    n = int(s[E.G_N])
    opp = 1 - seat
    b = E.base(opp)
    hidden = [i for i in range(n) if s[b + E.A_ZONE + i] in (E.Z_HAND, E.Z_DISC, E.Z_TRAP, E.Z_SRC)]
    if len(hidden) > 1:
        cards = [int(s[b + E.A_CARD + i]) for i in hidden]
        for i, c in zip(hidden, cards[1:] + cards[:1]):
            t[b + E.A_CARD + i] = c
    for q in range(2):
        bq = E.base(q)
        k = int(s[bq + E.P_NSRC])
        t[bq + E.A_SRC: bq + E.A_SRC + k] = s[bq + E.A_SRC: bq + E.A_SRC + k][::-1]
    t[E.G_SEED] = s[E.G_SEED] + 1
    t[E.G_CTR] = s[E.G_CTR] + 3
    return t
