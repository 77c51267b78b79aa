"""The explore run's short PDF: the metagame, every searched deck against it, the games per matchup, the archive."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_pdf(path: Path, answers: dict, title: str) -> None:
    """Write the two-page summary PDF of ``answers`` (from :func:`simkit.explore.outputs.analyse`) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    s = answers["summary"]
    decks = answers["decks"]
    with PdfPages(path, metadata={"CreationDate": None, "ModDate": None, "Producer": "simkit explore"}) as pdf:
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(8.27, 11.69))
        meta = answers["metagame"]
        meta = meta[meta["weight"] > 0]
        a1.barh(meta["deck"][::-1], meta["weight"][::-1], color="#4477aa")
        a1.set_xlabel("weight in the metagame (Nash mixture)")
        lo, hi = s["exploitability_interval"]
        a1.set_title(f"{title}\nthe metagame of a population of {len(s['population'])} decks, {s['games']:,} games\n"
                     f"exploitability {s['exploitability']:+.3f} [{lo:+.3f}, {hi:+.3f}]; guarantee "
                     f"{'met' if s['guarantee_met'] else 'NOT met'} (epsilon {s['epsilon']:g})", fontsize=9)
        a1.tick_params(axis="y", labelsize=7)
        srch = decks[decks["searched"]].sort_values("vs_mix")
        y = np.arange(len(srch))
        a2.errorbar(srch["vs_mix"], y, xerr=[srch["vs_mix"] - srch["vs_mix_low"], srch["vs_mix_high"] - srch["vs_mix"]],
                    fmt="o", ms=3, lw=0.6, color="#333333")
        a2.axvline(0.5, color="#999999", lw=0.8)
        a2.axvline(0.5 + s["epsilon"], color="#cc3311", lw=0.8, ls="--", label="1/2 + epsilon")
        a2.set_yticks(y, srch["deck"], fontsize=4)
        a2.set_xlabel("rate against the metagame (interval the race decided on)")
        a2.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        pdf.savefig(fig)
        plt.close(fig)

        fig, (b1, b2) = plt.subplots(2, 1, figsize=(8.27, 11.69), gridspec_kw={"height_ratios": [3, 2]})
        m = answers["matchups"]
        names = list(decks["deck"])
        grid = np.zeros((len(names), len(names)))
        pos = {d: i for i, d in enumerate(names)}
        grid[m["first_deck"].map(pos), m["second_deck"].map(pos)] = m["games"]
        im = b1.imshow(grid, cmap="viridis", interpolation="nearest")
        fig.colorbar(im, ax=b1, label="games")
        b1.set_title(f"games per ordered pair (first deck rows, second columns): {s['pairs_played']:,} of "
                     f"{len(names) ** 2:,} pairs played", fontsize=9)
        b1.set_xticks([])
        b1.set_yticks([])
        arch = answers["archive"]
        b2.axis("off")
        lines = ["Archive: the strongest deck of every style cell (rate against the field)"]
        for r in arch.itertuples(index=False):
            d = r._asdict()
            cell = ", ".join(f"{k}={d[k]}" for k in arch.columns[: list(arch.columns).index("deck")])
            lines.append(f"{cell}: {d['deck']}  {d['strength']:.3f}{'' if d['measured'] else ' (predicted)'}")
        lines.append("")
        lines.append("Dead cards: " + (", ".join(s["dead_cards"]) or "none"))
        b2.text(0, 1, "\n".join(lines[:45]), va="top", family="monospace", fontsize=6)
        fig.tight_layout()
        pdf.savefig(fig)
        plt.close(fig)
