"""Card Duel: the authored pool reaches every rule of the note in bot games (rules page section 9
claims it does), counted clause by clause over recorded games replayed through the facade."""

from __future__ import annotations

from collections import Counter

import numpy as np
from duel_positions import duel, page

from simkit.games.duel.batch import play_batch
from simkit.games.duel.match import Match


def _weapon(snap, seat, name):
    return next(e for e in snap["players"][seat]["equipment"] if e["card"] == name)


def clause_counts(sc, firsts, seconds, seeds, bots) -> Counter:
    """How often each rule clause happened in the games (by snapshot differences)."""
    rules = sc.rules
    res = play_batch(sc, firsts, seconds, seeds, bots, record_actions=True)
    ev: Counter = Counter()
    for g, actions in enumerate(res["action_list"]):
        m = Match(sc, firsts[g], seconds[g], seed=seeds[g])
        for action in actions:
            before, seat, turn = page(m), m.to_act, m.turn
            for e in before["players"][seat]["equipment"]:
                if m.reason(("use", e["card"])) == "the weapon is cooling down":
                    ev["cooldown blocks a weapon"] += 1
            m.do(action)
            after = page(m)
            me, them = before["players"][seat], before["players"][1 - seat]
            me2, them2 = after["players"][seat], after["players"][1 - seat]
            verb = action[0]
            if verb in ("play", "equip", "attach", "set"):
                ev[f"{verb} {action[1]}"] += 1
                ev[f"type {rules.type_of(rules.card_id(action[1]))}"] += 1
            if verb == "play" and len(action) > 2:
                ev["[a, b] value chosen"] += 1
            if verb in ("advance", "retreat"):
                ev[verb] += 1
            if verb == "discard":
                ev["discard to the hand limit" if len(me["hand"]) > 6 else "discard by choice"] += 1
            if verb == "use":
                w, w2 = _weapon(before, seat, action[1]), _weapon(after, seat, action[1])
                card = rules.card_id(action[1].split("#")[0])
                rng = int(rules.cards[card].range)
                if w2["charge"] > w["charge"]:
                    ev["Charge stores"] += 1
                elif before["distance"] > rng:
                    ev["weapon out of range"] += 1
                else:
                    ev["weapon fires"] += 1
                    if w["charge"] > 0:
                        ev["charged weapon fires"] += 1
                if w2["ready_on"] > w["ready_on"]:
                    ev["Cooldown starts"] += 1
                if any(e["on"] == action[1] for e in me["equipment"]) and them2["statuses"]["poison"] > \
                        them["statuses"]["poison"]:
                    ev["attachment adds to the attack"] += 1
            if verb == "play" and action[1] == "ShadowBolt" and them["statuses"]["shield"] > 0:
                ev["piercing passes a Shield"] += 1
            if verb == "play" and action[1] == "ShadowBolt" and them["traps"]:
                ev["void damage meets a set Reflect"] += 1
            if verb in ("play", "use") and them2["hp"] < them["hp"] and me["statuses"]["strength"] > 0:
                ev["Strength adds to damage"] += 1
            if verb in ("play", "use") and them2["statuses"]["shield"] < them["statuses"]["shield"]:
                ev["Shield absorbs"] += 1
            if len(them2["traps"]) < len(them["traps"]):
                ev["counter triggers"] += 1
            if len(me2["traps"]) < len(me["traps"]) and verb != "set":
                ev["counter answers a counter"] += 1
            if after["turn"] != turn and not m.over:
                p, p2 = before["players"][1 - seat], after["players"][1 - seat]
                if p2["statuses"]["poison"] < p["statuses"]["poison"]:
                    ev["Poison ticks"] += 1
                if p2["statuses"]["slow"] < p["statuses"]["slow"]:
                    ev["Slow costs a card"] += 1
                if p2["statuses"]["regeneration"] < p["statuses"]["regeneration"]:
                    ev["Regeneration heals"] += 1
                    if p["hp"] + (p["statuses"]["regeneration"] + 1) // 2 > 25:
                        ev["healing capped at max HP"] += 1
                if any(e["card"] == "Barrier" for e in p["equipment"]):
                    ev["Barrier at turn start"] += 1
                if p2["counts"]["discard"] < p["counts"]["discard"]:
                    ev["discard pile reshuffled"] += 1
        ev[f"end {res['end_reason'][g]}"] += 1
    return ev


CLAUSES = (
    "type action", "type magic", "type action_magic", "type weapon", "type attachment", "type persistent",
    "type counter", "[a, b] value chosen", "advance", "retreat", "discard to the hand limit",
    "Charge stores", "charged weapon fires", "weapon fires", "weapon out of range", "Cooldown starts",
    "cooldown blocks a weapon", "attachment adds to the attack", "piercing passes a Shield",
    "void damage meets a set Reflect", "Strength adds to damage", "Shield absorbs", "counter triggers",
    "Poison ticks", "Slow costs a card", "Regeneration heals", "Barrier at turn start", "discard pile reshuffled",
    "end hp_zero", "end turn_limit", "healing capped at max HP", "counter answers a counter",
    *(f"play {c}" for c in ("Strike", "Step", "Guard", "Barrier", "Venom", "Frost", "Mend", "ShadowBolt", "Rage")),
    *(f"equip {w}" for w in ("Dagger", "Spear", "Greataxe", "Longbow")),
    "attach VenomCoating", "set Reflect",
)


def test_bot_games_reach_every_rule_of_the_pool():
    """9: over 60 games (utility and random bots, random decks) every card, card type, keyword, status,
    damage type, pile rule and end reason happens at least once."""
    sc = duel()
    rng = np.random.default_rng(17)
    decks = list(sc.decks)
    ev: Counter = Counter()
    for k, bots in enumerate((("aggro", "control"), ("control", "random"), ("random", "random"))):
        f = [decks[i] for i in rng.integers(0, 120, 20)]
        s = [decks[i] for i in rng.integers(0, 120, 20)]
        ev += clause_counts(sc, f, s, [1000 * k + i for i in range(20)], bots)
    missing = [c for c in CLAUSES if ev[c] == 0]
    assert missing == [], f"never happened: {missing}"
