"""The ground floor of simkit: what every other part stands on and nothing here imports from above.

- :mod:`~simkit.core.errors`: the exceptions every layer raises (``file: key: problem``);
- :mod:`~simkit.core.rng`: seeds and one counter-based random stream per game;
- :mod:`~simkit.core.files`: files written whole or not at all, refused symlinks, one line for a full disk;
- :mod:`~simkit.core.seats`: the seats and winners as records spell them;
- :mod:`~simkit.core.records`: a recorded game (``simkit play --json``) and its actions;
- :mod:`~simkit.core.words`: English words for messages (plurals of a game's own nouns);
- :mod:`~simkit.core.settings`: a run's recorded settings and the one-line refusal of a resume with others.
"""

#: simkit's version (here, at the bottom, so that what records it never imports the package above)
__version__ = "0.1.0"
