"""The Card Duel's state and packed rules, declared once: every other module of the game reads these names.

A game is one :data:`STATE` record (rules page ``shared/rules/card-duel.md``): the shared numbers (turn,
distance, phase, result), then one :data:`PLAYER` per seat, then what the engine counts per card. A player's
cards sit in fixed *slots*: slot ``i`` is the ``i``-th card of the player's deck list
(:func:`simkit.games.duel.tables.deck_list`), and each per-slot field holds that card's number. The engine
reads ``player.hp``, ``player.zone[i] == HAND``, ``card.range`` and ``rules.turn_draw``; numba compiles
them to the loads and stores an offset table would (:mod:`simkit.games.kits.state`), and the same source runs
as plain Python. A snapshot, a test's literal position and the ``Match`` properties come from these
declarations through the kit.

The scenario's numbers reach the engine as :data:`SETTINGS` (the ``[rules]`` table, one record), a
:data:`CARD` per card of the pool and each card's :data:`EFFECT` lists; the bots' weights as a
:data:`PERSONALITY` and a search's value weights as a :data:`VALUE`. The enumerations (card types, statuses,
zones, phases, action kinds, the reasons an action is illegal) are the words of those numbers.
"""

from __future__ import annotations

import numpy as np

from simkit.core.seats import WINNERS
from simkit.games.kits.state import record

I = np.int64
F = np.float64

#: most cards a deck may hold (the state keeps this many slots per player)
MAX_DECK = 32
#: most legal actions one position may offer (the engine's list; ``tables`` refuses rules that could offer more)
MAX_LEGAL = 512
#: most actions of one game (the rules bound a game far below this; reaching it is a bug)
ACTION_CAP = 20000

# ---- the words of the numbers ----------------------------------------------------------------------------
#: card types (rules page section 5), in the note's order
TYPES = ("action", "magic", "action_magic", "weapon", "attachment", "persistent", "counter")
T_ACTION, T_MAGIC, T_ACTION_MAGIC, T_WEAPON, T_ATTACHMENT, T_PERSISTENT, T_COUNTER = range(7)
#: statuses (section 6), in the note's order
STATUSES = ("poison", "slow", "regeneration", "shield", "strength")
POISON, SLOW, REGENERATION, SHIELD, STRENGTH = range(5)
#: counter conditions
TRIGGERS = ("none", "damaged_by_opponent")
TR_NONE, TR_DAMAGED_BY_OPPONENT = range(2)
#: a card's effect lists: effects (action, magic, action_magic, counter), on_attack, on_turn_start
SLOTS = ("effects", "on_attack", "on_turn_start")
SLOT_USE, SLOT_ATTACK, SLOT_TURN_START = range(3)
#: effect primitives
OPS = ("none", "damage", "status", "move_distance")
OP_NONE, OP_DAMAGE, OP_STATUS, OP_MOVE = range(4)
#: whom an effect targets
TARGETS = ("opponent", "self")
TGT_OPPONENT, TGT_SELF = range(2)
#: where a card is (section 3); a view shows the cards its seat may not see as hidden
ZONES = ("source", "hand", "discard", "equipment", "trap", "removed", "hidden", "none")
Z_SRC, Z_HAND, Z_DISC, Z_EQUIP, Z_TRAP, Z_REMOVED, Z_HIDDEN, Z_NONE = range(8)
#: the zones a player's cards are counted in (``Player.counts``)
COUNTED = ZONES[:6]
#: the phase of the turn (section 7)
PHASES = ("play", "discard", "over")
PH_PLAY, PH_DISCARD, PH_OVER = range(3)
#: why a game ended (the schema's end reasons, after "none")
END_REASONS = ("none", "hp_zero", "turn_limit")
END_NONE, END_HP_ZERO, END_TURN_LIMIT = range(3)
#: the winner a turn cap gives to neither seat (as :data:`simkit.core.seats.WINNERS`)
DRAW = 2

#: actions ``(kind, x, y)`` (section 8): the kinds, and what x and y are
KINDS = ("play", "equip", "attach", "set", "use", "advance", "retreat", "end_play", "discard", "end_turn")
K_PLAY = 0      # x card id in hand (action, magic, action_magic, persistent), y the [a, b] pick (0 if none)
K_EQUIP = 1     # x weapon card id in hand
K_ATTACH = 2    # x attachment card id in hand, y slot of an own equipped weapon
K_SET = 3       # x counter card id in hand
K_USE = 4       # x slot of an own equipped weapon
K_ADVANCE = 5
K_RETREAT = 6
K_END_PLAY = 7
K_DISCARD = 8   # x card id in hand (discard phase)
K_END_TURN = 9  # ends the discard phase and the turn

#: why an action is illegal (0: it is legal)
REASONS = (
    "legal",
    "the game is over",
    "not in the play phase",
    "not in the discard phase",
    "no such card in hand",
    "that card's type is not used this way",
    "not enough action points",
    "not enough mana",
    "the distance does not meet the card's requirement",
    "the value is outside the card's [a, b]",
    "the distance would leave 0..max_distance",
    "an attachment card was already used this turn",
    "not an own equipped weapon",
    "a counter card was already set this turn",
    "a weapon was already used this turn",
    "the weapon was equipped this turn",
    "the weapon is cooling down",
    "already advanced or retreated this turn",
    "the distance is already at its limit",
    "the hand is over the limit: discard first",
    "unknown action",
    "the card takes no value",
)
(R_OK, R_OVER, R_NOT_PLAY, R_NOT_DISCARD, R_NOT_IN_HAND, R_WRONG_TYPE, R_AP, R_MANA, R_DISTANCE, R_PICK,
 R_PICK_RANGE, R_ATTACH_USED, R_NO_WEAPON, R_SET_USED, R_WEAPON_USED, R_NEW_WEAPON, R_COOLING, R_MOVED, R_EDGE,
 R_HAND_LIMIT, R_BAD_KIND, R_NO_PICK) = range(22)

# ---- the state of one game -------------------------------------------------------------------------------
PLAYER = record("Player", [
    ("hp", I),
    ("ap", I),                    # action points left this turn
    ("mana", I),                  # mana left this turn
    ("own_turns", I),             # own turns started so far (1 during the first own turn)
    ("moved", I),                 # 1: advanced or retreated this turn
    ("weapon_used", I),           # 1: used a weapon this turn
    ("attached", I),              # 1: used an attachment card this turn
    ("set", I),                   # 1: set a counter card this turn
    ("statuses", I, len(STATUSES)),  # level of each status (0: absent), by STATUSES
    ("counts", I, len(COUNTED)),  # cards in each zone, by COUNTED (kept in a view, where the cards may be hidden)
    # per slot i, the i-th card of the deck list:
    ("card", I, MAX_DECK),        # card id (-1: hidden in a view, or beyond the deck)
    ("zone", I, MAX_DECK),        # where it is, by ZONES
    ("stamp", I, MAX_DECK),       # order it was put into the equipment or trap zone
    ("charge", I, MAX_DECK),      # weapon: stored Charge
    ("ready_on", I, MAX_DECK),    # weapon: usable when own_turns >= ready_on (Cooldown)
    ("equipped_turn", I, MAX_DECK),  # weapon: the turn it was equipped
    ("on", I, MAX_DECK),          # attachment: the slot of the weapon it is on (-1: none)
    # the piles, stacks of slots (top last); -1 beyond their counts:
    ("source", I, MAX_DECK),
    ("discard", I, MAX_DECK),
], "One seat's player: resources, statuses, this turn's allowances and every card of the deck by slot.",
    words={"zone": ZONES}, keys={"statuses": STATUSES, "counts": COUNTED})

STATE = record("State", [
    ("turn", I),                  # turn number, 1.. (seat 0 plays the odd turns)
    ("to_act", I),                # the seat whose turn it is (its decision is owed; counters need none)
    ("phase", I),                 # by PHASES
    ("distance", I),              # the shared distance, 0..max_distance
    ("winner", I),                # -1 none yet, 0 / 1 the winning seat, 2 a draw (WINNERS)
    ("reason", I),                # why the game ended, by END_REASONS
    ("stamp", I),                 # counter giving every card put into an equipment or trap zone its order
    ("shuffle", I),               # the shuffle stream's seed (63-bit); 0 in a view
    ("drawn", I),                 # words taken from the shuffle stream; 0 in a view
    ("viewer", I),                # -1: the whole game; 0 / 1: what that seat sees (hidden parts scrubbed)
    ("deck_size", I),             # cards per deck (slots 0..deck_size-1 are used)
    ("players", PLAYER, 2),
    # what the engine counts for the records, after what the rules and the bots read (a view does not copy it):
    ("played", I, (2, MAX_DECK)),  # times seat p's slot i was played, attached or set (a weapon: used)
    ("dealt", I, (2, MAX_DECK)),   # HP the opponent lost to its effects (counted on the first slot holding the card)
], "One Card Duel game.", words={"phase": PHASES, "winner": WINNERS, "reason": END_REASONS})

#: one effect list being resolved (the engine's stack of them): whose, which card, which of its lists, the next
#: effect, the card's [a, b] pick
FRAME = record("Frame", [("owner", I), ("card", I), ("slot", I), ("next", I), ("pick", I)],
               "One effect list on the stack of effects being resolved.")
#: the most effect lists waiting at once (a card, its attachments, the counters they trigger)
MAX_FRAMES = 4 * MAX_DECK + 8

# ---- the scenario's numbers, packed for the engine ---------------------------------------------------------
SETTINGS = record("Settings", [
    ("hp", I), ("max_hp", I), ("start_distance", I), ("max_distance", I), ("first_draw", I), ("second_draw", I),
    ("turn_draw", I), ("hand_limit", I), ("action_points", I), ("mana", I), ("turn_limit", I),
    ("limit_by_hp", I),           # turn_limit_result = "hp": 1 (the more HP wins at the cap), "draw": 0
    ("charge_resets", I), ("strength_on_own_poison", I),
    ("deck_size", I), ("melee_max_range", I),
], "The scenario's [rules] numbers (and its deck size).")

CARD = record("Card", [
    ("type", I),                  # by TYPES
    ("cost_ap", I), ("cost_mana", I),
    ("min_distance", I), ("max_distance", I),  # a non-weapon card is used only within them
    ("range", I), ("charge", I), ("cooldown", I),  # a weapon's
    ("remove", I),                # 1: removed from the game after its effect instead of discarded
    ("trigger", I),               # a counter card's condition, by TRIGGERS
    ("pick", I), ("pick_min", I), ("pick_max", I),  # 1: the card takes a value in [pick_min, pick_max]
], "One card of the pool (a [cards.<name>] table).", words={"type": TYPES, "trigger": TRIGGERS})

EFFECT = record("Effect", [
    ("op", I),                    # by OPS (OP_NONE ends the list)
    ("target", I),                # by TARGETS
    ("amount", I), ("void", I), ("piercing", I),  # damage
    ("kind", I), ("level", I),    # status: its kind (by STATUSES) and level
    ("min", I), ("max", I),       # move_distance: the user picks v in [min, max]
], "One effect of a card's effect list.", words={"op": OPS, "target": TARGETS, "kind": STATUSES})

# ---- the bots' numbers (the [bots] tables), packed --------------------------------------------------------
#: The features a utility bot weighs, in the order of :data:`PERSONALITY`. Each is read from the bot's own
#: view (rules page section 12): the score of an action is the change it makes to ``sum(weight * feature)``,
#: ending the play phase (or the turn) scores ``end_turn``.
WEIGHTS = (
    ("temperature", "scale of the Gumbel noise added to every score (0: always the best action)"),
    ("end_turn", "score of ending the play phase or the turn: an action is played only when it scores more"),
    ("damage", "per HP the opponent has lost"),
    ("hp", "per own HP"),
    ("shield", "per own Shield level, up to shield_cap"),
    ("shield_cap", "own Shield above this many levels is worth nothing more"),
    ("enemy_shield", "per opponent Shield level"),
    ("poison", "per Poison level on the opponent"),
    ("own_poison", "per Poison level on oneself"),
    ("slow", "per Slow level on the opponent"),
    ("regeneration", "per own Regeneration level"),
    ("strength", "per own Strength level"),
    ("weapon", "per own equipped weapon"),
    ("attachment", "per attachment card on an own weapon"),
    ("persistent", "per own persistent magic card in play"),
    ("trap", "per own set counter card"),
    ("charge", "per stored Charge point on own weapons"),
    ("card", "per card in hand"),
    ("variety", "per distinct card in hand"),
    ("reach", "per own weapon whose range reaches the distance"),
    ("threat", "per opponent weapon whose range reaches the distance"),
    ("prefer_distance", "the distance the bot likes (never beyond the longest range of its own weapons)"),
    ("distance", "per step between the distance and prefer_distance"),
    ("win", "the opponent's HP is at 0"),
)
PERSONALITY = record("Personality", [(name, F) for name, _ in WEIGHTS], "A utility bot's weights ([bots.<name>]).")

#: the value weights of a search bot, in the order of :data:`VALUE` (keys ``value_<name>``)
VALUES = (
    ("hp", "per HP of own minus the opponent's"),
    ("shield", "per Shield level of own minus the opponent's"),
    ("poison", "per Poison level on the opponent minus on oneself"),
    ("strength", "per Strength and Regeneration level of own minus the opponent's"),
    ("weapons", "per equipped weapon of own minus the opponent's"),
    ("policy", "times the policy personality's utility of the position (its own view)"),
    ("win", "a won game (minus for a lost one)"),
)
VALUE = record("Value", [(name, F) for name, _ in VALUES], "A search bot's value weights (value_<name> keys).")

# ---- the lead signal's weights (the [lead] table), packed ------------------------------------------------
#: What a seat's standing counts, in the order of :data:`LEAD` (keys of ``[lead]``), with simkit's authored
#: default (the designer's document gives none) and its words. :mod:`simkit.games.duel.lead` reads them.
LEADS = (
    ("hp", 1.0, "per HP (the unit: every other weight is in HP)"),
    ("shield", 1.0, "per own Shield level (a level absorbs one HP of non-piercing damage)"),
    ("poison", 1.0, "per Poison level on oneself, counted against (a level deals one HP in all)"),
    ("regeneration", 1.0, "per own Regeneration level (a level heals up to one HP in all)"),
    ("strength", 2.0, "per own Strength level (it adds one HP to every later hit)"),
    ("weapon", 2.0, "per own equipped weapon"),
    ("attachment", 1.0, "per attachment card on an own weapon"),
    ("persistent", 2.0, "per own persistent magic card in play"),
)
LEAD = record("Lead", [(name, F) for name, _, _ in LEADS], "The lead signal's weights ([lead]).")
