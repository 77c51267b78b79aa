"""Scores of every candidate action of the current player, for a whole batch at once.

Each ``score_*`` function returns float32 scores shaped like the matching legal-action mask of
:mod:`simkit.games.miracle.rules`, ``-inf`` where the action is not legal. A score is the weighted
sum of the action's features (see :class:`~simkit.games.miracle.bots_config.Weights`); the
quantities every part needs (threat maps, garrison goals) are gathered once in a
:class:`Situation`. Everything is array work over games, units and cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.games.miracle import rules as R
from simkit.games.miracle.bots_config import BotConfig
from simkit.games.miracle.bots_tables import FAR, BotTables
from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.state import State
from simkit.games.miracle.tables import Rules

F32 = np.float32
NEG = np.float32(-np.inf)


@dataclass
class Situation:
    """What the current player of each game sees before choosing (B games, S slots per side, C cells)."""

    rows: np.ndarray  # int[B] 0..B-1
    cur: np.ndarray  # int[B] side to act
    foe: np.ndarray  # int[B] the other side
    mine: np.ndarray  # int[B, S] slots of the side to act
    theirs: np.ndarray  # int[B, S] slots of the other side
    atk: np.ndarray  # int[B, U] current attack (0 for empty slots)
    value: np.ndarray  # float32[B, U] worth of each unit (0 for empty slots)
    threat: np.ndarray  # float32[B, 2, C] enemy attack able to reach each cell next turn, [ground, flying] layer
    threatens: np.ndarray  # bool[B, U] enemy units able to hit the own miracle next turn
    own_threat: np.ndarray  # float32[B] their summed attack
    home_count: np.ndarray  # int[B] own units within home_radius of the own miracle
    garrison_goal: np.ndarray  # float32[B, C] ground steps to a garrison worth taking, plus the detour
    garrison_worth: np.ndarray  # float32[B, C] capture and denial worth of standing on each cell (ground)


def situate(rules: Rules, tab: BotTables, cfg: BotConfig, st: State, atk: np.ndarray) -> Situation:
    """Gather the :class:`Situation` of every game.

    Args:
        rules, tab, cfg: the scenario's rules, the bot tables and the personality.
        st: the games.
        atk: ``int[B, U]`` current attack (``rules.attack_now``).
    """
    cards, board = rules.cards, rules.board
    w = cfg.weights
    b = st.batch
    rows = np.arange(b)
    r2 = rows[:, None]
    cur = st.current.astype(np.int64)
    foe = 1 - cur
    side = np.arange(rules.side_units)
    mine, theirs = cur[:, None] * rules.side_units + side, foe[:, None] * rules.side_units + side
    lv = st.level.astype(np.int64) - 1
    value = np.where(st.alive, tab.value[st.kind, lv], 0).astype(F32)

    tk, tl = st.kind[r2, theirs], lv[r2, theirs]
    t_atk = atk[r2, theirs].astype(F32)
    reach = cards.move[tk, tl] + cards.range_max[tk, tl]
    within = (board.grid.distance[st.cell[r2, theirs]] <= reach[..., None]).astype(F32)  # (B, S, C)
    ground = np.matmul(t_atk[:, None, :], within)[:, 0]
    air = np.matmul((t_atk * R.hits_air(rules, tk))[:, None, :], within)[:, 0]
    md = board.miracle_distance[cur[:, None], st.cell[r2, theirs]]
    hits_home = (t_atk > 0) & (md <= reach)
    threatens = np.zeros(st.alive.shape, bool)
    threatens[r2, theirs] = hits_home

    home = tab.miracle_distance[cur[:, None], st.cell[r2, mine]] <= cfg.home_radius
    home_count = (home & st.alive[r2, mine]).sum(1)

    occ, _ = R.occupancy(rules, st)
    holder = occ[:, board.garrisons]  # (B, G)
    held = (holder >= 0) & (st.side[r2, np.maximum(holder, 0)] == cur[:, None])
    owner = st.garrison_owner
    target = (owner != cur[:, None]) & ~held
    steps = tab.garrison_steps.astype(F32) + F32(cfg.garrison_detour)
    goal = np.where(target[:, :, None], steps[None], F32(FAR)).min(1, initial=F32(FAR))
    worth = np.zeros((b, board.grid.size), F32)
    capture, denial = owner != cur[:, None], owner == foe[:, None]
    worth[:, board.garrisons] = w.garrison_capture * capture + w.garrison_denial * denial
    return Situation(
        rows=rows, cur=cur, foe=foe, mine=mine, theirs=theirs, atk=atk, value=value,
        threat=np.stack([ground, air], 1), threatens=threatens, own_threat=(t_atk * hits_home).sum(1),
        home_count=home_count, garrison_goal=goal, garrison_worth=worth,
    )


def _goal(tab: BotTables, sit: Situation, rules: Rules, games: np.ndarray, kind, level0) -> np.ndarray:
    """``float32[..., C]`` steps to the goal of units of ``kind``/``level0`` (broadcast) in ``games``."""
    extra = (1,) * (np.ndim(kind) - 1)
    foe = sit.foe[games].reshape(-1, *extra)
    goal = tab.approach[kind, level0, foe].astype(F32)
    ground = ~rules.cards.flying[kind]
    garrison = sit.garrison_goal[games].reshape(len(games), *extra, -1)
    return np.where(ground[..., None], np.minimum(goal, garrison), goal)


def _risk(value, threat, hp) -> np.ndarray:
    """Value at risk: ``value`` times the share of ``hp`` that ``threat`` could take."""
    hp = np.maximum(hp, 1).astype(F32)
    return value * np.minimum(threat, hp) / hp


def score_attacks(rules: Rules, cfg: BotConfig, sit: Situation, st: State, mask: np.ndarray) -> np.ndarray:
    """``float32[B, U, U + 1]`` scores of the legal attacks in ``mask`` (last column: the enemy miracle).

    Only games with a legal attack are scored, and only the side to act's slots as attackers.
    """
    out = np.full(mask.shape, NEG, F32)
    g = np.nonzero(mask.any((1, 2)))[0]
    if len(g) == 0:
        return out
    cards, w = rules.cards, cfg.weights
    n = np.arange(len(g))[:, None]
    mine = sit.mine[g]  # (n, S) attackers; targets are all U slots
    kind, lv = st.kind[g], st.level[g].astype(np.int64) - 1
    atk, hp, shield = sit.atk[g].astype(F32), st.hp[g].astype(F32), st.shield[g]
    fly, value, cells = cards.flying[kind], sit.value[g], st.cell[g]
    a, hp_t, sh_t = atk[n, mine][:, :, None], np.maximum(hp, 1)[:, None, :], shield[:, None, :]
    dealt = np.where(sh_t, 0, np.minimum(a, hp_t))
    kill = ~sh_t & (a >= hp_t)
    s = w.damage * dealt + w.kill * kill * value[:, None, :] + w.shield_break * sh_t
    # counter-attack: the attacker within the target's range, target attack > 0, layer reachable
    dist = R.cell_distance(rules, cells[n, mine][:, :, None], cells[:, None, :])  # (n, S, U)
    lo, hi = cards.range_min[kind, lv], cards.range_max[kind, lv]
    counter = (
        (dist >= lo[:, None, :]) & (dist <= hi[:, None, :]) & (atk[:, None, :] > 0)
        & (~fly[n, mine][:, :, None] | R.hits_air(rules, kind)[:, None, :])
    )
    hp_u, back = hp[n, mine][:, :, None], atk[:, None, :]
    hurt = counter & ~shield[n, mine][:, :, None]
    s += w.counter_damage * np.where(hurt, np.minimum(back, hp_u), 0)
    s += w.loss * (hurt & (back >= hp_u)) * value[n, mine][:, :, None]
    share = np.where(kill, 1, dealt / hp_t)
    s += w.defend * share * (atk * sit.threatens[g])[:, None, :]
    # VolcanoDragon splash on enemy ground units next to a ground target and 2 from the attacker
    splash = np.where(st.alive[g], cards.splash[kind, lv], 0)[n, mine]  # (n, S)
    if (splash > 0).any():
        victim = st.alive[g] & (st.side[g] == sit.foe[g][:, None]) & ~fly
        pair = R.cell_distance(rules, cells[:, :, None], cells[:, None, :])
        near = ((pair == 1) & victim[:, None, :]).astype(F32)  # (n, target, victim)
        far = ((dist == 2) & victim[:, None, :]).astype(F32)  # (n, attacker, victim)
        for amount in np.unique(splash[splash > 0]):
            taken = np.where(shield, 0, np.minimum(F32(amount), hp)) * victim
            killed = (~shield & (amount >= hp) & victim) * value
            worth = w.damage * taken + w.kill * killed
            gain = np.matmul(far, (near * worth[:, None, :]).transpose(0, 2, 1))  # (n, attacker, target)
            s += np.where((splash == amount)[:, :, None] & ~fly[:, None, :], gain, 0)
    miracle_hp = st.miracle_hp[g, sit.foe[g]].astype(F32)[:, None]
    at_miracle = w.miracle_damage * np.minimum(a[:, :, 0], miracle_hp) + w.miracle_kill * (a[:, :, 0] >= miracle_hp)
    full = np.concatenate([s, at_miracle[:, :, None]], 2).astype(F32)
    out[g[:, None], mine] = np.where(mask[g[:, None], mine], full, NEG)
    return out


def score_moves(
    rules: Rules, tab: BotTables, cfg: BotConfig, sit: Situation, st: State, mask: np.ndarray
) -> np.ndarray:
    """``float32[B, U, C]`` scores of the legal moves in ``mask``; only units with a legal move are scored."""
    out = np.full(mask.shape, NEG, F32)
    pb, pu = np.nonzero(mask.any(2))
    if len(pb) == 0:
        return out
    cards, grid, w = rules.cards, rules.board.grid, cfg.weights
    p = np.arange(len(pb))
    k, lv = st.kind[pb, pu], st.level[pb, pu].astype(np.int64) - 1
    fly = cards.flying[k]
    here = st.cell[pb, pu]

    def gain(table: np.ndarray) -> np.ndarray:  # (P, C) table's value at the unit's cell minus at each cell
        return table[p, here][:, None] - table

    s = w.advance * gain(_goal(tab, sit, rules, pb, k, lv))
    risk = _risk(sit.value[pb, pu][:, None], sit.threat[pb, fly.astype(np.int64)], st.hp[pb, pu][:, None])
    s -= w.exposure * gain(risk)
    s -= np.where(fly[:, None], 0, gain(sit.garrison_worth[pb]))
    own = tab.miracle_distance[sit.cur[pb]].astype(F32)  # (P, C)
    home = own <= cfg.home_radius
    leaving = home[p, here][:, None] & ~home & (sit.home_count[pb] <= cfg.home_guard)[:, None]
    s += w.keep_defender * leaving
    danger = np.minimum(sit.own_threat / np.maximum(st.miracle_hp[sit.rows, sit.cur], 1), 1)[pb]
    s += w.home_return * danger[:, None] * gain(own)
    s += w.defend * _hunt(rules, sit, st, pb, k, lv, here)
    aura = cards.aura[k, lv]
    sel = np.nonzero(aura > 0)[0]
    if len(sel) and w.support:
        games = pb[sel]
        friends = sit.mine[games]  # (Q, S)
        others = st.alive[games[:, None], friends] & (friends != pu[sel][:, None])
        near = grid.distance[st.cell[games[:, None], friends]] <= cards.aura_range[k, lv][sel][:, None, None]
        count = (near & others[:, :, None]).sum(1).astype(F32)  # (Q, C)
        q = np.arange(len(sel))
        s[sel] += w.support * aura[sel][:, None] * (count - count[q, here[sel]][:, None])
    out[pb, pu] = np.where(mask[pb, pu], s, NEG)
    return out


def _hunt(rules: Rules, sit: Situation, st: State, pb, k, lv, here) -> np.ndarray:
    """``float32[P, C]`` steps gained toward attacking range of the nearest enemy that threatens the
    own miracle and that the unit can hit, times the attack of all such enemies in the game."""
    out = np.zeros((len(pb), rules.board.grid.size), F32)
    count = sit.threatens.sum(1)
    sel = np.nonzero(count[pb] > 0)[0]
    if len(sel) == 0:
        return out
    pb, k, lv, here = pb[sel], k[sel], lv[sel], here[sel]
    cards = rules.cards
    lo = np.maximum(cards.range_min[k, lv], 1)
    hi = cards.range_max[k, lv]
    air = R.hits_air(rules, k)
    # units of one game with the same range and layer reach share one offset map: compute it once
    span = int(cards.range_max.max()) + 1
    key = ((pb.astype(np.int64) * span + lo) * span + hi) * 2 + air
    _, first, back = np.unique(key, return_index=True, return_inverse=True)
    gb, glo, ghi, gair = pb[first], lo[first], hi[first], air[first]
    most = int(count[gb].max())
    slots = np.argsort(~sit.threatens, axis=1, kind="stable")[gb, :most]  # (Q, T) threatening slots first
    valid = sit.threatens[gb[:, None], slots]
    valid &= ~cards.flying[st.kind[gb[:, None], slots]] | gair[:, None]
    d = rules.board.grid.distance[st.cell[gb[:, None], slots]]  # (Q, T, C)
    off = np.maximum(np.maximum(d - ghi[:, None, None], glo[:, None, None] - d), 0)
    off = np.where(valid[:, :, None], off, FAR).min(1).astype(F32)[back.ravel()]  # (P, C)
    p = np.arange(len(pb))
    gain = np.where(off[p, here][:, None] < FAR, off[p, here][:, None] - off, 0)
    out[sel] = gain * sit.own_threat[pb][:, None]
    return out


def _summon_base(cards, w, kind, level0) -> np.ndarray:
    """Weighted stats of a new unit of ``kind``/``level0`` (broadcast), mana included."""
    support = cards.heal[kind, level0] + cards.aura[kind, level0] + cards.splash[kind, level0]
    return (
        w.unit_attack * cards.attack[kind, level0] + w.unit_hp * cards.hp[kind, level0]
        + w.unit_support * support + w.unit_move * cards.move[kind, level0]
    ).astype(F32)


def score_summons(
    rules: Rules, tab: BotTables, cfg: BotConfig, sit: Situation, st: State, mask: np.ndarray
) -> np.ndarray:
    """``float32[B, 3, 3, C]`` scores of the legal summons by deck slot, level and spawn point."""
    out = np.full(mask.shape, NEG, F32)
    g = np.nonzero(mask.any((1, 2, 3)))[0]
    if len(g) == 0:
        return out
    cards, w = rules.cards, cfg.weights
    kind = st.deck_kind[g, sit.cur[g]].astype(np.int64)[:, :, None]  # (n, 3, 1)
    level0 = np.arange(3)[None, None, :]
    base = _summon_base(cards, w, kind, level0) + w.mana * cards.cost[kind, level0]  # (n, 3, 3)
    goal = _goal(tab, sit, rules, g, kind, level0)  # (n, 3, 3, C)
    legal = mask[g]
    best = np.where(legal, goal, F32(FAR)).min(-1, keepdims=True)
    threat = sit.threat[g[:, None], cards.flying[kind[:, :, 0]].astype(np.int64)][:, :, None, :]  # (n, 3, 1, C)
    hp = cards.hp[kind, level0][..., None]
    s = base[..., None] - w.advance * (goal - best) + w.exposure * _risk(tab.value[kind, level0][..., None], threat, hp)
    out[g] = np.where(legal, s, NEG)
    return out


def score_uses(
    rules: Rules, tab: BotTables, cfg: BotConfig, sit: Situation, st: State, cells: np.ndarray, units: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(float32[B, C], float32[B, U])`` scores of the legal artifact uses on cells and on units."""
    out_c = np.full(cells.shape, NEG, F32)
    out_u = np.full(units.shape, NEG, F32)
    cards, grid, w = rules.cards, rules.board.grid, cfg.weights
    art = st.deck_artifact[sit.rows, sit.cur]
    effect = cards.artifact_effect[art]
    mana = w.mana * cards.artifact_cost[art].astype(F32)
    on_cell, on_unit = cells.any(1), units.any(1)

    def around(g: np.ndarray, slots: np.ndarray, radius: int) -> np.ndarray:
        """``float32[n, S, C]`` the live units of ``slots`` within ``radius`` of each cell."""
        near = grid.distance[st.cell[g[:, None], slots]] <= radius
        return (near & st.alive[g[:, None], slots][:, :, None]).astype(F32)

    def per_unit(x: np.ndarray, near: np.ndarray) -> np.ndarray:
        """``float32[n, C]``: the sum of ``x[n, S]`` over the units near each cell."""
        return np.matmul(x.astype(F32)[:, None, :], near)[:, 0]

    g = np.nonzero(on_cell & (effect == HOLY_LIGHT))[0]
    if len(g):
        e = cards.effect["HolyLight"]
        slots = sit.mine[g]
        near = around(g, slots, e["radius"])
        missing = (st.max_hp - st.hp)[g[:, None], slots]
        fighters = (sit.atk[g[:, None], slots] > 0) * (1 + st.ready[g[:, None], slots])
        s = w.heal * per_unit(missing, near) + w.buff * e["attack"] * per_unit(fighters, near) + mana[g, None]
        out_c[g] = np.where(cells[g], s, NEG)
    g = np.nonzero(on_cell & (effect == WIND_BLESSING))[0]
    if len(g):
        slots = sit.mine[g]
        near = around(g, slots, cards.effect["WindBlessing"]["radius"])
        ready = st.ready[g[:, None], slots]
        s = w.refresh * (per_unit(~ready, near) - per_unit(ready, near)) + mana[g, None]
        out_c[g] = np.where(cells[g], s, NEG)
    g = np.nonzero(on_cell & (effect == INFERNO_FLAME))[0]
    if len(g):
        e = cards.effect["InfernoFlame"]
        slots = sit.theirs[g]
        near = around(g, slots, e["radius"])
        hp = st.hp[g[:, None], slots].astype(F32)
        shield = st.shield[g[:, None], slots]
        burn = np.where(shield, 0, np.minimum(F32(e["damage"]), hp))
        killed = (~shield & (e["damage"] >= hp)) * sit.value[g[:, None], slots]
        s = w.damage * per_unit(burn, near) + w.kill * per_unit(killed, near)
        inferno = np.full(len(g), cards.inferno)
        goal = _goal(tab, sit, rules, g, inferno, np.zeros(len(g), np.int64))  # (n, C)
        best = np.where(cells[g], goal, F32(FAR)).min(-1, keepdims=True)
        hp_i = F32(cards.hp[cards.inferno, 0])
        s += _summon_base(cards, w, cards.inferno, 0) + mana[g, None] - w.advance * (goal - best)
        s += w.exposure * _risk(tab.value[cards.inferno, 0], sit.threat[g, 0], hp_i)
        out_c[g] = np.where(cells[g], s, NEG)
    g = np.nonzero(on_unit & (effect == SALAMANDER_SHIELD))[0]
    if len(g):
        fly = R.unit_flying(rules, st)[g].astype(np.int64)
        reached = sit.threat[g[:, None], fly, st.cell[g]] > 0
        s = w.shield * sit.value[g] * (1 + reached) + mana[g, None]
        out_u[g] = np.where(units[g], s, NEG)
    return out_c, out_u
