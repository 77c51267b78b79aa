"""A Battle of Miracles AI for the original competition server's protocol (its SDK's documents), playing at random.

It is the kind of program the original server ran, and simkit plays it unchanged with
``--bot mine='python3 examples/bots/sdk_random_bot.py' --bot-protocol mine=sdk`` (docs/outside-bots.md, "The
original SDK's protocol"). Written from the protocol's documents and simkit's rules page, not from the SDK's code:

- messages to the AI: a length in six ASCII digits, then that many bytes of JSON;
- messages from the AI: a length as a 4-byte big-endian integer, then that many bytes of JSON;
- first, ``{"camp": 0 or 1}``: the AI answers its ``init`` operation (one artifact, three creatures);
- at each of its operations, the state (``map``, ``players``, ``round``, ``camp``): the AI answers one operation;
  after ``endround`` the next state comes at its next turn.

Optional arguments (the original server gives none): ``--deck ARTIFACT:A,B,C`` (else one by camp) and ``--seed N``.
Logs go to standard error; standard output carries the protocol only.
"""

import json
import random
import sys

#: the board (rules page, section 1): cells (x, y, z) with |x|, |y| <= 8 and |x + y| <= 14, less these
MIRACLES = [(-7, 7, 0), (7, -7, 0)]
BEHIND = [(-8, 7, 1), (-8, 8, 0), (-7, 8, -1), (8, -7, -1), (8, -8, 0), (7, -8, 1)]
ABYSS_HALF = [(0, 0, 0), (-1, 0, 1), (0, -1, 1), (1, -1, 0), (-2, -1, 3), (-1, -2, 3), (-2, -2, 4), (-3, -2, 5),
              (-4, -4, 8), (-5, -4, 9), (-4, -5, 9), (-5, -5, 10), (-6, -5, 11), (-5, -8, 13), (-6, -7, 13),
              (-7, -6, 13), (-8, -5, 13), (-6, -8, 14), (-7, -7, 14), (-8, -6, 14)]
ABYSS = set(ABYSS_HALF) | {(-x, -y, -z) for x, y, z in ABYSS_HALF}
SPAWN = [[(-8, 6, 2), (-7, 6, 1), (-6, 6, 0), (-6, 7, -1), (-6, 8, -2)]]
SPAWN.append([(-x, -y, -z) for x, y, z in SPAWN[0]])
#: the garrisons in the order of the state's "barracks", each with its spawn points
GARRISONS = [[(-7, -5, 12), (-5, -7, 12), (-5, -6, 11)], [(7, 5, -12), (5, 7, -12), (5, 6, -11)],
             [(0, -4, 4), (-1, -4, 5), (-1, -5, 6)], [(0, 4, -4), (1, 4, -5), (1, 5, -6)]]
STEPS = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)]
#: creature numbers of the protocol, the level-1 cost of each (rules page, section 2), the flying kind
KINDS = {0: "Archer", 1: "Swordsman", 2: "BlackBat", 3: "Priest", 4: "VolcanoDragon", 5: "Inferno", 6: "FrostDragon"}
COST_L1 = {"Archer": 2, "Swordsman": 2, "BlackBat": 2, "Priest": 2, "VolcanoDragon": 5, "FrostDragon": 5}
FLYING = {"BlackBat"}
DECKS = ["HolyLight:Archer,Swordsman,VolcanoDragon", "SalamanderShield:BlackBat,FrostDragon,Swordsman"]


def on_board(c):
    """True for a cell of the board (miracles and the cells behind them are not)."""
    x, y, z = c
    return abs(x) <= 8 and abs(y) <= 8 and abs(z) <= 14 and c not in MIRACLES and c not in BEHIND


def distance(a, b):
    """Hex distance in cube coordinates."""
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def read_message():
    """The next message: six ASCII digits of length, then the JSON (None when the input has closed)."""
    head = sys.stdin.buffer.read(6)
    if len(head) < 6:
        return None
    return json.loads(sys.stdin.buffer.read(int(head.decode())))


def send(message):
    """One message: its length as 4 bytes big-endian, then the JSON."""
    data = json.dumps(message).encode()
    sys.stdout.buffer.write(len(data).to_bytes(4, "big", signed=True) + data)
    sys.stdout.buffer.flush()


def operation(camp, rnd, kind, **params):
    """An operation as the protocol spells it."""
    return {"player": camp, "round": rnd, "operation_type": kind, "operation_parameters": params}


def candidates(state):
    """What this AI may try now: attacks first, then summons, moves and its artifact (each a (verb, params))."""
    camp = state["camp"]
    units = [dict(zip(("id", "camp", "type", "cost", "atk", "max_hp", "hp", "range", "move", "cool_down", "pos",
                       "level", "flying", "atk_flying", "agility", "shield", "can_atk", "can_move"), u))
             for u in state["map"]["units"]]
    for u in units:
        u["pos"] = tuple(u["pos"])
    mine = [u for u in units if u["camp"] == camp]
    theirs = [u for u in units if u["camp"] != camp]
    taken = {(u["pos"], bool(u["flying"])) for u in units}
    enemy_miracle = MIRACLES[1 - camp]
    artifacts, mana, _, capacity, _ = state["players"][camp]
    attacks, others = [], []
    for u in mine:
        lo, hi = u["range"]
        if u["can_atk"] and u["atk"] > 0:
            for t in theirs:
                if lo <= distance(u["pos"], t["pos"]) <= hi and (not t["flying"] or u["flying"] or u["atk_flying"]):
                    attacks.append(("attack", {"attacker": u["id"], "target": t["id"]}))
            if lo <= distance(u["pos"], enemy_miracle) <= hi:
                attacks.append(("attack", {"attacker": u["id"], "target": 1 - camp}))
        if u["can_move"]:
            for dx, dy, dz in STEPS:
                c = (u["pos"][0] + dx, u["pos"][1] + dy, u["pos"][2] + dz)
                if on_board(c) and (c, bool(u["flying"])) not in taken and (u["flying"] or c not in ABYSS):
                    closer = distance(c, enemy_miracle) < distance(u["pos"], enemy_miracle)
                    others += [("move", {"mover": u["id"], "position": list(c)})] * (3 if closer else 1)
    spawn = SPAWN[camp] + [c for g, owner in enumerate(state["map"]["barracks"]) if owner == camp
                           for c in GARRISONS[g]]
    for code, available, _ in capacity:
        kind = KINDS[code]
        if available > 0 and COST_L1[kind] <= mana:
            for c in spawn:
                if (c, kind in FLYING) not in taken:
                    others.append(("summon", {"type": kind, "level": 1, "position": list(c)}))
    art_id, art_type, cost, _, _, art_state, _, _ = artifacts[0]
    if art_state == 0 and cost <= mana and mine:
        if art_type in (0, 3):  # HolyLight, WindBlessing: any cell; here where one of its units stands
            others.append(("use", {"card": art_id, "target": list(mine[0]["pos"])}))
        elif art_type == 1:  # SalamanderShield: one of its units
            others.append(("use", {"card": art_id, "target": mine[0]["id"]}))
        elif art_type == 2:  # InfernoFlame: a free spawn point by its own miracle (within 7 of it)
            free = [c for c in SPAWN[camp] if (c, False) not in taken and c not in ABYSS]
            if free:
                others.append(("use", {"card": art_id, "target": list(free[0])}))
    return attacks, others


def main():
    """Choose a deck for the camp told, then play each state's operation until the input closes."""
    args = sys.argv[1:]
    deck = args[args.index("--deck") + 1] if "--deck" in args else None
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 0
    first = read_message()
    camp = first["camp"]
    artifact, creatures = (deck or DECKS[camp]).split(":")
    rng = random.Random(seed * 2 + camp)
    send(operation(camp, 0, "init", artifacts=[artifact], creatures=creatures.split(",")))
    print(f"sdk_random_bot: camp {camp}, deck {artifact}:{creatures}", file=sys.stderr)
    while True:
        state = read_message()
        if state is None:
            return
        attacks, others = candidates(state)
        if attacks:
            verb, params = rng.choice(attacks)
        elif others and rng.random() < 0.9:
            verb, params = rng.choice(others)
        else:
            verb, params = "endround", {}
        send(operation(camp, state["round"], verb, **params))


if __name__ == "__main__":
    main()
