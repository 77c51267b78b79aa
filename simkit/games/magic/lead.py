"""How far ahead the first player is in a game of Magic War: the lead signal of the experience figures
(:mod:`simkit.games.kits.experience`), compiled with the engine.

A game of Magic War is won by destroying the enemy leader; at the turn limit the larger share of its leader's
HP left wins, then the larger share of its bought army's gold still alive (rules page section 1, [R34]). The
lead reads those two things at the end of a turn, each side's as a share from 0 to 1 of what it started with:

* **leader**: its leader's HP left over the leader's HP (6.2: HP minus damage markers);
* **army**: the gold of its bought units still alive, each counted by its HP left over its HP (a Pikeman of
  2 gold with 2 of its 4 HP left counts 1), over the gold of the army it bought (so 12 and 13 gold armies
  compare fairly, as the tie-break's fractions do); summoned units do not count (they are not bought), and the
  share is at most 1.

The lead is the first player's shares minus the second's, weighted by the scenario's ``[lead]`` table
(``leader`` and ``army``, :data:`LEAD_WEIGHTS`) and divided by the weights' sum: +1 when the first player's
leader and army are whole and the second's are gone, -1 the other way round, 0 level. A finished game's lead
is its result: +1 when the first player won, -1 when the second did, 0 for a draw (a destroyed leader is as far
behind as the game allows, and the tie-break decides the turn limit's game).

The weights are simkit's (the designer's rulebook gives none, ``scenarios/magic/base.toml`` says so): 1 and 1,
the leader's HP and the army's strength weighing the same. Without a ``[lead]`` table a scenario takes them.

:func:`note_step` is what a game's loop calls after every action: the turns that action ended (one, or more
when the next turns had nothing to do but end, 5.2) are noted with the lead, and the final state when the game
is over. Magic War's search bots give no win chance (their value is a weighted difference of armies, leaders and
magic, not a probability), so its games note no estimate: their ``uncertainty`` is NaN.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.experience import note_lead
from simkit.games.kits.state import record
from simkit.games.magic.engine import hp_left
from simkit.games.magic.state import ALIVE, DEPLOY, OVER

__all__ = ["LEAD_KEYS", "LEAD_WEIGHTS", "lead", "note_step", "standing", "standing_lead"]

F = np.float64
#: the lead's weights (the scenario's ``[lead]`` table, every key optional), in file order
LEAD_WEIGHTS = record("LeadWeights", [
    ("leader", F),  # per share of a leader's HP left, the first player's minus the second's
    ("army", F),    # per share of a bought army's gold alive (each unit by its HP left), the same difference
], "The weights of Magic War's lead signal (simkit.games.magic.lead).")
#: the keys of ``[lead]`` and their defaults (simkit's, authored: the designer's document gives none)
LEAD_KEYS = {"leader": 1.0, "army": 1.0}


@njit(cache=True)
def standing(g, p, rules):
    """Seat ``p``'s army share: the gold of its bought units alive, each by its HP left over its HP, over the
    gold it bought (at most 1)."""
    gold = 0.0
    for u in range(g.places):
        unit = g.units[u]
        if unit.side != p or unit.status != ALIVE or unit.summoned == 1:
            continue
        card = rules.cards[unit.type]
        if card.leader == 1:
            continue
        gold += card.cost * hp_left(g, u, rules) / card.hp
    bought = g.sides[p].army_value
    share = gold / (bought if bought > 1 else 1)
    return share if share < 1.0 else 1.0


@njit(cache=True)
def standing_lead(g, rules, w):
    """The lead of the position as it stands (see the module's words), whether or not the game is over."""
    x = 0.0
    for p in range(2):
        leader = g.sides[p].leader
        hp = hp_left(g, leader, rules) / rules.cards[g.units[leader].type].hp
        share = w.leader * hp + w.army * standing(g, p, rules)
        x += share if p == 0 else -share
    total = w.leader + w.army
    return x / total if total > 0 else 0.0


@njit(cache=True)
def lead(g, rules, w):
    """How far ahead the first player is, -1 to +1 (0 level): a finished game's result, else
    :func:`standing_lead`."""
    if g.phase == OVER:
        if g.winner == 0:
            return 1.0
        if g.winner == 1:
            return -1.0
        return 0.0
    return standing_lead(g, rules, w)


@njit(cache=True)
def note_step(x, g, before, rules, w, band):
    """Note in experience record ``x`` the lead at the end of every turn an action ended, the action having
    started in turn ``before``: the turns ``before`` to the current one less one (their positions are the one
    now: a turn that ends by itself changes no unit), and the current turn too once the game is over (its final
    state). ``w``: the :data:`LEAD_WEIGHTS`; ``band``: the scenario's ``[experience] level_band``."""
    if g.phase == DEPLOY or (g.turn == before and g.phase != OVER):
        return
    first = before if before > 1 else 1
    if g.turn > first:
        now = standing_lead(g, rules, w)
        for t in range(first, g.turn):
            note_lead(x, t, now, band)
    if g.phase == OVER:
        note_lead(x, g.turn, lead(g, rules, w), band)
