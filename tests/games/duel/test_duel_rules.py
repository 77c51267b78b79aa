"""Card Duel: one test per rule clause of shared/rules/card-duel.md, on literal positions.

Sections refer to the rules page. Decks: A = Dagger+Greataxe:Rage,Reflect,ShadowBolt,
B = Longbow+Spear:Mend,Reflect,Venom, C = Dagger+Longbow:Frost,Mend,Venom.
"""

from __future__ import annotations

import pytest
from duel_positions import A, B, C, duel, page, patched, position

from simkit import IllegalAction
from simkit.games.duel.match import Match
from simkit.games.duel.tables import deck_list


def illegal(m, action, words):
    """``action`` is refused with a message containing ``words`` and the game is unchanged."""
    before = m.snapshot()
    with pytest.raises(IllegalAction, match=words):
        m.do(action)
    assert m.snapshot() == before


def end_turn(m):
    """End the play phase and the turn of the seat to act."""
    m.do(("end_play",))
    m.do(("end_turn",))


# ---- section 1: players, HP, damage ---------------------------------------------------------------


def test_setup_hp_hands_and_distance():
    """1, 2, 3: both start at 25 HP at distance 3; seat 0 drew 4 then 2 for turn 1, seat 1 drew 5."""
    m = Match(duel(), A, B, seed=7)
    snap = page(m)
    p0, p1 = snap["players"]
    assert (p0["hp"], p1["hp"], m.distance, m.turn, m.to_act) == (25, 25, 3, 1, 0)
    assert (len(p0["hand"]), len(p1["hand"])) == (6, 5)
    assert (p0["counts"]["source"], p1["counts"]["source"]) == (14, 15)
    assert (p0["ap"], p0["mana"]) == (2, 3)


def test_healing_never_raises_hp_above_max():
    """1 [ruling]: Regeneration 4 at 24 HP heals to 25, not 26."""
    m = position(turn=2, phase="discard", p0={"hp": 24, "statuses": {"regeneration": 4}})
    m.do(("end_turn",))
    assert m.hp(0) == 25


def test_hp_zero_ends_the_game_at_once():
    """1: a Strike that takes the opponent to 0 ends the game; their Reflect does not answer."""
    m = position(distance=1, p0={"hand": ["Strike"]}, p1={"hp": 2, "traps": ["Reflect"]})
    m.do(("play", "Strike"))
    assert (m.over, m.winner, m.end_reason, m.hp(1), m.hp(0)) == (True, "first", "hp_zero", 0, 25)
    assert page(m)["players"][1]["traps"] == ["Reflect"]
    assert m.legal_actions() == []
    illegal(m, ("end_play",), "the game is over")


def test_normal_damage_lowers_hp_by_its_amount():
    """1: Strike deals 2: 25 -> 23."""
    m = position(distance=1, p0={"hand": ["Strike"]})
    m.do(("play", "Strike"))
    assert m.hp(1) == 23


def test_strength_adds_to_each_instance():
    """1 step 1, 6: with Strength 1 a Strike deals 3."""
    m = position(distance=1, p0={"hand": ["Strike"], "statuses": {"strength": 1}})
    m.do(("play", "Strike"))
    assert m.hp(1) == 22


def test_shield_absorbs_up_to_its_level():
    """1 step 2: Shield 1 takes 1 of a Strike's 2 and is gone; Shield 3 takes all 2 and keeps 1."""
    m = position(distance=1, p0={"hand": ["Strike", "Strike"]}, p1={"statuses": {"shield": 1}})
    m.do(("play", "Strike"))
    assert (m.hp(1), m.status(1, "shield")) == (24, 0)
    m = position(distance=1, p0={"hand": ["Strike"]}, p1={"statuses": {"shield": 3}})
    m.do(("play", "Strike"))
    assert (m.hp(1), m.status(1, "shield")) == (25, 1)


def test_piercing_damage_ignores_shield():
    """1: ShadowBolt (piercing) takes 2 HP through Shield 3, which stays 3."""
    m = position(distance=5, p0={"hand": ["ShadowBolt"]}, p1={"statuses": {"shield": 3}})
    m.do(("play", "ShadowBolt"))
    assert (m.hp(1), m.status(1, "shield")) == (23, 3)


def test_void_damage_cannot_be_answered_by_reflect():
    """1: ShadowBolt is void: its source cannot be chosen, so the target's Reflect stays set."""
    m = position(distance=5, p0={"hand": ["ShadowBolt"]}, p1={"traps": ["Reflect"]})
    m.do(("play", "ShadowBolt"))
    assert (m.hp(1), m.hp(0)) == (23, 25)
    assert page(m)["players"][1]["traps"] == ["Reflect"]


def test_reflect_answers_damage_from_the_opponent():
    """9 Reflect: losing HP to the opponent's normal damage triggers it: 2 back, then to the discard pile."""
    m = position(distance=1, p0={"hand": ["Strike"]}, p1={"traps": ["Reflect"]})
    m.do(("play", "Strike"))
    assert (m.hp(1), m.hp(0)) == (23, 23)
    p1 = page(m)["players"][1]
    assert (p1["traps"], p1["discard"]) == ([], ["Reflect"])


def test_reflect_needs_hp_lost():
    """9 Reflect: a Strike wholly absorbed by Shield loses no HP, so Reflect stays set."""
    m = position(distance=1, p0={"hand": ["Strike"]}, p1={"traps": ["Reflect"], "statuses": {"shield": 2}})
    m.do(("play", "Strike"))
    assert (m.hp(1), m.hp(0)) == (25, 25)
    assert page(m)["players"][1]["traps"] == ["Reflect"]


def test_reflect_chain_ends_and_a_counter_set_this_turn_can_trigger():
    """5.7, 9: seat 0 sets Reflect then Strikes; seat 1's Reflect answers, seat 0's fresh Reflect answers
    that, and the chain ends because each triggered Reflect has left its trap zone."""
    m = position(distance=1, p0={"hand": ["Reflect", "Strike"]}, p1={"traps": ["Reflect"]})
    m.do(("set", "Reflect"))
    m.do(("play", "Strike"))
    assert (m.hp(0), m.hp(1)) == (23, 21)
    p0, p1 = page(m)["players"]
    assert (p0["traps"], p1["traps"]) == ([], [])


def test_all_met_counters_trigger_oldest_first():
    """5.7 [ruling]: both of seat 1's Reflects trigger on one Strike, the older first: at 2 HP seat 0
    dies to the first, the second is spent but resolves nothing."""
    m = position(distance=1, p0={"hand": ["Strike", "Strike"]}, p1={"traps": ["Reflect", "Reflect"]})
    m.do(("play", "Strike"))
    assert (m.hp(0), m.hp(1)) == (21, 23)
    m = position(distance=1, p0={"hp": 2, "hand": ["Strike"]}, p1={"traps": ["Reflect", "Reflect"]})
    m.do(("play", "Strike"))
    assert (m.over, m.winner, m.hp(0)) == (True, "second", 0)
    p1 = page(m)["players"][1]
    assert (p1["traps"], p1["discard"]) == ([], ["Reflect", "Reflect"])


# ---- section 6: statuses ------------------------------------------------------------------------------


def test_poison_ticks_ceil_half_as_piercing_self_damage_without_strength():
    """6: Poison 4 at turn start: 2 piercing damage (Shield 3 untouched, Strength 2 not added), level 2;
    the poisoned player is the source, so their Reflect does not trigger."""
    m = position(turn=2, phase="discard",
                 p0={"statuses": {"poison": 4, "shield": 3, "strength": 2}, "traps": ["Reflect"]})
    m.do(("end_turn",))
    assert (m.hp(0), m.status(0, "poison"), m.status(0, "shield"), m.hp(1)) == (23, 2, 3, 25)
    assert page(m)["players"][0]["traps"] == ["Reflect"]


def test_poison_levels_tick_down_to_zero():
    """6: Poison 5 deals 3, 1, 1 over three own turns."""
    m = position(turn=2, phase="discard", p0={"statuses": {"poison": 5}})
    hps = []
    for _ in range(3):
        m.do(("end_turn",))  # seat 1 ends its turn; seat 0's starts with the tick
        hps.append(m.hp(0))
        end_turn(m)
        m.do(("end_play",))
    assert hps == [22, 21, 20]
    assert m.status(0, "poison") == 0


def test_strength_on_own_poison_key(tmp_path):
    """6 key strength_on_own_poison = true: Strength 2 adds to the own Poison tick (2 + 2)."""
    sc = patched(tmp_path, "[rules]\nstrength_on_own_poison = true\n")
    m = position(turn=2, phase="discard", p0={"statuses": {"poison": 4, "strength": 2}}, scenario=sc)
    m.do(("end_turn",))
    assert m.hp(0) == 21


def test_slow_draws_one_card_fewer():
    """6: Slow 2 at turn start: 1 card drawn instead of 2, level 1."""
    m = position(turn=2, phase="discard", p0={"statuses": {"slow": 2}})
    m.do(("end_turn",))
    assert (len(page(m)["players"][0]["hand"]), m.status(0, "slow")) == (1, 1)


def test_regeneration_heals_ceil_half_and_decays_even_when_capped():
    """6: Regeneration 4 at 20 HP heals 2 (level 2); at 25 HP it heals nothing but still drops to 2."""
    m = position(turn=2, phase="discard", p0={"hp": 20, "statuses": {"regeneration": 4}})
    m.do(("end_turn",))
    assert (m.hp(0), m.status(0, "regeneration")) == (22, 2)
    m = position(turn=2, phase="discard", p0={"hp": 25, "statuses": {"regeneration": 4}})
    m.do(("end_turn",))
    assert (m.hp(0), m.status(0, "regeneration")) == (25, 2)


def test_gaining_a_status_adds_to_its_level():
    """6 [ruling]: two Venoms make Poison 8 (one entry per type)."""
    m = position(p0={"hand": ["Venom", "Venom"], "mana": 4}, first=C)
    m.do(("play", "Venom"))
    m.do(("play", "Venom"))
    assert m.status(1, "poison") == 8


def test_shield_and_strength_never_decay():
    """6: Shield and Strength keep their levels over a turn start."""
    m = position(turn=2, phase="discard", p0={"statuses": {"shield": 3, "strength": 1}})
    m.do(("end_turn",))
    assert (m.status(0, "shield"), m.status(0, "strength")) == (3, 1)


# ---- section 2: distance ----------------------------------------------------------------------------------


def test_advance_or_retreat_once_per_play_phase():
    """2: one of advance/retreat, at most once: after an advance both are refused."""
    m = position()
    m.do(("advance",))
    assert m.distance == 2
    illegal(m, ("retreat",), "already advanced or retreated")
    illegal(m, ("advance",), "already advanced or retreated")


def test_distance_stays_within_0_and_9():
    """2 [ruling]: advancing at 0 and retreating at 9 are illegal."""
    illegal(position(distance=0), ("advance",), "already at its limit")
    illegal(position(distance=9), ("retreat",), "already at its limit")


def test_step_does_not_use_the_move_allowance():
    """2 [ruling]: after Step the player may still advance once."""
    m = position(p0={"hand": ["Step"]})
    m.do(("play", "Step", 2))
    m.do(("advance",))
    assert m.distance == 4


def test_step_value_within_its_range_and_the_board():
    """6 [a, b]: Step takes an integer in [-2, 2] whose result stays in 0..9."""
    m = position(distance=8, p0={"hand": ["Step"]})
    illegal(m, ("play", "Step", 2), "would leave")
    illegal(m, ("play", "Step", -3), "outside the card's")
    illegal(m, ("play", "Step"), "needs a value")
    illegal(m, ("play", "Step", 1.0), "must be an integer")
    assert [a for a in m.legal_actions() if a[:2] == ("play", "Step")] == [
        ("play", "Step", -2), ("play", "Step", -1), ("play", "Step", 0), ("play", "Step", 1)]
    m.do(("play", "Step", 1))
    assert m.distance == 9


def test_weapon_out_of_range_does_not_fire_but_counts_as_the_use():
    """2, 5.4: Dagger (range 1) at distance 2 deals nothing; the turn's weapon use is spent."""
    m = position(distance=2, p0={"equipment": ["Dagger", "Greataxe"]})
    m.do(("use", "Dagger"))
    assert m.hp(1) == 25
    illegal(m, ("use", "Greataxe"), "already used this turn")


def test_out_of_range_use_still_charges():
    """2: Greataxe (range 2, Charge 1) at distance 3 still stores its charge."""
    m = position(distance=3, p0={"equipment": ["Greataxe"]})
    m.do(("use", "Greataxe"))
    assert page(m)["players"][0]["equipment"][0]["charge"] == 1


def test_out_of_range_use_still_starts_the_cooldown(tmp_path):
    """2, 6 Cooldown [ruling]: a Longbow patched to range 2 used at distance 3 fires nothing but cools."""
    sc = patched(tmp_path, "[cards.Longbow]\nrange = 2\n")
    m = position(distance=3, p0={"equipment": ["Longbow"], "own_turns": 4}, scenario=sc, first=C)
    m.do(("use", "Longbow"))
    assert m.hp(1) == 25
    assert page(m)["players"][0]["equipment"][0]["ready_on"] == 6


# ---- section 3: zones, drawing, hand limit ------------------------------------------------------------------


def test_draw_takes_the_top_of_the_source_pile():
    """3: at turn start the top two cards of the source pile come to hand."""
    m = position(turn=2, phase="discard", p0={"source": ["Rage", "ShadowBolt", "Strike"]})
    m.do(("end_turn",))
    p0 = page(m)["players"][0]
    assert (p0["hand"], p0["source"][0]) == (["Rage", "ShadowBolt"], "Strike")


def _all_but(deck, keep):
    """The deck's card names less ``keep`` (a list with repeats)."""
    names = [duel().rules.names[int(c)] for c in deck_list(duel().rules, deck)]
    for k in keep:
        names.remove(k)
    return names


def test_empty_source_pile_takes_in_the_shuffled_discard_pile_when_drawing():
    """3 [ruling]: with no source pile and 3 discarded cards, a 2-card draw shuffles the 3 in and takes 2."""
    disc = ["Rage", "Strike", "Guard"]
    m = position(turn=2, phase="discard", p0={"discard": disc, "removed": _all_but(A, disc)})
    assert page(m)["players"][0]["counts"]["source"] == 0
    m.do(("end_turn",))
    p0 = page(m)["players"][0]
    assert (len(p0["hand"]), len(p0["source"]), p0["discard"]) == (2, 1, [])
    assert sorted(p0["hand"] + p0["source"]) == sorted(disc)


def test_drawing_from_two_empty_piles_does_nothing():
    """3 [ruling]: no source and no discard pile: the draw does nothing."""
    m = position(turn=2, phase="discard", p0={"hand": ["Strike"], "removed": _all_but(A, ["Strike"])})
    m.do(("end_turn",))
    assert page(m)["players"][0]["hand"] == ["Strike"]


def test_hand_limit_at_the_end_of_the_discard_phase_only():
    """3: 8 cards in hand are fine in the play phase; the turn cannot end above 6; discards bring it down."""
    hand = ["Strike", "Strike", "Guard", "Guard", "Step", "Step", "Rage", "Rage"]
    m = position(p0={"hand": hand})
    m.do(("play", "Guard"))
    m.do(("end_play",))
    illegal(m, ("end_turn",), "over the limit")
    m.do(("discard", "Rage"))
    m.do(("end_turn",))
    assert (m.turn, len(page(m)["players"][0]["hand"])) == (2, 6)


def test_discard_only_in_the_discard_phase_and_plays_only_in_the_play_phase():
    """7: discarding is refused in the play phase, playing in the discard phase."""
    m = position(p0={"hand": ["Guard"]})
    illegal(m, ("discard", "Guard"), "not in the discard phase")
    m.do(("end_play",))
    illegal(m, ("play", "Guard"), "not in the play phase")


def test_cards_in_hand_are_used_only_by_their_owner_in_their_turn():
    """3: in seat 0's turn seat 1's Mend cannot be played."""
    m = position(p1={"hand": ["Mend"]})
    illegal(m, ("play", "Mend"), "no such card in hand")


# ---- section 4: resources ----------------------------------------------------------------------------------


def test_resources_refill_at_own_turn_start_and_unused_are_lost():
    """4 [authored]: 0 AP and 1 mana left at turn end; the next own turn starts with 2 AP and 3 mana."""
    m = position(phase="discard", p0={"ap": 0, "mana": 1})
    m.do(("end_turn",))
    end_turn(m)
    p0 = page(m)["players"][0]
    assert (m.turn, p0["ap"], p0["mana"]) == (3, 2, 3)


# ---- section 5: card types --------------------------------------------------------------------------------


def test_action_card_costs_one_action_point():
    """5.1: Strike spends 1 AP and goes to the discard pile; with no AP it is refused."""
    m = position(distance=1, p0={"hand": ["Strike", "Strike"], "ap": 1})
    m.do(("play", "Strike"))
    p0 = page(m)["players"][0]
    assert (p0["ap"], p0["discard"]) == (0, ["Strike"])
    illegal(m, ("play", "Strike"), "not enough action points")


def test_magic_card_costs_its_mana():
    """5.2: Venom (2 mana) with 1 mana is refused; with 2 it poisons and goes to the discard pile."""
    illegal(position(first=C, p0={"hand": ["Venom"], "mana": 1}), ("play", "Venom"), "not enough mana")
    m = position(first=C, p0={"hand": ["Venom"], "mana": 2})
    m.do(("play", "Venom"))
    p0 = page(m)["players"][0]
    assert (p0["mana"], p0["discard"], m.status(1, "poison")) == (0, ["Venom"], 4)


def test_action_magic_costs_an_action_point_and_mana_and_remove_takes_it_out():
    """5.3 [ruling], 6 Remove: Rage needs 1 AP and 1 mana, gives Strength 1 and is removed from the game."""
    illegal(position(p0={"hand": ["Rage"], "ap": 0}), ("play", "Rage"), "not enough action points")
    illegal(position(p0={"hand": ["Rage"], "mana": 0}), ("play", "Rage"), "not enough mana")
    m = position(p0={"hand": ["Rage"]})
    m.do(("play", "Rage"))
    p0 = page(m)["players"][0]
    assert (p0["ap"], p0["mana"], p0["statuses"]["strength"], p0["removed"], p0["discard"]) == (1, 2, 1, ["Rage"], [])


def test_weapons_equip_free_any_number_but_not_used_the_turn_equipped():
    """5.4: two weapons equip in one turn at no cost; neither can be used that turn."""
    m = position(p0={"hand": ["Dagger", "Greataxe"]})
    m.do(("equip", "Dagger"))
    m.do(("equip", "Greataxe"))
    p0 = page(m)["players"][0]
    assert ([e["card"] for e in p0["equipment"]], p0["ap"], p0["mana"]) == (["Dagger", "Greataxe"], 2, 3)
    illegal(m, ("use", "Dagger"), "equipped this turn")


def test_one_weapon_use_per_turn():
    """5.4: after the Dagger hits, the Greataxe cannot be used the same turn."""
    m = position(distance=1, p0={"equipment": ["Dagger", "Greataxe"]})
    m.do(("use", "Dagger"))
    assert m.hp(1) == 22
    illegal(m, ("use", "Greataxe"), "already used this turn")


def test_attachment_needs_an_own_weapon_costs_mana_and_one_per_turn():
    """5.5: VenomCoating without a weapon is refused; on a weapon equipped this turn it is fine and
    costs 1 mana; a second attachment the same turn is refused."""
    m = position(p0={"hand": ["VenomCoating", "Dagger"]})
    assert not [a for a in m.legal_actions() if a[0] == "attach"]
    illegal(m, ("attach", "VenomCoating", "Dagger"), "not an own equipped weapon")
    m.do(("equip", "Dagger"))
    m.do(("attach", "VenomCoating", "Dagger"))
    p0 = page(m)["players"][0]
    assert (p0["mana"], p0["equipment"][1]["on"], p0["attached"]) == (2, "Dagger", True)
    m = position(p0={"hand": ["VenomCoating"], "equipment": ["Dagger"], "attached": True})
    illegal(m, ("attach", "VenomCoating", "Dagger"), "attachment card was already used")


def test_attachment_adds_to_the_attack_effect_only_when_it_happens():
    """5.5, 9 VenomCoating: Dagger in range deals 3 and poisons 2; out of range neither."""
    m = position(distance=1, p0={"equipment": ["Dagger", {"card": "VenomCoating", "on": "Dagger"}]})
    m.do(("use", "Dagger"))
    assert (m.hp(1), m.status(1, "poison")) == (22, 2)
    m = position(distance=2, p0={"equipment": ["Dagger", {"card": "VenomCoating", "on": "Dagger"}]})
    m.do(("use", "Dagger"))
    assert (m.hp(1), m.status(1, "poison")) == (25, 0)


def test_a_weapon_carries_several_attachments(tmp_path):
    """5.5: with two VenomCoatings in the core, both on one Dagger poison 2 each."""
    sc = patched(tmp_path, "[decks.core]\nStrike = 3\nVenomCoating = 2\n")
    m = position(distance=1, scenario=sc, p0={"hand": ["VenomCoating"], "equipment": [
        "Dagger", {"card": "VenomCoating", "on": "Dagger"}]})
    m.do(("attach", "VenomCoating", "Dagger"))
    m.do(("use", "Dagger"))
    assert (m.hp(1), m.status(1, "poison")) == (22, 4)


def test_persistent_magic_costs_mana_stays_and_acts_at_own_turn_start():
    """5.6, 7.1.2: Barrier costs 2 mana, stays in the equipment zone, gives Shield 1 at each own turn
    start and nothing at the opponent's."""
    illegal(position(p0={"hand": ["Barrier"], "mana": 1}), ("play", "Barrier"), "not enough mana")
    m = position(p0={"hand": ["Barrier"]})
    m.do(("play", "Barrier"))
    p0 = page(m)["players"][0]
    assert (p0["mana"], [e["card"] for e in p0["equipment"]]) == (1, ["Barrier"])
    end_turn(m)
    assert m.status(0, "shield") == 0
    end_turn(m)
    assert m.status(0, "shield") == 1


def test_counter_set_is_free_and_one_per_turn():
    """5.7: setting Reflect costs nothing; a second Reflect the same turn is refused."""
    m = position(p0={"hand": ["Reflect", "Reflect"]})
    m.do(("set", "Reflect"))
    p0 = page(m)["players"][0]
    assert (p0["ap"], p0["mana"], p0["traps"]) == (2, 3, ["Reflect"])
    illegal(m, ("set", "Reflect"), "already set this turn")


def test_distance_requirements_of_cards():
    """5: Strike needs distance <= 1, Venom <= 3, ShadowBolt <= 6."""
    illegal(position(distance=2, p0={"hand": ["Strike"]}), ("play", "Strike"), "distance does not meet")
    illegal(position(first=C, distance=4, p0={"hand": ["Venom"]}), ("play", "Venom"), "distance does not meet")
    illegal(position(distance=7, p0={"hand": ["ShadowBolt"]}), ("play", "ShadowBolt"), "distance does not meet")
    position(distance=6, p0={"hand": ["ShadowBolt"]}).do(("play", "ShadowBolt"))


def test_a_card_used_the_wrong_way_is_refused():
    """5, 8: a weapon cannot be played as a spell, nor a spell equipped."""
    m = position(p0={"hand": ["Dagger", "Guard"]})
    illegal(m, ("play", "Dagger"), "type is not used this way")
    illegal(m, ("equip", "Guard"), "type is not used this way")


# ---- section 6: Charge, Cooldown --------------------------------------------------------------------------


def test_charge_one_use_charges_the_next_fires_and_resets():
    """6 Charge: Greataxe in range: 1st use charges (no damage), 2nd deals 6 and spends the charge."""
    m = position(distance=2, p0={"equipment": ["Greataxe"]})
    m.do(("use", "Greataxe"))
    assert m.hp(1) == 25
    end_turn(m)
    end_turn(m)
    m.do(("use", "Greataxe"))
    assert m.hp(1) == 19
    assert page(m)["players"][0]["equipment"][0]["charge"] == 0


def test_full_charge_out_of_range_is_kept():
    """6 Charge [ruling]: a charged Greataxe used at distance 3 does nothing and keeps its charge."""
    m = position(distance=3, p0={"equipment": [{"card": "Greataxe", "charge": 1}]})
    m.do(("use", "Greataxe"))
    assert m.hp(1) == 25
    assert page(m)["players"][0]["equipment"][0]["charge"] == 1


def test_charge_resets_false_fires_every_later_use(tmp_path):
    """6 key charge_resets = false: once charged the Greataxe keeps its charge after firing."""
    sc = patched(tmp_path, "[rules]\ncharge_resets = false\n")
    m = position(distance=2, scenario=sc, p0={"equipment": [{"card": "Greataxe", "charge": 1}]})
    m.do(("use", "Greataxe"))
    assert m.hp(1) == 19
    assert page(m)["players"][0]["equipment"][0]["charge"] == 1


def test_cooldown_blocks_the_next_own_turns():
    """6 Cooldown 1: a Longbow used in own turn 1 is refused in own turn 2 and usable in own turn 3."""
    m = position(first=C, distance=5, p0={"equipment": ["Longbow"]})
    m.do(("use", "Longbow"))
    assert m.hp(1) == 22
    end_turn(m)
    end_turn(m)
    illegal(m, ("use", "Longbow"), "cooling down")
    end_turn(m)
    end_turn(m)
    m.do(("use", "Longbow"))
    assert m.hp(1) == 19


# ---- section 7: turn structure -----------------------------------------------------------------------------


def test_seat_zero_plays_odd_turns():
    """7: after turn 1 (seat 0) comes turn 2 (seat 1), then turn 3 (seat 0)."""
    m = position()
    seats = []
    for _ in range(3):
        seats.append((m.turn, m.to_act))
        end_turn(m)
    assert seats == [(1, 0), (2, 1), (3, 0)]


def test_turn_start_order_poison_before_regeneration_and_draw():
    """7.1 [ruling]: at 1 HP with Poison 2 and Regeneration 4 the Poison tick kills first: no heal, no draw."""
    m = position(turn=2, phase="discard", p0={"hp": 1, "statuses": {"poison": 2, "regeneration": 4}})
    m.do(("end_turn",))
    assert (m.over, m.winner, m.hp(0), m.status(0, "regeneration")) == (True, "second", 0, 4)
    assert page(m)["players"][0]["hand"] == []


def test_persistent_magic_resolves_before_statuses():
    """7.1.2-3 [ruling]: Barrier's Shield comes before the Poison tick (which it cannot stop: piercing)."""
    m = position(turn=2, phase="discard", p0={"equipment": ["Barrier"], "statuses": {"poison": 2}})
    m.do(("end_turn",))
    assert (m.status(0, "shield"), m.hp(0)) == (1, 24)


# ---- section 11: end of game ---------------------------------------------------------------------------------


def test_turn_cap_is_a_draw_by_default():
    """11 [ruling]: after turn 60 ends the game is over: a draw, end reason turn_limit."""
    m = position(turn=60, phase="discard", p0={"hp": 20})
    m.do(("end_turn",))
    assert (m.over, m.winner, m.end_reason, m.turn) == (True, "draw", "turn_limit", 60)


def test_turn_cap_by_hp(tmp_path):
    """11 key turn_limit_result = "hp": more HP wins at the cap, equal HP is a draw."""
    sc = patched(tmp_path, '[rules]\nturn_limit_result = "hp"\n')
    m = position(turn=60, phase="discard", p0={"hp": 20}, p1={"hp": 21}, scenario=sc)
    m.do(("end_turn",))
    assert (m.winner, m.end_reason) == ("second", "turn_limit")
    m = position(turn=60, phase="discard", p0={"hp": 21}, p1={"hp": 21}, scenario=sc)
    m.do(("end_turn",))
    assert m.winner == "draw"
