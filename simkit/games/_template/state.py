"""The template game's state and packed rules, declared once: every other module reads these names.

A game is one :data:`STATE` record: the turn, the seat to act, the result, the damage rolls used, and one
:data:`PLAYER` per seat (HP, energy, and per slot of the deck its card and the uses left). The scenario's
numbers reach the engine as :data:`SETTINGS` (the ``[rules]`` table) and a :data:`CARD` per card; a utility
bot's weights as a :data:`PERSONALITY`. The engine reads ``me.hp``, ``card.cost``, ``rules.max_energy``;
numba compiles such names to what offsets into a flat array would be, and the same source runs as plain
Python. A snapshot, a test's literal position and the ``Match`` properties come from these declarations
through :mod:`simkit.games.kits.state`. Nothing here imports the rest of the game: this is its bottom.
"""

from __future__ import annotations

import numpy as np

from simkit.core.seats import WINNERS
from simkit.games.kits.state import record

I = np.int64

#: most cards a deck may hold (the state keeps this many slots per player)
MAX_SLOTS = 6

#: actions ``(kind, x)``: play the card of slot x, or end the turn
KINDS = ("play", "end")
K_PLAY, K_END = 0, 1
#: most legal actions at once: every card, and ``end``
MAX_LEGAL = MAX_SLOTS + 1
#: why an action is illegal (the engine's ``check`` returns the index; 0: legal)
REASONS = ("ok", "the game is over", "no such action", "the deck has no such card", "the card has no uses left",
           "not enough energy")
R_OK, R_OVER, R_KIND, R_SLOT, R_USED, R_ENERGY = range(6)
#: why a game ended (the schema's end reasons, after "none")
END_REASONS = ("none", "hp_zero", "turn_limit")
END_NONE, END_HP_ZERO, END_TURN_LIMIT = range(3)
#: winners (as :data:`simkit.core.seats.WINNERS`): -1 while the game goes on
NO_WINNER, DRAW = -1, 2

PLAYER = record("Player", [
    ("hp", I),
    ("energy", I),
    ("card", I, MAX_SLOTS),       # the card id of each slot of the deck (-1 beyond cards_per_deck)
    ("uses", I, MAX_SLOTS),       # the uses left of each slot's card
], "One seat's player.")

STATE = record("State", [
    ("turn", I),                  # 1.. (seat 0 plays the odd turns)
    ("to_act", I),                # the seat whose turn it is
    ("winner", I),                # NO_WINNER while the game goes on, else the index of WINNERS
    ("reason", I),                # why it ended, by END_REASONS
    ("rolls_used", I),            # damage rolls used so far (the next is rolls[rolls_used])
    ("players", PLAYER, 2),
], "One template game.", words={"winner": WINNERS, "reason": END_REASONS})

SETTINGS = record("Settings", [
    ("hp", I), ("energy_per_turn", I), ("max_energy", I), ("turn_limit", I), ("cards_per_deck", I),
], "The scenario's [rules] numbers.")

CARD = record("Card", [
    ("cost", I), ("min_damage", I), ("max_damage", I), ("heal", I), ("uses", I),
], "One card (a [cards.<name>] table; damage = [min_damage, max_damage]).")

#: a utility bot's weights, in the order of :data:`PERSONALITY` (the keys of a ``[bots.<name>]`` table)
WEIGHTS = ("temperature", "end_turn", "damage", "heal", "energy", "win")
PERSONALITY = record("Personality", [(name, np.float64) for name in WEIGHTS], "A utility bot's weights.")

#: the lead signal's weights (the keys of ``[lead]``, :mod:`.lead`), each with simkit's authored default
LEADS = (("hp", 1.0), ("energy", 0.5))
LEAD = record("Lead", [(name, np.float64) for name, _ in LEADS], "The lead signal's weights ([lead]).")
