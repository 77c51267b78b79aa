"""One game of Krypton Tower War seen from Python: :class:`GameView`, a readable view over the compiled engine.

The rules are the compiled functions of :mod:`simkit.games.krypton.engine`; this module holds none. A
:class:`GameView` owns one state array and its event buffer, names actions as tuples, and shows the state
as plain values (``g.heroes[side][k]["hp"]``, ``g.buildings``, ``g.hands``, ``g.t``, ``g.judgment``...)
that the tests, ``Match``, ``narrate``, ``render``, ``check`` and the search bots read; writing through
them (a test's literal position) writes the state. Actions:

* ``("step", x, y, z)``: the acting hero enters the adjacent cell (move phase).
* ``("attack", x, y, z)``: hero action, attack the enemy hero or base on that cell; ``("attack", x, y, z,
  "tower")``: the enemy tower on that cell (a cell may hold an enemy hero and the tower under it).
* ``("gather",)``, ``("build", tower)``, ``("standby",)``: the other hero actions.
* ``("upgrade",)``: player action, upgrade the own base one tier.
* ``("play", card)`` or ``("play", card, x, y, z)``: play a magic card (its target cell if it has one;
  Unyielding Will names the friendly hero's cell).
* ``("pass",)``: close a counter window without playing (more) cards.
* ``("revive", "base")`` / ``("revive", "place")``: the revival choice for a hero that just died.
* ``("end",)``: end the hero turn (its end phase follows).
"""

from __future__ import annotations

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.rng import derive_seed
from simkit.core.seats import WINNERS
from simkit.games.kits.state import zeros
from simkit.games.krypton import engine as E
from simkit.games.krypton import state as S
from simkit.games.krypton.bots import dice_tables
from simkit.games.krypton.state import CARDS, GAME, SIDE_NAMES, pack_rules
from simkit.games.krypton.tables import parse_loadout

HERO, TOWER, BASE = S.TARGET_KINDS
_CARD_ID = {c: i for i, c in enumerate(CARDS)}
_HERO_FIELDS = ("hp", "cell", "inspire")
_HERO_FLAGS = ("earthsplit", "floor1")
_TURN_FIELDS = ("roll", "points")
_TURN_FLAGS = ("acted", "shuttle", "pact", "blood", "ending")
_SOURCES = {E.SRC_JUDGMENT: "judgment", E.SRC_SAME_END: "Same End", E.SRC_TOWER_MOVE: "tower_move",
            E.SRC_TOWER_END: "tower_end"}
_EV_ROOM = 512  # free event rows kept before every action (an action logs far fewer)


class Packed:
    """A scenario's rules as the compiled engine reads them (built once per ``Rules``)."""

    def __init__(self, rules):
        self.R = pack_rules(rules)
        self.rules_array = self.R.base  # the one-record array the record views (the search's context holds it)
        self.dist, self.nbr = E.map_tables(rules)
        self.dice = dice_tables(rules)
        self.towers = list(rules.towers)
        self.classes = list(rules.classes)
        self.cells = [rules.grid.cell(i) for i in range(rules.grid.size)]
        self.index = {c: i for i, c in enumerate(self.cells)}


_PACKED: dict = {}


def packed(rules) -> Packed:
    """The :class:`Packed` tables of ``rules`` (cached)."""
    key = id(rules)
    if key not in _PACKED or _PACKED[key][0] is not rules:
        _PACKED[key] = (rules, Packed(rules))
    return _PACKED[key][1]


class _Hero:
    """One hero's fields as a dict-like view (``cls``, ``name``, ``hp``, ``cell``, ``state``, ``inspire``,
    ``earthsplit``, ``floor1``)."""

    __slots__ = ("g", "side", "k", "h")
    keys = ("cls", "name", "hp", "cell", "state", "inspire", "earthsplit", "floor1")

    def __init__(self, g, side, k):
        self.g, self.side, self.k, self.h = g, side, k, g.s.sides[side].heroes[k]

    def __getitem__(self, key):
        h = self.h
        if key in _HERO_FIELDS:
            return int(getattr(h, key))
        if key in _HERO_FLAGS:
            return bool(getattr(h, key))
        if key == "state":
            return S.HERO_STATES[h.state]
        if key == "cls":
            return self.g.P.classes[h.cls]
        if key == "name":
            return self.g.names[self.side][self.k]
        raise KeyError(key)

    def __setitem__(self, key, value):
        h = self.h
        if key in _HERO_FIELDS:
            setattr(h, key, int(value))
        elif key in _HERO_FLAGS:
            setattr(h, key, int(bool(value)))
        elif key == "state":
            h.state = S.HERO_STATES.index(value)
        else:
            raise KeyError(f"hero field {key!r} cannot be written")

    def update(self, **kw):
        for k, v in kw.items():
            self[k] = v

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def as_dict(self) -> dict:
        return {k: self[k] for k in self.keys}

    def __repr__(self):
        return repr(self.as_dict())


class _Building:
    """One building as a dict-like view (``side``, ``kind``, ``hp``, ``iron``)."""

    __slots__ = ("g", "c")

    def __init__(self, g, c):
        self.g, self.c = g, c

    def __getitem__(self, key):
        s, c = self.g.s, self.c
        if key == "side":
            return int(s.tower_side[c])
        if key == "kind":
            return self.g.P.towers[s.tower_kind[c]]
        if key == "hp":
            return int(s.tower_hp[c])
        if key == "iron":
            return bool(s.iron_wall[c])
        raise KeyError(key)

    def __setitem__(self, key, value):
        s, c = self.g.s, self.c
        if key == "side":
            s.tower_side[c] = int(value)
        elif key == "kind":
            s.tower_kind[c] = self.g.P.towers.index(value)
        elif key == "hp":
            s.tower_hp[c] = int(value)
        elif key == "iron":
            s.iron_wall[c] = int(bool(value))
        else:
            raise KeyError(key)

    def as_dict(self) -> dict:
        return {k: self[k] for k in ("side", "kind", "hp", "iron")}

    def __repr__(self):
        return repr(self.as_dict())


class _Buildings:
    """The buildings by cell, as a dict-like view (cells in ascending order)."""

    def __init__(self, g):
        self.g = g

    def _cells(self):
        s = self.g.s
        C = self.g.rules.grid.size
        return [int(c) for c in np.nonzero(s.tower_side[:C] >= 0)[0]]

    def __contains__(self, c):
        return 0 <= c < self.g.rules.grid.size and self.g.s.tower_side[c] >= 0

    def __getitem__(self, c):
        if c not in self:
            raise KeyError(c)
        return _Building(self.g, c)

    def get(self, c, default=None):
        return self[c] if c in self else default

    def __setitem__(self, c, b: dict):
        v = _Building(self.g, c)
        v["side"], v["kind"], v["hp"], v["iron"] = b["side"], b["kind"], b["hp"], b.get("iron", False)

    def __delitem__(self, c):
        s = self.g.s
        s.tower_side[c], s.tower_kind[c], s.tower_hp[c], s.iron_wall[c] = -1, 0, 0, 0

    def __iter__(self):
        return iter(self._cells())

    def __len__(self):
        return len(self._cells())

    def keys(self):
        return self._cells()

    def values(self):
        return [_Building(self.g, c) for c in self._cells()]

    def items(self):
        return [(c, _Building(self.g, c)) for c in self._cells()]


class _Fields:
    """One field of both sides as a list-like view (``energy``, ``base_hp``...)."""

    def __init__(self, g, field):
        self.g, self.field = g, field

    def _values(self):
        return [int(getattr(self.g.s.sides[i], self.field)) for i in (0, 1)]

    def __getitem__(self, i):
        return self._values()[i]

    def __setitem__(self, i, v):
        setattr(self.g.s.sides[i], self.field, int(v))

    def __len__(self):
        return 2

    def __iter__(self):
        return iter(self._values())

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return repr(list(self))


class _Hands:
    """Both hands as card-name lists (CARDS order: a hand is a multiset); assigning a list sets a hand."""

    def __init__(self, g):
        self.g = g

    def __getitem__(self, side):
        hand = self.g.s.sides[side].hand
        return [c for i, c in enumerate(CARDS) for _ in range(int(hand[i]))]

    def __setitem__(self, side, cards):
        own = self.g.s.sides[side]
        own.hand[:] = 0
        for c in cards:
            own.hand[_CARD_ID[c]] += 1
        own.n_hand = len(cards)

    def __iter__(self):
        return iter([self[0], self[1]])

    def __len__(self):
        return 2


class _Turn:
    """The hero turn's state as a dict-like view (``roll``, ``points``, ``acted``, ``shuttle``, ``pact``,
    ``blood``, ``blood_left`` as ``(kind, cell)`` targets, ``ending``)."""

    keys = ("roll", "points", "acted", "shuttle", "pact", "blood", "blood_left", "ending")

    def __init__(self, g):
        self.g = g

    def __getitem__(self, key):
        t = self.g.s.this_turn
        if key in _TURN_FIELDS:
            return int(getattr(t, key))
        if key in _TURN_FLAGS:
            return bool(getattr(t, key))
        if key == "blood_left":
            return [(S.TARGET_KINDS[x // 1000], int(x % 1000)) for x in t.blood_owed[:t.n_blood_owed]]
        raise KeyError(key)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __setitem__(self, key, value):
        t = self.g.s.this_turn
        if key in _TURN_FIELDS:
            setattr(t, key, int(value))
        elif key in _TURN_FLAGS:
            setattr(t, key, int(bool(value)))
        elif key == "blood_left":
            t.n_blood_owed = len(value)
            for i, (kind, c) in enumerate(value):
                t.blood_owed[i] = S.TARGET_KINDS.index(kind) * 1000 + c
        else:
            raise KeyError(key)

    def update(self, d=(), **kw):
        for k, v in dict(d, **kw).items():
            self[k] = v

    def as_dict(self) -> dict:
        return {k: self[k] for k in self.keys}


class GameView:
    """One game of Krypton Tower War between two loadouts (seat 0 acts first), over the compiled engine.

    Args:
        rules: the scenario's :class:`~simkit.games.krypton.tables.Rules`.
        loadouts: the two loadout ids (seat 0's, seat 1's).
        seed: the game's seed (dice and shuffles).
        log: keep the events (``False``: only count them; sweeps and search rollouts).
    """

    def __init__(self, rules, loadouts: tuple[str, str], seed: int = 0, log: bool = True, _state=None):
        self.rules = rules
        self.P = packed(rules)
        self.loadouts = tuple("+".join(parse_loadout(rules, d)) for d in loadouts)
        self.names = []
        classes = np.zeros((2, S.MAXH), np.int64)
        for side in (0, 1):
            seen: dict = {}
            names = []
            for k, cls in enumerate(self.loadouts[side].split("+")):
                n = seen.get(cls, 0)
                seen[cls] = n + 1
                names.append(rules.classes[cls].variants[side][n])
                classes[side, k] = self.P.classes.index(cls)
            self.names.append(names)
        self.ev = np.zeros((4 * _EV_ROOM if log else 0, E.EVW), np.int64)
        self._decoded: list[tuple] = []
        if _state is None:
            self.states = zeros(GAME, 1)
            self.s = self.states[0]
            E.new_game(self.s, self.P.R, self.P.dist, classes, derive_seed(int(seed), "krypton"), self.ev)
        else:
            self.states = _state
            self.s = _state[0]

    # -- the state as plain values ---------------------------------------------------------------

    @property
    def heroes(self) -> list[list[_Hero]]:
        return [[_Hero(self, s, k) for k in range(self.team)] for s in (0, 1)]

    @property
    def buildings(self) -> _Buildings:
        return _Buildings(self)

    @property
    def hands(self) -> _Hands:
        return _Hands(self)

    @hands.setter
    def hands(self, value):
        h = _Hands(self)
        h[0], h[1] = value

    def _stack(self, n: str, cards: str) -> list[str]:
        return [CARDS[c] for c in getattr(self.s, cards)[:getattr(self.s, n)]]

    def _set_stack(self, n: str, field: str, cards) -> None:
        setattr(self.s, n, len(cards))
        for i, c in enumerate(cards):
            getattr(self.s, field)[i] = _CARD_ID[c]

    @property
    def pile(self) -> list[str]:
        """The magic pile, bottom to top (the next draw is the last)."""
        return self._stack("n_pile", "pile")

    @pile.setter
    def pile(self, cards):
        self._set_stack("n_pile", "pile", cards)

    @property
    def discard(self) -> list[str]:
        return self._stack("n_discard", "discard")

    @discard.setter
    def discard(self, cards):
        self._set_stack("n_discard", "discard", cards)

    def _set_side_field(self, f, values):
        for i in (0, 1):
            setattr(self.s.sides[i], f, int(values[i]))

    energy = property(lambda self: _Fields(self, "energy"), lambda self, v: self._set_side_field("energy", v))
    base_hp = property(lambda self: _Fields(self, "base_hp"), lambda self, v: self._set_side_field("base_hp", v))
    base_tier = property(lambda self: _Fields(self, "tier"), lambda self, v: self._set_side_field("tier", v))
    curse = property(lambda self: _Fields(self, "curse"), lambda self, v: self._set_side_field("curse", v))

    @property
    def terrain(self) -> np.ndarray:
        """Terrain per cell now (a view: writing it writes the game)."""
        return self.s.terrain[:self.rules.grid.size]

    @property
    def stock(self) -> np.ndarray:
        return self.s.stock[:self.rules.grid.size]

    @property
    def t(self) -> _Turn:
        return _Turn(self)

    @t.setter
    def t(self, value: dict):
        _Turn(self).update(value)

    @property
    def judgment(self) -> dict | None:
        """The open attack judgment as plain values (``None`` outside one); setting ``None`` closes it."""
        s = self.s
        j = s.judgment
        if not j.on:
            return None
        kind = S.TARGET_KINDS[j.target_kind]
        if kind == HERO:
            target = [kind, int(j.target_side), int(j.target_hero)]
        elif kind == TOWER:
            target = [kind, int(j.cell)]
        else:
            target = [kind, int(j.target_side)]
        return {
            "attacker": int(j.attacker), "side": int(j.side), "defender": int(j.defender), "target": target,
            "cell": int(j.cell), "window": S.WINDOWS[j.window],
            "a_dice": [int(v) for v in j.attack_dice[:j.n_attack_dice]],
            "d_dice": [int(v) for v in j.defence_dice[:j.n_defence_dice]], "unity": int(j.unity),
            "totals": [int(j.attack_total), int(j.defence_total)] if j.has_totals else None,
            "same_end": bool(j.same_end),
            "closed": [w for i, w in enumerate(S.WINDOWS) if j.closed >> i & 1],
            "loser": (None, "attacker", "defender")[j.loser + 1], "d": int(j.d),
            "dead": [[b // S.MAXH, b % S.MAXH] for b in range(2 * S.MAXH) if j.dead >> b & 1],
        }

    @judgment.setter
    def judgment(self, value):
        if value is not None:
            raise ValueError("a judgment is opened by an attack, not set")
        self.s.judgment.on = 0

    @property
    def pending(self) -> list[dict]:
        """The revival choices owed, in order."""
        s = self.s
        return [{"kind": "revive", "side": int(r.side), "hero": int(r.hero), "cell": int(r.cell)}
                for r in s.revivals_owed[:s.n_revivals_owed]]

    @pending.setter
    def pending(self, value):
        self.s.n_revivals_owed = len(value)
        for i, p in enumerate(value):
            r = self.s.revivals_owed[i]
            r.side, r.hero, r.cell = p["side"], p["hero"], p["cell"]

    @property
    def stats(self) -> list[dict]:
        """Per-side counts so far (as :meth:`record` reports them)."""
        out = []
        for side in (0, 1):
            o = self.s.sides[side]
            out.append({
                "energy_mined": int(o.mined), "heroes_lost": int(o.lost),
                "revivals": int(o.revivals), "revivals_in_place": int(o.in_place),
                "towers_built": int(o.built_n), "towers_lost": int(o.towers_lost),
                "cards_played": int(o.cards_played), "upgrades": int(o.upgrades),
                "attacks": int(o.attacks), "base_damage": int(o.base_damage),
                "built": {name: int(o.built[i]) for i, name in enumerate(self.P.towers) if o.built[i]},
                "played": {c: int(o.played[i]) for i, c in enumerate(CARDS) if o.played[i]},
            })
        return out

    @property
    def turn(self) -> int:
        return int(self.s.turn)

    @turn.setter
    def turn(self, v):
        self.s.turn = int(v)

    @property
    def key(self) -> int:
        return int(self.s.key)

    @key.setter
    def key(self, v):
        self.s.key = int(v)

    @property
    def ctr(self) -> int:
        return int(self.s.ctr)

    @ctr.setter
    def ctr(self, v):
        self.s.ctr = int(v)

    @property
    def n_events(self) -> int:
        """Events so far (counted even when they are not kept)."""
        return int(self.s.n_events)

    @property
    def team(self) -> int:
        return self.rules.team_size

    @property
    def side(self) -> int:
        """The side whose hero turn it is."""
        return self.turn % 2

    @property
    def hero_index(self) -> int:
        """The acting hero's index in its team."""
        return self.turn // 2 % self.team

    @property
    def round(self) -> int:
        """The round being played (1-based)."""
        return self.turn // (2 * self.team) + 1

    @property
    def winner(self) -> int | None:
        """0, 1, 2 (a draw); ``None`` while playing."""
        w = int(self.s.winner)
        return None if w < 0 else w

    @property
    def end_reason(self) -> str | None:
        return (None, "base", "turn_limit")[self.s.reason]

    @property
    def over(self) -> bool:
        return self.s.winner >= 0

    @property
    def to_act(self) -> int:
        """The seat whose decision is owed now."""
        return int(E.to_act(self.s, self.P.R))

    # -- reading helpers --------------------------------------------------------------------------

    def acting(self) -> _Hero:
        return _Hero(self, self.side, self.hero_index)

    def cell_of(self, i: int) -> tuple[int, int, int]:
        return self.P.cells[i]

    def index_of(self, x: int, y: int, z: int) -> int:
        return self.P.index[(x, y, z)]

    def dist(self, a: int, b: int) -> int:
        return int(self.P.dist[a, b])

    def hero_at(self, cell: int) -> tuple[int, int] | None:
        """``(side, index)`` of the hero on ``cell`` (on the board), else ``None``."""
        h = E.hero_at(self.s, self.P.R, cell)
        return None if h < 0 else (h // S.MAXH, h % S.MAXH)

    def on_board(self, h) -> bool:
        return h["state"] != "dead"

    def towers_of(self, side: int, effect: str | None = None) -> list[int]:
        """Cells of ``side``'s towers (of one ``effect``: attack, dice, hand), ascending."""
        return [c for c, b in self.buildings.items() if b["side"] == side and
                (effect is None or self.rules.towers[b["kind"]].effect == effect)]

    def dice_count(self, side: int) -> int:
        return int(E.dice_count(self.s, self.P.R, side))

    def hand_limit(self, side: int) -> int:
        return int(E.hand_limit(self.s, self.P.R, side))

    def terrain_points(self, cell: int) -> int:
        return int(E.terrain_points(self.s, self.P.R, cell))

    def base_defense(self, side: int) -> int:
        return int(E.base_defense(self.s, self.P.R, side))

    def enterable(self, cell: int, side: int) -> bool:
        return bool(E.enterable(self.s, self.P.R, cell, side))

    def buildable(self, cell: int) -> bool:
        return bool(E.buildable(self.s, self.P.R, cell))

    def attack_targets(self, side: int, k: int) -> list[tuple[str, int]]:
        """The enemy heroes, towers and base within hero ``k``'s range, as ``(kind, cell)`` targets."""
        out = np.empty(S.MAXBL, np.int64)
        n = E.attack_targets(self.s, self.P.R, self.P.dist, side, k, out)
        return [(S.TARGET_KINDS[t // 1000], int(t % 1000)) for t in out[:n]]

    def attack_action(self, target: tuple[str, int]) -> tuple:
        """The action naming ``target``: ``("attack", x, y, z)`` for a hero or the base, ``("attack", x, y, z,
        "tower")`` for a tower (a cell may hold an enemy hero and the tower under it)."""
        kind, c = target
        return ("attack",) + self.cell_of(c) + ((TOWER,) if kind == TOWER else ())

    def attack_target(self, action: tuple) -> tuple[str, int]:
        """The ``(kind, cell)`` target an attack action names (see :meth:`attack_action`)."""
        c = self.index_of(*action[1:4])
        if len(action) == 5:
            return TOWER, c
        return (BASE, c) if c in self.rules.bases else (HERO, c)

    # -- actions as tuples --------------------------------------------------------------------------

    def action_of(self, code: int) -> tuple:
        """The tuple naming action ``code``."""
        kind, a, b = E.dec(int(code))
        name = E.KIND_NAMES[kind]
        if kind == E.K_STEP:
            return (name,) + self.cell_of(a)
        if kind == E.K_ATTACK:
            return self.attack_action((S.TARGET_KINDS[b], a))
        if kind == E.K_BUILD:
            return name, self.P.towers[a]
        if kind == E.K_PLAY:
            return ("play", CARDS[a]) + (self.cell_of(b) if b >= 0 else ())
        if kind == E.K_REVIVE:
            return name, ("base", "place")[a]
        return (name,)

    def code_of(self, action: tuple) -> int | None:
        """The code of an action tuple (``None``: not an action of this game)."""
        try:
            kind = action[0]
            if kind == "step" and len(action) == 4:
                return E.enc(E.K_STEP, self.index_of(*action[1:4]), -1)
            if kind == "attack" and len(action) in (4, 5) and (len(action) == 4 or action[4] == TOWER):
                tk, c = self.attack_target(action)
                return E.enc(E.K_ATTACK, c, S.TARGET_KINDS.index(tk))
            if kind == "build" and len(action) == 2:
                return E.enc(E.K_BUILD, self.P.towers.index(action[1]), -1)
            if kind == "play" and len(action) in (2, 5):
                cell = self.index_of(*action[2:5]) if len(action) == 5 else -1
                return E.enc(E.K_PLAY, _CARD_ID[action[1]], cell)
            if kind == "revive" and len(action) == 2:
                return E.enc(E.K_REVIVE, ("base", "place").index(action[1]), -1)
            if kind in ("gather", "standby", "upgrade", "pass", "end") and len(action) == 1:
                return E.enc(E.KIND_NAMES.index(kind), 0, -1)
        except (KeyError, ValueError, TypeError, IndexError):
            return None
        return None

    def legal_codes(self) -> np.ndarray:
        out = np.empty(S.MAXLEGAL, np.int64)
        n = E.legal(self.s, self.P.R, self.P.dist, self.P.nbr, out)
        return out[:n]

    def legal_actions(self) -> list[tuple]:
        """Every decision legal now, for :attr:`to_act` (empty once the game is over)."""
        return [self.action_of(c) for c in self.legal_codes()]

    def do(self, action: tuple) -> None:
        """Make one decision; an illegal one raises :class:`IllegalAction` and changes nothing."""
        if self.over:
            raise IllegalAction(f"the game is over; {action!r} refused")
        action = tuple(action)
        code = self.code_of(action)
        if code is None or self.action_of(code) != action:
            raise IllegalAction(self._why(action))
        self.do_code(code, action)

    def do_code(self, code: int, action=None) -> None:
        """Make the decision ``code`` (raises :class:`IllegalAction` naming it if it is not legal)."""
        if self.ev.shape[0] and self.ev.shape[0] - self.s.n_events < _EV_ROOM:
            self.ev = np.concatenate([self.ev, np.zeros((max(self.ev.shape[0], 4 * _EV_ROOM), E.EVW), np.int64)])
        r = E.do(self.s, self.P.R, self.P.dist, self.P.nbr, self.ev, int(code))
        if r != E.OK:
            raise IllegalAction(self._why(action if action is not None else self.action_of(code)))
        if self.s.script_overrun:
            raise AssertionError("a test rolled more dice than it scripted")

    def _why(self, action: tuple) -> str:
        who = ("seat 0", "seat 1")[self.to_act]
        if self.pending:
            return f"{action!r}: {who} owes a revival choice ('revive', 'base'|'place')"
        if self.judgment is not None:
            return f"{action!r}: {who} owes a counter-window decision (a counter card or 'pass')"
        if self.t["blood_left"] and action[:1] in (("end",), ("standby",), ("step",), ("gather",), ("build",)):
            owed = ", ".join(str(self.attack_action(t)) for t in self.t["blood_left"])
            return f"{action!r}: Blood Battle still owes the judgments {owed} (normal magic and upgrades allowed)"
        if action[:1] == ("attack",) and len(action) == 4 and self.code_of(action + (TOWER,)) is not None \
                and self.index_of(*action[1:4]) in self.buildings:
            return f"{action!r}: a tower is attacked as {action + (TOWER,)!r}"
        return f"{action!r} is not legal now for {who} (round {self.round}, hero turn {self.turn})"

    # -- tests' hooks ----------------------------------------------------------------------------------

    def script_dice(self, *values: int) -> None:
        """Script the next dice (movement, attack, defence) in order; a die beyond them fails the action."""
        if len(values) > 32:
            raise ValueError("at most 32 scripted dice")
        self.s.n_scripted = len(values) if values else -1
        self.s.next_scripted = 0
        self.s.scripted[:len(values)] = values
        self.s.script_overrun = 0

    def damage_hero(self, side: int, k: int, amount: int, source: str = "judgment") -> int:
        """``amount`` damage to hero ``k`` of ``side`` as the rules deal it (death follows at once); returns
        the HP it actually lost."""
        src = {v: k for k, v in _SOURCES.items()}.get(source)
        src = E.SRC_CARD + _CARD_ID[source] if src is None else src
        return int(E.damage_hero(self.s, self.P.R, self.ev, side, k, amount, src))

    def clear_dice(self) -> None:
        """Drop the scripted dice: from here on the game's own stream."""
        self.s.n_scripted = self.s.next_scripted = self.s.script_overrun = 0

    def roll_die(self) -> int:
        """One die as the game rolls it (scripted or from its stream)."""
        return int(E.die(self.s, self.P.R))

    def next_turn(self) -> None:
        """Start the next hero turn now (draw, preparation, roll), as the end of the current one would."""
        E.next_turn(self.s, self.P.R, self.ev)

    # -- snapshots -------------------------------------------------------------------------------------

    @property
    def events(self) -> list[tuple]:
        """The events so far as tuples ``(hero turn, kind, ...)`` (empty when the game keeps none)."""
        n = min(int(self.s.n_events), self.ev.shape[0])
        for row in self.ev[len(self._decoded):n]:
            self._decoded.append(self._event(row))
        return list(self._decoded[:n])

    def _event(self, row) -> tuple:
        turn, kind = int(row[0]), int(row[1])
        a = [int(v) for v in row[2:10]]
        name = E.EVENT_NAMES[kind]
        if kind == E.EV_DICE:
            na, nd = a[1], a[2]
            return (turn, name, a[0], [int(v) for v in row[5:5 + na]],
                    [int(v) for v in row[5 + S.MAXDICE:5 + S.MAXDICE + nd]])
        if kind == E.EV_DAMAGE:
            src = a[3]
            return (turn, name, a[0], a[1], a[2], _SOURCES.get(src) or CARDS[src - E.SRC_CARD])
        if kind == E.EV_REVIVE:
            return (turn, name, a[0], a[1], ("base", "place")[a[2]])
        if kind == E.EV_ATTACK:
            return (turn, name, a[0], a[1], a[2], S.TARGET_KINDS[a[3]])
        if kind == E.EV_COUNTER:
            return (turn, name, a[0], CARDS[a[1]])
        if kind == E.EV_PLAY:
            return (turn, name, a[0], CARDS[a[1]], a[2])
        if kind == E.EV_BUILD:
            return (turn, name, a[0], a[1], a[2], self.P.towers[a[3]])
        if kind == E.EV_DESTROYED:
            return (turn, name, a[0], a[1], self.P.towers[a[2]])
        width = {E.EV_ROLL: 4, E.EV_STEP: 5, E.EV_DEATH: 4, E.EV_RETURN: 3, E.EV_UNFLIP: 2, E.EV_NO_SPAWN: 2,
                 E.EV_TOTALS: 3, E.EV_GATHER: 4, E.EV_UPGRADE: 2, E.EV_STANDBY: 2, E.EV_IRON: 2, E.EV_BASE_HIT: 3,
                 E.EV_BASE_DESTROYED: 1, E.EV_CAP: 1, E.EV_END: 2}[kind]
        return (turn, name) + tuple(a[:width])

    def snapshot(self) -> dict:
        """The whole game as plain values (equal snapshots: equal games)."""
        return {
            "loadouts": list(self.loadouts), "ctr": self.ctr, "terrain": self.terrain.tolist(),
            "stock": self.stock.tolist(), "heroes": [[h.as_dict() for h in team] for team in self.heroes],
            "buildings": {c: b.as_dict() for c, b in self.buildings.items()},
            "base_hp": list(self.base_hp), "base_tier": list(self.base_tier), "energy": list(self.energy),
            "hands": [self.hands[0], self.hands[1]], "pile": self.pile, "discard": self.discard,
            "curse": list(self.curse), "turn": self.turn, "round": self.round, "side": self.side,
            "hero": self.hero_index, "t": self.t.as_dict(), "judgment": self.judgment, "pending": self.pending,
            "winner": None if self.winner is None else WINNERS[self.winner], "end_reason": self.end_reason,
            "to_act": None if self.over else self.to_act,
            "dice": [self.dice_count(0), self.dice_count(1)], "hand_limit": [self.hand_limit(0), self.hand_limit(1)],
        }

    def copy(self, log: bool | None = None) -> GameView:
        """An independent copy (``log=False``: one that keeps no events, for search rollouts)."""
        other = GameView.__new__(GameView)
        other.rules, other.P, other.loadouts, other.names = self.rules, self.P, self.loadouts, self.names
        other.states = self.states.copy()
        other.s = other.states[0]
        keep = self.ev.shape[0] > 0 if log is None else log
        if keep:
            other.ev = self.ev.copy() if self.ev.shape[0] else np.zeros((4 * _EV_ROOM, E.EVW), np.int64)
            other._decoded = list(self._decoded)
        else:
            other.ev = np.zeros((0, E.EVW), np.int64)
            other._decoded = []
        return other

    def record(self) -> dict:
        """Per-side numbers of the game (for the result columns)."""
        out = {}
        for s, st in enumerate(self.stats):
            out[s] = dict(st, base_hp=self.base_hp[s], base_tier=self.base_tier[s], energy=self.energy[s])
        return out

    def describe_side(self, side: int) -> str:
        return SIDE_NAMES[side]
