"""One sub-package per game; the core finds a game by the scenario's ``game`` key."""
