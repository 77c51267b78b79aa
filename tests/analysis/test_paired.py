"""simkit.analysis.paired and `simkit compare`: paired deltas on synthetic base/patch sweeps with planted changes."""


import numpy as np
import pandas as pd
import pytest
from pypdf import PdfReader
from results_folders import write_sweep_folder

from simkit.analysis import FLAG_COLUMNS
from simkit.analysis.paired import (
    COMPARE_TABLES,
    card_deltas,
    compare_results,
    deck_deltas,
    first_player_deltas,
    flag_changes,
    matchup_deltas,
    pair_results,
    spread_change,
)
from simkit.cli import main
from simkit.report.comparison import compare_headlines, write_compare_report
from simkit.testing.synthetic import synthetic_deck_cards, synthetic_results

# both artifacts with the same six creature trios, three of them with a Priest: a balanced pool
TRIOS = ["Archer,BlackBat,Priest", "FrostDragon,Priest,Swordsman", "Priest,Swordsman,VolcanoDragon",
         "Archer,BlackBat,FrostDragon", "BlackBat,Swordsman,VolcanoDragon", "Archer,FrostDragon,VolcanoDragon"]
POOL = [f"{a}:{t}" for a in ("HolyLight", "WindBlessing") for t in TRIOS]


def priest_edge(edge: float):
    """Pooled rates where every Priest deck has ``edge`` over every other deck."""

    def rate(a, b):
        return (0.5 + edge * ("Priest" in synthetic_deck_cards(a)["creature"])
                - edge * ("Priest" in synthetic_deck_cards(b)["creature"]))

    return rate


def sweep(edge: float, seat: float, games: int = 40, decks=POOL, name: str = "base", bots=("balanced", "balanced")):
    return synthetic_results(decks, games, priest_edge(edge), first_advantage=seat, seed=5,
                             scenario_name=name, scenario_hash=name, bots=bots)


@pytest.fixture(scope="module")
def base():
    """A pool where Priest decks have a 10-point edge and moving first is worth 8 points."""
    return sweep(0.10, 0.08)


@pytest.fixture(scope="module")
def patch():
    """The same pool after a patch that removes the Priest edge and the seat edge."""
    return sweep(0.0, 0.0, name="patch")


def test_pairing_refuses_different_pools_and_pairs_the_games_both_played(base):
    """Different deck pools are refused with one clear line; different games per pairing pair the games
    both sweeps played and say how many."""
    with pytest.raises(ValueError, match="different deck pools"):
        pair_results(base, sweep(0.0, 0.0, decks=POOL[:-1]))
    fewer = sweep(0.0, 0.0, games=30)
    paired = pair_results(base, fewer)
    assert len(paired) == len(fewer) and (paired["game"] < 30).all()
    assert paired.attrs["games"] == {"paired": len(fewer), "base": len(base), "patch": len(fewer)}
    paired = pair_results(base, base)
    assert len(paired) == len(base) and paired["same_seed"].all()


def test_sweeps_of_different_bots_are_refused(base, tmp_path, capsys):
    """A patch swept by other bots is refused in one line naming both bots, not read as the patch's effect."""
    rush = sweep(0.10, -0.36, name="patch", bots=("rush", "rush"))  # same rules, other bots: a big seat swing
    with pytest.raises(ValueError, match="different bots"):
        pair_results(base, rush)
    b = write_sweep_folder(base, tmp_path / "base")
    p = write_sweep_folder(rush, tmp_path / "rush")
    assert main(["compare", str(b), str(p), "-o", str(tmp_path / "ab.pdf")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "balanced vs balanced" in err and "rush vs rush" in err
    assert not (tmp_path / "ab.pdf").exists()


def test_bot_panel_sweeps_pair_game_by_game_and_bot_by_bot(base, patch):
    """Panel sweeps (each game once per bot) pair on their bots too: twice the games, same changes per bot."""
    import pandas as pd

    def panel(df, edge, seat, name):
        rush = sweep(edge, seat, name=name, bots=("rush", "rush"))
        out = pd.concat([df, rush], ignore_index=True)
        out.attrs = df.attrs
        return out

    paired = pair_results(panel(base, 0.10, 0.08, "base"), panel(patch, 0.0, 0.0, "patch"))
    assert len(paired) == 2 * len(base) and paired["same_seed"].all()
    assert set(zip(paired["first_bot"], paired["second_bot"])) == {("balanced", "balanced"), ("rush", "rush")}
    one = first_player_deltas(pair_results(base, patch)).iloc[0]
    two = first_player_deltas(paired).iloc[0]
    assert two["delta"] == pytest.approx(one["delta"]) and two["games"] == 2 * one["games"]


def test_identical_sweeps_change_nothing(base):
    """A sweep compared with itself has zero deltas, nothing significant, and every flag stays."""
    tables = compare_results(base, base)
    for name in ("deck_deltas", "card_deltas", "first_player_deltas", "matchup_deltas"):
        t = tables[name]
        assert (t["delta"] == 0).all() and not t["significant"].any(), name
    assert (tables["nash_shift"]["change"].abs() < 1e-9).all()
    assert set(tables["flag_changes"]["status"]) == {"stayed"}


def test_removing_the_priest_edge_is_seen_per_deck_and_per_card(base, patch):
    """Priest decks lose about their planted edge, significantly; Priest is the card that fell most."""
    paired = pair_results(base, patch)
    decks = deck_deltas(paired).set_index("deck")
    priest = [d for d in POOL if "Priest" in d]
    others = [d for d in POOL if "Priest" not in d]
    share = len(others) / (len(POOL) - 1)  # a Priest deck's edge counts only against non-Priest decks
    expected = -0.10 * share
    assert decks.loc[priest, "delta"].mean() == pytest.approx(expected, abs=0.03)
    assert decks.loc[priest, "significant"].mean() > 0.5 and decks.loc[priest, "high"].max() < 0.05
    cards = card_deltas(paired).set_index("card")
    assert cards.loc["Priest", "significant"] and cards.loc["Priest", "high"] < 0
    assert cards.loc["Priest", "low"] < expected < cards.loc["Priest", "high"] + 0.02
    assert cards["delta"].idxmin() == "Priest" and (cards.drop(index="Priest")["delta"] > expected / 2).all()
    assert not cards.loc[["HolyLight", "WindBlessing"], "significant"].any()


def test_seat_edge_change_is_measured_with_a_paired_interval(base, patch):
    """The first-player advantage falls by the planted 8 points, inside a narrow paired interval."""
    fp = first_player_deltas(pair_results(base, patch))
    overall = fp[fp["scope"] == "overall"].iloc[0]
    assert overall["low"] < -0.08 < overall["high"] and overall["significant"]
    assert overall["base_advantage"] == pytest.approx(0.08, abs=0.02)
    assert len(fp[fp["scope"] == "deck"]) == len(POOL)


def test_halving_the_priest_edge_halves_the_spread_inside_a_paired_bootstrap_interval():
    """Priest decks' edge 20 -> 10 points (6 of 12 decks): deck rates 60.9/39.1% -> 55.5/44.5%, so the spread
    (std of the deck win rates, 10.9 points) halves. The ratio is the two sweeps' spreads as balance_terms
    measures them, its 95% interval holds 1/2 and excludes 0.35 and 0.7; a sweep against itself is 1, exactly."""
    from simkit.tune.objective import balance_terms

    strong, half = sweep(0.20, 0.0, games=200), sweep(0.10, 0.0, games=200, name="patch")
    got = spread_change(pair_results(strong, half), resamples=500)
    assert got["base"] == pytest.approx(balance_terms(strong)["spread"])
    assert got["patch"] == pytest.approx(balance_terms(half)["spread"])
    assert got["base"] == pytest.approx(0.109, abs=0.01)
    assert got["ratio"] == pytest.approx(got["patch"] / got["base"])
    assert 0.35 < got["low"] < 0.5 < got["high"] < 0.7
    same = spread_change(pair_results(strong, strong), resamples=200)
    assert same["ratio"] == 1.0 and same["low"] == pytest.approx(1.0) and same["high"] == pytest.approx(1.0)
    tables = compare_results(strong, half)  # the report's headline says it, with the default 2000 resamples
    assert tables["spread"]["ratio"] == pytest.approx(got["ratio"])
    assert tables["spread"]["low"] == pytest.approx(got["low"], abs=0.03)
    line = next(h for h in compare_headlines(tables) if h.startswith("Spread of the deck win rates"))
    assert f"x{got['ratio']:.2f}" in line and "paired-bootstrap CI" in line


def test_pairing_narrows_the_interval(base):
    """Common seeds make the paired interval of a small change much narrower than an unpaired one."""
    nudged = sweep(0.10, 0.06)  # the same games, two points less seat edge
    paired = pair_results(base, nudged)
    fp = first_player_deltas(paired)
    overall = fp[fp["scope"] == "overall"].iloc[0]
    a, b = paired["base_points"], paired["patch_points"]
    unpaired_half = 1.96 * np.sqrt(a.var() / len(a) + b.var() / len(b))
    assert (overall["high"] - overall["low"]) / 2 < unpaired_half / 2
    assert overall["low"] < -0.02 < overall["high"]


def test_matchup_deltas_are_mirror_images(base, patch):
    """A matchup's change from one side is minus its change from the other, with the same p-value."""
    t = matchup_deltas(pair_results(base, patch)).set_index(["deck", "opponent"])
    a, b = POOL[0], POOL[1]
    assert t.loc[(a, b), "delta"] == pytest.approx(-t.loc[(b, a), "delta"])
    assert t.loc[(a, b), "p_adjusted"] == t.loc[(b, a), "p_adjusted"]
    assert len(t) == len(POOL) * (len(POOL) - 1)


def test_flag_changes_report_appeared_and_vanished(base, patch):
    """The seat-edge flag vanishes with the patch; flags of the patch alone appear."""
    tables = compare_results(base, patch)
    fc = tables["flag_changes"].set_index(["kind", "subject"])
    assert fc.loc[("first_player", "all games"), "status"] == "vanished"
    back = flag_changes(tables["flag_changes"].iloc[:0].drop(columns=["status", "base_value", "patch_value"]),
                        tables["flag_changes"].drop(columns=["status", "base_value", "patch_value"]))
    assert set(back["status"]) == {"appeared"}


def _flags(*rows):
    """Flag rows (kind, subject, value) with the report's bands, other columns blank."""
    band = {"deck": (0.45, 0.55), "first_player": (0.45, 0.55), "matchup": (0.30, 0.70)}
    return pd.DataFrame([dict(dict.fromkeys(FLAG_COLUMNS, 0.0), kind=k, subject=s, value=v, band_low=band[k][0],
                              band_high=band[k][1], message=f"{s} {v}") for k, s, v in rows], columns=FLAG_COLUMNS)


def test_a_deck_flagged_too_weak_then_too_strong_is_a_flag_vanished_and_one_appeared():
    """Deck A goes from 30% to 70%: its flag did not stay, a new one appeared; deck B stays too strong;
    the first seat's edge turns into the second seat's."""
    base_flags = _flags(("deck", "A", 0.30), ("deck", "B", 0.62), ("first_player", "all games", 0.58))
    patch_flags = _flags(("deck", "A", 0.70), ("deck", "B", 0.60), ("first_player", "all games", 0.41))
    fc = flag_changes(base_flags, patch_flags)
    status = {(r.kind, r.subject, r.status) for r in fc.itertuples()}
    assert status == {("deck", "A", "appeared"), ("deck", "A", "vanished"), ("deck", "B", "stayed"),
                      ("first_player", "all games", "appeared"), ("first_player", "all games", "vanished")}
    a = fc[fc["subject"] == "A"].set_index("status")
    assert a.loc["appeared", "message"] == "A 0.7" and a.loc["vanished", "message"] == "A 0.3"
    assert (a["base_value"] == 0.30).all() and (a["patch_value"] == 0.70).all()
    assert list(fc.columns) == ["status", *FLAG_COLUMNS, "base_value", "patch_value", "reason"]


def test_compare_pdf_and_command(base, patch, tmp_path, capsys):
    """`simkit compare` writes its PDF (a 12-deck pool: title, matchup changes, the deck, card and first-player
    changes on one page, the metagame with the flags, why it moved: the cards' usage) with its CSVs; mismatched
    sweeps exit 2 with one line."""
    b = write_sweep_folder(base, tmp_path / "base")
    p = write_sweep_folder(patch, tmp_path / "patch")
    out = tmp_path / "reports" / "ab.pdf"
    assert main(["compare", str(b), str(p), "-o", str(out)]) == 0
    reader = PdfReader(out)
    assert len(reader.pages) == 5
    assert "base" in reader.metadata["/Keywords"] and "patch" in reader.metadata["/Keywords"]
    assert all((tmp_path / "reports" / f"ab.{t}.csv").exists() for t in COMPARE_TABLES)
    assert str(out) in capsys.readouterr().out
    other = write_sweep_folder(sweep(0.0, 0.0, decks=POOL[:-1], name="short"), tmp_path / "short")
    assert main(["compare", str(b), str(other), "-o", str(tmp_path / "bad.pdf")]) == 2
    err = capsys.readouterr().err.strip()
    assert "different deck pools" in err and len(err.splitlines()) == 1 and not (tmp_path / "bad.pdf").exists()


def test_write_compare_report_is_atomic(base, tmp_path, monkeypatch):
    """A failing page leaves no comparison PDF, CSV or temporary file."""
    import simkit.report.comparison as comparison

    def broken(ax, table):
        raise RuntimeError("plot failed")

    monkeypatch.setattr(comparison, "plot_nash_shift", broken)
    with pytest.raises(RuntimeError):
        write_compare_report(compare_results(base, base), tmp_path / "x.pdf")
    assert list(tmp_path.iterdir()) == []


def test_the_verdict_says_more_balanced_when_the_whole_interval_is_below_one(base, patch):
    """A patch that removes a planted 10-point edge is 'more balanced', its sentence matching its numbers."""
    v = compare_results(base, patch)["verdict"]
    assert v["kind"] == "more balanced" and v["high"] < 1
    assert "more balanced: deck spread " in v["sentence"]
    assert f"x{v['ratio']:.2f}, 95% CI {v['low']:.2f}-{v['high']:.2f}" in v["sentence"]
    assert v["inside_after"] >= v["inside_before"]


def test_a_comparison_that_could_not_see_five_points_is_not_settled(base):
    """The same rules on other luck (other seeds, so nothing pairs up): the spread's interval holds 1, and at 40 games
    a pair a deck change of 5 points could go unseen, so the verdict is 'not settled', with the smallest change it
    could detect and the games a change of 5 points needs."""
    again = synthetic_results(POOL, 40, priest_edge(0.10), first_advantage=0.08, seed=6, scenario_name="again",
                              scenario_hash="again", bots=("balanced", "balanced"))
    v = compare_results(base, again)["verdict"]
    assert v["kind"] == "not settled" and v["low"] <= 1 <= v["high"] and v["smallest"] > 0.05 and v["needed"] > 40
    assert v["sentence"].startswith("the two sweeps play the same rules; "
                                    "not settled (no measurable effect on balance yet)")
    assert (f"at 40 games per pair it could only detect a deck change of about {100 * v['smallest']:.0f} points or "
            f"more, and a change of 5 points needs about {int(v['needed']):,} games per pair") in v["sentence"]


def test_a_comparison_that_could_see_five_points_and_saw_no_change_says_no_measurable_effect():
    """A patch that moves the Priest edge by half a point on the very same seeds: few games change, so a 5-point
    change was within reach, and the spread's interval holds 1: 'no measurable effect on balance'."""
    base = synthetic_results(POOL[:6], 40, priest_edge(0.10), seed=5, scenario_name="b", scenario_hash="b",
                             bots=("balanced", "balanced"))
    patch = synthetic_results(POOL[:6], 40, priest_edge(0.095), seed=5, scenario_name="p", scenario_hash="p",
                              bots=("balanced", "balanced"))
    v = compare_results(base, patch)["verdict"]
    assert v["kind"] == "no measurable effect on balance" and v["low"] <= 1 <= v["high"] and v["smallest"] <= 0.05


def test_sweeps_of_different_game_counts_are_compared_on_the_games_both_played_in_every_part():
    """4 games a pair against 12 of the same rules: the paired part, the flags and the Nash mix all read the same 4
    games a pair (no flag 'appears' from the patch's extra games), and the verdict says only those were compared."""
    big = synthetic_results(POOL[:6], 12, priest_edge(0.2), seed=5, bots=("balanced", "balanced"))
    small = big[big["game"] < 4].reset_index(drop=True)  # the first 4 games of every pair: the same seeds
    small.attrs = {"meta": {**big.attrs["meta"], "games_per_pair": 4}}
    t = compare_results(small, big)
    assert t["games"] == {"paired": 144, "base": 144, "patch": 432}
    assert (t["flag_changes"]["status"] == "stayed").all()
    assert (t["nash_shift"]["weight_base"] == t["nash_shift"]["weight_patch"]).all()
    assert "only the 144 games both sweeps played are compared, in every part (the base played 144, the patch 432)" \
        in t["verdict"]["sentence"]


def test_a_flag_that_changed_says_why():
    """Each reason a flag appears or vanishes, from the subject's value in the other sweep."""
    cols = dict(kind="deck", low=0.0, high=1.0, games=100, band_low=0.45, band_high=0.55, p_value=0.01,
                p_adjusted=0.01, message="m")
    def frame(rows):
        return pd.DataFrame([{**cols, **r} for r in rows], columns=FLAG_COLUMNS)
    base_all = frame([{"subject": s, "value": v} for s, v in zip("ABCDE", (0.63, 0.62, 0.50, 0.30, 0.40))])
    patch_all = frame([{"subject": s, "value": v} for s, v in zip("ABCDE", (0.61, 0.52, 0.60, 0.31, 0.60))])
    base_flags = base_all[base_all["subject"].isin(["A", "B", "E"])]
    patch_flags = patch_all[patch_all["subject"].isin(["C", "D", "E"])]
    t = flag_changes(base_flags, patch_flags, base_all, patch_all).set_index(["status", "subject"])["reason"]
    assert t[("vanished", "A")] == "still outside the band, no longer significant"
    assert t[("vanished", "B")] == "moved inside the band"
    assert t[("appeared", "C")] == "was inside the band"
    assert t[("appeared", "D")] == "was already outside the band (not significant in the base)"
    assert t[("vanished", "E")] == "crossed to the other side of the band"
    assert t[("appeared", "E")] == "crossed from the other side of the band"


def test_compare_prints_the_verdict_and_what_the_patch_changed(tmp_path, capsys):
    """What the patch changed is read from the folders' scenario texts; a folder compared with itself is refused."""
    from simkit.analysis.paired import patch_changes

    a = {"scenario_text": '{"name": "x", "creatures": {"Priest": {"L3": {"cost": 7}}}, "sweep": {"out": "a"}}'}
    b = {"scenario_text": '{"name": "y", "creatures": {"Priest": {"L3": {"cost": 6}}}, "sweep": {"out": "b"}}'}
    assert patch_changes(a, b) == [("creatures.Priest.L3.cost", 7, 6)]
    assert main(["compare", str(tmp_path), str(tmp_path), "-o", str(tmp_path / "c.pdf")]) == 2
    assert "compared with itself" in capsys.readouterr().err
