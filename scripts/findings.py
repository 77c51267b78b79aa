"""The findings pages' figures, written from the JSON files that measured them (docs/findings/).

    python scripts/findings.py            # rewrite every figure block of every findings page from its JSON
    python scripts/findings.py --check    # exit 1 naming each block that differs from its JSON (what the test does)

A findings page (``docs/findings/<game>.md``) is prose and *figure blocks*. A block opens with
``<!-- figures: data/NAME.json KIND -->`` and closes with ``<!-- end figures -->``; what lies between is made here
from the JSON file, never typed: a table of the kind asked (``ladder``, ``costs``, ``locks``, ``seat``,
``lock_skill``, ``lock_matchups``, ``end_rules``,
``seat_rules``, ``bench_vs``) or the run's answer in its words (``answer``,
``end_rules_answer``), and a last line naming the command, date and commit that measured it. The
prose around the blocks carries no figure (``tests/commands/test_findings.py`` holds both), so a page can never
quote a number its JSON does not hold.
Every JSON file of figures starts with :func:`simkit.core.provenance.provenance`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simkit.core.words import plural  # noqa: E402

FINDINGS = ROOT / "docs" / "findings"
BLOCK = re.compile(r"(<!-- figures: (\S+) (\w+) -->\n)(.*?)(<!-- end figures -->)", re.S)
PROVENANCE = ("script", "command", "date", "commit")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(lo: float, hi: float, pct: bool = True) -> str:
    return f"{_pct(lo)}-{_pct(hi)}" if pct else f"{lo:.3f}-{hi:.3f}"


def _bot(name: str) -> str:
    return f"`{name}`"


def ladder(doc: dict) -> list[str]:
    """One row a match: games, won / drawn / lost, score with its interval, the outcome's three shares."""
    out = ["| match | games | won / drawn / lost | score, a draw half (95% CI) | the players | the deck pairing and "
           "seats | the seed |", "|---|---|---|---|---|---|---|"]
    for m in doc["matches"]:
        split = m.get("skill_or_luck")
        shares = ["", "", ""]
        if split and split.get("total", 0) > 0:
            shares = [f"{_pct(split['share'][k])} ({_ci(*split['share_ci'][k])})" for k in ("skill", "decks", "luck")]
        elif split:
            shares = ["no variance"] * 3
        out.append(f"| {_bot(m['upper'])} vs {_bot(m['lower'])} | {m['games']} | {m['won']} / {m['drawn']} / "
                   f"{m['lost']} | {m['score']:.3f} ({_ci(*m['score_ci'], pct=False)}) | " + " | ".join(shares) + " |")
    return out


def costs(doc: dict) -> list[str]:
    """One row a bot: CPU per game and per decision, actions a game, a one-game-per-pair sweep's estimate."""
    rows = doc["costs"]
    cores = rows[0]["sweep_cores"] if rows else 2
    out = ["| bot | CPU s a game | CPU ms a decision | actions a game | mirror games | a one-game-per-pair sweep "
           f"of the pool on {cores} cores |", "|---|---|---|---|---|---|"]
    for c in rows:
        out.append(f"| {_bot(c['rung'])} | {c['cpu_s_per_game']:.3f} | {c['cpu_ms_per_decision']:.3f} | "
                   f"{c['actions_per_game']:.0f} | {c['games']} | {c['sweep_pairs']:,} games, about "
                   f"{c['sweep_minutes']:.1f} min |")
    return out


def locks(doc: dict) -> list[str]:
    """One row a match: games that locked (a certain draw before the end), the draws that explains, when."""
    out = ["| match | games | locked (95% CI) | draws | draws locked | lock round, median (quartiles) | locked, yet "
           "won |", "|---|---|---|---|---|---|---|"]
    for k in doc["matches"]:
        q1, med, q3 = k["round_quartiles"]
        when = f"{med:.0f} ({q1:.0f}-{q3:.0f})" if k["locked"] else "none"
        out.append(f"| {_bot(k['upper'])} vs {_bot(k['lower'])} | {k['games']} | {k['locked']}, "
                   f"{_pct(k['locked_share'])} ({_ci(*k['locked_ci'])}) | {k['draws']} | {k['draws_locked']} | "
                   f"{when} | {k['locked_won']} |")
    return out


def seat(doc: dict) -> list[str]:
    """The first seat's score over a sweep with one bot in both seats, and how the games end."""
    s = doc["seat"]
    out = ["| games | bots | first seat won / drawn / second won | the first seat's score (95% CI) | sign test p | "
           "mean length |", "|---|---|---|---|---|---|"]
    out.append(f"| {s['games']:,} | {_bot(doc['sweep']['bots'][0])} in both seats | {s['first_wins']:,} / "
               f"{s['draws']:,} / {s['second_wins']:,} | {_pct(s['first_rate'])} ({_ci(s['low'], s['high'])}) | "
               f"{s['p_value']:.3f} | {doc['shape']['mean_turns']:.1f} {plural(doc['shape']['turn_words'])} |")
    out += ["", "| how the games ended | games | share |", "|---|---|---|"]
    out += [f"| {e['label']} | {e['games']:,} | {_pct(e['share'])} |" for e in doc["shape"]["ends"]]
    return out


def seat_rules(doc: dict) -> list[str]:
    """The first seat under the rules page's draw and under the original server's full tie to the second player, bot
    by bot of a panel (the same bot in both seats) and for the whole panel, with the games decided at the turn
    limit."""
    out = ["| bots | games | decided at the turn limit (95% CI) | full ties | rules page (a full tie drawn): first "
           "seat won / drawn / lost | its score (95% CI) | original server (a full tie to the second player): won / "
           "drawn / lost | its score (95% CI) |", "|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        d, s = r["draw"], r["second"]
        who = "the whole panel" if r["bots"] == "the panel" else f"{_bot(r['bots'])} in both seats"
        out.append(f"| {who} | {d['games']:,} | {_pct(d['turn_limit_share'])} "
                   f"({_ci(d['turn_limit_low'], d['turn_limit_high'])}) | {r['full_ties']:,} | {d['first_wins']:,} / "
                   f"{d['draws']:,} / {d['second_wins']:,} | {_pct(d['first_rate'])} ({_ci(d['low'], d['high'])}) | "
                   f"{s['first_wins']:,} / {s['draws']:,} / {s['second_wins']:,} | {_pct(s['first_rate'])} "
                   f"({_ci(s['low'], s['high'])}) |")
    return out


def answer(doc: dict) -> list[str]:
    """The ladder's answer in its own words (simkit.core.words.player_answer, as the run wrote it)."""
    return [f"> {doc['answer']}"]


def first_run(doc: dict) -> list[str]:
    """A fresh install's first quick sweep of each game (an empty numba cache) and the next one (the cache it left),
    with the machine's load average beside them (scripts/compile_times.py)."""
    out = ["| game | first run: wall s | its CPU s (with forks) | compile CPU s (this process) | kernels compiled | "
           "next run: wall s | load average |", "|---|---|---|---|---|---|---|"]
    for r in doc["runs"]:
        c = r["cold"]
        out.append(f"| {r['game']} ({r['command']}) | {c['wall_s']:.1f} | {c['cpu_s']:.1f} | "
                   f"{c['compile_cpu_s']:.1f} | {c['compiles']} | {r['warm']['wall_s']:.1f} | "
                   f"{r['load_before']:.1f} to {r['load_after']:.1f} |")
    return out


def bench_vs(doc: dict) -> list[str]:
    """The games of one benchmark on two checkouts side by side (scripts/bench_vs.py): their wall seconds, their
    own CPU seconds and the whole process's CPU of each, median (min-max), and new/old taken pair by pair, with the
    load average beside."""
    def cell(d: dict) -> str:
        return f"{d['median']:.3f} ({d['min']:.3f}-{d['max']:.3f})"

    def side(name: str) -> str:
        return f"{name} (`{doc[name + '_commit'][:10]}`{' with local changes' if doc[name + '_dirty'] else ''})"

    out = [f"| the games of `{doc['bench']}`, {doc['runs']} runs each | {side('old')} | {side('new')} | new/old, "
           "pair by pair |", "|---|---|---|---|"]
    names = {"seconds": "the games' wall seconds (the benchmark's own figure)",
             "games_cpu_s": "the games' CPU seconds (their process's own clock)",
             "process_cpu_s": "the whole process's CPU seconds (start and loading included)"}
    for key, label in names.items():
        f = doc["figures"][key]
        out.append(f"| {label} | {cell(f['old'])} | {cell(f['new'])} | {cell(f['ratio'])} |")
    same = "the same games (actions and turns)" if doc["same_games"] else "not the same games"
    out += ["", f"Both checkouts played {same}. Load average over the runs: {doc['load_before']:.1f} to "
                f"{doc['load_after']:.1f} on {doc['cores']} cores."]
    return out


def _match(bots: str) -> str:
    first, second = bots.split(",")
    return f"{_bot(first)} vs {_bot(second)}"


def _change(d: dict, pct: bool = True) -> str:
    """``49.7% -> 22.1% (-27.6, -31.0 to -24.2)``: before, after and the paired change with its interval."""
    lo, hi = d["change_ci"]
    if pct:
        return (f"{_pct(d['before'])} -> {_pct(d['after'])} ({100 * d['change']:+.1f}, {100 * lo:+.1f} to "
                f"{100 * hi:+.1f})")
    return f"{d['before']:.1f} -> {d['after']:.1f} ({d['change']:+.1f}, {lo:+.1f} to {hi:+.1f})"


def lock_skill(doc: dict) -> list[str]:
    """One row a match (the bots' skill) of krypton_end_rules.py: its games that locked under the page's rule."""
    out = ["| match | games (a pair) | locked (95% CI) | draws | draws locked | lock round, median (quartiles) | "
           "locked, yet won |", "|---|---|---|---|---|---|---|"]
    for k in doc["locks"]:
        q1, med, q3 = k["round_quartiles"]
        when = f"{med:.0f} ({q1:.0f}-{q3:.0f})" if k["locked"] else "none"
        out.append(f"| {_match(k['bots'])} | {k['games']:,} ({k['games_per_pair']}) | {k['locked']}, "
                   f"{_pct(k['locked_share'])} ({_ci(*k['locked_ci'])}) | {k['draws']} | {k['draws_locked']} | "
                   f"{when} | {k['locked_won']} |")
    return out


def lock_matchups(doc: dict) -> list[str]:
    """The lock's share per loadout pairing (both seat orders pooled) for the match krypton_end_rules.py shows."""
    m = doc["matchups"]
    out = [f"Bots: {_match(m['bots'])}; both seat orders of a pairing pooled.", "",
           "| loadouts | games | locked (95% CI) |", "|---|---|---|"]
    out += [f"| {r['matchup']} | {r['games']} | {r['locked']}, {_pct(r['locked_share'])} ({_ci(*r['locked_ci'])}) |"
            for r in m["rows"]]
    return out


def end_rules(doc: dict) -> list[str]:
    """The designer's table: each authored end rule against the page's rule on the same games (krypton_end_rules.py);
    a change is the variant's figure minus the base's, game by game, with its 95% interval."""
    out = ["| match | end rule | games | drawn: base -> variant (change, 95% CI, points) | a base destroyed | ended by "
           "a lock | won at the cap | ended by sudden death | rounds: base -> variant (change, 95% CI) | balance "
           "(compare) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in doc["end_rules"]:
        e = r["ends"]
        out.append(f"| {_match(r['bots'])} | `{r['variant']}` | {r['games']:,} | {_change(r['draws'])} | {e['base']} | "
                   f"{e['lock']} ({_pct(r['lock_share'])}) | {r['won_at_cap']} | {e['sudden_death']} | "
                   f"{_change(r['rounds'], pct=False)} | {r['verdict']} |")
    out += ["", "| end rule | scenario | what it changes |", "|---|---|---|"]
    out += [f"| `{v['name']}` | `{v['scenario']}` | {v['rule']} |" for v in doc["variants"]]
    return out


def end_rules_answer(doc: dict) -> list[str]:
    """Each end rule's changes and compare's balance verdict in words (simkit.core.words, as the run wrote them)."""
    return [f"* `{r['variant']}`, {_match(r['bots'])}: {r['draws_sentence']}; {r['rounds_sentence']}; balance: "
            f"{r['verdict_sentence']}" for r in doc["end_rules"]]


def _bound(x: float) -> str:
    return f"{x:+.3f}"


def explore_answer(doc: dict) -> list[str]:
    """The whole-space explore's guarantee in its own words (simkit.core.words, as the run wrote it), and the first
    seat's expected score under the two metagames with its 95% interval (lab/magic_explore.py)."""
    g = doc["guarantee"]
    return [f"> {g[:1].upper()}{g[1:]}.", ">",
            f"> With both seats playing their metagames, the first seat's expected score is {_pct(doc['value'])} "
            f"(95% CI {_ci(doc['value_low'], doc['value_high'])})."]


def explore_runs(doc: dict) -> list[str]:
    """The explore as it was and the whole-space explore side by side: games, time, throughput against plain play,
    where the games went, and both seats' exploitability intervals (scripts/explore_bench.py's figures)."""
    out = ["| run | games | pairings played | wall time | CPU s | games a CPU s (plain play_games) | planner's share "
           "of the wall time | population pairings' games | first seat's exploitability (bounds) | second seat's "
           "(bounds) | stopped | guarantee |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in (("as it was: one-edit neighbours, bounds deck by deck", doc["before"]),
                    ("every army raced, bounds family-wise", doc["after"])):
        lo1, hi1 = r["exploitability_interval"]["first"]
        lo2, hi2 = r["exploitability_interval"]["second"]
        met = "met" if r["guarantee"].startswith("guarantee met") else "not met"
        out.append(f"| {name} | {r['games']:,} | {r['pairs_played']:,} of {r['pairs']:,} | "
                   f"{r['wall_s'] / 60:.1f} min | {r['cpu_s']:,.0f} | {r['games_per_cpu_s']:.0f} "
                   f"({r['plain_games_per_cpu_s']:.0f}) | {_pct(r['planning_share'])} | {r['population_games']:,} | "
                   f"{_bound(lo1)} to {_bound(hi1)} | {_bound(lo2)} to {_bound(hi2)} | {r['stopped']} | {met} |")
    return out


def explore_seats(doc: dict) -> list[str]:
    """Each seat's metagame and its strongest armies against the mixture they meet, with the family-wise bounds the
    race decided on, and how every army of the seat's pool stands (lab/magic_explore.py)."""
    out = []
    for seat, d in doc["seats"].items():
        mix = ", ".join(f"{deck} {_pct(w)}" for deck, w in d["metagame"].items())
        counts = ", ".join(f"{k} {v:,}" for k, v in sorted(d["decisions"].items()))
        out += [f"**{seat.capitalize()} seat** ({d['decks']:,} armies): metagame {mix}; armies by standing: {counts}.",
                "", "| army | score against the other seat's metagame | bounds | games | standing |",
                "|---|---|---|---|---|"]
        out += [f"| {r['deck']} | {_pct(r['vs_mix'])} | {_pct(r['low'])}-{_pct(r['high'])} | {r['games']:,} | "
                f"{r['decision']} |" for r in d["strongest"]]
        out.append("")
    return out[:-1]


def explore_races(doc: dict) -> list[str]:
    """Each race's best army per seat against the metagame it meets, and every race's and unit's standing over both
    seats (in a metagame army, in a strongest one, not ruled out of the band, dead or untested)."""
    out = ["| race | first seat: best army | its score (upper bound) | second seat: best army | its score "
           "(upper bound) |", "|---|---|---|---|---|"]
    by = {seat: {r["race"]: r for r in d["races"]} for seat, d in doc["seats"].items()}
    for race in sorted(set(by.get("first", {})) | set(by.get("second", {}))):
        cells = []
        for seat in ("first", "second"):
            r = by.get(seat, {}).get(race)
            cells += [r["best"], f"{_pct(r['vs_mix'])} ({_pct(r['high'])})"] if r else ["none met", ""]
        out.append(f"| {race} | " + " | ".join(cells) + " |")
    status: dict[str, list[str]] = {}
    for c in doc["cards"]:
        status.setdefault(c["status"], []).append(c["card"])
    out += ["", "| standing | races and units |", "|---|---|"]
    out += [f"| {k} | {', '.join(sorted(v))} |" for k, v in sorted(status.items())]
    return out


KINDS = {"answer": answer, "ladder": ladder, "costs": costs, "locks": locks, "seat": seat, "first_run": first_run,
         "lock_skill": lock_skill, "lock_matchups": lock_matchups, "end_rules": end_rules,
         "end_rules_answer": end_rules_answer, "seat_rules": seat_rules, "bench_vs": bench_vs,
         "explore_answer": explore_answer, "explore_runs": explore_runs, "explore_seats": explore_seats,
         "explore_races": explore_races}


def render(path: str, kind: str, page: Path) -> str:
    """The block's body for ``path`` (relative to the page) and ``kind``: its table and its provenance line."""
    doc = json.loads((page.parent / path).read_text(encoding="utf-8"))
    missing = [k for k in PROVENANCE if not doc.get(k)]
    if missing:
        raise ValueError(f"{page.parent / path}: no {', '.join(missing)} (every figure file starts with "
                         "simkit.core.provenance.provenance)")
    commit = doc["commit"][:10] + (" with local changes" if doc.get("dirty") else "")
    lines = KINDS[kind](doc) + ["", f"*Measured by* `{doc['command']}` *on {doc['date'][:10]} at commit {commit} "
                                    f"([{Path(path).name}]({path})).*"]
    return "\n".join(lines) + "\n"


def blocks(text: str) -> list[tuple[str, str, str]]:
    """``(json path, kind, body)`` of every figure block of a page's text."""
    return [(m.group(2), m.group(3), m.group(4)) for m in BLOCK.finditer(text)]


def rewrite(page: Path) -> str:
    """The page's text with every figure block made again from its JSON."""
    text = page.read_text(encoding="utf-8")
    return BLOCK.sub(lambda m: m.group(1) + render(m.group(2), m.group(3), page) + m.group(5), text)


def pages() -> list[Path]:
    """The findings pages (every ``docs/findings/*.md``)."""
    return sorted(FINDINGS.glob("*.md"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each stale block")
    a = p.parse_args(argv)
    stale = []
    for page in pages():
        new = rewrite(page)
        if new != page.read_text(encoding="utf-8"):
            stale.append(page)
            if not a.check:
                page.write_text(new, encoding="utf-8")
    for page in stale:
        print(f"{page.relative_to(ROOT)}: {'differs from its JSON' if a.check else 'written from its JSON'}")
    return 1 if a.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
