"""``simkit compare``: two sweeps of the same deck pool -> a PDF of what the patch changed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    """Compare the two results folders, print the verdict and what the patch changed, write the report."""
    from simkit.analysis.paired import compare_results
    from simkit.report.balance import load_checked_results
    from simkit.report.comparison import write_compare_report
    from simkit.report.document import output_paths

    if Path(args.base).resolve() == Path(args.patch).resolve():
        raise ValueError(f"{args.base}: compared with itself: give the base's folder and the patch's")
    base, patch = Path(args.base).resolve().name, Path(args.patch).resolve().name
    out = args.out or f"reports/{base}-vs-{patch}.pdf"
    output_paths(out, [])
    from simkit.explore.report import is_explore_folder

    if is_explore_folder(args.base) or is_explore_folder(args.patch):  # two explore runs: did the metagame move?
        from simkit.explore.compare import compare_runs

        return compare_runs(args.base, args.patch, out)
    base_games, patch_games = load_checked_results(args.base), load_checked_results(args.patch)
    for folder, games in ((args.base, base_games), (args.patch, patch_games)):
        if (games.attrs.get("meta") or {}).get("source") == "real games":  # no seeds to pair game by game
            raise ValueError(f"{folder}: holds real games, which have no seeds to pair with another sweep's: compare "
                             f"them with a sweep by simkit report {folder} --against SWEEP_DIR")
    tables = compare_results(base_games, patch_games)
    dropped = forfeits_left_out(base_games, patch_games)
    if dropped:
        print(dropped)
    v = tables["verdict"]
    print(f"verdict: {v['sentence']}")
    for key, before, after in v["changes"]:
        print(f"  changed: {key}: {_short(before)} -> {_short(after)}")
    from simkit.report.comparison import experience_change_text

    played = experience_change_text(tables)
    if played:
        print(played)
    bots = bots_changed(base_games.attrs.get("meta") or {}, patch_games.attrs.get("meta") or {})
    if bots:  # the bots that played differ between the two sweeps: the patch's own bots, not only its numbers
        print(f"simkit compare: warning: the patch also changes how {', '.join(bots)} play, so a change mixes the "
              f"patch's numbers with the bots' play; to compare the numbers alone, sweep the base with the patch's "
              f"bots: simkit sweep BASE.toml --bots-from PATCH.toml", file=sys.stderr)
    files = write_compare_report(tables, out)
    print(f"comparison: {files[0]}")
    print(f"tables: {len(files) - 1} CSV files beside it ({files[1].name}, ...)")
    return 0


def forfeits_left_out(base, patch) -> str | None:
    """One line saying how many games of each sweep an outside bot forfeited, whose and why: compare pairs only the
    games both sweeps played to their end (``None`` when neither has a forfeit)."""
    from simkit.analysis.forfeits import forfeit_parts, forfeit_table

    parts = []
    for name, df in (("base", base), ("patch", patch)):
        table = forfeit_table(df)
        lost = int(table["games"].sum()) if not table.empty else 0
        parts.append(f"{name} {lost} of {len(df)} games" + (f" ({forfeit_parts(table)})" if lost else ""))
    if all(p.split()[1] == "0" for p in parts):
        return None
    return (f"forfeits left out: {'; '.join(parts)}; compare pairs only the games both sweeps played to their end "
            "(a forfeited game pairs with none)")


def _short(value: object, most: int = 60) -> str:
    """A value as the terminal line shows it: its repr, a long one (a deck pool) cut with its length said."""
    text = repr(value)
    if len(text) <= most:
        return text
    size = f", {len(value)} items" if isinstance(value, list | tuple | dict) else ""
    return f"{text[:most - 3]}...{size}"


def bots_changed(base_meta: dict, patch_meta: dict) -> list[str]:
    """The bots that played both sweeps whose tables differ between the two scenarios: the bot's own table with its
    ``like`` chain, the bots it names (a search bot's ``policy``) and ``[bots]``' own settings."""
    import json

    from simkit.scenario import Field, resolve_like

    def tables(meta: dict) -> dict:
        data = json.loads(meta.get("scenario_text") or "{}")
        return data.get("bots") if isinstance(data.get("bots"), dict) else {}

    a, b = tables(base_meta), tables(patch_meta)

    def resolved(bots: dict, name: str):
        if not isinstance(bots.get(name), dict):
            return bots.get(name)
        try:
            return resolve_like(Field("", bots), name)
        except ValueError:
            return bots.get(name)

    settings = {k for k in {**a, **b} if not isinstance(a.get(k, b.get(k)), dict)}
    changed = []
    for bot in dict.fromkeys([*base_meta.get("bots", []), *base_meta.get("panel", [])]):
        seen, todo = set(), [bot]
        while todo:  # the bot and every bot its table names
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for table in (resolved(a, name), resolved(b, name)):
                if isinstance(table, dict):
                    todo += [v for v in table.values() if isinstance(v, str) and isinstance({**a, **b}.get(v), dict)]
        if any(resolved(a, n) != resolved(b, n) for n in seen) or any(a.get(k) != b.get(k) for k in settings):
            changed.append(bot)
    return changed


def register(sub) -> None:
    """Add the ``compare`` command."""
    p = sub.add_parser(
        "compare",
        help="write a PDF of what a patch changed, from a base and a patch sweep",
        description="Pair the games of two sweeps of the same deck pool (same decks, seats, game numbers and "
        "seeds) and report per-deck, per-card, first-player and matchup changes with paired intervals, the "
        "Nash mix before and after, and the flags that appeared or vanished.",
    )
    p.add_argument("base", metavar="BASE_DIR", help="results folder of the base sweep")
    p.add_argument("patch", metavar="PATCH_DIR", help="results folder of the patched sweep")
    p.add_argument("-o", "--out", metavar="NAME.pdf", help="the PDF to write (default: reports/BASE-vs-PATCH.pdf)")
    p.set_defaults(func=run)
