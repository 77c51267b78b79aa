"""Magic War's bots, compiled with the engine: ``random`` and the utility bot whose personalities are data.

The utility bot decides one action at a time (11.2: whole-turn plans are far too many), scoring every
legal action with the scenario's weights (``[bots.<name>]``, :data:`WEIGHT_NAMES`) and taking the best,
with Gumbel noise from its own stream:

* **attack** (single or combined): expected hits after the target's reductions (the exact binomial
  distribution, 11.3), capped by the target's HP, times the target's gold per HP (``damage``), plus the
  chance of a kill times the target's gold (``kill``); the enemy leader counts ``leader`` times per HP and
  its kill wins the game; splash on the enemies around the target is added; a combined attack pays for
  the joiners' own best attacks; own units are never attacked;
* **move**: the unit's position after the move against before: its best attack from there, its distance
  to the enemy leader (``advance``, growing by ``urgency`` per turn played, so that games end), the
  enemy dice that can reach the cell next turn (``threat``, ``leader_threat`` for the own leader) and,
  against splash units, its adjacent friends (``cluster``);
* **skill**: markers healed (``heal``), the extra expected hits of a free skill on a unit that can still
  attack (``buff``), a summoned unit's gold (``summon``), less the magic paid (``magic``; a tactical card
  paying magic costs half);
* **deployment**: melee and flying units on the front row, ranged on the back row (``front``), sturdy
  units next to the own leader (``guard``), the second player spreading against the first player's
  splash units (``cluster``);
* **end** the turn: 0 (the turn ends when nothing scores above it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.bot_tables import RANDOM  # noqa: F401 (the built-in bot; re-exported)
from simkit.games.kits.experience import note_choice
from simkit.games.kits.state import record
from simkit.games.magic.engine import (
    ATTACK,
    MAX_LEGAL,
    MOVE,
    OK,
    PLACE,
    SKILL,
    attack_dice,
    attack_range,
    attack_target_ok,
    aura,
    below,
    check,
    dealt,
    hp_left,
    in_ring,
    legal,
    mdist,
    move_points,
    occ,
    p_hit,
    relocate,
    step,
    threshold,
    word,
)
from simkit.games.magic.lead import note_step
from simkit.games.magic.state import (
    ALIVE,
    ATTACK_MODIFIER,
    CARD_SKILLS,
    DAMAGE_REDUCTION,
    FREE_ACTIVE,
    HEAL,
    OVER,
    PLAY,
    SPLASH,
)

F = np.float64

BOT_RANDOM, BOT_UTILITY = 0, 1
#: a utility personality's weights (``[bots.<name>]``, every one a scenario key), in file order
WEIGHTS = record("Weights", [
    ("damage", F),         # per expected hit on an enemy unit, times the target's gold per HP
    ("kill", F),           # per chance of a kill, times the target's gold value
    ("leader", F),         # damage and kills on the enemy leader count this many times more
    ("advance", F),        # per cell a unit (not the leader) gets closer to the enemy leader
    ("threat", F),         # per expected enemy hit a cell can take next turn, times the unit's gold per HP
    ("leader_threat", F),  # the same for the own leader
    ("heal", F),           # per marker healed, times the unit's gold per HP
    ("buff", F),           # per expected extra hit a free skill gives
    ("summon", F),         # per gold of a summoned unit
    ("magic", F),          # cost per magic spent (a tactical card spent as magic: half)
    ("cluster", F),        # per adjacent friend when the enemy has splash units
    ("guard", F),          # deployment: per gold of a unit next to the own leader
    ("front", F),          # deployment: melee and flying units on the front row, ranged on the back row
    ("urgency", F),        # advance grows by this share per global turn played
    ("noise", F),          # Gumbel noise on every score (the bot's own stream)
], "A utility personality: what each feature of a decision is worth to it.")
WEIGHT_NAMES = WEIGHTS.names
LEADER_KILL = 10000.0
#: most actions of one game (the turn limit bounds a game far below this; reaching it is a bug)
ACTION_CAP = 20000


@njit(cache=True)
def binom_into(pmf, n, p):
    """Convolve ``pmf`` (hits so far) with ``n`` dice hitting with chance ``p``, in place."""
    for _ in range(n):
        for h in range(pmf.shape[0] - 1, 0, -1):
            pmf[h] = pmf[h] * (1.0 - p) + pmf[h - 1] * p
        pmf[0] *= 1.0 - p


@njit(cache=True)
def worth_per_hp(g, v, rules, w):
    card = rules.cards[g.units[v].type]
    if card.leader == 1:
        return w.leader
    return card.cost / card.hp


@njit(cache=True)
def kill_worth(g, v, rules):
    card = rules.cards[g.units[v].type]
    return LEADER_KILL if card.leader == 1 else float(card.cost)


@njit(cache=True)
def unit_range(g, u, rules):
    """How far unit ``u``'s attack reaches (the engine's :func:`~simkit.games.magic.engine.attack_range`)."""
    return attack_range(rules.cards[g.units[u].type], rules)


@njit(cache=True)
def attack_score(g, a, b, joiners, bearer, rules, w):
    """The utility of the attack (see the module's words)."""
    p = g.to_act
    u, v = occ(g, a), occ(g, b)
    if g.units[v].side == p:
        return -1e9
    nc = rules.cols * rules.rows
    mod = aura(g, v, ATTACK_MODIFIER, rules)
    red = aura(g, v, DAMAGE_REDUCTION, rules)
    pmf = np.zeros(64, np.float64)
    pmf[0] = 1.0
    sides = rules.die_sides
    bear = occ(g, bearer)
    splash = 0.0
    for j in range(g.places):
        if j != u and not (g.units[j].status == ALIVE and (joiners >> g.units[j].cell) & 1):
            continue
        d = attack_dice(g, j, rules) - (mod if j == bear else 0)
        thr = threshold(g, j, rules)
        ph = p_hit(thr, sides)
        binom_into(pmf, d if d > 0 else 0, ph)
        card = rules.cards[g.units[j].type]
        for q in range(CARD_SKILLS):
            k = card.skills[q]
            if k < 0 or rules.skills[k].kind != SPLASH:
                continue
            skill = rules.skills[k]
            for cell in range(nc):
                x = occ(g, cell)
                if x < 0 or g.units[x].side == p:
                    continue
                if in_ring(skill, cell, b, rules.cols):
                    splash += skill.dice * ph * worth_per_hp(g, x, rules, w) * w.damage
    left = hp_left(g, v, rules)
    exp = 0.0
    kill = 0.0
    for h in range(64):
        hurt = dealt(h, red)
        if hurt <= 0:
            continue
        exp += pmf[h] * (hurt if hurt < left else left)
        if hurt >= left:
            kill += pmf[h]
    return w.damage * exp * worth_per_hp(g, v, rules, w) + w.kill * kill * kill_worth(g, v, rules) + splash


@njit(cache=True)
def best_attack(g, u, rules, w):
    """The best single attack score of unit ``u`` from where it stands (0 if none)."""
    best = 0.0
    if g.units[u].attacked == 1:
        return 0.0
    a = g.units[u].cell
    for cell in range(rules.cols * rules.rows):
        if g.board[cell] == 0 or attack_target_ok(g, u, cell, rules) != OK:
            continue
        x = attack_score(g, a, cell, 0, a, rules, w)
        if x > best:
            best = x
    return best


@njit(cache=True)
def threat_at(g, cell, p, rules):
    """Expected enemy hits that could reach ``cell`` next turn (each enemy in move + range of it)."""
    total = 0.0
    sides = rules.die_sides
    for e in range(g.places):
        enemy = g.units[e]
        if enemy.status != ALIVE or enemy.side == p:
            continue
        if mdist(enemy.cell, cell, rules.cols) <= move_points(g, e, rules) + unit_range(g, e, rules):
            total += attack_dice(g, e, rules) * p_hit(threshold(g, e, rules), sides)
    return total


@njit(cache=True)
def enemy_splash(g, p, rules):
    for e in range(g.places):
        enemy = g.units[e]
        if enemy.status != ALIVE or enemy.side == p:
            continue
        for q in range(CARD_SKILLS):
            k = rules.cards[enemy.type].skills[q]
            if k >= 0 and rules.skills[k].kind == SPLASH:
                return True
    return False


@njit(cache=True)
def friends_adjacent(g, cell, p, rules):
    n = 0
    for e in range(g.places):
        friend = g.units[e]
        if friend.status == ALIVE and friend.side == p and mdist(friend.cell, cell, rules.cols) == 1:
            n += 1
    return n


@njit(cache=True)
def position(g, u, rules, w, splashy):
    """The worth of unit ``u`` standing where it stands (its attack, advance, threat, clustering)."""
    unit = g.units[u]
    p = unit.side
    cell = unit.cell
    enemy_leader = g.sides[1 - p].leader
    x = 0.9 * best_attack(g, u, rules, w)
    card = rules.cards[unit.type]
    danger = threat_at(g, cell, p, rules)
    if card.leader == 1:
        x -= w.leader_threat * danger
    else:
        gap = mdist(cell, g.units[enemy_leader].cell, rules.cols) - unit_range(g, u, rules)
        x -= w.advance * (1.0 + w.urgency * g.turn) * (gap if gap > 0 else 0)
        x -= w.threat * danger * card.cost / card.hp * (1.0 if danger < hp_left(g, u, rules) else 1.5)
    if splashy:
        x -= w.cluster * friends_adjacent(g, cell, p, rules)
    return x


@njit(cache=True)
def skill_score(g, a, b, cards, rules, w):
    """The utility of a skill use (heal, free_active, summon)."""
    u = occ(g, a)
    t = g.units[u].type
    skill = rules.skills[rules.cards[t].active]
    m = skill.magic
    cost = w.magic * (m - cards) + 0.5 * w.magic * cards
    if skill.kind == HEAL:
        v = occ(g, b)
        h = min(skill.amount, g.units[v].markers)
        return w.heal * h * worth_per_hp(g, v, rules, w) - cost
    if skill.kind == FREE_ACTIVE:
        v = occ(g, b)
        target = g.units[v]
        if target.attacked == 1:
            return -1.0
        span = unit_range(g, v, rules) + (0 if target.moved == 1 else move_points(g, v, rules) + skill.move)
        near = False
        for e in range(g.places):
            if g.units[e].status == ALIVE and g.units[e].side != g.to_act and \
                    mdist(g.units[e].cell, b, rules.cols) <= span:
                near = True
        if not near:
            return -1.0
        sides = rules.die_sides
        thr = threshold(g, v, rules)
        dice = attack_dice(g, v, rules)
        gain = skill.dice * p_hit(thr - skill.precision, sides) + dice * (
            p_hit(thr - skill.precision, sides) - p_hit(thr, sides))
        hurt = skill.self_damage * worth_per_hp(g, u, rules, w) * w.damage
        return w.buff * gain - hurt - cost
    return w.summon * rules.cards[skill.unit].cost - cost


@njit(cache=True)
def place_score(g, t, cell, rules, w):
    """The utility of deploying a unit of card ``t`` on ``cell``."""
    p = g.to_act
    cols = rules.cols
    r = cell // cols
    front_row = rules.deploy_last_row[0] if p == 0 else rules.deploy_first_row[1]
    card = rules.cards[t]
    forward = card.ranged == 0 or card.flies == 1
    x = 0.0
    if (forward and r == front_row) or (not forward and r != front_row):
        x += w.front
    lead = g.sides[p].leader
    if mdist(cell, g.units[lead].cell, cols) == 1:
        x += w.guard * card.hp / 5.0
    x -= 0.05 * abs(cell % cols - cols // 2)
    return x


@njit(cache=True)
def score(g, row, rules, w, splashy):
    kind, a, b, c, d = row[0], row[1], row[2], row[3], row[4]
    if kind == PLACE:
        return place_score(g, a, b, rules, w)
    if kind == ATTACK:
        x = attack_score(g, a, b, c, d, rules, w)
        if c != 0:  # the joiners give up their own attacks
            for j in range(g.places):
                if g.units[j].status == ALIVE and (c >> g.units[j].cell) & 1:
                    x -= best_attack(g, j, rules, w) + 0.05
        return x
    if kind == MOVE:
        u = occ(g, a)
        before = position(g, u, rules, w, splashy)
        moved = g.units[u].moved
        relocate(g, u, b)          # the move tried on the game itself (5.4's effect, the engine's), then undone
        g.units[u].moved = 1
        after = position(g, u, rules, w, splashy)
        relocate(g, u, a)
        g.units[u].moved = moved
        return after - before - 0.01
    if kind == SKILL:
        return skill_score(g, a, b, c, rules, w)
    return 0.0


@njit(cache=True)
def gumbel(key, k):
    x = (word(key, k) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    if x < 1e-300:
        x = 1e-300
    return -np.log(-np.log(x)) if x < 1.0 else 0.0


@njit(cache=True)
def choose(g, out, n, kind, w, key, ctr, rules):
    """The index of the action the bot takes among ``out[:n]``; ``ctr[0]`` counts its stream's draws."""
    if kind == BOT_RANDOM or n == 1:
        i = below(key, ctr[0], n)
        ctr[0] += 1
        return i
    splashy = g.phase == PLAY and enemy_splash(g, g.to_act, rules)
    best, arg = -1e18, 0
    for i in range(min(n, out.shape[0])):
        x = score(g, out[i], rules, w, splashy)
        if w.noise > 0:
            x += w.noise * gumbel(key, ctr[0])
            ctr[0] += 1
        if x > best:
            best, arg = x, i
    return arg


@njit(cache=True)
def play_game(g, kinds, weights, keys, rules, record, lead, band, x):
    """Play the game ``g`` to its end between the two bots; the actions go to ``record`` (rows of 5)
    when it has room, each decision and the lead at each turn's end to the experience record ``x``
    (:mod:`simkit.games.magic.lead`: ``lead`` its weights, ``band`` the level band). Returns the number of
    actions, or -1 if the game passed :data:`ACTION_CAP`."""
    out = np.zeros((MAX_LEGAL, 5), np.int64)
    ctrs = np.zeros((2, 1), np.int64)
    k = 0
    while g.phase != OVER:
        p = g.to_act
        n = legal(g, out, rules, False)
        note_choice(x, n)
        n = min(n, out.shape[0])
        i = choose(g, out, n, kinds[p], weights[p], keys[p], ctrs[p], rules)
        kind, a, b, c, d = out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4]
        if check(g, kind, a, b, c, d, rules) != OK:
            return -2
        if k < record.shape[0]:
            record[k, 0], record[k, 1], record[k, 2], record[k, 3], record[k, 4] = kind, a, b, c, d
        turn = g.turn
        step(g, kind, a, b, c, d, rules)
        if g.turn != turn or g.phase == OVER:  # a turn ended: its lead is noted
            note_step(x, g, turn, rules, lead, band)
        k += 1
        if k > ACTION_CAP:
            return -1
    return k
