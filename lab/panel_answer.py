"""Does the player matter? The answer from a panel sweep of any game (issue 15 point 5, issue 32 point 4).

    simkit sweep scenarios/miracle/base.toml --games 1 --panel balanced,rush,control,search-2 --out DIR
    python lab/panel_answer.py DIR [--top search-2]

Prints each bot's ten strongest decks, the rank agreement of every bot with the top rung (Spearman
and Kendall with bootstrap intervals, top-10 overlap), the flags raised under `balanced` and whether
each holds at the top rung, and the card win rates under each bot.
"""

from __future__ import annotations

import argparse

import pandas as pd

from simkit import load_results
from simkit.analysis import card_win_rates
from simkit.analysis.robustness import robustness


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results")
    p.add_argument("--top", default=None, help="the top rung (default: the panel's last bot)")
    p.add_argument("--bootstrap", type=int, default=200)
    args = p.parse_args()
    df = load_results(args.results)
    r = robustness(df, bootstrap=args.bootstrap)
    bots = r["bots"]
    top = args.top or bots[-1]
    rates = r["deck_rates"]
    games = df.groupby("first_bot").size().to_dict()
    print(f"{len(rates)} decks; games per bot: {games}")
    for b in bots:
        best = rates[b].sort_values(ascending=False).head(10)
        print(f"\n{b}: ten strongest decks")
        for deck, v in best.items():
            print(f"  {100 * v:5.1f}%  {deck}")
    a = r["agreement"]
    print(f"\nagreement with {top} (Spearman, Kendall with 95% bootstrap intervals; top-10 overlap)")
    for row in a[(a["bot_a"] == top) | (a["bot_b"] == top)].itertuples():
        other = row.bot_b if row.bot_a == top else row.bot_a
        print(f"  {other:<10} Spearman {row.spearman:+.2f} [{row.spearman_low:+.2f}, {row.spearman_high:+.2f}]  "
              f"Kendall {row.kendall:+.2f} [{row.kendall_low:+.2f}, {row.kendall_high:+.2f}]  "
              f"top-{row.top_k} overlap {100 * row.top_overlap:.0f}%")
    print("\nall pairs:")
    print(a[["bot_a", "bot_b", "spearman", "kendall", "top_overlap"]].round(2).to_string(index=False))
    f = r["flags"]
    first = bots[0]
    print(f"\nflags raised under {first}, and their value under each bot (robust = beyond the same edge under all)")
    mine = f[f["flagged_by"].str.contains(first)]
    cols = ["kind", "subject", "label"] + [f"value_{b}" for b in bots]
    with pd.option_context("display.width", 250, "display.max_colwidth", 70):
        print(mine[cols].round(3).to_string(index=False) if len(mine) else "  none")
        print(f"\nevery flag under any bot: {len(f)}, robust: {int(f['robust'].sum())}")
        print(f[f["robust"]][cols].round(3).to_string(index=False) if f["robust"].any() else "  no robust flag")
    print("\ncard win rates by bot")
    cards = {b: card_win_rates(df[df["first_bot"] == b]).set_index("card")["win_rate"] for b in bots}
    print((pd.DataFrame(cards) * 100).round(1).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
