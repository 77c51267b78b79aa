"""A readable text log of a Card Duel game, one line per action and per turn start."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simkit.core.seats import SEATS
from simkit.games.duel.match import Match
from simkit.games.duel.state import STATUSES
from simkit.games.duel.transitions import on_the_page


def _what(action: tuple, rules=None) -> str:
    verb, args = action[0], action[1:]
    if verb == "equip" and rules is not None:
        card = rules.cards[rules.card_id(args[0])]
        melee = card.range <= rules.settings.melee_max_range
        return f"equips {args[0]} ({'melee' if melee else 'ranged'}, range {card.range})"
    if verb == "play":
        return f"plays {args[0]}" + (f" [{args[1]:+d}]" if len(args) > 1 else "")
    if verb == "attach":
        return f"attaches {args[0]} to {args[1]}"
    words = {"equip": "equips", "set": "sets a counter card", "use": "uses", "discard": "discards",
             "advance": "advances", "retreat": "retreats", "end_play": "ends the play phase",
             "end_turn": "ends the turn"}
    if verb == "set":
        return words[verb]
    return " ".join([words[verb], *map(str, args)])


def _changes(before: dict, after: dict) -> list[str]:
    """What changed between two snapshots (in the page's words, :func:`~.transitions.on_the_page`), in words."""
    out = []
    if after["distance"] != before["distance"]:
        out.append(f"distance {before['distance']}→{after['distance']}")
    for seat in range(2):
        b, a = before["players"][seat], after["players"][seat]
        who = SEATS[seat]
        if a["hp"] != b["hp"]:
            out.append(f"{who} HP {b['hp']}→{a['hp']}")
        for kind in STATUSES:
            if a["statuses"][kind] != b["statuses"][kind]:
                out.append(f"{who} {kind} {b['statuses'][kind]}→{a['statuses'][kind]}")
        fired = len(b["traps"]) - len(a["traps"])
        if fired > 0:
            out.append(f"{who}'s {', '.join(b['traps'][:fired]) if b['traps'] else 'counter'} triggers")
        drew = a["counts"]["hand"] - b["counts"]["hand"]
        if drew > 0 and a["counts"]["source"] + a["counts"]["discard"] < b["counts"]["source"] + b["counts"]["discard"]:
            out.append(f"{who} draws {drew}")
        for e_b, e_a in zip(b["equipment"], a["equipment"]):
            if e_a["card"] == e_b["card"] and e_a["charge"] != e_b["charge"]:
                out.append(f"{e_a['card']} charge {e_b['charge']}→{e_a['charge']}")
    return out


def narrate(scenario, first_deck: str, second_deck: str, actions: Iterable[tuple],
            bots: Sequence[str] = ("?", "?"), seed: int = 0) -> list[str]:
    """The game replayed from its actions as lines of text.

    Raises:
        IllegalAction: an action that is not legal where it stands.
    """
    m = Match(scenario, first_deck, second_deck, seed=seed)
    lines = [f"Card Duel · first: {m.decks[0]} ({bots[0]}) · second: {m.decks[1]} ({bots[1]}) · seed {seed}"]
    lines.append(f"turn 1 · first begins: hand {on_the_page(m.snapshot())['players'][0]['counts']['hand']}, "
                 f"distance {m.distance}")
    for action in actions:
        action = tuple(action)
        before = on_the_page(m.snapshot())
        seat, turn = m.to_act, m.turn
        m.do(action)
        after = on_the_page(m.snapshot())
        changes = _changes(before, after)
        said = f"turn {turn} · {SEATS[seat]}: {_what(action, scenario.rules)}"
        if m.turn != turn and not m.over:
            lines.append(said)
            p = after["players"][m.to_act]
            statuses = ", ".join(f"{k} {v}" for k, v in p["statuses"].items() if v)
            lines.append(f"turn {m.turn} · {SEATS[m.to_act]} begins: HP {p['hp']}, hand {p['counts']['hand']}"
                         + (f", {statuses}" if statuses else "") + (f" ({'; '.join(changes)})" if changes else ""))
        else:
            lines.append(said + (f" — {'; '.join(changes)}" if changes else ""))
    if m.over:
        how = {"hp_zero": "HP reached 0", "turn_limit": "turn limit reached"}[m.end_reason]
        result = "a draw" if m.winner == "draw" else f"{m.winner} wins"
        lines.append(f"game over on turn {m.turn}: {result} ({how}); HP {m.hp(0)} / {m.hp(1)}")
    return lines
