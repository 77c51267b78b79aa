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

from simkit.games.kits.bot_tables import RANDOM  # noqa: E402,F401 (the built-in bot; re-exported)
from simkit.games.magic import engine as E
from simkit.games.magic.engine import (
    A_ATTACK,
    A_MOVE,
    A_PLACE,
    A_SKILL,
    BD,
    F_ATTACKED,
    F_CELL,
    F_DMG,
    F_MOVED,
    F_OWNER,
    F_STATE,
    F_TYPE,
    G_CUR,
    G_NU,
    G_PHASE,
    P_LEADER,
    PH_OVER,
    US_ALIVE,
    attack_dice,
    attack_target_ok,
    aura,
    check,
    hp_left,
    legal,
    mdist,
    move_points,
    occ,
    pb,
    step,
    threshold,
    ub,
    word,
)
from simkit.games.magic.tables import (
    K_AMOUNT,
    K_D1,
    K_D2,
    K_DICE,
    K_KIND,
    K_MAGIC,
    K_MOVE,
    K_PREC,
    K_SELFDMG,
    K_UNIT,
    MAX_SKILLS,
    P_ATTACK_MOD,
    P_DAMAGE_RED,
    P_FREE,
    P_HEAL,
    P_SPLASH,
    S_COLS,
    S_D0HI,
    S_D1LO,
    S_MELEE_RANGE,
    S_ROWS,
    S_SIDES,
    U_ACTIVE,
    U_COST,
    U_FLY,
    U_HP,
    U_LEADER,
    U_RANGE,
    U_RANGED,
    U_SK,
)

BOT_RANDOM, BOT_UTILITY = 0, 1
WEIGHT_NAMES = ("damage", "kill", "leader", "advance", "threat", "leader_threat", "heal", "buff", "summon", "magic",
                "cluster", "guard", "front", "urgency", "noise")
(W_DAMAGE, W_KILL, W_LEADER, W_ADVANCE, W_THREAT, W_LEADER_THREAT, W_HEAL, W_BUFF, W_SUMMON, W_MAGIC, W_CLUSTER,
 W_GUARD, W_FRONT, W_URGENCY, W_NOISE) = range(len(WEIGHT_NAMES))
LEADER_KILL = 10000.0
#: most actions of one game (the turn limit bounds a game far below this; reaching it is a bug)
ACTION_CAP = 20000


@njit(cache=True)
def p_hit(thr, sides):
    """Chance that one die shows at least ``thr`` [R9]."""
    if thr <= 1:
        return 1.0
    if thr > sides:
        return 0.0
    return (sides - thr + 1) / sides


@njit(cache=True)
def binom_into(pmf, n, p):
    """Convolve ``pmf`` (hits so far) with ``n`` dice hitting with chance ``p``, in place."""
    for _ in range(n):
        for h in range(pmf.shape[0] - 1, 0, -1):
            pmf[h] = pmf[h] * (1.0 - p) + pmf[h - 1] * p
        pmf[0] *= 1.0 - p


@njit(cache=True)
def worth_per_hp(s, v, ut, w):
    t = s[ub(v) + F_TYPE]
    if ut[t, U_LEADER] == 1:
        return w[W_LEADER]
    return ut[t, U_COST] / ut[t, U_HP]


@njit(cache=True)
def kill_worth(s, v, ut):
    t = s[ub(v) + F_TYPE]
    return LEADER_KILL if ut[t, U_LEADER] == 1 else float(ut[t, U_COST])


@njit(cache=True)
def unit_range(s, u, ut, st):
    t = s[ub(u) + F_TYPE]
    return ut[t, U_RANGE] if ut[t, U_RANGED] == 1 else st[S_MELEE_RANGE]


@njit(cache=True)
def attack_score(s, a, b, joiners, bearer, ut, sk, st, w):
    """The utility of the attack (see the module's words)."""
    p = s[G_CUR]
    u, v = occ(s, a), occ(s, b)
    if s[ub(v) + F_OWNER] == p:
        return -1e9
    nc = st[S_COLS] * st[S_ROWS]
    mod = aura(s, v, P_ATTACK_MOD, ut, sk, st)
    red = aura(s, v, P_DAMAGE_RED, ut, sk, st)
    pmf = np.zeros(64, np.float64)
    pmf[0] = 1.0
    sides = st[S_SIDES]
    bear = occ(s, bearer)
    splash = 0.0
    for j in range(s[G_NU]):
        if j != u and not (s[ub(j) + F_STATE] == US_ALIVE and (joiners >> s[ub(j) + F_CELL]) & 1):
            continue
        d = attack_dice(s, j, ut, sk, st) - (mod if j == bear else 0)
        thr = threshold(s, j, ut, sk, st)
        ph = p_hit(thr, sides)
        binom_into(pmf, d if d > 0 else 0, ph)
        tj = s[ub(j) + F_TYPE]
        for q in range(MAX_SKILLS):
            k = ut[tj, U_SK + q]
            if k < 0 or sk[k, K_KIND] != P_SPLASH:
                continue
            for cell in range(nc):
                x = occ(s, cell)
                if x < 0 or s[ub(x) + F_OWNER] == p:
                    continue
                dd = mdist(cell, b, st[S_COLS])
                if dd >= sk[k, K_D1] and dd <= sk[k, K_D2]:
                    splash += sk[k, K_DICE] * ph * worth_per_hp(s, x, ut, w) * w[W_DAMAGE]
    left = hp_left(s, v, ut)
    exp = 0.0
    kill = 0.0
    for h in range(64):
        dealt = h - red
        if dealt <= 0:
            continue
        exp += pmf[h] * (dealt if dealt < left else left)
        if dealt >= left:
            kill += pmf[h]
    return w[W_DAMAGE] * exp * worth_per_hp(s, v, ut, w) + w[W_KILL] * kill * kill_worth(s, v, ut) + splash


@njit(cache=True)
def best_attack(s, u, ut, sk, st, w):
    """The best single attack score of unit ``u`` from where it stands (0 if none)."""
    best = 0.0
    if s[ub(u) + F_ATTACKED] == 1:
        return 0.0
    a = s[ub(u) + F_CELL]
    for cell in range(st[S_COLS] * st[S_ROWS]):
        if s[BD + cell] == 0 or attack_target_ok(s, u, cell, ut, st) != 0:
            continue
        x = attack_score(s, a, cell, 0, a, ut, sk, st, w)
        if x > best:
            best = x
    return best


@njit(cache=True)
def threat_at(s, cell, p, ut, sk, st):
    """Expected enemy hits that could reach ``cell`` next turn (each enemy in move + range of it)."""
    total = 0.0
    sides = st[S_SIDES]
    for e in range(s[G_NU]):
        b = ub(e)
        if s[b + F_STATE] != US_ALIVE or s[b + F_OWNER] == p:
            continue
        if mdist(s[b + F_CELL], cell, st[S_COLS]) <= move_points(s, e, ut, sk, st) + unit_range(s, e, ut, st):
            total += attack_dice(s, e, ut, sk, st) * p_hit(threshold(s, e, ut, sk, st), sides)
    return total


@njit(cache=True)
def enemy_splash(s, p, ut, sk):
    for e in range(s[G_NU]):
        b = ub(e)
        if s[b + F_STATE] != US_ALIVE or s[b + F_OWNER] == p:
            continue
        for q in range(MAX_SKILLS):
            k = ut[s[b + F_TYPE], U_SK + q]
            if k >= 0 and sk[k, K_KIND] == P_SPLASH:
                return True
    return False


@njit(cache=True)
def friends_adjacent(s, cell, p, st):
    n = 0
    for e in range(s[G_NU]):
        b = ub(e)
        if s[b + F_STATE] == US_ALIVE and s[b + F_OWNER] == p and mdist(s[b + F_CELL], cell, st[S_COLS]) == 1:
            n += 1
    return n


@njit(cache=True)
def position(s, u, ut, sk, st, w, splashy):
    """The worth of unit ``u`` standing where it stands (its attack, advance, threat, clustering)."""
    p = s[ub(u) + F_OWNER]
    cell = s[ub(u) + F_CELL]
    enemy_leader = s[pb(1 - p) + P_LEADER]
    x = 0.9 * best_attack(s, u, ut, sk, st, w)
    t = s[ub(u) + F_TYPE]
    danger = threat_at(s, cell, p, ut, sk, st)
    if ut[t, U_LEADER] == 1:
        x -= w[W_LEADER_THREAT] * danger
    else:
        gap = mdist(cell, s[ub(enemy_leader) + F_CELL], st[S_COLS]) - unit_range(s, u, ut, st)
        x -= w[W_ADVANCE] * (1.0 + w[W_URGENCY] * s[E.G_TURN]) * (gap if gap > 0 else 0)
        x -= w[W_THREAT] * danger * ut[t, U_COST] / ut[t, U_HP] * (1.0 if danger < hp_left(s, u, ut) else 1.5)
    if splashy:
        x -= w[W_CLUSTER] * friends_adjacent(s, cell, p, st)
    return x


@njit(cache=True)
def skill_score(s, a, b, cards, ut, sk, st, w):
    """The utility of a skill use (heal, free_active, summon)."""
    u = occ(s, a)
    t = s[ub(u) + F_TYPE]
    k = ut[t, U_ACTIVE]
    m = sk[k, K_MAGIC]
    cost = w[W_MAGIC] * (m - cards) + 0.5 * w[W_MAGIC] * cards
    prim = sk[k, K_KIND]
    if prim == P_HEAL:
        v = occ(s, b)
        h = min(sk[k, K_AMOUNT], s[ub(v) + F_DMG])
        return w[W_HEAL] * h * worth_per_hp(s, v, ut, w) - cost
    if prim == P_FREE:
        v = occ(s, b)
        if s[ub(v) + F_ATTACKED] == 1:
            return -1.0
        reach = unit_range(s, v, ut, st) + (0 if s[ub(v) + F_MOVED] == 1 else move_points(s, v, ut, sk, st)
                                            + sk[k, K_MOVE])
        near = False
        for e in range(s[G_NU]):
            if s[ub(e) + F_STATE] == US_ALIVE and s[ub(e) + F_OWNER] != s[G_CUR] and \
                    mdist(s[ub(e) + F_CELL], b, st[S_COLS]) <= reach:
                near = True
        if not near:
            return -1.0
        sides = st[S_SIDES]
        thr = threshold(s, v, ut, sk, st)
        dice = attack_dice(s, v, ut, sk, st)
        gain = sk[k, K_DICE] * p_hit(thr - sk[k, K_PREC], sides) + dice * (
            p_hit(thr - sk[k, K_PREC], sides) - p_hit(thr, sides))
        hurt = sk[k, K_SELFDMG] * worth_per_hp(s, u, ut, w) * w[W_DAMAGE]
        return w[W_BUFF] * gain - hurt - cost
    return w[W_SUMMON] * ut[sk[k, K_UNIT], U_COST] - cost


@njit(cache=True)
def place_score(s, t, cell, ut, st, w):
    """The utility of deploying a unit of type ``t`` on ``cell``."""
    p = s[G_CUR]
    cols = st[S_COLS]
    r = cell // cols
    front_row = st[S_D0HI] if p == 0 else st[S_D1LO]
    forward = ut[t, U_RANGED] == 0 or ut[t, U_FLY] == 1
    x = 0.0
    if (forward and r == front_row) or (not forward and r != front_row):
        x += w[W_FRONT]
    lead = s[pb(p) + P_LEADER]
    if mdist(cell, s[ub(lead) + F_CELL], cols) == 1:
        x += w[W_GUARD] * ut[t, U_HP] / 5.0
    x -= 0.05 * abs(cell % cols - cols // 2)
    return x


@njit(cache=True)
def score(s, row, ut, sk, st, rc, w, scratch, splashy):
    kind, a, b, c, d = row[0], row[1], row[2], row[3], row[4]
    if kind == A_PLACE:
        return place_score(s, a, b, ut, st, w)
    if kind == A_ATTACK:
        x = attack_score(s, a, b, c, d, ut, sk, st, w)
        if c != 0:  # the joiners give up their own attacks
            for j in range(s[G_NU]):
                if s[ub(j) + F_STATE] == US_ALIVE and (c >> s[ub(j) + F_CELL]) & 1:
                    x -= best_attack(s, j, ut, sk, st, w) + 0.05
        return x
    if kind == A_MOVE:
        u = occ(s, a)
        before = position(s, u, ut, sk, st, w, splashy)
        scratch[:] = s
        scratch[BD + a] = 0
        scratch[ub(u) + F_CELL] = b
        scratch[BD + b] = u + 1
        scratch[ub(u) + F_MOVED] = 1
        return position(scratch, u, ut, sk, st, w, splashy) - before - 0.01
    if kind == A_SKILL:
        return skill_score(s, a, b, c, ut, sk, st, w)
    return 0.0


@njit(cache=True)
def gumbel(key, k):
    x = (word(key, k) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    if x < 1e-300:
        x = 1e-300
    return -np.log(-np.log(x)) if x < 1.0 else 0.0


@njit(cache=True)
def choose(s, out, n, kind, w, key, ctr, ut, sk, st, rc, scratch):
    """The index of the action the bot takes among ``out[:n]``; ``ctr[0]`` counts its stream's draws."""
    if kind == BOT_RANDOM or n == 1:
        i = E.below(key, ctr[0], n)
        ctr[0] += 1
        return i
    splashy = s[G_PHASE] == E.PH_PLAY and enemy_splash(s, s[G_CUR], ut, sk)
    best, arg = -1e18, 0
    for i in range(min(n, out.shape[0])):
        x = score(s, out[i], ut, sk, st, rc, w, scratch, splashy)
        if w[W_NOISE] > 0:
            x += w[W_NOISE] * gumbel(key, ctr[0])
            ctr[0] += 1
        if x > best:
            best, arg = x, i
    return arg


@njit(cache=True)
def play_game(s, kinds, weights, keys, ut, sk, st, rc, record):
    """Play the game in ``s`` to its end between the two bots; the actions go to ``record`` (rows of 5)
    when it has room. Returns the number of actions, or -1 if the game passed :data:`ACTION_CAP`."""
    out = np.zeros((E.MAX_LEGAL, 5), np.int64)
    scratch = np.zeros(s.shape[0], np.int64)
    ctrs = np.zeros((2, 1), np.int64)
    k = 0
    while s[G_PHASE] != PH_OVER:
        p = s[G_CUR]
        n = legal(s, out, ut, sk, st, rc, False)
        n = min(n, out.shape[0])
        i = choose(s, out, n, kinds[p], weights[p], keys[p], ctrs[p], ut, sk, st, rc, scratch)
        kind, a, b, c, d = out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4]
        if check(s, kind, a, b, c, d, ut, sk, st, rc) != 0:
            return -2
        if k < record.shape[0]:
            record[k, 0], record[k, 1], record[k, 2], record[k, 3], record[k, 4] = kind, a, b, c, d
        step(s, kind, a, b, c, d, ut, sk, st, rc)
        k += 1
        if k > ACTION_CAP:
            return -1
    return k

