"""A test AI for the original Battle of Miracles protocol (six-digit lengths in, 4-byte lengths out) that fails on
purpose at its first decision, as its first argument says.

Modes: ``pass`` (ends every turn), ``malformed`` (an answer that is not JSON), ``long`` (a length past the limit),
``no-unit`` (attacks with a unit id no unit has), ``refused`` (summons on a cell that is no spawn point),
``refused-once`` (that summon at its first decision only, then ends every turn), ``round`` (answers for the next
round), ``surrender``, ``crash`` (exits with status 3), ``hang`` (sleeps),
``bad-deck`` (an init with two creatures), ``flip`` (the deck of its first start, another on every later start:
it needs the pid file). A second argument names a file the AI appends its process id to when it starts.
"""

import json
import os
import sys
import time

DECKS = ["HolyLight:Archer,Swordsman,VolcanoDragon", "WindBlessing:BlackBat,Priest,Swordsman"]


def read():
    """The next message (None when the input closed)."""
    head = sys.stdin.buffer.read(6)
    return json.loads(sys.stdin.buffer.read(int(head))) if len(head) == 6 else None


def send(message, raw=None):
    """One message with its 4-byte big-endian length (``raw``: these bytes instead of the JSON)."""
    data = raw if raw is not None else json.dumps(message).encode()
    sys.stdout.buffer.write(len(data).to_bytes(4, "big", signed=True) + data)
    sys.stdout.buffer.flush()


def op(camp, rnd, kind, **params):
    """An operation as the protocol spells it."""
    return {"player": camp, "round": rnd, "operation_type": kind, "operation_parameters": params}


def main():
    """Choose a deck, then fail at the first decision as the mode says (``pass``: never)."""
    mode = sys.argv[1]
    starts = 0
    if len(sys.argv) > 2:
        if os.path.exists(sys.argv[2]):
            starts = len(open(sys.argv[2]).read().split())
        with open(sys.argv[2], "a") as f:
            f.write(f"{os.getpid()}\n")
    camp = read()["camp"]
    artifact, creatures = DECKS[1 if mode == "flip" and starts else 0].split(":")
    creatures = creatures.split(",")[:2] if mode == "bad-deck" else creatures.split(",")
    send(op(camp, 0, "init", artifacts=[artifact], creatures=creatures))
    decisions = 0
    while True:
        state = read()
        if state is None:
            return
        rnd = state["round"]
        decisions += 1
        if mode == "malformed":
            send(None, raw=b"this is not json")
        elif mode == "long":
            sys.stdout.buffer.write((5000).to_bytes(4, "big", signed=True) + b"x" * 5000)
            sys.stdout.buffer.flush()
        elif mode == "no-unit":
            send(op(camp, rnd, "attack", attacker=999, target=1 - camp))
        elif mode == "refused" or (mode == "refused-once" and decisions == 1):
            send(op(camp, rnd, "summon", type="Archer", level=1, position=[0, 0, 0]))
        elif mode == "round":
            send(op(camp, rnd + 1, "endround"))
        elif mode == "surrender":
            send(op(camp, rnd, "surrender"))
        elif mode == "crash":
            print("sdk_bad_bot: crashing on purpose", file=sys.stderr)
            sys.exit(3)
        elif mode == "hang":
            time.sleep(600)
        else:
            send(op(camp, rnd, "endround"))


if __name__ == "__main__":
    main()
