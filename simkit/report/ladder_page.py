"""The skill ladder's report: "Does the player matter?" on one page, for a folder written by ``simkit ladder``.

The page says the answer in one sentence (:func:`simkit.core.words.player_answer`), then each match: the upper
bot's score with its interval (:func:`plot_ladder_scores`) and, with two seeds a deal or more, how the outcome's
variance splits into the players, the deck pairing and seats, and the seed (:func:`plot_outcome_shares`); the
tables go beside the PDF as CSV (``NAME.matches.csv``, ``NAME.outcome.csv``, ``NAME.costs.csv``,
``NAME.round_robin.csv``).
"""

from __future__ import annotations

from pathlib import Path
from textwrap import wrap

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

__all__ = ["TABLES", "ladder_tables", "plot_ladder_scores", "plot_outcome_shares", "ladder_report"]

TABLES = ("matches", "outcome", "costs", "round_robin")
SHARES = (("skill", "the players", "#2b6cb0"), ("decks", "deck pairing and seats", "#b7791f"),
          ("luck", "the seed", "#9b9b9b"))


def ladder_tables(doc: dict) -> dict[str, pd.DataFrame]:
    """The ladder's figures (a ``ladder.json``) as tidy tables: ``matches`` (one row a match: games, won, drawn,
    lost, win rate and score with their intervals, per seat), ``outcome`` (one row a match and part: share and
    interval), ``costs`` and ``round_robin``."""
    rows, shares = [], []
    for m in doc["matches"]:
        name = f"{m['upper']} vs {m['lower']}"
        rows.append({"match": name, "upper": m["upper"], "lower": m["lower"], "games": m["games"], "won": m["won"],
                     "drawn": m["drawn"], "lost": m["lost"], "win_rate": m["win_rate"], "win_low": m["win_ci"][0],
                     "win_high": m["win_ci"][1], "score": m["score"], "score_low": m["score_ci"][0],
                     "score_high": m["score_ci"][1], "upper_first_score": m["upper_first"]["score"],
                     "upper_second_score": m["upper_second"]["score"], "cpu_s": m["cpu_s"], "answer": m["answer"]})
        split = m.get("skill_or_luck")
        if split:
            for key, _, _ in SHARES:
                lo, hi = split["share_ci"][key]
                shares.append({"match": name, "part": key, "share": split["share"][key], "low": lo, "high": hi})
    costs = pd.DataFrame(doc.get("costs") or [], columns=["rung", "games", "cpu_s_per_game", "cpu_ms_per_decision",
                                                          "actions_per_game", "sweep_pairs", "sweep_cores",
                                                          "sweep_minutes"])
    robin = pd.DataFrame([{"bot": b, "games": v["games"], "score": v["score"], "low": v["score_ci"][0],
                           "high": v["score_ci"][1]} for b, v in (doc.get("round_robin") or {}).items()],
                         columns=["bot", "games", "score", "low", "high"])
    return {"matches": pd.DataFrame(rows), "outcome": pd.DataFrame(shares, columns=["match", "part", "share", "low",
                                                                                      "high"]),
            "costs": costs[[c for c in costs.columns]], "round_robin": robin}


def plot_ladder_scores(ax: Axes, matches: pd.DataFrame) -> None:
    """Each match's upper-bot score (draws half) with its 95% interval, against the even score 0.5.

    Args:
        ax: where to draw.
        matches: :func:`ladder_tables` ``["matches"]``.
    """
    y = np.arange(len(matches))[::-1]
    ax.errorbar(matches.score, y, xerr=[matches.score - matches.score_low, matches.score_high - matches.score],
                fmt="o", color="#2b6cb0", capsize=3)
    ax.axvline(0.5, color="#666666", lw=0.8, ls="--")
    ax.set_yticks(y, matches.match)
    ax.set_xlim(0, 1)
    ax.set_xlabel("score of the first-named bot (win 1, draw 1/2), 95% interval")
    for yy, s in zip(y, matches.score):
        ax.annotate(f"{s:.3f}", (s, yy), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=7)


def plot_outcome_shares(ax: Axes, outcome: pd.DataFrame) -> None:
    """How each match's outcome splits: the players, the deck pairing and seats, the seed (stacked shares, each
    labelled with its 95% interval).

    Args:
        ax: where to draw.
        outcome: :func:`ladder_tables` ``["outcome"]`` (one row a match and part).
    """
    names = list(dict.fromkeys(outcome.match))
    y = np.arange(len(names))[::-1]
    left = np.zeros(len(names))
    for key, label, colour in SHARES:
        part = outcome[outcome.part == key].set_index("match").reindex(names)
        width = part.share.fillna(0).to_numpy()
        ax.barh(y, width, left=left, color=colour, label=label, height=0.6)
        for yy, x0, w, lo, hi in zip(y, left, width, part.low, part.high):
            if w >= 0.12:
                ax.text(x0 + w / 2, yy, f"{w:.0%}\n({lo:.0%}-{hi:.0%})", ha="center", va="center", fontsize=6.5,
                        color="white")
        left += width
    for yy, total in zip(y, left):
        if total == 0:
            ax.text(0.5, yy, "no variance to split: every game gave the first seat the same score", ha="center",
                    va="center", fontsize=7, color="#666666")
    ax.set_yticks(y, names)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the variance of the first seat's score")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize=7, frameon=False)


def ladder_report(folder: str | Path, out: str | Path) -> list[Path]:
    """Write the ladder report of ``folder`` to ``out`` (a ``.pdf``) and its tables beside it.

    Returns:
        the PDF's path, then the CSV files.

    Raises:
        ValueError: ``folder`` holds no ladder run, or ``out`` is not a ``.pdf``.
    """
    from simkit.ladder.run import read_ladder
    from simkit.report.document import ReportPdf, atomic_outputs, output_paths, write_csvs

    doc = read_ladder(folder)
    tables = ladder_tables(doc)
    pdf, csvs = output_paths(out, list(TABLES))
    with atomic_outputs([pdf, *csvs.values()]) as temps:
        title = f"Does the player matter? {doc.get('scenario_name', '')}"
        with ReportPdf(temps[pdf], title, f"{doc.get('scenario_name', '')} | simkit ladder", "skill ladder",
                       f"commit {doc.get('commit')}") as book:
            _page(book, doc, tables)
        write_csvs(tables, {t: temps[p] for t, p in csvs.items()})
    return [pdf, *csvs.values()]


def _page(book, doc: dict, t: dict[str, pd.DataFrame]) -> None:
    """The one page: answer, design, scores, outcome split, costs or round robin."""
    s = doc["settings"]
    matches = t["matches"]
    fig = book.new_page()
    fig.text(0.07, 0.965, f"Does the player matter? {doc.get('title', '')}", fontsize=16, weight="bold", va="top")
    lead = wrap(doc["answer"], 88)
    fig.text(0.07, 0.925, "\n".join(lead), fontsize=10.5, weight="bold", va="top", linespacing=1.3)
    y = 0.925 - (len(lead) * 1.3 * 10.5 + 12) / (11.69 * 72)
    design = (f"Rungs, weakest first: {', '.join(s['rungs'])}" + (f"; the top also plays {s['against']}"
                                                                   if s.get("against") else "")
              + f". Each match: {s['games']} games, {s['games'] // (2 * s['seeds_per_deal'])} random deals (first-seat "
              f"deck against second-seat deck, from a pool of {doc['pool']['pairs']:,} ordered pairs) x 2 seat orders "
              f"x {s['seeds_per_deal']} seed(s), seed {s['seed']}. Each bot sits half the games in each seat, so the "
              "seat's advantage cancels; the intervals are 95% Wilson intervals (the games of a deal are treated as "
              "independent). The split of the outcome is the law of total variance over the first seat's score "
              "(simkit.analysis.luck), its intervals a bootstrap over deals.")
    lines = wrap(design, 118) + [""] + [w for m in doc["matches"] for w in wrap("- " + m["answer"], 118)]
    fig.text(0.07, y, "\n".join(lines), fontsize=7.5, va="top", linespacing=1.35)
    y -= (len(lines) * 7.5 * 1.35 + 18) / (11.69 * 72)
    n = len(matches)
    h = min(0.22, 0.035 * n + 0.06)
    ax = fig.add_axes([0.3, y - h, 0.62, h])
    plot_ladder_scores(ax, matches)
    y -= h + 0.08
    if len(t["outcome"]):
        h = min(0.22, 0.035 * n + 0.05)
        ax = fig.add_axes([0.3, y - h, 0.62, h])
        plot_outcome_shares(ax, t["outcome"])
        y -= h + 0.1
    extra = []
    if len(t["round_robin"]):
        extra.append("Round robin, each bot's score over all its games (draws half):")
        extra += [f"  {r.bot}: {r.score:.3f} (95% CI {r.low:.3f}-{r.high:.3f}) over {r.games} games"
                  for r in t["round_robin"].itertuples()]
    if len(t["costs"]):
        extra.append(f"Cost of each rung (mirror games in one process, after a warm-up; CPU time), and a one-game-per-"
                     f"pair sweep of the pool estimated on {int(t['costs'].sweep_cores.iloc[0])} cores:")
        extra += [f"  {r.rung}: {r.cpu_s_per_game:.3f} s a game, {r.cpu_ms_per_decision:.3f} ms a decision, "
                  f"{r.actions_per_game:.0f} actions a game; sweep of {r.sweep_pairs:,} games about "
                  f"{r.sweep_minutes:.1f} min" for r in t["costs"].itertuples()]
    extra.append(f"Measured by: {doc.get('command', '')} ({doc.get('date', '')}, commit "
                 f"{(doc.get('commit') or 'unknown')[:12]}{' with local changes' if doc.get('dirty') else ''})")
    fig.text(0.07, y, "\n".join(w for line in extra for w in wrap(line, 125)), fontsize=7.5, va="top",
             linespacing=1.35)
    book.add(fig, "does the player matter?")
