"""The fixed ``Rules`` of a Card Duel scenario: every number and card the engine reads, packed as declared.

The engine (:mod:`simkit.games.duel.engine`) is compiled by numba, so the rules reach it as the records
:mod:`simkit.games.duel.state` declares: ``settings`` (the ``[rules]`` numbers, one
:data:`~simkit.games.duel.state.SETTINGS` record: ``settings.turn_draw``), ``cards`` (one
:data:`~simkit.games.duel.state.CARD` per card of the pool: ``cards[c].range``) and ``effects`` (each card's
effect lists over the primitives ``OP_*``, :data:`~simkit.games.duel.state.EFFECT` records). This module is
the top of the game's package: it reads the scenario and may use everything below it (the state, the engine's
bounds, the bots' tables); nothing of the game imports it but ``batch``, ``match`` and the checks.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.games.duel.bots_config import read_bot_settings
from simkit.games.duel.state import (
    ACTION_CAP,
    CARD,
    EFFECT,
    LEAD,
    LEADS,
    MAX_DECK,
    MAX_LEGAL,
    OP_DAMAGE,
    OP_MOVE,
    OP_STATUS,
    OPS,
    SETTINGS,
    SLOT_USE,
    SLOTS,
    STATUSES,
    T_ACTION,
    T_ACTION_MAGIC,
    T_ATTACHMENT,
    T_COUNTER,
    T_MAGIC,
    T_PERSISTENT,
    T_WEAPON,
    TARGETS,
    TRIGGERS,
    TYPES,
)
from simkit.games.kits.bot_tables import number
from simkit.games.kits.decks import deck_pool as read_pool
from simkit.games.kits.state import zeros
from simkit.scenario import Field

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
        settings: the ``[rules]`` numbers, a :data:`~simkit.games.duel.state.SETTINGS` record.
        cards: one :data:`~simkit.games.duel.state.CARD` record per card.
        effects: ``[C, 3, E]`` :data:`~simkit.games.duel.state.EFFECT` records: per card and effect list
            (``SLOT_*``) up to E effects (``OP_NONE`` pads).
        core: ``(card id, copies)`` of every deck's fixed part, in ``[decks] core`` order.
        weapons, spells: the card ids a deck chooses from (alphabetical).
        weapons_per_deck, weapon_copies, spells_per_deck, spell_copies: the deck rule.
        status_labels: ``"positive"``/``"negative"`` per status (labels only).
        lead: the lead signal's weights (``[lead]``), a :data:`~simkit.games.duel.state.LEAD` record
            (:mod:`simkit.games.duel.lead`).
    """

    names: tuple[str, ...]
    settings: np.void
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
    lead: np.void

    @property
    def deck_size(self) -> int:
        """Cards in every deck."""
        return int(self.settings.deck_size)

    def card_id(self, name: str) -> int:
        """The id of the card ``name`` (KeyError if unknown)."""
        return self.names.index(name)

    def type_of(self, card: int) -> str:
        """The card's type name."""
        return TYPES[int(self.cards[card].type)]


def _bounded(f: Field, key: str, default=..., minimum: int | None = 0, maximum: int = VALUE_MAX,
             why: str = "the most simkit plays, so that what a game adds up stays inside the engine's int64") -> int:
    """An integer of ``f`` at ``key`` from ``minimum`` to ``maximum``; refused naming file and key beyond."""
    value = f.int(key, default, minimum=minimum)
    if value > maximum:
        raise f.fail(f"must be at most {maximum} ({why}), got {value}", key)
    return value


_DRAWS = f"a deck's most cards, {MAX_DECK}: drawing more draws nothing more"


def _effects(f: Field, key: str, names_ok: tuple[str, ...], max_distance: int) -> list[dict[str, int]]:
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
            out.append({"op": OP_DAMAGE, "amount": _bounded(e, "amount"), "void": int(e.bool("void", False)),
                        "piercing": int(e.bool("piercing", False)), "target": target})
        elif op == "status":
            e.reject_unknown(("do", "target", "kind", "level"))
            target = TARGETS.index(e.str("target", choices=TARGETS))
            kind = STATUSES.index(e.str("kind", choices=STATUSES))
            out.append({"op": OP_STATUS, "kind": kind, "level": _bounded(e, "level", minimum=1), "target": target})
        else:
            e.reject_unknown(("do", "min", "max"))
            lo, hi = e.int("min", minimum=None), e.int("max", minimum=None)
            for k, v in (("min", lo), ("max", hi)):
                if abs(v) > max_distance:
                    raise e.fail(f"must be from -{max_distance} to {max_distance} (rules.max_distance: a move "
                                 f"beyond is never legal), got {v}", k)
            if lo > hi:
                raise e.fail(f"min {lo} is above max {hi}", "min")
            out.append({"op": OP_MOVE, "min": lo, "max": hi})
    return out


def _card(f: Field, max_distance: int) -> tuple[np.void, dict[int, list]]:
    """One ``[cards.<name>]`` table -> (its CARD record, effects by slot)."""
    f.reject_unknown(CARD_KEYS)
    kind = TYPES.index(f.str("type", choices=TYPES))
    card = zeros(CARD)
    card.type = kind
    paid_ap = kind in (T_ACTION, T_ACTION_MAGIC)
    paid_mana = kind in (T_MAGIC, T_ACTION_MAGIC, T_ATTACHMENT, T_PERSISTENT)
    card.cost_ap = _bounded(f, "cost_ap", 1 if paid_ap else 0)
    card.cost_mana = _bounded(f, "cost_mana", 0)
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
    card.range = _bounded(f, "range") if weapon else 0
    card.charge = _bounded(f, "charge", 0)
    card.cooldown = _bounded(f, "cooldown", 0)
    card.min_distance = _bounded(f, "min_distance", 0)
    card.max_distance = _bounded(f, "max_distance", max_distance)
    if card.min_distance > card.max_distance:
        raise f.fail(f"min_distance {card.min_distance} is above max_distance {card.max_distance}", "min_distance")
    card.remove = int(f.bool("remove", False))
    if kind == T_COUNTER:
        card.trigger = TRIGGERS.index(f.str("trigger", choices=TRIGGERS[1:]))
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
    picks = [e for e in slots[SLOT_USE] if e["op"] == OP_MOVE]
    if len(picks) > 1:
        raise f.fail("at most one move_distance (one [a, b] choice) per card", "effects")
    if picks:
        card.pick, card.pick_min, card.pick_max = 1, picks[0]["min"], picks[0]["max"]
    return card, slots


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
    """Validate a duel scenario's ``[rules]``, ``[statuses]``, ``[cards]``, ``[decks]`` and ``[lead]`` tables.

    Raises:
        ScenarioError: ``file: key: problem`` for the first thing wrong.
    """
    r = top.table("rules")
    r.reject_unknown(RULES_KEYS)
    st = zeros(SETTINGS)
    st.hp = _bounded(r, "hp", minimum=1)
    st.max_hp = _bounded(r, "max_hp", minimum=1)
    if st.hp > st.max_hp:
        raise r.fail(f"{st.hp} is above max_hp {st.max_hp}", "hp")
    st.max_distance = _bounded(r, "max_distance", minimum=1)
    st.start_distance = _bounded(r, "start_distance")
    if st.start_distance > st.max_distance:
        raise r.fail(f"{st.start_distance} is above max_distance {st.max_distance}", "start_distance")
    st.melee_max_range = _bounded(r, "melee_max_range")
    st.first_draw = _bounded(r, "first_draw", maximum=MAX_DECK, why=_DRAWS)
    st.second_draw = _bounded(r, "second_draw", maximum=MAX_DECK, why=_DRAWS)
    st.turn_draw = _bounded(r, "turn_draw", maximum=MAX_DECK, why=_DRAWS)
    st.hand_limit = _bounded(r, "hand_limit")
    st.action_points, st.mana = _bounded(r, "action_points"), _bounded(r, "mana")
    st.turn_limit = _bounded(r, "turn_limit", minimum=1)
    st.limit_by_hp = int(r.str("turn_limit_result", "draw", choices=("draw", "hp")) == "hp")
    st.charge_resets = int(r.bool("charge_resets", True))
    st.strength_on_own_poison = int(r.bool("strength_on_own_poison", False))

    s = top.table("statuses", required=False)
    s.reject_unknown(STATUSES)
    labels = tuple(s.str(k, "negative" if k in ("poison", "slow") else "positive", choices=("positive", "negative"))
                   for k in STATUSES)

    c = top.table("cards")
    names = tuple(c.keys())
    if not names:
        raise c.fail("defines no card")
    cards = zeros(CARD, len(names))
    slot_lists = []
    for i, name in enumerate(names):
        cards[i], slots = _card(c.table(name), int(st.max_distance))
        slot_lists.append(slots)
    width = max(1, max(len(v) for slots in slot_lists for v in slots.values()))
    effects = np.zeros((len(names), len(SLOTS), width), EFFECT)
    for i, slots in enumerate(slot_lists):
        for s_, lst in slots.items():
            for k, e in enumerate(lst):
                for field, value in e.items():
                    setattr(effects[i, s_, k], field, value)
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
    weapons = _names(d, "weapons", ids, cards["type"], (T_WEAPON,), "weapon")
    spells = _names(d, "spells", ids, cards["type"], (), "spell")
    for w in spells:
        if cards[w].type == T_WEAPON:
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
    st.deck_size = size
    longest = max_turn_limit(size)
    if st.turn_limit > longest:
        raise r.fail(f"must be at most {longest} with decks of {size} cards (a turn takes at most {size} + "
                     f"{TURN_OVERHEAD} actions and the engine plays at most {ACTION_CAP} a game), got "
                     f"{st.turn_limit}", "turn_limit")
    if not d.has("pool"):
        count = math.comb(len(weapons), wpd) * math.comb(len(spells), spd)
        if count > MAX_POOL:
            raise d.fail(f"weapons ({len(weapons)} choose {wpd}) and spells ({len(spells)} choose {spd}) make {count} "
                         f"decks, more than the {MAX_POOL} simkit lists at load; give a [decks] pool",
                         "spells_per_deck")
    _check_legal_actions(r, cards, core, weapons, spells, wpd, wc, spd, size, int(st.max_distance), names)
    read_bot_settings(top.source, top.data)  # a bad [bots] table is refused at load
    return Rules(
        names=names, settings=st, cards=cards, effects=effects, core=tuple(core), weapons=weapons, spells=spells,
        weapons_per_deck=wpd, weapon_copies=wc, spells_per_deck=spd, spell_copies=sc, status_labels=labels,
        lead=read_lead(top),
    )


def read_lead(top: Field) -> np.void:
    """The ``[lead]`` table (optional): the weights of the lead signal (:mod:`simkit.games.duel.lead`), each a
    number from 0 to ``VALUE_MAX`` (``hp`` above 0: it is the unit), simkit's authored default
    (:data:`~simkit.games.duel.state.LEADS`) where a key is missing.

    Raises:
        ScenarioError: an unknown key or a weight out of range, naming file and key.
    """
    f = top.table("lead", required=False)
    f.reject_unknown(tuple(name for name, _, _ in LEADS))
    w = zeros(LEAD)
    for name, default, _ in LEADS:
        setattr(w, name, number(f, name, default, minimum=0.0, maximum=float(VALUE_MAX)))
    if w.hp <= 0.0:
        raise f.fail("must be above 0 (every other weight is in HP)", "hp")
    return w


def max_turn_limit(deck_size: int) -> int:
    """The longest ``turn_limit`` the engine plays with decks of ``deck_size`` cards: every game's actions
    (at most ``deck_size + TURN_OVERHEAD`` a turn) must fit its action cap."""
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
        if cards[c].type == T_ATTACHMENT:
            return weapon_slots
        if cards[c].pick:
            return min(int(cards[c].pick_max - cards[c].pick_min) + 1, max_distance + 1)
        return 1

    core_weapons = sum(n for c, n in core if cards[c].type == T_WEAPON)
    slots = core_weapons + wpd * wc
    weapon_offers = sorted((offers(c, slots) for c in weapons), reverse=True)[:wpd]
    spell_offers = sorted((offers(c, slots) for c in spells), reverse=True)[:spd]
    return sum(offers(c, slots) for c, _ in core) + sum(weapon_offers) + sum(spell_offers) + size + 3


def _check_legal_actions(r: Field, cards, core, weapons, spells, wpd, wc, spd, size, max_distance, names) -> None:
    """Refuse rules under which a position could offer more legal actions than the engine's list holds."""
    most = legal_action_bound(cards, core, weapons, spells, wpd, wc, spd, size, max_distance)
    if most > MAX_LEGAL:
        picks = [names[c] for c in range(len(names)) if cards[c].pick]
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
    return int(rules.settings.turn_limit)
