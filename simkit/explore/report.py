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

from simkit.explore.game import by_side

TABLES = ("metagame", "decks", "strongest", "archive", "dead_cards", "matchups")
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
    out["summary"] = by_side(out["summary"])
    for name in ("metagame", "decks", "strongest", "archive"):  # an alike-seat run written before every answer
        if "seat" not in out[name].columns:                      # had its side
            out[name].insert(0, "seat", "both")
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


def lead(s: dict) -> tuple[str, str]:
    """The report's answer in one sentence, the guarantee as its interval allows (:mod:`simkit.core.words`), and
    its state for the colour: ``(sentence, "balanced" | "not settled")``."""
    text = s["guarantee"]
    return text[:1].upper() + text[1:] + ".", "balanced" if s["guarantee_met"] else "not settled"


def answer_lines(s: dict) -> list[tuple[str, list[str]]]:
    """The answers of ``summary.json`` in words, as ``(heading, lines)`` blocks (the report's first page, under
    the guarantee, :func:`lead`)."""
    s = by_side(s)
    seats = s["seats"]
    if seats == ["both"]:
        intro = (f"{s['games']:,} games, {s['pairs_played']:,} of {s['pairs']:,} ordered pairs played; a population "
                 f"of {len(s['population']['both'])} decks, {s['searched']['both']} searched.")
    else:
        intro = (f"The seats have their own pools, so each seat has its own metagame: the first seat's expected "
                 f"score is {s['value']:.3f} when both seats play their metagame. {s['games']:,} games, "
                 f"{s['pairs_played']:,} of {s['pairs']:,} pairings played ({s['decks']['first']:,} first-seat and "
                 f"{s['decks']['second']:,} second-seat decks; {s['searched']['first']:,} and "
                 f"{s['searched']['second']:,} searched).")
    blocks = [("", _wrap(intro))]
    for k, seat in enumerate(seats):
        lo, hi = s["exploitability_interval"][seat]
        lines = [f"{w:6.1%}  {d}" for d, w in s["metagame"][seat].items()]
        if seat == "both":
            lines += _wrap(f"Exploitability {s['exploitability'][seat]:+.3f} (interval {lo:+.3f} to {hi:+.3f}): the "
                           f"best searched deck against the mixture, {s['best_response'][seat]}, scores that much "
                           "above 1/2.")
            blocks.append(("The metagame (Nash mixture)", lines))
            blocks.append(("The strongest decks (rate against the field)", _wrap(", ".join(s["strongest"][seat]))))
            continue
        other = seats[len(seats) - 1 - k]
        lines += _wrap(f"Exploitability {s['exploitability'][seat]:+.3f} (interval {lo:+.3f} to {hi:+.3f}): the "
                       f"{other} seat's best searched deck against it, {s['best_response'][seat]}, scores that "
                       f"much above the {other} seat's value.")
        lines += _wrap("Strongest against the other seat's metagame: " + ", ".join(s["strongest"][seat]))
        blocks.append((f"The {seat} seat's metagame", lines))
    blocks.append((f"The guarantee: {'met' if s['guarantee_met'] else 'NOT met'} (the run stopped: {s['stopped']})",
                   _wrap(s["guarantee"] + ".")))
    dead, untested = s["dead_cards"], s.get("untested_cards", [])
    words = (f"{len(dead)}: " + ", ".join(dead) + " (no deck holding it is in the metagame or among the strongest, "
             "and every searched deck holding it lies below the band with confidence)") if dead else (
        "none: every card is held by a deck of the metagame, of the strongest, or by a searched deck not ruled out "
        "of the band")
    if untested:
        words += f"; untested (no searched deck holds it, so not judged): {', '.join(untested)}"
    blocks.append(("Dead cards", _wrap(words + ".")))
    if s.get("experience"):
        blocks.append((f"How the metagame's games play ({s.get('experience_games', 0):,} games between the mixtures' "
                       "decks)", _wrap(s["experience"])))
    return blocks


#: the explore report's type sizes (points): readable when the page is read as a 60 dpi picture
LABEL, SMALL, TITLE = 8.5, 7.5, 11
ROW = 0.24  # inches per deck row of a bar or interval chart


def write_explore_pdf(path: Path, answers: dict, title: str, footer: str = "simkit explore") -> None:
    """Write the explore report's pages for ``answers`` (:func:`read_answers` or the run's own) to ``path``: the
    answer first (the guarantee as its interval allows, then the metagame, the strongest decks, the cards), then
    each page sized to what it holds: the metagame and every searched deck against it, the archive and the cards,
    the explored matrix."""
    from simkit.report.document import PORTRAIT, ReportPdf, text_page

    s = by_side(answers["summary"])
    with ReportPdf(Path(path), title, footer, "simkit explore report", "") as pdf:
        fig = pdf.new_page(PORTRAIT)
        sentence, state = lead(s)
        text_page(fig, title, answer_lines(s), lead=sentence, lead_state=state)
        pdf.add(fig, "answers")
        seats = tuple(s["seats"])
        for seat in seats:
            _metagame_page(pdf, answers, s, seat)
        _tables_page(pdf, answers, s)
        _matrix_page(pdf, answers, s, seats)


def _metagame_page(pdf, answers: dict, s: dict, seat) -> None:
    """The metagame's weights and every searched deck against the mixture, one chart above the other, the page cut
    to their height."""
    from simkit.report.document import PORTRAIT

    m = _seat(answers["metagame"], seat)
    m = m[m["weight"] > 0].iloc[::-1]
    d = _seat(answers["decks"], seat)
    d = d[d["searched"].astype(bool) & (d["vs_mix_level"] > 0)].sort_values(["vs_mix", "deck"]).tail(ERROR_DECKS)
    fig = pdf.new_page(PORTRAIT)
    height = fig.get_figheight()
    top = 1 - 0.75 / height
    h1 = max(len(m), 1) * ROW / height
    ax1 = fig.add_axes([0.42, top - h1, 0.5, h1])
    _metagame_bars(ax1, m, seat)
    y = top - h1 - 1.15 / height
    h2 = max(len(d), 1) * ROW / height
    ax2 = fig.add_axes([0.42, y - h2, 0.5, h2])
    _searched(ax2, d, s, seat, len(_seat(answers["decks"], seat)))
    who = "The metagame" if seat == "both" else f"The {seat} seat's metagame"
    fig.text(0.03, 1 - 0.3 / height, f"{who}, and every searched deck against it", fontsize=TITLE, weight="bold",
             va="top")
    pdf.add(fig, "metagame" if seat == "both" else f"{seat} seat's metagame", down_to=y - h2 - 0.55 / height)


def _metagame_bars(ax, m: pd.DataFrame, seat) -> None:
    y = np.arange(len(m))
    ax.barh(y, m["weight"], color="#4477aa", height=0.6)
    for k, (w, v, lo, hi) in enumerate(zip(m["weight"], m["vs_mix"], m["vs_mix_low"], m["vs_mix_high"], strict=True)):
        ax.text(w, k, f"  {w:.1%}; scores {v:.3f} ({lo:.3f} to {hi:.3f})", va="center", fontsize=SMALL)
    ax.set_yticks(y, m["deck"], fontsize=LABEL)
    ax.set_ylim(-0.6, len(m) - 0.4)
    ax.set_xlim(0, 2.2 * max(float(m["weight"].max()) if len(m) else 1.0, 0.1))
    ax.set_xlabel("weight in the metagame; each deck's score against the\n"
                  + ("mixture" if seat == "both" else "other seat's mixture") + " with its interval", fontsize=LABEL)
    ax.tick_params(axis="x", labelsize=SMALL)


def _searched(ax, shown: pd.DataFrame, s: dict, seat, total: int) -> None:
    y = np.arange(len(shown))
    ref = {"both": 0.5, "first": s["value"], "second": 1 - s["value"]}[seat]
    err = [shown["vs_mix"] - shown["vs_mix_low"], shown["vs_mix_high"] - shown["vs_mix"]]
    ax.errorbar(shown["vs_mix"], y, xerr=err, fmt="o", ms=4, lw=1.0, color="#333333")
    ax.axvline(ref, color="#999999", lw=1,
               label="1/2 (the mixture)" if seat == "both" else f"the seat's value {ref:.3f}")
    ax.axvline(ref + s["epsilon"], color="#cc3311", lw=1, ls="--", label=f"+ epsilon ({s['epsilon']:g})")
    ax.set_yticks(y, shown["deck"], fontsize=LABEL)
    ax.set_ylim(-0.6, len(shown) - 0.4)
    who = "the mixture" if seat == "both" else "the other seat's mixture"
    more = f" (the {len(shown)} best of {total})" if total > len(shown) else ""
    ax.set_xlabel(f"every searched deck{more}: its score against {who},\nwith the interval its race decided on",
                  fontsize=LABEL)
    ax.tick_params(axis="x", labelsize=SMALL)
    ax.legend(fontsize=SMALL, loc="lower right")


def _tables_page(pdf, answers: dict, s: dict) -> None:
    """The archive and the cards as two monospace tables on one page (cut to their length; the rest in the CSVs)."""
    from simkit.report.document import PORTRAIT

    fig = pdf.new_page(PORTRAIT)
    height = fig.get_figheight()
    step = 11 / 72 / height
    y = 1 - 0.3 / height
    for heading, words, lines in (
            ("Archive: the strongest deck of every style cell", _archive_header(s),
             _archive_lines(answers["archive"].head(ARCHIVE_ROWS))),
            ("Cards: where each one stands", _wrap(
                "status: metagame (a deck of the mixture holds it), strongest (a deck among the strongest), band (a "
                "searched deck whose interval against the mixture reaches the band), dead (every searched deck "
                "holding it lies below the band with confidence), untested (no searched deck holds it)."),
             _card_lines(answers["dead_cards"]))):
        fig.text(0.04, y, heading, fontsize=TITLE, weight="bold", va="top")
        y -= 0.3 / height
        for line in words:
            fig.text(0.04, y, line, fontsize=SMALL, va="top")
            y -= step
        y -= 0.5 * step
        for line in lines:
            if y < 0.05:
                fig.text(0.04, y, "... (the rest is in the CSV table)", fontsize=SMALL, va="top", style="italic")
                y -= step
                break
            fig.text(0.04, y, line, fontsize=SMALL, va="top", family="monospace")
            y -= step
        y -= 0.25 / height
    pdf.add(fig, "archive and cards", down_to=y)


def _matrix_page(pdf, answers: dict, s: dict, seats) -> None:
    """The explored matrix of the metagame's and the strongest searched decks, each cell's rate written in it, and
    the games per ordered pair over every deck that played."""
    from simkit.report.document import PORTRAIT

    fig = pdf.new_page(PORTRAIT)
    ax1 = fig.add_axes([0.40, 0.33, 0.48, 0.36])
    _rates(fig, ax1, answers, seats)
    ax2 = fig.add_axes([0.40, 0.05, 0.40, 0.2])
    _games_image(fig, ax2, answers["matchups"], s)
    fig.text(0.03, 0.985, "The explored matchups", fontsize=TITLE, weight="bold", va="top")
    pdf.add(fig, "explored matchups")


def _wrap(text: str, width: int = 110) -> list[str]:
    return wrap(text, width) or [""]


def _seat(frame: pd.DataFrame, seat: str) -> pd.DataFrame:
    return frame[frame["seat"] == seat]


def _archive_header(s: dict) -> list[str]:
    what = ("its rate against the field (measured, or predicted by Bradley-Terry)" if s["seats"] == ["both"]
            else "its score against the other seat's metagame, with its interval")
    return _wrap(f"Style axes {', '.join(s['axes']) or '(none)'}. Strength: {what}. 'searched': the decks "
                 "of the cell the search reached (a cell it never reached has no row).")


def _archive_lines(arch: pd.DataFrame) -> list[str]:
    cols = list(arch.columns)
    cell = [c for c in cols[: cols.index("deck")] if c != "seat" or set(arch["seat"]) != {"both"}]
    rows = [(", ".join(f"{k}={r[k]}" for k in cell), r) for r in arch.to_dict("records")]
    wide = max([len(k) for k, _ in rows] + [4])
    deck = max([len(str(r["deck"])) for _, r in rows] + [4])
    lines = [f"{'cell':<{wide}}  {'strongest deck':<{deck}}  strength          searched"]
    for key, r in rows:
        if r.get("seat", "both") != "both":
            band = f"[{float(r['vs_mix_low']):.2f}, {float(r['vs_mix_high']):.2f}]"
        else:
            band = "" if r.get("measured") in (True, "True", 1) else "(predicted)"
        lines.append(f"{key:<{wide}}  {r['deck']:<{deck}}  {float(r['strength']):.3f} {band:<12} "
                     f"{r['searched_in_cell']:>5}")
    return lines


def _card_lines(cards: pd.DataFrame) -> list[str]:
    has = "status" in cards.columns  # a folder written before the status column: its dead flag alone
    lines = [f"{'category':<12} {'card':<22} {'metagame':>8} {'strongest':>9} {'band':>5} {'searched':>8}  status"]
    for r in cards.to_dict("records"):
        status = r["status"] if has else ("dead" if r["dead"] in (True, "True") else "")
        shown = status.upper() if status == "dead" else status
        lines.append(f"{r['category']:<12} {r['card']:<22} {r['metagame_decks']:>8} {r.get('strongest_decks', ''):>9} "
                     f"{r['band_decks']:>5} {r.get('searched_decks', ''):>8}  {shown}")
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
    rows, cols = pick[seats[0]], pick[seats[-1]]
    key = m.set_index(["first_deck", "second_deck"])
    rate = np.full((len(rows), len(cols)), np.nan)
    games = np.zeros((len(rows), len(cols)), int)
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            if (a, b) in key.index:
                rate[i, j] = key.loc[(a, b), "first_rate"]
                games[i, j] = key.loc[(a, b), "games"]
    im = ax.imshow(rate, cmap="RdBu", vmin=0, vmax=1, interpolation="nearest", aspect="auto")
    cell = min(ax.get_position().width * fig.get_figwidth() / max(len(cols), 1),
               ax.get_position().height * fig.get_figheight() / max(len(rows), 1)) * 72  # points
    size = min(LABEL, max(4.5, cell / 3.2))
    for i in range(len(rows)):
        for j in range(len(cols)):
            if games[i, j]:
                ax.text(j, i, f"{100 * rate[i, j]:.0f}", ha="center", va="center", fontsize=size,
                        color="white" if abs(rate[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02).set_label("the first deck's score (cells: %)", fontsize=SMALL)
    label = min(LABEL, max(5, cell * 0.8))
    ax.set_yticks(range(len(rows)), rows, fontsize=label)
    ax.set_xticks(range(len(cols)), cols, fontsize=label, rotation=90)
    ax.xaxis.tick_top()  # the column names above the matrix, clear of the chart below
    ax.set_xlabel("The metagame's decks and the strongest searched ones: the first deck (rows) against the second "
                  "(columns);\neach cell the first deck's score in %; blank: not played; games per pair: below",
                  fontsize=SMALL)


def _games_image(fig, ax, m: pd.DataFrame, s: dict) -> None:
    names = sorted(set(m["first_deck"]) | set(m["second_deck"]))
    pos = {d: i for i, d in enumerate(names)}
    grid = np.zeros((len(names), len(names)))
    grid[m["first_deck"].map(pos), m["second_deck"].map(pos)] = m["games"]
    im = ax.imshow(grid, cmap="viridis", interpolation="nearest", aspect="auto")
    fig.colorbar(im, ax=ax, fraction=0.05, pad=0.02).set_label("games", fontsize=SMALL)
    total = s["pairs"]
    ax.set_title(f"Games per ordered pair over the {len(names):,} decks that played (first deck rows):\n"
                 f"{s['pairs_played']:,} of {total:,} pairs played, {s['games']:,} games", fontsize=SMALL)
    ax.set_xticks([])
    ax.set_yticks([])
