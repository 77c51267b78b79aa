"""Game pages of the balance report: one representative game of each flagged matchup, on the board.

For every matchup flagged as lopsided (and, on request, the most lopsided others) the report picks
one typical game (the median-length win of the deck the matchup favours, in the seating it was
played), replays it exactly from its seed with :func:`simkit.play_games`, and asks the game package
to draw it. The report stays game-agnostic: it reaches the game only through the sweep's scenario
(``scenario.game``, :class:`simkit.games.Ruleset`) and its optional capability

    ``key_turns(first_deck, second_deck, actions, seed=SEED, count=3) -> Figure``

an A4-landscape figure of the board after ``count`` key turns, with ``actions`` the ``action_list``
of ``play_games(..., record_actions=True)``. With three boards the lower-right quarter of the page
is left free; the report writes there why the game was chosen, its seed and the command that plays
it again. A game without the capability gets no game pages.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from textwrap import wrap
from typing import Any

import pandas as pd

from simkit.report.document import ReportPdf
from simkit.runner import play_games

__all__ = ["MAX_GAME_PAGES", "KEY_TURNS", "GamePages", "matchups_to_watch", "representative_game",
           "find_scenario", "plan_game_pages", "replay_command", "write_game_pages"]

MAX_GAME_PAGES = 12   # beyond, the title page says how many matchups were left out
KEY_TURNS = 3         # boards per page; the fourth quarter of the page holds the notes
HOOK = "key_turns"  # the capability (simkit.games.CAPABILITIES) that draws a game's boards
_NOTES_X, _NOTES_TOP, _NOTES_BOTTOM = 0.45, 0.44, 0.035   # figure fractions of the notes' box
_NOTES_WRAP = 100     # characters per line of the notes (8 pt)
_COMMAND_WRAP = 88    # characters per line of the command (7.5 pt monospace)
_MATCHUP_COLUMNS = ["deck", "opponent", "value", "low", "high", "games", "flagged", "message"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def matchups_to_watch(tables: dict, at_least: int = 0) -> pd.DataFrame:
    """The matchups that get a game page: every flagged one, then the most lopsided others.

    Args:
        tables: :func:`simkit.analysis.analyze` output (``flags`` and ``matchups`` are read).
        at_least: show at least this many matchups, topping the flagged ones up with the
            unflagged matchups farthest from 50% (0: flagged matchups only).

    Returns:
        DataFrame, one row per matchup in page order: ``deck`` (the side the matchup favours),
        ``opponent``, ``value`` (``deck``'s win rate against ``opponent``, draws half), ``low``,
        ``high`` (its 95% interval), ``games``, ``flagged``, ``message`` (in words).
    """
    flags = tables["flags"]
    flags = flags[flags["kind"] == "matchup"]
    sides = flags["subject"].str.split(" vs ", n=1, expand=True)
    rows = [
        {"deck": a, "opponent": b, "value": r.value, "low": r.low, "high": r.high, "games": int(r.games),
         "flagged": True, "message": r.message}
        for (a, b), r in zip(sides.itertuples(index=False), flags.itertuples())
    ] if len(flags) else []
    if len(rows) < at_least:
        m = tables["matchups"]
        m = m[~m["mirror"] & ((m["win_rate"] > 0.5) | ((m["win_rate"] == 0.5) & (m["deck"] < m["opponent"])))]
        seen = {frozenset((r["deck"], r["opponent"])) for r in rows}
        m = m[[frozenset(p) not in seen for p in zip(m["deck"], m["opponent"])]]
        m = m.sort_values(["win_rate", "games", "deck", "opponent"], ascending=[False, False, True, True])
        for r in m.head(at_least - len(rows)).itertuples():
            rows.append({"deck": r.deck, "opponent": r.opponent, "value": r.win_rate, "low": r.low, "high": r.high,
                         "games": int(r.games), "flagged": False,
                         "message": f"{r.deck} beats {r.opponent} {_pct(r.win_rate)} of the time (95% CI "
                         f"{_pct(r.low)}-{_pct(r.high)}, {r.games} games); not flagged"})
    return pd.DataFrame(rows, columns=_MATCHUP_COLUMNS)


def representative_game(df: pd.DataFrame, deck: str, opponent: str) -> tuple[pd.Series, int]:
    """The typical game of ``deck`` against ``opponent``: the median-length game ``deck`` won.

    Both seatings count; the game is shown in the seating it was played. With an even number of
    wins the shorter of the two middle games is taken; ties in length go to the first game in
    results order. When ``deck`` never won (only draws and losses), the median-length game of the
    pairing is taken instead.

    Args:
        df: the results, one row per game.
        deck, opponent: the two decks (``deck`` the favoured side).

    Returns:
        ``(row, wins)``: the game's row of ``df`` and how many games ``deck`` won in the pairing.

    Raises:
        ValueError: the two decks never met.
    """
    as_first = (df["first_deck"] == deck) & (df["second_deck"] == opponent)
    as_second = (df["first_deck"] == opponent) & (df["second_deck"] == deck)
    won = (as_first & (df["winner"] == "first")) | (as_second & (df["winner"] == "second"))
    pair, won = df[as_first | as_second], df[won]
    if pair.empty:
        raise ValueError(f"{deck} and {opponent} never met in these results")
    pool = won if len(won) else pair
    order = pool.assign(_at=range(len(pool))).sort_values(["turns", "_at"], kind="stable")
    return order.iloc[(len(order) - 1) // 2].drop("_at"), len(won)


def find_scenario(meta: dict, results_dir: str | Path | None = None) -> tuple[Any, str, str]:
    """The sweep's scenario, loaded again from its file if that file still holds the same numbers.

    A relative ``scenario_path`` is looked for from the working folder, then from the results
    folder's parent and grandparent (``simkit sweep`` writes to ``results/NAME`` by default).

    Args:
        meta: the sweep's metadata (``scenario_path``, ``scenario_hash``).
        results_dir: the results folder, for relative paths.

    Returns:
        ``(scenario, path, reason)``: the loaded :class:`~simkit.scenario.Scenario` and its path as
        a command line should name it, or ``(None, "", reason)`` saying in words why not.
    """
    from simkit.scenario import load_scenario

    recorded = str(meta.get("scenario_path") or "")
    if not recorded:
        return None, "", "the results do not name their scenario file"
    path = Path(recorded)
    candidates = [path]
    if not path.is_absolute() and results_dir is not None:
        here = Path(results_dir)
        candidates += [here.parent / path, here.parent.parent / path]
    found = [p for p in dict.fromkeys(candidates) if p.is_file()]
    if not found:
        return None, "", f"the scenario file {recorded} is not found (run the report from the folder the sweep ran in)"
    plan = meta.get("plan") if isinstance(meta.get("plan"), dict) else {}
    bots_from = str(plan.get("bots_from") or meta.get("bots_from") or "")  # the sweep played another file's bots
    if bots_from and not Path(bots_from).is_file():
        return None, "", f"the file {bots_from} whose bots the sweep played (--bots-from) is not found"
    reason = ""
    for p in found:
        try:
            sc = load_scenario(p, bots_from=bots_from or None)
        except ValueError as exc:
            reason = f"the scenario file {p} no longer loads ({exc})"
            continue
        if sc.hash != meta.get("scenario_hash"):
            reason = (f"the scenario file {p}{f' or the bots file {bots_from}' if bots_from else ''} has changed "
                      f"since the sweep (hash {sc.hash}, the sweep's "
                      f"{meta.get('scenario_hash')}), so its games cannot be replayed")
            continue
        return sc, str(p if p == path else p.resolve()), ""
    return None, "", reason


def replay_command(scenario_path: str, game: pd.Series, render: str = "game.gif", bots_from: str | None = None) -> str:
    """The shell command that plays ``game`` again and draws it (``simkit play``).

    Args:
        scenario_path: the scenario file as the command should name it.
        game: a results row (``first_deck, second_deck, seed, first_bot, second_bot``).
        render: the picture ``--render`` writes (``.gif``, ``.html`` or ``.png``).
        bots_from: the file whose bots the sweep played (``--bots-from``), or ``None``.

    Returns:
        One line, arguments quoted for a POSIX shell.
    """
    args = ["simkit", "play", scenario_path, str(game["first_deck"]), str(game["second_deck"]),
            "--bots", f"{game['first_bot']},{game['second_bot']}", "--seed", str(int(game["seed"])),
            "--render", render] + (["--bots-from", str(bots_from)] if bots_from else [])
    return shlex.join(args)


def _command_lines(command: str, width: int) -> list[str]:
    """``command`` broken into shell-continued lines (`` \\``) of about ``width``, options kept with their values."""
    words: list[str] = []
    for token in shlex.split(command):
        if words and words[-1].startswith("--") and " " not in words[-1] and not token.startswith("--"):
            words[-1] += " " + shlex.quote(token)
        else:
            words.append(shlex.quote(token))
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) + 2 > width:
            lines.append(line + " \\")
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


@dataclass
class GamePages:
    """The game pages a report will hold, or why it holds none.

    Attributes:
        games: one row per page: the matchup (:func:`matchups_to_watch` columns), its
            representative game (results columns), ``wins`` (the favoured deck's wins in the
            pairing), ``actions`` (the replayed action list) and ``replayed`` (the replay's
            ``(winner, end_reason, turns)``).
        wanted: matchups that asked for a page (before the :data:`MAX_GAME_PAGES` cap).
        flagged: how many of them are flagged.
        at_least: the ``at_least`` asked for (0: flagged matchups only).
        scenario: the loaded scenario (``None`` when the pages are skipped).
        scenario_path: the scenario file as the replay command names it.
        skipped: why there are no pages although some were wanted ("" otherwise).
    """

    games: pd.DataFrame = field(default_factory=pd.DataFrame)
    wanted: int = 0
    flagged: int = 0
    at_least: int = 0
    scenario: Any = None
    scenario_path: str = ""
    skipped: str = ""

    def summary(self) -> list[str]:
        """The title page's sentence about game pages (unwrapped)."""
        if self.skipped and self.wanted == 0:
            return [f"No game pages: {self.skipped}."]
        if self.wanted == 0:
            return ["No game pages, as no matchup is flagged (simkit report --game-pages N shows a game of "
                    "each of the N most lopsided matchups)."]
        if self.skipped:
            return [f"No game pages ({self.wanted} matchup(s) asked for one): {self.skipped}."]
        n, flagged = len(self.games), int(self.games["flagged"].sum())
        parts = ([f"each of the {flagged} flagged matchup(s)"] if flagged else []) + (
            [f"each of the {n - flagged} most lopsided {'other ' if flagged else ''}matchup(s)"] if n > flagged else [])
        left = (f" {self.wanted - n} more matchup(s) are left out (at most {MAX_GAME_PAGES} pages; the least "
                f"lopsided go)." if self.wanted > n else "")
        return [f"After the flags: a representative game of {' and of '.join(parts)}, drawn on the "
                f"board with its seed and the command that replays it.{left}"]


def plan_game_pages(df: pd.DataFrame, tables: dict, results_dir: str | Path | None = None, at_least: int = 0,
                    limit: int = MAX_GAME_PAGES) -> GamePages:
    """Choose the matchups and games to show, and replay each game from its seed.

    Args:
        df: the results, one row per game (``df.attrs["meta"]`` names the scenario).
        tables: :func:`simkit.analysis.analyze` output of ``df``.
        results_dir: the results folder (to find a scenario recorded with a relative path).
        at_least: show at least this many matchups (see :func:`matchups_to_watch`).
        limit: at most this many pages.

    Returns:
        The :class:`GamePages` (``skipped`` set when the scenario file is gone or changed, or
        its game draws no boards).

    Raises:
        ValueError: ``at_least`` is negative.
    """
    if at_least < 0:
        raise ValueError(f"--game-pages must be 0 or more, got {at_least}")
    watch = matchups_to_watch(tables, at_least)
    pages = GamePages(wanted=len(watch), flagged=int(watch["flagged"].sum()), at_least=at_least)
    meta = df.attrs.get("meta") or tables.get("meta") or {}
    if meta.get("source") == "real games":  # people's games: no seed plays them again
        pages.skipped = "these are real games, and simkit holds no seed or actions that would play one again"
        return pages
    if watch.empty:
        return pages
    sc, path, reason = find_scenario(meta, results_dir)
    if sc is not None and sc.game.capability(HOOK) is None:
        sc, reason = None, f"the game {sc.game_name!r} provides no {HOOK} capability to draw its boards"
    if sc is None:
        pages.skipped = reason
        return pages
    pages.scenario, pages.scenario_path = sc, path
    rows = []
    for m in watch.head(limit).itertuples(index=False):
        game, wins = representative_game(df, m.deck, m.opponent)
        rows.append({**m._asdict(), **game.to_dict(), "wins": wins})
    games = pd.DataFrame(rows)
    bots = meta.get("bots") or ["balanced", "balanced"]
    for seat, name in (("first_bot", bots[0]), ("second_bot", bots[-1])):
        games[seat] = games[seat].fillna(name) if seat in games else name
    actions, replayed = {}, {}
    for pair, part in games.groupby(["first_bot", "second_bot"], sort=False):
        try:
            played = play_games(sc, list(part["first_deck"]), list(part["second_deck"]), bots=pair,
                                seeds=[int(s) for s in part["seed"]], record_actions=True)
        except ValueError as exc:
            pages.skipped = f"the games could not be replayed ({exc})"
            return pages
        for i, p in zip(part.index, played.itertuples()):
            actions[i], replayed[i] = p.action_list, (p.winner, p.end_reason, int(p.turns))
    games["actions"] = [actions[i] for i in games.index]
    games["replayed"] = [replayed[i] for i in games.index]
    pages.games = games
    return pages


def _how_it_ended(g: pd.Series, deck: str) -> str:
    if g["winner"] == "draw":
        return f"It ended in a draw at the turn limit (turn {g['turns']})."
    won = g["first_deck"] if g["winner"] == "first" else g["second_deck"]
    who = "the favoured deck" if won == deck else "its opponent"
    loser = "second" if g["winner"] == "first" else "first"
    how = (f"destroying the {loser} player's miracle" if g["end_reason"] == "miracle"
           else "ahead when the turn limit was reached")
    return f"The {g['winner']} player ({who}) won on turn {g['turns']}, {how}."


def _notes(g: pd.Series, k: int, n: int, flagged: int, scenario_path: str,
           bots_from: str | None = None) -> tuple[list, list]:
    """The text beside the boards as ``(text, fig.text keywords)`` lines.

    Returns:
        ``(head, tail)``: what the matchup is and why this game, as paragraphs (lists of lines)
        in order of importance; then how to watch it (lines).
    """
    kind = (f"Flagged matchup {k} of {flagged}" if g["flagged"]
            else f"Unflagged matchup {k} of {n} (shown by --game-pages, most lopsided first)")
    body = {"fontsize": 8}
    bold = {"fontsize": 9, "weight": "bold"}
    d_seat = "first" if g["first_deck"] == g["deck"] else "second"
    o_seat = "second" if d_seat == "first" else "first"
    bots = {"first": g["first_bot"], "second": g["second_bot"]}
    if g["wins"]:
        why = (f"The median-length game of the {g['wins']} {'games' if g['wins'] > 1 else 'game'} "
               f"{g['deck']} won in this matchup (both seatings).")
    else:
        why = f"{g['deck']} won no game of this matchup; this is its median-length game."
    story = (f"{why} {g['deck']} played {d_seat} (bot {bots[d_seat]}), {g['opponent']} {o_seat} "
             f"(bot {bots[o_seat]}): game index {g['game']} of this seating in the results. "
             f"{_how_it_ended(g, g['deck'])}")
    seed = {"fontsize": 9, "weight": "bold", "family": "monospace"}
    head = [
        [(kind, {"fontsize": 10.5, "weight": "bold"})],
        [(s, body) for s in wrap(g["message"][:1].upper() + g["message"][1:] + ".", _NOTES_WRAP)],
        [("", body), ("The game shown", bold)] + [(s, body) for s in wrap(story, _NOTES_WRAP)],
        [("", {"fontsize": 2}), (f"Seed {int(g['seed'])}", seed)],
    ]
    if tuple(g["replayed"]) != (g["winner"], g["end_reason"], int(g["turns"])):
        w, e, t = g["replayed"]
        warn = (f"Warning: replayed now, this game ends differently ({w} wins, {e}, turn {t}) than in the sweep: "
                "the bots or the engine changed since the sweep.")
        head.append([(s, {"fontsize": 8, "color": "#b2182b", "weight": "bold"}) for s in wrap(warn, _NOTES_WRAP)])
    head.append([(s, body) for s in wrap("Scenario, decks, bots and seed replay the game exactly. Each board shows "
                                         "the position after the turn named over it.", _NOTES_WRAP)])
    tail: list[tuple[str, dict]] = [("Watch it", bold)]
    tail += [(s, body) for s in wrap("This prints the game turn by turn and draws it as a GIF, one frame per turn "
                                     "(name an .html file instead for a page with a turn slider):", _NOTES_WRAP)]
    command = replay_command(scenario_path, g, render=f"matchup-{k}.gif", bots_from=bots_from)
    tail += [(s, {"fontsize": 7.5, "family": "monospace"}) for s in _command_lines(command, _COMMAND_WRAP)]
    return head, tail


def _step(style: dict, height: float) -> float:
    """The figure fraction one line of ``style`` takes on a page ``height`` points high."""
    return (style.get("fontsize", 8) + 3.5) / height


def write_game_pages(pdf: ReportPdf, pages: GamePages) -> None:
    """Add one page per game of ``pages`` to the report (nothing when there are none).

    Args:
        pdf: the report being written.
        pages: from :func:`plan_game_pages`.
    """
    if pages.skipped or pages.games.empty:
        return
    draw = pages.scenario.game.capability(HOOK)
    n = len(pages.games)
    for k, (_, g) in enumerate(pages.games.iterrows(), start=1):
        fig = draw(g["first_deck"], g["second_deck"], g["actions"], seed=int(g["seed"]),
                   count=KEY_TURNS)
        height = fig.get_figheight() * 72
        head, tail = _notes(g, k, n, pages.flagged, pages.scenario_path,
                            getattr(pages.scenario, "bots_from", None))
        # how to watch it is pinned to the bottom; the story above gives way if the two would meet
        floor = _NOTES_BOTTOM + sum(_step(style, height) for _, style in tail)
        y = floor
        for text, style in tail:
            fig.text(_NOTES_X, y, text, va="top", **style)
            y -= _step(style, height)
        y = _NOTES_TOP
        for paragraph in head:
            if y - sum(_step(style, height) for _, style in paragraph) < floor + 0.01:
                break
            for text, style in paragraph:
                if text:
                    fig.text(_NOTES_X, y, text, va="top", **style)
                y -= _step(style, height)
        pdf.add(fig, f"game {k}")
