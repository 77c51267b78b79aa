"""``simkit decks``: the scenario's deck pool, or the decks matching patterns, with their cards."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """Print the decks of the pool that match (every deck when no pattern is given)."""
    from simkit.core.words import plural
    from simkit.scenario import load_scenario
    from simkit.sweep.plan import select_decks

    sc = load_scenario(args.scenario)
    decks = select_decks(sc.decks, args.patterns, canonical=sc.canonical_deck)
    words = sc.game.schema.deck_words
    print(f"{sc.name}: {len(decks)} of {len(sc.decks)} {plural(words)}")
    for deck in decks:
        cards = "; ".join(f"{cat}: {', '.join(names)}" for cat, names in sc.game.deck_cards(deck).items())
        print(f"{deck}    {cards}" if args.cards else deck)
    return 0


def register(sub) -> None:
    """Add the ``decks`` command."""
    p = sub.add_parser(
        "decks",
        help="list the scenario's deck pool (or the decks matching patterns), the names sweep --decks takes",
        description="List the decks of the scenario's pool, in the order sweeps play them. Patterns are shell-style "
        "('HolyLight:*'); a deck named exactly may list its cards in any order.",
    )
    p.add_argument("scenario", help="scenario TOML")
    p.add_argument("patterns", nargs="*", metavar="PATTERN", help="only decks matching these patterns")
    p.add_argument("--cards", action="store_true", help="print each deck's cards by category")
    p.set_defaults(func=run)
