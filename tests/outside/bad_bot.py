"""A test bot that speaks docs/outside-bots.md and then fails on purpose, as its first argument says.

Modes: ``good`` (a random legal action), ``crash`` (exits with status 3 at its 2nd decision), ``timeout`` (sleeps
at its 2nd decision), ``malformed`` (answers a line that is not JSON), ``illegal`` (answers an action no game has),
``no-action`` (answers a JSON object without "action"), ``hang`` (sleeps at its first decision), ``crash-odd``
(plays well, but exits at once in a game whose seed is odd). A second argument names a file the bot appends its
process id to when it starts (one line per program started).
"""

import json
import os
import random
import sys
import time


def main() -> None:
    """Play as the mode says until the input closes."""
    mode = sys.argv[1]
    if len(sys.argv) > 2:
        with open(sys.argv[2], "a") as f:
            f.write(f"{os.getpid()}\n")
    rng, decisions, seed = random.Random(0), 0, 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng, decisions, seed = random.Random(message["seed"]), 0, message["seed"]
            continue
        if message["type"] != "decide":
            continue
        decisions += 1
        if mode == "hang" or (mode == "timeout" and decisions == 2):
            if len(sys.argv) > 2:  # say that simkit now waits on this decision (PIDS.waiting)
                with open(sys.argv[2] + ".waiting", "w") as f:
                    f.write("1\n")
            time.sleep(600)
        if mode == "crash" and decisions == 2:
            print("bad_bot: crashing on purpose", file=sys.stderr)
            sys.exit(3)
        if mode == "crash-odd" and seed % 2:
            sys.exit(4)
        if mode == "malformed" and decisions == 2:
            answer = "this is not json"
        elif mode == "illegal" and decisions == 2:
            answer = json.dumps({"action": ["no_such_verb", 99]})
        elif mode == "no-action" and decisions == 2:
            answer = json.dumps({"move": 1})
        else:
            answer = json.dumps({"action": rng.choice(message["legal"])})
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
