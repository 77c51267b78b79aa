"""``simkit show``: a scenario's effective numbers after ``extends``, and what a patch changes."""

from __future__ import annotations

import argparse
import fnmatch
import json


def run(args: argparse.Namespace) -> int:
    """Print every key of the merged scenario (or those matching the patterns), marking a patch's changes."""
    from simkit.scenario import base_of, flat_keys, load_scenario

    sc = load_scenario(args.scenario)
    keys = flat_keys(sc.data)
    parent = base_of(sc.path)
    before = flat_keys(load_scenario(parent).data) if parent is not None else {}
    shown = [k for k in keys if not args.keys or any(fnmatch.fnmatchcase(k, p) or k.startswith(p + ".")
                                                      for p in args.keys)]
    if args.keys and not shown:
        raise ValueError(f"{sc.path}: no key matches {' '.join(args.keys)} (try a table name, e.g. 'rules')")
    changed = [k for k in keys if parent is not None and before.get(k, ...) != keys[k]]
    print(f"{sc.name} ({sc.path}): {sc.game.title}, {len(sc.decks)} {sc.game.schema.deck_words}s, hash {sc.hash}"
          + (f"; extends {parent.name}, {len(changed)} key(s) changed" if parent is not None else ""))
    for k in shown:
        value = json.dumps(keys[k], ensure_ascii=False)
        if args.changed and k not in changed:
            continue
        mark = ""
        if k in changed:
            mark = f"   # {parent.name}: {json.dumps(before[k], ensure_ascii=False)}" if k in before else "   # new"
        print(f"{k} = {value}{mark}")
    return 0


def register(sub) -> None:
    """Add the ``show`` command."""
    p = sub.add_parser(
        "show",
        help="print a scenario's effective numbers after extends (a patch's changes marked)",
        description="Print every key of the scenario as simkit reads it, its patches merged in. For a patch, "
        "each key it changes carries its base's value in a comment.",
    )
    p.add_argument("scenario", help="scenario TOML")
    p.add_argument("keys", nargs="*", metavar="KEY",
                   help="only these keys or tables (shell patterns: 'creatures.*.L1.cost')")
    p.add_argument("--changed", action="store_true", help="only the keys a patch changes")
    p.set_defaults(func=run)
