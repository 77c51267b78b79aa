"""A readable text log of a Krypton Tower War game, one line per event, rebuilt from its actions.

Decisions of the side that is not acting (counter cards inside an attack judgment, revival choices)
are told as that side's, so a reader sees who decided what.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simkit.games.krypton.match import Match
from simkit.games.krypton.stalemate import locked
from simkit.games.krypton.tables import SIDE_NAMES

#: the line told where a game locks (simkit.games.krypton.stalemate)
LOCKED = ("-- locked: the veins are dry, neither side can pay for another die and no attack without cards can "
          "beat a base's defence; from here the game can only be drawn --")


def _c(g, i: int) -> str:
    return "({},{},{})".format(*g.cell_of(i)) if i >= 0 else "-"


def event_line(g, e: tuple) -> str | None:
    """One event (``(hero turn, kind, ...)``) of :attr:`Match.events` in words, or ``None`` to skip it."""
    kind = e[1]
    side = e[2] if len(e) > 2 and isinstance(e[2], int) else 0

    def hero(s, k):
        return g.hero_words(s, k)

    if kind == "roll":
        return f"{hero(e[2], e[3])} rolls {e[4]} for movement: {e[5]} movement points"
    if kind == "step":
        return f"  {hero(e[2], e[3])} moves {_c(g, e[4])} -> {_c(g, e[5])} (cost {e[6]})"
    if kind == "damage":
        return f"  {hero(e[2], e[3])} loses {e[4]} HP ({e[5].replace('_', ' ')})"
    if kind == "death":
        return f"  {hero(e[2], e[3])} dies on {_c(g, e[4])}; {SIDE_NAMES[e[2]]} gives {e[5]} energy to the enemy"
    if kind == "revive":
        how = "returns to base (revives at its next turn)" if e[4] == "base" else "revives in place, flipped"
        return f"  {SIDE_NAMES[e[2]]} chooses: {hero(e[2], e[3])} {how}"
    if kind == "return":
        return f"{hero(e[2], e[3])} revives on spawn point {_c(g, e[4])}"
    if kind == "unflip":
        return f"{hero(e[2], e[3])} is turned back up and skips this turn"
    if kind == "no_spawn":
        return f"{hero(e[2], e[3])} stays dead: no free spawn point"
    if kind == "attack":
        return f"  {hero(e[2], e[3])} attacks the {e[5]} on {_c(g, e[4])}"
    if kind == "dice":
        d = f", defender rolls {e[4]}" if e[4] else ""
        return f"    attacker rolls {e[3]}{d}"
    if kind == "totals":
        return f"    totals {e[3]} against {e[4]}"
    if kind == "counter":
        return f"    {SIDE_NAMES[e[2]]} answers with {e[3]}"
    if kind == "play":
        where = f" on {_c(g, e[4])}" if e[4] >= 0 else ""
        return f"  {SIDE_NAMES[side]} plays {e[3]}{where}"
    if kind == "gather":
        return f"  {hero(e[2], e[3])} gathers {e[5]} energy on {_c(g, e[4])}"
    if kind == "build":
        return f"  {hero(e[2], e[3])} builds a {e[5]} on {_c(g, e[4])}"
    if kind == "upgrade":
        return f"  {SIDE_NAMES[side]} upgrades its base to tier {e[3]}"
    if kind == "standby":
        return f"  {hero(e[2], e[3])} stands by"
    if kind == "destroyed":
        return f"    {SIDE_NAMES[e[2]]}'s {e[4]} on {_c(g, e[3])} is destroyed"
    if kind == "iron_wall":
        return f"    Iron Wall holds {SIDE_NAMES[e[2]]}'s tower on {_c(g, e[3])}"
    if kind == "base_hit":
        return f"    {SIDE_NAMES[e[2]]}'s base loses {e[3]} HP ({e[4]} left)"
    if kind == "base_destroyed":
        return f"{SIDE_NAMES[e[2]]}'s base is destroyed"
    if kind == "sudden_death":
        return f"{SIDE_NAMES[e[2]]}'s base loses an HP after the sudden-death round: {SIDE_NAMES[1 - e[2]]} wins"
    if kind == "lock":
        return "the game is locked: it ends drawn (end_at_lock)"
    if kind == "cap":
        return "round limit reached: " + ("a draw" if e[2] == 2 else f"{SIDE_NAMES[e[2]]} wins on base HP")
    if kind == "end":
        return None
    return f"  {e}"


def narrate(scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], bots: Sequence[str] = ("?", "?"),
            seed: int = 0) -> list[str]:
    """The game's events in words, from its loadouts, seed and actions; where the game locks (a certain draw,
    :mod:`simkit.games.krypton.stalemate`) a line says so."""
    m = g = Match(scenario, first_deck, second_deck, seed=seed)
    lines = [f"Krypton Tower War, seed {seed}: {SIDE_NAMES[0]} {m.decks[0]} ({bots[0]}) against "
             f"{SIDE_NAMES[1]} {m.decks[1]} ({bots[1]}); {SIDE_NAMES[0]} acts first"]
    done, last_round, turn, told = 0, 0, -1, False
    for a in actions:
        m.do(tuple(a))
        if not told and g.state.turn != turn and not m.over:
            turn = g.state.turn
            if locked(g):  # told between the last hero turn's events and this one's
                events = g.events
                split = next((i for i in range(done, len(events)) if events[i][0] >= turn), len(events))
                done, last_round = _flush(g, lines, done, last_round, split)
                lines.append(LOCKED)
                told = True
        done, last_round = _flush(g, lines, done, last_round)
    _flush(g, lines, done, last_round)
    if m.over:
        who = "draw" if m.winner == "draw" else f"{SIDE_NAMES[('first', 'second').index(m.winner)]} wins"
        sides = g.state.sides
        lines.append(f"game over after {g.round} rounds: {who} ({m.end_reason}); bases {sides[0].base_hp} / "
                     f"{sides[1].base_hp} HP, energy {sides[0].energy} / {sides[1].energy}")
    return lines


def _flush(g, lines: list[str], done: int, last_round: int, upto: int | None = None) -> tuple[int, int]:
    """Tell the events from ``done`` (up to ``upto``, default all); returns the next ``done`` and the round."""
    team = g.team
    events = g.events
    upto = len(events) if upto is None else upto
    for e in events[done:upto]:
        r = e[0] // (2 * team) + 1
        if r != last_round and e[1] in ("roll", "return", "unflip", "no_spawn"):
            lines.append(f"-- round {r} --")
            last_round = r
        line = event_line(g, e)
        if line is not None:
            lines.append(line)
    return upto, last_round
