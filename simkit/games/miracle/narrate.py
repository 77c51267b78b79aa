"""A readable turn-by-turn account of one Battle of Miracles game, rebuilt from its actions."""

from __future__ import annotations

import numpy as np

from simkit.core.seats import SEATS
from simkit.games.miracle.match import Match
from simkit.games.miracle.state import DRAW, END_REASONS


def _slot(m: Match, uid: int) -> int:
    st = m.state
    return int(np.nonzero(st.alive[0] & (st.uid[0] == uid))[0][0])


def _unit(m: Match, uid: int) -> str:
    st, slot = m.state, _slot(m, uid)
    return f"{m.rules.cards.kind_name(int(st.kind[0, slot]))} L{int(st.level[0, slot])} #{uid}"


def _hp(m: Match, uid: int) -> int:
    st = m.state
    hit = np.nonzero(st.alive[0] & (st.uid[0] == uid))[0]
    return int(st.hp[0, hit[0]]) if len(hit) else 0


def _describe(m: Match, action: tuple) -> str:
    """Perform ``action`` on ``m`` and say what it did."""
    name = action[0]
    me = m.current
    if name == "summon":
        uid = int(m.state.next_uid[0])
        m.do(action)
        return f"summon {action[1]} L{action[2]} #{uid} at {action[3]}"
    if name == "move":
        who, start = _unit(m, action[1]), m.rules.board.grid.cell(int(m.state.cell[0, _slot(m, action[1])]))
        m.do(action)
        return f"move {who} {start} -> {action[2]}"
    if name == "attack":
        who = _unit(m, action[1])
        if action[2] == "miracle":
            before = int(m.state.miracle_hp[0, 1 - me])
            m.do(action)
            after = int(m.state.miracle_hp[0, 1 - me])
            return f"attack {who} -> enemy miracle: {before - after} damage, miracle HP {after}"
        target, hp_target, hp_self = _unit(m, action[2]), _hp(m, action[2]), _hp(m, action[1])
        m.do(action)
        new_target, new_self = _hp(m, action[2]), _hp(m, action[1])
        text = f"attack {who} -> {target}: {hp_target - new_target} damage"
        text += ", kills it" if new_target <= 0 else f", HP {new_target} left"
        if new_self != hp_self:
            text += f"; takes {hp_self - new_self} back" + (" and dies" if new_self <= 0 else "")
        return text
    if name == "use":
        art = m.rules.cards.artifacts[int(m.state.deck_artifact[0, me])]
        target = _unit(m, action[1]) if isinstance(action[1], int) else str(action[1])
        m.do(action)
        return f"use {art} on {target}"
    m.do(action)
    return "end turn"


def narrate(scenario, first_deck: str, second_deck: str, actions, bots=("?", "?"), seed: int = 0) -> list[str]:
    """Replay ``actions`` and describe the game turn by turn.

    Args:
        scenario: a loaded Battle of Miracles scenario.
        first_deck, second_deck: the decks (the first deck moves first).
        actions: the game's actions as single-match tuples (JSON lists are accepted).
        bots: the names of the two bots, for the turn headers.
        seed: the game's seed (kept on the rebuilt match).

    Returns:
        Lines of text: a header per turn, one line per action, and the result.

    Raises:
        IllegalAction: an action is not legal where it stands.
    """
    m = Match(scenario, first_deck, second_deck, seed=seed)
    lines: list[str] = []
    turn = None
    for action in actions:
        action = tuple(tuple(x) if isinstance(x, list) else x for x in action)
        st = m.state
        if int(st.turn[0]) != turn:
            turn, me = int(st.turn[0]), m.current
            lines.append(
                f"turn {turn} - {SEATS[me]} player ({bots[me]}), mana {int(st.mana[0, me])}, "
                f"miracles {int(st.miracle_hp[0, 0])}/{int(st.miracle_hp[0, 1])}"
            )
        lines.append("  " + _describe(m, action))
    s = m.snapshot()
    if not s["over"]:
        lines.append(f"not over: stopped on turn {s['turn']}")
        return lines
    winner = "nobody (draw)" if int(m.state.winner[0]) == DRAW else f"the {SEATS[int(m.state.winner[0])]} player"
    lines.append(
        f"result: {winner} wins by {END_REASONS[int(m.state.end_reason[0])]} on turn {s['turn']}; "
        f"miracle HP {s['players'][0]['miracle_hp']} / {s['players'][1]['miracle_hp']}, "
        f"dead stars {s['players'][0]['dead_stars']} / {s['players'][1]['dead_stars']}, {len(m.actions)} actions"
    )
    return lines
