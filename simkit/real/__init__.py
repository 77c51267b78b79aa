"""Real games beside simulated ones: records of games people played, imported into a results folder.

- :mod:`~simkit.real.games_csv`: a studio's CSV of games (decks, winner, length, end reason), each row checked
  against the scenario and its game's result schema;
- :mod:`~simkit.real.store`: the real-games folder (``meta.json`` saying ``"source": "real games"``, the games in
  ``games.parquet`` and ``games.csv``), written all at once, read by :func:`simkit.load_results` like a sweep's;
- :mod:`~simkit.real.against`: real play against simulation, deck by deck and for the seat, each difference with
  its interval.

A game's own record format (Battle of Miracles' original server replays) is read by the game, through its
``original_replay`` capability (:data:`simkit.games.CAPABILITIES`), and replayed through its engine.
"""

from simkit.real.games_csv import CSV_COLUMNS, OPTIONAL_COLUMNS, read_games_csv
from simkit.real.store import REAL_BOT, REAL_SOURCE, import_games, is_real, load_real_results, write_real_folder

__all__ = ["CSV_COLUMNS", "OPTIONAL_COLUMNS", "REAL_BOT", "REAL_SOURCE", "import_games", "is_real",
           "load_real_results", "read_games_csv", "write_real_folder"]
