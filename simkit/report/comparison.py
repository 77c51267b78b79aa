"""The patch-comparison report: what a patch changed, as a PDF with its tables as CSV beside it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from textwrap import wrap

import numpy as np
import pandas as pd

from simkit.analysis.paired import COMPARE_TABLES, compare_results
from simkit.core.words import (
    Estimate,
    changes_sentence,
    experience_change_sentence,
    matchup_changes_sentence,
    nash_change_sentence,
    seat_change_sentence,
)
from simkit.report.balance import FLAG_WRAP, WRAP, chunks, flag_pages, load_checked_results
from simkit.report.card_usage_page import change_sentence, usage_change_pages
from simkit.report.document import PORTRAIT, ReportPdf, atomic_outputs, output_paths, text_page, write_csvs
from simkit.report.plots import (
    FLAG_LINE,
    FULL_LABELS_UP_TO,
    plot_delta_heatmap,
    plot_deltas,
    plot_flags,
    plot_nash_shift,
)
from simkit.report.plots import flag_lines as flag_table_lines

__all__ = ["write_compare_report", "compare_report", "compare_headlines", "answer_blocks", "flag_lines", "lead",
           "nash_sentence"]

ROWS_PER_PAGE = 80
PACKED_ROWS = 45       # decks, cards and first-player rows up to this many share one page
FLAGS_PACKED = 12      # up to this many flag changes share the metagame page when they fit
FLAG_NOTE = ("Values are from the patch sweep, except for vanished flags (from the base sweep, where they were "
             "raised); the title page gives each changed flag's value base -> patch. value: a deck's win rate; "
             "the winning side's rate in a matchup; the first seat's score rate.")


def _name(method: str) -> str:
    return "Holm" if method == "holm" else "Benjamini-Hochberg"


def _changes(t: pd.DataFrame, label: str) -> list[Estimate]:
    """Each row's change with the interval its corrected test used (``adj_low``/``adj_high``)."""
    return [Estimate(d, lo, hi, int(g), str(n)) for n, d, lo, hi, g in
            zip(t[label], t["delta"], t["adj_low"], t["adj_high"], t["games"])]


def nash_sentence(nash: pd.DataFrame) -> str:
    """The metagame's change in words, decks that entered or left the mix named only as noise unless their
    own win rate changed significantly (the Nash mix has no test of its own: a small change of one matchup can
    swap a deck in or out)."""
    sb, sp = int(nash["in_support_base"].sum()), int(nash["in_support_patch"].sum())
    moved = nash[nash["in_support_base"] != nash["in_support_patch"]]
    real = moved["deck_change_significant"] if "deck_change_significant" in moved else pd.Series(False, moved.index)
    real = real.astype(bool)
    return nash_change_sentence(sb, sp, list(moved.loc[moved["in_support_patch"] & real, "deck"]),
                                list(moved.loc[moved["in_support_base"] & real, "deck"]), int((~real).sum()))


def flag_lines(flags: pd.DataFrame, limit: int = 12) -> list[str]:
    """Each flag that appeared or vanished as one line: what, its value base -> patch against its band, why."""
    kinds = {"deck": "deck", "matchup": "matchup", "first_player": "first player"}
    moved = flags[flags["status"] != "stayed"]

    def pct(v: float) -> str:
        return "?" if v != v else f"{100 * v:.1f}%"

    lines = [f"{r.status} {kinds.get(r.kind, r.kind)} {r.subject}: {pct(r.base_value)} -> {pct(r.patch_value)} "
             f"(band {100 * r.band_low:g}-{100 * r.band_high:g}%): {r.reason}" for r in moved.head(limit).itertuples()]
    if len(moved) > limit:
        lines.append(f"... {len(moved) - limit} more in the flag_changes CSV")
    stayed = int((flags["status"] == "stayed").sum())
    lines.append(f"{stayed} flag{'s' if stayed != 1 else ''} stayed" if stayed else "no flag stayed")
    return lines


def _value(v) -> str:
    return "(absent)" if v is None else repr(v)


def answer_blocks(tables: dict, width: int = 110) -> list[tuple[str, list[str]]]:
    """The title page's evidence under its verdict (:func:`lead`): what the patch changed, the decks in the band and
    the flags.

    Args:
        tables: :func:`simkit.analysis.paired.compare_results` output.
        width: characters per line.

    Returns:
        ``(heading, lines)`` blocks for :func:`simkit.report.document.text_page`.
    """
    v = tables["verdict"]
    changes = [f"{k}: {_value(a)} -> {_value(b)}" for k, a, b in v["changes"]] or [
        "nothing: both sweeps play the same rules (any difference is noise)"]
    if len(changes) > 10:
        changes = changes[:10] + [f"... {len(changes) - 10} more keys"]
    lo, hi = tables["bands"].deck
    inside = [f"{v['inside_before']} -> {v['inside_after']} of {v['decks']} decks inside the "
              f"{100 * lo:g}-{100 * hi:g}% band"]

    def wrapped(lines: list[str]) -> list[str]:
        return [line for t in lines for line in wrap(t, width, subsequent_indent="    ")]

    return [("What the patch changed", wrapped(changes)),
            ("Decks inside the band (base -> patch)", inside),
            ("Flags that changed (value base -> patch)", wrapped(flag_lines(tables["flag_changes"])))]


def experience_change_text(tables: dict) -> str:
    """What the patch did to how the games play, in one sentence (:func:`simkit.core.words.experience_change_sentence`),
    or ``""`` for tables made without the experience comparison."""
    t = tables.get("experience_deltas")
    if t is None:
        return ""
    unit = ((tables.get("base_meta") or {}).get("schema") or {}).get("turn_words", "turn")
    games = int(t["games"].max()) if len(t) else 0
    return experience_change_sentence(t.to_dict("records"), games, t.attrs.get("missing"), unit)


def _experience_lines(tables: dict) -> list[str]:
    """The experience table as lines: each figure base -> patch, its change and interval at the corrected level."""
    t = tables.get("experience_deltas")
    if t is None or t.empty:
        return []
    unit = ((tables.get("base_meta") or {}).get("schema") or {}).get("turn_words", "turn")
    lines = []
    for r in t.to_dict("records"):
        mark = "changed" if r["significant"] else "no measurable change"
        scale, fmt = (100, "{:.1f}%") if r["kind"] == "share" else (1, "{:.2f}")
        what = f" {unit}s" if r["figure"] == "turns" else ""
        points = " points" if r["kind"] == "share" else what
        lines.append(f"{r['words']}: {fmt.format(scale * r['base'])} -> {fmt.format(scale * r['patch'])}{what}; "
                     f"change {scale * r['delta']:+.2f}{points} (corrected CI {scale * r['adj_low']:+.2f} to "
                     f"{scale * r['adj_high']:+.2f}; {r['games']} paired games): {mark}")
    return lines


def lead(tables: dict) -> tuple[str, str]:
    """The comparison's verdict as the title page's lead: ``(kind, sentence)``, the sentence capitalised."""
    v = tables["verdict"]
    return v["kind"], v["sentence"][0].upper() + v["sentence"][1:] + "."


def compare_headlines(tables: dict) -> list[str]:
    """The comparison's headline findings in words, one sentence each.

    Args:
        tables: :func:`simkit.analysis.paired.compare_results` output.

    Returns:
        sentences (unwrapped).
    """
    decks, cards = tables["deck_deltas"], tables["card_deltas"]
    fp = tables["first_player_deltas"]
    out = []
    out.append(changes_sentence("Decks", _changes(decks, "deck")))
    sp = tables.get("spread")
    if sp is not None and np.isfinite(sp["ratio"]):
        out.append(f"Spread of the deck win rates (standard deviation): {100 * sp['base']:.1f} -> "
                   f"{100 * sp['patch']:.1f} points, x{sp['ratio']:.2f} ({100 * sp['level']:.0f}% paired-bootstrap CI "
                   f"x{sp['low']:.2f}-{sp['high']:.2f}).")
    out.append(changes_sentence("Cards", _changes(cards, "card")))
    o = fp[fp["scope"] == "overall"].iloc[0]
    bots = tables.get("base_meta", {}).get("bots") or []
    mixed = len(bots) == 2 and bots[0] != bots[1] and not tables.get("base_meta", {}).get("panel")
    seat = (f"First seat's edge ({bots[0]} first, {bots[1]} second: a bot-and-seat effect, not the seat's worth)"
            if mixed else "First-player advantage")
    out.append(seat_change_sentence(seat, o["base_advantage"], o["patch_advantage"],
                                    Estimate(o["delta"], o["adj_low"], o["adj_high"], int(o["games"]))))
    mu = tables["matchup_deltas"]
    once = mu[mu["deck"] < mu["opponent"]]
    out.append(matchup_changes_sentence(_changes(once.assign(pair=once["deck"] + " vs " + once["opponent"]), "pair")))
    out.append(nash_sentence(tables["nash_shift"]))
    if "card_usage_changes" in tables:
        out.append(change_sentence(tables["card_usage_changes"]))
    fc = tables["flag_changes"]
    counts = fc["status"].value_counts()
    out.append(f"Flags: {counts.get('appeared', 0)} appeared, {counts.get('vanished', 0)} vanished, "
               f"{counts.get('stayed', 0)} stayed (each with its value base -> patch and why on the title page).")
    played = experience_change_text(tables)
    if played:
        out.append(played)
    if tables["same_seed"] < 1:
        out.append(f"Note: only {100 * tables['same_seed']:.0f}% of paired games share a seed; paired intervals "
                   "stay valid but are wider than with common seeds.")
    return out


def _title_page(pdf: ReportPdf, tables: dict, when: datetime) -> None:
    b, p, bands = tables["base_meta"], tables["patch_meta"], tables["bands"]
    fig = pdf.new_page(PORTRAIT)
    facts = []
    for name, m in (("Base", b), ("Patch", p)):
        bots = m.get("bots") or ["?", "?"]
        facts += [f"{name}: {m.get('scenario_name')}   ({m.get('scenario_path') or 'path not recorded'})",
                  f"      hash {m.get('scenario_hash')}, rules {m.get('rules_version')}, bots {bots[0]} vs {bots[1]}, "
                  f"{m['games']} games, finished {m.get('finished') or 'not finished'}"]
    g = tables.get("games") or {}
    facts += [f"Decks: {len(tables['order'])}; games per pairing: {b.get('games_per_pair')}; "
              f"paired games with the same seed: {100 * tables['same_seed']:.0f}%",
              f"Paired games (played by both sweeps): {g.get('paired')} of the base's {g.get('base')} and the "
              f"patch's {g.get('patch')}" + ("" if g.get("paired") == g.get("base") == g.get("patch") else
                                             "; unpaired games are left out of every change"),
              f"Report made {when.strftime('%Y-%m-%d %H:%M UTC')}"]
    if b.get("scenario_hash") == p.get("scenario_hash"):
        facts.append("Note: both sweeps come from the same scenario (same hash): differences are noise only.")
    facts = [line for f in facts for line in wrap(f, 110, subsequent_indent="      ")]
    heads = [line for h in compare_headlines(tables) for line in wrap("- " + h, 110, subsequent_indent="  ")]
    guide = [
        "Every game of the patch sweep is paired with the base game of the same decks, seats and game number",
        "(same seed). A change is the mean of the paired differences, patch minus base, in points (1 point = 1%",
        "of games), with its interval; 'significant' means a paired t-test stays below "
        f"{bands.alpha:g} after a",
        f"correction within its family: {_name(bands.method)} for decks, cards and the per-deck first player, "
        f"{_name(bands.matchup_method)} for matchups (the overall first-player change is one test). Intervals are "
        "drawn at the level the corrected test used (adj_low/adj_high in the CSV), so an interval excludes 0 exactly "
        "when its change is significant; the CSV also keeps the uncorrected 95% interval (low/high). Matchup cells "
        "and Nash changes that are not significant are shown as noise, not as results. Every table is also "
        "written as CSV beside the PDF.",
    ]
    kind, sentence = lead(tables)
    text_page(fig, "Patch comparison", [*answer_blocks(tables), ("Headlines", heads), ("The sweeps", facts),
                                        ("How to read", wrap(" ".join(guide), 110))], lead=sentence,
              lead_state={"more balanced": "balanced", "less balanced": "not balanced"}.get(kind, "not settled"))
    pdf.add(fig, "title")


def _height(rows: int) -> float:
    return min(0.86, 0.07 + 0.0105 * rows)


def _pages(pdf: ReportPdf, tables: dict) -> None:
    order = tables["order"]
    n = len(order)
    side = max(8.27, min(16.5, 8.27 * n / 50))
    fig = pdf.new_page((side * 1.41, side))
    ax = fig.add_axes([0.27, 0.1, 0.62, 0.8] if n > FULL_LABELS_UP_TO else [0.3, 0.3, 0.55, 0.6])
    plot_delta_heatmap(ax, tables["matchup_deltas"], order)
    fig.text(0.02, 0.975, "Matchup changes, decks by base strength (strongest first)", fontsize=12,
             weight="bold", va="top")
    pdf.add(fig, "matchup changes")

    decks = tables["deck_deltas"]
    cards = tables["card_deltas"].assign(label=lambda t: t["card"] + " (" + t["kind"] + ")")
    fp = tables["first_player_deltas"]
    top = pd.concat([fp[fp["scope"] == "overall"].assign(subject="ALL GAMES"),
                     fp[(fp["scope"] == "deck")].reindex(fp[fp["scope"] == "deck"]["delta"].abs()
                                                         .sort_values(ascending=False).index).head(20)])
    alpha = tables["bands"].alpha
    if len(decks) + len(cards) + len(top) <= PACKED_ROWS:  # a small pool: decks, cards and first player on one page
        fig = pdf.new_page(PORTRAIT)
        y = 0.93
        for title, table, label, what in (
                ("Deck changes, largest gain first", decks, "deck", "Deck win rate against the pool"),
                ("Card changes", cards, "label", "Cards: decks holding each card"),
                ("First-player changes", top, "subject", "First-player advantage: overall and the decks that moved "
                 "most")):
            h = _height(len(table)) * 0.8
            fig.text(0.02, y + 0.045, title, fontsize=12, weight="bold", va="top")
            plot_deltas(fig.add_axes([0.42, y - h, 0.52, h]), table, label, what, alpha)
            y -= h + 0.1
        pdf.add(fig, "deck, card and first-player changes")
    else:
        for k, part in enumerate(chunks(decks, ROWS_PER_PAGE)):
            fig = pdf.new_page(PORTRAIT)
            h = _height(len(part))
            plot_deltas(fig.add_axes([0.42, 0.92 - h, 0.53, h]), part, "deck", "Deck win rate against the pool", alpha)
            fig.text(0.02, 0.985, "Deck changes, largest gain first", fontsize=12, weight="bold", va="top")
            pdf.add(fig, f"deck changes {k + 1}")

        fig = pdf.new_page(PORTRAIT)
        plot_deltas(fig.add_axes([0.36, 0.62, 0.58, 0.3]), cards, "label", "Cards: decks holding each card", alpha)
        h = min(0.44, 0.05 + 0.0105 * len(top))
        plot_deltas(fig.add_axes([0.42, 0.51 - h, 0.52, h]), top, "subject",
                    "First-player advantage: overall and the 20 decks that moved most", alpha)
        fig.text(0.02, 0.985, "Card and first-player changes", fontsize=12, weight="bold", va="top")
        pdf.add(fig, "cards and first player")
    if "card_usage_changes" in tables:
        usage_change_pages(pdf, tables["card_usage_changes"])
    if tables.get("experience_deltas") is not None and not tables["experience_deltas"].empty:
        fig = pdf.new_page(PORTRAIT)
        note = ("Each game of the base paired with the same game of the patch; a share counted over games won pairs "
                "the games won in both. Intervals at the level corrected over the figures (Holm): a change is "
                "called a change only when its interval misses 0.")
        text_page(fig, "How the games play: what the patch changed",
                  [("", wrap(experience_change_text(tables), 110)),
                   ("Figure by figure (base -> patch)",
                    [part for line in _experience_lines(tables) for part in wrap(line, 110, subsequent_indent="    ")]),
                   ("How it is measured", wrap(note, 110))])
        pdf.add(fig, "how the games play")

    fig = pdf.new_page(PORTRAIT)
    ns = tables["nash_shift"]
    shown = int(((ns["weight_base"] > 1e-6) | (ns["weight_patch"] > 1e-6)).sum())
    h = min(0.62, 0.08 + 0.03 * min(shown, 30))
    plot_nash_shift(fig.add_axes([0.42, 0.92 - h, 0.52, h]), ns)
    real = ns["deck_change_significant"] if "deck_change_significant" in ns else [False] * len(ns)
    lines = [f"{d}: {100 * wb:.1f}% -> {100 * wp:.1f}%" + ("" if r else "   (noise: the deck's own win rate did "
                                                            "not change significantly)")
             for d, wb, wp, r in zip(ns["deck"], ns["weight_base"], ns["weight_patch"], real) if abs(wp - wb) > 1e-6]
    weights = [*wrap(nash_sentence(ns), 110),
               *(part for line in (lines or ["none"]) for part in wrap(line, 110, subsequent_indent="    "))]
    y = 0.92 - h - 0.07
    flags = tables["flag_changes"]
    step = 11.5 / (fig.get_figheight() * 72)
    below = y - 0.03 - step * (len(weights) + 1)
    packed = len(flags) <= FLAGS_PACKED and below - (0.1 + 0.0125 * (len(flags) + 3)) > 0.04
    text_page(fig, "", [("Weights that changed", weights)], top=y, bottom=below if packed else 0.03)
    fig.text(0.02, 0.985, "Metagame before and after", fontsize=12, weight="bold", va="top")
    if packed:  # few flag changes: they share the page
        fig.text(0.02, below, "Flags that appeared, vanished or stayed", fontsize=12, weight="bold", va="top")
        fig.text(0.04, below - 0.025, "\n".join(wrap(FLAG_NOTE, WRAP + 20)), fontsize=7.5, va="top")
        numbered = flags.assign(number=range(1, len(flags) + 1))
        plot_flags(fig.add_axes([0.04, 0.03, 0.92, below - 0.08]), numbered, width=FLAG_WRAP)
        lowest = below - 0.08 - len(flag_table_lines(numbered, FLAG_WRAP)) * FLAG_LINE / fig.get_figheight()
        pdf.add(fig, "metagame and flags", down_to=lowest)  # sized to its content
        return
    pdf.add(fig, "metagame", down_to=below + 0.03)

    flags = tables["flag_changes"]

    def change_caption(fig, k: int, part: pd.DataFrame, more: int) -> None:
        note = f"  ({more} more in the flag_changes CSV)" if more and k == 0 else ""
        fig.text(0.02, 0.985, f"Flags that appeared, vanished or stayed{note}", fontsize=12, weight="bold", va="top")
        fig.text(0.04, 0.935, "\n".join(wrap(FLAG_NOTE, WRAP + 20)), fontsize=7.5, va="top")

    flag_pages(pdf, flags, "flag changes", change_caption)


def write_compare_report(tables: dict, out: str | Path, when: datetime | None = None) -> list[Path]:
    """Write the comparison PDF and its CSV tables (atomically: all or nothing).

    Args:
        tables: :func:`simkit.analysis.paired.compare_results` output.
        out: the PDF path (``NAME.pdf``); tables go to ``NAME.<table>.csv`` beside it.
        when: the report's date (default: now, UTC).

    Returns:
        the files written, the PDF first.

    Raises:
        ValueError: when ``out`` is not a ``.pdf`` path.
    """
    when = when or datetime.now(UTC)
    pdf_path, csvs = output_paths(out, list(COMPARE_TABLES))
    b, p = tables["base_meta"], tables["patch_meta"]
    with atomic_outputs([pdf_path, *csvs.values()]) as temps:
        write_csvs(tables, {t: temps[f] for t, f in csvs.items()})
        footer = f"{b.get('scenario_name')} -> {p.get('scenario_name')}"
        with ReportPdf(temps[pdf_path], title=f"Patch comparison: {b.get('scenario_name')} -> {p.get('scenario_name')}",
                       footer=footer,
                       subject=f"simkit patch comparison; base hash {b.get('scenario_hash')} rules "
                       f"{b.get('rules_version')}; patch hash {p.get('scenario_hash')} rules {p.get('rules_version')}",
                       keywords=f"base_scenario_hash={b.get('scenario_hash')}; base_rules_version="
                       f"{b.get('rules_version')}; patch_scenario_hash={p.get('scenario_hash')}; "
                       f"patch_rules_version={p.get('rules_version')}") as pdf:
            _title_page(pdf, tables, when)
            _pages(pdf, tables)
    return [pdf_path, *csvs.values()]


def compare_report(base_dir: str | Path, patch_dir: str | Path, out: str | Path) -> list[Path]:
    """Compare two sweeps' results folders and write the comparison report.

    Args:
        base_dir: the base sweep's folder.
        patch_dir: the patch sweep's folder (same deck pool and games per pairing).
        out: the PDF path (``NAME.pdf``).

    Returns:
        the files written, the PDF first.

    Raises:
        ValueError: bad folders, sweeps that cannot be paired, or a bad output path (one line).
    """
    output_paths(out, [])
    base = load_checked_results(base_dir)
    patch = load_checked_results(patch_dir)
    return write_compare_report(compare_results(base, patch), out)
