"""A recorded game, as ``simkit play --json`` writes it and ``simkit replay`` reads it (any game).

The record names the scenario, the two decks, the seed, the bots and the game's actions as JSON
lists; :func:`read_game_record` checks each key and turns the actions back into the tuples the
game's :class:`~simkit.games.Match` takes. It also keeps the scenario's hash and its merged
numbers, so a replay under a scenario edited since is refused naming what changed
(:func:`check_scenario`) instead of silently showing another game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simkit.core.rng import SEED_MAX

__all__ = ["GameRecord", "as_action", "check_scenario", "read_game_record", "write_game_record"]


def as_action(raw: Sequence) -> tuple:
    """An action as the single-match tuple: JSON lists (``["move", 3, [-5, 5, 0]]``) become tuples, nested too."""
    return tuple(as_action(x) if isinstance(x, list | tuple) else x for x in raw)


@dataclass(frozen=True)
class GameRecord:
    """A recorded game as ``simkit play`` writes it (``ACTIONS_JSON``).

    Attributes:
        scenario: path of the scenario file.
        first_deck, second_deck: deck ids; the first deck moves first.
        actions: the single-match action tuples, in order.
        seed: the game's seed.
        bots: the bots' names, first player's then second's (empty when unknown).
        scenario_hash: the hash of the scenario the game was played under (``None``: an old record
            that keeps none).
        scenario_data: that scenario's merged numbers (``None`` when not kept).
        path: the record's own file (for messages).
        bots_from: the scenario file whose bots played (``simkit play --bots-from``), or ``None``.
    """

    scenario: Path
    first_deck: str
    second_deck: str
    actions: list[tuple] = field(repr=False)
    seed: int = 0
    bots: tuple[str, ...] = ()
    scenario_hash: str | None = None
    scenario_data: dict | None = field(default=None, repr=False)
    path: Path | None = None
    bots_from: Path | None = None


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
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}): "
                         "not a game record written by simkit play --json") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a folder, not a game record") from None
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise ValueError(f"{path}: no such game record") from None
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
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
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise ValueError(f"{path}: seed: must be an integer from 0 to {SEED_MAX} (2**63 - 1), got {seed!r}")
    bots = data.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"{path}: bots: must be a list of bot names, got {bots!r}")
    digest = data.get("scenario_hash")
    if digest is not None and not isinstance(digest, str):
        raise ValueError(f"{path}: scenario_hash: must be a string, got {digest!r}")
    numbers = data.get("scenario_data")
    if numbers is not None and not isinstance(numbers, dict):
        raise ValueError(f"{path}: scenario_data: must be a JSON object, got {type(numbers).__name__}")
    scenario = Path(data["scenario"])
    if not scenario.is_absolute() and not scenario.exists() and (path.parent / scenario).exists():
        scenario = path.parent / scenario
    bots_from = data.get("bots_from")
    if bots_from is not None and not isinstance(bots_from, str):
        raise ValueError(f"{path}: bots_from: must be a scenario file name, got {bots_from!r}")
    return GameRecord(
        scenario=scenario,
        first_deck=data["first_deck"],
        second_deck=data["second_deck"],
        actions=[as_action(a) for a in actions],
        seed=seed,
        bots=tuple(bots),
        scenario_hash=digest,
        scenario_data=numbers,
        path=path,
        bots_from=Path(bots_from) if bots_from else None,
    )


def _differences(old: object, new: object, key: str = "") -> list[str]:
    """Dotted keys where two merged scenarios differ, ``key: old -> new``, in sorted order."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            sub = f"{key}.{k}" if key else str(k)
            if k not in old:
                out.append(f"{sub}: added")
            elif k not in new:
                out.append(f"{sub}: removed")
            else:
                out += _differences(old[k], new[k], sub)
        return out
    if old == new:
        return []
    return [f"{key or '(top level)'}: {_short(old)} -> {_short(new)}"]


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def check_scenario(record: GameRecord, scenario) -> str | None:
    """Refuse to replay ``record`` under a scenario other than the one it was played under.

    Args:
        record: the game record.
        scenario: the loaded :class:`~simkit.scenario.Scenario` the replay would use.

    Returns:
        ``None`` when the hashes agree; a warning (one line) when the record keeps no hash, so
        the match cannot be checked.

    Raises:
        ValueError: the scenario's hash differs from the record's; the one-line message names the
            record, both hashes and the first keys that differ (when the record keeps its numbers).
    """
    where = record.path or "the game record"
    if record.scenario_hash is None:
        return (f"{where}: the record keeps no scenario hash (written by an older simkit), so it cannot be checked "
                f"that {scenario.path} is the scenario the game was played under")
    if record.scenario_hash == scenario.hash:
        return None
    what = ""
    if record.scenario_data is not None:
        diff = _differences(record.scenario_data, json.loads(scenario.text))
        if diff:
            more = f" and {len(diff) - 3} more" if len(diff) > 3 else ""
            what = f" ({'; '.join(diff[:3])}{more})"
    raise ValueError(f"{where}: played under scenario hash {record.scenario_hash}, but {scenario.path} now hashes to "
                     f"{scenario.hash}{what}: the scenario changed since, so the replay would show another game; "
                     "replay under the original file (--scenario)")


def write_game_record(path: str | Path, scenario, decks: Sequence[str], seed: int, bots: Sequence[str],
                      actions: Sequence[Sequence], result: dict) -> None:
    """Write a game record as JSON, atomically (a killed write leaves any earlier file whole).

    Args:
        path: the JSON file.
        scenario: the loaded :class:`~simkit.scenario.Scenario` (its path, hash and merged numbers are
            kept), or just its path (an unchecked record).
        decks, seed, bots, actions, result: the game.
    """
    from simkit.core.files import atomic_write

    record = {"scenario": str(getattr(scenario, "path", scenario))}
    if hasattr(scenario, "hash"):
        record["scenario_hash"] = scenario.hash
    if getattr(scenario, "bots_from", None) is not None:
        record["bots_from"] = str(scenario.bots_from)
    record.update({
        "decks": list(decks), "seed": int(seed), "bots": list(bots),
        "actions": [_json_action(a) for a in actions], "result": result,
    })
    if hasattr(scenario, "text"):
        record["scenario_data"] = json.loads(scenario.text)
    text = json.dumps(record, indent=1) + "\n"
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _json_action(action: Sequence) -> list:
    return [list(x) if isinstance(x, tuple) else x for x in action]
