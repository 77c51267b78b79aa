"""Magic War (魔幻战争): armies bought with gold on a 5x6 board, deployment, d6 dice, magic and tactical cards.

The rules are ``shared/rules/magic-war.md`` (the designer's rulebook V1.3 with 39 rulings); the roster is the
AUTHORED example of ``shared/rules/magic-war-roster.md`` (not the designer's numbers), all of it scenario
data (``scenarios/magic/base.toml``). The rules live once, in :mod:`.engine` (compiled by numba, plain
Python under ``NUMBA_DISABLE_JIT=1``) over the state declared in :mod:`.state`; :mod:`.bots` holds the bots,
:mod:`.armies` the army ids, :mod:`.match` the single-game facade, :mod:`.tables` reads the scenario (the top of
the package: nothing below imports it), :mod:`.game` the :class:`~simkit.games.Game`.
"""

from pathlib import Path

from simkit.games.kits.numba_cache import drop_stale_cache

# numba checks only each cached function's own file: drop the cache when any source of the kernels changes
_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), _HERE.parent / "kits" / "mix.py",
                         _HERE.parent / "kits" / "turn_search.py"])

from simkit.games.magic.batch import bot_names, play_batch  # noqa: E402
from simkit.games.magic.game import GAME  # noqa: E402
from simkit.games.magic.match import Match  # noqa: E402
from simkit.games.magic.tables import Rules, armies, build_rules, canonical_deck, deck_pool  # noqa: E402

__all__ = ["GAME", "Match", "Rules", "armies", "bot_names", "build_rules", "canonical_deck", "deck_pool",
           "play_batch"]
