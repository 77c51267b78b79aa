"""Balance reports: Axes-first plots (:mod:`simkit.report.plots`) and the PDF assemblers.

``plot_x(ax, table)`` functions draw one analysis table each and are meant for notebooks too;
:func:`write_balance_report` / :func:`balance_report` assemble the multi-page PDF and CSVs.
"""

from simkit.report.balance import balance_report, headlines, load_checked_results, write_balance_report
from simkit.report.plots import (
    plot_card_win_rates,
    plot_deck_ratings,
    plot_deck_win_rates,
    plot_delta_heatmap,
    plot_deltas,
    plot_end_reasons,
    plot_first_player,
    plot_first_player_matchups,
    plot_flags,
    plot_game_length,
    plot_matchup_heatmap,
    plot_nash_mix,
    plot_nash_shift,
    plot_pair_synergy,
)

__all__ = [
    "balance_report",
    "headlines",
    "load_checked_results",
    "plot_card_win_rates",
    "plot_deck_ratings",
    "plot_deck_win_rates",
    "plot_delta_heatmap",
    "plot_deltas",
    "plot_end_reasons",
    "plot_first_player",
    "plot_first_player_matchups",
    "plot_flags",
    "plot_game_length",
    "plot_matchup_heatmap",
    "plot_nash_mix",
    "plot_nash_shift",
    "plot_pair_synergy",
    "write_balance_report",
]
