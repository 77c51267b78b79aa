"""One Card Duel game behind a readable facade: tests, scripted positions, replays, ``api_test``.

Actions are tuples naming cards by name (copies in a hand are interchangeable; a card in an
equipment zone is named ``"Dagger"``, or ``"Dagger#2"`` when a deck holds several copies):

``("play", card)`` / ``("play", card, v)`` (a card with an ``[a, b]`` choice), ``("equip", weapon)``,
``("attach", card, weapon)``, ``("set", counter)``, ``("use", weapon)``, ``("advance",)``,
``("retreat",)``, ``("end_play",)``, ``("discard", card)`` (one card), ``("end_turn",)`` (ends the
discard phase and the turn). An illegal action raises :class:`simkit.IllegalAction` naming the
reason and leaves the game unchanged. The rules themselves are :mod:`simkit.games.duel.engine`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.games.duel import engine as E
from simkit.games.duel.batch import END_REASONS, WINNERS, game_seeds
from simkit.games.duel.tables import F_PICK, F_TYPE, STATUSES, T_ATTACHMENT, T_WEAPON, canonical_deck, deck_list

PHASES = ("play", "discard", "over")
_VERBS = {name: k for k, name in enumerate(E.KINDS)}


def slot_names(rules, cards: Sequence[int]) -> list[str]:
    """The name of each slot of a deck list: the card's name, with ``#k`` when the deck has copies."""
    names = [rules.names[int(c)] for c in cards]
    out, seen = [], {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{name}#{seen[name]}" if names.count(name) > 1 else name)
    return out


def action_tuple(rules, cards: Sequence[int], kind: int, x: int, y: int) -> tuple:
    """The engine's action ``(kind, x, y)`` of the seat whose deck list is ``cards``, as a tuple."""
    verb = E.KINDS[kind]
    if kind in (E.K_PLAY,):
        return (verb, rules.names[x], y) if rules.cards[x, F_PICK] else (verb, rules.names[x])
    if kind in (E.K_EQUIP, E.K_SET, E.K_DISCARD):
        return (verb, rules.names[x])
    if kind == E.K_ATTACH:
        return (verb, rules.names[x], slot_names(rules, cards)[y])
    if kind == E.K_USE:
        return (verb, slot_names(rules, cards)[x])
    return (verb,)


class Match:
    """A single duel; seat 0 (``first_deck``) moves first.

    Args:
        scenario: a loaded Card Duel scenario.
        first_deck, second_deck: deck ids.
        seed: the game's seed (its shuffles come from ``derive_seed(seed, "shuffle")``).
    """

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.scenario = scenario
        self.rules = rules = scenario.rules
        self.decks = (canonical_deck(rules, first_deck), canonical_deck(rules, second_deck))
        self.seed = int(seed)
        self.lists = (deck_list(rules, self.decks[0]), deck_list(rules, self.decks[1]))
        self.slot_names = (slot_names(rules, self.lists[0]), slot_names(rules, self.lists[1]))
        self.actions: list[tuple] = []
        self.state = np.zeros(E.STATE_SIZE, np.int64)
        self._tables = (rules.settings, rules.cards, rules.effects)
        E.setup(self.state, self.lists[0], self.lists[1], game_seeds(self.seed)[0], *self._tables)

    # -- what the generic layers read ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return int(self.state[E.G_PHASE]) == E.PH_OVER

    @property
    def to_act(self) -> int:
        """The seat whose decision is owed (the seat whose turn it is; counters need no decision)."""
        return int(self.state[E.G_CUR])

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"``, ``"draw"`` or ``None`` while the game goes on."""
        w = int(self.state[E.G_WINNER])
        return None if w < 0 else WINNERS[w]

    @property
    def end_reason(self) -> str | None:
        """``"hp_zero"``, ``"turn_limit"`` or ``None`` while the game goes on."""
        r = int(self.state[E.G_REASON])
        return None if r == E.END_NONE else END_REASONS[r]

    @property
    def turn(self) -> int:
        """The turn number (seat 0 plays the odd turns)."""
        return int(self.state[E.G_TURN])

    @property
    def phase(self) -> str:
        """``"play"``, ``"discard"`` or ``"over"``."""
        return PHASES[int(self.state[E.G_PHASE])]

    @property
    def distance(self) -> int:
        """The shared distance."""
        return int(self.state[E.G_DIST])

    def hp(self, seat: int) -> int:
        """The HP of ``seat``."""
        return int(self.state[E.base(seat) + E.P_HP])

    def status(self, seat: int, kind: str) -> int:
        """The level of status ``kind`` on ``seat`` (0: absent)."""
        return int(self.state[E.base(seat) + E.P_ST + STATUSES.index(kind)])

    # -- actions -----------------------------------------------------------------------------------------

    def _card(self, name: Any) -> int:
        if not isinstance(name, str) or name not in self.rules.names:
            raise IllegalAction(f"unknown card {name!r}")
        return self.rules.card_id(name)

    def _slot(self, name: Any) -> int:
        names = self.slot_names[self.to_act]
        if not isinstance(name, str) or name not in names:
            raise IllegalAction(f"{name!r} is not a card of the {('first', 'second')[self.to_act]} player's deck"
                                f" (equipment is named like {', '.join(sorted(set(names))[:3])}, ...)")
        return names.index(name)

    def encode(self, action: Any) -> tuple[int, int, int]:
        """The engine's ``(kind, x, y)`` of an action tuple (raises :class:`IllegalAction` if malformed)."""
        if isinstance(action, str):
            action = (action,)
        if not isinstance(action, (tuple, list)) or not action or action[0] not in _VERBS:
            raise IllegalAction(f"unknown action {action!r} (verbs: {', '.join(E.KINDS)})")
        verb, args = action[0], tuple(action[1:])
        kind = _VERBS[verb]
        want = {E.K_ATTACH: 2, E.K_EQUIP: 1, E.K_SET: 1, E.K_USE: 1, E.K_DISCARD: 1}.get(kind, 0)
        if kind == E.K_PLAY:
            if len(args) not in (1, 2):
                raise IllegalAction(f"{verb} takes a card and, for an [a, b] card, a value: got {action!r}")
            card = self._card(args[0])
            value = args[1] if len(args) == 2 else 0
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise IllegalAction(f"the value must be an integer, got {value!r}")
            if self.rules.cards[card, F_PICK] and len(args) == 1:
                raise IllegalAction(f"{args[0]} needs a value in its [a, b]")
            return kind, card, int(value)
        if len(args) != want:
            raise IllegalAction(f"{verb} takes {want} argument(s), got {action!r}")
        if kind in (E.K_EQUIP, E.K_SET, E.K_DISCARD):
            return kind, self._card(args[0]), 0
        if kind == E.K_ATTACH:
            return kind, self._card(args[0]), self._slot(args[1])
        if kind == E.K_USE:
            return kind, self._slot(args[0]), 0
        return kind, 0, 0

    def reason(self, action: Any) -> str | None:
        """Why ``action`` is illegal now, or ``None`` when it is legal."""
        try:
            k, x, y = self.encode(action)
        except IllegalAction as exc:
            return str(exc)
        r = E.check(self.state, k, x, y, self.rules.settings, self.rules.cards)
        return None if r == E.R_OK else E.REASONS[r]

    def do(self, action: Any) -> None:
        """Apply ``action`` for the seat to act.

        Raises:
            IllegalAction: naming the reason; the game is unchanged.
        """
        k, x, y = self.encode(action)
        r = E.check(self.state, k, x, y, self.rules.settings, self.rules.cards)
        if r != E.R_OK:
            raise IllegalAction(f"{action!r}: {E.REASONS[r]}")
        done = action_tuple(self.rules, self.lists[self.to_act], k, x, y)
        E.step(self.state, k, x, y, *self._tables)
        self.actions.append(done)

    def legal_actions(self) -> list[tuple]:
        """Every legal action of the seat to act, in the engine's fixed order."""
        out = np.zeros((E.MAX_LEGAL, 3), np.int64)
        n = E.legal(self.state, out, self.rules.settings, self.rules.cards)
        cards = self.lists[self.to_act]
        return [action_tuple(self.rules, cards, int(k), int(x), int(y)) for k, x, y in out[:n]]

    def clone(self) -> Match:
        """An independent copy of the game (state and action list)."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.actions = list(self.actions)
        return other

    # -- looking at the game -----------------------------------------------------------------------------

    def view(self, seat: int) -> np.ndarray:
        """What ``seat`` may see (rules page section 12), as the engine's state layout with the hidden
        cards scrubbed: the only thing a bot is given."""
        v = np.zeros(E.STATE_SIZE, np.int64)
        E.make_view(self.state, seat, v)
        return v

    def snapshot(self) -> dict:
        """The whole game as plain Python values (see :func:`snapshot_of`)."""
        return snapshot_of(self.rules, self.state, self.lists, self.decks, self.seed)

    # -- setting up a position by hand (tests) ------------------------------------------------------------

    def arrange(self, turn: int | None = None, phase: str = "play", distance: int | None = None,
                players: Sequence[Mapping] = ({}, {})) -> Match:
        """Put the game into a hand-written position (for tests and scripted situations).

        Args:
            turn: the turn number (its parity gives the seat to act).
            phase: ``"play"`` or ``"discard"``.
            distance: the shared distance.
            players: per seat, any of: ``hp``, ``ap``, ``mana``, ``own_turns``, ``statuses`` (name ->
                level), flags ``moved``, ``weapon_used``, ``attached``, ``set``, and the zones ``hand``,
                ``discard`` (top first), ``traps`` (in the order set), ``removed`` (card names) and
                ``equipment`` (entries ``{"card": name, "charge", "ready_on", "equipped_turn", "on":
                weapon}``, in the order equipped). Every other card of the deck goes to the source pile
                in deck order, unless ``source`` (top first) lists them.

        Returns:
            The match itself.

        Raises:
            ValueError: a card the deck does not hold (or not that many copies).
        """
        s = self.state
        if turn is not None:
            s[E.G_TURN] = turn
            s[E.G_CUR] = (turn - 1) % 2
        s[E.G_PHASE] = PHASES.index(phase)
        if distance is not None:
            s[E.G_DIST] = distance
        s[E.G_WINNER], s[E.G_REASON] = -1, E.END_NONE
        for seat, spec in enumerate(players):
            self._arrange_player(seat, dict(spec))
        return self

    def _arrange_player(self, seat: int, spec: dict) -> None:
        s, b = self.state, E.base(seat)
        names = [self.rules.names[int(c)] for c in self.lists[seat]]
        free = list(range(len(names)))

        def take(name: str) -> int:
            for i in free:
                if names[i] == name:
                    free.remove(i)
                    return i
            raise ValueError(f"seat {seat}: the deck has no (more) {name!r}")

        for key, field in (("hp", E.P_HP), ("ap", E.P_AP), ("mana", E.P_MANA), ("own_turns", E.P_OWN),
                           ("moved", E.P_MOVED), ("weapon_used", E.P_WUSED), ("attached", E.P_ATTACHED),
                           ("set", E.P_SET)):
            if key in spec:
                s[b + field] = int(spec[key])
        for kind, level in spec.get("statuses", {}).items():
            s[b + E.P_ST + STATUSES.index(kind)] = int(level)
        if not any(k in spec for k in ("hand", "discard", "traps", "removed", "equipment", "source")):
            return
        for f in (E.P_NHAND, E.P_NSRC, E.P_NDISC, E.P_NTRAP, E.P_NEQUIP, E.P_NREMOVED):
            s[b + f] = 0
        for i in range(E.M):
            for a in (E.A_STAMP, E.A_CHARGE, E.A_READY, E.A_EQTURN):
                s[b + a + i] = 0
            s[b + E.A_ATT + i] = -1
            s[b + E.A_SRC + i] = -1
            s[b + E.A_DISC + i] = -1
        zone_of: dict[int, int] = {}
        for name in spec.get("hand", ()):
            zone_of[take(name)] = E.Z_HAND
        weapons: dict[str, int] = {}
        for entry in spec.get("equipment", ()):
            entry = {"card": entry} if isinstance(entry, str) else dict(entry)
            i = take(entry["card"])
            zone_of[i] = E.Z_EQUIP
            s[E.G_STAMP] += 1
            s[b + E.A_STAMP + i] = s[E.G_STAMP]
            s[b + E.A_CHARGE + i] = int(entry.get("charge", 0))
            s[b + E.A_READY + i] = int(entry.get("ready_on", 0))
            s[b + E.A_EQTURN + i] = int(entry.get("equipped_turn", 0))
            if self.rules.cards[self.lists[seat][i], F_TYPE] == T_WEAPON:
                weapons.setdefault(entry["card"], i)
            if self.rules.cards[self.lists[seat][i], F_TYPE] == T_ATTACHMENT:
                s[b + E.A_ATT + i] = weapons[entry["on"]]
        for name in spec.get("traps", ()):
            i = take(name)
            zone_of[i] = E.Z_TRAP
            s[E.G_STAMP] += 1
            s[b + E.A_STAMP + i] = s[E.G_STAMP]
        for name in spec.get("removed", ()):
            zone_of[take(name)] = E.Z_REMOVED
        discard = [take(n) for n in spec.get("discard", ())]
        source = [take(n) for n in spec.get("source", ())] + list(free)
        for i, z in zone_of.items():
            s[b + E.A_ZONE + i] = z
            s[b + E._count_field(z)] += 1
        for k, i in enumerate(reversed(discard)):  # listed top first; the stack's top is its last entry
            s[b + E.A_ZONE + i] = E.Z_DISC
            s[b + E.A_DISC + k] = i
        s[b + E.P_NDISC] = len(discard)
        for k, i in enumerate(reversed(source)):
            s[b + E.A_ZONE + i] = E.Z_SRC
            s[b + E.A_SRC + k] = i
        s[b + E.P_NSRC] = len(source)


def snapshot_of(rules, s: np.ndarray, lists, decks=("?", "?"), seed: int = 0) -> dict:
    """A state as plain Python values: every zone by card names (piles top first), the statuses by
    name, the counts, and the raw ``state`` (a list of ints) for invariant checks."""
    names = [slot_names(rules, cards) for cards in lists]
    players = []
    for p in range(2):
        b = E.base(p)
        n = int(s[E.G_N])
        zone = [int(s[b + E.A_ZONE + i]) for i in range(n)]
        card = [rules.names[int(c)] if c >= 0 else "?" for c in s[b + E.A_CARD: b + E.A_CARD + n]]
        by_stamp = sorted(range(n), key=lambda i: int(s[b + E.A_STAMP + i]))
        equipment = [{
            "card": names[p][i],
            "charge": int(s[b + E.A_CHARGE + i]),
            "ready_on": int(s[b + E.A_READY + i]),
            "equipped_turn": int(s[b + E.A_EQTURN + i]),
            "on": names[p][int(s[b + E.A_ATT + i])] if s[b + E.A_ATT + i] >= 0 else None,
        } for i in by_stamp if zone[i] == E.Z_EQUIP]
        players.append({
            "deck": decks[p],
            "hp": int(s[b + E.P_HP]), "ap": int(s[b + E.P_AP]), "mana": int(s[b + E.P_MANA]),
            "own_turns": int(s[b + E.P_OWN]), "moved": bool(s[b + E.P_MOVED]),
            "weapon_used": bool(s[b + E.P_WUSED]), "attached": bool(s[b + E.P_ATTACHED]),
            "set": bool(s[b + E.P_SET]),
            "statuses": {k: int(s[b + E.P_ST + j]) for j, k in enumerate(STATUSES)},
            "hand": sorted(card[i] for i in range(n) if zone[i] == E.Z_HAND),
            "source": [card[int(s[b + E.A_SRC + k])] for k in range(int(s[b + E.P_NSRC]) - 1, -1, -1)
                       if s[b + E.A_SRC + k] >= 0],
            "discard": [card[int(s[b + E.A_DISC + k])] for k in range(int(s[b + E.P_NDISC]) - 1, -1, -1)
                        if s[b + E.A_DISC + k] >= 0],
            "equipment": equipment,
            "traps": [card[i] for i in by_stamp if zone[i] == E.Z_TRAP],
            "removed": sorted(card[i] for i in range(n) if zone[i] == E.Z_REMOVED),
            "counts": {z: int(s[b + f]) for z, f in (("hand", E.P_NHAND), ("source", E.P_NSRC), ("discard", E.P_NDISC),
                                                      ("equipment", E.P_NEQUIP), ("traps", E.P_NTRAP),
                                                      ("removed", E.P_NREMOVED))},
        })
    winner, reason = int(s[E.G_WINNER]), int(s[E.G_REASON])
    return {
        "decks": list(decks), "seed": seed, "turn": int(s[E.G_TURN]), "to_act": int(s[E.G_CUR]),
        "phase": PHASES[int(s[E.G_PHASE])], "distance": int(s[E.G_DIST]),
        "winner": None if winner < 0 else WINNERS[winner],
        "end_reason": None if reason == E.END_NONE else END_REASONS[reason],
        "players": players,
        "state": [int(v) for v in s],
    }


