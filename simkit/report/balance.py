"""The balance report: every table of :func:`simkit.analysis.analyze` as a PDF a designer can read,
with the same tables as CSV files beside it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from textwrap import wrap

import numpy as np
import pandas as pd

from simkit.analysis import TABLES, analyze, check_results, forfeit_table, forfeit_words, ordinary_games
from simkit.analysis.robustness import panel_bots
from simkit.analysis.skill import skill_tables
from simkit.analysis.stats import Z95
from simkit.core.seats import SeatPools
from simkit.core.words import (
    Banded,
    Estimate,
    Verdict,
    balance_verdict,
    count,
    deck_range_sentence,
    plural,
    seat_sentence,
)
from simkit.real.store import is_real, real_facts
from simkit.report.against_page import against_page, against_tables
from simkit.report.card_usage_page import usage_pages
from simkit.report.document import PORTRAIT, ReportPdf, atomic_outputs, output_paths, text_page, write_csvs
from simkit.report.experience_page import experience_csv, experience_pages, experience_words
from simkit.report.games import GamePages, plan_game_pages, write_game_pages
from simkit.report.plots import (
    FLAG_LINE,
    FULL_LABELS_UP_TO,
    flag_lines,
    plot_card_win_rates,
    plot_deck_ratings,
    plot_deck_win_rates,
    plot_end_reasons,
    plot_first_player,
    plot_first_player_matchups,
    plot_flags,
    plot_game_length,
    plot_matchup_heatmap,
    plot_nash_mix,
    plot_pair_synergy,
)
from simkit.report.robustness_page import (
    ROBUST_TABLES,
    agreement_words,
    panel_tables,
    reference_bot,
    reference_view,
    robustness_pages,
)
from simkit.report.skill_page import SKILL_TABLES, skill_pages, skill_words
from simkit.report.unit_pages import UNIT_TABLES, unit_tables, write_unit_pages

__all__ = ["load_checked_results", "write_balance_report", "balance_report", "headlines", "reach_words", "verdict",
           "judged",
           "matchup_page", "seat_matchup_page", "ROWS_PER_PAGE", "FLAGS_PER_PAGE", "MAX_FLAG_PAGES"]

ROWS_PER_PAGE = 80     # deck lists longer than this continue on another page
PACKED_ROWS = 24       # pools up to this many decks show deck strength and the first player on one page
FLAGS_PACKED = 12      # up to this many flags share the metagame page when they fit
FLAGS_PER_PAGE = 40
MAX_FLAG_PAGES = 4     # beyond, the PDF says how many more flags the CSV holds
WRAP = 118             # characters per line of running text on a portrait page
FLAG_WRAP = 128         # characters per line of the (monospace) flags list


def load_checked_results(results_dir: str | Path) -> pd.DataFrame:
    """The results of a sweep folder, checked against the results contract.

    Args:
        results_dir: a folder written by ``simkit sweep``.

    Returns:
        the results DataFrame (``attrs["meta"]`` from the sweep).

    Raises:
        ValueError: missing folder, no sweep, no games, or results that break the contract
            (one line, naming the folder; an unfinished sweep is named as such).
    """
    from simkit.sweep import load_results

    df = load_results(results_dir)
    meta = df.attrs.get("meta") or {}
    try:
        check_results(df, source=str(results_dir))
    except ValueError as exc:
        if not meta.get("complete", True):
            raise ValueError(f"{exc} (the sweep is not finished: run simkit sweep --resume)") from None
        raise
    return df


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _count(n: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return count(n, noun)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _best_worst(cards: pd.DataFrame, label: str) -> str:
    """Best and worst card of one category in words; a lone card, or no rate at all, said as such."""
    if cards.empty:
        return ""
    if len(cards) == 1:
        c = cards.iloc[0]
        return f"{label}: {c['card']} only (every deck holds it, so it cannot be compared with another)"
    rated = cards[cards["games"] > 0]
    if rated.empty:
        return f"{label}: no games against another deck, so no card rates"
    best, worst = rated.iloc[0], rated.iloc[-1]
    return (f"{label}: best {best['card']} ({_pct(best['win_rate'])}), worst {worst['card']} "
            f"({_pct(worst['win_rate'])})")


def _method(method: str) -> str:
    return {"holm": "Holm (family-wise error)", "bh": "Benjamini-Hochberg (false discovery rate)"}[method]


def reach_words(tables: dict) -> list[str]:
    """What the matchup flags can see at this sweep's size, in words (a warning when too small).

    Args:
        tables: :func:`simkit.analysis.analyze` output.

    Returns:
        sentences (unwrapped); the first starts with ``WARNING`` when no matchup can be flagged.
    """
    r, b = tables["flag_reach"], tables["bands"]
    edge = f"{100 * b.matchup:g}/{100 - 100 * b.matchup:g}"
    if "units" in tables and r["matchups"]:  # an adaptive sweep: each pair played until its answer settled
        meta = tables["meta"]
        stopped = (meta.get("adaptive_result") or {}).get("stopped")
        units = tables["units"]
        still = int((units["status"] == "active").sum())
        played = str(meta.get("games_per_pair")).replace(" (adaptive)", "")
        words = (f"This sweep was adaptive: pairs played {played} games, each until its "
                 "answers settled (flagged, inside the band, out of reach by the horizon, or as narrow as asked)")
        if stopped == "max_games" and still:
            return [f"WARNING: {words}, but --max-games ran out with {still} answers still open (status 'active' "
                    "in the units CSV): there, no flag means 'not settled', not 'balanced'."]
        return [words + "; few games on a pair mean its answer was clear early, not that it was missed."]
    if not r["matchups"]:
        return ["There is no matchup of two different decks to flag."]
    if r["min_games_per_pair"] is None:
        return [f"No matchup can ever be flagged beyond {edge}: the band leaves no room."]
    need, have = r["min_games_per_pair"], r["games_per_pair"]
    seatings = r.get("seatings", 2)
    each = "each seating; " if seatings == 2 else "a matchup met in one seating only; "
    how = (f"with {r['matchups']} matchups and the {_method(b.matchup_method).split(' (')[0]} correction "
           f"(alpha {b.alpha:g}), a matchup can be flagged beyond {edge} from {need} games per pair "
           f"({each}{seatings * need} games, all won by one deck)")
    these, gather = ("these real games", "Gather") if is_real(tables.get("meta") or {}) else ("this sweep", "Sweep")
    if not r["enough"]:
        games = r.get("pairing_games", seatings * have)
        has = (f"{_count(have, 'game')} per pair" if games == seatings * have
               else f"{games} game{'s' if games != 1 else ''} on {'their' if these.endswith('games') else 'its'} "
               "thinnest pairing")
        return [f"WARNING: {these} {'have' if these.endswith('games') else 'has'} {has}, too few to flag any "
                f"matchup, however lopsided: {how}. {gather} at least {need} games per pair (or fewer decks) before "
                "reading the absence of matchup flags."]
    return [_cap(how) + f"; {these} {'have' if these.endswith('games') else 'has'} {have}, and flag"
            f"{'' if these.endswith('games') else 's'} a matchup truly at "
            f"{100 * r['true_rate']:g}/{100 - 100 * r['true_rate']:g} with probability at least "
            f"{100 * r['power']:.0f}%."]


def _metagame_words(mix: pd.DataFrame) -> str:
    """The metagame in one sentence; an all-even pool is said in words, not as a list of shares. Where each seat
    has its own pool (a ``seat`` column), each seat's mix is counted within its own pool."""
    if "seat" in mix.columns:
        parts = []
        for seat, part in mix.groupby("seat", sort=True):
            support = part[part["in_support"]]
            names = ", ".join(f"{d} ({_pct(w)})" for d, w in zip(support["deck"][:3], support["weight"][:3]))
            parts.append(f"the {seat} seat mixes {len(support)} of its {_count(len(part), 'deck')} ({names})")
        return "Metagame (each seat chooses from its own pool): " + "; ".join(parts) + "."
    if len(mix) == 1:
        return "Metagame: the pool has one deck, so there is no choice to make."
    if len(mix) and bool(mix["all_even"].iloc[0]):
        return (f"Metagame: every matchup is even (50%), so no deck is a better pick than another; the "
                f"equilibrium spreads evenly over all {len(mix)} decks.")
    support = mix[mix["in_support"]]
    names = ", ".join(f"{d} ({_pct(w)})" for d, w in zip(support["deck"][:3], support["weight"][:3]))
    return (f"Metagame: the maximum-entropy Nash equilibrium mixes {len(support)} of {len(mix)} decks; heaviest: "
            f"{names}. {_count(int(mix['dominated'].sum()), 'deck')} outside the mix "
            f"{'is' if int(mix['dominated'].sum()) == 1 else 'are'} dominated by another deck on the measured rates "
            "(not tested: noise can swap close decks).")


def seat_words(tables: dict) -> tuple[str, str | None]:
    """What the first seat's figures measure: ``("First-player advantage", None)`` when one bot played both seats of
    every game, else a title saying it is a bot-and-seat effect and the bots that sat where."""
    fp, meta = tables["first_player"], tables.get("meta") or {}
    overall = fp[fp["scope"] == "overall"]
    if "same_bots" not in fp.columns or overall.empty or bool(overall["same_bots"].iloc[0]):
        terms = meta.get("seat_terms")
        return ("First-player advantage" if not terms else f"First seat's edge ({terms[0]} against {terms[1]})"), None
    bots = meta.get("bots") or ["?", "?"]
    return ("First seat's edge: a bot-and-seat effect",
            f"{bots[0]} played first and {bots[-1]} second, so the first seat's edge mixes the seat with the bots "
            "and is not flagged; to measure the seat, play one bot in both seats (--bots B,B) or a panel (--panel A,B)")


def _games_per_pair(tables: dict) -> float | None:
    """Games per ordered pairing behind the tables (the thinnest pairing), for the verdict's projection."""
    per = tables.get("pairing_games")
    if per is not None and len(per) and int(per.min()) > 0:
        return float(per.min())
    g = tables["meta"].get("games_per_pair")
    return float(g) if isinstance(g, int | float) and not isinstance(g, bool) and g > 0 else None


def judged(tables: dict) -> list[Banded]:
    """Every subject the verdict judges, from the report's tables: each deck's win rate, each pairing of two
    decks (from the winning side), the first seat's edge overall (required inside their bands for "balanced"),
    and the first seat's edge per deck and per matchup (required only not to be flagged). The seat is left out
    where one bot did not play both seats (its edge is then a bot-and-seat effect)."""
    b, flags = tables["bands"], tables["flags"]
    flagged = {k: set(flags.loc[flags["kind"] == k, "subject"]) for k in ("deck", "matchup", "first_player")}
    items: list[Banded] = []
    decks = tables["decks"][tables["decks"]["games"] > 0]
    for r in decks.itertuples():
        items.append(Banded("deck", Estimate(r.win_rate, r.low, r.high, int(r.games), r.deck), b.deck,
                            r.deck in flagged["deck"], family=len(decks)))
    m = tables["matchups"]
    m = m[~m["mirror"] & (m["deck"] < m["opponent"]) & (m["games"] > 0)]
    band = (1 - b.matchup, b.matchup)
    for r in m.itertuples():
        won = r.win_rate >= 0.5
        name = f"{r.deck} vs {r.opponent}" if won else f"{r.opponent} vs {r.deck}"
        est = (Estimate(r.win_rate, r.low, r.high, int(r.games), name) if won else
               Estimate(1 - r.win_rate, 1 - r.high, 1 - r.low, int(r.games), name))
        items.append(Banded("matchup", est, band, name in flagged["matchup"], family=len(m)))
    fp = tables["first_player"]
    if "same_bots" in fp.columns:
        fp = fp[fp["same_bots"]]
    fp = fp[fp["games"] > 0]
    band = (0.5 - b.first_player, 0.5 + b.first_player)
    kinds = {"overall": "seat", "deck": "deck seat", "matchup": "matchup seat"}
    sizes = fp["scope"].value_counts()
    for r in fp.itertuples():
        kind = kinds[r.scope]
        family = int(sizes.get("overall", 0) + sizes.get("deck", 0)) if kind != "matchup seat" else int(sizes[r.scope])
        items.append(Banded(kind, Estimate(r.first_rate, r.low + 0.5, r.high + 0.5, int(r.games), r.subject), band,
                            r.subject in flagged["first_player"], family=family, required=kind == "seat"))
    return items


def verdict(tables: dict) -> Verdict:
    """The report's answer in one sentence (:func:`simkit.core.words.balance_verdict` over :func:`judged`):
    balanced, not balanced (naming what is flagged) or not settled yet (with about how many games per pair
    would settle it)."""
    _, mixed = seat_words(tables)
    meta = tables["meta"]
    return balance_verdict(judged(tables), _games_per_pair(tables), complete=meta.get("complete", True),
                           adaptive="units" in tables, alpha=tables["bands"].alpha,
                           seat_note="the first seat is not judged: its bots differ" if mixed else "",
                           real=is_real(meta))


def headlines(tables: dict) -> list[str]:
    """The report's headline numbers in words, one sentence each, none stronger than its interval
    (the verdict, :func:`verdict`, comes before them).

    Args:
        tables: :func:`simkit.analysis.analyze` output.

    Returns:
        sentences (unwrapped).
    """
    decks, fp, meta = tables["decks"], tables["first_player"], tables["meta"]
    rated = decks[decks["games"] > 0]
    flags = tables["flags"]
    forfeits = forfeit_words(tables["forfeits"]) if "forfeits" in tables else None
    out = [forfeits] if forfeits else []  # an outside bot's forfeits first: no number below counts them
    if "against" in tables:  # real games against a sweep: its answer, said in full on the next page
        out.append(tables["against"]["words"][0])
    if len(rated) < 2:
        out.append("The pool has one deck: it played only mirror games, so it has no win rate against another deck."
                   if len(decks) == 1 else f"Only {len(rated)} of {len(decks)} decks played another deck: no deck "
                   "can be ranked against the others.")
    else:
        top, low = rated.iloc[0], rated.iloc[-1]
        out += [
            f"Highest win rate: {top['deck']}, {_pct(top['win_rate'])} of its games "
            f"(95% CI {_pct(top['low'])}-{_pct(top['high'])}), rating {top['rating']:+.0f}.",
            f"Lowest win rate: {low['deck']}, {_pct(low['win_rate'])} "
            f"(95% CI {_pct(low['low'])}-{_pct(low['high'])}), rating {low['rating']:+.0f}.",
        ]
        out.append(deck_range_sentence([Estimate(r.win_rate, r.low, r.high, int(r.games), r.deck)
                                        for r in rated.itertuples()], tables["bands"].deck,
                                       int((flags["kind"] == "deck").sum())))
    o = fp[fp["scope"] == "overall"].iloc[0]
    edge = Estimate(o["advantage"], o["low"], o["high"], int(o["games"]))
    _, mixed = seat_words(tables)
    terms = meta.get("seat_terms")  # what each seat is given beside moving first (Magic War: its gold)
    if mixed is None:
        seat_flagged = bool(((flags["kind"] == "first_player") & (flags["subject"] == "all games")).any())
        kind = "anytime-valid 95% interval" if "units" in tables else "95% CI"  # an adaptive sweep's sequence
        out.append(_cap(seat_sentence(edge, tables["bands"].first_player, seat_flagged, int(o["games"]), kind,
                                      given=tuple(terms) if terms else None)) + ".")
    else:
        out.append(f"The first seat's edge is {100 * o['advantage']:+.1f} points ({edge.ci_pts()}, "
                   f"{_count(int(o['games']), 'game')}), a bot-and-seat effect, not the seat's worth: {mixed}.")
    out.append(_metagame_words(tables["metagame"]))
    cards, schema = tables["cards"], tables["schema"]
    words = [w for kind in dict.fromkeys(cards["kind"])
             if (w := _best_worst(cards[cards["kind"] == kind], plural(schema.card_categories.get(kind, kind))))]
    if words:
        out.append(_cap("; ".join(words)) + ".")
    shape = tables["game_shape"].set_index("end_reason")
    allg = shape.loc["all"]
    ends = ", ".join(f"{_pct(r['share'])} {r['label']}" for reason, r in shape.drop(index="all").iterrows()
                     if r["games"])
    out.append(f"Games last {allg['mean_turns']:.0f} {schema.turn_words}s on average (median "
               f"{allg['median_turns']:.0f}); how they end: {ends}; {_pct(allg['draw_share'])} are draws.")
    counts = flags["kind"].value_counts()
    words = {"deck": "deck", "matchup": "matchup", "first_player": "first-player"}
    what = ", ".join(f"{counts[k]} {words[k]}" for k in words if k in counts) or "none"
    out.append(f"Flags (significant after correction): {len(flags)} ({what}).")
    if not meta.get("complete", True):
        out.insert(0, "WARNING: the sweep is not finished; these numbers cover only the games played so far.")
    return out


def games_line(tables: dict) -> str:
    """The title page's count of games: what the results hold, per pairing of the two seat pools, not what was
    planned.

    ``tables["pairing_games"]`` (games of each pairing the seat pools make, as :func:`simkit.analysis.analyze`
    gives it) is counted: the pools (``6 decks x 6 decks`` when the seats are alike, ``12 first-seat x 24
    second-seat decks`` when each has its own pool), the games found per pairing as one number or a min-max
    range with the mean, and the planned total when the sweep is not finished. Every page and the HTML say
    this line, so they count a sweep the same way.
    """
    meta, per = tables["meta"], tables["pairing_games"]
    pools = SeatPools(tuple(dict.fromkeys(per.index.get_level_values(0))),
                      tuple(dict.fromkeys(per.index.get_level_values(1))))
    pool = pools.count() + (" (both seatings, mirrors included)" if pools.alike_seats else " (every pairing)")
    if not len(per):
        return f"Games: {meta['games']} = {pool} x {_count(meta.get('games_per_pair'), 'game')} per pairing"
    total, lo, hi = int(per.sum()), int(per.min()), int(per.max())
    if lo == hi:
        each = f"{_count(lo, 'game')} per pairing"
    else:
        each = f"{lo}-{hi} games per pairing (mean {per.mean():.1f})"
    line = f"Games: {total} = {pool} x {each}"
    if not meta.get("complete", True):
        plan = meta.get("plan") or {}
        planned = plan.get("games") if not plan.get("adaptive") else None
        line += (f"; the sweep is not finished: {total} of the {pools.pairings * int(planned)} planned games "
                 f"({_count(int(planned), 'game')} per pairing) are in the results" if isinstance(planned, int)
                 else "; the sweep is not finished")
    return line


def _title_page(pdf: ReportPdf, tables: dict, when: datetime, games: GamePages | None = None) -> None:
    meta, b = tables["meta"], tables["bands"]
    bots = meta.get("bots") or ["?", "?"]
    fig = pdf.new_page(PORTRAIT)
    facts = [
        f"Scenario: {meta.get('scenario_name')}   ({meta.get('scenario_path') or 'path not recorded'})",
        f"Scenario hash: {meta.get('scenario_hash')}     Rules version: {meta.get('rules_version')}",
        f"Bots: {bots[0]} (first seat) vs {bots[1]} (second seat)" if "robustness" not in tables else
        f"Bots: a panel of {len(tables['robustness']['bots'])} ({', '.join(tables['robustness']['bots'])}), each in "
        f"both seats; every number below describes {bots[0]}'s games only (the reference bot"
        f"{'' if bots[0] != tables['robustness']['bots'][-1] else ', the last of the panel'}; --bot chooses "
        "another); the other bots are on the 'Does the player matter?' pages",
        games_line(tables),
        f"Sweep: started {meta.get('started') or '?'}, finished {meta.get('finished') or 'not finished'}; "
        f"simkit {meta.get('simkit_version', '?')}",
        f"Report made {when.strftime('%Y-%m-%d %H:%M UTC')}",
    ]
    if is_real(meta):  # games people played: no bots, no sweep dates
        facts[2:3] = real_facts(meta)[:1]
        facts[4:5] = real_facts(meta)[1:]
    adaptive = (meta.get("plan") or {}).get("adaptive")
    if adaptive:
        done = meta.get("adaptive_result") or {}
        facts.insert(4, f"Adaptive sweep: {len(meta.get('rounds') or [])} rounds, stopped "
                        f"{'on ' + str(done.get('stopped')) if done else '(not yet)'}; precision "
                        f"{adaptive.get('precision')}, max games {adaptive.get('max_games') or 'no limit'}; "
                        "games per pairing differ (see the matchup tables' games column)")
    facts = [line for f in facts for line in wrap(f, 110, subsequent_indent="      ")]
    heads = [line for h in headlines(tables) for line in wrap("- " + h, 110, subsequent_indent="  ")]
    flags = tables["flags"]
    shown = [line for m in flags["message"][:8] for line in wrap("- " + m, 110, subsequent_indent="  ")]
    if len(flags) > 8:
        shown.append(f"  ... and {len(flags) - 8} more on the flags page(s).")
    if flags.empty:
        shown = ["No deck, matchup or seat advantage is significantly outside its band."]
    shown = [line for r in reach_words(tables) for line in wrap(r, 110, subsequent_indent="  ")] + shown
    watch = [line for s in games.summary() for line in wrap(s, 110)] if games is not None else []
    guide = [
        "Win rates pool both seats and count a draw as half a win; intervals are 95% (Wilson for rates,",
        "bootstrap for ratings). Ratings are Bradley-Terry on the Elo scale: 0 is the pool average, +100 means",
        "an expected 64% score against a 0-rated deck. Advantages and changes are in points (1 point = 1% of",
        "games). A flag needs its estimate outside the band AND an exact binomial test that stays significant",
        f"(alpha {b.alpha:g}) after a correction within its family: {_method(b.method)} for decks outside "
        f"{100 * b.deck[0]:g}-{100 * b.deck[1]:g}% and for the seat advantage overall and per deck; "
        f"{_method(b.matchup_method)} for matchups beyond {100 * b.matchup:g}/{100 - 100 * b.matchup:g} and the seat "
        f"advantage per matchup. Seat advantage flags: beyond +-{100 * b.first_player:g} points.",
        "Every table of this report is also written as CSV beside the PDF.",
    ]
    if adaptive:
        guide[:2] = [
            "This sweep was adaptive (it chose how many games to play from the games played), so every rate interval",
            "is an anytime-valid 95% confidence sequence (beta-binomial mixture, Howard et al. 2021), valid whatever",
            "the stopping; win rates pool both seats, a draw is half a win, and a deck's rate is the average over its",
            "opponents of its matchup rates. A flag's test is group-sequential: the exact test at looks planned",
            "before any game, alpha spent as (games / horizon)^rho, valid at any stopping, then the corrections",
            "below; it is sharper than the intervals, so a flag's interval may touch its band. Rating intervals",
            "are bootstrap. Ratings are Bradley-Terry on the Elo scale: 0 is the pool average, +100 means",
        ]
    guide = wrap(" ".join(guide), 110)
    player = [line for s in agreement_words(tables["robustness"]) for line in wrap(s, 110)] \
        if "robustness" in tables else []
    skill = (tables.get("robustness") or {}).get("skill")
    if skill:
        player += [line for s in skill_words(skill) for line in wrap(s, 110)]
    playing = experience_words(tables)
    playing = wrap(playing, 110) if playing else []  # after the verdict: how the games play, or why not measured
    blocks = [("", playing), ("Headlines", heads), ("Flags", shown),
              ("Does the player matter?", player), ("The games" if is_real(meta) else "The sweep", facts),
              ("Games", watch), ("How to read", guide)]
    answer = verdict(tables)
    text_page(fig, "Balance report", [b for b in blocks if b[1]], lead=answer.sentence, lead_state=answer.state)
    pdf.add(fig, "title")


def _list_height(rows: int) -> float:
    """Figure fraction of a portrait page for a list of ``rows`` (full page from about 75 rows)."""
    return min(0.86, 0.07 + 0.0105 * rows)


def chunks(table: pd.DataFrame, size: int) -> list[pd.DataFrame]:
    """``table`` in pieces of ``size`` rows (one empty piece for an empty table)."""
    return [table.iloc[i:i + size] for i in range(0, max(len(table), 1), size)]


def flag_pages(pdf: ReportPdf, flags: pd.DataFrame, name: str, caption) -> None:
    """Numbered pages of ``flags`` (at most ``MAX_FLAG_PAGES``); ``caption(fig, k, part, more)`` titles page ``k``."""
    limit = FLAGS_PER_PAGE * MAX_FLAG_PAGES
    more = max(len(flags) - limit, 0)
    for k, part in enumerate(chunks(flags.head(limit), FLAGS_PER_PAGE)):
        fig = pdf.new_page(PORTRAIT)
        part = part.assign(number=range(k * FLAGS_PER_PAGE + 1, k * FLAGS_PER_PAGE + len(part) + 1))
        plot_flags(fig.add_axes([0.04, 0.05, 0.92, 0.86]), part, width=FLAG_WRAP)
        caption(fig, k, part, more)
        lowest = 0.91 - len(flag_lines(part, FLAG_WRAP)) * FLAG_LINE / fig.get_figheight()
        pdf.add(fig, f"{name} {k + 1}", down_to=lowest)  # a few flags: the page sized to them, not left empty


def _span(games: pd.Series) -> str:
    lo, hi = int(games.min()), int(games.max())
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _cell_games(matchups: pd.DataFrame) -> str:
    """How many games each cell of a deck-by-deck heatmap pools, in words."""
    m = matchups[~matchups["mirror"]]
    if m.empty:
        return "no games between two different decks"
    return f"{_span(m['games'])} games (both seatings pooled)"


def _big_page(pdf: ReportPdf, n: int):
    """A landscape page that grows with the pool, so 80 rows of labels stay legible (7 pt or more)."""
    side = max(8.27, min(16.5, 8.27 * n / 50))
    fig = pdf.new_page((side * 1.41, side))
    ax = fig.add_axes([0.27, 0.08, 0.62, 0.77] if n > FULL_LABELS_UP_TO else [0.3, 0.27, 0.55, 0.55])
    return fig, ax


def _caption(fig, text: str) -> None:
    """Running text under a big page's title, wrapped to the page's width."""
    width = int(180 * fig.get_figwidth() / 11.66)
    fig.text(0.02, 0.945, "\n".join(wrap(text, width)), fontsize=8.5, va="top")


def matchup_page(pdf: ReportPdf, tables: dict) -> None:
    """The matchup heatmap, strongest deck first, with the games behind each cell stated on the page."""
    order = list(tables["decks"]["deck"])
    fig, ax = _big_page(pdf, len(order))
    plot_matchup_heatmap(ax, tables["matchups"], order)
    fig.text(0.02, 0.975, "Matchups, strongest deck first (top rows, left columns)", fontsize=12, weight="bold",
             va="top")
    m = tables["matchups"]
    m = m[~m["mirror"]]
    half = ""
    if len(m):
        n = int(m["games"].min())
        half = (f"; at 50% a cell's 95% interval spans about +-{100 * Z95 * 0.5 / np.sqrt(n):.0f} points, so pale "
                "cells are within noise") if n else ""
    _caption(fig, f"Each cell: {_cell_games(tables['matchups'])}{half}. " + reach_words(tables)[0])
    pdf.add(fig, "matchups")


def seat_matchup_page(pdf: ReportPdf, tables: dict) -> None:
    """The first-player advantage in every matchup (mirrors included) as a heatmap, decks strongest first."""
    order = list(tables["decks"]["deck"])
    fig, ax = _big_page(pdf, len(order))
    plot_first_player_matchups(ax, tables["first_player"], order)
    fp = tables["first_player"]
    fp = fp[fp["scope"] == "matchup"]
    title, mixed = seat_words(tables)
    fig.text(0.02, 0.975, f"{title} in each matchup", fontsize=12, weight="bold", va="top")
    mirror = (fp["deck"] == fp["opponent"]).to_numpy()
    pairs, mirrors = fp.loc[~mirror, "games"], fp.loc[mirror, "games"]
    n = int(pairs.min()) if len(pairs) else 0
    noise = f"; at even odds a cell's 95% interval spans about +-{100 * Z95 * 0.5 / np.sqrt(n):.0f} points" if n else ""
    counts = _cell_games(tables["matchups"]) + (f", a mirror {_span(mirrors)} games" if len(mirrors) else "")
    _caption(fig, f"Each cell: the first seat's score rate minus 50% over the games of the two decks; {counts}"
             f"{noise}. " + (f"Not the seat's worth: {mixed}." if mixed else
                             "Significant cells are in the flags (first player, 'A vs B')."))
    pdf.add(fig, "first player per matchup")


def _flag_caption(fig, tables: dict, y: float, reach: list[str]) -> None:
    """Above a flags table: whether a matchup could be flagged at this size, and what ``value`` means."""
    fig.text(0.04, y, "\n".join(reach), fontsize=7.5, va="top",
             color="#b03a2e" if not tables["flag_reach"]["enough"] else "black")
    fig.text(0.04, y - 0.0112 * len(reach) - 0.002,
             "value: a deck's win rate; the winning side's rate in a matchup (subject 'winner vs "
             "loser'); the first seat's score rate for first-player flags.", fontsize=7.5, va="top")


def outside_unflagged(tables: dict) -> pd.DataFrame:
    """The decks whose 95% interval lies wholly outside the deck band but that carry no flag."""
    decks, (lo, hi) = tables["decks"], tables["bands"].deck
    flags = tables["flags"]
    flagged = set(flags.loc[flags["kind"] == "deck", "subject"])
    out = decks[((decks["low"] > hi) | (decks["high"] < lo)) & ~decks["deck"].isin(flagged)]
    return out


def _outside_note(fig, tables: dict, y: float) -> float:
    """Under the deck-strength plots: why a deck whose interval lies outside the band is not flagged (if any);
    returns the height left below."""
    out = outside_unflagged(tables)
    if out.empty:
        return y
    lo, hi = tables["bands"].deck
    b = tables["bands"]
    names = "; ".join(f"{r.deck} ({_pct(r.low)}-{_pct(r.high)})" for r in out.itertuples())
    text = (f"Not flagged although the interval lies outside the {100 * lo:g}-{100 * hi:g}% band: {names}. The "
            f"interval drawn is each deck's own 95% interval; a flag needs the exact test to stay significant "
            f"after the {_method(b.method)} correction over all {len(tables['decks'])} decks (alpha {b.alpha:g}), "
            "which these games do not reach: more games per pair would settle it.")
    lines = wrap(text, 130)
    fig.text(0.04, y, "\n".join(lines), fontsize=7.5, va="top", color="#7b241c")
    return y - 0.013 * len(lines) - 0.03


def _pages(pdf: ReportPdf, tables: dict) -> None:
    decks = tables["decks"]
    order = list(decks["deck"])
    n = len(order)

    matchup_page(pdf, tables)

    if n <= PACKED_ROWS:  # a small pool: deck strength and the first player share a page
        fig = pdf.new_page(PORTRAIT)
        h = _list_height(n)
        a1 = fig.add_axes([0.42, 0.9 - h, 0.27, h])
        a2 = fig.add_axes([0.71, 0.9 - h, 0.27, h], sharey=a1)
        plot_deck_win_rates(a1, decks)
        plot_deck_ratings(a2, decks, show_labels=False)
        y = 0.9 - h - 0.1
        y = _outside_note(fig, tables, y)
        h2 = _list_height(n + 1)
        title, mixed = seat_words(tables)
        if mixed:  # said under the title, the plot below it
            fig.text(0.02, y - 0.017, "\n".join(wrap(_cap(mixed) + ".", 120)), fontsize=7.5, va="top",
                     color="#b03a2e")
            y -= 0.03
        plot_first_player(fig.add_axes([0.42, y - 0.04 - h2, 0.53, h2]), tables["first_player"], order)
        lowest = y - 0.04 - h2 - 0.05  # the plot's x label
        fig.text(0.02, y + 0.005 + (0.03 if mixed else 0), f"{title}, overall and per deck (decks strongest first)",
                 fontsize=12, weight="bold", va="top")
        fig.text(0.02, 0.985, "Deck strength, strongest first", fontsize=12, weight="bold", va="top")
        pdf.add(fig, "deck strength 1", down_to=lowest)  # a small pool: the page sized to its content
    else:
        for k, part in enumerate(chunks(decks, ROWS_PER_PAGE)):
            fig = pdf.new_page(PORTRAIT)
            h = _list_height(len(part))
            a1 = fig.add_axes([0.42, 0.92 - h, 0.27, h])
            a2 = fig.add_axes([0.71, 0.92 - h, 0.27, h], sharey=a1)
            plot_deck_win_rates(a1, part)
            plot_deck_ratings(a2, part, show_labels=False)
            if k == 0:
                _outside_note(fig, tables, 0.92 - h - 0.08)
            more = f" (ranks {part['rank'].iloc[0]}-{part['rank'].iloc[-1]})" if n > ROWS_PER_PAGE else ""
            fig.text(0.02, 0.985, f"Deck strength, strongest first{more}", fontsize=12, weight="bold", va="top")
            pdf.add(fig, f"deck strength {k + 1}")

        for k, part in enumerate(chunks(decks, ROWS_PER_PAGE)):
            fig = pdf.new_page(PORTRAIT)
            h = _list_height(len(part) + 1)
            title, mixed = seat_words(tables)
            ax = fig.add_axes([0.42, (0.89 if mixed else 0.92) - h, 0.53, h])
            plot_first_player(ax, tables["first_player"], part["deck"])
            fig.text(0.02, 0.985, f"{title}, overall and per deck (decks strongest first)",
                     fontsize=12, weight="bold", va="top")
            if mixed:
                fig.text(0.02, 0.965, "\n".join(wrap(_cap(mixed) + ".", 120)), fontsize=7.5, va="top",
                         color="#b03a2e")
            pdf.add(fig, f"first player {k + 1}")

    seat_matchup_page(pdf, tables)

    fig = pdf.new_page(PORTRAIT)
    words = dict(tables["schema"].card_categories)
    plot_card_win_rates(fig.add_axes([0.36, 0.6, 0.58, 0.33]), tables["cards"], words)
    pairs = tables["card_pairs"]
    kinds = list(dict.fromkeys(pairs["category"]))[:2] or [None]
    for i, kind in enumerate(kinds):
        box = [0.2, 0.08, 0.6, 0.42] if len(kinds) == 1 else [0.13 + 0.48 * i, 0.12, 0.3, 0.34]  # room for labels
        plot_pair_synergy(fig.add_axes(box), pairs, category=kind, word=words.get(kind, kind or "card"))
    fig.text(0.02, 0.985, "Cards", fontsize=12, weight="bold", va="top")
    pdf.add(fig, "cards")
    if "card_usage" in tables:
        usage_pages(pdf, tables["card_usage"], words)

    fig = pdf.new_page(PORTRAIT)
    plot_game_length(fig.add_axes([0.1, 0.56, 0.85, 0.36]), tables["turns"], unit=tables["schema"].turn_words)
    plot_end_reasons(fig.add_axes([0.25, 0.3, 0.68, 0.17]), tables["game_shape"])
    shape = tables["game_shape"]
    lines = [f"{r.label[:24]:<25} {r.games:>8} games  {100 * r.share:5.1f}%   " + (
             f"turns: mean {r.mean_turns:5.1f}, median {r.median_turns:5.1f}, "
             f"10-90% {r.p10_turns:.0f}-{r.p90_turns:.0f}   draws {r.draws}" if r.games else "no game ended this way")
             for r in shape.itertuples()]
    side = [f"{r.label[:40]:<41} winners {r.winners:9.2f}   losers {r.losers:9.2f}   every side {r.all:9.2f}"
            for r in tables["side_numbers"].itertuples()]
    text_page(fig, "", [("Game shape", lines)] + ([("The game's own numbers per side at the end (drawn games "
                                                     "count only in 'every side')", side)] if side else []), top=0.22)
    fig.text(0.02, 0.985, "Game shape", fontsize=12, weight="bold", va="top")
    pdf.add(fig, "game shape")

    flags = tables["flags"]
    fig = pdf.new_page(PORTRAIT)
    mix = tables["metagame"]
    groups = dict(zip(tables["decks"]["deck"], tables["decks"]["group"]))
    rows = min(int(mix["in_support"].sum()), 30)
    h = min(0.47, 0.07 + 0.014 * max(rows, 3))
    plot_nash_mix(fig.add_axes([0.42, 0.92 - h, 0.38, h]), mix, groups=groups,  # the legend to its right
                  group_title=tables["decks"].attrs.get("group_title", ""))
    dominated = mix[mix["dominated"]]
    lines = [line for d, by in zip(dominated["deck"], dominated["dominated_by"])
             for line in wrap(f"- {d}   (by {by})", WRAP - 8, subsequent_indent="    ")]  # indented: 8 fewer
    words = wrap(
        _metagame_words(mix) + " Of all equilibria this is the one of greatest entropy (as in Nash averaging): every "
        "deck that can be part of an equilibrium has a share, spread as evenly as the equilibrium allows. It is "
        "computed from measured win rates: decks of nearly equal strength swap in and out of it with sampling "
        "noise, so read it as a shortlist of what a field would converge to, not as exact shares.", 125)
    y = 0.92 - h - 0.065
    fig.text(0.07, y, "\n".join(words), fontsize=8, style="italic", va="top")
    y -= 0.0125 * len(words) + 0.015
    why = ("Decks outside the mix that another deck matches or beats against every deck "
           "(the dominating decks in brackets):")
    listed = [why, *lines] if lines else ["none"]
    step = 11.5 / (fig.get_figheight() * 72)
    below = y - 0.03 - step * (len(listed) + 1)
    reach = [line for r in reach_words(tables) for line in wrap(r, 130)][:3]
    need = 0.05 + 0.0112 * (len(reach) + 1) + 0.0125 * (len(flags) + 3)
    packed = len(flags) <= FLAGS_PACKED and below - need > 0.04
    text_page(fig, "", [(f"Dominated decks ({len(dominated)})", listed)], top=y,
              bottom=0.03 if not packed else below, overflow="... (every dominated deck is in the metagame CSV)")
    lowest = below + 0.03  # the dominated decks' last line
    fig.text(0.02, 0.985, "Metagame: what a field of perfect adapters would play", fontsize=12, weight="bold",
             va="top")
    if packed:  # few flags: they share the page
        fig.text(0.02, below, "Flags", fontsize=12, weight="bold", va="top")
        _flag_caption(fig, tables, below - 0.025, reach)
        table_top = below - 0.025 - 0.0112 * (len(reach) + 1) - 0.01
        numbered = flags.assign(number=range(1, len(flags) + 1))
        plot_flags(fig.add_axes([0.04, 0.03, 0.92, table_top - 0.03]), numbered, width=FLAG_WRAP)
        lowest = table_top - len(flag_lines(numbered, FLAG_WRAP)) * FLAG_LINE / fig.get_figheight()
    pdf.add(fig, "metagame and flags" if packed else "metagame", down_to=lowest)  # sized to its content

    if packed:
        return

    def balance_caption(fig, k: int, part: pd.DataFrame, more: int) -> None:
        _flag_caption(fig, tables, 0.962, reach)
        note = f"  ({more} more in the flags CSV)" if more and k == 0 else ""
        first = k * FLAGS_PER_PAGE + 1
        span = f" {first}-{first + len(part) - 1} of {len(flags)}" if len(flags) > FLAGS_PER_PAGE else ""
        fig.text(0.02, 0.985, f"Flags{span}{note}", fontsize=12, weight="bold", va="top")

    flag_pages(pdf, flags, "flags", balance_caption)


def write_balance_report(tables: dict, out: str | Path, when: datetime | None = None,
                         games: GamePages | None = None) -> list[Path]:
    """Write the balance-report PDF and its CSV tables (atomically: all or nothing).

    Args:
        tables: :func:`simkit.analysis.analyze` output; with a ``robustness`` entry
            (:func:`simkit.report.robustness_page.panel_tables`), the panel's pages and tables too.
        out: the PDF path (``NAME.pdf``); tables go to ``NAME.<table>.csv`` beside it.
        when: the report's date (default: now, UTC).
        games: the game pages to add after the flags (:func:`simkit.report.games.plan_game_pages`);
            ``None``: no game pages and no word about them.

    Returns:
        the files written, the PDF first.

    Raises:
        ValueError: when ``out`` is not a ``.pdf`` path.
    """
    when = when or datetime.now(UTC)
    robust = tables.get("robustness")
    extra = ["units"] if "units" in tables else []  # an adaptive sweep: every unit's stream and decision
    skill = (robust or {}).get("skill")
    extra += [t for t in UNIT_TABLES if t in tables]  # bought decks: the unit and race pages' tables
    playing = experience_csv(tables)  # how the games play, when the results record it
    extra += ["against"] if "against" in tables else []  # real games against a sweep
    pdf_path, csvs = output_paths(out, list(TABLES) + extra + (list(ROBUST_TABLES) if robust else [])
                                  + (list(SKILL_TABLES) if skill else []) + list(playing))
    meta = tables["meta"]
    with atomic_outputs([pdf_path, *csvs.values()]) as temps:
        skill_csv = {"skill_depth": skill["depth"]} if skill else {}
        against_csv = {"against": tables["against"]["table"]} if "against" in tables else {}
        write_csvs({**tables, **(robust["csv"] if robust else {}), **skill_csv, **playing, **against_csv},
                   {t: temps[p] for t, p in csvs.items()})
        footer = f"{meta.get('scenario_name')}  |  hash {meta.get('scenario_hash')}  |  {meta.get('rules_version')}"
        with ReportPdf(temps[pdf_path], title=f"Balance report: {meta.get('scenario_name')}", footer=footer,
                       subject=f"simkit balance report; scenario {meta.get('scenario_name')}; scenario hash "
                       f"{meta.get('scenario_hash')}; rules version {meta.get('rules_version')}",
                       keywords=f"scenario_hash={meta.get('scenario_hash')}; "
                       f"rules_version={meta.get('rules_version')}") as pdf:
            _title_page(pdf, tables, when, games)
            if "against" in tables:  # real games against a sweep: the page a designer reads first after the title
                against_page(pdf, tables["against"])
            if robust:
                robustness_pages(pdf, robust)
            if skill:
                skill_pages(pdf, skill)
            _pages(pdf, tables)
            experience_pages(pdf, tables)
            write_unit_pages(pdf, tables)
            if games is not None:
                write_game_pages(pdf, games)
    return [pdf_path, *csvs.values()]


def balance_report(results_dir: str | Path, out: str | Path, bootstrap: int = 200, seed: int = 0,
                   game_pages: int = 0, bot: str | None = None, against: str | Path | None = None) -> list[Path]:
    """Analyse a sweep's results folder and write its balance report.

    Every flagged matchup gets a page with one representative game on the board, replayed from
    its seed (see :mod:`simkit.report.games`).

    Args:
        results_dir: a folder written by ``simkit sweep``.
        out: the PDF path (``NAME.pdf``).
        bootstrap: bootstrap replicas of the rating intervals.
        seed: the bootstrap's seed.
        game_pages: show a game of at least this many matchups: the flagged ones, then the most
            lopsided others (0: flagged matchups only).
        bot: the bot whose games the report describes, when the folder holds a panel (default:
            the panel's last bot); the other bots are compared on the "Does the player matter?" pages. With
            ``against``, the bot of that sweep's panel whose games are the simulation.
        against: for a folder of real games (``simkit import-games``), a sweep's folder of the same game: the
            "Real play against simulation" page follows the title page (:mod:`simkit.report.against_page`).

    Returns:
        the files written, the PDF first.

    Raises:
        ValueError: bad results folder or output path (one line).
    """
    output_paths(out, [])  # refuse a bad output path before the analysis
    if game_pages < 0:
        raise ValueError(f"--game-pages must be 0 or more, got {game_pages}")
    df = load_checked_results(results_dir)
    compared = None
    if against is not None:  # real games against a sweep: --bot names the sweep's bot
        compared, bot = against_tables(df, against, bot), None
    full, df = df, ordinary_games(df)  # an outside bot's forfeits: counted apart, on the first page and their table
    ref = reference_bot(df, bot)
    robust = None
    if ref is not None:
        robust = panel_tables(df, ref, bootstrap=bootstrap, seed=seed) if len(panel_bots(df)) >= 2 else None
        if robust is not None:  # a ladder in the panel (utility personalities, then search rungs)
            robust["skill"] = skill_tables(df, robust["agreement"], bootstrap=bootstrap, seed=seed)
        df = reference_view(df, ref)
    tables = analyze(df, bootstrap=bootstrap, seed=seed)
    tables["forfeits"] = forfeit_table(full)  # every bot's, the panel's too
    if compared is not None:
        tables["against"] = compared
    if robust is not None:
        tables["robustness"] = robust
    tables.update(unit_tables(df, tables, results_dir))
    games = plan_game_pages(df, tables, results_dir, at_least=game_pages)
    return write_balance_report(tables, out, games=games)
