"""Where a compiled game's time goes: each part of the bot's decision, timed inside real games.

Usage (from a checkout):

    PYTHONPATH=. python scripts/profile_parts.py [GAMES]

Plays GAMES balanced mirrors (default 128, fixed random decks and seeds) with the same loop as
``fast/game.py``, once as is and once per part with that part run four more times per decision
(its results thrown away); the difference over the actions played is the part's cost per
action, with the caches and branch predictors of a real game. Prints one JSON line.
"""

import json
import sys
import time

import numba
import numpy as np

import simkit
from simkit.core.rng import GameStreams, derive_seed
from simkit.games.miracle import rules as R
from simkit.games.miracle.batch import make_bot
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.fast.attacks import attacks
from simkit.games.miracle.fast.choice import choose
from simkit.games.miracle.fast.decide import decide_one
from simkit.games.miracle.fast.game import decode_one, draw_word
from simkit.games.miracle.fast.moves import moves
from simkit.games.miracle.fast.pack import KBotRef, KRulesRef, KSitRef, KStateRef, pack_state
from simkit.games.miracle.fast.situation import situate
from simkit.games.miracle.fast.step import step_one
from simkit.games.miracle.fast.summons import summons
from simkit.games.miracle.fast.uses import uses
from simkit.games.miracle.rules import END_TURN

PARTS = ("situation", "summons", "moves", "attacks", "uses", "choice")


@numba.njit
def play(state, rules, bot, L, scratch, keys, counter, cap, part, extra):
    """``fast.game.play`` for one bot, running ``PARTS[part]`` ``extra`` more times per decision."""
    S, R, T, sit = KStateRef(*state), KRulesRef(*rules), KBotRef(*bot), KSitRef(*scratch)
    cells, units = R.distance.shape[0], S.alive.shape[1]
    cand_index, cand_score = np.empty(L.size, np.int64), np.empty(L.size, np.float32)
    spare_index, spare_score = np.empty(L.size, np.int64), np.empty(L.size, np.float32)
    cand_high = np.empty(L.size, np.float64)
    atk = np.zeros(units, np.int32)
    actions = kept = 0
    for g in range(S.turn.shape[0]):
        in_turn = 0
        while not S.over[g]:
            word = draw_word(keys, counter, g)
            index = L.end_turn
            if in_turn < cap:
                index, n = decide_one(S, R, T, L, sit, g, word, T.temperature, cand_index, cand_score, cand_high)
                for _ in range(extra):
                    if part == 0:
                        situate(S, R, T, g, sit)
                    elif part == 1:
                        kept += summons(S, R, T, L, g, sit, spare_index, spare_score, 0)
                    elif part == 2:
                        kept += moves(S, R, T, L, g, sit, spare_index, spare_score, 0)
                    elif part == 3:
                        kept += attacks(S, R, T, L, g, sit, spare_index, spare_score, 0)
                    elif part == 4:
                        kept += uses(S, R, T, L, g, sit, spare_index, spare_score, 0)
                    else:
                        kept += choose(cand_index, cand_score, n, word, T.action_keys, T.temperature, cand_high)
            kind, a, b, c = decode_one(L, cells, units, index)
            step_one(S, R, g, kind, a, b, c, atk)
            in_turn = 0 if kind == END_TURN else in_turn + 1
            actions += 1
    return actions, kept


def mirror_games(games: int):
    """The base scenario's rules, the compiled balanced bot, and a maker of the same ``games`` new
    games (fixed random decks) with their streams (fixed seeds): ``(rules, fast, new)``."""
    sc = simkit.load_scenario("scenarios/miracle/base.toml")
    rules = sc.rules
    pick = [derive_seed(0, "deck", i) % len(sc.decks) for i in range(2 * games)]
    parsed = [parse_deck(rules.cards, sc.decks[i]) for i in pick]
    artifact = np.array([p[0] for p in parsed], np.int16).reshape(2, games).T.copy()
    kinds = np.array([p[1] for p in parsed], np.int16).reshape(2, games, 3).transpose(1, 0, 2).copy()
    seeds = [derive_seed(0, "game", i) for i in range(games)]

    def new() -> tuple[R.State, GameStreams]:
        return R.new_games(rules, artifact, kinds), GameStreams(seeds)

    return rules, make_bot(sc, "balanced").compiled(rules), new


def main(games: int) -> dict:
    """Per-action microseconds of the whole loop and of each part, best of three runs each."""
    _, fast, new = mirror_games(games)

    def run(part: int, extra: int) -> tuple[float, int]:
        st, streams = new()
        started = time.perf_counter()
        actions, _ = play(pack_state(st), fast.k_rules, fast.k_bot, fast.layout, fast.sit, streams.keys,
                          streams.counter, 80, part, extra)
        return time.perf_counter() - started, actions

    run(0, 1)  # compile
    base, actions = min(run(0, 0) for _ in range(3))
    out = {"games": games, "actions": actions, "us_per_action": round(base / actions * 1e6, 2)}
    for part, name in enumerate(PARTS):
        seconds = min(run(part, 4)[0] for _ in range(3))
        out[name] = round((seconds - base) / 4 / actions * 1e6, 2)
    out["rules_step_and_loop"] = round(out["us_per_action"] - sum(out[name] for name in PARTS), 2)
    return out


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 128)))
