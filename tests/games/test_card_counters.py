"""Each engine counts what the cards did as it plays: a known short game's counts equal what its recorded actions
say (counted here independently, action by action), and every way a game is played counts the same."""

from collections import Counter
from pathlib import Path

import pytest
from miracle_positions import nan_as_none

import simkit
from simkit.games import SEATS, parse_counter_column

ROOT = Path(__file__).resolve().parents[2]


def _counts(out: dict, i: int) -> dict[tuple[str, str, str, str], int]:
    """Game ``i``'s counter columns by (seat, category, card, counter)."""
    return {p: out[c][i] for c in out if (p := parse_counter_column(c)) is not None}


def _by_seat(sc, out: dict, i: int) -> list[tuple[int, tuple]]:
    """Game ``i``'s recorded actions, each with the seat that did it (replayed through the game's Match)."""
    m = sc.game.new_match(out["first_deck"][i], out["second_deck"][i], seed=out["seed"][i])
    done = []
    for action in out["action_list"][i]:
        done.append((m.to_act, action))
        m.do(action)
    assert m.over and m.winner == out["winner"][i]
    return done


# ---- Battle of Miracles ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def miracle():
    return simkit.load_scenario(ROOT / "scenarios" / "miracle" / "quick.toml")


def test_miracle_counts_the_summons_and_artifact_uses_its_recorded_actions_hold(miracle):
    """Two random games of the quick pool: per seat, units summoned of each kind = its 'summon' actions of that
    kind, artifact uses = its 'use' actions; a card the seat does not hold counts 0; a seat's damage reaches at
    least the HP its opponent's miracle lost."""
    decks = miracle.decks
    out = miracle.game.play_batch([decks[0], decks[1]], [decks[2], decks[3]], [5, 6], ("random", "random"),
                                  record_actions=True)
    for i in range(2):
        counts = _counts(out, i)
        summons, uses = Counter(), Counter()
        for seat, action in _by_seat(miracle, out, i):
            if action[0] == "summon":
                summons[(seat, action[1])] += 1
            elif action[0] == "use":
                uses[seat] += 1
        assert sum(summons.values()) > 5
        for (seat, category, card, counter), value in counts.items():
            s = SEATS.index(seat)
            cards = miracle.game.deck_cards(out[f"{seat}_deck"][i])
            if card not in cards[category]:
                assert value == 0, (seat, card, counter)
            elif counter == "summoned":
                assert value == summons[(s, card)], (seat, card)
            elif counter == "used":
                assert value == uses[s], (seat, card)
        for s, seat in enumerate(SEATS):
            dealt = sum(v for (st, _, _, counter), v in counts.items() if st == seat and counter == "damage")
            lost = 30 - out[f"{SEATS[1 - s]}_miracle_hp"][i]
            assert dealt >= lost


def test_miracle_counts_are_the_same_played_whole_in_compiled_code_and_step_by_step(miracle):
    """Four balanced mirrors: the compiled whole-game loop (no actions recorded) and the batched step-by-step
    loop (actions recorded) give the same counts in every column, and the same games."""
    decks = list(miracle.decks)
    args = (decks[:4], decks[2:6], [11, 12, 13, 14], ("balanced", "balanced"))
    whole = miracle.game.play_batch(*args)
    steps = miracle.game.play_batch(*args, record_actions=True)
    assert nan_as_none({k: v for k, v in steps.items() if k != "action_list"}) == nan_as_none(whole)
    damage = [x for c, values in whole.items() if c.endswith(":damage") for x in values]
    assert any(x > 0 for x in damage)


# ---- Card Duel -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def duel():
    return simkit.load_scenario(ROOT / "scenarios" / "duel" / "quick.toml")


def test_duel_counts_the_plays_and_weapon_uses_its_recorded_actions_hold_and_the_damage_dealt(duel):
    """Three aggro-control games: per seat, a spell's or core card's 'played' = its play, attach and set actions,
    a weapon's 'used' = its use actions; a seat's damage over all its cards = the HP its opponent lost in the
    game's actions (its own attacks, the opponent's triggering its counters; turn ends aside, where poison ticks
    and turn-start effects fall)."""
    decks = duel.decks
    out = duel.game.play_batch(list(decks[:3]), list(decks[3:6]), [7, 8, 9], ("aggro", "control"),
                               record_actions=True)
    for i in range(3):
        counts = _counts(out, i)
        played, lost = Counter(), Counter()
        m = duel.game.new_match(out["first_deck"][i], out["second_deck"][i], seed=out["seed"][i])
        for action in out["action_list"][i]:
            seat = m.to_act
            if action[0] in ("play", "attach", "set", "use"):
                played[(seat, action[1])] += 1
            hp = [m.hp(p) for p in (0, 1)]
            m.do(action)
            if action[0] != "end_turn":  # each side's HP lost in the action, to the other side's cards
                for p in (0, 1):
                    lost[1 - p] += max(hp[p] - m.hp(p), 0)
        assert m.over and sum(played.values()) > 10
        for (seat, _, card, counter), value in counts.items():
            s = SEATS.index(seat)
            if counter in ("played", "used"):
                assert value == played[(s, card)], (seat, card, counter)
        for s, seat in enumerate(SEATS):
            assert sum(v for (st, _, _, c), v in counts.items() if st == seat and c == "damage") == lost[s]


def test_duel_counts_are_the_same_played_whole_in_compiled_code_and_with_actions_recorded(duel):
    """Four aggro mirrors: the compiled batch loop and the recording loop give the same counts (and columns, a NaN
    experience figure equal to itself)."""
    decks = list(duel.decks)
    args = (decks[:4], decks[2:6], [21, 22, 23, 24], ("aggro", "aggro"))
    whole = duel.game.play_batch(*args)
    steps = duel.game.play_batch(*args, record_actions=True)
    assert nan_as_none({k: v for k, v in steps.items() if k != "action_list"}) == nan_as_none(whole)


# ---- Krypton Tower War -----------------------------------------------------------------------------------


def test_krypton_counts_each_class_attacks_and_each_magic_card_plays_its_recorded_actions_hold():
    """Two balanced games of the quick scenario: per seat, a class's attacks = the attack actions of its heroes
    (the acting hero's class read before each), a magic card's plays = its play actions (counter windows too);
    a class the loadout does not field counts 0."""
    sc = simkit.load_scenario(ROOT / "scenarios" / "krypton" / "quick.toml")
    out = sc.game.play_batch(["Archer+Knight", "Knight+Warrior"], ["Knight+Warrior", "Archer+Warrior"], [3, 4],
                             ("balanced", "balanced"), record_actions=True)
    for i in range(2):
        counts = _counts(out, i)
        attacks, plays = Counter(), Counter()
        m = sc.game.new_match(out["first_deck"][i], out["second_deck"][i], seed=out["seed"][i])
        for action in out["action_list"][i]:
            seat = m.to_act
            if action[0] == "attack":
                attacks[(seat, m.packed.classes[m.hero(m.side, m.hero_index).cls])] += 1
            elif action[0] == "play":
                plays[(seat, action[1])] += 1
            m.do(action)
        assert m.over and sum(attacks.values()) > 3
        for (seat, category, card, counter), value in counts.items():
            s = SEATS.index(seat)
            if counter == "attacks":
                assert value == attacks[(s, card)], (seat, card)
            elif counter == "played":
                assert value == plays[(s, card)], (seat, card)
            if category == "class" and card not in out[f"{seat}_deck"][i].split("+"):
                assert value == 0


# ---- Magic War -------------------------------------------------------------------------------------------


def test_magic_counts_the_units_each_seat_bought_as_its_recorded_placements_and_no_unit_it_lacks():
    """Two balanced games: per seat, a unit type's 'bought' = its place actions in the deployment; a type the
    army does not hold counts 0 bought; only the seat's own race's leader has hits."""
    sc = simkit.load_scenario(ROOT / "scenarios" / "magic" / "base.toml")
    firsts, seconds = sc.game.seat_decks()
    out = sc.game.play_batch([firsts[0], firsts[9]], [seconds[4], seconds[11]], [5, 6], ("balanced", "balanced"),
                             record_actions=True)
    for i in range(2):
        counts = _counts(out, i)
        placed = Counter()
        m = sc.game.new_match(out["first_deck"][i], out["second_deck"][i], seed=out["seed"][i])
        for action in out["action_list"][i]:
            if action[0] == "place":
                placed[(m.to_act, action[1])] += 1
            m.do(action)
        assert m.over and sum(placed.values()) > 6
        for (seat, category, card, counter), value in counts.items():
            s = SEATS.index(seat)
            held = sc.game.deck_cards(out[f"{seat}_deck"][i])
            if counter == "bought":
                assert value == placed[(s, card)], (seat, card)
            if card not in held[category] and counter != "lost" and category == "race":
                assert value == 0, (seat, card, counter)
        assert any(v for (_, _, _, c), v in counts.items() if c == "hits")
