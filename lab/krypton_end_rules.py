"""Krypton's lock by skill and matchup, and the authored end rules measured against the rules page's rule.

    PYTHONPATH=$PWD python lab/krypton_end_rules.py --locks random,random:10 --locks balanced,balanced:20 \\
        --compare tuned,tuned:20 --compare tuned-fit-2,tuned:2 --out results/findings/krypton-ends \\
        --json docs/findings/data/krypton-end-rules.json

Every match (``BOTS:GAMES``, games per ordered loadout pair) is a ``simkit sweep`` of
``scenarios/krypton/variants-base.toml`` (the rules page's end rule) run by this script into ``--out``; a
``--compare`` match is also swept under each ``scenarios/krypton/variant-*.toml`` on the same seeds.

* **The lock** (under the page's rule): each game of the base sweep is played again from its decks, bots and seed
  with its actions recorded (``simkit.play_games``; it must give the same winner), and
  :func:`simkit.games.krypton.stalemate.lock_round` (the engine's own lock test) says the round it first stood
  locked. Per match (the bots' skill): games locked with a 95% Wilson interval, the draws, the draws locked, locked
  games won (0 when the test is sound) and the lock rounds' quartiles; per unordered loadout pairing (the matchup)
  the same share for every match.
* **The end rules**: each variant's games paired with the base's game by game (decks, seats, game number): the
  drawn share and the length (rounds) before and after with the paired change's 95% interval (normal, over games),
  the share ended by a lock, won at the round cap and ended by sudden death, and ``simkit compare``'s balance verdict
  (:func:`simkit.analysis.paired.compare_results`). The sentences come from
  :func:`simkit.core.words.paired_change_clause`: a word only where the interval leaves 0 out.

The JSON carries this command, the date and commit (:func:`simkit.core.provenance.provenance`) and each sweep's
command.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simkit  # noqa: E402
from simkit.analysis.paired import compare_results  # noqa: E402
from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.core.provenance import provenance  # noqa: E402
from simkit.core.words import Estimate, paired_change_clause  # noqa: E402
from simkit.games.krypton.stalemate import lock_round  # noqa: E402
from simkit.report.balance import load_checked_results  # noqa: E402

BASE = "scenarios/krypton/variants-base.toml"
#: the authored variants, in the order the table shows them: (name, scenario, what it changes)
VARIANTS = (
    ("lock-draw", "scenarios/krypton/variant-lock-draw.toml", "a locked game is drawn at once (end_at_lock)"),
    ("base-damage", "scenarios/krypton/variant-base-damage.toml",
     "at the round cap more base HP, then the higher tier, wins (turn_limit_result = \"base_hp_tier\")"),
    ("sudden-death", "scenarios/krypton/variant-sudden-death.toml",
     "after round 25 the first base HP taken wins (sudden_death_round = 25)"),
    ("siege", "scenarios/krypton/variant-siege.toml",
     "after round 25 the bases' defence falls by 1 a round, never below 0 (siege_round = 25)"),
)
KEY = ["first_deck", "second_deck", "game"]
Z95 = 1.959963984540054


def parse_match(text: str) -> tuple[str, int]:
    """``"tuned,tuned:20"`` -> ``("tuned,tuned", 20)``."""
    bots, _, games = text.rpartition(":")
    if not bots or not games.isdigit() or int(games) < 1:
        raise SystemExit(f"krypton_end_rules: {text!r}: a match is BOTS:GAMES, e.g. tuned,tuned:20")
    return bots, int(games)


def sweep(scenario: str, bots: str, games: int, out: Path, workers: int) -> str:
    """Run ``simkit sweep`` (unless ``out`` already holds that finished sweep); returns its command."""
    args = ["simkit", "sweep", scenario, "--bots", bots, "--games", str(games), "--workers", str(workers),
            "--out", str(out)]
    if not (out / "meta.json").exists():
        subprocess.run([sys.executable, "-m", "simkit.cli", *args[1:]], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
    return shlex.join(args)


def games_of(folder: Path) -> pd.DataFrame:
    """A sweep's games, sorted by pairing and game number."""
    return load_checked_results(folder).sort_values(KEY, ignore_index=True)


def lock_rounds(sc: simkit.Scenario, games: pd.DataFrame) -> list[int]:
    """Each game's lock round (-1: it never locked), its actions recorded by playing it again."""
    bots = (games.first_bot.iloc[0], games.second_bot.iloc[0])
    df = simkit.play_games(sc, list(games.first_deck), list(games.second_deck), bots=bots,
                           seeds=[int(s) for s in games.seed], record_actions=True)
    if list(df.winner) != list(games.winner):
        raise SystemExit("krypton_end_rules: the sweep's games did not replay: another commit or scenario")
    out = []
    for f, s, seed, acts in zip(games.first_deck, games.second_deck, games.seed, df.action_list):
        r = lock_round(sc, (f, s), int(seed), acts)
        out.append(-1 if r is None else int(r))
    return out


def lock_figures(rows: pd.DataFrame) -> dict:
    """How many of ``rows`` locked (Wilson interval), the draws and the draws locked, locked yet won, the rounds."""
    locked = rows[rows.lock_round >= 0]
    draws = rows[rows.winner == "draw"]
    q = [float(np.percentile(locked.lock_round, p)) for p in (25, 50, 75)] if len(locked) else [math.nan] * 3
    lo, hi = wilson_interval(len(locked), len(rows))
    return {"games": len(rows), "locked": len(locked), "locked_share": len(locked) / len(rows),
            "locked_ci": [float(lo), float(hi)], "draws": len(draws),
            "draws_locked": int((draws.lock_round >= 0).sum()),
            "locked_won": int((locked.winner != "draw").sum()), "round_quartiles": q}


def matchups(rows: pd.DataFrame) -> list[dict]:
    """The lock's share per unordered loadout pairing (both seat orders pooled), most locked first."""
    pair = [" vs ".join(sorted((a, b))) for a, b in zip(rows.first_deck, rows.second_deck)]
    out = []
    for name, part in rows.groupby(pair, sort=True):
        lo, hi = wilson_interval(int((part.lock_round >= 0).sum()), len(part))
        out.append({"matchup": name, "games": len(part), "locked": int((part.lock_round >= 0).sum()),
                    "locked_share": float((part.lock_round >= 0).mean()), "locked_ci": [float(lo), float(hi)]})
    return sorted(out, key=lambda m: (-m["locked_share"], m["matchup"]))


def paired(before: np.ndarray, after: np.ndarray) -> dict:
    """Means before and after and the paired change's 95% normal interval over games."""
    d = np.asarray(after, float) - np.asarray(before, float)
    half = Z95 * d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else math.nan
    return {"before": float(np.mean(before)), "after": float(np.mean(after)), "change": float(d.mean()),
            "change_ci": [float(d.mean() - half), float(d.mean() + half)]}


def variant_figures(base: pd.DataFrame, var: pd.DataFrame, base_dir: Path, var_dir: Path) -> dict:
    """A variant's games against the base's, game by game, and compare's balance verdict."""
    if not (base[KEY].to_numpy() == var[KEY].to_numpy()).all() or list(base.seed) != list(var.seed):
        raise SystemExit(f"krypton_end_rules: {var_dir}: not the base sweep's games and seeds")
    draws = paired((base.winner == "draw").to_numpy(), (var.winner == "draw").to_numpy())
    length = paired(base.turns.to_numpy(), var.turns.to_numpy())
    n = len(var)
    ends = {r: int((var.end_reason == r).sum()) for r in ("base", "turn_limit", "sudden_death", "lock")}
    verdict = compare_results(load_checked_results(base_dir), load_checked_results(var_dir))["verdict"]
    same = var.end_reason != "lock"
    return {"games": n, "draws": draws, "rounds": length, "ends": ends,
            "won_at_cap": int(((var.end_reason == "turn_limit") & (var.winner != "draw")).sum()),
            "lock_share": ends["lock"] / n, "lock_ci": [float(x) for x in wilson_interval(ends["lock"], n)],
            "unchanged_outside_locks": bool((var[same].winner.to_numpy() == base[same].winner.to_numpy()).all()
                                            and (var[same].turns.to_numpy() == base[same].turns.to_numpy()).all()),
            "verdict": verdict["kind"], "verdict_sentence": verdict["sentence"],
            "draws_sentence": paired_change_clause("drawn games", draws["before"], draws["after"],
                                                   Estimate(draws["change"], *draws["change_ci"], n),
                                                   ("more", "fewer")),
            "rounds_sentence": paired_change_clause("length", length["before"], length["after"],
                                                    Estimate(length["change"], *length["change_ci"], n),
                                                    ("longer", "shorter"), unit="rounds")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--locks", action="append", default=[], metavar="BOTS:GAMES",
                   help="a match whose locks are counted under the page's rule (repeatable)")
    p.add_argument("--compare", action="append", default=[], metavar="BOTS:GAMES",
                   help="a match counted, and swept under every variant too (repeatable)")
    p.add_argument("--matchups", metavar="BOTS", help="the match whose per-matchup shares the page shows "
                   "(default: the first --compare)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True, help="folder for the sweeps")
    p.add_argument("--json", dest="json_out", help="write the figures here")
    a = p.parse_args(argv)
    made = provenance("lab/krypton_end_rules.py", "PYTHONPATH=$PWD python lab/krypton_end_rules.py "
                      + shlex.join(argv if argv is not None else sys.argv[1:]))
    matches = [(*parse_match(m), False) for m in a.locks] + [(*parse_match(m), True) for m in a.compare]
    if not matches:
        p.error("name at least one match (--locks or --compare)")
    sc = simkit.load_scenario(ROOT / BASE)
    out = {**made, "base": BASE, "variants": [{"name": n, "scenario": s, "rule": w} for n, s, w in VARIANTS],
           "locks": [], "matchups": None, "end_rules": []}
    shown = a.matchups or (parse_match(a.compare[0])[0] if a.compare else matches[0][0])
    for bots, games, compare in matches:
        folder = Path(a.out) / bots.replace(",", "-vs-")
        cmd = sweep(BASE, bots, games, folder / "base", a.workers)
        base = games_of(folder / "base")
        base["lock_round"] = lock_rounds(sc, base)
        k = {"bots": bots, "games_per_pair": games, "sweep": cmd, **lock_figures(base)}
        out["locks"].append(k)
        print(f"{bots}: {k['locked']} of {k['games']} games locked ({k['locked_share']:.1%}, 95% CI "
              f"{k['locked_ci'][0]:.1%}-{k['locked_ci'][1]:.1%}); {k['draws_locked']} of the {k['draws']} draws; "
              f"locked games won: {k['locked_won']}")
        if bots == shown:
            out["matchups"] = {"bots": bots, "rows": matchups(base)}
        if not compare:
            continue
        for name, scenario, rule in VARIANTS:
            vcmd = sweep(scenario, bots, games, folder / name, a.workers)
            v = variant_figures(base, games_of(folder / name), folder / "base", folder / name)
            out["end_rules"].append({"bots": bots, "variant": name, "rule": rule, "sweep": vcmd,
                                     "compare": f"simkit compare {folder / 'base'} {folder / name}", **v})
            print(f"  {name}: {v['draws_sentence']}; {v['rounds_sentence']}; balance: {v['verdict_sentence']}")
    if a.json_out:
        Path(a.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json_out).write_text(json.dumps(out, indent=1, default=float) + "\n")
        print(f"written: {a.json_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
