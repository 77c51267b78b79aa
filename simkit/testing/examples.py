"""Rule examples as data: given a position, when actions, then the values the rules page requires.

A game's examples live beside its scenarios in ``examples.toml`` (``scenarios/<game>/examples.toml``),
written in the game's own words so a designer who changes a rule edits its example::

    [[example]]
    name = "Strike deals 2"
    clause = "1 damage: normal damage lowers HP by its amount"
    given = { distance = 1, first = { hand = ["Strike"] } }
    when = [["play", "Strike"]]
    then = { "second.hp" = 23 }
    unchanged = ["first.hp", "distance"]

``given`` is the game's own position words, ``when`` the actions (as the game's ``Match.do`` takes
them; ``refused = true`` expects the last one refused with nothing changed), ``then`` the values
after (dotted names into the game's position words) and ``unchanged`` values that must equal their
value before the actions. The game supplies the words through its ``check`` capability object:
``example_match(given)`` builds the position and ``example_values(match)`` returns it as nested
dicts (:func:`value_of` reads a dotted name). :func:`run_examples` runs them all and names the
first one that fails: the file, the example, its clause, expected vs got.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simkit.core.errors import IllegalAction, ScenarioError

__all__ = ["Example", "ExampleFailure", "examples_file", "load_examples", "run_examples", "value_of"]

_KEYS = {"name", "clause", "given", "when", "then", "unchanged", "refused"}
_MISSING = object()


@dataclass(frozen=True)
class Example:
    """One rule example: a position, actions, and the values the page requires afterwards."""

    name: str
    clause: str
    given: dict
    when: tuple
    then: dict = field(default_factory=dict)
    unchanged: tuple[str, ...] = ()
    refused: bool = False


@dataclass(frozen=True)
class ExampleFailure:
    """A failing example: what it said and what the game did."""

    path: Path
    example: Example
    problem: str

    def format(self) -> str:
        """One paragraph: file, example, clause, the problem, and the example's actions."""
        steps = ", ".join(repr(tuple(a)) for a in self.example.when) or "(no action)"
        return (f"rule example failed: {self.path}: example {self.example.name!r}\n"
                f"clause    {self.example.clause}\n{self.problem}\nactions   {steps}")


def examples_file(scenario) -> Path | None:
    """The ``examples.toml`` beside the scenario file, or None."""
    path = Path(scenario.path).resolve().parent / "examples.toml"
    return path if path.exists() else None


def load_examples(path: str | Path) -> list[Example]:
    """Read an examples file.

    Raises:
        ScenarioError: one line naming the file and the example or key at fault.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read the rule examples: {exc}") from None
    rows = data.get("example")
    if not isinstance(rows, list) or not rows:
        raise ScenarioError(f"{path}: no [[example]] tables")
    out, names = [], set()
    for k, row in enumerate(rows):
        where = f"{path}: example {k + 1} ({row.get('name', '?')!r})"
        unknown = set(row) - _KEYS
        if unknown:
            raise ScenarioError(f"{where}: unknown key {sorted(unknown)[0]!r} (keys: {', '.join(sorted(_KEYS))})")
        for key in ("name", "clause"):
            if not isinstance(row.get(key), str) or not row[key]:
                raise ScenarioError(f"{where}: {key}: must be a non-empty string")
        if row["name"] in names:
            raise ScenarioError(f"{where}: name: {row['name']!r} is used twice")
        names.add(row["name"])
        when = row.get("when", [])
        if not isinstance(when, list) or not all(isinstance(a, (list, str)) for a in when):
            raise ScenarioError(f"{where}: when: must be a list of actions (each a list like [\"advance\"])")
        if not isinstance(row.get("then", {}), dict) or not isinstance(row.get("unchanged", []), list):
            raise ScenarioError(f"{where}: then must be a table and unchanged a list of names")
        if not row.get("then") and not row.get("unchanged") and not row.get("refused"):
            raise ScenarioError(f"{where}: says nothing to check (give then, unchanged or refused)")
        out.append(Example(row["name"], row["clause"], dict(row.get("given", {})),
                           tuple(_action(a) for a in when),
                           dict(row.get("then", {})), tuple(row.get("unchanged", [])), bool(row.get("refused"))))
    return out


def _action(a) -> tuple:
    """An action from TOML: a list becomes a tuple, and so does each list inside it (a cell ``[c, r]``)."""
    if not isinstance(a, list):
        return (a,)
    return tuple(tuple(x) if isinstance(x, list) else x for x in a)


def value_of(values: Any, name: str):
    """The value at dotted ``name`` in nested dicts/lists (``"second.hp"``, ``"first.statuses.poison"``).

    Raises:
        KeyError: naming the part of ``name`` that is not there.
    """
    node = values
    for part in name.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            known = ", ".join(sorted(map(str, node))[:12]) if isinstance(node, dict) else type(node).__name__
            raise KeyError(f"{name!r}: no {part!r} (there: {known})")
    return node


def _same(want, got) -> bool:
    if isinstance(want, list) and isinstance(got, (list, tuple)):
        return len(want) == len(got) and all(_same(a, b) for a, b in zip(want, got))
    return want == got


def run_one(hook, example: Example) -> str | None:
    """Run one example; the problem (expected vs got) or None when it holds."""
    try:
        m = hook.example_match(example.given)
    except (ValueError, KeyError, TypeError, IllegalAction) as exc:
        return f"given: cannot build the position: {exc}"
    before = hook.example_values(m)
    for k, action in enumerate(example.when):
        last = k == len(example.when) - 1
        try:
            if example.refused and last:
                snap = hook.example_values(m)
                try:
                    m.do(action)
                except IllegalAction:
                    if hook.example_values(m) != snap:
                        return f"refused {action!r} changed the game"
                    continue
                return f"expected {action!r} to be refused, the game accepted it"
            m.do(action)
        except IllegalAction as exc:
            return f"action {k + 1} {action!r} was refused: {exc}"
        except AssertionError as exc:  # the game's own check of the position (Krypton: more dice than scripted)
            return f"action {k + 1} {action!r} broke the game's check: {exc}"
    after = hook.example_values(m)
    problems = []
    for name, want in example.then.items():
        try:
            got = value_of(after, name)
        except KeyError as exc:
            return f"then: unknown value {exc.args[0]}"
        if not _same(want, got):
            problems.append(f"{name}: expected {want!r}, got {got!r}")
    for name in example.unchanged:
        try:
            was, now = value_of(before, name), value_of(after, name)
        except KeyError as exc:
            return f"unchanged: unknown value {exc.args[0]}"
        if was != now:
            problems.append(f"{name}: expected unchanged {was!r}, got {now!r}")
    return "\n".join(problems) or None


def run_examples(scenario, hook=None, path: str | Path | None = None) -> tuple[int, ExampleFailure | None]:
    """Run the scenario's rule examples; ``(examples run, the first failure or None)``.

    Args:
        scenario: the loaded scenario (the examples run on its numbers).
        hook: the game's example words (default: its ``check`` capability).
        path: the examples file (default: :func:`examples_file`).

    Raises:
        ScenarioError: the examples file is malformed.
    """
    hook = hook if hook is not None else scenario.game.capability("check")
    path = Path(path) if path is not None else examples_file(scenario)
    if path is None or hook is None or not hasattr(hook, "example_match"):
        return 0, None
    examples = load_examples(path)
    for k, example in enumerate(examples):
        problem = run_one(hook, example)
        if problem is not None:
            return k + 1, ExampleFailure(path, example, problem)
    return len(examples), None
