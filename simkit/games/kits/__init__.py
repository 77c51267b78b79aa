"""What games build on, each written once: no game imports another, every game imports these.

- :mod:`.hexgrid`: hex cells in cube coordinates, neighbour and distance tables.
- :mod:`.bitboard`: row bitboards over a hex grid (reachability, masks).
- :mod:`.rng`: counter-based random streams and ``derive_seed`` (every game from its own seed).
- :mod:`.numba_cache`: numba's on-disk cache dropped whenever its sources change.
- :mod:`.turn_search`: the one compiled search (plans, determinizations, margin) over a game's six hooks.
"""
