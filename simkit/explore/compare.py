"""Did the metagame move? Two explore runs of the same pool (base and patch), read from their folders.

The patch run should start from the base run's population (``simkit explore PATCH --start-from BASE``):
then every pairing of the base's metagame decks is played under the patch too, and the base's
mixture can be scored in the patched game: its exploitability there (the best rate any deck of
the patch's population gets against it, minus 1/2) says how far the patch moved the metagame.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from simkit.explore.tally import Tally
from simkit.sweep import load_results


def metagame_shift(base: str | Path, patch: str | Path) -> dict:
    """The two metagames side by side and the base mixture's exploitability in the patched game.

    Returns:
        dict with ``weights`` (DataFrame ``deck, base_weight, patch_weight``, every deck of either
        mixture), ``base_in_patch`` (the best rate a deck of the patch's population gets against the
        base mixture, minus 1/2; None when the patch did not play every pairing of the base's
        mixture decks with them) and its ``best_response``, and both runs' exploitabilities.

    Raises:
        ValueError: a folder that is not a finished explore run, or runs of different pools.
    """
    sums = []
    for folder in (base, patch):
        path = Path(folder) / "summary.json"
        if not path.exists():
            raise ValueError(f"{folder}: not a finished explore run (no summary.json)")
        sums.append(json.loads(path.read_text(encoding="utf-8")))
    b, p = sums
    games = load_results(patch)
    decks = list(games.attrs["meta"]["decks"])
    if list(load_results(base).attrs["meta"]["decks"]) != decks:
        raise ValueError("metagame_shift: the two runs explore different deck pools")
    names = sorted(set(b["metagame"]) | set(p["metagame"]))
    weights = pd.DataFrame({"deck": names, "base_weight": [b["metagame"].get(d, 0.0) for d in names],
                            "patch_weight": [p["metagame"].get(d, 0.0) for d in names]})
    tally = Tally(decks, games)
    code = {d: i for i, d in enumerate(decks)}
    mix = [code[d] for d in b["metagame"]]
    w = list(b["metagame"].values())
    best, best_deck = None, None
    for deck in p["population"]:
        est, se = tally.against(code[deck], mix, w)
        if se == float("inf"):
            return {"weights": weights, "base_in_patch": None, "best_response": None,
                    "base_exploitability": b["exploitability"], "patch_exploitability": p["exploitability"]}
        if best is None or est > best:
            best, best_deck = est, deck
    return {"weights": weights, "base_in_patch": best - 0.5, "best_response": best_deck,
            "base_exploitability": b["exploitability"], "patch_exploitability": p["exploitability"]}
