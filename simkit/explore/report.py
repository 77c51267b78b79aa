"""The report of an explore folder (``simkit report EXPLORE_DIR``): the answers first, then the evidence.

Pages: the answers in words (the metagame, its exploitability with its interval and the guarantee,
the games spent, the strongest decks, the dead cards); the metagame (each seat's, when the seats
have their own pools) with every mixture deck's score against it; every searched deck against
the mixture with the interval its race decided on; the archive, the strongest deck of every style
cell; the cards; the explored matchup matrix, each cell's rate with its games, and the games per
ordered pair over every deck that played. The tables go beside the PDF as ``NAME.<table>.csv``.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import wrap

import numpy as np
import pandas as pd

TABLES = ("metagame", "decks", "strongest", "archive", "dead_cards", "matchups")
SEAT_NAMES = ("first", "second")
MATRIX_DECKS = 30   # decks of the explored matrix drawn with their rates
ERROR_DECKS = 70    # searched decks drawn against the mixture (the strongest ones)
ARCHIVE_ROWS = 70   # archive rows per page


def is_explore_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds a finished explore run (its ``summary.json`` and ``meta.json``'s ``explore``)."""
    folder = Path(folder)
    if not (folder / "summary.json").exists() or not (folder / "meta.json").exists():
        return False
    try:
        return "explore" in json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False


def read_answers(folder: str | Path) -> dict:
    """The answers an explore run wrote into ``folder`` (DataFrames of :data:`TABLES` and ``summary``).

    Raises:
        ValueError: a file missing or unreadable, named.
    """
    folder = Path(folder)
    out = {}
    for name in (*TABLES, "summary"):
        path = folder / (f"{name}.csv" if name != "summary" else "summary.json")
        try:
            out[name] = (json.loads(path.read_text(encoding="utf-8")) if name == "summary"
                         else pd.read_csv(path, keep_default_na=False, na_values=[""]))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not a finished explore run ({exc})") from None
    return out


def explore_report(folder: str | Path, out: str | Path) -> list[Path]:
    """Write the explore report of ``folder`` to ``out`` (a ``.pdf``) and its tables beside it.

    Returns:
        the PDF's path, then the CSV files.

    Raises:
        ValueError: ``folder`` is not a finished explore run, or ``out`` is not a ``.pdf``.
    """
    from simkit.report.document import atomic_outputs, output_paths, write_csvs

    answers = read_answers(folder)
    meta = json.loads((Path(folder) / "meta.json").read_text(encoding="utf-8"))
    pdf, csvs = output_paths(out, list(TABLES))
    with atomic_outputs([pdf, *csvs.values()]) as temps:
        write_explore_pdf(temps[pdf], answers, f"simkit explore: {meta.get('scenario_name', Path(folder).name)}",
                          footer=f"{meta.get('scenario_name', '')} | {Path(folder).name}")
        write_csvs({t: answers[t] for t in TABLES}, {t: temps[p] for t, p in csvs.items()})
    return [pdf, *csvs.values()]


def answer_lines(s: dict) -> list[tuple[str, list[str]]]:
    """The answers of ``summary.json`` in words, as ``(heading, lines)`` blocks (the report's first page)."""
    blocks = []
    if s.get("seat_pools"):
        blocks.append(("", _wrap(
            f"The seats have their own pools, so each seat has its own metagame: the first seat's expected score "
            f"is {s['value']:.3f} when both seats play their metagame. {s['games']:,} games, "
            f"{s['pairs_played']:,} of {s['pairs']:,} pairings played ({s['decks']['first']:,} first-seat and "
            f"{s['decks']['second']:,} second-seat decks; {s['searched']['first']:,} and {s['searched']['second']:,} "
            f"searched).")))
        for seat in SEAT_NAMES:
            lo, hi = s["exploitability_interval"][seat]
            other = SEAT_NAMES[1 - SEAT_NAMES.index(seat)]
            lines = [f"{w:6.1%}  {d}" for d, w in s["metagame"][seat].items()]
            lines += _wrap(f"Exploitability {s['exploitability'][seat]:+.3f} (interval {lo:+.3f} to {hi:+.3f}): the "
                           f"{other} seat's best searched deck against it, {s['best_response'][seat]}, scores that "
                           f"much above the {other} seat's value.")
            lines += _wrap("Strongest against the other seat's metagame: " + ", ".join(s["strongest"][seat]))
            blocks.append((f"The {seat} seat's metagame", lines))
    else:
        lo, hi = s["exploitability_interval"]
        blocks.append(("", _wrap(
            f"{s['games']:,} games, {s['pairs_played']:,} of {s['decks'] ** 2:,} ordered pairs played; a population "
            f"of {len(s['population'])} decks, {s['searched']} searched.")))
        lines = [f"{w:6.1%}  {d}" for d, w in s["metagame"].items()]
        lines += _wrap(f"Exploitability {s['exploitability']:+.3f} (interval {lo:+.3f} to {hi:+.3f}): the best "
                       f"searched deck against the mixture, {s['best_response']}, scores that much above 1/2.")
        blocks.append(("The metagame (Nash mixture)", lines))
        blocks.append(("The strongest decks (rate against the field)", _wrap(", ".join(s["strongest"]))))
    met = "met" if s["guarantee_met"] else "NOT met"
    blocks.append((f"The guarantee: {met} ({s['stopped']})", _wrap(s["guarantee"] + (
        "." if s["guarantee_met"] else "; the run stopped before it could say so (--max-games), so a stronger "
        "deck may be left unfound."))))
    dead = s["dead_cards"]
    blocks.append(("Dead cards", _wrap((f"{len(dead)}: " + ", ".join(dead)) if dead else
                                       "none: every card is in a metagame deck or a deck within the band.")))
    return blocks


def write_explore_pdf(path: Path, answers: dict, title: str, footer: str = "simkit explore") -> None:
    """Write the explore report's pages for ``answers`` (:func:`read_answers` or the run's own) to ``path``."""
    from simkit.report.document import ReportPdf, text_page

    s = answers["summary"]
    with ReportPdf(Path(path), title, footer, "simkit explore report", "") as pdf:
        fig = pdf.new_page()
        text_page(fig, title, answer_lines(s))
        pdf.add(fig, "answers")
        seats = SEAT_NAMES if s.get("seat_pools") else (None,)
        fig = pdf.new_page()
        axes = fig.subplots(len(seats), 1, squeeze=False)[:, 0]
        for ax, seat in zip(axes, seats, strict=True):
            _metagame_bars(ax, answers["metagame"], seat)
        fig.tight_layout(rect=(0, 0.02, 1, 1))
        pdf.add(fig, "metagame")
        fig = pdf.new_page()
        axes = fig.subplots(len(seats), 1, squeeze=False)[:, 0]
        for ax, seat in zip(axes, seats, strict=True):
            _searched(ax, answers["decks"], s, seat)
        fig.tight_layout(rect=(0, 0.02, 1, 1))
        pdf.add(fig, "searched decks")
        arch = answers["archive"]
        for lo in range(0, max(len(arch), 1), ARCHIVE_ROWS):
            fig = pdf.new_page()
            _mono_page(fig, "Archive: the strongest deck of every style cell" + (" (continued)" if lo else ""),
                       _archive_header(s) if lo == 0 else [], _archive_lines(arch.iloc[lo:lo + ARCHIVE_ROWS]))
            pdf.add(fig, "archive")
        fig = pdf.new_page()
        _mono_page(fig, "Cards: which ones the metagame and the band use", _wrap(
            "A card is dead when no metagame deck and no deck within the band of the mixture (a searched deck "
            "scoring at least the value minus the band against it) holds it."), _card_lines(answers["dead_cards"]))
        pdf.add(fig, "cards")
        fig = pdf.new_page()
        ax1, ax2 = fig.subplots(2, 1, gridspec_kw={"height_ratios": [3, 2]})
        _rates(fig, ax1, answers, seats)
        _games_image(fig, ax2, answers["matchups"], s)
        fig.tight_layout(rect=(0, 0.02, 1, 1))
        pdf.add(fig, "explored matchups")


def _wrap(text: str, width: int = 110) -> list[str]:
    return wrap(text, width) or [""]


def _seat(frame: pd.DataFrame, seat) -> pd.DataFrame:
    return frame if seat is None else frame[frame["seat"] == seat]


def _metagame_bars(ax, metagame: pd.DataFrame, seat) -> None:
    m = _seat(metagame, seat)
    m = m[m["weight"] > 0].iloc[::-1]
    ax.barh(m["deck"], m["weight"], color="#4477aa")
    for y, (w, v, lo, hi) in enumerate(zip(m["weight"], m["vs_mix"], m["vs_mix_low"], m["vs_mix_high"], strict=True)):
        ax.text(w, y, f"  {w:.1%}  (scores {v:.3f} [{lo:.3f}, {hi:.3f}] against the "
                f"{'mixture' if seat is None else 'other seat' + chr(39) + 's mixture'})", va="center", fontsize=6)
    ax.set_xlim(0, 2.4 * max(float(m["weight"].max()) if len(m) else 1.0, 0.1))
    ax.set_xlabel("weight in the metagame")
    ax.set_title(("The metagame" if seat is None else f"The {seat} seat's metagame") +
                 ": each deck's weight, and its score against the mixture with its interval", fontsize=9)
    ax.tick_params(axis="y", labelsize=6)


def _searched(ax, decks: pd.DataFrame, s: dict, seat) -> None:
    d = _seat(decks, seat)
    d = d[d["searched"].astype(bool) & (d["vs_mix_level"] > 0)].sort_values(["vs_mix", "deck"])  # played ones
    shown = d.tail(ERROR_DECKS)
    y = np.arange(len(shown))
    ref = 0.5 if seat is None else (s["value"] if seat == "first" else 1 - s["value"])
    err = [shown["vs_mix"] - shown["vs_mix_low"], shown["vs_mix_high"] - shown["vs_mix"]]
    ax.errorbar(shown["vs_mix"], y, xerr=err, fmt="o", ms=2.5, lw=0.6, color="#333333")
    ax.axvline(ref, color="#999999", lw=0.8, label=f"the seat's value {ref:.3f}" if seat else "1/2")
    ax.axvline(ref + s["epsilon"], color="#cc3311", lw=0.8, ls="--", label="+ epsilon")
    ax.set_yticks(y, shown["deck"], fontsize=max(3, min(6, 300 // max(len(shown), 1))))
    who = "the other seat's mixture" if seat else "the mixture"
    ax.set_xlabel(f"score against {who} (the interval its race decided on)")
    more = f" (the {len(shown)} best of the {len(d)} played)" if len(d) > len(shown) else ""
    ax.set_title(f"{'Every searched deck' if seat is None else f'Every searched {seat}-seat deck'}{more} "
                 f"against {who}", fontsize=9)
    ax.legend(fontsize=6, loc="lower right")


def _mono_page(fig, title: str, words: list[str], lines: list[str]) -> None:
    """A page of a title, running text and a monospace table (cut at the page's foot, the rest in the CSV)."""
    fig.text(0.06, 0.96, title, fontsize=14, weight="bold", va="top")
    y = 0.925
    for line in words:
        fig.text(0.06, y, line, fontsize=8, va="top")
        y -= 0.014
    y -= 0.01
    for line in lines:
        if y < 0.03:
            fig.text(0.06, y, "... (the rest is in the CSV table)", fontsize=7, va="top", style="italic")
            return
        fig.text(0.06, y, line, fontsize=6, va="top", family="monospace")
        y -= 0.0118


def _archive_header(s: dict) -> list[str]:
    what = ("its score against the other seat's metagame, with its interval" if s.get("seat_pools")
            else "its rate against the field (measured, or predicted by Bradley-Terry)")
    return _wrap(f"Style axes {', '.join(s['axes']) or '(none)'}. Strength: {what}. 'searched': the decks "
                 "of the cell the search reached (a cell it never reached has no row).")


def _archive_lines(arch: pd.DataFrame) -> list[str]:
    cols = list(arch.columns)
    cell = cols[: cols.index("deck")]
    rows = [(", ".join(f"{k}={r[k]}" for k in cell), r) for r in arch.to_dict("records")]
    wide = max([len(k) for k, _ in rows] + [4])
    deck = max([len(str(r["deck"])) for _, r in rows] + [4])
    lines = [f"{'cell':<{wide}}  {'strongest deck':<{deck}}  strength          searched"]
    for key, r in rows:
        if "vs_mix_low" in r:
            band = f"[{float(r['vs_mix_low']):.2f}, {float(r['vs_mix_high']):.2f}]"
        else:
            band = "" if r.get("measured") in (True, "True", 1) else "(predicted)"
        lines.append(f"{key:<{wide}}  {r['deck']:<{deck}}  {float(r['strength']):.3f} {band:<12} "
                     f"{r['searched_in_cell']:>5}")
    return lines


def _card_lines(cards: pd.DataFrame) -> list[str]:
    lines = [f"{'category':<12} {'card':<22} {'metagame decks':>15} {'band decks':>11}  dead"]
    for r in cards.to_dict("records"):
        lines.append(f"{r['category']:<12} {r['card']:<22} {r['metagame_decks']:>15} {r['band_decks']:>11}  "
                     f"{'DEAD' if r['dead'] in (True, 'True') else ''}")
    return lines


def _rates(fig, ax, answers: dict, seats) -> None:
    """The explored matrix of the metagame's and the strongest decks: each cell's rate, its games written in it."""
    m = answers["matchups"]
    dk = answers["decks"]
    pick = {}
    for seat in seats:  # the population (by weight), then the searched decks strongest against the mixture
        d = _seat(dk, seat)
        pop = d[d["in_population"].astype(bool)]
        pop = pop.sort_values(["weight", "vs_mix", "deck"], ascending=[False, False, True])
        rest = d[d["searched"].astype(bool) & ~d["in_population"].astype(bool) & (d["vs_mix_level"] > 0)]
        rest = rest.sort_values(["vs_mix", "deck"], ascending=[False, True])
        pick[seat] = [*pop["deck"], *rest["deck"]][:MATRIX_DECKS]
    rows, cols = (pick[None], pick[None]) if seats == (None,) else (pick["first"], pick["second"])
    key = m.set_index(["first_deck", "second_deck"])
    rate = np.full((len(rows), len(cols)), np.nan)
    games = np.zeros((len(rows), len(cols)), int)
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            if (a, b) in key.index:
                rate[i, j] = key.loc[(a, b), "first_rate"]
                games[i, j] = key.loc[(a, b), "games"]
    im = ax.imshow(rate, cmap="RdBu", vmin=0, vmax=1, interpolation="nearest")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if games[i, j]:
                ax.text(j, i, str(games[i, j]), ha="center", va="center", fontsize=3.5)
    fig.colorbar(im, ax=ax, label="first deck's score (a number: its games)")
    ax.set_yticks(range(len(rows)), rows, fontsize=3.5)
    ax.set_xticks(range(len(cols)), cols, fontsize=3.5, rotation=90)
    ax.set_title("The explored matrix of the metagame's decks and the strongest searched ones (first deck rows, "
                 "second columns), games written in each cell; blank: not played", fontsize=7)


def _games_image(fig, ax, m: pd.DataFrame, s: dict) -> None:
    names = sorted(set(m["first_deck"]) | set(m["second_deck"]))
    pos = {d: i for i, d in enumerate(names)}
    grid = np.zeros((len(names), len(names)))
    grid[m["first_deck"].map(pos), m["second_deck"].map(pos)] = m["games"]
    im = ax.imshow(grid, cmap="viridis", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="games")
    total = s["pairs"] if s.get("seat_pools") else s["decks"] ** 2
    ax.set_title(f"Games per ordered pair over the {len(names):,} decks that played (first deck rows): "
                 f"{s['pairs_played']:,} of {total:,} pairs played, {s['games']:,} games", fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])
