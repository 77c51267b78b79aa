"""Balance analysis: pure functions from the results DataFrame (one row per game) to tidy tables.

Each table answers one designer question: who beats whom (:func:`matchup_matrix`), how much going
first is worth (:func:`first_player_advantage`), how strong each deck is (:func:`deck_strength`),
how the games play (:func:`experience_tables`: length, comebacks, games decided early, draws),
which cards carry their decks (:func:`card_win_rates`, :func:`card_pair_synergy`) and what each card did
in the games (:func:`card_usage`, from the engines' counters), what a field
of perfect adapters would play (:func:`metagame`), how games go (:func:`game_shape`,
:func:`turn_counts`) and what needs a look first (:func:`balance_flags`). :func:`analyze` computes
them all. No game package is imported: end reasons, per-side columns and deck cards are read from the
results' metadata (the game's result schema and deck cards, recorded by the sweep).
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from simkit.analysis.cards import card_pair_synergy, card_usage, card_usage_change, card_win_rates, deck_membership
from simkit.analysis.experience import experience_figures, experience_flags, experience_tables
from simkit.analysis.first_player import first_player_advantage, seat_measured
from simkit.analysis.flags import (
    FLAG_COLUMNS,
    FlagBands,
    balance_flags,
    flag_subjects,
    matchup_flag_reach,
    min_games_to_flag,
)
from simkit.analysis.forfeits import forfeit_table, forfeit_words, ordinary_games
from simkit.analysis.matchups import matchup_matrix, win_rate_table
from simkit.analysis.metagame import first_seat_rates, metagame, nash_mix, pool_metagame, seat_metagame
from simkit.analysis.results import (
    card_membership,
    check_results,
    deck_card_table,
    deck_games,
    deck_pool,
    first_score,
    meta_of,
    pairing_games,
    results_schema,
    seat_pools,
)
from simkit.analysis.shape import game_shape, side_numbers, turn_counts
from simkit.analysis.stats import adjust_p, p_beyond, p_beyond_exact, paired_delta, sign_test, wilson_interval
from simkit.analysis.strength import bradley_terry, deck_strength

__all__ = [
    "FLAG_COLUMNS",
    "FlagBands",
    "TABLES",
    "adjust_p",
    "analyze",
    "balance_flags",
    "flag_subjects",
    "bradley_terry",
    "card_membership",
    "card_usage",
    "card_usage_change",
    "card_win_rates",
    "check_results",
    "card_pair_synergy",
    "deck_card_table",
    "deck_membership",
    "deck_games",
    "deck_pool",
    "deck_strength",
    "experience_figures",
    "experience_flags",
    "experience_tables",
    "first_player_advantage",
    "forfeit_table",
    "forfeit_words",
    "ordinary_games",
    "seat_measured",
    "first_score",
    "first_seat_rates",
    "game_shape",
    "matchup_flag_reach",
    "matchup_matrix",
    "meta_of",
    "results_schema",
    "metagame",
    "min_games_to_flag",
    "nash_mix",
    "pairing_games",
    "pool_metagame",
    "seat_metagame",
    "seat_pools",
    "p_beyond",
    "p_beyond_exact",
    "paired_delta",
    "side_numbers",
    "sign_test",
    "turn_counts",
    "wilson_interval",
    "win_rate_table",
]

TABLES = ("decks", "matchups", "first_player", "cards", "card_pairs", "card_usage", "metagame", "game_shape", "turns",
          "side_numbers", "flags", "forfeits")


def analyze(df: pd.DataFrame, bootstrap: int = 200, seed: int = 0, bands: FlagBands | None = None) -> dict:
    """Every balance table of one results dataset.

    Args:
        df: the results, one row per game (checked with :func:`check_results`).
        bootstrap: bootstrap replicas of the rating intervals.
        seed: seed of the bootstrap.
        bands: flag thresholds and correction (default :class:`FlagBands`).

    Returns:
        dict with the tables named in :data:`TABLES` (``decks`` strongest first, the order the
        report uses), ``flag_reach`` (:func:`matchup_flag_reach`: how many games a matchup
        needs before it can be flagged), ``meta`` (:func:`meta_of`), ``pairing_games`` (games of every
        pairing the two seat pools make, :func:`pairing_games`: what every page counts), ``bands`` (the
        :class:`FlagBands` used), ``schema`` (the game's :class:`~simkit.games.ResultSchema`) and ``experience``
        (how the games play, :func:`~simkit.analysis.experience.experience_tables`: figures and flags, or the line
        saying why the results have none).

    Every table counts only the games played to their end: games an outside bot forfeited are left out of them
    and counted in ``forfeits`` (:func:`~simkit.analysis.forfeits.forfeit_table`).

    Raises:
        ValueError: when the results break the contract (see :func:`check_results`).
    """
    check_results(df)
    forfeits = forfeit_table(df)  # games an outside bot forfeited: counted apart, in no other table
    df = ordinary_games(df)
    bands = bands or FlagBands()
    matchups = matchup_matrix(df)
    first_player = first_player_advantage(df)
    tables = {
        "decks": deck_strength(df, bootstrap=bootstrap, seed=seed),
        "matchups": matchups,
        "first_player": first_player,
        "cards": card_win_rates(df),
        "card_pairs": card_pair_synergy(df),
        "card_usage": card_usage(df),
        "metagame": pool_metagame(df, matchups),
        "game_shape": game_shape(df),
        "turns": turn_counts(df),
        "flags": balance_flags(df, bands, matchups=matchups, first_player=first_player),
        "flag_reach": matchup_flag_reach(matchups, bands, seatings=seat_pools(df).fewest_seatings()),
        "side_numbers": side_numbers(df),
        "meta": meta_of(df),
        "pairing_games": pairing_games(df),
        "bands": bands,
        "schema": results_schema(df),
        "forfeits": forfeits,
        "experience": experience_tables(df, bands),
    }
    adaptive = ((df.attrs.get("meta") or {}).get("plan") or {}).get("adaptive")
    if adaptive:  # an adaptive sweep: anytime-valid intervals and flags, decks weighted per opponent
        from simkit.analysis.sequential import AdaptiveSettings, adaptive_tables

        settings = AdaptiveSettings.from_dict(adaptive)
        settings = replace(settings, deck=bands.deck, matchup=bands.matchup, first_player=bands.first_player,
                           alpha=bands.alpha, method=bands.method,
                           matchup_method=bands.matchup_method)
        tables = adaptive_tables(df, tables, settings)
    return tables
