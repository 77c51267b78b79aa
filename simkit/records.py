"""A recorded game, as ``simkit play --json`` writes it and ``simkit replay`` reads it (any game).

The record names the scenario, the two decks, the seed, the bots and the game's actions as JSON
lists; :func:`read_game_record` checks each key and turns the actions back into the tuples the
game's :class:`~simkit.games.Match` takes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simkit.games import as_action

__all__ = ["GameRecord", "as_action", "read_game_record", "write_game_record"]


@dataclass(frozen=True)
class GameRecord:
    """A recorded game as ``simkit play`` writes it (``ACTIONS_JSON``).

    Attributes:
        scenario: path of the scenario file.
        first_deck, second_deck: deck ids; the first deck moves first.
        actions: the single-match action tuples, in order.
        seed: the game's seed.
        bots: the bots' names, first player's then second's (empty when unknown).
    """

    scenario: Path
    first_deck: str
    second_deck: str
    actions: list[tuple] = field(repr=False)
    seed: int = 0
    bots: tuple[str, ...] = ()


def read_game_record(path: str | Path) -> GameRecord:
    """Read an ``ACTIONS_JSON`` file.

    The decks are ``first_deck`` and ``second_deck``, or a ``decks`` pair (as ``simkit play
    --json`` writes them). The scenario path it names is taken as written when that file exists,
    else relative to the record's own folder. Other keys (``result``) are ignored.

    Args:
        path: the JSON file.

    Returns:
        The :class:`GameRecord`.

    Raises:
        FileNotFoundError: the file is missing.
        ValueError: the file is not such a JSON object; the message names the key at fault.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: must be a JSON object with scenario, first_deck, second_deck and actions")
    if "decks" in data and "first_deck" not in data and "second_deck" not in data:
        decks = data["decks"]
        if not isinstance(decks, list) or len(decks) != 2 or not all(isinstance(d, str) for d in decks):
            raise ValueError(f"{path}: decks: must be [first_deck, second_deck], got {decks!r}")
        data = {**data, "first_deck": decks[0], "second_deck": decks[1]}
    for key in ("scenario", "first_deck", "second_deck"):
        if not isinstance(data.get(key), str):
            raise ValueError(f"{path}: {key}: missing or not a string")
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, list) and a and isinstance(a[0], str) for a in actions):
        raise ValueError(f"{path}: actions: must be a list of action lists such as [\"end_turn\"]")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"{path}: seed: must be an integer, got {seed!r}")
    bots = data.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"{path}: bots: must be a list of bot names, got {bots!r}")
    scenario = Path(data["scenario"])
    if not scenario.is_absolute() and not scenario.exists() and (path.parent / scenario).exists():
        scenario = path.parent / scenario
    return GameRecord(
        scenario=scenario,
        first_deck=data["first_deck"],
        second_deck=data["second_deck"],
        actions=[as_action(a) for a in actions],
        seed=seed,
        bots=tuple(bots),
    )


def write_game_record(path: str | Path, scenario: str, decks: Sequence[str], seed: int, bots: Sequence[str],
                      actions: Sequence[Sequence], result: dict) -> None:
    """Write a game record (``scenario``, ``decks``, ``seed``, ``bots``, ``actions``, ``result``) as JSON."""
    record = {
        "scenario": str(scenario), "decks": list(decks), "seed": int(seed), "bots": list(bots),
        "actions": [_json_action(a) for a in actions], "result": result,
    }
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _json_action(action: Sequence) -> list:
    return [list(x) if isinstance(x, tuple) else x for x in action]
