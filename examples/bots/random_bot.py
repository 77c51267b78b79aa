#!/usr/bin/env python3
"""A simkit outside bot for any game: it answers each decision with a random legal action.

simkit starts this program and speaks to it in JSON lines over stdin/stdout (docs/outside-bots.md): a "start"
message begins each game (its "seed" makes the bot's choices repeatable), a "decide" message asks for one action
(answered with {"action": ...}, one of the message's "legal" list), an "end" message closes the game. The program
ends when its standard input closes. Try it:

    simkit play scenarios/duel/quick.toml 'Dagger+Longbow:Frost,Mend,Reflect' 'Greataxe+Longbow:Mend,Rage,Reflect' \
        --bot mine='python3 examples/bots/random_bot.py' --bots mine,aggro
"""

import json
import random
import sys


def main() -> None:
    """Answer every decision of every game until simkit closes the input."""
    rng = random.Random(0)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])  # the same game plays the same way again
        elif message["type"] == "decide":
            action = rng.choice(message["legal"])
            sys.stdout.write(json.dumps({"action": action}) + "\n")
            sys.stdout.flush()  # an answer stuck in a buffer is a timeout
        # "end" (the game's result) needs no answer


if __name__ == "__main__":
    main()
