"""A readable text log of a Magic War game, rebuilt from its actions: one line per action, then what it did
(dice, damage, deaths, magic, tactical draws), with cells written ``(c, r)`` as on the rules page."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simkit.games.magic import engine as E
from simkit.games.magic.match import Match
from simkit.games.magic.transitions import MagicPage

SIDES = ("first", "second")


def _dice(m: Match, lo: int, hi: int) -> list[int]:
    """The dice of the tape from ``lo`` to ``hi`` (the faces rolled by one action)."""
    key = m.state.dice_key
    sides = int(m.rules.packed.die_sides)
    return [int(E.below(key, k, sides)) + 1 for k in range(lo, hi)]


def _name(u: dict) -> str:
    return f"{SIDES[u['side']]}'s {u['type']} {tuple(u['cell']) if u['cell'] else ''}".rstrip()


def describe(m: Match, before: dict, action: tuple, after: dict) -> list[str]:
    """The lines telling one action and its consequences (``before`` and ``after`` in the page's words,
    :meth:`~simkit.games.magic.transitions.MagicPage.words`)."""
    who = SIDES[before["to_act"]]
    kind = action[0]
    lines = []
    at = {tuple(u["cell"]): u for u in before["units"] if u["state"] == "alive" and u["cell"]}
    if kind == "place":
        lines.append(f"{who} places a {action[1]} on {tuple(action[2])}")
    elif kind == "move":
        lines.append(f"{who}: {at[tuple(action[1])]['type']} moves {tuple(action[1])} -> {tuple(action[2])}")
    elif kind == "attack":
        a, t = at[tuple(action[1])], at[tuple(action[2])]
        join = ""
        if len(action) > 3:
            join = " with " + ", ".join(at[tuple(c)]["type"] for c in action[3]) + " (combined)"
        faces = _dice(m, before["dice_rolled"], after["dice_rolled"])
        lines.append(f"{who}: {a['type']} {tuple(action[1])}{join} attacks {_name(t)}: dice {faces}")
    elif kind == "skill":
        a = at[tuple(action[1])]
        skill = m.rules.skills[int(m.rules.card(a["type"]).active)]
        paid = f", {action[3]} tactical card(s) as magic" if action[3] else ""
        lines.append(f"{who}: {a['type']} {tuple(action[1])} uses {skill} on {tuple(action[2])}{paid}")
    else:
        lines.append(f"{who} ends turn {before['turn']}")
    for ub, ua in zip(before["units"], after["units"]):
        if ub["state"] == "alive" and ua["hp"] != ub["hp"]:
            change = "heals" if ua["hp"] > ub["hp"] else "takes"
            lines.append(f"  {_name(ub)} {change} {abs(ua['hp'] - ub['hp'])} ({ua['hp']}/{ua['max_hp']} HP left)")
        if ub["state"] == "alive" and ua["state"] == "dead":
            lines.append(f"  {_name(ub)} is destroyed")
    for i, u in enumerate(after["units"]):  # a summoned unit stands where no live unit stood before
        new = i >= len(before["units"]) or before["units"][i]["state"] != "alive"
        if u["summoned"] and u["state"] == "alive" and new:
            lines.append(f"  {SIDES[u['side']]} summons a {u['type']} on {tuple(u['cell'])}")
    for seat in (0, 1):
        pb, pa = before["players"][seat], after["players"][seat]
        if pa["stored_magic"] > pb["stored_magic"]:
            lines.append(f"  {SIDES[seat]} stores {pa['stored_magic'] - pb['stored_magic']} magic (usable next turn)")
        if pa["drawn"] > pb["drawn"]:
            lines.append(f"  {SIDES[seat]} draws {pa['drawn'] - pb['drawn']} tactical card(s) "
                         f"({pa['drawn']} of {pa['cap']} drawn)")
    if after["turn"] != before["turn"] and after["phase"] == "play":
        p = after["players"][after["to_act"]]
        lines.append(f"-- turn {after['turn']}: {SIDES[after['to_act']]} to play ({p['active_magic']} magic, "
                     f"{len(p['hand'])} tactical card(s)) --")
    return lines


def narrate(scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], bots: Sequence[str] = ("?", "?"),
            seed: int = 0) -> list[str]:
    """The game's events in words, from its armies, seed and actions."""
    m = Match(scenario, first_deck, second_deck, seed=seed)
    page = MagicPage(scenario.data)
    lines = [f"Magic War, seed {seed}: first {m.decks[0]} ({bots[0]}) against second {m.decks[1]} ({bots[1]}); "
             "the first player deploys and moves first (authored roster, not the designer's numbers)"]
    before = page.words(m.snapshot())
    for a in actions:
        a = tuple(a)
        m.do(a)
        after = page.words(m.snapshot())
        lines += describe(m, before, a, after)
        before = after
    if m.over:
        who = "a draw" if m.winner == "draw" else f"{m.winner} wins"
        lead = [next(u["hp"] for u in before["units"] if u["slot"] == int(m.state.sides[p].leader)) for p in (0, 1)]
        lines.append(f"game over on turn {m.turn}: {who} ({m.end_reason}); leaders' HP {lead[0]} / {lead[1]}")
    return lines
