"""Outside bots by name: where each is defined (a scenario's ``[bots.NAME] command``, or ``--bot NAME=COMMAND``),
its time limits, and whether the command line allows simkit to start it.

A scenario may name a program as a bot::

    [bots.mine]
    command = ["python3", "bots/mine.py"]   # run in the scenario file's folder
    decision_seconds = 5.0                  # optional: the longest one answer may take
    game_seconds = 300.0                    # optional: the most the bot may think in one game
    start_seconds = 10.0                    # optional: added to the first answer of a freshly started program
    protocol = "sdk"                        # optional: another protocol the game speaks (default "simkit")

but simkit starts it only when the command line allows it (``--allow-bot mine``); a program given on the command
line (``--bot mine='python3 mine.py'``, run in the current folder) is allowed by being given. The permission is
this process's (and its forked workers'): :func:`allow` and :func:`give` set it, the commands call them from their
flags (:func:`configure`).

A bot speaks simkit's protocol (``"simkit"``: JSON lines, ``docs/outside-bots.md``) unless its ``protocol`` names
another its game speaks (the game's ``outside.PROTOCOLS``; Battle of Miracles speaks ``"sdk"``, the original
competition server's); on the command line, ``--bot-protocol NAME=PROTOCOL``.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from simkit.core.errors import ScenarioError

__all__ = ["SIMKIT_PROTOCOL", "OutsideBot", "OutsideBotRefused", "allow", "check_allowed", "configure", "give",
           "outside_bots", "protocols_of", "reset", "split_scenario_bots"]

#: the keys of an outside bot's table, with their defaults
TIME_DEFAULTS = {"decision_seconds": 5.0, "game_seconds": 300.0, "start_seconds": 10.0}
#: the protocol every game speaks (JSON lines, docs/outside-bots.md); a game may speak others (its PROTOCOLS)
SIMKIT_PROTOCOL = "simkit"


class OutsideBotRefused(ValueError):
    """An outside bot would be started, but the command line does not allow it (the message says what would run)."""


@dataclass(frozen=True)
class OutsideBot:
    """A bot that is a program simkit starts and speaks to (``docs/outside-bots.md``).

    Attributes:
        name: its bot name.
        command: the program and its arguments (no shell).
        cwd: the folder it runs in (a scenario's bot: the scenario file's folder; ``None``: the current one).
        source: where it was defined, in words (``scenarios/duel/mine.toml [bots.mine]``, ``--bot mine``).
        decision_seconds, game_seconds, start_seconds: its time limits (see the module's docstring).
        protocol: the protocol it speaks (:data:`SIMKIT_PROTOCOL`, or one its game declares).
    """

    name: str
    command: tuple[str, ...]
    cwd: str | None = None
    source: str = "--bot"
    decision_seconds: float = TIME_DEFAULTS["decision_seconds"]
    game_seconds: float = TIME_DEFAULTS["game_seconds"]
    start_seconds: float = TIME_DEFAULTS["start_seconds"]
    protocol: str = SIMKIT_PROTOCOL

    def shown(self) -> str:
        """The command as a shell would read it."""
        return shlex.join(self.command)

    def as_table(self) -> dict:
        """The bot as the scenario's ``[bots.NAME]`` table holds it (what the scenario's hash covers)."""
        table = {"command": list(self.command), **{k: getattr(self, k) for k in TIME_DEFAULTS}}
        return table if self.protocol == SIMKIT_PROTOCOL else {**table, "protocol": self.protocol}


def _time(path: Path, name: str, table: Mapping, key: str) -> float:
    value = table.get(key, TIME_DEFAULTS[key])
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ScenarioError(f"{path}: bots.{name}.{key}: must be a positive number of seconds, got {value!r}")
    return float(value)


def split_scenario_bots(path: Path, data: dict) -> tuple[dict, dict[str, OutsideBot]]:
    """``(data without its outside bots, the outside bots by name)``: a ``[bots.NAME]`` table holding ``command`` is
    an outside bot, taken out of ``[bots]`` so the game reads only its own bots.

    Raises:
        ScenarioError: a malformed outside bot table (``file: bots.NAME.key: problem``).
    """
    bots = data.get("bots")
    if not isinstance(bots, dict) or not any(isinstance(t, dict) and "command" in t for t in bots.values()):
        return data, {}
    own, outside = {}, {}
    for name, table in bots.items():
        if not (isinstance(table, dict) and "command" in table):
            own[name] = table
            continue
        unknown = sorted(set(table) - {"command", "protocol", *TIME_DEFAULTS})
        if unknown:
            raise ScenarioError(f"{path}: bots.{name}.{unknown[0]}: unknown key of an outside bot (known: command, "
                                f"{', '.join(TIME_DEFAULTS)}, protocol)")
        protocol = table.get("protocol", SIMKIT_PROTOCOL)
        if not isinstance(protocol, str) or not protocol:
            raise ScenarioError(f"{path}: bots.{name}.protocol: must be a protocol's name such as \"sdk\", got "
                                f"{protocol!r}")
        command = table["command"]
        if isinstance(command, str):
            command = shlex.split(command)
        if not (isinstance(command, list) and command and all(isinstance(w, str) and w for w in command)):
            raise ScenarioError(f"{path}: bots.{name}.command: must be the program and its arguments, a list of "
                                f"words such as [\"python3\", \"bot.py\"], got {table['command']!r}")
        outside[name] = OutsideBot(name, tuple(command), str(path.parent.resolve()), f"{path} [bots.{name}]",
                                   **{k: _time(path, name, table, k) for k in TIME_DEFAULTS}, protocol=protocol)
    return {**data, "bots": own}, outside


# -- what the command line allows (this process and its forked workers) ------------------------------------------

_ALLOWED: set[str] = set()
_GIVEN: dict[str, OutsideBot] = {}
_TIMES: dict[str, float] = {}
_PROTOCOLS: dict[str, str] = {}


def allow(names: Iterable[str]) -> None:
    """Let simkit start the programs of the scenario's outside bots ``names`` (``--allow-bot``)."""
    _ALLOWED.update(names)


def give(name: str, command: str | Sequence[str]) -> OutsideBot:
    """Define (and allow) the outside bot ``name`` as ``command`` (``--bot NAME=COMMAND``; a string is split as a
    shell would, without running one), run in the current folder.

    Raises:
        ValueError: an empty name or command.
    """
    words = shlex.split(command) if isinstance(command, str) else list(command)
    if not name or not name.replace("-", "_").isidentifier():
        raise ValueError(f"--bot {name}={command}: the bot's name must be a word (letters, digits, _ or -)")
    if not words:
        raise ValueError(f"--bot {name}=: no command given (--bot NAME='python3 bot.py')")
    bot = OutsideBot(name, tuple(words), None, f"--bot {name}")
    _GIVEN[name] = bot
    _ALLOWED.add(name)
    return bot


def reset() -> None:
    """Forget every permission, command-line bot and time override (tests)."""
    _ALLOWED.clear()
    _GIVEN.clear()
    _TIMES.clear()
    _PROTOCOLS.clear()


def configure(allowed: Iterable[str] = (), given: Iterable[str] = (), decision_seconds: float | None = None,
              game_seconds: float | None = None, protocols: Iterable[str] = ()) -> None:
    """Set this process's permission from a command's flags: ``--allow-bot NAME`` (``allowed``), ``--bot
    NAME=COMMAND`` (``given``), ``--bot-time`` and ``--bot-game-time`` (time limits of every outside bot),
    ``--bot-protocol NAME=PROTOCOL`` (``protocols``: the protocol the outside bot NAME speaks).

    Raises:
        ValueError: a ``--bot`` or ``--bot-protocol`` without ``=``, or a time limit that is not a positive number.
    """
    for item in protocols:
        name, eq, protocol = (w.strip() for w in item.partition("="))
        if not eq or not name or not protocol:
            raise ValueError(f"--bot-protocol {item}: expected NAME=PROTOCOL (--bot-protocol mine=sdk)")
        _PROTOCOLS[name] = protocol
    for item in given:
        name, eq, command = item.partition("=")
        if not eq:
            raise ValueError(f"--bot {item}: expected NAME=COMMAND (--bot mine='python3 mine.py')")
        give(name.strip(), command)
    allow(allowed)
    for flag, key, value in (("--bot-time", "decision_seconds", decision_seconds),
                             ("--bot-game-time", "game_seconds", game_seconds)):
        if value is None:
            continue
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"{flag} {value}: must be a positive number of seconds")
        _TIMES[key] = float(value)


def outside_bots(scenario) -> dict[str, OutsideBot]:
    """The outside bots ``scenario`` plays with: its own ``[bots.NAME] command`` tables, then those given on the
    command line (``--bot``: a name given there replaces the scenario's), with the command line's time limits."""
    found = {**getattr(scenario, "outside_bots", {}), **_GIVEN}
    if _PROTOCOLS:
        found = {name: replace(bot, protocol=_PROTOCOLS.get(name, bot.protocol)) for name, bot in found.items()}
    return {name: replace(bot, **_TIMES) for name, bot in found.items()} if _TIMES else found


def protocols_of(game) -> tuple[str, ...]:
    """The protocols outside bots may speak to ``game``: simkit's, then those of its ``outside.PROTOCOLS``."""
    extra = game.spec.hook("protocols") if game.spec.has("protocols") else {}
    return (SIMKIT_PROTOCOL, *extra)


def check_allowed(scenario, names: Iterable[str]) -> None:
    """Refuse, before anything is played, to start a program the command line does not allow.

    Raises:
        OutsideBotRefused: one line naming the bot, the program it would run, where it is defined and the flag that
            allows it.
    """
    found = outside_bots(scenario)
    for name in _PROTOCOLS:
        if name not in found:
            raise ValueError(f"--bot-protocol {name}={_PROTOCOLS[name]}: no outside bot is named {name!r} (give it "
                             f"with --bot {name}=COMMAND, or in the scenario's [bots.{name}] command)")
    for name in dict.fromkeys(names):
        bot = found.get(name)
        if bot is not None and bot.protocol not in protocols_of(scenario.game):
            raise ValueError(f"bot {name!r} speaks the protocol {bot.protocol!r} (defined in {bot.source}), which "
                             f"{scenario.game.title} does not speak (its protocols: "
                             f"{', '.join(protocols_of(scenario.game))}). Nothing was played")
        if bot is not None and name not in _ALLOWED:
            raise OutsideBotRefused(
                f"bot {name!r} is an outside program and would run `{bot.shown()}`"
                f"{' in ' + bot.cwd if bot.cwd else ''} (defined in {bot.source}); simkit starts a program only "
                f"when the command line allows it: add --allow-bot {name}. Nothing was played")
