"""A readable text log of a template game: one line per action, and the result."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simkit.games import SEATS
from simkit.games._template.match import Match


def narrate(scenario, first_deck: str, second_deck: str, actions: Iterable[tuple],
            bots: Sequence[str] = ("?", "?"), seed: int = 0) -> list[str]:
    """The game replayed from its actions as lines of text.

    Raises:
        IllegalAction: an action that is not legal where it stands.
    """
    m = Match(scenario, first_deck, second_deck, seed=seed)
    lines = [f"Template game · first: {m.decks[0]} ({bots[0]}) · second: {m.decks[1]} ({bots[1]}) · seed {seed}"]
    for action in actions:
        action = tuple(action)
        seat, turn, hp = m.to_act, m.turn, (m.hp(0), m.hp(1))
        m.do(action)
        if action[0] == "end":
            lines.append(f"turn {turn} · {SEATS[seat]} ends the turn")
            continue
        other = 1 - seat
        did = [f"{hp[other] - m.hp(other)} damage"] if m.hp(other) != hp[other] else []
        did += [f"heals {m.hp(seat) - hp[seat]}"] if m.hp(seat) != hp[seat] else []
        lines.append(f"turn {turn} · {SEATS[seat]}: plays {action[1]} — {', '.join(did) or 'no effect'}; "
                     f"HP {m.hp(0)} / {m.hp(1)}")
    if m.over:
        result = "a draw" if m.winner == "draw" else f"{m.winner} wins"
        how = scenario.game.schema.end_reasons[m.end_reason]
        lines.append(f"game over on turn {m.turn}: {result} ({how}); HP {m.hp(0)} / {m.hp(1)}")
    return lines
