"""The fixed ``Rules`` of a Card Duel scenario: every number and card the engine reads, as int tables.

The engine (:mod:`simkit.games.duel.engine`) is compiled by numba, so the rules reach it as three
integer arrays: ``settings`` (the ``[rules]`` numbers, indexed by the ``S_*`` constants), ``cards``
(one row per card of the pool, columns ``F_*``) and ``effects`` (each card's effect lists over the
primitives ``OP_*``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.games.kits.decks import deck_pool as read_pool
from simkit.scenario import Field

# card types (rules page section 5), in the note's order
TYPES = ("action", "magic", "action_magic", "weapon", "attachment", "persistent", "counter")
T_ACTION, T_MAGIC, T_ACTION_MAGIC, T_WEAPON, T_ATTACHMENT, T_PERSISTENT, T_COUNTER = range(7)

# statuses (section 6), in the note's order
STATUSES = ("poison", "slow", "regeneration", "shield", "strength")
POISON, SLOW, REGENERATION, SHIELD, STRENGTH = range(5)

# counter conditions
TRIGGERS = ("none", "damaged_by_opponent")
TR_NONE, TR_DAMAGED_BY_OPPONENT = range(2)

# effect lists of a card: effects (action, magic, action_magic, counter), on_attack, on_turn_start
SLOTS = ("effects", "on_attack", "on_turn_start")
SLOT_USE, SLOT_ATTACK, SLOT_TURN_START = range(3)

# effect primitives: one row (op, a, b, c, d) each
OPS = ("none", "damage", "status", "move_distance")
OP_NONE, OP_DAMAGE, OP_STATUS, OP_MOVE = range(4)
# damage: a = amount, b = void, c = piercing, d = target (0 opponent, 1 self)
# status: a = kind, b = level, d = target
# move_distance: a = min, b = max (the user picks v in [a, b])
TARGETS = ("opponent", "self")
TGT_OPPONENT, TGT_SELF = range(2)

# columns of the card table
F_TYPE, F_AP, F_MANA, F_MIN_D, F_MAX_D, F_RANGE, F_CHARGE, F_COOLDOWN, F_REMOVE, F_TRIGGER = range(10)
F_PICK, F_PICK_MIN, F_PICK_MAX = 10, 11, 12  # the card's [a, b] choice (from its move_distance), if any
N_FIELDS = 13

# the settings vector
(S_HP, S_MAX_HP, S_START_DIST, S_MAX_DIST, S_FIRST_DRAW, S_SECOND_DRAW, S_TURN_DRAW, S_HAND_LIMIT, S_AP, S_MANA,
 S_TURN_LIMIT, S_LIMIT_BY_HP, S_CHARGE_RESETS, S_STRENGTH_OWN_POISON, S_DECK_SIZE, S_MELEE) = range(16)
N_SETTINGS = 16

#: most cards a deck may hold (the state keeps this many slots per player)
MAX_DECK = 32

# ---- bounds: every number of a scenario is refused at load beyond what the engine can hold ----------
#: the largest HP, cost, resource, range, damage or status level. The engine keeps a game in int64;
#: a game adds such numbers up (Strength onto damage, status levels over turns, HP minus hits): at
#: most MAX_EFFECTS rows per card and chained counter, for at most the engine's 20,000 actions a game
#: (:func:`max_turn_limit`), about 2e16 at the very worst, far inside int64's 9.2e18.
VALUE_MAX = 10**9
#: actions a turn takes besides playing or discarding its hand's cards (each card at most once: no
#: effect draws during a turn): one weapon use, one move, ending the play phase, ending the turn
TURN_OVERHEAD = 4
#: the most effects one effect list of a card may hold
MAX_EFFECTS = 16
#: the most decks ``[decks]`` may make when no ``pool`` lists them (they are enumerated at load)
MAX_POOL = 100_000

RULES_KEYS = (
    "hp", "max_hp", "start_distance", "max_distance", "melee_max_range", "first_draw", "second_draw", "turn_draw",
    "hand_limit", "action_points", "mana", "turn_limit", "turn_limit_result", "charge_resets",
    "strength_on_own_poison",
)
CARD_KEYS = (
    "type", "cost_ap", "cost_mana", "min_distance", "max_distance", "range", "charge", "cooldown", "remove",
    "trigger", "effects", "on_attack", "on_turn_start",
)
DECK_KEYS = (
    "deck_size", "core", "weapons", "weapons_per_deck", "weapon_copies", "spells", "spells_per_deck", "spell_copies",
    "pool",
)


@dataclass(frozen=True)
class Rules:
    """Tables built once from a scenario; never part of the state.

    Attributes:
        names: card names, the card id is the index.
        settings: ``int64[N_SETTINGS]`` the ``[rules]`` numbers (``S_*``).
        cards: ``int64[C, N_FIELDS]`` one row per card (``F_*``).
        effects: ``int64[C, 3, E, 5]`` per card and slot (``SLOT_*``) up to E effect rows
            ``(op, a, b, c, d)`` (``OP_*``; ``OP_NONE`` pads).
        core: ``(card id, copies)`` of every deck's fixed part, in ``[decks] core`` order.
        weapons, spells: the card ids a deck chooses from (alphabetical).
        weapons_per_deck, weapon_copies, spells_per_deck, spell_copies: the deck rule.
        status_labels: ``"positive"``/``"negative"`` per status (labels only).
    """

    names: tuple[str, ...]
    settings: np.ndarray
    cards: np.ndarray
    effects: np.ndarray
    core: tuple[tuple[int, int], ...]
    weapons: tuple[int, ...]
    spells: tuple[int, ...]
    weapons_per_deck: int
    weapon_copies: int
    spells_per_deck: int
    spell_copies: int
    status_labels: tuple[str, ...]

    @property
    def deck_size(self) -> int:
        """Cards in every deck."""
        return int(self.settings[S_DECK_SIZE])

    def card_id(self, name: str) -> int:
        """The id of the card ``name`` (KeyError if unknown)."""
        return self.names.index(name)

    def type_of(self, card: int) -> str:
        """The card's type name."""
        return TYPES[int(self.cards[card, F_TYPE])]


def _bounded(f: Field, key: str, default=..., minimum: int | None = 0, maximum: int = VALUE_MAX,
             why: str = "the most simkit plays, so that what a game adds up stays inside the engine's int64") -> int:
    """An integer of ``f`` at ``key`` from ``minimum`` to ``maximum``; refused naming file and key beyond."""
    value = f.int(key, default, minimum=minimum)
    if value > maximum:
        raise f.fail(f"must be at most {maximum} ({why}), got {value}", key)
    return value


_DRAWS = f"a deck's most cards, {MAX_DECK}: drawing more draws nothing more"


def _effects(f: Field, key: str, names_ok: tuple[str, ...], max_distance: int) -> list[tuple[int, int, int, int, int]]:
    value = f.get(key, [])
    if not isinstance(value, list):
        raise f.fail(f"must be a list of effect tables, got {value!r}", key)
    if len(value) > MAX_EFFECTS:
        raise f.fail(f"must hold at most {MAX_EFFECTS} effects, got {len(value)}", key)
    out = []
    for i, item in enumerate(value):
        e = Field(f.source, item, f"{f._join(key)}[{i}]")
        if not isinstance(item, dict):
            raise f.fail(f"must be a table like {{ do = \"damage\", amount = 2 }}, got {item!r}", f"{key}[{i}]")
        op = e.str("do", choices=OPS[1:])
        if op not in names_ok:
            raise e.fail(f"{op!r} is not allowed in {key} (allowed: {', '.join(names_ok)})", "do")
        if op == "damage":
            e.reject_unknown(("do", "amount", "void", "piercing", "target"))
            target = TARGETS.index(e.str("target", "opponent", choices=TARGETS))
            out.append((OP_DAMAGE, _bounded(e, "amount"), int(e.bool("void", False)),
                        int(e.bool("piercing", False)), target))
        elif op == "status":
            e.reject_unknown(("do", "target", "kind", "level"))
            target = TARGETS.index(e.str("target", choices=TARGETS))
            kind = STATUSES.index(e.str("kind", choices=STATUSES))
            out.append((OP_STATUS, kind, _bounded(e, "level", minimum=1), 0, target))
        else:
            e.reject_unknown(("do", "min", "max"))
            lo, hi = e.int("min", minimum=None), e.int("max", minimum=None)
            for k, v in (("min", lo), ("max", hi)):
                if abs(v) > max_distance:
                    raise e.fail(f"must be from -{max_distance} to {max_distance} (rules.max_distance: a move "
                                 f"beyond is never legal), got {v}", k)
            if lo > hi:
                raise e.fail(f"min {lo} is above max {hi}", "min")
            out.append((OP_MOVE, lo, hi, 0, 0))
    return out


def _card(f: Field, max_distance: int) -> tuple[list[int], dict[int, list]]:
    """One ``[cards.<name>]`` table -> (card row, effects by slot)."""
    f.reject_unknown(CARD_KEYS)
    kind = TYPES.index(f.str("type", choices=TYPES))
    row = [0] * N_FIELDS
    row[F_TYPE] = kind
    paid_ap = kind in (T_ACTION, T_ACTION_MAGIC)
    paid_mana = kind in (T_MAGIC, T_ACTION_MAGIC, T_ATTACHMENT, T_PERSISTENT)
    row[F_AP] = _bounded(f, "cost_ap", 1 if paid_ap else 0)
    row[F_MANA] = _bounded(f, "cost_mana", 0)
    for key, ok in (("cost_ap", paid_ap), ("cost_mana", paid_mana)):
        if f.has(key) and not ok and f.get(key) != 0:
            raise f.fail(f"a {TYPES[kind]} card costs no {key[5:]} (rules page section 5)", key)
    weapon = kind == T_WEAPON
    for key in ("range", "charge", "cooldown"):
        if f.has(key) and not weapon:
            raise f.fail(f"only weapons have {key}", key)
    for key in ("min_distance", "max_distance"):
        if f.has(key) and weapon:
            raise f.fail("a weapon's reach is its range, not a distance requirement", key)
    row[F_RANGE] = _bounded(f, "range") if weapon else 0
    row[F_CHARGE] = _bounded(f, "charge", 0)
    row[F_COOLDOWN] = _bounded(f, "cooldown", 0)
    row[F_MIN_D] = _bounded(f, "min_distance", 0)
    row[F_MAX_D] = _bounded(f, "max_distance", max_distance)
    if row[F_MIN_D] > row[F_MAX_D]:
        raise f.fail(f"min_distance {row[F_MIN_D]} is above max_distance {row[F_MAX_D]}", "min_distance")
    row[F_REMOVE] = int(f.bool("remove", False))
    if kind == T_COUNTER:
        row[F_TRIGGER] = TRIGGERS.index(f.str("trigger", choices=TRIGGERS[1:]))
    elif f.has("trigger"):
        raise f.fail("only counter cards have a trigger", "trigger")
    allowed = {
        "effects": kind in (T_ACTION, T_MAGIC, T_ACTION_MAGIC, T_COUNTER),
        "on_attack": kind in (T_WEAPON, T_ATTACHMENT),
        "on_turn_start": kind == T_PERSISTENT,
    }
    slots: dict[int, list] = {}
    for s, key in enumerate(SLOTS):
        if f.has(key) and not allowed[key]:
            raise f.fail(f"a {TYPES[kind]} card has no {key}", key)
        ops = ("damage", "status", "move_distance") if key == "effects" and kind != T_COUNTER else ("damage", "status")
        slots[s] = _effects(f, key, ops, max_distance) if allowed[key] else []
    picks = [e for e in slots[SLOT_USE] if e[0] == OP_MOVE]
    if len(picks) > 1:
        raise f.fail("at most one move_distance (one [a, b] choice) per card", "effects")
    if picks:
        row[F_PICK], row[F_PICK_MIN], row[F_PICK_MAX] = 1, picks[0][1], picks[0][2]
    return row, slots


def _names(f: Field, key: str, cards: dict[str, int], types: np.ndarray, kinds: tuple[int, ...],
           what: str) -> tuple[int, ...]:
    """The card ids listed at ``key`` (each of a type in ``kinds`` when given), alphabetical."""
    value = f.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or not value:
        raise f.fail(f"must be a non-empty list of card names, got {value!r}", key)
    if len(set(value)) != len(value):
        raise f.fail("lists a card twice", key)
    out = []
    for name in value:
        if name not in cards:
            raise f.fail(f"unknown card {name!r} (the pool: {', '.join(cards)})", key)
        if kinds and types[cards[name]] not in kinds:
            raise f.fail(f"{name} is not a {what}", key)
        out.append(cards[name])
    names = {i: n for n, i in cards.items()}
    return tuple(sorted(out, key=lambda c: names[c]))


def build_rules(top: Field) -> Rules:
    """Validate a duel scenario's ``[rules]``, ``[statuses]``, ``[cards]`` and ``[decks]`` tables.

    Raises:
        ScenarioError: ``file: key: problem`` for the first thing wrong.
    """
    r = top.table("rules")
    r.reject_unknown(RULES_KEYS)
    st = np.zeros(N_SETTINGS, np.int64)
    st[S_HP] = _bounded(r, "hp", minimum=1)
    st[S_MAX_HP] = _bounded(r, "max_hp", minimum=1)
    if st[S_HP] > st[S_MAX_HP]:
        raise r.fail(f"{st[S_HP]} is above max_hp {st[S_MAX_HP]}", "hp")
    st[S_MAX_DIST] = _bounded(r, "max_distance", minimum=1)
    st[S_START_DIST] = _bounded(r, "start_distance")
    if st[S_START_DIST] > st[S_MAX_DIST]:
        raise r.fail(f"{st[S_START_DIST]} is above max_distance {st[S_MAX_DIST]}", "start_distance")
    st[S_MELEE] = _bounded(r, "melee_max_range")
    st[S_FIRST_DRAW] = _bounded(r, "first_draw", maximum=MAX_DECK, why=_DRAWS)
    st[S_SECOND_DRAW] = _bounded(r, "second_draw", maximum=MAX_DECK, why=_DRAWS)
    st[S_TURN_DRAW] = _bounded(r, "turn_draw", maximum=MAX_DECK, why=_DRAWS)
    st[S_HAND_LIMIT] = _bounded(r, "hand_limit")
    st[S_AP], st[S_MANA] = _bounded(r, "action_points"), _bounded(r, "mana")
    st[S_TURN_LIMIT] = _bounded(r, "turn_limit", minimum=1)
    st[S_LIMIT_BY_HP] = int(r.str("turn_limit_result", "draw", choices=("draw", "hp")) == "hp")
    st[S_CHARGE_RESETS] = int(r.bool("charge_resets", True))
    st[S_STRENGTH_OWN_POISON] = int(r.bool("strength_on_own_poison", False))

    s = top.table("statuses", required=False)
    s.reject_unknown(STATUSES)
    labels = tuple(s.str(k, "negative" if k in ("poison", "slow") else "positive", choices=("positive", "negative"))
                   for k in STATUSES)

    c = top.table("cards")
    names = tuple(c.keys())
    if not names:
        raise c.fail("defines no card")
    rows, slot_lists = [], []
    for name in names:
        row, slots = _card(c.table(name), int(st[S_MAX_DIST]))
        rows.append(row)
        slot_lists.append(slots)
    width = max(1, max(len(v) for slots in slot_lists for v in slots.values()))
    effects = np.zeros((len(names), len(SLOTS), width, 5), np.int64)
    for i, slots in enumerate(slot_lists):
        for s_, lst in slots.items():
            for k, e in enumerate(lst):
                effects[i, s_, k] = e
    cards = np.array(rows, np.int64)
    ids = {n: i for i, n in enumerate(names)}

    d = top.table("decks")
    d.reject_unknown(DECK_KEYS)
    size = d.int("deck_size", minimum=1)
    if size > MAX_DECK:
        raise d.fail(f"must be at most {MAX_DECK} (the engine's slots per player), got {size}", "deck_size")
    core_t = d.table("core")
    core = []
    for name in core_t.keys():
        if name not in ids:
            raise core_t.fail(f"unknown card (the pool: {', '.join(names)})", name)
        core.append((ids[name], _bounded(core_t, name, minimum=1, maximum=MAX_DECK, why=f"a deck's most cards, "
                                         f"{MAX_DECK}")))
    weapons = _names(d, "weapons", ids, cards[:, F_TYPE], (T_WEAPON,), "weapon")
    spells = _names(d, "spells", ids, cards[:, F_TYPE], (), "spell")
    for w in spells:
        if cards[w, F_TYPE] == T_WEAPON:
            raise d.fail(f"{names[w]} is a weapon; list it under weapons", "spells")
    overlap = {names[i] for i, _ in core} & {names[i] for i in weapons + spells}
    if overlap:
        raise d.fail(f"{', '.join(sorted(overlap))} is both a core card and a choice", "core")
    most = f"a deck's most cards, {MAX_DECK}"
    wpd = _bounded(d, "weapons_per_deck", minimum=0, maximum=MAX_DECK, why=most)
    wc = _bounded(d, "weapon_copies", minimum=1, maximum=MAX_DECK, why=most)
    spd = _bounded(d, "spells_per_deck", minimum=0, maximum=MAX_DECK, why=most)
    sc = _bounded(d, "spell_copies", minimum=1, maximum=MAX_DECK, why=most)
    if wpd > len(weapons):
        raise d.fail(f"{wpd} is more than the {len(weapons)} weapons listed", "weapons_per_deck")
    if spd > len(spells):
        raise d.fail(f"{spd} is more than the {len(spells)} spells listed", "spells_per_deck")
    total = sum(n for _, n in core) + wpd * wc + spd * sc
    if total != size:
        raise d.fail(f"core ({sum(n for _, n in core)}) + weapons ({wpd} x {wc}) + spells ({spd} x {sc}) make "
                     f"{total} cards, not {size}", "deck_size")
    st[S_DECK_SIZE] = size
    longest = max_turn_limit(size)
    if st[S_TURN_LIMIT] > longest:
        from simkit.games.duel.batch import ACTION_CAP

        raise r.fail(f"must be at most {longest} with decks of {size} cards (a turn takes at most {size} + "
                     f"{TURN_OVERHEAD} actions and the engine plays at most {ACTION_CAP} a game), got "
                     f"{st[S_TURN_LIMIT]}", "turn_limit")
    if not d.has("pool"):
        count = math.comb(len(weapons), wpd) * math.comb(len(spells), spd)
        if count > MAX_POOL:
            raise d.fail(f"weapons ({len(weapons)} choose {wpd}) and spells ({len(spells)} choose {spd}) make {count} "
                         f"decks, more than the {MAX_POOL} simkit lists at load; give a [decks] pool",
                         "spells_per_deck")
    _check_legal_actions(r, cards, core, weapons, spells, wpd, wc, spd, size, int(st[S_MAX_DIST]), names)
    from simkit.games.duel.bots_config import read_bot_settings

    read_bot_settings(top.source, top.data)  # a bad [bots] table is refused at load
    return Rules(
        names=names, settings=st, cards=cards, effects=effects, core=tuple(core), weapons=weapons, spells=spells,
        weapons_per_deck=wpd, weapon_copies=wc, spells_per_deck=spd, spell_copies=sc, status_labels=labels,
    )


def max_turn_limit(deck_size: int) -> int:
    """The longest ``turn_limit`` the engine plays with decks of ``deck_size`` cards: every game's actions
    (at most ``deck_size + TURN_OVERHEAD`` a turn) must fit its action cap."""
    from simkit.games.duel.batch import ACTION_CAP

    return ACTION_CAP // (deck_size + TURN_OVERHEAD)


def legal_action_bound(cards: np.ndarray, core, weapons, spells, wpd: int, wc: int, spd: int, size: int,
                       max_distance: int) -> int:
    """The most legal actions any deck of the rules can offer at once (what ``engine.legal`` lists).

    In the play phase: per distinct card in hand one action, an attachment one per weapon slot, a card
    with a ``move_distance`` choice one per distance it can reach; one use per equipped card; advance,
    retreat and ending the play phase. The discard phase offers fewer (a discard per distinct card
    and ending the turn).
    """
    def offers(c: int, weapon_slots: int) -> int:
        if cards[c, F_TYPE] == T_ATTACHMENT:
            return weapon_slots
        if cards[c, F_PICK]:
            return min(int(cards[c, F_PICK_MAX] - cards[c, F_PICK_MIN]) + 1, max_distance + 1)
        return 1

    core_weapons = sum(n for c, n in core if cards[c, F_TYPE] == T_WEAPON)
    slots = core_weapons + wpd * wc
    weapon_offers = sorted((offers(c, slots) for c in weapons), reverse=True)[:wpd]
    spell_offers = sorted((offers(c, slots) for c in spells), reverse=True)[:spd]
    return sum(offers(c, slots) for c, _ in core) + sum(weapon_offers) + sum(spell_offers) + size + 3


def _check_legal_actions(r: Field, cards, core, weapons, spells, wpd, wc, spd, size, max_distance, names) -> None:
    """Refuse rules under which a position could offer more legal actions than the engine's list holds."""
    from simkit.games.duel.engine import MAX_LEGAL

    most = legal_action_bound(cards, core, weapons, spells, wpd, wc, spd, size, max_distance)
    if most > MAX_LEGAL:
        picks = [names[c] for c in range(len(names)) if cards[c, F_PICK]]
        why = (f" (cards with a move_distance choice offer one action per distance: {', '.join(picks)})"
               if picks else "")
        raise r.fail(f"{max_distance} lets a position offer up to {most} legal actions, more than the engine's "
                     f"{MAX_LEGAL}{why}; lower it or narrow the choices", "max_distance")


# ---- decks ----------------------------------------------------------------------------------------


def all_decks(rules: Rules) -> list[str]:
    """Every legal deck id, in a fixed order (weapon pairs, then spell triples, alphabetical)."""
    n = rules.names
    out = []
    for ws in itertools.combinations(sorted(n[w] for w in rules.weapons), rules.weapons_per_deck):
        for ss in itertools.combinations(sorted(n[s] for s in rules.spells), rules.spells_per_deck):
            out.append(f"{'+'.join(ws)}:{','.join(ss)}")
    return out


def parse_deck(rules: Rules, deck: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(weapons, spells)`` of a deck id, each sorted; raises :class:`ScenarioError` naming an illegal deck."""
    if not isinstance(deck, str) or deck.count(":") != 1:
        raise ScenarioError(f"deck {deck!r}: expected 'WeaponA+WeaponB:SpellA,SpellB,SpellC'")
    head, tail = deck.split(":")
    ws = tuple(sorted(w.strip() for w in head.split("+") if w.strip()))
    ss = tuple(sorted(s.strip() for s in tail.split(",") if s.strip()))
    known_w = {rules.names[w] for w in rules.weapons}
    known_s = {rules.names[s] for s in rules.spells}
    for w in ws:
        if w not in known_w:
            raise ScenarioError(f"deck {deck!r}: unknown weapon {w!r} (weapons: {', '.join(sorted(known_w))})")
    for s in ss:
        if s not in known_s:
            raise ScenarioError(f"deck {deck!r}: unknown spell {s!r} (spells: {', '.join(sorted(known_s))})")
    if len(ws) != rules.weapons_per_deck or len(set(ws)) != len(ws):
        raise ScenarioError(f"deck {deck!r}: needs {rules.weapons_per_deck} different weapons")
    if len(ss) != rules.spells_per_deck or len(set(ss)) != len(ss):
        raise ScenarioError(f"deck {deck!r}: needs {rules.spells_per_deck} different spells")
    return ws, ss


def canonical_deck(rules: Rules, deck: str) -> str:
    """The canonical id of a legal deck: weapons and spells each in alphabetical order."""
    ws, ss = parse_deck(rules, deck)
    return f"{'+'.join(ws)}:{','.join(ss)}"


def deck_list(rules: Rules, deck: str) -> np.ndarray:
    """``int64[deck_size]`` the card ids of a deck, one per card: core in ``[decks] core`` order, then
    weapons, then spells (each with its copies); the slot order of a player's cards in the state."""
    ws, ss = parse_deck(rules, deck)
    out = [c for c, n in rules.core for _ in range(n)]
    out += [rules.card_id(w) for w in ws for _ in range(rules.weapon_copies)]
    out += [rules.card_id(s) for s in ss for _ in range(rules.spell_copies)]
    return np.array(out, np.int64)


def deck_pool(rules: Rules, top: Field) -> list[str]:
    """The scenario's deck pool: ``[decks] pool`` if given (each deck checked), else every legal deck.

    Read by the kit: :func:`simkit.games.kits.decks.deck_pool`.
    """
    return read_pool(top, lambda deck: canonical_deck(rules, deck), lambda: all_decks(rules), keys=None)


def deck_cards(rules: Rules, deck: str) -> dict[str, tuple[str, ...]]:
    """The cards of ``deck``: its weapons and its spells, by name."""
    weapons, spells = parse_deck(rules, deck)
    return {"weapon": weapons, "spell": spells}


def turn_limit(rules: Rules) -> int:
    """The last turn a game can reach."""
    return int(rules.settings[S_TURN_LIMIT])
