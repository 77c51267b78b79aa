"""The balance report as one self-contained HTML file: to share, sort, filter, hover and watch.

The page opens with the report's verdict (the same sentence as the PDF's first page), then holds what the
PDF's pages say (headlines, flags, the matchup heatmap, deck strength, first-player advantage, cards and card
pairs, the metagame, game shape), every table sortable and filterable, the heatmaps drawn as SVG with a colour
scale, each cell's value written in it where it fits and its value, interval and games on hover. The tables
and heatmaps are drawn by the page's script from one compact JSON blob (columns of numbers, deck names
once), so the page grows gently with the pool (a 120-deck Duel sweep: under 5 MB); a table shows at most
:data:`SHOWN` rows at once (filter to narrow). No element is wider than the page: long names and messages wrap,
and the heatmaps fit the page's width. A click on a matchup cell opens a replay of one of its games: the
representative game of the PDF's game pages (the median-length win of the favoured deck), played again from the
sweep's seed with
``record_actions`` and told turn by turn by the game's ``narrate`` capability, with the command
that replays it. The page embeds at most ``replays`` such games (flagged matchups first, then the
most lopsided); any other cell gives its seed and command. Style and script are inline
(:mod:`simkit.report.html_assets`): the file opens offline and needs nothing beside it. Every name
from the results or the scenario is escaped.
"""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis.experience import FIGURES as EXPERIENCE_FIGURES
from simkit.real.store import is_real, real_facts
from simkit.report.balance import games_line, headlines, load_checked_results, reach_words, verdict
from simkit.report.experience_page import bar_lines, experience_csv, experience_words, more_lines
from simkit.report.games import find_scenario, matchups_to_watch
from simkit.report.html_assets import SCRIPT, STYLE

__all__ = ["REPLAYS", "SHOWN", "HEATMAPS", "html_report", "write_html_report", "plan_replays", "representative_games",
           "html_table", "table_data", "heatmap_html"]

REPLAYS = 40   # games told in full inside the page by default (each is some 50 KB of text)

# columns shown as percentages, and as points (1 point = 1% of games)
_RATE = {"win_rate", "low", "high", "share", "draw_share", "first_rate", "weight", "vs_mix", "value", "band_low",
         "band_high", "expected", "real_rate", "real_low", "real_high", "sim_rate", "sim_low", "sim_high"}
_RATE |= {f"{name}{end}" for name, (_, kind, _) in EXPERIENCE_FIGURES.items() if kind == "share"
          for end in ("", "_low", "_high")} | {f"{name}{end}" for name in ("longer", "shorter")
                                               for end in ("", "_low", "_high")} | {"bar"}
_POINTS = {"advantage", "synergy", "synergy_low", "synergy_high"}
_HIDDEN = {"all_even"}


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _fmt(column: str, value) -> tuple[str, str, bool]:
    """``(text, data-v, numeric)`` of one cell."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "", "", True
    if isinstance(value, bool | np.bool_):
        return ("yes" if value else "no"), ("1" if value else "0"), True
    if isinstance(value, int | np.integer):
        return f"{int(value):,}", str(int(value)), True
    if isinstance(value, float | np.floating):
        v = float(value)
        if column in _RATE:
            return f"{100 * v:.1f}%", repr(v), True
        if column in _POINTS:
            return f"{100 * v:+.1f}", repr(v), True
        if column.startswith("p_"):
            return ("< 0.001" if v < 0.001 else f"{v:.3f}"), repr(v), True
        return (f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}"), repr(v), True
    return str(value), "", False


SHOWN = 500   # rows of a table drawn at once (the filter narrows the rest)


def _kind(column: str, series: pd.Series, points: set[str]) -> str:
    """How the page formats a column: ``rate`` (a percentage), ``points`` (signed points), ``p`` (a p-value),
    ``int``, ``float``, ``bool`` or ``text``."""
    if pd.api.types.is_bool_dtype(series):
        return "bool"
    if pd.api.types.is_integer_dtype(series):
        return "int"
    if pd.api.types.is_float_dtype(series):
        if column in points or column in _POINTS:
            return "points"
        if column in _RATE:
            return "rate"
        return "p" if column.startswith("p_") else "float"
    return "text"


def _number(v, kind: str):
    """One number as the page stores it (NaN as null; rates and points to 5 decimals, enough for their
    one-decimal display and for sorting)."""
    if v is None or (isinstance(v, float | np.floating) and not np.isfinite(v)):
        return None
    if kind == "int":
        return int(v)
    if kind == "bool":
        return bool(v)
    x = float(v)
    return round(x, 5) if kind in ("rate", "points") else float(f"{x:.6g}")


def table_data(table: pd.DataFrame, point_columns: tuple[str, ...] = ()) -> dict:
    """One DataFrame as the page's compact JSON: columns in order, each with its name, its kind (how the page
    formats it, :func:`_kind`) and its values; a text column holds each distinct text once (``dict``) and a code
    per row (``codes``), so a deck name repeated over 14,400 matchup rows is written once.

    Returns:
        ``{"rows": N, "columns": [{"name", "kind", "values"} | {"name", "kind", "dict", "codes"}]}``.
    """
    points = set(point_columns)
    columns = []
    for c in table.columns:
        if c in _HIDDEN:
            continue
        series = table[c]
        kind = _kind(c, series, points)
        if kind == "text":
            text = series.map(lambda v: "" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v))
            codes, uniques = pd.factorize(text)
            columns.append({"name": str(c), "kind": kind, "dict": list(uniques), "codes": codes.tolist()})
        else:
            columns.append({"name": str(c), "kind": kind, "values": [_number(v, kind) for v in series.tolist()]})
    return {"rows": len(table), "columns": columns}


def html_table(name: str, table: pd.DataFrame, caption: str = "", point_columns: tuple[str, ...] = ()) -> str:
    """The shell of one sortable, filterable table (``id="t-NAME"``): its caption, filter box and typed headers,
    every name escaped; the page's script fills its rows from :func:`table_data` (at most :data:`SHOWN` at once).

    Args:
        name: the table's name in the page's address (``#sort=NAME:COLUMN:asc``) and in its data.
        table: the rows to show.
        caption: a note above the table.
        point_columns: more columns shown in points (rate differences).

    Returns:
        the HTML fragment.
    """
    points = set(point_columns)
    head = "".join(
        f'<th data-col="{_e(c)}" data-type="{"text" if _kind(c, table[c], points) == "text" else "num"}">'
        f"{_e(c)}</th>" for c in table.columns if c not in _HIDDEN)
    note = f'<p class="note">{_e(caption)}</p>' if caption else ""
    return (f'{note}<div><input class="filter" data-for="t-{_e(name)}" placeholder="filter rows (words)"> '
            f'<span class="note" data-count-for="t-{_e(name)}"></span></div>'
            f'<div class="scroll"><table class="data" id="t-{_e(name)}" data-table="{_e(name)}"><thead><tr>{head}'
            f'</tr></thead><tbody></tbody></table></div>')


#: the heatmaps the page draws from its tables: which table, which rows, which columns hold the row deck, the column
#: deck, the value and its interval, and how a value is coloured and written
HEATMAPS = {
    "matchups": {"table": "matchups", "row": "deck", "col": "opponent", "value": "win_rate", "kind": "rate",
                 "grey": "mirror", "scale": [0.0, 0.5, 1.0],
                 "legend": "the row deck's win rate against the column deck (both seatings pooled, a draw half a win)"},
    "first_player": {"table": "first_player", "where": ["scope", "matchup"], "row": "deck", "col": "opponent",
                     "value": "advantage", "kind": "points", "both": True, "scale": [-0.25, 0.0, 0.25],
                     "legend": "the first seat's score rate minus 50% over the games of the two decks, in points"},
}


def heatmap_html(name: str, caption: str) -> str:
    """The place of one heatmap (drawn by the page's script from :data:`HEATMAPS`): its caption, the colour scale
    and the drawing, sized to the page's width."""
    spec = HEATMAPS[name]
    lo, mid, hi = spec["scale"]

    def label(v: float) -> str:
        return f"{100 * v:.0f}%" if spec["kind"] == "rate" else f"{100 * v:+.0f}"

    scale = (f'<div class="scale"><span>{label(lo)}</span><span class="bar {_e(spec["kind"])}"></span>'
             f'<span>{label(hi)}</span> <span class="note">{_e(spec["legend"])}; white: {label(mid)}; grey: '
             f'{"a mirror or " if spec.get("grey") else ""}no games</span></div>')
    return (f'<p class="note">{_e(caption)}</p>{scale}<div class="heatmap" id="h-{_e(name)}" '
            f'data-map="{_e(name)}"></div>')


def representative_games(df: pd.DataFrame) -> pd.DataFrame:
    """The representative game of every matchup at once, as :func:`~simkit.report.games.representative_game`
    chooses it (the median-length game the deck won, both seatings, the shorter middle one, ties to the first in
    results order; the pairing's median-length game when the deck never won; a mirror's decisive games).

    Args:
        df: the results, one row per game.

    Returns:
        one row per ordered (``deck``, ``opponent``) that met: ``game`` (the row label of ``df``) and ``wins``.
    """
    at = np.arange(len(df))
    first, second = df["first_deck"].astype(str).to_numpy(), df["second_deck"].astype(str).to_numpy()
    winner, turns = df["winner"].astype(str).to_numpy(), df["turns"].to_numpy()
    mirror = first == second
    rows = pd.DataFrame({
        "deck": np.concatenate([first, second[~mirror]]),
        "opponent": np.concatenate([second, first[~mirror]]),
        "won": np.concatenate([np.where(mirror, winner != "draw", winner == "first"), winner[~mirror] == "second"]),
        "turns": np.concatenate([turns, turns[~mirror]]),
        "at": np.concatenate([at, at[~mirror]]),
    })
    by = rows.groupby(["deck", "opponent"], sort=False)
    wins = by["won"].sum()
    rows = rows[rows["won"] | ~by["won"].transform("any")]   # the wins, or every game of a pairing never won
    rows = rows.sort_values(["deck", "opponent", "turns", "at"], kind="stable")
    by = rows.groupby(["deck", "opponent"], sort=False)
    pick = rows[by.cumcount().to_numpy() == ((by["at"].transform("size") - 1) // 2).to_numpy()]
    out = pick.set_index(["deck", "opponent"])[["at"]]
    out["game"] = df.index[out["at"].to_numpy()]
    out["wins"] = wins.reindex(out.index).astype(int)
    return out.drop(columns="at")


def plan_replays(df: pd.DataFrame, tables: dict, results_dir: str | Path | None = None,
                 limit: int = REPLAYS) -> tuple[dict, str]:
    """The replay of every matchup cell: the representative game, told in full for at most ``limit`` matchups.

    Args:
        df: the results, one row per game.
        tables: :func:`simkit.analysis.analyze` output of ``df``.
        results_dir: the results folder (to find the scenario file).
        limit: matchups whose game is played again and told turn by turn (flagged first, then the most
            lopsided, then mirrors); 0: none.

    Returns:
        ``(replays, reason)``: ``replays["games"]`` lists one game per matchup as the page's script reads it
        (``d``, ``o``: the favoured deck and its opponent, ``f``, ``s``: the first and second deck, as indices of
        ``replays["decks"]``; ``fb``, ``sb`` the bots, ``seed`` (text), ``w`` winner, ``e`` end reason, ``t``
        turns, ``n`` the favoured deck's wins, ``lines``: the narration or ``None``, ``note``: a warning);
        ``replays["cell"]`` holds, for row deck ``i`` and column deck ``j`` (indices of ``replays["decks"]``), the
        index of their game at ``i * len(decks) + j`` (both orders; -1 when the two never met); ``scenario`` is the
        scenario file the replay command names, ``why`` what a cell without narration says; ``reason`` says
        why no game is told ("" when some are).
    """
    meta = df.attrs.get("meta") or tables.get("meta") or {}
    sc, path, reason = find_scenario(meta, results_dir)
    narrate = sc.game.capability("narrate") if sc is not None else None
    if sc is not None and narrate is None:
        reason = f"the game {sc.game_name!r} has no narrate capability to tell a game"
    watch = matchups_to_watch(tables, at_least=10 ** 9)
    pairs = [(r.deck, r.opponent) for r in watch.itertuples()]
    decks = list(tables["decks"]["deck"])
    chosen = representative_games(df)
    pairs += [(d, d) for d in decks if (d, d) in chosen.index]
    index = {d: i for i, d in enumerate(decks)}
    bots = meta.get("bots") or ["balanced", "balanced"]
    games, told = [], []
    cell = [-1] * (len(decks) * len(decks))
    for deck, opponent in pairs:
        pick = chosen.loc[(deck, opponent)]
        g = df.loc[pick["game"]]
        fb, sb = (bots[0] if pd.isna(g.get("first_bot")) else g["first_bot"],
                  bots[-1] if pd.isna(g.get("second_bot")) else g["second_bot"])
        entry = {"d": index[deck], "o": index[opponent], "f": index[g["first_deck"]], "s": index[g["second_deck"]],
                 "fb": str(fb), "sb": str(sb), "seed": str(int(g["seed"])), "w": str(g["winner"]),
                 "e": str(g["end_reason"]), "t": int(g["turns"]), "n": int(pick["wins"]), "lines": None, "note": ""}
        cell[index[deck] * len(decks) + index[opponent]] = cell[index[opponent] * len(decks) + index[deck]] = len(games)
        games.append(entry)
        if narrate is not None and len(told) < limit:
            told.append(entry)
    why = (f"Not told in this page ({reason})." if reason else
           f"Not told in this page: it tells {len(told)} matchups (flagged first, then the most lopsided; "
           "simkit report --html-replays N tells more).") + " The command above plays it."
    if told:
        from simkit.runner import play_games

        frame = pd.DataFrame(told)
        for pair, idx in frame.groupby(["fb", "sb"], sort=False).groups.items():
            part = [told[i] for i in idx]
            try:
                played = play_games(sc, [decks[e["f"]] for e in part], [decks[e["s"]] for e in part], bots=pair,
                                    seeds=[int(e["seed"]) for e in part], record_actions=True)
            except ValueError as exc:
                for e in part:
                    e["note"] = f"It could not be replayed ({exc})."
                continue
            for e, p in zip(part, played.itertuples()):
                e["lines"] = list(narrate(decks[e["f"]], decks[e["s"]], p.action_list, bots=(e["fb"], e["sb"]),
                                          seed=int(e["seed"])))
                if (p.winner, p.end_reason, int(p.turns)) != (e["w"], e["e"], e["t"]):
                    e["note"] = (f"Warning: replayed now it ends differently ({p.winner}, {p.end_reason}, "
                                 f"{int(p.turns)}): the bots or the engine changed since the sweep.")
    scenario = path or str(meta.get("scenario_path") or "SCENARIO.toml")
    plan = meta.get("plan") if isinstance(meta.get("plan"), dict) else {}
    bots_from = str(plan.get("bots_from") or "")  # the file whose bots the sweep played (--bots-from)
    return {"decks": decks, "games": games, "cell": cell, "scenario": scenario, "bots_from": bots_from, "why": why,
            "turn": tables["schema"].turn_words}, reason


def write_html_report(tables: dict, out: str | Path, replays: dict | None = None, replay_reason: str = "",
                      when: datetime | None = None) -> Path:
    """Write the report's HTML page (atomically).

    Args:
        tables: :func:`simkit.analysis.analyze` output.
        out: the ``.html`` file.
        replays: from :func:`plan_replays` (``None``: no replays).
        replay_reason: why no game is told, said on the page.
        when: the report's date (default: now, UTC).

    Returns:
        the path written.

    Raises:
        ValueError: ``out`` does not end in ``.html``, or cannot be written.
    """
    from simkit.core.files import atomic_write, cannot_write

    out = Path(out)
    if out.suffix.lower() != ".html":
        raise ValueError(f"--html {out}: must end in .html")
    when = when or datetime.now(UTC)
    replays = replays or {"decks": [], "games": [], "cell": [], "scenario": "", "why": "", "turn": "turn"}
    meta, schema = tables["meta"], tables["schema"]
    decks = tables["decks"]
    order = list(decks["deck"])
    bots = meta.get("bots") or ["?", "?"]
    name = meta.get("scenario_name") or "results"
    facts = [f"Scenario: {name} ({meta.get('scenario_path') or 'path not recorded'}), hash "
             f"{meta.get('scenario_hash')}, rules version {meta.get('rules_version')}",
             f"Bots: {bots[0]} (first seat) vs {bots[-1]} (second seat)", games_line(tables),
             f"Report made {when.strftime('%Y-%m-%d %H:%M UTC')} by simkit {meta.get('simkit_version', '')}"]
    heads = headlines(tables)
    answer = verdict(tables)
    reach = reach_words(tables)
    told = sum(1 for r in replays["games"] if r["lines"] is not None)
    every = told == len(replays["games"])
    replay_words = (f"A click on a cell opens a replay of one of its games: {told} matchups are told turn by turn in "
                    "this page" + (", every one of them." if every else
                                   ", every other cell gives its seed and the command that plays it.")
                    if told else f"A click on a cell gives its game's seed and the command that plays it"
                    f"{' (' + replay_reason + ')' if replay_reason else ''}.")
    if is_real(meta):  # games people played: who played them, and no replay behind a cell
        facts[1:2] = real_facts(meta)[:1]
        replay_words = real_facts(meta)[1] + "."
    words = dict(schema.card_categories)
    shown = {
        "flags": (tables["flags"], ()), "matchups": (tables["matchups"], ()), "decks": (decks, ()),
        "first_player": (tables["first_player"], ("low", "high")),
        "cards": (tables["cards"].assign(kind=tables["cards"]["kind"].map(lambda k: words.get(k, k))), ()),
        "card_pairs": (tables["card_pairs"], ()), "metagame": (tables["metagame"], ()),
        "game_shape": (tables["game_shape"].drop(columns=["end_reason"]), ()),
        "side_numbers": (tables["side_numbers"], ()),
    }
    playing = experience_words(tables)  # how the games play: the first page's sentence, or why not measured
    extra = experience_csv(tables)
    for key, frame in extra.items():  # the figures without their counts (_n) and the length flags' shares: in the CSV
        drop = [c for c in frame.columns if c.endswith("_n") or c.startswith(("longer", "shorter"))
                or frame[c].isna().all()]  # and a figure no game has (no target, no uncertainty): said above
        shown[key] = (frame.drop(columns=drop if key == "experience" else []), ())
    if "against" in tables:  # real games against a sweep
        shown["against"] = (tables["against"]["table"], ("difference", "low", "high"))  # rates as rates

    def table(key: str, caption: str = "") -> str:
        frame, points = shown[key]
        return html_table(key, frame, caption, points)

    sections = [
        ("headlines", "Headlines", "<ul class='headlines'>" + "".join(
            f"<li{' class=warn' if h.startswith('WARNING') else ''}>{_e(h)}</li>" for h in heads) + "</ul>"),
        ("flags", f"Flags ({len(tables['flags'])})", "".join(
            f"<p class='note{' warn' if r.startswith('WARNING') else ''}'>{_e(r)}</p>" for r in reach)
         + (table("flags") if len(tables["flags"]) else
            "<p>No deck, matchup or seat advantage is significantly outside its band.</p>")),
        ("matchups", "Matchups, strongest deck first",
         heatmap_html("matchups", "Each cell: the row deck's win rate against the column deck, written in the cell "
                      "where it fits; hover for its 95% interval and games. " + replay_words)
         + table("matchups")),
        ("decks", f"{schema.deck_words.capitalize()} strength",
         table("decks", "Win rates pool both seats (95% Wilson intervals); ratings are Bradley-Terry on the Elo "
               "scale, 0 the pool average (bootstrap intervals).")),
        ("first-player", "First-player advantage",
         table("first_player", "advantage: the first seat's score rate minus 50%, in points; low and high its 95% "
               "interval.")
         + heatmap_html("first_player", "Per matchup, in points (written in the cell where it fits; hover for the "
                        "interval and games); blue: the first seat scores more.")),
        ("cards", "Cards", table("cards", "Win rate of the decks holding each card.")
         + table("card_pairs", "Pairs of cards: synergy is the pair's win rate minus what its two cards' rates "
                 "predict, in points.")),
        ("metagame", "Metagame", table("metagame", "The maximum-entropy Nash equilibrium of the measured win rates: "
                                       "weight is each deck's share of the mix.")),
        ("game-shape", "Game shape", table("game_shape") + (table("side_numbers") if len(tables["side_numbers"])
                                                            else "")),
    ]
    if extra:  # the PDF's "How the games play" pages: the same figures and flags
        exp = tables["experience"]
        sections.append(("how-the-games-play", "How the games play", "".join(
            f"<p class='note'>{_e(line)}</p>" for line in more_lines(exp) + bar_lines(exp["settings"],
                                                                                       schema.turn_words))
            + (table("experience_flags", "Experience flags: beyond their bar and significant after correction.")
               if len(exp["flags"]) else "<p>No experience flag: nothing lies significantly beyond its bar.</p>")
            + table("experience", "Overall, by deck and by matchup: each figure with its 95% interval (_low, _high); "
                    "comebacks and decided early are shares of the games won (the CSV adds the games each figure is "
                    "counted over).")))
    if "against" in tables:  # its answer first, as on the PDF's page after the title
        words = tables["against"]["words"]
        sections.insert(0, ("against", "Real play against simulation",
                            f"<p class='verdict'>{_e(words[0])}</p>" + "".join(f"<p class='note'>{_e(w)}</p>"
                                                                             for w in words[1:])
                            + table("against", "Rates in [0, 1]: real and simulated (the sweep's games of the same "
                                    "ordered pairings, each weighted as often as the real games met it), each with "
                                    "its 95% interval; difference real minus simulated with its 95% interval; "
                                    "measured: the interval leaves 0 out.")))
    nav = " ".join(f'<a href="#{s}">{_e(title)}</a>' for s, title, _ in sections)
    body = "".join(f'<section id="{s}"><h2>{_e(title)}</h2>{content}</section>' for s, title, content in sections)
    blob = {"decks": order, "replays": {k: v for k, v in replays.items() if k != "decks"},
            "tables": {k: table_data(frame, points) for k, (frame, points) in shown.items()},
            "maps": HEATMAPS, "shown": SHOWN}
    data = json.dumps(blob, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")
    page = (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Balance report: {_e(name)}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head><body>'
        f'<h1>Balance report: {_e(name)}</h1>'
        f'<p class="verdict {answer.state.replace(" ", "-")}" id="verdict">{_e(answer.sentence)}</p>'
        + (f'<p class="playing" id="playing">{_e(playing)}</p>' if playing else "")
        + "".join(f'<p class="facts">{_e(f)}</p>' for f in facts)
        + ("<p class='warn'>The results hold a bot panel: this page describes the reference bot's games; the PDF "
           "has the 'Does the player matter?' pages.</p>" if meta.get("panel") else "")
        + f"<nav>{nav}</nav>{body}"
        '<div id="tip"></div><aside id="replay" hidden><button id="replay-close">close</button>'
        '<h3 id="replay-title"></h3><p id="replay-about" class="note"></p><code id="replay-command"></code>'
        '<pre id="replay-text"></pre></aside>'
        f'<script type="application/json" id="page-data">{data}</script><script>{SCRIPT}</script></body></html>\n'
    )
    try:
        atomic_write(out, lambda tmp: tmp.write_text(page, encoding="utf-8"), make_folders=True)
    except OSError as exc:
        raise cannot_write(f"--html {out}", exc) from None
    return out


def html_report(results_dir: str | Path, out: str | Path, bootstrap: int = 200, seed: int = 0,
                bot: str | None = None, replays: int = REPLAYS, against: str | Path | None = None) -> Path:
    """Analyse a sweep's results folder and write its report as one HTML page (see the module's notes).

    Args:
        results_dir: a folder written by ``simkit sweep``.
        out: the ``.html`` file.
        bootstrap: bootstrap replicas of the rating intervals.
        seed: the bootstrap's seed.
        bot: for a bot panel, the bot whose games the page describes (default: the panel's last).
        replays: matchups told turn by turn in the page (0: none; every cell still gives its command).
        against: for a folder of real games, a sweep's folder of the same game: the "Real play against simulation"
            section comes first (:func:`simkit.report.against_page.against_tables`; ``bot`` is then the sweep's).

    Returns:
        the path written.

    Raises:
        ValueError: bad results folder, output path or ``replays`` (one line).
    """
    from simkit.analysis import analyze
    from simkit.report.robustness_page import reference_bot, reference_view

    if Path(out).suffix.lower() != ".html":
        raise ValueError(f"--html {out}: must end in .html")
    if replays < 0:
        raise ValueError(f"--html-replays must be 0 or more, got {replays}")
    df = load_checked_results(results_dir)
    compared = None
    if against is not None:
        from simkit.report.against_page import against_tables

        compared, bot = against_tables(df, against, bot), None
    ref = reference_bot(df, bot)
    if ref is not None:
        df = reference_view(df, ref)
    tables = analyze(df, bootstrap=bootstrap, seed=seed)
    if compared is not None:
        tables["against"] = compared
    if is_real(tables["meta"]):  # people's games: no seed plays them again
        return write_html_report(tables, out, None, "")
    plan, reason = plan_replays(df, tables, results_dir, limit=replays)
    return write_html_report(tables, out, plan, reason)
