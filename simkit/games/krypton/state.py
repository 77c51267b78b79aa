"""Krypton Tower War's state and packed rules, declared once with names (the bottom of the game's package).

One game is one :data:`GAME` record (``simkit.games.kits.state``: a numpy structured dtype that numba compiles
to plain loads and stores, and that reads by attribute in plain Python too); the engine reads
``s.sides[side].heroes[k].hp``, ``s.this_turn.points``, ``s.judgment.window``. A scenario's numbers reach
the engine as one :data:`RULES` record (``rules.knight_plus``, ``rules.towers[kind].defense``) built by
:func:`pack_rules`. The single-game view (:class:`simkit.games.krypton.match.Match`), its snapshot and the
literal positions of the tests are derived from these declarations through the kit.

Beside the records: the game's fixed sizes (``MAX*``), its words (cards, terrains, tower effects) and the
codes its fields hold (hero states, target kinds, windows, end reasons). Nothing here imports another module
of the game.
"""

from __future__ import annotations

import numpy as np

from simkit.games.kits.state import record

I = np.int64

# ---- the game's words --------------------------------------------------------------------------------
CARDS = (
    "Ignite", "Earthsplit", "Inspire", "Blood Battle", "Shuttle", "Firestorm", "Cataclysm", "Satan's Pact",
    "Divine Grace", "Iron Wall", "Space Swap", "Curse", "Power of Unity", "Unyielding Will", "Same End", "Pursuit",
)
COUNTER_CARDS = ("Space Swap", "Curse", "Power of Unity", "Unyielding Will", "Same End", "Pursuit")
NORMAL_CARDS = tuple(c for c in CARDS if c not in COUNTER_CARDS)
TERRAINS = ("plain", "forest", "hill", "river", "vein")
TOWER_EFFECTS = ("attack", "dice", "hand")
MOVE_RULES = ("die", "knight")
SIDE_NAMES = ("Settan", "Pandaria")

# ---- sizes -------------------------------------------------------------------------------------------
MAXC = 400       # cells of the map at most (radius 11)
MAXH = 6         # heroes per side at most
NCARDS = len(CARDS)
MAXTK = 8        # tower kinds at most
MAXTIERS = 6     # base tiers at most
MAXDICE = 6      # dice per side at most
MAXPILE = 256    # magic cards in the game at most
MAXBL = 64       # Blood Battle targets at most
MAXCLASSES = 16  # hero classes at most
MAXSCRIPT = 32   # scripted dice (tests) at most
MAXLEGAL = 512   # legal decisions at most

# ---- codes the fields hold ------------------------------------------------------------------------------
# card ids: the index in CARDS
(C_IGNITE, C_EARTHSPLIT, C_INSPIRE, C_BLOOD, C_SHUTTLE, C_FIRESTORM, C_CATACLYSM, C_PACT, C_GRACE, C_IRON,
 C_SWAP, C_CURSE, C_UNITY, C_WILL, C_SAME_END, C_PURSUIT) = range(NCARDS)
assert CARDS[C_PURSUIT] == "Pursuit" and CARDS[C_IRON] == "Iron Wall"
# terrain codes (Game.terrain, PackedRules.terrain); a base cell has none
T_PLAIN, T_FOREST, T_HILL, T_RIVER, T_VEIN = range(len(TERRAINS))
T_BASE = -1
# tower effects (TowerKind.effect)
E_ATTACK, E_DICE, E_HAND = range(len(TOWER_EFFECTS))
# hero states (Hero.state)
HS_BOARD, HS_FLIPPED, HS_DEAD = 0, 1, 2
HERO_STATES = ("board", "flipped", "dead")
# attack target kinds (Judgment.target_kind); Blood Battle keeps a target as kind * 1000 + cell
TK_HERO, TK_TOWER, TK_BASE = 0, 1, 2
TARGET_KINDS = ("hero", "tower", "base")
# counter windows of an attack judgment, in order (Judgment.window; Judgment.closed has bit 1 << window)
W_DECLARE, W_COMPARE, W_UNITY, W_DAMAGE = 0, 1, 2, 3
WINDOWS = ("declare", "compare", "unity", "damage")
# Judgment.loser
LOSER_NONE, LOSER_ATTACKER, LOSER_DEFENDER = -1, 0, 1
# Game.winner: -1 while playing, else the index of simkit.core.seats.WINNERS (0, 1 a seat; 2 a draw)
PLAYING, DRAW = -1, 2
# Game.reason (END_SUDDEN_DEATH and END_LOCK only under the authored end rules sudden_death_round, end_at_lock)
END_NONE, END_BASE, END_TURN_LIMIT, END_SUDDEN_DEATH, END_LOCK = 0, 1, 2, 3, 4
END_REASONS = ("none", "base", "turn_limit", "sudden_death", "lock")

# ---- the state of one game --------------------------------------------------------------------------------
HERO = record("Hero", [
    ("cls", I),          # class id: the index in PackedRules.classes (class names in alphabetical order)
    ("hp", I),           # 0..the class's HP (0 once dead)
    ("cell", I),         # cell index; -1 off the board (dead, returning to the base)
    ("state", I),        # HS_BOARD, HS_FLIPPED (revived in place, skips its next turn), HS_DEAD
    ("inspire", I),      # Inspire cards played on it this turn (+ inspire each)
    ("earthsplit", I),   # 1: Earthsplit this turn (its terrain points count 1 in judgments)
    ("floor1", I),       # 1: Unyielding Will this turn (its HP cannot fall below 1)
    ("dealt", I),        # counter: HP (heroes, towers, base) the judgments it won took
    ("attacks", I),      # counter: attack judgments it started
], "One hero piece of a side (its team order: the canonical loadout order).")

SIDE = record("Side", [
    ("base_hp", I),             # the side's base HP (the game ends at 0)
    ("tier", I),                # base tier, 1-based
    ("energy", I),              # energy blocks in store
    ("curse", I),               # Curse plays against this side's heroes this turn (- curse each)
    ("n_hand", I),              # magic cards in hand
    ("hand", I, NCARDS),        # copies of each card in hand, by card id (a hand is a multiset)
    ("mined", I),               # counter: energy gathered from veins
    ("lost", I),                # counter: hero deaths
    ("revivals", I),            # counter: revival choices made (both kinds)
    ("in_place", I),            # counter: revivals in place
    ("built_n", I),             # counter: towers built
    ("towers_lost", I),         # counter: own towers destroyed
    ("cards_played", I),        # counter: magic cards played
    ("upgrades", I),            # counter: base upgrades
    ("attacks", I),             # counter: attack judgments started
    ("base_damage", I),         # counter: HP taken off the enemy base
    ("built", I, MAXTK),        # counter per tower kind: towers built
    ("played", I, NCARDS),      # counter per card: plays
    ("card_dealt", I, NCARDS),  # counter per card: HP enemy heroes lost to its effects
    ("heroes", HERO, MAXH),     # the side's heroes in team order (past the team size: dead, cell -1)
], "One side (seat): its base, energy, hand, heroes and counters.")

THIS_TURN = record("ThisTurn", [
    ("roll", I),              # the movement die of this hero turn (0: not rolled)
    ("points", I),            # movement points left
    ("acted", I),             # 1: the hero action is done
    ("shuttle", I),           # 1: Shuttle played (every entered cell costs 1)
    ("pact", I),              # 1: Satan's Pact played (one attack die shows pact_die)
    ("blood", I),             # 1: Blood Battle played
    ("ending", I),            # 1: the end phase ran (the turn ends once nothing is owed)
    ("n_blood_owed", I),      # Blood Battle judgments still owed
    ("blood_owed", I, MAXBL),  # their targets, target kind * 1000 + cell
], "The acting hero's turn: its roll, points and what was played this turn.")

JUDGMENT = record("Judgment", [
    ("on", I),                     # 1 while an attack judgment is open
    ("attacker", I),               # the attacking hero's index in its side
    ("side", I),                   # the attacking side
    ("defender", I),               # the defending side
    ("target_kind", I),            # TK_HERO, TK_TOWER, TK_BASE
    ("target_side", I),            # the target's side (the defender)
    ("target_hero", I),            # the target hero's index (TK_HERO)
    ("cell", I),                   # the target's cell
    ("window", I),                 # W_DECLARE .. W_DAMAGE: the counter window open now
    ("n_attack_dice", I),          # the attacker's dice rolled
    ("attack_dice", I, MAXDICE),   # their faces
    ("n_defence_dice", I),         # the defending hero's dice rolled (a building rolls none)
    ("defence_dice", I, MAXDICE),  # their faces
    ("unity", I),                  # Power of Unity's bonus to the defending hero
    ("has_totals", I),             # 1 once the totals are compared
    ("attack_total", I),
    ("defence_total", I),
    ("same_end", I),               # 1: Same End played
    ("closed", I),                 # bit 1 << window: windows the defender passed
    ("loser", I),                  # LOSER_NONE, LOSER_ATTACKER, LOSER_DEFENDER
    ("d", I),                      # the difference of the totals: what the loser loses
    ("dead", I),                   # bit side * MAXH + hero: heroes that died in this judgment
], "The attack judgment under way (rules page section 7).")

REVIVAL = record("Revival", [
    ("side", I),   # the dead hero's side (it chooses)
    ("hero", I),   # its index
    ("cell", I),   # where it died (revival in place)
], "A revival choice owed (rules page section 12).")

GAME = record("Game", [
    ("turn", I),                          # hero turn counter, 0-based: side = turn % 2, hero = turn // 2 % team
    ("ctr", I),                           # draws taken from the game's stream
    ("key", I),                           # the stream's key (63-bit)
    ("winner", I),                        # PLAYING (-1), 0 or 1 the winning seat, DRAW (2)
    ("reason", I),                        # END_NONE, END_BASE, END_TURN_LIMIT, END_SUDDEN_DEATH, END_LOCK
    ("n_events", I),                      # events so far (counted even when not logged)
    ("script_overrun", I),                # 1: a die was asked for beyond the scripted ones (tests)
    ("n_scripted", I),                    # scripted dice (tests): 0 none, -1 scripted with none left
    ("next_scripted", I),                 # the next scripted die's index
    ("scripted", I, MAXSCRIPT),           # the scripted dice in order
    ("this_turn", THIS_TURN),             # the acting hero's turn
    ("judgment", JUDGMENT),               # the open attack judgment, if any
    ("n_revivals_owed", I),               # revival choices owed
    ("revivals_owed", REVIVAL, 2 * MAXH),  # in the order they are owed
    ("n_pile", I),                        # cards in the magic pile
    ("pile", I, MAXPILE),                 # card ids, bottom to top (the next draw: pile[n_pile - 1])
    ("n_discard", I),                     # cards on the discard pile
    ("discard", I, MAXPILE),              # card ids in the order played
    ("sides", SIDE, 2),                   # by seat: 0 acts first
    ("terrain", I, MAXC),                 # terrain code of each cell now (a spent vein is plain; T_BASE)
    ("stock", I, MAXC),                   # vein stock of each cell now (0 off veins)
    ("tower_side", I, MAXC),              # the side of the tower on each cell, -1: none
    ("tower_kind", I, MAXC),              # its kind (PackedRules.towers index), 0 when none
    ("tower_hp", I, MAXC),                # its HP, 0 when none
    ("iron_wall", I, MAXC),               # 1: Iron Wall on it (it cannot lose HP)
], "One game of Krypton Tower War.")

# ---- the packed rules: a scenario's numbers as the engine reads them -------------------------------------------
TOWER_KIND = record("TowerKind", [
    ("cost", I),     # energy
    ("defense", I),  # its total in a judgment
    ("hp", I),
    ("effect", I),   # E_ATTACK, E_DICE, E_HAND
], "A tower kind (scenario [towers], file order).")

HERO_CLASS = record("HeroClass", [
    ("hp", I),       # max HP
    ("range", I),    # attack range (hex distance)
    ("knight", I),   # 1: the Knight's move rule (roll + knight_plus on plain or vein, else - knight_minus)
], "A hero class (scenario [classes], alphabetical).")

RULES = record("PackedRules", [
    ("cells", I),                      # cells of the map (C)
    ("team", I),                       # heroes per side
    ("max_rounds", I),                 # the round cap
    ("limit_by_hp", I),                # 1: at the cap the higher base wins (turn_limit_result = "base_hp")
    ("limit_by_tier", I),              # 1: at the cap, bases equal in HP, the higher tier wins ("base_hp_tier")
    ("sudden_death", I),               # sudden_death_round: after this round a base HP taken wins (0: never)
    ("end_at_lock", I),                # 1: a game that stands locked ends drawn (end_at_lock)
    ("siege", I),                      # siege_round: after this round the bases' defence falls (0: never)
    ("siege_step", I),                 # siege_step: defence lost per round past siege_round
    ("max_dice", I),                   # dice per side at most
    ("dice_sides", I),                 # faces of a die
    ("combine_max", I),                # 1: a judgment's dice count their highest (dice_combine = "max"), 0: sum
    ("knight_plus", I),                # knight_plain_bonus
    ("knight_minus", I),               # knight_other_malus
    ("base_hp", I),                    # a base's HP at the start
    ("building_attack", I),            # damage of an Attack Tower's or a base's hit
    ("building_range", I),             # range of those hits
    ("hand_limit", I),                 # magic hand limit without Magic Towers
    ("death_divisor", I),              # death penalty: floor(energy / death_divisor) goes to the other side
    ("hp_price_min", I),               # the HP a hero needs to pay a card's HP price
    ("hp_price", I),                   # Blood Battle's and Satan's Pact's HP price
    ("effect_damage", I),              # Ignite, Firestorm, Cataclysm
    ("inspire", I),                    # Inspire's bonus
    ("curse", I),                      # Curse's malus
    ("heal", I),                       # Divine Grace's heal
    ("heal_energy", I),                # Divine Grace's energy price
    ("pact_die", I),                   # Satan's Pact's fixed die
    ("unity_radius", I),               # Power of Unity: friendly heroes counted within this distance
    ("unity_max", I),                  # Power of Unity's bonus at most
    ("swap_damage", I),                # Space Swap: an Attack Tower's hit on its new cell
    ("n_tiers", I),                    # base tiers
    ("prayer_tier", I),                # the tier a Prayer Tower needs
    ("bases", I, 2),                   # each side's base cell
    ("n_tower_kinds", I),
    ("n_spawns", I, 2),                # spawn points of each side
    ("start_energy", I),
    ("terrain_points", I, 8),          # move cost and combat bonus by terrain code (T_*)
    ("base_defense", I, MAXTIERS),     # by tier - 1
    ("upgrade_cost", I, MAXTIERS),     # the upgrade from tier i + 1 (index i)
    ("towers", TOWER_KIND, MAXTK),     # tower kinds
    ("classes", HERO_CLASS, MAXCLASSES),  # hero classes
    ("spawns", I, (2, 2 * MAXH)),      # each side's spawn cells, in order
    ("copies", I, NCARDS),             # copies of each card in the pile
    ("terrain", I, MAXC),              # terrain code of each cell at the start
    ("stock", I, MAXC),                # vein stock of each cell at the start
    ("vein_yield", I, MAXC),           # what a gather takes there at most
    ("spawn_point", I, MAXC),          # 1 on a spawn point of either side
], "A scenario's numbers as the engine reads them (built once by pack_rules).")


def pack_rules(tables) -> np.void:
    """The scenario's tables (:class:`simkit.games.krypton.tables.Rules`) as one :data:`RULES` record.

    Raises:
        ValueError: the scenario exceeds the engine's sizes (the scenario reader refuses such numbers first).
    """
    from simkit.games.kits.state import zeros

    st = tables.settings
    C = tables.grid.size
    if C > MAXC or tables.team_size > MAXH or len(tables.towers) > MAXTK or len(tables.base_defense) > MAXTIERS \
            or st["max_dice"] > MAXDICE or sum(tables.copies.values()) > MAXPILE \
            or len(tables.classes) > MAXCLASSES or max(len(tables.spawns[0]), len(tables.spawns[1])) > 2 * MAXH:
        raise ValueError(f"krypton: the scenario exceeds the engine's sizes (cells <= {MAXC}, team <= {MAXH}, "
                         f"tower kinds <= {MAXTK}, tiers <= {MAXTIERS}, dice <= {MAXDICE}, cards <= {MAXPILE})")
    r = zeros(RULES)
    r.cells = C
    r.team = tables.team_size
    r.max_rounds = st["max_rounds"]
    r.limit_by_hp = st["turn_limit_result"] in ("base_hp", "base_hp_tier")
    r.limit_by_tier = st["turn_limit_result"] == "base_hp_tier"
    r.sudden_death = st["sudden_death_round"]
    r.end_at_lock = st["end_at_lock"]
    r.siege = st["siege_round"]
    r.siege_step = st["siege_step"]
    r.max_dice = st["max_dice"]
    r.dice_sides = st["dice_sides"]
    r.combine_max = st["dice_combine"] == "max"
    r.knight_plus = st["knight_plain_bonus"]
    r.knight_minus = st["knight_other_malus"]
    r.base_hp = st["base_hp"]
    r.building_attack = st["building_attack"]
    r.building_range = st["building_attack_range"]
    r.hand_limit = st["hand_limit"]
    r.death_divisor = st["death_penalty_divisor"]
    r.hp_price_min = st["hp_price_min"]
    r.hp_price = st["hp_price"]
    r.effect_damage = st["effect_damage"]
    r.inspire = st["inspire_bonus"]
    r.curse = st["curse_malus"]
    r.heal = st["heal"]
    r.heal_energy = st["heal_energy"]
    r.pact_die = st["pact_die"]
    r.unity_radius = st["unity_radius"]
    r.unity_max = st["unity_max"]
    r.swap_damage = st["swap_damage"]
    r.n_tiers = len(tables.base_defense)
    r.prayer_tier = tables.prayer_tier
    r.bases[:] = tables.bases
    r.n_tower_kinds = len(tables.towers)
    r.n_spawns[:] = len(tables.spawns[0]), len(tables.spawns[1])
    r.start_energy = st["start_energy"]
    r.terrain_points[:len(TERRAINS)] = tables.terrain_points
    r.base_defense[:len(tables.base_defense)] = tables.base_defense
    r.upgrade_cost[:len(tables.upgrade_cost)] = tables.upgrade_cost
    for i, tw in enumerate(tables.towers.values()):
        kind = r.towers[i]
        kind.cost, kind.defense, kind.hp, kind.effect = tw.cost, tw.defense, tw.hp, TOWER_EFFECTS.index(tw.effect)
    for i, hc in enumerate(tables.classes.values()):
        cls = r.classes[i]
        cls.hp, cls.range, cls.knight = hc.hp, hc.range, hc.move == "knight"
    for side in (0, 1):
        for i, c in enumerate(tables.spawns[side]):
            r.spawns[side, i] = c
            r.spawn_point[c] = 1
    for i, card in enumerate(CARDS):
        r.copies[i] = tables.copies[card]
    r.terrain[:C] = tables.terrain
    r.stock[:C] = tables.stock
    r.vein_yield[:C] = tables.vein_yield
    return r
