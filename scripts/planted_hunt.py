"""Print how many planted rule bugs `simkit check --profile ci` catches, per game.

Each bug of tests/testing/test_planted_bugs.py is planted, one at a time, into a copy of the game's one rules
source (compiled once into the pytest cache folder, shared with the tests), and the ci check is run
on the base scenario; a bug counts as caught when a rule check reports it (a rule example, or a clause
of the game's checks). Usage::

    PYTHONPATH=$PWD python scripts/planted_hunt.py --game duel
    PYTHONPATH=$PWD python scripts/planted_hunt.py --game miracle --without-examples   # the invariants alone
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(p) for p in (ROOT / "tests").glob("**/")]

import test_planted_bugs as T  # noqa: E402

import simkit  # noqa: E402
from simkit.testing.planting import caught_by_check  # noqa: E402

GAMES = {"duel": (T.DUEL_PLANTED, T.duel_planter, "duel"), "krypton": (T.KRYPTON_PLANTED, T.krypton_planter, "krypton"),
         "magic": (T.MAGIC_PLANTED, T.magic_planter, "magic")}


#: Bugs to plant (empty: all of them); ``--bug`` fills it.
ONLY: set[str] = set()


def miracle_rule_checks() -> set[str]:
    """The names of Battle of Miracles' rule invariants: what counts as a catch (not the bots' listing of the
    legal actions, nor a batch parting from its games: a planted copy of the rules is not played by the compiled
    bots, so those are artefacts)."""
    from simkit.games.miracle.checking import invariants, rule_invariants

    return {i.name for m in (invariants, rule_invariants) for i in (*m.STATE_INVARIANTS, *m.TRANSITION_INVARIANTS)}


def hunt_miracle(folder: Path, examples_first: bool = True) -> tuple[int, int]:
    """Battle of Miracles' hunt: what `simkit check --profile ci` runs, its rule examples first, then its state
    machine (the ci budget, seed 0, scenario variants; no shrinking: it does not change what is caught)."""
    from simkit.games.miracle.checking.examples import run_examples_first

    base = simkit.load_scenario(ROOT / "scenarios" / "miracle" / "base.toml")
    checks = miracle_rule_checks()
    caught, bugs = 0, [b for b in T.PLANTED if not ONLY or b in ONLY]
    for bug in bugs:
        start = time.perf_counter()
        with pytest.MonkeyPatch.context() as monkeypatch:
            T.planter(bug)(monkeypatch, folder)
            failure = run_examples_first(base)[1] if examples_first else None
            if failure is not None:
                ok, by = True, "example " + failure.splitlines()[0].split(": example ", 1)[-1]
            else:
                found, _ = T.hunt(base)
                broken = set(found.broken) if found is not None else set()
                ok = bool(broken & checks)
                by = ", ".join(sorted(broken)) if found is not None else "unnoticed"
        caught += ok
        print(f"  {bug:40} {'caught' if ok else 'MISSED'} by {by} ({time.perf_counter() - start:.0f} s)", flush=True)
    return caught, len(bugs)


def hunt_game(game: str, folder: Path, out: Path, examples_first: bool = True) -> tuple[int, int]:
    """Plant each bug of ``game`` and run the ci check; print one line a bug; ``(caught, planted)``."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    if game == "miracle":
        return hunt_miracle(folder, examples_first)
    planted, planter, folder_name = GAMES[game]
    scenario = ROOT / "scenarios" / folder_name / "base.toml"
    caught, planted = 0, [b for b in planted if not ONLY or b in ONLY]
    for bug in planted:
        start = time.perf_counter()
        with pytest.MonkeyPatch.context() as monkeypatch:
            planter(bug, folder)(monkeypatch)
            ok, by = caught_by_check(scenario, profile="ci", out_dir=out, examples_first=examples_first)
        caught += ok
        print(f"  {bug:40} {'caught' if ok else 'MISSED'} by {by} ({time.perf_counter() - start:.0f} s)", flush=True)
    return caught, len(planted)


def main(argv=None) -> int:
    """Run the hunt for the named games and print the catch figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", choices=[*GAMES, "miracle"], help="game(s) to hunt (default: all)")
    p.add_argument("--folder", default=str(ROOT / ".pytest_cache" / "d" / "planted-bugs"),
                   help="where the planted copies are compiled (default: the tests' cache folder)")
    p.add_argument("--out", default=str(ROOT / "reports" / "check"), help="folder for the failing cases")
    p.add_argument("--without-examples", action="store_true",
                   help="skip the rule examples: what the restated clauses and invariants catch alone")
    p.add_argument("--bug", action="append", default=[], help="plant only this bug (repeat for more)")
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore", message=".*can never be paid")  # the check's variants: costs past their cap
    ONLY.update(args.bug)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    for game in args.game or [*GAMES, "miracle"]:
        print(f"{game}: planting each bug and running simkit check --profile ci", flush=True)
        caught, planted = hunt_game(game, folder, Path(args.out), not args.without_examples)
        how = " without its rule examples" if args.without_examples else ""
        print(f"{game}: simkit check --profile ci{how} caught {caught} of {planted} planted bugs "
              f"({100 * caught / planted:.0f}%)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
