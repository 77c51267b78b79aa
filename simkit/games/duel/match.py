"""One Card Duel game behind a readable facade: tests, scripted positions, replays, ``api_test``, the Python
side of a search (a seat's view is a match too: :meth:`Match.view`).

Actions are tuples naming cards by name (copies in a hand are interchangeable; a card in an
equipment zone is named ``"Dagger"``, or ``"Dagger#2"`` when a deck holds several copies):

``("play", card)`` / ``("play", card, v)`` (a card with an ``[a, b]`` choice), ``("equip", weapon)``,
``("attach", card, weapon)``, ``("set", counter)``, ``("use", weapon)``, ``("advance",)``,
``("retreat",)``, ``("end_play",)``, ``("discard", card)`` (one card), ``("end_turn",)`` (ends the
discard phase and the turn). An illegal action raises :class:`simkit.IllegalAction` naming the
reason and leaves the game unchanged. The rules themselves are :mod:`simkit.games.duel.engine`'s; the
state is :mod:`simkit.games.duel.state`'s declaration, read and written through the kit
(:mod:`simkit.games.kits.state`): ``over``, ``to_act``, ``winner``, ``end_reason`` and :meth:`Match.snapshot`
come from it, not from code here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.games.duel import bots as B
from simkit.games.duel import engine as E
from simkit.games.duel.batch import action_tuple, game_seeds, slot_names
from simkit.games.duel.state import (
    DRAW,
    END_REASONS,
    K_ATTACH,
    K_DISCARD,
    K_EQUIP,
    K_PLAY,
    K_SET,
    K_USE,
    KINDS,
    MAX_LEGAL,
    PH_OVER,
    PHASES,
    R_OK,
    REASONS,
    STATE,
    STATUSES,
    T_ATTACHMENT,
    T_WEAPON,
    Z_DISC,
    Z_EQUIP,
    Z_HAND,
    Z_REMOVED,
    Z_SRC,
    Z_TRAP,
)
from simkit.games.duel.tables import canonical_deck, deck_list
from simkit.games.kits import experience as X
from simkit.games.kits.experience import EXPERIENCE, FIGURES, experience_columns
from simkit.games.kits.state import DeclaredMatch, copy, snapshot, zeros
from simkit.scenario import experience_settings

_VERBS = {name: k for k, name in enumerate(KINDS)}


class Match(DeclaredMatch):
    """A single duel; seat 0 (``first_deck``) moves first.

    Args:
        scenario: a loaded Card Duel scenario.
        first_deck, second_deck: deck ids.
        seed: the game's seed (its shuffles come from ``derive_seed(seed, "shuffle")``).
    """

    END_REASONS = END_REASONS

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.scenario = scenario
        self.rules = rules = scenario.rules
        self.decks = (canonical_deck(rules, first_deck), canonical_deck(rules, second_deck))
        self.seed = int(seed)
        self.lists = (deck_list(rules, self.decks[0]), deck_list(rules, self.decks[1]))
        self.slot_names = (slot_names(rules, self.lists[0]), slot_names(rules, self.lists[1]))
        self.actions: list[tuple] = []
        self.state = zeros(STATE)
        self._tables = (rules.settings, rules.cards, rules.effects)
        E.setup(self.state, self.lists[0], self.lists[1], game_seeds(self.seed)[0], *self._tables)
        self.experience = zeros(EXPERIENCE)
        X.begin(self.experience)
        self._watch = (rules.lead, experience_settings(scenario).level_band)
        self._listed = np.zeros((MAX_LEGAL, 3), np.int64)

    # -- what the game's words read (the generic ones come from the declaration: over, to_act, winner) -------

    @property
    def turn(self) -> int:
        """The turn number (seat 0 plays the odd turns)."""
        return int(self.state.turn)

    @property
    def phase(self) -> str:
        """``"play"``, ``"discard"`` or ``"over"``."""
        return PHASES[int(self.state.phase)]

    @property
    def distance(self) -> int:
        """The shared distance."""
        return int(self.state.distance)

    def hp(self, seat: int) -> int:
        """The HP of ``seat``."""
        return int(self.state.players[seat].hp)

    def status(self, seat: int, kind: str) -> int:
        """The level of status ``kind`` on ``seat`` (0: absent)."""
        return int(self.state.players[seat].statuses[STATUSES.index(kind)])

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
            raise IllegalAction(f"unknown action {action!r} (verbs: {', '.join(KINDS)})")
        verb, args = action[0], tuple(action[1:])
        kind = _VERBS[verb]
        want = {K_ATTACH: 2, K_EQUIP: 1, K_SET: 1, K_USE: 1, K_DISCARD: 1}.get(kind, 0)
        if kind == K_PLAY:
            if len(args) not in (1, 2):
                raise IllegalAction(f"{verb} takes a card and, for an [a, b] card, a value: got {action!r}")
            card = self._card(args[0])
            value = args[1] if len(args) == 2 else 0
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise IllegalAction(f"the value must be an integer, got {value!r}")
            if self.rules.cards[card].pick and len(args) == 1:
                raise IllegalAction(f"{args[0]} needs a value in its [a, b]")
            return kind, card, int(value)
        if len(args) != want:
            raise IllegalAction(f"{verb} takes {want} argument(s), got {action!r}")
        if kind in (K_EQUIP, K_SET, K_DISCARD):
            return kind, self._card(args[0]), 0
        if kind == K_ATTACH:
            return kind, self._card(args[0]), self._slot(args[1])
        if kind == K_USE:
            return kind, self._slot(args[0]), 0
        return kind, 0, 0

    def reason(self, action: Any) -> str | None:
        """Why ``action`` is illegal now, or ``None`` when it is legal."""
        try:
            k, x, y = self.encode(action)
        except IllegalAction as exc:
            return str(exc)
        r = E.check(self.state, k, x, y, self.rules.settings, self.rules.cards)
        return None if r == R_OK else REASONS[r]

    def do(self, action: Any) -> None:
        """Apply ``action`` for the seat to act.

        Raises:
            IllegalAction: naming the reason; the game is unchanged.
        """
        k, x, y = self.encode(action)
        r = E.check(self.state, k, x, y, self.rules.settings, self.rules.cards)
        if r != R_OK:
            raise IllegalAction(f"{action!r}: {REASONS[r]}")
        done = action_tuple(self.rules, self.lists[self.to_act], k, x, y)
        n = E.legal(self.state, self._listed, self.rules.settings, self.rules.cards)
        B.note_before(self.state, self.experience, n, k, *self._watch, self.rules.cards)
        E.step(self.state, k, x, y, *self._tables)
        if self.state.phase == PH_OVER:
            B.note_turn_end(self.state, self.experience, *self._watch, self.rules.cards)
        self.actions.append(done)

    def legal_actions(self) -> list[tuple]:
        """Every legal action of the seat to act, in the engine's fixed order."""
        out = np.zeros((MAX_LEGAL, 3), np.int64)
        n = E.legal(self.state, out, self.rules.settings, self.rules.cards)
        cards = self.lists[self.to_act]
        return [action_tuple(self.rules, cards, int(k), int(x), int(y)) for k, x, y in out[:n]]

    def clone(self) -> Match:
        """An independent copy of the game (state and actions): try an action on it, the game is untouched."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.state = zeros(STATE)
        copy(other.state, self.state)
        other.experience = zeros(EXPERIENCE)
        copy(other.experience, self.experience)
        other._listed = np.zeros((MAX_LEGAL, 3), np.int64)
        other.actions = list(self.actions)
        return other

    def figures(self) -> dict:
        """How the game has played so far (:data:`simkit.games.EXPERIENCE_COLUMNS`), from its experience record:
        every action was a decision among the legal actions of its moment; the lead of
        :mod:`simkit.games.duel.lead` was noted at each turn's end and on the final state. A game not over is
        written as undecided (no deficit, no deciding turn)."""
        row = np.zeros(len(FIGURES), np.float64)
        X.write(self.experience, int(self.state.winner) if self.over else DRAW, int(self.state.turn), row)
        return {name: values[0] for name, values in experience_columns(row[None, :]).items()}

    # -- looking at the game -----------------------------------------------------------------------------

    def view(self, seat: int) -> Match:
        """What ``seat`` may see (rules page section 12) as a match of its own: the engine's view, every hidden
        card scrubbed (the only thing a bot is given, and where the Python side of a search starts). It plays on
        like the game itself, its hidden cards out of play."""
        other = self.clone()
        E.make_view(self.state, seat, other.state)
        return other

    def snapshot(self) -> dict:
        """The whole game as plain Python values, named as :data:`~simkit.games.duel.state.STATE` declares them
        (enumerations as words, cards by name: ``players[p]["card"][i]`` is slot ``i``'s card, ``None`` when
        hidden), with the decks and the seed."""
        names = {"card": self.rules.names}
        return {"decks": list(self.decks), "seed": self.seed, **snapshot(self.state, names)}

    # -- setting up a position by hand (tests) ------------------------------------------------------------

    def arrange(self, turn: int | None = None, phase: str = "play", distance: int | None = None,
                players: Sequence[Mapping] = ({}, {})) -> Match:
        """Put the game into a hand-written position, in the rules page's words (tests, rule examples).

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
            The match itself (its experience record begun anew: :meth:`figures` count from this position on).

        Raises:
            ValueError: a card the deck does not hold (or not that many copies).
        """
        s = self.state
        if turn is not None:
            s.turn = turn
            s.to_act = (turn - 1) % 2
        s.phase = PHASES.index(phase)
        if distance is not None:
            s.distance = distance
        s.winner, s.reason = -1, 0
        for seat, spec in enumerate(players):
            self._arrange_player(seat, dict(spec))
        X.begin(self.experience)  # the figures count from the arranged position on
        return self

    def _arrange_player(self, seat: int, spec: dict) -> None:
        s, me = self.state, self.state.players[seat]
        names = [self.rules.names[int(c)] for c in self.lists[seat]]
        free = list(range(len(names)))

        def take(name: str) -> int:
            for i in free:
                if names[i] == name:
                    free.remove(i)
                    return i
            raise ValueError(f"seat {seat}: the deck has no (more) {name!r}")

        for key in ("hp", "ap", "mana", "own_turns", "moved", "weapon_used", "attached", "set"):
            if key in spec:
                setattr(me, key, int(spec[key]))
        for kind, level in spec.get("statuses", {}).items():
            me.statuses[STATUSES.index(kind)] = int(level)
        if not any(k in spec for k in ("hand", "discard", "traps", "removed", "equipment", "source")):
            return
        me.counts[:] = 0
        for field in (me.stamp, me.charge, me.ready_on, me.equipped_turn):
            field[:] = 0
        for field in (me.on, me.source, me.discard):
            field[:] = -1
        zone_of: dict[int, int] = {}
        for name in spec.get("hand", ()):
            zone_of[take(name)] = Z_HAND
        weapons: dict[str, int] = {}
        for entry in spec.get("equipment", ()):
            entry = {"card": entry} if isinstance(entry, str) else dict(entry)
            i = take(entry["card"])
            zone_of[i] = Z_EQUIP
            s.stamp += 1
            me.stamp[i] = s.stamp
            me.charge[i] = int(entry.get("charge", 0))
            me.ready_on[i] = int(entry.get("ready_on", 0))
            me.equipped_turn[i] = int(entry.get("equipped_turn", 0))
            kind = self.rules.cards[self.lists[seat][i]].type
            if kind == T_WEAPON:
                weapons.setdefault(entry["card"], i)
            if kind == T_ATTACHMENT:
                me.on[i] = weapons[entry["on"]]
        for name in spec.get("traps", ()):
            i = take(name)
            zone_of[i] = Z_TRAP
            s.stamp += 1
            me.stamp[i] = s.stamp
        for name in spec.get("removed", ()):
            zone_of[take(name)] = Z_REMOVED
        discard = [take(n) for n in spec.get("discard", ())]
        source = [take(n) for n in spec.get("source", ())] + list(free)
        for i, z in zone_of.items():
            me.zone[i] = z
            me.counts[z] += 1
        for k, i in enumerate(reversed(discard)):  # listed top first; the stack's top is its last entry
            me.zone[i] = Z_DISC
            me.discard[k] = i
        me.counts[Z_DISC] = len(discard)
        for k, i in enumerate(reversed(source)):
            me.zone[i] = Z_SRC
            me.source[k] = i
        me.counts[Z_SRC] = len(source)
