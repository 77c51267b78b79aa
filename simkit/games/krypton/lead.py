"""How far ahead the first side is in Krypton Tower War: the lead signal of the experience figures.

A Krypton game is won by taking the enemy base's last HP (rules page section 13). What brings that closer is
base HP already taken, a base upgraded to a tier the enemy's dice cannot beat, more attack dice (Prayer Towers)
and heroes on the board with HP to attack and to defend with. The lead is a weighted mean of four shares, each an
own-minus-enemy difference from -1 to +1, read in the first side's (seat 0's) view:

``base``
    base HP, each side's counted from 0 to ``base_hp`` (a destroyed base counts 0), difference over ``base_hp``;
``tier``
    base tier, difference over the tiers above the first (0 when the scenario has one tier);
``heroes``
    HP of the heroes on the board (a dead hero counts 0; one revived in place counts its HP), each side's as a
    share of its team's full HP, difference of the shares;
``dice``
    attack dice (1 + own Prayer Towers, at most ``max_dice``), difference over ``max_dice - 1`` (0 with one die).

``lead = (base x w_base + tier x w_tier + heroes x w_heroes + dice x w_dice) / (w_base + w_tier + w_heroes +
w_dice)``, the weights from the scenario's ``[lead]`` table (:data:`LEAD_TERMS` holds simkit's defaults: the
designer's document gives none), so the lead lies from -1 to +1 and a position whose sides are swapped has the
opposite lead. Once the game is over the lead is its result: +1 won by the first side, -1 by the second, 0 drawn.

The engine's loops note the lead (:func:`note_turn`) after each action that ends a round (a round is the game's
turn: one hero turn of every hero, the ``turns`` column) and on the final state: it is read as the next round
opens, after that round's first draw and preparation (the only changes before its first decision). A search bot's
value is a weighted score of the position, not a chance to win, so Krypton notes no estimate and its games'
``uncertainty`` is NaN (:mod:`simkit.games.kits.experience`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits import experience as X
from simkit.games.kits.state import record, zeros
from simkit.games.krypton import engine as E
from simkit.games.krypton.state import HS_DEAD

F = np.float64

#: the lead's terms: (name, what it weighs, simkit's default weight: the designer's document gives none)
LEAD_TERMS = (
    ("base", "base HP, own minus the enemy's, over base_hp", 0.5),
    ("tier", "base tier, own minus the enemy's, over the tiers above the first", 0.2),
    ("heroes", "HP of heroes on the board as a share of the team's full HP, own minus the enemy's", 0.15),
    ("dice", "attack dice (1 + Prayer Towers), own minus the enemy's, over max_dice - 1", 0.15),
)
LEAD_KEYS = tuple(name for name, _, _ in LEAD_TERMS)

#: the lead's weights (scenario ``[lead]``: ``w_<term>``) and the band within which neither side is ahead
#: (``[experience] level_band``), as the compiled loops read them
LEAD = record("Lead", [(f"w_{name}", F) for name in LEAD_KEYS] + [("band", F)],
              "The lead signal's weights and the level band (simkit.games.krypton.lead).")


def lead_records(weights: dict, band: float) -> np.ndarray:
    """A one-record array of the :data:`LEAD` record of ``weights`` (``[lead]``: name -> weight) and the level
    ``band`` (the compiled loops take it as an array: numba types an array far faster than a record)."""
    ws = zeros(LEAD, 1)
    for name in LEAD_KEYS:
        ws[f"w_{name}"] = float(weights[name])
    ws["band"] = float(band)
    return ws


_FRESH: list = []


def fresh_experience() -> np.ndarray:
    """A one-record array of a game's :data:`~simkit.games.kits.experience.EXPERIENCE` record as
    :func:`~simkit.games.kits.experience.begin` leaves it (a copy of one begun once: no compiled call per game)."""
    if not _FRESH:
        xs = zeros(X.EXPERIENCE, 1)
        X.begin(xs[0])
        _FRESH.append(xs)
    return _FRESH[0].copy()


@njit(cache=True)
def _share(a, b, top):
    """``(a - b) / top``, 0 when ``top`` is not positive."""
    return (a - b) / top if top > 0 else 0.0


@njit(cache=True)
def lead(s, rules, w):
    """How far ahead the first side is in game ``s`` (rules ``rules``, weights ``w``: a :data:`LEAD` record), -1 to
    +1 (see the module docstring); the result once the game is over."""
    if s.winner >= 0:
        return 1.0 if s.winner == 0 else (-1.0 if s.winner == 1 else 0.0)
    a, b = s.sides[0], s.sides[1]
    base = _share(min(max(a.base_hp, 0), rules.base_hp), min(max(b.base_hp, 0), rules.base_hp), rules.base_hp)
    tier = _share(a.tier, b.tier, rules.n_tiers - 1)
    heroes = 0.0
    for side in range(2):
        hp, full = 0, 0
        for k in range(rules.team):
            h = E.hero(s, side, k)
            full += rules.classes[h.cls].hp
            if h.state != HS_DEAD:
                hp += h.hp
        heroes += (1 - 2 * side) * hp / full
    dice = _share(E.dice_count(s, rules, 0), E.dice_count(s, rules, 1), rules.max_dice - 1)
    total = w.w_base + w.w_tier + w.w_heroes + w.w_dice
    return (w.w_base * base + w.w_tier * tier + w.w_heroes * heroes + w.w_dice * dice) / total


@njit(cache=True)
def write_games(xs, winners, turns, out):
    """The figures of the games over whose records are ``xs`` (``winners[i]``: 0, 1 or 2 a draw; ``turns[i]``
    rounds) into the rows of ``out`` (:func:`simkit.games.kits.experience.write`), in one compiled call."""
    for i in range(xs.shape[0]):
        X.write(xs[i], winners[i], turns[i], out[i])


@njit(cache=True)
def note_turn(s, rules, w, x, before):
    """After an action taken in hero turn ``before``: note the lead into ``x`` (an
    :data:`~simkit.games.kits.experience.EXPERIENCE` record) when the game is over (at its last round) or a round
    ended (the round that ended, 1-based; rounds skipped without a decision are noted once, at the last)."""
    per = 2 * rules.team
    if s.winner >= 0:
        X.note_lead(x, s.turn // per + 1, lead(s, rules, w), w.band)
    elif s.turn // per > before // per:
        X.note_lead(x, s.turn // per, lead(s, rules, w), w.band)
