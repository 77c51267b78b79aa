"""``simkit demo``: play one scripted game through the single-match API and print how it ended."""

from __future__ import annotations

import argparse


def scripted_action(m) -> tuple:
    """A simple scripted policy: hit the miracle, else hit a unit, else summon, else advance, else end turn."""
    legal = m.legal_actions()
    snap = m.snapshot()
    enemy_miracle = m.rules.board.miracles[1 - m.current]
    for kind in ("attack",):
        hits = [a for a in legal if a[0] == kind and a[2] == "miracle"]
        if hits:
            return hits[0]
        hits = [a for a in legal if a[0] == kind]
        if hits:
            return hits[0]
    summons = [a for a in legal if a[0] == "summon"]
    if summons:
        return max(summons, key=lambda a: (a[2], a[1]))
    pos = {u["id"]: u["pos"] for u in snap["units"]}

    def dist(c):
        return sum(abs(p - q) for p, q in zip(c, enemy_miracle)) // 2

    moves = [a for a in legal if a[0] == "move" and dist(a[2]) < dist(pos[a[1]])]
    if moves:
        return min(moves, key=lambda a: (dist(a[2]), a[1]))
    return ("end_turn",)


def run(args: argparse.Namespace) -> int:
    """Play the demo game and print its end."""
    from simkit.scenario import load_scenario

    sc = load_scenario(args.scenario)
    first, second = args.first or sc.decks[0], args.second or sc.decks[-1]
    m = sc.new_match(first, second, seed=args.seed)
    while not m.over:
        m.do(scripted_action(m))
    s = m.snapshot()
    winner = {0: f"first player ({m.decks[0]})", 1: f"second player ({m.decks[1]})", "draw": "nobody (draw)"}
    print(f"{sc.name}: {m.decks[0]} (first) vs {m.decks[1]} (second)")
    print(f"game over on turn {s['turn']} by {s['end_reason']}; winner: {winner[s['winner']]}")
    for p, who in zip(s["players"], ("first", "second")):
        print(f"  {who:6}  miracle HP {p['miracle_hp']:3}  dead stars {p['dead_stars']:3}  {p['deck']}")
    print(f"  {len(m.actions)} actions played")
    return 0


def register(sub) -> None:
    """Add the ``demo`` command."""
    p = sub.add_parser("demo", help="play one scripted game and print its end")
    p.add_argument("scenario", nargs="?", default="scenarios/miracle/base.toml", help="scenario TOML")
    p.add_argument("--first", help="first player's deck (default: the pool's first deck)")
    p.add_argument("--second", help="second player's deck (default: the pool's last deck)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=run)
