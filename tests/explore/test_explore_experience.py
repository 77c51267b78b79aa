"""explore says how the metagame's games play: the experience sentence over the games between the mixtures' decks."""

from types import SimpleNamespace

from simkit.explore.outputs import _experience
from simkit.testing.synthetic import synthetic_results, with_experience

POOL = ["HolyLight:Archer,BlackBat,Priest", "HolyLight:FrostDragon,Priest,Swordsman",
        "HolyLight:Priest,Swordsman,VolcanoDragon"]


def reading(supports):
    """The little of an explore reading ``_experience`` reads: the decks and each side's mixture (indices)."""
    return SimpleNamespace(space=SimpleNamespace(decks=POOL), supports=supports)


def test_the_sentence_reads_only_the_games_between_the_mixtures_decks():
    """Mixture: the first two decks (alike seats): the sentence counts their 4 pairings' games, not the third
    deck's, and gives the planted comebacks with an interval."""
    df = with_experience(synthetic_results(POOL, 50, 0.5, seed=1), comebacks=0.3)
    text, games = _experience(df, reading([[0, 1]]))
    assert games == 4 * 50
    assert text.startswith("How the games play:") and "comebacks" in text and "95% CI" in text


def test_a_game_without_the_figures_says_why():
    """Results without the experience columns: the one line saying why, never an error."""
    text, games = _experience(synthetic_results(POOL, 5, 0.5, seed=1), reading([[0], [1, 2]]))
    assert games == 2 * 5 and text.startswith("How the games play is not measured")
