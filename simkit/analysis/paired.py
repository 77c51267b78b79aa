"""A/B comparison of two sweeps of the same deck pool: what a patch changed, game by game.

A base sweep and a patch sweep play the same seeds for the same ``(first_deck, second_deck,
game)``, so every game of one has a twin in the other. Deltas are means of paired differences
(patch minus base) with normal 95% intervals and paired t-tests, corrected for multiple
comparisons within each family (decks, cards, first-player, matchups). Pure functions from the
two results DataFrames to tidy tables; no game package is imported.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis import (
    FlagBands,
    check_results,
    deck_membership,
    deck_pool,
    deck_strength,
    first_player_advantage,
    first_score,
    flag_subjects,
    matchup_matrix,
    meta_of,
    metagame,
    pool_metagame,
    seat_pools,
)
from simkit.analysis.cards import card_usage, card_usage_change
from simkit.analysis.stats import adjust_p, paired_delta
from simkit.core.words import Estimate, change_verdict, detectable_change, games_for_change, seat_change_clause

__all__ = [
    "COMPARE_TABLES",
    "KEYS",
    "pair_results",
    "corrected_interval",
    "deck_deltas",
    "card_deltas",
    "first_player_deltas",
    "matchup_deltas",
    "nash_shift",
    "flag_changes",
    "patch_changes",
    "spread_change",
    "paired_only",
    "detection",
    "verdict",
    "compare_results",
]

KEYS = ["first_deck", "second_deck", "game"]
COMPARE_TABLES = ("deck_deltas", "card_deltas", "first_player_deltas", "matchup_deltas", "nash_shift", "flag_changes",
                  "card_usage_changes", "experience_deltas")


def _bots(df: pd.DataFrame) -> str:
    """The bots of a sweep in words (``"balanced vs rush"``), read from the rows, else from the meta."""
    if {"first_bot", "second_bot"} <= set(df.columns):
        pairs = df[["first_bot", "second_bot"]].astype(str).drop_duplicates().sort_values(["first_bot", "second_bot"])
        return ", ".join(f"{a} vs {b}" for a, b in pairs.itertuples(index=False))
    bots = (df.attrs.get("meta") or {}).get("bots") or ["?", "?"]
    return " vs ".join(map(str, bots))


def pair_results(base: pd.DataFrame, patch: pd.DataFrame) -> pd.DataFrame:
    """Pair the games that both sweeps played, on ``(first_deck, second_deck, game)``.

    Two uniform sweeps of the same pool and games per pair pair every game; sweeps with other
    counts (an adaptive sweep, or another ``--games``) pair the games both played, and
    ``paired.attrs["games"]`` says how many: ``{"paired", "base", "patch"}``.

    Args:
        base: the base sweep's results.
        patch: the patch sweep's results.

    A sweep of a bot panel plays each game once per panel bot; its games pair up on their bots
    too (the two sweeps must have the same bots, see below).

    Returns:
        one row per paired game: the keys (and both bots, when the results name them),
        ``base_points`` and ``patch_points`` (the first player's points: 1 win, 1/2 draw, 0
        loss), ``same_seed`` (both games had the same seed).

    A game an outside bot forfeited (``end_reason`` ``forfeit``) is left out on both sides: only games both sweeps
    played to their end are paired.

    Raises:
        ValueError: (one line) when the deck pools differ, the bots differ (a change of bots
            would be read as the patch's doing), a game appears twice, or some ordered pairing
            has no game that both sweeps played.
    """
    check_results(base, "base")
    check_results(patch, "patch")
    from simkit.analysis.forfeits import ordinary_games

    base, patch = ordinary_games(base), ordinary_games(patch)  # a game an outside bot forfeited pairs with none
    a, b = deck_pool(base), deck_pool(patch)
    if a != b:
        only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
        what = []
        if only_a:
            what.append(f"{len(only_a)} only in base (e.g. {only_a[0]})")
        if only_b:
            what.append(f"{len(only_b)} only in patch (e.g. {only_b[0]})")
        raise ValueError(f"base and patch sweeps have different deck pools ({len(a)} vs {len(b)} decks; "
                         f"{'; '.join(what)}): compare needs the same pool")
    pools_a, pools_b = seat_pools(base), seat_pools(patch)
    if pools_a != pools_b:
        raise ValueError(f"base and patch sweeps seat their decks differently (base: {pools_a.count()}; patch: "
                         f"{pools_b.count()}): compare needs the same seat pools")
    bots_a, bots_b = _bots(base), _bots(patch)
    if bots_a != bots_b:
        raise ValueError(f"base and patch sweeps were played by different bots (base: {bots_a}; patch: {bots_b}): "
                         "a change would mix the patch with the bots' play; sweep both with the same --bots")
    # a bot panel plays every pairing once per bot: its games are told apart by their bots too
    bots = ["first_bot", "second_bot"] if {"first_bot", "second_bot"} <= set(base.columns) & set(patch.columns) else []
    keys = KEYS + bots
    for name, df in (("base", base), ("patch", patch)):
        if df.duplicated(keys).any():
            k = df[df.duplicated(keys)].iloc[0]
            raise ValueError(f"{name} sweep has game {k['game']} of {k['first_deck']} vs {k['second_deck']} twice")
    codes = {d: i for i, d in enumerate(a)}
    width = int(max(base["game"].max(), patch["game"].max())) + 1
    pairs = {p: i for i, p in enumerate(sorted(set(zip(*(base[c].astype(str) for c in bots)))))} if bots else {}

    def key(df: pd.DataFrame) -> np.ndarray:  # one integer per (first_deck, second_deck, game[, bots])
        first = df["first_deck"].map(codes).to_numpy(np.int64)
        second = df["second_deck"].map(codes).to_numpy(np.int64)
        k = (first * len(a) + second) * width + df["game"].to_numpy(np.int64)
        if bots:
            bot = np.array([pairs[p] for p in zip(*(df[c].astype(str) for c in bots))], dtype=np.int64)
            k = k * len(pairs) + bot
        return k

    left = base[keys].assign(key=key(base), base_points=first_score(base),
                             base_seed=base["seed"] if "seed" in base else -1, base_row=np.arange(len(base)))
    right = pd.DataFrame({"key": key(patch), "patch_points": first_score(patch),
                          "patch_seed": patch["seed"] if "seed" in patch else -2, "patch_row": np.arange(len(patch))})
    paired = left.merge(right, on="key", how="inner", validate="one_to_one").drop(columns="key")
    per_pair = paired.groupby(KEYS[:2]).size()
    want = seat_pools(base).pairings
    if len(per_pair) != want:
        raise ValueError(f"only {len(per_pair)} of {want} deck pairings have a game both sweeps played "
                         "(same first deck, second deck and game number): the sweeps cannot be compared")
    paired["same_seed"] = paired.pop("base_seed").to_numpy() == paired.pop("patch_seed").to_numpy()
    paired = paired.sort_values(keys, ignore_index=True)
    rows = (paired.pop("base_row").to_numpy(), paired.pop("patch_row").to_numpy())
    paired.attrs["meta"] = dict(base.attrs.get("meta") or {})  # the game's schema and deck cards
    paired.attrs["games"] = {"paired": len(paired), "base": len(base), "patch": len(patch)}
    paired.attrs["rows"] = rows  # each paired game's row in base and in patch (positions)
    return paired


def paired_only(base: pd.DataFrame, patch: pd.DataFrame, paired: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The games of each sweep that the other played too (:func:`pair_results`' ``rows``), in the same order, with
    the sweeps' metadata: every part of a comparison reads these, so a sweep of more games (another ``--games``, an
    adaptive sweep) is compared on the games both played, flags and the Nash mix included."""
    b_rows, p_rows = paired.attrs["rows"]
    if len(b_rows) == len(base) and len(p_rows) == len(patch):
        return base, patch
    b, p = base.iloc[b_rows].reset_index(drop=True), patch.iloc[p_rows].reset_index(drop=True)
    b.attrs, p.attrs = dict(base.attrs), dict(patch.attrs)
    return b, p


def _deck_view(paired: pd.DataFrame) -> pd.DataFrame:
    """Each non-mirror paired game from both decks' side: ``deck, opponent, base, patch, d``."""
    fp = paired["base_points"].to_numpy()
    pp = paired["patch_points"].to_numpy()
    one = pd.DataFrame({"deck": paired["first_deck"].to_numpy(), "opponent": paired["second_deck"].to_numpy(),
                        "base": fp, "patch": pp})
    two = pd.DataFrame({"deck": paired["second_deck"].to_numpy(), "opponent": paired["first_deck"].to_numpy(),
                        "base": 1 - fp, "patch": 1 - pp})
    view = pd.concat([one, two], ignore_index=True)
    view = view[view["deck"] != view["opponent"]].reset_index(drop=True)
    view["d"] = view["patch"] - view["base"]
    view["d2"] = view["d"] ** 2
    return view


def _sums(view: pd.DataFrame, by) -> pd.DataFrame:
    return view.groupby(by, sort=True).agg(games=("d", "size"), base=("base", "sum"), patch=("patch", "sum"),
                                           d=("d", "sum"), d2=("d2", "sum"))


def _finish(t: pd.DataFrame, method: str, alpha: float, rate_names=("base_rate", "patch_rate"),
            family: np.ndarray | None = None) -> pd.DataFrame:
    """Means, paired intervals and corrected p-values from summed columns."""
    t[rate_names[0]] = t["base"] / t["games"]
    t[rate_names[1]] = t["patch"] / t["games"]
    stats = paired_delta(t["games"], t["d"], t["d2"])
    for k, v in stats.items():
        t[k] = v
    family = np.ones(len(t), dtype=bool) if family is None else family
    p = np.where(family, t["p_value"], np.nan)
    t["p_adjusted"] = adjust_p(p, method)
    t["significant"] = t["p_adjusted"] < alpha
    return corrected_interval(t, alpha).drop(columns=["base", "patch", "d", "d2"])


def corrected_interval(t: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Add ``adj_low, adj_high``: each change's interval at the level its corrected test used.

    A row's corrected p-value ``p_adjusted`` is its raw p-value scaled up by the correction, so its
    test is the raw t-test at level ``alpha * p_value / p_adjusted``; the t interval at that level
    (wider than the 95% one) excludes 0 exactly when the row is ``significant``. So an interval and
    its significance word always agree (for a family of one test it is the 95% t interval).

    Args:
        t: a table with ``games, delta, low, high, p_value, p_adjusted`` (``low``/``high`` the normal
            95% interval of :func:`simkit.analysis.stats.paired_delta`).
        alpha: the significance level.

    Returns:
        ``t`` with ``adj_low`` and ``adj_high`` (NaN where the row has no test).
    """
    from scipy.stats import t as student

    from simkit.analysis.stats import Z95

    n = t["games"].to_numpy(float)
    delta = t["delta"].to_numpy(float)
    se = (t["high"].to_numpy(float) - delta) / Z95
    raw, adj = t["p_value"].to_numpy(float), t["p_adjusted"].to_numpy(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        level = np.where(adj > 0, alpha * raw / adj, alpha)
        half = np.where(se > 0, student.ppf(1 - np.clip(level, 1e-300, 1) / 2, np.maximum(n - 1, 1)) * se, 0.0)
    half = np.where(np.isfinite(adj) & np.isfinite(raw), half, np.nan)
    t["adj_low"], t["adj_high"] = delta - half, delta + half
    return t


def deck_deltas(paired: pd.DataFrame, bands: FlagBands | None = None) -> pd.DataFrame:
    """Change of each deck's win rate against the pool (non-mirror games, paired).

    Args:
        paired: :func:`pair_results`.
        bands: significance level and correction method (default :class:`FlagBands`).

    Returns:
        DataFrame ``deck, games, base_rate, patch_rate, delta, low, high, p_value, p_adjusted,
        significant, adj_low, adj_high`` (:func:`corrected_interval`) sorted by ``delta``, largest gain first.
    """
    bands = bands or FlagBands()
    t = _sums(_deck_view(paired), "deck").reset_index()
    t = _finish(t, bands.method, bands.alpha)
    return t.sort_values(["delta", "deck"], ascending=[False, True], ignore_index=True)


def card_deltas(paired: pd.DataFrame, bands: FlagBands | None = None) -> pd.DataFrame:
    """Change of the win rate of the decks holding each card (paired), by the game's card categories.

    Args:
        paired: :func:`pair_results`.
        bands: significance level and correction method.

    Returns:
        DataFrame ``card, kind, decks, games, base_rate, patch_rate, delta, low, high, p_value,
        p_adjusted, significant, adj_low, adj_high``, by category in the game's order, each group by ``delta``.
    """
    bands = bands or FlagBands()
    per_deck = _sums(_deck_view(paired), "deck")
    member = deck_membership(paired)
    kind = member.attrs["kind"]
    member = member.reindex(per_deck.index)
    member.attrs["kind"] = kind
    m = member.to_numpy(float)
    t = pd.DataFrame(m.T @ per_deck.to_numpy(float), columns=per_deck.columns)
    t.insert(0, "card", member.columns)
    t.insert(1, "kind", [member.attrs["kind"][c] for c in member.columns])
    t.insert(2, "decks", m.sum(0).astype(int))
    t["games"] = t["games"].astype(int)
    t = _finish(t, bands.method, bands.alpha)
    t["group"] = t["kind"].map({k: i for i, k in enumerate(dict.fromkeys(kind.values()))})
    t = t.sort_values(["group", "delta", "card"], ascending=[True, False, True], ignore_index=True)
    return t.drop(columns="group")


def first_player_deltas(paired: pd.DataFrame, bands: FlagBands | None = None) -> pd.DataFrame:
    """Change of the first-player advantage, overall and per deck (paired games).

    Advantages are the first seat's score rate minus 1/2, per deck over the deck's non-mirror
    games, as in :func:`simkit.analysis.first_player_advantage`.

    Args:
        paired: :func:`pair_results`.
        bands: significance level and correction method.

    Returns:
        DataFrame ``scope ("overall"/"deck"), subject, games, base_advantage, patch_advantage,
        delta, low, high, p_value, p_adjusted, significant, adj_low, adj_high``; the overall row
        first, decks by ``delta``. The overall change is the headline's test, a family of its own (its
        significance is its 95% interval's); the per-deck rows are corrected among themselves.
    """
    bands = bands or FlagBands()
    g = pd.DataFrame({"base": paired["base_points"], "patch": paired["patch_points"]})
    g["d"] = g["patch"] - g["base"]
    g["d2"] = g["d"] ** 2
    overall = g.assign(subject="all games")
    mirror = paired["first_deck"] == paired["second_deck"]
    decks = pd.concat([g[~mirror].assign(subject=paired["first_deck"][~mirror].to_numpy()),
                       g[~mirror].assign(subject=paired["second_deck"][~mirror].to_numpy())])
    o = _sums(overall, "subject").reset_index().assign(scope="overall")
    d = _sums(decks, "subject").reset_index().assign(scope="deck")
    o = _finish(o, bands.method, bands.alpha, ("base_advantage", "patch_advantage"))
    d = _finish(d, bands.method, bands.alpha, ("base_advantage", "patch_advantage"))
    t = pd.concat([o, d], ignore_index=True)
    t["base_advantage"] -= 0.5
    t["patch_advantage"] -= 0.5
    t["order"] = (t["scope"] == "deck").astype(int)
    t = t.sort_values(["order", "delta", "subject"], ascending=[True, False, True], ignore_index=True)
    return t[["scope", "subject", "games", "base_advantage", "patch_advantage", "delta", "low", "high",
              "p_value", "p_adjusted", "significant", "adj_low", "adj_high"]]


def matchup_deltas(paired: pd.DataFrame, bands: FlagBands | None = None) -> pd.DataFrame:
    """Change of every non-mirror matchup's win rate (both seats pooled, paired games).

    Args:
        paired: :func:`pair_results`.
        bands: significance level and correction method.

    Returns:
        DataFrame ``deck, opponent, games, base_rate, patch_rate, delta, low, high, p_value,
        p_adjusted, significant, adj_low, adj_high`` for every ordered pair of different decks; (A, B) and (B, A)
        mirror each other and the correction (``bands.matchup_method``, Benjamini-Hochberg by
        default, as for the matchup flags) counts each pairing once.
    """
    bands = bands or FlagBands()
    t = _sums(_deck_view(paired), ["deck", "opponent"]).reset_index()
    once = (t["deck"] < t["opponent"]).to_numpy()
    t = _finish(t, bands.matchup_method, bands.alpha, family=once)
    adj = dict(zip(zip(t["deck"], t["opponent"]), t["p_adjusted"]))
    raw = dict(zip(zip(t["deck"], t["opponent"]), t["p_value"]))
    t["p_adjusted"] = [adj[(a, b)] if a < b else adj[(b, a)] for a, b in zip(t["deck"], t["opponent"])]
    t["p_value"] = [raw[(a, b)] if a < b else raw[(b, a)] for a, b in zip(t["deck"], t["opponent"])]
    t["significant"] = t["p_adjusted"] < bands.alpha
    return corrected_interval(t, bands.alpha)


def _mix(matchups: pd.DataFrame, results: pd.DataFrame | None) -> pd.DataFrame:
    """The metagame of one sweep (:func:`~simkit.analysis.metagame.pool_metagame`); where each seat has its own
    mix, its decks are labelled by seat."""
    mix = metagame(matchups) if results is None else pool_metagame(results, matchups)
    if "seat" not in mix.columns:
        return mix
    return mix.assign(deck=mix["deck"] + " (" + mix.pop("seat") + " seat)")


def nash_shift(base_matchups: pd.DataFrame, patch_matchups: pd.DataFrame, base: pd.DataFrame | None = None,
               patch: pd.DataFrame | None = None) -> pd.DataFrame:
    """The Nash equilibrium mix before and after the patch, deck by deck.

    Args:
        base_matchups: :func:`simkit.analysis.matchup_matrix` of the base sweep.
        patch_matchups: the same of the patch sweep.
        base, patch: the sweeps' results, needed when their seats had their own pools (then each seat's
            mix of the rectangular game, :func:`~simkit.analysis.metagame.seat_metagame`, decks labelled by seat).

    Returns:
        DataFrame ``deck, weight_base, weight_patch, change, in_support_base, in_support_patch``
        sorted by the larger of the two weights.
    """
    a = _mix(base_matchups, base).set_index("deck")
    b = _mix(patch_matchups, patch).set_index("deck").reindex(a.index)
    t = pd.DataFrame({
        "deck": a.index, "weight_base": a["weight"].to_numpy(), "weight_patch": b["weight"].to_numpy(),
        "in_support_base": a["in_support"].to_numpy(), "in_support_patch": b["in_support"].to_numpy(),
    })
    t["change"] = t["weight_patch"] - t["weight_base"]
    top = np.maximum(t["weight_base"], t["weight_patch"])
    return t.iloc[np.lexsort((t["deck"], -top))].reset_index(drop=True)[
        ["deck", "weight_base", "weight_patch", "change", "in_support_base", "in_support_patch"]]


def flag_changes(base_flags: pd.DataFrame, patch_flags: pd.DataFrame, base_subjects: pd.DataFrame | None = None,
                 patch_subjects: pd.DataFrame | None = None) -> pd.DataFrame:
    """Flags that appeared with the patch, vanished with it, or stayed, each with the reason it changed.

    A flag is matched by its kind, its subject and its side of the band: a deck flagged too weak in the
    base and too strong with the patch (or a seat advantage that changes seat) is a flag that vanished
    and one that appeared, not one that stayed.

    Args:
        base_flags: :func:`simkit.analysis.balance_flags` of the base sweep.
        patch_flags: the same of the patch sweep.
        base_subjects: :func:`simkit.analysis.flag_subjects` of the base sweep (every subject's value,
            flagged or not); without it a subject's value is known only where it is flagged.
        patch_subjects: the same of the patch sweep.

    Returns:
        the flag columns plus ``status`` ("appeared"/"vanished"/"stayed"), ``base_value`` and
        ``patch_value`` (the subject's value in each sweep, flagged or not) and ``reason``: for a flag that
        vanished, "moved inside the band", "still outside the band, no longer significant" or "crossed
        to the other side of the band"; for one that appeared, "was inside the band", "was already
        outside the band (not significant in the base)" or "crossed from the other side of the band";
        "still flagged" for one that stayed. The other columns come from the patch where flagged there,
        else from the base. Sorted appeared, vanished, stayed.
    """
    key = ["kind", "subject", "side"]
    a = base_flags.assign(side=_side(base_flags)).set_index(key)
    b = patch_flags.assign(side=_side(patch_flags)).set_index(key)
    a_all = (base_flags if base_subjects is None else base_subjects).set_index(["kind", "subject"])
    b_all = (patch_flags if patch_subjects is None else patch_subjects).set_index(["kind", "subject"])
    rows = []
    for status, idx, src in (("appeared", b.index.difference(a.index, sort=False), b),
                             ("vanished", a.index.difference(b.index, sort=False), a),
                             ("stayed", b.index.intersection(a.index, sort=False), b)):
        part = src.loc[idx].reset_index()
        side = part.pop("side").to_numpy() if len(idx) else np.array([], dtype=object)
        part.insert(0, "status", status)
        subjects = idx.droplevel("side")
        part["base_value"] = a_all["value"].reindex(subjects).to_numpy(float) if len(idx) else []
        part["patch_value"] = b_all["value"].reindex(subjects).to_numpy(float) if len(idx) else []
        other = part["base_value"] if status == "appeared" else part["patch_value"]
        part["reason"] = [_flag_reason(status, s, v, lo, hi) for s, v, lo, hi in
                          zip(side, other, part["band_low"], part["band_high"])] if len(idx) else []
        rows.append(part)
    return pd.concat(rows, ignore_index=True)


def _flag_reason(status: str, side: str, other: float, low: float, high: float) -> str:
    """Why a flag changed state, from the subject's value in the other sweep (NaN: not known there)."""
    if status == "stayed":
        return "still flagged"
    if other != other:
        return "new" if status == "appeared" else "gone"
    where = "inside" if low <= other <= high else ("above" if other > high else "below")
    if status == "vanished":
        if where == "inside":
            return "moved inside the band"
        return ("still outside the band, no longer significant" if where == side
                else "crossed to the other side of the band")
    if where == "inside":
        return "was inside the band"
    return ("was already outside the band (not significant in the base)" if where == side
            else "crossed from the other side of the band")


def _side(flags: pd.DataFrame) -> np.ndarray:
    """Which side of its band each flag lies on: ``"above"`` or ``"below"``."""
    return np.where(flags["value"].to_numpy(float) > flags["band_high"].to_numpy(float), "above", "below")


#: keys of a scenario that do not change the game (what it is called, where and how it is swept)
_NOT_RULES = ("name", "description", "sweep.")


def patch_changes(base_meta: dict, patch_meta: dict) -> list[tuple[str, object, object]]:
    """What the patch changed: ``(key, base value, patch value)`` for every key of the merged scenarios that
    differs (``None`` where a key is absent), the name, description and ``[sweep]`` table left out; read
    from the scenario text each results folder keeps."""
    import json

    from simkit.scenario import flat_keys

    def keys(meta: dict) -> dict:
        try:
            return flat_keys(json.loads(meta.get("scenario_text") or "{}"))
        except (TypeError, ValueError):
            return {}

    a, b = keys(base_meta), keys(patch_meta)
    out = []
    for k in [*a, *(k for k in b if k not in a)]:
        if k.startswith(_NOT_RULES) or k in _NOT_RULES:
            continue
        if a.get(k) != b.get(k):
            out.append((k, a.get(k), b.get(k)))
    return out


def detection(paired: pd.DataFrame, decks: pd.DataFrame, bands: FlagBands, named: float = 0.05) -> dict:
    """What this comparison could have seen: the smallest change of one deck's win rate its paired test detects
    (80% power, alpha over the decks' family, :func:`simkit.core.words.detectable_change`) and about how many games
    per pair a change of ``named`` needs (games per pair as ``--games`` counts them: per bot pairing of a panel).

    Returns:
        ``{"smallest", "named", "needed", "games_per_pair", "sd"}`` (``sd``: the standard deviation of a game's
        paired difference, deck view, non-mirror games; ``needed``: games per pair, ``inf`` beyond 10,000).
    """
    view = _deck_view(paired)
    sd = float(view["d"].std(ddof=1)) if len(view) > 1 else float("nan")
    per_deck = float(decks["games"].median()) if len(decks) else 0.0
    per_pair = paired.groupby(KEYS[:2]).size()
    bots = paired[["first_bot", "second_bot"]].drop_duplicates() if {"first_bot", "second_bot"} <= set(paired) else []
    games_per_pair = float(per_pair.median()) / max(len(bots), 1) if len(per_pair) else 0.0  # a sweep's --games
    smallest = detectable_change(sd, per_deck, len(decks), bands.alpha) if sd == sd else float("nan")
    needed = games_for_change(named, smallest, games_per_pair)
    return {"smallest": smallest, "named": named, "needed": needed, "games_per_pair": games_per_pair, "sd": sd}


def verdict(spread: dict, decks: pd.DataFrame, flags: pd.DataFrame, bands: FlagBands,
            changes: list[tuple[str, object, object]] = (), reach: dict | None = None, games: dict | None = None,
            seat: pd.Series | None = None) -> dict:
    """The comparison's answer in one sentence (:func:`simkit.core.words.change_verdict`), from the spread of deck
    win rates and its paired interval, and what the comparison could have seen (``reach``, :func:`detection`).

    "more balanced" when the whole interval of the spread's ratio lies below 1, "less balanced" when it lies
    above; when it holds 1, "no measurable effect on balance" if a deck change of ``reach["named"]`` was within
    reach, else "not settled"; then the decks inside the report's band before and after, the smallest change the
    comparison could detect, the games a change of the named size needs, the flags that changed, counted by reason,
    the first seat's change when its interval (the headline test's, ``seat``: the overall row of
    :func:`first_player_deltas`) leaves 0 out, and, when the sweeps played different games, that only the games
    both played were compared.

    Returns:
        ``{"kind", "sentence", "ratio", "low", "high", "inside_before", "inside_after", "decks", "changes",
        "smallest", "needed", "games_per_pair"}``.
    """
    reach = reach or {"smallest": float("nan"), "named": 0.05, "needed": None, "games_per_pair": 0}
    ratio, low, high = spread["ratio"], spread["low"], spread["high"]
    lo, hi = bands.deck
    inside_before = int(decks["base_rate"].between(lo, hi).sum())
    inside_after = int(decks["patch_rate"].between(lo, hi).sum())
    kind, sentence = change_verdict((spread["base"], spread["patch"]), Estimate(ratio, low, high),
                                    (inside_before, inside_after), len(decks), bands.deck, reach["smallest"],
                                    reach["games_per_pair"], reach["named"], reach["needed"], same_rules=not changes)
    moved = flags[flags["status"] != "stayed"]
    if len(moved):
        counts = moved.groupby(["status", "reason"]).size()
        parts = [f"{n} {status} ({reason})" for (status, reason), n in counts.items()]
        sentence += "; flags: " + ", ".join(parts)
    else:
        sentence += "; no flag changed"
    if seat is not None:
        sentence += seat_change_clause(seat["base_advantage"], seat["patch_advantage"],
                                       Estimate(seat["delta"], seat["adj_low"], seat["adj_high"], int(seat["games"])))
    if games and not games["paired"] == games["base"] == games["patch"]:
        sentence += (f"; only the {games['paired']:,} games both sweeps played are compared, in every part (the base "
                     f"played {games['base']:,}, the patch {games['patch']:,})")
    return {"kind": kind, "sentence": sentence, "ratio": ratio, "low": low, "high": high,
            "inside_before": inside_before, "inside_after": inside_after, "decks": len(decks),
            "changes": list(changes), "smallest": reach["smallest"], "needed": reach["needed"],
            "games_per_pair": reach["games_per_pair"]}


def spread_change(paired: pd.DataFrame, level: float = 0.95, resamples: int = 2000, seed: int = 0) -> dict:
    """How the spread of the deck win rates (their standard deviation, non-mirror games) changes from base
    to patch, with a paired bootstrap interval for the ratio.

    The games are resampled with replacement, each game with its twin (the same seed in both sweeps), so
    the interval carries the luck of the draw both sweeps share; percentile interval, ``scipy.stats.bootstrap``.

    Args:
        paired: :func:`pair_results`.
        level: the interval's confidence level.
        resamples: bootstrap resamples.
        seed: the bootstrap's random seed (the same seed gives the same interval).

    Returns:
        ``{"base": spread, "patch": spread, "ratio": patch / base, "low": ..., "high": ..., "level": level}``
        (``low``/``high`` bound the ratio; NaN when the pool has fewer than two decks).
    """
    from scipy.stats import bootstrap

    games = paired[paired["first_deck"] != paired["second_deck"]]
    decks = sorted(set(games["first_deck"]) | set(games["second_deck"]))
    code = {d: i for i, d in enumerate(decks)}
    first = games["first_deck"].map(code).to_numpy(np.int64)
    second = games["second_deck"].map(code).to_numpy(np.int64)
    base, patch = games["base_points"].to_numpy(float), games["patch_points"].to_numpy(float)
    n = len(decks)

    def spreads(b, p, f, s):
        b, p, f, s = (np.atleast_2d(x) for x in (b, p, f, s))
        rows = np.arange(len(f))[:, None] * n
        f, s = (f + rows).ravel(), (s + rows).ravel()
        count = (np.bincount(f, minlength=len(rows) * n) + np.bincount(s, minlength=len(rows) * n)).reshape(-1, n)
        out = []
        for x in (b, p):
            won = np.bincount(f, x.ravel(), len(rows) * n) + np.bincount(s, 1 - x.ravel(), len(rows) * n)
            out.append((won.reshape(-1, n) / np.maximum(count, 1)).std(axis=1))
        return out

    def ratio(b, p, f, s, axis=-1):  # scipy passes axis; the resamples are always along the last one
        before, after = spreads(b, p, f, s)
        with np.errstate(invalid="ignore", divide="ignore"):  # a resample with no spread at all: NaN, left out
            return np.squeeze(after / before)

    before, after = (float(x[0]) for x in spreads(base, patch, first, second))
    out = {"base": before, "patch": after, "ratio": after / before if before > 0 else float("nan"),
           "low": float("nan"), "high": float("nan"), "level": level}
    if n >= 2 and before > 0:
        ci = bootstrap((base, patch, first, second), ratio, paired=True, vectorized=True, n_resamples=resamples,
                       confidence_level=level, method="percentile", batch=100, random_state=seed).confidence_interval
        out["low"], out["high"] = float(ci.low), float(ci.high)
    return out


def compare_results(base: pd.DataFrame, patch: pd.DataFrame, bands: FlagBands | None = None) -> dict:
    """Every comparison table of a base and a patch sweep of the same deck pool.

    Args:
        base: the base sweep's results.
        patch: the patch sweep's results.
        bands: flag thresholds, significance level and correction (default :class:`FlagBands`).

    Returns:
        dict with the tables of :data:`COMPARE_TABLES` (the Nash table with ``deck_change_significant``: whether
        the deck's own win rate changed significantly, the Nash mix having no test of its own), ``spread``
        (:func:`spread_change`), ``order``
        (decks by base strength, strongest first), ``base_meta``, ``patch_meta``, ``same_seed`` (share of paired games
        with equal seeds) and ``bands``.

    Raises:
        ValueError: when the two sweeps cannot be paired (see :func:`pair_results`).
    """
    bands = bands or FlagBands()
    paired = pair_results(base, patch)
    base, patch = paired_only(base, patch, paired)  # every part reads the games both sweeps played
    mb, mp = matchup_matrix(base), matchup_matrix(patch)
    fb, fpp = first_player_advantage(base), first_player_advantage(patch)
    base_subjects, patch_subjects = flag_subjects(base, bands, mb, fb), flag_subjects(patch, bands, mp, fpp)
    spread = spread_change(paired)
    deck_table = deck_deltas(paired, bands)
    flags = flag_changes(base_subjects[base_subjects["flagged"]].drop(columns="flagged"),
                         patch_subjects[patch_subjects["flagged"]].drop(columns="flagged"),
                         base_subjects, patch_subjects)
    changes = patch_changes(meta_of(base), meta_of(patch))
    nash = nash_shift(mb, mp, base, patch)
    moved = deck_table.set_index("deck")["significant"]
    nash["deck_change_significant"] = nash["deck"].map(moved).eq(True).to_numpy()
    seats = first_player_deltas(paired, bands)
    from simkit.analysis.experience_change import experience_deltas

    return {
        "deck_deltas": deck_table,
        "card_deltas": card_deltas(paired, bands),
        "first_player_deltas": seats,
        "matchup_deltas": matchup_deltas(paired, bands),
        "nash_shift": nash,
        "flag_changes": flags,
        "card_usage_changes": card_usage_change(card_usage(base), card_usage(patch)),  # what the cards did
        "experience_deltas": experience_deltas(base, patch, bands),  # how the games play
        "spread": spread,
        "changes": changes,
        "verdict": verdict(spread, deck_table, flags, bands, changes, detection(paired, deck_table, bands),
                           paired.attrs["games"], seats[seats["scope"] == "overall"].iloc[0]),
        "order": list(deck_strength(base, bootstrap=0)["deck"]),
        "base_meta": meta_of(base),
        "patch_meta": meta_of(patch),
        "same_seed": float(paired["same_seed"].mean()),
        "games": paired.attrs["games"],
        "bands": bands,
    }
