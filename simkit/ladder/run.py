"""Run a skill ladder and write its folder: ``ladder.json`` (every figure, with where it came from), ``games.csv``
(every game, replayable from its decks, bots and seed) and the report ``ladder.pdf`` with its tables beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from simkit.core.files import atomic_files
from simkit.core.provenance import provenance
from simkit.ladder.play import Pool, play_match, round_robin_scores, rung_cost
from simkit.ladder.settings import LadderSettings
from simkit.scenario import Scenario

__all__ = ["FIGURES", "GAMES", "run_ladder", "is_ladder_folder", "read_ladder"]

FIGURES = "ladder.json"
GAMES = "games.csv"


def is_ladder_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds a finished ladder run (its ``ladder.json``)."""
    return (Path(folder) / FIGURES).is_file()


def read_ladder(folder: str | Path) -> dict:
    """The figures a ladder run wrote into ``folder``.

    Raises:
        ValueError: no readable ``ladder.json`` there, named.
    """
    path = Path(folder) / FIGURES
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a finished ladder run ({exc})") from None
    if not isinstance(doc, dict) or "matches" not in doc:
        raise ValueError(f"{path}: not a finished ladder run (no matches)")
    return doc


def _refuse_other_folder(out: Path) -> None:
    """A sweep's or explore's folder is not a ladder's: refused before anything is played."""
    if (out / "meta.json").exists():
        raise ValueError(f"{out}: holds a sweep's results (meta.json); give the ladder its own folder with --out")
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: is a file, not a folder")


def run_ladder(sc: Scenario, out: str | Path, settings: LadderSettings, workers: int = 1, progress: bool = False,
               command: str | None = None, report: bool = True) -> dict:
    """Play every match of ``settings`` and write the ladder's folder.

    Args:
        sc: the scenario (its bots are the rungs).
        out: the folder to write (``ladder.json``, ``games.csv`` and, with ``report``, ``ladder.pdf`` and its CSVs).
        settings: the run's numbers (checked against the scenario's bots here).
        workers: processes to play in (the kernels are compiled once, in this process, before they fork).
        progress: show a progress bar of the games on stderr.
        command: the command line recorded with the figures (default: the equivalent ``simkit ladder`` line).
        report: also write the report ``ladder.pdf`` (:func:`simkit.report.ladder_page.ladder_report`).

    Returns:
        the figures written to ``ladder.json``: provenance, ``settings``, ``scenario``, ``game``, ``matches``
        (each with its ``answer`` sentence), ``answer`` (the ladder's), ``round_robin``, ``costs``.

    Raises:
        ValueError: bad settings or folder (one line, before anything is played or written).
    """
    from tqdm import tqdm

    from simkit.core.words import Estimate, match_sentence, player_answer

    settings = settings.check(sc.game.bot_names())
    from simkit.outside.bots import check_allowed

    check_allowed(sc, [b for pair in settings.matches() for b in pair])  # a program not allowed: refused first
    from simkit.outside.play import check_pairings, choosing_own_deck

    check_pairings(sc, settings.matches())

    own = choosing_own_deck(sc, [b for pair in settings.matches() for b in pair])
    if own:
        raise ValueError(f"bot {own[0]!r} chooses its own deck (its protocol's start), but a ladder deals every rung "
                         "the same decks: play it with simkit sweep --bots or simkit play")
    out = Path(out)
    _refuse_other_folder(out)
    made = provenance("simkit ladder", command or _command_line(sc, out, settings, workers))  # the commit played
    firsts, seconds = sc.game.seat_decks()
    matches = settings.matches()
    pairs = [p for up, low in matches for p in ((up, low), (low, up))]
    rows: list[dict] = []
    figures = []
    bar = tqdm(total=settings.games * len(matches), unit="game", desc="ladder", disable=not progress)
    try:
        with Pool(sc, workers, list(dict.fromkeys(pairs))) as pool:
            for upper, lower in matches:
                m, games = play_match(pool, settings, upper, lower, done=bar.update)
                score = Estimate(m["score"], *m["score_ci"], games=m["games"])
                m["answer"] = match_sentence(upper, lower, score)
                figures.append(m)
                rows += games
    finally:
        bar.close()
    costs = [rung_cost(sc, rung, settings.cost_games, settings.seed, settings.cores)
             for rung in dict.fromkeys([*settings.rungs, *([settings.against] if settings.against else [])])
             ] if settings.cost_games else []
    head = figures[-1] if not settings.round_robin else max(figures, key=lambda m: abs(m["score"] - 0.5))
    split = head.get("skill_or_luck")
    shares = None
    if split is not None:
        shares = {k: Estimate(split["share"][k], *split["share_ci"][k]) for k in ("skill", "decks", "luck")}
    answer = player_answer(head["upper"], head["lower"], Estimate(head["score"], *head["score_ci"],
                                                                  games=head["games"]), shares,
                           forfeits=head.get("forfeits", 0))
    doc = {**made,
           "scenario": str(sc.path), "scenario_name": sc.name, "game": sc.game_name, "title": sc.game.title,
           "bots_from": str(sc.bots_from) if sc.bots_from else None, "settings": settings.to_dict(),
           "pool": {"first": len(firsts), "second": len(seconds), "pairs": len(firsts) * len(seconds)},
           "answer": answer, "answer_match": [head["upper"], head["lower"]], "matches": figures,
           "round_robin": round_robin_scores(figures) if settings.round_robin else {}, "costs": costs}
    with atomic_files([out / FIGURES, out / GAMES]) as temps:
        temps[out / FIGURES].write_text(json.dumps(doc, indent=1, default=float), encoding="utf-8")
        pd.DataFrame(rows).to_csv(temps[out / GAMES], index=False)
    if report:
        from simkit.report.ladder_page import ladder_report

        ladder_report(out, out / "ladder.pdf")
    return doc


def _command_line(sc: Scenario, out: Path, s: LadderSettings, workers: int) -> str:
    """The ``simkit ladder`` line that plays these settings again."""
    words = ["simkit ladder", str(sc.path), "--rungs", ",".join(s.rungs)]
    if s.against:
        words += ["--against", s.against]
    words += ["--games", str(s.games), "--seeds-per-deal", str(s.seeds_per_deal), "--seed", str(s.seed)]
    if s.round_robin:
        words.append("--round-robin")
    if not s.top_vs_bottom:
        words.append("--skip-top")
    if s.cost_games:
        words += ["--cost-games", str(s.cost_games), "--cores", str(s.cores)]
    if sc.bots_from:
        words += ["--bots-from", str(sc.bots_from)]
    return " ".join([*words, "--workers", str(workers), "--out", str(out)])
