"""Adaptive sweeps: rounds planned from the games already played, replayed from ``meta.json``.

Pure planning: :class:`AdaptiveLayout` lays out the chunks of the rounds recorded so far and
:func:`next_round` plans the next one from the games alone, so a resumed sweep plans the very same
rounds. Playing them is :mod:`simkit.sweep.execute`'s job.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core.rng import derive_seed
from simkit.sweep.plan import META, Chunk, SweepPlan

#: a round's games per pair are stored as the played pairs alone (``pairs``) when the table has more cells
#: (over 200 decks); smaller tables keep the dense ``counts`` every adaptive sweep has always written
SPARSE_CELLS = 40_000


class AdaptiveLayout:
    """The games and chunks of an adaptive sweep, replayed from the rounds in ``meta.json``.

    Each round records ``counts``: the games every pairing (i of the first seat's pool, j of the
    second's; plan order, row by row) has once the round is played; with a bot panel, one such table per panel bot
    (panel order). A round plays games ``before..counts - 1`` of each pair, every game with its
    uniform seed ``derive_seed(seed, A, B, g)``; its games are sorted by (bot, first deck, second
    deck, game) in plan order and cut into chunks numbered on from the previous round's, a chunk
    never mixing two bots. So every pair's games are always a prefix 0..n-1, as in a uniform sweep.
    A table of more than :data:`SPARSE_CELLS` cells is recorded as ``grown`` instead: the pairs whose games the
    round adds, each with its count after it (``[bot, i, j, games]``; every other pair keeps its count from the
    round before), so a round of an explore over thousands of decks stays small however many rounds came before.
    (Folders written before recorded ``pairs``: every played pair with its count.)

    Attributes (as :class:`SweepPlan`'s, for the folder checks): ``pools``, ``bots``, ``panel``,
    ``bot_pairs``, ``scenario_hash``, ``chunk_count``, ``total_games``, ``games`` (the most games of
    a pair), plus ``counts`` (games per bot and pairing, ``int[B, D1, D2]``, B = 1 without a panel, D1 and
    D2 the two seats' pools) and ``rounds`` (the records).
    """

    def __init__(self, plan: SweepPlan, rounds: list[dict] | None = None):
        self.plan = plan
        self.pools, self.bots, self.scenario_hash = plan.pools, plan.bots, plan.scenario_hash
        self.panel, self.bot_pairs = plan.panel, plan.bot_pairs
        d, d2, blocks = len(plan.pools.first), len(plan.pools.second), len(plan.bot_pairs)
        self.counts = np.zeros((blocks, d, d2), np.int64)
        self._chunks: list[list[tuple[int, int, int, int]]] = []
        self.rounds: list[dict] = []
        shape = f"{blocks} x {d} x {d2}" if plan.panel else f"{d} x {d2}"
        for r, rnd in enumerate(rounds or []):
            where = f"{META}: rounds[{r}]"
            try:
                target = _counts_of(rnd, self.counts)
            except (KeyError, TypeError, ValueError, IndexError):
                raise ValueError(f"{where}: counts: malformed (not {shape} games per ordered pair)") from None
            first = len(self._chunks)
            games = self._lay_out(target, where)
            if rnd.get("first_chunk") != first or rnd.get("games") != games \
                    or rnd.get("chunk_count") != len(self._chunks) - first:
                raise ValueError(f"{where}: first_chunk, chunk_count or games do not fit the rounds before it")
            self.rounds.append(rnd)

    def _lay_out(self, target: np.ndarray, where: str) -> int:
        """Add the chunks that take every pair from its count to ``target``; returns the games added."""
        target = np.asarray(target, np.int64).reshape(self.counts.shape)
        if (target < self.counts).any():
            raise ValueError(f"{where}: counts: a pair would lose games")
        added = 0
        for b in range(len(self.bot_pairs)):
            grown = np.argwhere(target[b] > self.counts[b])  # row by row, as every pair in turn
            games = [(b, int(i), int(j), g) for i, j in grown for g in range(self.counts[b, i, j], target[b, i, j])]
            for lo in range(0, len(games), self.plan.chunk_size):
                self._chunks.append(games[lo:lo + self.plan.chunk_size])
            added += len(games)
        self.counts = target.copy()
        return added

    @property
    def chunk_count(self) -> int:
        """Chunks of every recorded round."""
        return len(self._chunks)

    @property
    def total_games(self) -> int:
        """Games of every recorded round."""
        return int(self.counts.sum())

    @property
    def games(self) -> int:
        """The most games any ordered pair has."""
        return int(self.counts.max())

    def chunk(self, k: int) -> Chunk:
        """The games of chunk ``k``."""
        games, (dk, sk), seed = self._chunks[k], self.pools, self.plan.seed
        return Chunk(
            k, self.plan.scenario_path, self.bot_pairs[games[0][0]] if games else self.bots,
            tuple(dk[i] for _, i, _, _ in games), tuple(sk[j] for _, _, j, _ in games),
            tuple(g for *_, g in games), tuple(derive_seed(seed, dk[i], sk[j], g) for _, i, j, g in games),
            self.plan.bots_from,
        )

    def add_round(self, target: np.ndarray, status: dict) -> dict:
        """Lay out a new round that brings every pair to ``target`` games; returns its ``meta.json`` record."""
        first, before = len(self._chunks), self.counts
        games = self._lay_out(np.asarray(target, np.int64), "new round")
        counts = self.counts if self.panel else self.counts[0]  # a one-bot sweep stores D x D, as before panels
        rnd = {"round": len(self.rounds), "first_chunk": first, "chunk_count": len(self._chunks) - first,
               "games": games, "units": status}
        if self.counts.size > SPARSE_CELLS:  # e.g. an explore of every legal army: the pairs this round grows
            rnd["grown"] = [[int(x) for x in cell] + [int(self.counts[tuple(cell)])]
                            for cell in np.argwhere(self.counts != before)]
        else:
            rnd["counts"] = counts.tolist()
        self.rounds.append(rnd)
        return rnd

    def chunk_index(self, df: pd.DataFrame) -> int:
        """The chunk whose games ``df`` holds (from its first row)."""
        first = df.iloc[0]
        block = self.bot_pairs.index((first["first_bot"], first["second_bot"])) if "first_bot" in df.columns else 0
        key = (block, self.pools.first.index(first["first_deck"]), self.pools.second.index(first["second_deck"]),
               int(first["game"]))
        for k, games in enumerate(self._chunks):
            if games and games[0] == key:
                return k
        raise ValueError(f"no chunk of the adaptive plan starts with {key}")


def _counts_of(rnd: dict, before: np.ndarray) -> np.ndarray:
    """A round's games per bot and ordered pair: its dense ``counts``, its ``grown`` pairs ``[bot, i, j, games]``
    over the counts ``before`` it, or (an older folder) every played pair in ``pairs``."""
    shape = before.shape
    if "pairs" not in rnd and "grown" not in rnd:
        return np.asarray(rnd["counts"], dtype=np.int64).reshape(shape)
    out = before.copy() if "grown" in rnd else np.zeros(shape, np.int64)
    cells = np.asarray(rnd["grown"] if "grown" in rnd else rnd["pairs"], dtype=np.int64).reshape(-1, 4)
    if (cells < 0).any():
        raise ValueError("negative")
    out[cells[:, 0], cells[:, 1], cells[:, 2]] = cells[:, 3]
    return out


def layout_of(plan: SweepPlan, meta: dict) -> SweepPlan | AdaptiveLayout:
    """``plan`` itself for a uniform sweep; the :class:`AdaptiveLayout` of ``meta``'s rounds for an adaptive one."""
    if plan.adaptive is None:
        return plan
    rounds = meta.get("rounds", [])
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        raise ValueError(f"{META}: rounds: malformed")
    return AdaptiveLayout(plan, rounds)


def next_round(layout: AdaptiveLayout, df: pd.DataFrame | None) -> tuple[np.ndarray | None, dict, str]:
    """The games per ordered pair after the next round of an adaptive sweep, from the games played so far.

    Round 0 (no games yet) plays ``first_steps`` games of every ordered pair. Later rounds take
    every *active* unit (see :func:`simkit.analysis.sequential.unit_status`) to its next look
    (:meth:`~simkit.analysis.sequential.AdaptiveSettings.looks`, up to ``horizon``): a matchup
    (active while its rate or its first-seat rate is) plays games of both seatings, a mirror more
    games, a deck (active while its rate or its first-seat rate is) more complete levels against
    every opponent in both seatings, the overall first seat more levels of every pair. Pair units
    come first: decks and the overall first seat grow once no pair unit is active. With a bot
    panel, each panel bot's games are units of their own, planned the same way.
    When the round would pass ``max_games``, the pairs' units are served first (scaled down,
    rounding down, if even they do not fit), then the decks that fit, cheapest first.
    Depends only on the games, so a resumed sweep plans the very same rounds.

    Returns:
        ``(counts, status, reason)``: ``counts`` (``int[B, D, D]``) None when the sweep stops;
        ``status`` counts units by kind and decision (``bot/kind/decision`` with a panel);
        ``reason`` says why it stops (``settled``, ``max_games``) or is ``""``.
    """
    s = layout.plan.adaptive
    n = layout.counts
    wider: list[np.ndarray] = []
    status: dict = {}
    pairs_target = n.copy()
    df = pd.DataFrame() if df is None else df
    for b, (first_bot, second_bot) in enumerate(layout.bot_pairs):
        part = df
        if "first_bot" in df.columns and len(layout.bot_pairs) > 1:
            part = df[(df["first_bot"] == first_bot) & (df["second_bot"] == second_bot)]
        block_status, pairs_target[b], wider_b = _plan_block(layout, n[b], part)
        prefix = f"{first_bot}/" if layout.panel else ""
        status.update({prefix + k: v for k, v in block_status.items()})
        for t in wider_b:
            full = n.copy()
            full[b] = t
            wider.append(full)
    target = pairs_target
    if not (pairs_target > n).any():  # the cheapest answers first: decks once every pair's units stop
        for t in wider:
            target = np.maximum(target, t)
    added = target - n
    if added.sum() == 0:
        return None, status, "settled"
    if s.max_games:
        left = max(s.max_games - layout.total_games, 0)
        if added.sum() > left:  # pairs' units first, then decks by the games they add
            target = pairs_target
            if (target - n).sum() > left:
                target = n + np.floor((target - n) * (left / (target - n).sum())).astype(np.int64)
            for t in sorted(wider, key=lambda t: int((np.maximum(target, t) - target).sum())):
                if (np.maximum(target, t) - n).sum() <= left:
                    target = np.maximum(target, t)
            added = target - n
            if added.sum() == 0:
                return None, status, "max_games"
    return n + added, status, ""


def _plan_block(layout: AdaptiveLayout, n: np.ndarray, df: pd.DataFrame) -> tuple[dict, np.ndarray, list]:
    """One bot's part of :func:`next_round`: its units' status, the pairs' targets, the wider units' targets
    (round 0, without games: ``first_steps`` games of every pairing).

    ``n`` is ``int[D1, D2]``, the first seat's pool by the second's. A matchup unit grows the games of the
    seatings its two decks meet in (both, where either may sit in either seat), a mirror its own, a deck
    every pairing it sits in (its mirror aside), the overall first seat every pairing.
    """
    from simkit.analysis.sequential import unit_status

    s = layout.plan.adaptive
    if len(df) == 0:
        return {}, np.minimum(np.maximum(n, s.first_steps), s.horizon), []
    firsts, seconds = layout.pools
    units = unit_status(df, s, layout.pools)
    status = {f"{k}/{st}": int(v) for (k, st), v in units.groupby(["kind", "status"]).size().items()}
    active = units[units["status"] == "active"]
    names_first, names_second = np.asarray(firsts, object), np.asarray(seconds, object)
    looks = np.asarray(s.looks(), np.int64)

    def next_look(level: int) -> int:
        return int(looks[np.searchsorted(looks, level, side="right")]) if level < s.horizon else level

    def grown(t: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``t`` with every cell of ``mask`` raised to the next look above the fewest games among them."""
        if mask.any():
            t[mask] = np.maximum(t[mask], next_look(int(n[mask].min())))
        return t

    pairs_target = n.copy()
    for a, b in zip(*(active.loc[active["scope"] == "matchup", c] for c in ("deck", "opponent")), strict=True):
        seatings = ((names_first == a)[:, None] & (names_second == b)[None, :]) | \
                   ((names_first == b)[:, None] & (names_second == a)[None, :])
        pairs_target = grown(pairs_target, seatings)
    wider = []  # each deck's pairings (its first-seat row, its second-seat column, no mirror), then every pairing
    not_mirror = names_first[:, None] != names_second[None, :]
    for x in sorted(set(active.loc[active["scope"] == "deck", "deck"])):
        mask = ((names_first == x)[:, None] | (names_second == x)[None, :]) & not_mirror
        if mask.any():
            wider.append(grown(n.copy(), mask))
    if (active["scope"] == "overall").any():
        wider.append(np.maximum(n, next_look(int(n.min()))))
    cap = np.full_like(n, s.horizon)
    return (status, np.maximum(np.minimum(pairs_target, cap), n),
            [np.maximum(np.minimum(t, cap), n) for t in wider])
