"""The report and compare call the first seat's edge what it is: with a different bot in each seat it is a bot-and-seat
effect, said in the headline and on the first-player pages, never "going first is worth"."""

from __future__ import annotations

from simkit.analysis import analyze
from simkit.report.balance import headlines, seat_words
from simkit.testing.synthetic import synthetic_results

DECKS = ["HolyLight:Archer,BlackBat,Priest", "WindBlessing:Archer,BlackBat,Priest"]


def _tables(bots):
    df = synthetic_results(DECKS, 60, 0.5, first_advantage=0.25, seed=3, bots=bots)
    df.attrs["meta"] = {"bots": list(bots), "panel": []}
    return analyze(df, bootstrap=10)


def test_different_bots_in_the_seats_make_the_seats_figures_a_bot_and_seat_effect():
    """Different bots in the seats: the headline names a bot-and-seat effect, never the seat's worth."""
    tables = _tables(("turtle", "balanced"))
    title, note = seat_words(tables)
    assert title == "First seat's edge: a bot-and-seat effect"
    assert note.startswith("turtle played first and balanced second") and "--bots B,B" in note
    seat = next(h for h in headlines(tables) if "bot-and-seat effect" in h)
    assert seat.startswith("The first seat's edge is +") and "not the seat's worth" in seat
    assert not any(h.startswith("Going first is worth") for h in headlines(tables))


def test_one_bot_in_both_seats_measures_the_seat():
    """One bot in both seats: a clear edge (25 points over 240 games) is the seat's worth."""
    tables = _tables(("balanced", "balanced"))
    assert seat_words(tables) == ("First-player advantage", None)
    assert any(h.startswith("Going first is worth +") for h in headlines(tables))
