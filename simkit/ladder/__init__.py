"""The skill ladder: does the player matter? Bots of rising strength play each other over random deals, every deal
in both seat orders on the same seeds, and each match says which bot plays better and how much of the outcome the
players decide, the deck pairing and seats, and the seed (``simkit ladder``)."""

from simkit.ladder.play import deal, play_match, round_robin_scores, rung_cost, tally
from simkit.ladder.run import is_ladder_folder, read_ladder, run_ladder
from simkit.ladder.settings import LadderSettings

__all__ = ["LadderSettings", "run_ladder", "read_ladder", "is_ladder_folder", "deal", "play_match", "tally",
           "round_robin_scores", "rung_cost"]
