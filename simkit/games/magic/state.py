"""Magic War's state and packed rules, declared once with names (the bottom of the game's package).

A game is one :data:`GAME` record: its header, the shared tactical pile, one :data:`SIDE` per seat, a table of
:data:`UNIT` places and the board. The scenario's fixed numbers are one :data:`RULES` record: the settings of
the rules page, one :data:`CARD` per unit card, one :data:`SKILL` per skill (a primitive of the roster page's
B.1 with its parameters) and one :data:`RACE` per race. The engine reads them by name (``unit.markers``,
``g.sides[p].active_magic``, ``rules.cards[unit.type].attack``, ``skill.radius``), compiled by numba and as plain
Python alike (:mod:`simkit.games.kits.state`); every view of a game (snapshots, the ``Match`` properties,
literal positions in tests) comes from these declarations.

Encodings used throughout: a cell is ``i = cols * r + c`` (``(c, r)`` as on the rules page), -1 for none; a
seat is 0 (the first player) or 1; a card, skill or race is its row in ``rules.cards``, ``rules.skills``,
``rules.races`` (scenario file order; -1 for none); flags are 0 or 1. The enumerations below (upper case) name
values of fields, never positions in the state.

Nothing here imports the rest of the game: the engine sits above this module, the bots above the engine and the
scenario reader (``tables.py``) on top.
"""

from __future__ import annotations

import numpy as np

from simkit.games.kits.state import record

I = np.int64

# ---- sizes (each a bound the scenario reader checks, or proven from one) -------------------------------
#: cells of the largest board: ``cols x rows`` is at most 63, so a set of cells is the bits of one int64
MAX_CELLS = 64
#: unit places of a game. At most one unit stands on a cell, so at most 63 are alive at once; the 2 leaders and
#: both armies of the deployment fit too (each army within its own deployment rows). A summon needs an empty
#: cell (8.2), so it finds fewer than 63 live units and, the places of dead units being reused once all are
#: taken, always a place: no summon the page allows is ever refused for want of one
MAX_UNITS = 64
#: tactical cards in the pile (``kinds x copies``, at most 64), and so in any hand
MAX_PILE = 64
#: unit cards of a scenario (a set of card types is the bits of one int64)
MAX_CARDS = 64
#: skills of a scenario
MAX_SKILLS = 64
#: skills on one card
CARD_SKILLS = 4
#: races of a scenario
MAX_RACES = 16
#: cost bands of the tactical draws (``draw_by_cost``)
MAX_BANDS = 4

# ---- enumerations --------------------------------------------------------------------------------------
UNPLACED, ALIVE, DEAD = 0, 1, 2                    # Unit.status
DEPLOY, PLAY, OVER = 0, 1, 2                       # Game.phase
END_REASONS = ("none", "leader", "turn_limit")     # Game.reason
END_NONE, END_LEADER, END_TURN_LIMIT = 0, 1, 2
DRAW = 2                                           # Game.winner: 0 / 1 a seat, 2 a draw, -1 not yet
PRIMITIVES = ("attack_modifier_aura", "damage_reduction", "attack_bonus_aura", "precision_aura", "move_bonus_aura",
              "heal", "free_active", "summon", "splash_on_clustered", "on_death")  # Skill.kind (roster B.1)
(ATTACK_MODIFIER, DAMAGE_REDUCTION, ATTACK_BONUS, PRECISION_AURA, MOVE_BONUS, HEAL, FREE_ACTIVE, SUMMON, SPLASH,
 ON_DEATH) = range(10)
ACTIVE_PRIMITIVES = (HEAL, FREE_ACTIVE, SUMMON)
OF_ANY, OF_MELEE, OF_RANGED = -1, -2, -3           # Skill.of_type, or a card's row
TARGETS = ("self", "friend")                       # Skill.target
TARGET_SELF, TARGET_FRIEND = 0, 1
TIEBREAKS = ("leader_hp_fraction", "army_value_fraction", "draw")  # Rules.tiebreak
BY_LEADER_HP, BY_ARMY_VALUE, BY_DRAW = 0, 1, 2
SHAPES = ("line", "manhattan")                      # Rules.ranged_shape
LINE, MANHATTAN = 0, 1
JOINERS = ("not_attacked", "not_acted")            # Rules.combined_joiners
NOT_ATTACKED, NOT_ACTED = 0, 1

# ---- the packed rules ------------------------------------------------------------------------------------
CARD = record("Card", [
    ("cost", I),          # gold (a leader: 0)
    ("attack", I),        # dice of its attack
    ("ranged", I),        # 0 melee, 1 ranged
    ("range", I),         # a ranged unit's reach in cells (melee: Rules.melee_range)
    ("hp", I),
    ("flies", I),         # 0 walks, 1 flies
    ("move", I),          # move points
    ("leader", I),        # 1 for its race's leader
    ("hero", I),          # 1 for a hero (at most one per army)
    ("race", I),          # row of Rules.races
    ("max_copies", I),
    ("active", I),        # row of Rules.skills of its active skill (heal, free_active, summon), -1 none
    ("skills", I, CARD_SKILLS),  # rows of Rules.skills of all its skills, -1 past the last
], "A unit card (3.1): what every unit of the type has printed.")

SKILL = record("Skill", [
    ("kind", I),          # PRIMITIVES index
    ("k", I),             # auras: dice, hits, precision or move it adds or takes
    ("radius", I),        # auras: covers own units at Manhattan 1..radius
    ("include_self", I),  # auras: 1 when it covers its source too
    ("of_type", I),       # auras: OF_ANY, OF_MELEE, OF_RANGED or a card's row: which covered units it affects
    ("range", I),         # heal, free_active: a friend within this Manhattan distance
    ("amount", I),        # heal: markers removed
    ("magic", I),         # active skills: magic paid on use
    ("target", I),        # free_active: TARGET_SELF or TARGET_FRIEND
    ("self_damage", I),   # free_active: markers the source takes
    ("min_hp", I),        # free_active: the source's least current HP to use it
    ("dice", I),          # free_active: dice given; splash: dice rolled at each enemy
    ("precision", I),     # free_active: precision given
    ("move", I),          # free_active: move given
    ("unit", I),          # summon: the card's row summoned
    ("ring_near", I),     # splash: enemies at Manhattan ring_near..ring_far from the target
    ("ring_far", I),
    ("gain_magic", I),    # on_death: magic its owner stores
], "A skill: one primitive of the roster page (B.1) with its parameters (0 where the primitive has none).")

RACE = record("Race", [
    ("card_as_magic_if_units_le_enemy", I),  # 1: its tactical cards pay magic only while it has no more units
                                             # on the board than the enemy (7.3, the Orcs)
], "A race's own rule.")

BAND = record("Band", [("min_cost", I), ("max_cost", I), ("cards", I)],
              "A tactical draw band (7.3): a dead own unit costing min_cost..max_cost draws this many cards.")

RULES = record("Rules", [
    ("cols", I), ("rows", I),                  # the board (cols x rows <= 63)
    ("crown", I, 2),                           # per seat, the cell of its leader's crown [R2]
    ("deploy_first_row", I, 2),                # per seat, its deployment rows first..last [R3]
    ("deploy_last_row", I, 2),
    ("obstacles", I),                          # set of cells (bit i: cell i) [R4]
    ("min_units", I), ("max_units", I),        # an army's size [R19]
    ("budgets", I, 2),                         # per seat, its gold (4.1)
    ("budget_exact", I),                       # 1: an army costs exactly its seat's budget [R16]
    ("leader_immune_turns", I),                # global turns 1..n during which leaders are immune [R14]
    ("turn_limit", I),                         # the last global turn [R34]
    ("tiebreak", I, 3),                        # TIEBREAKS, in order [R34]
    ("die_sides", I),
    ("melee_range", I),                        # [R6]
    ("melee_hit_min", I), ("ranged_hit_min", I),  # a die hits on at least this (6.2)
    ("ranged_shape", I),                       # LINE or MANHATTAN [R7]
    ("ranged_blocked", I),                     # 1: a unit or obstacle between blocks a ranged line [R7]
    ("combined_joiners", I),                   # NOT_ATTACKED or NOT_ACTED [R31]
    ("summoned_can_act", I),                   # 1: a summoned unit may act in the turn of its summoning [R32]
    ("friend_includes_source", I),             # 1: a free_active with target "friend" may target its source [S2]
    ("leader_skill_after_attack", I),          # 1: a leader may use its skill after its attack, 0: before only [S6]
    ("per_kill", I),                           # magic stored per unit an action destroys (7.2)
    ("tactic_kinds", I), ("tactic_copies", I),  # the pile: kinds x copies cards
    ("band_count", I), ("bands", BAND, MAX_BANDS),  # the draw bands in use (7.3) [R25]
    ("cap", I), ("unlocked_cap", I),           # cards a player may draw in a game, before and after an unlock [R26]
    ("unlock_leader_hp", I),                   # unlock (5): the leader's HP at most this
    ("card_count", I), ("cards", CARD, MAX_CARDS),      # the unit cards in use
    ("skill_count", I), ("skills", SKILL, MAX_SKILLS),  # the skills in use
    ("race_count", I), ("races", RACE, MAX_RACES),      # the races in use
], "A scenario's fixed numbers, built once by tables.py: never part of a game's state.")

# ---- a game's state --------------------------------------------------------------------------------------
UNIT = record("Unit", [
    ("type", I),             # row of Rules.cards
    ("side", I),             # its owner's seat
    ("cell", I),             # where it stands; -1 while unplaced
    ("markers", I),          # damage markers: HP left is max(0, card.hp - markers) (6.2)
    ("status", I),           # UNPLACED, ALIVE or DEAD (a dead unit's place may be reused by a summon)
    ("moved", I),            # 1: moved this turn (or may no longer move)
    ("attacked", I),         # 1: attacked, or used a skill that uses the attack, this turn
    ("skilled", I),          # 1: a leader's skill used this turn
    ("free_used", I),        # 1: its own free_active used this turn
    ("bonus_dice", I),       # free_active effects on it for the rest of this turn: dice,
    ("bonus_precision", I),  # precision,
    ("bonus_move", I),       # move;
    ("buffed_by", I),        # the set of cards (bit t: card t) whose free_active affects it this turn [R28]
    ("summoned", I),         # 1: summoned, not bought
], "One unit on the board, waiting to be deployed, or dead.")

SIDE = record("Side", [
    ("active_magic", I),      # usable now
    ("stored_magic", I),      # usable from the owner's next turn [R23]
    ("drawn", I),             # tactical cards drawn in the game, used ones included
    ("cap", I),               # the draw cap now (7.3)
    ("held", I),              # cards in hand: hand[:held]
    ("hand", I, MAX_PILE),    # card ids 1..kinds
    ("unlocked_alone", I),    # 1: unlock (4) fired (no unit left but the leader)
    ("unlocked_leader_hp", I),  # 1: unlock (5) fired (the leader's HP low)
    ("leader", I),            # the place of its leader in Game.units
    ("race", I),              # row of Rules.races
    ("army_value", I),        # gold of the army bought
    ("to_place", I),          # units still to deploy
    ("magic_gained", I),      # counters for the record: magic gained,
    ("magic_spent", I),       # magic spent from the active pool,
    ("cards_used", I),        # tactical cards spent as magic,
    ("kills", I),             # units its actions destroyed (own ones included),
    ("units_lost", I),        # own units lost (leader aside),
    ("dice", I),              # dice rolled,
    ("skills_used", I),       # active skills used,
    ("summons", I),           # units summoned,
    ("combined", I),          # combined attacks made,
    ("lost", I, MAX_CARDS),   # per card: own units of the card lost,
    ("hits", I, MAX_CARDS),   # per card: dice hits its units rolled on enemy units (attacks and splash, before
                              # reductions)
], "One player: magic, tactical cards, its leader, and what the record counts.")

GAME = record("Game", [
    ("turn", I),               # global turn 1.. (the first player plays the odd ones); 0 while deploying
    ("to_act", I),             # the seat to act
    ("phase", I),              # DEPLOY, PLAY or OVER
    ("winner", I),             # -1 while the game goes on, else a seat or DRAW
    ("reason", I),             # END_REASONS index, 0 while the game goes on
    ("dice_key", I),           # the dice stream's key: die k of the game is a pure function of it and k (11.1)
    ("dice_rolled", I),        # dice rolled so far: the tape pointer
    ("pile_size", I),          # cards in the shared pile at the start
    ("pile_drawn", I),         # cards drawn from it: the next card is pile[pile_drawn]
    ("pile", I, MAX_PILE),     # the shuffled pile, card ids 1..kinds
    ("places", I),             # unit places in use: units[:places]
    ("origin", I),             # the cell of the acting (principal) unit of the last action (7.1 death order)
    ("actions", I),            # actions done
    ("sides", SIDE, 2),
    ("units", UNIT, MAX_UNITS),
    ("board", I, MAX_CELLS),   # per cell, the place of the unit standing there + 1; 0 empty
], "One game of Magic War.")
