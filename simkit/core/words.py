"""Words for simkit's messages and pages, from one place: the plurals of a game's nouns, and every sentence
that judges balance.

Every judging sentence of every command (the report's verdict and headlines, ``compare``, ``scan``,
``explore``, ``tune``, the flags' messages) is made here from estimates with their intervals
(:class:`Estimate`), never from a bare number, so a word is never stronger than its interval. The words
and what each one needs:

- **balanced**: no flag, and every required estimate's 95% interval lies wholly inside its band. (A claim
  that *every* figure is inside is an intersection-union claim: each interval inside at its own level is
  enough, no correction is needed.)
- **not balanced**: at least one flag: an estimate outside its band whose exact test stays significant after
  the correction of its family (:mod:`simkit.analysis.flags`).
- **not settled yet**: neither; the sentence says what lies outside by its estimate alone and about how many
  games per pair would settle it if the rates hold (:func:`games_to_settle`).
- **worth** (a seat's edge), **measurable**, **changed**: the interval excludes 0; otherwise
  "no measurable ...", with the interval in the same sentence.
- **significant(ly)**: a corrected test below alpha (a flag, a change of ``compare``).
- **met** (``explore``'s guarantee): the upper bound of the exploitability's interval below epsilon.
- **dead** (a card): no deck holding it is in the metagame or among the strongest decks, and every searched
  deck holding it scores below the band with confidence (the upper bound of its interval).
- **plays better** (a ladder's match): the score's interval (draws half) lies wholly above 1/2; **not told
  apart** when it holds 1/2. **The player matters** (``simkit ladder``): a bot plays better than another and the
  players' share of the outcome's variance has an interval above 0.
- **flagged** (how the games play: snowballing, decided early, too long or short, drawish): as a balance flag,
  the estimate beyond its bar and its exact test significant after its family's correction; an estimate beyond
  its bar without that is said "by its estimate, not significantly".
- **differs measurably** (real play against simulation, ``simkit report REAL --against SWEEP``): the 95% interval
  of real minus simulated leaves 0 out; otherwise "no measurable difference", with the interval.
- **proposed** (``tune``): the proposal beats the base on the confirmation seeds and the fresh-seed check
  finds the spread narrower by its whole interval; otherwise "no safe proposal".

Figures are rates in [0, 1] (0.01 is one point) unless a function says otherwise. Nothing here imports
from above the core: the callers turn their tables into :class:`Estimate` values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

__all__ = [
    "count", "plural", "pct", "pts", "Estimate", "Banded", "Verdict", "VERDICT_STATES", "balance_verdict",
    "games_to_settle", "settle_projection", "seat_sentence", "flag_message", "deck_range_sentence", "change_verdict",
    "detectable_change", "games_for_change", "guarantee_sentence", "seats_guarantee_sentence", "shift_sentence",
    "card_status",
    "crossing_verdict", "tune_verdict", "match_sentence", "player_answer", "experience_flag_message",
    "real_against_words",
    "experience_sentence", "EXPERIENCE_FLAG_WORDS",
    "paired_change_clause",
]

Z95 = NormalDist().inv_cdf(0.975)
MOST_GAMES = 10_000  # beyond this many games per pair a projection is said as "more than"
NAMED = 2            # subjects named per kind in a verdict sentence; the rest counted


def plural(noun: str) -> str:
    """The plural of an English noun of a game's words: ``deck`` -> ``decks``, ``hero class`` -> ``hero classes``,
    ``army`` -> ``armies``."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def count(n: int, noun: str) -> str:
    """``1 deck``, ``2 decks``, ``3 hero classes``."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural(noun)}"


def pct(x: float) -> str:
    """A rate as a percentage with one decimal: ``0.725`` -> ``72.5%``."""
    return f"{100 * x:.1f}%"


def pts(x: float) -> str:
    """A rate difference in signed points with one decimal: ``0.056`` -> ``+5.6``."""
    return f"{100 * x:+.1f}"


def _band_pct(lo: float, hi: float) -> str:
    return f"{100 * lo:g}-{100 * hi:g}%"


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval.

    Attributes:
        value: the estimate.
        low: the interval's lower end.
        high: the interval's upper end.
        games: the games behind it (0: not said).
        name: what it is (a deck, ``"A vs B"``), for the sentences that name it.
    """

    value: float
    low: float
    high: float
    games: int = 0
    name: str = ""

    @property
    def known(self) -> bool:
        """Whether the value and both ends are numbers (a figure without games is not)."""
        return all(isinstance(x, int | float) and math.isfinite(x) for x in (self.value, self.low, self.high))

    def inside(self, lo: float, hi: float) -> bool:
        """The whole interval lies inside ``[lo, hi]``."""
        return self.known and lo <= self.low and self.high <= hi

    def outside(self, lo: float, hi: float) -> bool:
        """The estimate (not its interval) lies outside ``[lo, hi]``."""
        return self.known and (self.value < lo or self.value > hi)

    def excludes(self, x: float) -> bool:
        """The interval leaves ``x`` out: a difference from ``x`` is measured."""
        return self.known and (self.low > x or self.high < x)

    def ci(self) -> str:
        """``95% CI 57.2%-83.9%`` (rates)."""
        return f"95% CI {pct(self.low)}-{pct(self.high)}"

    def ci_pts(self, scale: float = 1.0) -> str:
        """``95% CI -2.6 to +13.4`` (differences in points)."""
        return f"95% CI {pts(scale * self.low)} to {pts(scale * self.high)}"


# ----------------------------------------------------------------------------------------------
# the balance verdict


#: a :class:`Banded` subject's kind -> (singular noun, plural noun)
KINDS = {
    "deck": ("deck", "decks"),
    "matchup": ("matchup", "matchups"),
    "seat": ("the first seat's edge", "the first seat's edge"),
    "deck seat": ("deck's first-seat edge", "decks' first-seat edges"),
    "matchup seat": ("matchup's first-seat edge", "matchups' first-seat edges"),
}
VERDICT_STATES = ("balanced", "not balanced", "not settled")


@dataclass(frozen=True)
class Banded:
    """One subject a balance verdict judges: an estimate, its band, and whether it is flagged.

    Attributes:
        kind: ``deck``, ``matchup`` (the winning side's rate), ``seat`` (the first seat's score rate, overall),
            ``deck seat`` or ``matchup seat`` (per deck or matchup).
        estimate: the rate with its 95% interval.
        band: the band it should lie in, ``(low, high)``.
        flagged: outside its band and significant after its family's correction.
        family: the tests in its correction family (for the projection of :func:`games_to_settle`).
        required: whether "balanced" needs its interval inside the band (else only that it is not flagged).
    """

    kind: str
    estimate: Estimate
    band: tuple[float, float]
    flagged: bool = False
    family: int = 1
    required: bool = True

    @property
    def settled(self) -> bool:
        """Flagged, or its interval inside its band (required subjects), or unflagged (the others)."""
        return self.flagged or not self.required or self.estimate.inside(*self.band)


@dataclass(frozen=True)
class Verdict:
    """A balance verdict: its state (one of :data:`VERDICT_STATES`), the sentence, and the games per pair a
    "not settled" verdict would need (``None`` when settled or not projected; ``math.inf``: more than
    :data:`MOST_GAMES`)."""

    state: str
    sentence: str
    games: float | None = None


def _subject(b: Banded) -> str:
    """One subject with its figure and interval: ``X at 72.5% (95% CI 57.2%-83.9%)``, ``+5.6 points (95% CI ...)``."""
    e = b.estimate
    if b.kind in ("seat", "deck seat", "matchup seat"):
        what = f"{pts(e.value - 0.5)} points, {Estimate(e.value - .5, e.low - .5, e.high - .5).ci_pts()}"
        return what if b.kind == "seat" else f"{e.name} at {what}"
    return f"{e.name} at {pct(e.value)}, {e.ci()}"


def _band_words(kind: str, band: tuple[float, float]) -> str:
    lo, hi = band
    if kind == "matchup":
        return f"beyond {100 * hi:g}/{100 * lo:g}"
    if kind in ("seat", "deck seat", "matchup seat"):
        return f"beyond +-{100 * (hi - 0.5):g} points"
    return f"outside {_band_pct(lo, hi)}"


def _counted(kind: str, items: list[Banded], total: int) -> str:
    """``2 of 6 decks lie outside 45-55%``, ``the first seat's edge lies beyond +-5 points``."""
    one, many = KINDS[kind]
    band = _band_words(kind, items[0].band)
    if kind == "seat":
        return f"{one} lies {band}"
    verb = "lies" if len(items) == 1 else "lie"
    return f"{len(items)} of {total} {one if total == 1 else many} {verb} {band}"


def _listing(groups: list[tuple[str, list[Banded], int]]) -> str:
    """The counted groups in one clause, joined ``a, b and c``."""
    parts = [_counted(k, items, total) for k, items, total in groups]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def settle_projection(items: Sequence[Banded], games_per_pair: float, alpha: float = 0.05
                      ) -> tuple[float, Banded, str] | None:
    """About how many games per pair would settle a verdict that is not settled, if the rates hold; which
    subject settles it, and how.

    Only the subjects "balanced" requires count (the per-deck and per-matchup seat edges, thin and noisy, do
    not), and each rate is held pulled toward 1/2 by two points won and two lost (:func:`_shrunk`: one game won is
    not a rate of 100% to project from). Each estimate's interval narrows as one over the square root of its
    games, and its games grow with the games per pair. When some estimate lies outside its band, the verdict
    settles once the first of
    those would be flagged (its exact one-sided binomial test at ``alpha``, Bonferroni over its family, as a lone
    flag is judged: a projection, not a promise); when every estimate lies inside, once the last Wilson interval
    fits inside its band.

    Args:
        items: the subjects of the verdict.
        games_per_pair: the games per ordered pair behind the estimates.
        alpha: the flags' significance level.

    Returns:
        ``(games per pair, the subject that settles it, "flag" or "inside")``; the games are ``math.inf`` when
        the subject sits at its band's edge or more than :data:`MOST_GAMES` would be needed. ``None`` when
        everything is settled or nothing can be projected.
    """
    open_ = [_shrunk(b) for b in items
             if b.required and not b.settled and b.estimate.known and b.estimate.games > 0]
    if not open_ or not games_per_pair or games_per_pair <= 0:
        return None
    outside = [b for b in open_ if b.estimate.outside(*b.band)]
    pairs = np.arange(math.floor(games_per_pair) + 1, MOST_GAMES + 1, dtype=float)
    if outside:
        # the few subjects furthest outside by the normal approximation, then each exactly
        closest = sorted(outside, key=lambda b: _normal_factor(b, alpha))[:20]
        found = [(_first_flag(b, pairs / games_per_pair, alpha), b) for b in closest]
        route = "flag"
        need, subject = min(found, key=lambda x: x[0])
    else:
        found = [(_first_inside(b, pairs / games_per_pair), b) for b in open_]
        route = "inside"
        need, subject = max(found, key=lambda x: x[0])
    subject = next(b for b in items if b.estimate is subject.estimate.original)  # the subject as measured
    if not math.isfinite(need):
        return math.inf, subject, route
    return float(pairs[int(need)]), subject, route


@dataclass(frozen=True)
class _Held(Estimate):
    """An estimate as a projection holds it (:func:`_shrunk`), keeping the one it was measured as."""

    original: Estimate | None = None


def _shrunk(b: Banded) -> Banded:
    """``b`` with its rate pulled toward 1/2 by two points won and two lost (Agresti and Coull's plus four), as a
    projection holds it: a rate from a few games overstates an extreme (one game won is 100%), and "if the rates
    hold" should not promise a flag from it."""
    from dataclasses import replace

    e = b.estimate
    held = (e.value * e.games + 2) / (e.games + 4)
    return replace(b, estimate=_Held(held, e.low, e.high, e.games, e.name, original=e))


def _normal_factor(b: Banded, alpha: float) -> float:
    """How many times its games a subject outside its band needs to be flagged, by the normal approximation."""
    e, (lo, hi) = b.estimate, b.band
    distance = min(abs(e.value - lo), abs(e.value - hi))
    z = NormalDist().inv_cdf(1 - alpha / max(b.family, 1))
    return math.inf if distance <= 1e-9 else z * z * e.value * (1 - e.value) / (distance * distance * e.games)


def _first_flag(b: Banded, scale: np.ndarray, alpha: float) -> float:
    """The index into ``scale`` (games multiplied) of the first at which the subject's exact one-sided binomial test
    against its nearer band edge, Bonferroni over its family, falls below ``alpha`` with its rate held (``inf``:
    none). Points are counted as wins (draws as half a win)."""
    from scipy.stats import binom

    e, (lo, hi) = b.estimate, b.band
    n = np.rint(e.games * scale)
    k = np.rint(e.value * n)
    p = binom.sf(k - 1, n, hi) if e.value > hi else binom.cdf(k, n, lo)
    hit = np.flatnonzero(p * max(b.family, 1) < alpha)
    return float(hit[0]) if len(hit) else math.inf


def _first_inside(b: Banded, scale: np.ndarray) -> float:
    """The index into ``scale`` of the first at which the subject's 95% Wilson interval, its rate held, lies inside
    its band (``inf``: none)."""
    e, (lo, hi) = b.estimate, b.band
    n = e.games * scale
    z2 = Z95 * Z95
    centre = (e.value + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(e.value * (1 - e.value) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    hit = np.flatnonzero((centre - half >= lo) & (centre + half <= hi))
    return float(hit[0]) if len(hit) else math.inf


def games_to_settle(items: Sequence[Banded], games_per_pair: float, alpha: float = 0.05) -> float | None:
    """The games per pair of :func:`settle_projection` (``None`` when nothing is projected)."""
    projected = settle_projection(items, games_per_pair, alpha)
    return None if projected is None else projected[0]


def _projection_words(projected: tuple[float, Banded, str], real: bool = False) -> str:
    """``if the rates hold, about 12 games per pair (sweep --games 12) would flag X at 72.5%, 95% CI ...``; of real
    games (``real``), ``about 12 real games per pair would ...`` (no sweep plays them)."""
    games, subject, route = projected
    what = (f"flag {_subject(subject)}" if route == "flag" else
            f"put every interval inside its band (the last: {_subject(subject)})")
    if math.isinf(games):
        return (f"if the rates hold, more than {MOST_GAMES:,} games per pair would be needed to {what.split(' (')[0]}"
                f", as {_subject(subject)} lies at its band's edge")
    if real:
        return f"if the rates hold, about {int(games):,} real games per pair would {what}"
    return f"if the rates hold, about {int(games):,} games per pair (sweep --games {int(games)}) would {what}"


#: the seat kinds "balanced" asks only not to be flagged, as the verdict names them
_UNFLAGGED = {"deck seat": "per-deck", "matchup seat": "per-matchup"}


def balance_verdict(items: Sequence[Banded], games_per_pair: float | None, complete: bool = True,
                    adaptive: bool = False, alpha: float = 0.05, seat_note: str = "", real: bool = False) -> Verdict:
    """The report's answer in one sentence: balanced, not balanced, or not settled yet.

    Args:
        items: every subject judged (decks, matchups, the first seat overall and per deck or matchup).
        games_per_pair: games per ordered pair of the sweep (for the projection; ``None``: not projected).
        complete: whether the sweep is finished.
        adaptive: the sweep chose its games (a projection in games per pair is then not said).
        alpha: the flags' significance level.
        seat_note: why the first seat is not judged (its bots differ), said at the end; ``""``: it is judged.
        real: the games are real games people played (the projection names no sweep).

    Returns:
        a :class:`Verdict`; its sentence names what lies outside its band and, when not settled, about how
        many games per pair would settle it.
    """
    kinds = [k for k in KINDS if any(b.kind == k for b in items)]
    by = {k: [b for b in items if b.kind == k] for k in kinds}
    tail = f" ({seat_note})" if seat_note else ""
    flagged = [(k, [b for b in by[k] if b.flagged], len(by[k])) for k in kinds]
    flagged = [g for g in flagged if g[1]]
    if flagged:
        top = max(flagged[0][1], key=_excess)
        return Verdict("not balanced", f"Not balanced: {_listing(flagged)}, significantly "
                                       f"({'furthest: ' if top.kind != 'seat' else ''}{_subject(top)}){tail}.")
    required = [b for b in items if b.required]
    if complete and required and all(b.settled for b in items):
        said = []
        for k in kinds:
            if k in _UNFLAGGED:
                continue
            band = by[k][0].band
            if k == "deck":
                said.append(f"every deck's 95% interval lies inside {_band_pct(*band)}")
            elif k == "matchup":
                said.append(f"every matchup's inside {100 * band[0]:g}/{100 * band[1]:g}")
            else:
                said.append(f"the first seat's edge inside +-{100 * (band[1] - 0.5):g} points")
        unflagged = [_UNFLAGGED[k] for k in kinds if k in _UNFLAGGED]
        more = f"; no {' or '.join(unflagged)} seat edge is flagged" if unflagged else ""
        joined = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        return Verdict("balanced", f"Balanced: {joined}{more}{tail}.")
    outside = [(k, [b for b in by[k] if b.required and b.estimate.outside(*b.band)], len(by[k])) for k in kinds]
    outside = [g for g in outside if g[1]]
    if outside:
        what = f"by their estimates {_listing(outside)}, none significantly"
    else:
        wide = sum(1 for b in required if not b.settled)
        what = (f"every estimate lies inside its band, but {wide} of {len(required)} intervals reach beyond it"
                if wide else "no estimate can be judged")
    if not complete:
        return Verdict("not settled", f"Not settled yet: the sweep is not finished (simkit sweep --resume finishes "
                                      f"it); so far {what}{tail}.")
    projected = None if adaptive or games_per_pair is None else settle_projection(items, games_per_pair, alpha)
    if adaptive:
        how = "; an adaptive sweep with a larger --max-games would settle it"
    elif projected is None:
        how = ""
    else:
        how = "; " + _projection_words(projected, real)
    return Verdict("not settled", f"Not settled yet: {what}{how}{tail}.", None if projected is None else projected[0])


def _excess(b: Banded) -> float:
    e, (lo, hi) = b.estimate, b.band
    return max(e.value - hi, lo - e.value) if e.known else -math.inf


# ----------------------------------------------------------------------------------------------
# single figures


def _printed_excludes_zero(e: Estimate) -> bool:
    """The interval leaves 0 out as the sentence prints it (in points, one decimal): a bound that prints as
    ``+0.0`` does not, so no word is stronger than the interval the reader sees."""
    return float(f"{100 * e.low:.1f}") > 0 or float(f"{100 * e.high:.1f}") < 0


def seat_sentence(edge: Estimate, band: float, flagged: bool = False, games: int | None = None,
                  interval: str = "95% CI", given: tuple[str, str] | None = None) -> str:
    """The first seat's edge in one sentence, as strong as its interval allows.

    Args:
        edge: the first seat's score rate minus 1/2, with its interval (rate units).
        band: the seat band's half width (0.05: +-5 points).
        flagged: the edge is flagged (beyond the band, significant after correction).
        games: the games behind it, said when given.
        interval: what the interval is called (an adaptive sweep's: ``anytime-valid 95% interval``).
        given: what each seat is given beside moving first, where the seats differ by more (Magic War:
            ``("12 gold", "13 gold")``): named after the edge, which is then the seat's with its gold.

    Returns:
        ``going first is worth +8.0 points (95% CI +3.2 to +12.8...)`` only when the interval as printed excludes 0,
        else ``no measurable seat edge: +5.6 points (95% CI -2.6 to +13.4...)``; then where it stands against
        the band: flagged beyond it, inside it by its whole interval, or not settled.
    """
    if not edge.known:
        return "the first seat's edge cannot be measured: no game between two decks"
    n = f", {games:,} games" if games else ""
    n += f"; the first seat with {given[0]}, the second with {given[1]}" if given else ""
    shown = edge.ci_pts().replace("95% CI", interval, 1)
    ci = f"({shown}{n})"
    if _printed_excludes_zero(edge):
        who = "going first" if edge.value > 0 else "going second"
        size = f"{100 * abs(edge.value):.1f}"
        head = (f"going first is worth {pts(edge.value)} points {ci}" if edge.value > 0
                else f"{who} is worth {size} points (the first seat's edge {pts(edge.value)}, {shown}{n})")
    else:
        head = f"no measurable seat edge: {pts(edge.value)} points {ci}"
    width = f"+-{100 * band:g} points"
    if flagged:
        return head + f", significantly beyond {width} (flagged)"
    if edge.inside(-band, band):
        return head + f", inside {width}"
    return head + f"; whether it lies within {width} is not settled"


def flag_message(kind: str, subject: str, value: float, low: float, high: float, band: tuple[float, float]) -> str:
    """The message of a flag (the estimate outside its band, significant after correction).

    Args:
        kind: ``deck``, ``matchup`` (``subject`` is ``"winner vs loser"``) or ``first_player`` (``subject``
            ``"all games"``, a deck or a matchup).
        subject: what is flagged.
        value: its rate; ``low``, ``high``: the interval.
        band: the band it lies outside of.
    """
    if kind == "deck":
        side = "above" if value > band[1] else "below"
        return (f"{subject} wins {pct(value)} of its games (95% CI {pct(low)}-{pct(high)}), "
                f"{side} the {_band_pct(*band)} band")
    if kind == "matchup":
        a, _, b = subject.partition(" vs ")
        return (f"{a} beats {b} {pct(value)} of the time (95% CI {pct(low)}-{pct(high)}), "
                f"beyond {100 * band[1]:.0f}/{100 * band[0]:.0f}")
    who = "the first player" if subject == "all games" else subject
    seat = "going first" if value > 0.5 else "going second"
    size = 100 * abs(value - 0.5)
    return (f"{seat} is worth {size:.1f} points for {who} (first seat scores {pct(value)}, "
            f"95% CI {pct(low)}-{pct(high)}), beyond +-{100 * (band[1] - 0.5):.0f}")


def deck_range_sentence(decks: Sequence[Estimate], band: tuple[float, float], flagged: int) -> str:
    """The deck win rates' range, and how many lie outside the band by estimate and how many significantly."""
    rated = [d for d in decks if d.known]
    lo, hi = min(rated, key=lambda d: d.value), max(rated, key=lambda d: d.value)
    out = sum(1 for d in rated if d.outside(*band))
    sig = "none significantly" if not flagged else f"{flagged} significantly (flagged)"
    where = (f"{out} of {len(rated)} lie outside {_band_pct(*band)} by their estimates, {sig}" if out
             else f"every estimate lies inside {_band_pct(*band)}")
    return (f"Deck win rates range from {pct(lo.value)} ({lo.name}) to {pct(hi.value)} ({hi.name}); {where}.")


# ----------------------------------------------------------------------------------------------
# compare


def detectable_change(sd: float, games_per_deck: float, decks: int, alpha: float = 0.05,
                      power: float = 0.8) -> float:
    """The smallest change of one deck's win rate a paired comparison detects with probability ``power``.

    A deck's change is a mean of paired differences with standard deviation ``sd`` per game over
    ``games_per_deck`` games, tested two-sided at ``alpha`` after a Bonferroni correction over ``decks``
    (the first step of Holm's).

    Returns:
        the change, in rate units (``nan`` without games; 0 when no paired game changed at all).
    """
    if games_per_deck <= 0 or not math.isfinite(sd):
        return math.nan
    z = NormalDist().inv_cdf(1 - alpha / (2 * max(decks, 1))) + NormalDist().inv_cdf(power)
    return z * sd / math.sqrt(games_per_deck)


def games_for_change(change: float, smallest: float, games_per_pair: float) -> float:
    """About how many games per pair detect a deck change of ``change`` (as :func:`detectable_change` does),
    from the ``smallest`` change detected at ``games_per_pair``: the detectable change shrinks as one over the
    square root of the games. ``math.inf`` beyond :data:`MOST_GAMES`; ``nan`` when nothing can be projected."""
    if not (math.isfinite(smallest) and smallest > 0 and change > 0 and games_per_pair > 0):
        return math.nan
    games = games_per_pair * (smallest / change) ** 2
    return math.inf if games > MOST_GAMES else float(max(math.ceil(games), 1))


def change_verdict(spread: tuple[float, float], ratio: Estimate, decks_inside: tuple[int, int], decks: int,
                   band: tuple[float, float], smallest: float, games_per_pair: float, named: float = 0.05,
                   needed: float | None = None, same_rules: bool = False) -> tuple[str, str]:
    """``compare``'s answer: did the patch change balance, and could this comparison have seen it?

    Args:
        spread: the spread (standard deviation) of the deck win rates, base and patch.
        ratio: the spread's ratio, patch over base, with its paired interval.
        decks_inside: decks inside the band, base and patch (by estimate).
        decks: decks compared.
        band: the deck band.
        smallest: the smallest change of a deck's win rate the comparison detects (:func:`detectable_change`).
        games_per_pair: paired games per ordered pair.
        named: a change of a size the designer may care about (0.05: five points).
        needed: games per pair a change of ``named`` needs (``None``: not projected).
        same_rules: the two sweeps play the same rules.

    Returns:
        ``(kind, sentence)``: ``kind`` is ``more balanced`` or ``less balanced`` (the ratio's interval lies
        below or above 1), ``no measurable effect on balance`` (it holds 1, and the comparison could see a
        deck change of ``named``) or ``not settled`` (it holds 1, and a change of ``named`` could go unseen).
    """
    if ratio.known and ratio.high < 1:
        kind = "more balanced"
    elif ratio.known and ratio.low > 1:
        kind = "less balanced"
    elif math.isfinite(smallest) and smallest <= named:
        kind = "no measurable effect on balance"
    else:
        kind = "not settled"
    interval = f"95% CI {ratio.low:.2f}-{ratio.high:.2f}" if ratio.known else "no interval"
    before, after = decks_inside
    head = "not settled (no measurable effect on balance yet)" if kind == "not settled" else kind
    sentence = (f"{head}: deck spread {100 * spread[0]:.1f} -> {100 * spread[1]:.1f} points (x{ratio.value:.2f}, "
                f"{interval}); decks inside the {_band_pct(*band)} band {before} -> {after} of {decks} by their "
                "estimates")
    if not math.isfinite(smallest):
        sentence += "; no paired game to measure a change"
    elif smallest == 0:
        sentence += "; no paired game changed its result"
    else:
        sentence += (f"; at {games_per_pair:g} game{'' if games_per_pair == 1 else 's'} per pair it could only detect "
                     f"a deck change of about {100 * smallest:.0f} points or more")
        if kind in ("not settled", "no measurable effect on balance") and needed is not None:
            sentence += (f", and a change of {100 * named:g} points needs " +
                         (f"about {int(needed):,} games per pair" if math.isfinite(needed)
                          else f"more than {MOST_GAMES:,} games per pair"))
    if same_rules:
        sentence = "the two sweeps play the same rules; " + sentence
    return kind, sentence


def changes_sentence(label: str, changes: Sequence[Estimate], shown: int = 3) -> str:
    """How many of a family's changes (decks, cards) are significant, and the largest gains and losses among those:
    ``Decks: 2 of 12 changed significantly; gained: A (+8.1 pts); lost: B (-6.0 pts).``

    Each change's interval is the one its corrected test used (:func:`simkit.analysis.paired.corrected_interval`),
    so a change is called significant exactly when that interval leaves 0 out.
    """
    moved = [c for c in changes if c.excludes(0.0)]
    up = sorted((c for c in moved if c.value > 0), key=lambda c: -c.value)[:shown]
    down = sorted((c for c in moved if c.value < 0), key=lambda c: c.value)[:shown]
    parts = ([f"gained: {', '.join(f'{c.name} ({pts(c.value)} pts)' for c in up)}"] if up else []) + \
        ([f"lost: {', '.join(f'{c.name} ({pts(c.value)} pts)' for c in down)}"] if down else [])
    return f"{label}: {len(moved)} of {len(changes)} changed significantly" + (f"; {'; '.join(parts)}." if parts
                                                                               else ".")


def seat_change_sentence(title: str, base: float, patch: float, change: Estimate) -> str:
    """The first seat's edge before and after a patch, its change with the interval its test used, called
    significant exactly when that interval leaves 0 out."""
    word = "significant" if change.excludes(0.0) else "not significant"
    return (f"{title}: {pts(base)} -> {pts(patch)} points (change {pts(change.value)}, {change.ci_pts()}, "
            f"{word}).")


def seat_change_clause(base: float, patch: float, change: Estimate) -> str:
    """The verdict's clause on the first seat, said only when its change is significant (its interval, the one its
    test used, leaves 0 out), so a verdict of no measurable effect on balance never hides a seat that moved:
    ``; the first seat's edge changed: -1.0 -> -4.2 points (change -3.1, 95% CI -5.8 to -0.4)``; else ``""``."""
    if not change.excludes(0.0):
        return ""
    return f"; the first seat's edge changed: {pts(base)} -> {pts(patch)} points (change {pts(change.value)}, " \
           f"{change.ci_pts()})"


def matchup_changes_sentence(changes: Sequence[Estimate]) -> str:
    """How many pairings' win rates changed significantly (each interval the one its corrected test used), and the
    largest change among them, or how large the changes said to be noise reach."""
    moved = [c for c in changes if c.excludes(0.0)]
    head = f"Matchups: {len(moved)} of {len(changes)} pairings changed significantly"
    if moved:
        return head + f"; the largest significant change is {100 * max(abs(c.value) for c in moved):.0f} points."
    if changes:
        return head + (f"; the others' changes (up to {100 * max(abs(c.value) for c in changes):.0f} points) are "
                       "within noise.")
    return head + "."


def nash_change_sentence(before: int, after: int, entered: Sequence[str], left: Sequence[str], noise: int) -> str:
    """The metagame's change: the decks before and after, those that entered or left with a significant change of
    their own win rate named, the others counted as noise (the Nash mix has no test of its own: a small change of
    one matchup can swap a deck in or out)."""
    head = f"Nash mix: {before} decks before, {after} after"
    if not entered and not left and not noise:
        return head + "; the same decks."
    words = [f"{d} entered" for d in entered] + [f"{d} left" for d in left]
    tail = (f"; {noise} deck{'s' if noise != 1 else ''} entered or left with no significant change of "
            f"{'their' if noise != 1 else 'its'} own win rate (noise, not a result)") if noise else ""
    return head + ("; " + ", ".join(words) if words else "") + tail + "."


__all__ += ["changes_sentence", "seat_change_sentence", "seat_change_clause", "matchup_changes_sentence",
            "nash_change_sentence"]


# ----------------------------------------------------------------------------------------------
# explore


def guarantee_sentence(exploitability: Estimate, epsilon: float, stopped: str, who: str = "the mixture",
                       scope: str = "searched deck") -> tuple[bool, str]:
    """``explore``'s guarantee, met only when the upper bound of the exploitability's interval is below epsilon.

    Args:
        exploitability: the best searched deck's score against the mixture minus its value, with its interval.
        epsilon: the guarantee's margin.
        stopped: why the run stopped (``settled``, ``max_games``...).
        who: what is exploited (``the mixture``, ``the first seat's mixture``).
        scope: the decks the bound covers (``searched deck``; ``deck of the pool`` when every deck was raced).

    Returns:
        ``(met, sentence)``.
    """
    e = exploitability
    ci = f"interval {e.low:+.3f} to {e.high:+.3f}"
    if e.known and e.high < epsilon:
        return True, (f"guarantee met: no {scope} beats {who} by {epsilon:g} or more (exploitability "
                      f"{e.value:+.3f}, {ci}, its upper end below epsilon = {epsilon:g})")
    why = ("the run stopped on --max-games first" if stopped == "max_games" else
           "more games per ordered pair (--horizon) would narrow it")
    if e.known and e.low > epsilon:
        return False, (f"guarantee NOT met: a {scope} beats {who} by more than {epsilon:g} (exploitability "
                       f"{e.value:+.3f}, {ci})")
    return False, (f"guarantee NOT met: exploitability {e.value:+.3f} ({ci}) may reach epsilon = "
                   f"{epsilon:g}, so a deck beating {who} by that much is not ruled out; {why}")


def seats_guarantee_sentence(per_seat: dict[str, Estimate], epsilon: float, stopped: str,
                             scope: str = "searched deck") -> tuple[bool, str]:
    """The guarantee of an explore whose seats have their own pools, in one sentence: met only when the upper end
    of each seat's exploitability interval lies below epsilon.

    Args:
        per_seat: ``{"first": ..., "second": ...}``: each seat's metagame's exploitability (the other seat's best
            searched deck against it, minus its value) with its interval.
        epsilon: the guarantee's margin.
        stopped: why the run stopped.
        scope: the decks the bound covers (``searched deck``; ``deck of its pool`` when every deck was raced).

    Returns:
        ``(met, sentence)``.
    """
    said = "the exploitability " + " and ".join(
        f"of the {seat} seat's metagame {e.value:+.3f} (interval {e.low:+.3f} to {e.high:+.3f})"
        for seat, e in per_seat.items())
    met = [seat for seat, e in per_seat.items() if e.known and e.high < epsilon]
    if len(met) == len(per_seat):
        return True, (f"guarantee met for both seats: no {scope} beats the other seat's metagame by {epsilon:g} "
                      f"or more ({said}: every upper end below epsilon)")
    why = ("the run stopped on --max-games first" if stopped == "max_games" else
           "more games per ordered pair (--horizon) would narrow them")
    if met:  # one seat's upper end lies below epsilon, the other's does not: say which is which
        other = next(seat for seat in per_seat if seat not in met)
        return False, (f"guarantee met for the {met[0]} seat only, NOT for the {other}: {said}; the {other} seat's "
                       f"may reach epsilon = {epsilon:g}, so a deck beating its metagame by that much is not ruled "
                       f"out; {why}")
    return False, (f"guarantee NOT met for either seat: {said} may reach epsilon = {epsilon:g}, so a deck "
                   f"beating a seat's metagame by that much is not ruled out; {why}")


def shift_sentence(who: str, best: Estimate, epsilon: float, than: str = "1/2",
                   among: tuple[int, int, str] | None = None, base: Estimate | None = None) -> str:
    """Whether a patch moved a metagame (``simkit compare`` of two explore runs): the best response to the base's
    mixture in the patched game (``best.name``) scores ``best.value`` over ``than``; "moved" only when the whole
    interval lies above epsilon, "did not move by more than epsilon" only when it lies at or below it, else "may have
    moved". ``among`` (``scored, searched, noun``) says how many of the decks the patch searched the best response
    was sought among (those that played every deck of the base's mixture): a claim reaches no further. ``base``
    (the base mixture's exploitability in the base game): when it may reach epsilon and the patch's interval does
    too, a second sentence says the base run had not settled it either."""
    said = (f"in the patched game the best response to it ({best.name}) scores {best.value:+.3f} over {than} "
            f"(interval {best.low:+.3f} to {best.high:+.3f})")
    if among is not None:
        which = f"all {among[1]:,}" if among[0] == among[1] else f"the {among[0]:,} of the {among[1]:,}"
        said += f", sought among {which} {among[2]} the patch searched that played every deck of it"
    if best.low > epsilon:
        text = f"{who} moved: {said}, more than epsilon {epsilon:g} with confidence."
    elif best.high <= epsilon:
        return f"{who} did not move by more than epsilon {epsilon:g}: {said}."
    else:
        text = f"{who} may have moved: {said}; the interval straddles epsilon {epsilon:g}: play more games to tell."
    if base is not None and base.high >= epsilon:
        text += (f" The base run had not settled it either (its exploitability in the base game {base.value:+.3f}, "
                 f"interval {base.low:+.3f} to {base.high:+.3f}, may reach epsilon {epsilon:g}), so part of the "
                 "move may be the base's own, not the patch's.")
    return text


def value_change_sentence(base: Estimate, patch: Estimate, change: Estimate) -> str:
    """The first seat's value in two explore runs of a game whose seats choose apart (its expected score when both
    seats play their run's metagame), base and patch with their intervals, and the change: "rose" or "fell" only
    when the change's interval as printed (three decimals) leaves 0 out, else "no measurable change"."""
    said = (f"The first seat's value (its expected score when both seats play their run's metagame): base "
            f"{base.value:.3f} (interval {base.low:.3f} to {base.high:.3f}), patch {patch.value:.3f} (interval "
            f"{patch.low:.3f} to {patch.high:.3f})")
    ci = f"(interval {change.low:+.3f} to {change.high:+.3f})"
    if float(f"{change.low:.3f}") > 0 or float(f"{change.high:.3f}") < 0:
        word = "rose" if change.value > 0 else "fell"
        return f"{said}: it {word} by {abs(change.value):.3f} {ci}."
    return f"{said}: no measurable change, {change.value:+.3f} {ci}."


def card_status(in_metagame: int, in_strongest: int, may_reach_band: int, searched: int) -> str:
    """A card's standing in an explore run, as strong as the evidence allows.

    Args:
        in_metagame: decks of the mixture holding it.
        in_strongest: decks of the strongest list holding it.
        may_reach_band: searched decks holding it whose interval against the mixture reaches the band.
        searched: searched decks holding it.

    Returns:
        ``metagame``, ``strongest``, ``band`` (in use or not ruled out), ``dead`` (every searched deck holding
        it is below the band with confidence), or ``untested`` (no searched deck holds it).
    """
    if in_metagame:
        return "metagame"
    if in_strongest:
        return "strongest"
    if may_reach_band:
        return "band"
    return "dead" if searched else "untested"


# ----------------------------------------------------------------------------------------------
# scan


def crossing_verdict(figure: str, key: str, target: str, value: float, low: float, high: float,
                     x_min: float, x_max: float, side: str = "", crossings: int = 1, games: int = 0,
                     holding: int | None = None, values: int = 0) -> str:
    """``scan``'s answer: where the figure meets its target, settled only when the crossing's interval lies
    inside the values scanned.

    Args:
        figure: what is scanned (``first-seat win rate``); ``key``: the key moved; ``target``: the target as
            said (``50%``).
        value: the crossing (NaN: the measured curve does not cross); ``low``, ``high``: its interval (an
            infinity: beyond the range).
        x_min, x_max: the range scanned.
        side: without a crossing, where the curve lies (``above``/``below``).
        crossings: how many times the measured curve meets the target.
        games: games per ordered pair at each value (for the advice).
        holding: without a crossing, how many of the ``values`` values' 95% intervals hold the target (``None``:
            not known): none holding it settles that the target is not reached in the range.
        values: the values scanned.
    """
    more = f"more games per pair than {games:,}" if games else "more games per pair"
    if not math.isfinite(value):
        if holding == 0 and values:
            return (f"Settled: the {figure} stays {side} {target} at every value of {key} scanned ({x_min:g} to "
                    f"{x_max:g}), every 95% interval {side} it: the target is not reached in this range; scan wider "
                    "values")
        held = (f"; {holding} of {values} values' 95% intervals hold {target}" if holding else "")
        return (f"Not settled in this range: the measured {figure} stays {side} {target} at every value of {key} "
                f"scanned ({x_min:g} to {x_max:g}){held}; scan wider values or play {more}")
    lo = f"below {x_min:g}" if low == -math.inf else f"{low:.3g}"
    hi = f"above {x_max:g}" if high == math.inf else f"{high:.3g}"
    first = f"; the measured curve meets it {crossings} times, this is the first" if crossings > 1 else ""
    if math.isfinite(low) and math.isfinite(high):
        return (f"Settled: the {figure} reaches {target} at {key} = {value:.3g} (95% interval {lo} to {hi}){first}")
    return (f"Not settled: the {figure} reaches {target} at {key} = {value:.3g} by the measured curve, but its 95% "
            f"interval runs {lo} to {hi}, beyond the values scanned{first}; widen the values or play {more}")


# ----------------------------------------------------------------------------------------------
# tune


def tune_verdict(changes: int, search: tuple[float, float], confirm: tuple[float, float] | None,
                 pooled: tuple[float, float] | None, check: str | None, check_ratio: Estimate | None,
                 flags_appeared: int, games: int, confirm_games: int | None, budget: str = "") -> tuple[bool, str]:
    """``tune``'s answer: a safe proposal, or "no safe proposal" and why.

    A proposal is safe when its objective beats the base's on the confirmation seeds alone (the seeds the
    search never saw; lower is better) and the fresh-seed check finds the spread of deck win rates narrower
    (its interval wholly below 1); a check that is worse or cannot tell means "no safe proposal". Flags the
    check raises are named beside a proposal, for the designer to weigh against those that vanished. The pooled
    figure (search and confirmation games together) is the one the candidates were ranked by; it can lie below
    both of its parts, since a spread measured on more games carries less noise, so it never decides alone.

    Args:
        changes: numbers the proposal changes (0: none).
        search: the objective on the search seeds, base and proposal.
        confirm: the same on the confirmation seeds (``None``: no confirmation).
        pooled: the same on both together.
        check: what the fresh-seed check says: ``better``, ``worse`` or ``cannot tell`` (``None``: no check).
        check_ratio: the spread's ratio on the fresh seeds, with its interval.
        flags_appeared: flags the check found that the base does not have.
        games: games per pair of the search; ``confirm_games``: of the confirmation.
        budget: the options a bigger budget needs, as the tune's warnings gave them (``--trials 15 --games 20``);
            ``""``: four times the games (a deck's win rate then moves half as much by luck).

    Returns:
        ``(safe, sentence)``.
    """
    def pair(x: tuple[float, float]) -> str:
        return f"{x[0]:.4f} -> {x[1]:.4f}"

    if not changes:
        return False, "no safe proposal: no candidate changed a number"
    reasons = []
    if confirm is not None and not confirm[1] < confirm[0]:
        reasons.append(f"on the confirmation seeds it does not beat the base (objective {pair(confirm)}, lower is "
                       "better)")
    if check == "worse":
        reasons.append(f"the fresh-seed check finds the spread wider (x{check_ratio.value:.2f}, 95% CI "
                       f"x{check_ratio.low:.2f}-{check_ratio.high:.2f})")
    elif check == "cannot tell":
        reasons.append(f"the fresh-seed check cannot tell it from the base (spread x{check_ratio.value:.2f}, 95% CI "
                       f"x{check_ratio.low:.2f}-{check_ratio.high:.2f})")
    decides = ("the confirmation seeds decide whether it beats the base (the search never saw them) and the "
               "fresh-seed check whether the spread narrows; the search seeds only picked it, the pooled figure only "
               "ranks it" if confirm is not None else
               "the fresh-seed check decides (no confirmation was played)")
    pooled_words = ""
    if pooled is not None and confirm is not None and pooled[1] < min(search[1], confirm[1]):
        pooled_words = (f"; the pooled figure ({pair(pooled)}) lies below both of its parts because a spread "
                        "measured on more games carries less noise, so it is not read on its own")
    if reasons:
        bigger = max(games * 4, (confirm_games or games) * 4)
        budget = budget or (f"--games {bigger} (a deck's win rate then moves half as much by luck)"
                            + (f" and --confirm-games {bigger}" if confirm_games else ""))
        return False, (f"no safe proposal: {'; '.join(reasons)}. {decides[:1].upper() + decides[1:]}{pooled_words}. "
                       f"A bigger budget might find one: {budget}")
    flags = (f"; but the check raises {count(flags_appeared, 'new flag')} (flags.csv): look at "
             f"{'it' if flags_appeared == 1 else 'them'} before taking the patch" if flags_appeared
             else ", with no new flag")
    return True, (f"proposed ({count(changes, 'change')}): it beats the base on the confirmation seeds "
                  f"(objective {pair(confirm) if confirm is not None else pair(search)}) and the fresh-seed check "
                  f"finds the spread narrower (x{check_ratio.value:.2f}, 95% CI x{check_ratio.low:.2f}-"
                  f"{check_ratio.high:.2f}){flags}. {decides[:1].upper() + decides[1:]}{pooled_words}")


# ----------------------------------------------------------------------------------------------
# the skill ladder: does the player matter?


def _score(e: Estimate) -> str:
    return f"{e.value:.3f} (95% CI {e.low:.3f}-{e.high:.3f}, a draw counted half)"


def match_sentence(upper: str, lower: str, score: Estimate) -> str:
    """Whether ``upper`` plays better than ``lower``, from its score over their games (1 a win, 1/2 a draw) with
    its 95% interval: better or worse only when the interval leaves 1/2 out."""
    games = f" over {count(score.games, 'game')}" if score.games else ""
    if score.known and score.low > 0.5:
        return f"{upper} plays better than {lower}: it scores {_score(score)}{games}"
    if score.known and score.high < 0.5:
        return f"{upper} plays worse than {lower}: it scores {_score(score)}{games}"
    return f"{upper} and {lower} are not told apart: {upper} scores {_score(score)}{games}, an interval holding 0.5"


def _share(e: Estimate) -> str:
    return f"{pct(e.value)} ({e.ci()})"


def player_answer(upper: str, lower: str, score: Estimate, shares: dict[str, Estimate] | None = None,
                  forfeits: int = 0) -> str:
    """"Does the player matter?" in one sentence, for a match between a stronger ``upper`` and ``lower``.

    Args:
        upper: the stronger bot.
        lower: the other bot.
        score: ``upper``'s score (draws half) with its 95% interval and games.
        shares: the outcome's variance split (:func:`simkit.analysis.luck.skill_or_luck`) as estimates with
            their 95% intervals: ``skill`` (the players), ``decks`` (the deal and seats), ``luck`` (the seed);
            ``None`` when the match was played with one seed a deal (no split), or games were forfeited.
        forfeits: games an outside bot lost by failing the protocol, not counted in ``score`` (and then no split).

    Returns:
        "The player matters" only when ``upper`` plays better (the score's interval above 1/2) and, with a split,
        the players' share has an interval above 0; otherwise what was and was not measured.
    """
    better = score.known and score.excludes(0.5)
    edge = match_sentence(upper, lower, score)
    if forfeits:
        lost = (f"{forfeits} game{'s' if forfeits != 1 else ''} ended by a forfeit (an outside bot failed): not "
                "counted, and the outcome not split")
        return (f"The player matters: {edge}. ({lost}.)" if better else
                f"Not shown that the player matters: {edge}. ({lost}.)")
    if shares is None:
        if better:
            return f"The player matters: {edge}. (Play two seeds a deal or more to split the outcome.)"
        return f"Not shown that the player matters: {edge}."
    skill, decks, luck = shares["skill"], shares["decks"], shares["luck"]
    split = (f"the players decide {_share(skill)} of the outcome, the deck pairing and seats {_share(decks)}, "
             f"the seed (dice, shuffles, the bots' own draws) {_share(luck)}")
    measured = skill.known and skill.low > 0
    if better and measured:
        return f"The player matters: {edge}; {split}."
    if better:
        return (f"The player matters a little: {edge}, but its share of the outcome is not measurable: {split}.")
    if measured:
        return f"Neither bot plays better on average ({edge}), yet deal by deal {split}."
    return f"Not shown that the player matters: {edge}; {split}."


# ----------------------------------------------------------------------------------------------
# how the games play


#: an experience flag's kind in words (as a sentence lists it)
EXPERIENCE_FLAG_WORDS = {
    "snowballing": "snowballing", "decided_early": "decided early", "too_long": "too long",
    "too_short": "too short", "drawish": "drawish",
}


def _where(subject: str) -> str:
    return "overall" if subject in ("", "all games") else f"in {subject}"


def experience_flag_message(kind: str, est: Estimate, bar: float, second: Estimate | None = None,
                            second_bar: float | None = None, edge: float | None = None, unit: str = "turn") -> str:
    """The message of an experience flag (its estimate beyond its bar, significant after correction).

    Args:
        kind: ``snowballing`` (``est``: the comeback share, ``second``: the decided-early share), ``decided_early``,
            ``too_long``/``too_short`` (``est``: the share of games longer than ``edge``, or shorter), ``drawish``.
        est: the share with its 95% interval; its ``name`` the subject (``all games``, a deck, ``A vs B``).
        bar: the bar it lies beyond.
        second, second_bar: snowballing's decided-early share and its bar.
        edge: the target's edge in turns (the length flags).
        unit: what the game calls a turn.
    """
    where = _where(est.name)
    if kind == "snowballing":
        return (f"snowballing {where}: comebacks are {pct(est.value)} of the games won ({est.ci()}), below "
                f"{pct(bar)}, and {pct(second.value)} are decided early ({second.ci()}), above {pct(second_bar)}")
    if kind == "decided_early":
        return f"decided early {where}: {pct(est.value)} of the games won ({est.ci()}), above {pct(bar)}"
    if kind in ("too_long", "too_short"):
        side = "longer" if kind == "too_long" else "shorter"
        end = "longest" if kind == "too_long" else "shortest"
        return (f"{EXPERIENCE_FLAG_WORDS[kind]} {where}: {pct(est.value)} of games last {side} than {edge:g} "
                f"{plural(unit)}, the target's {end} ({est.ci()}): most games do")
    if kind == "drawish":
        return f"drawish {where}: {pct(est.value)} of games are drawn ({est.ci()}), above {pct(bar)}"
    raise ValueError(f"unknown experience flag kind {kind!r}")


def _flag_listing(flagged: Sequence[tuple[str, str, str]]) -> str:
    """``snowballing overall and in 2 matchups; drawish in 1 deck`` from ``(kind, scope, subject)`` triples."""
    parts = []
    for kind in EXPERIENCE_FLAG_WORDS:
        mine = [(s, x) for k, s, x in flagged if k == kind]
        if not mine:
            continue
        where = ["overall"] if any(s == "overall" for s, _ in mine) else []
        for scope, noun in (("deck", "deck"), ("matchup", "matchup")):
            named = [x for s, x in mine if s == scope]
            if len(named) == 1:
                where.append(f"in {named[0]}")
            elif named:
                where.append(f"in {count(len(named), noun)}")
        joined = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
        parts.append(f"{EXPERIENCE_FLAG_WORDS[kind]} {joined}")
    return "; ".join(parts)


def experience_sentence(figures: dict[str, Estimate], flagged: Sequence[tuple[str, str, str]],
                        beyond: Sequence[str] = (), target: tuple[float, float] | None = None,
                        unit: str = "turn") -> str:
    """How the games play in one sentence, the figures with their intervals, then the flags.

    Args:
        figures: the overall figures as estimates (names of :data:`simkit.analysis.experience.FIGURES`; a figure
            missing or without a value is left out).
        flagged: every experience flag as ``(kind, scope, subject)``.
        beyond: the kinds whose overall estimate lies beyond its bar without a flag (said as "by its estimate,
            not significantly").
        target: the target length in turns, when the scenario gives one.
        unit: what the game calls a turn.

    Returns:
        ``How the games play: games last ...; of the games won, ... are comebacks and ... decided early; ...
        drawn. Experience flags ...: ...`` (or ``No experience flag``), no word stronger than its interval.
    """
    def has(name: str) -> bool:
        return name in figures and figures[name].known

    def share(name: str) -> str:
        e = figures[name]
        return f"{pct(e.value)} ({e.ci()})"

    said = []
    if has("turns"):
        t = figures["turns"]
        length = (f"games last {t.value:.1f} {plural(unit)} on average (95% CI {t.low:.1f}-{t.high:.1f})"
                  if math.isfinite(t.low) else f"games last {t.value:.1f} {plural(unit)} on average")
        if target is not None and has("in_target"):
            length += f", {share('in_target')} inside the target {target[0]:g}-{target[1]:g} {plural(unit)}"
        said.append(length)
    won = [f"{share('comebacks')} are comebacks" if has("comebacks") else "",
           f"{share('decided_early')} are decided early" if has("decided_early") else ""]
    won = [w for w in won if w]
    if won:
        said.append("of the games won, " + " and ".join(won))
    if has("draws"):
        ends = f"{share('draws')} are drawn"
        for name, words in (("turn_limit", "reach the turn limit"), ("locks", "end in a lock")):
            if has(name) and figures[name].value > 0:
                ends += f", {share(name)} {words}"
        said.append(ends)
    head = "How the games play: " + "; ".join(said) + "." if said else "How the games play: no figure to say."
    if flagged:
        tail = f" Experience flags (significant after correction): {_flag_listing(flagged)}."
    else:
        tail = " No experience flag: nothing lies significantly beyond its bar"
        if beyond:
            kinds = [EXPERIENCE_FLAG_WORDS[k] for k in beyond]
            tail += (f" (by the estimates alone: {', '.join(kinds)} overall, not significantly; more games would "
                     "settle it)")
        tail += "."
    return head + tail


def _figure_change(row: Mapping, unit: str) -> str:
    """One experience figure's change, ``comebacks 21.0% -> 14.5% (-6.5 points, CI -9.8 to -3.1)``."""
    lo, hi = row["adj_low"], row["adj_high"]
    if row["kind"] == "share":
        return (f"{row['words']} {pct(row['base'])} -> {pct(row['patch'])} ({100 * row['delta']:+.1f} points, "
                f"CI {100 * lo:+.1f} to {100 * hi:+.1f})")
    what = f" {plural(unit)}" if row["figure"] == "turns" else ""
    return (f"{row['words']} {row['base']:.2f} -> {row['patch']:.2f}{what} ({row['delta']:+.2f}, CI {lo:+.2f} to "
            f"{hi:+.2f})")


def experience_change_sentence(rows: Sequence[Mapping], games: int, missing: str | None = None,
                               unit: str = "turn") -> str:
    """What a patch did to how the games play, in one sentence: the figures that changed significantly (with their
    intervals at the corrected level), then the ones that did not move measurably.

    Args:
        rows: :func:`simkit.analysis.experience_change.experience_deltas` rows (``figure, words, kind, base, patch,
            delta, adj_low, adj_high, significant``).
        games: the paired games behind them.
        missing: why there are no rows (either sweep lacks the figures), said instead.
        unit: what the game calls a turn.
    """
    if missing:
        return f"How the games play was not compared: {missing}"
    if not rows:
        return "How the games play was not compared: no figure has two paired games."
    moved = [r for r in rows if r["significant"]]
    still = [r["words"] for r in rows if not r["significant"]]
    head = f"How the games play ({count(games, 'paired game')}, intervals corrected over the figures): "
    if not moved:
        return head + "no measurable change in " + ", ".join(still) + "."
    text = head + "; ".join(_figure_change(r, unit) for r in moved)
    if still:
        text += "; no measurable change in " + ", ".join(still)
    return text + "."


def paired_change_clause(what: str, before: float, after: float, change: Estimate, words: tuple[str, str],
                         unit: str = "") -> str:
    """A figure before and after a change measured on paired games, its change with its 95% interval, and a word
    only when the interval leaves 0 out: ``drawn games 49.7% -> 22.1% (change -27.6 points, 95% CI -31.0 to
    -24.2): fewer``, else ``...: no measurable change`` (``the same in every paired game`` when no game changed).
    ``words`` says (up, down) (``("more", "fewer")``); with a ``unit`` the figures are plain numbers
    (``32.7 -> 18.9 rounds (change -13.8, 95% CI -14.6 to -13.0)``), without one rates."""
    said = words[0] if change.value > 0 else words[1]
    word = said if change.excludes(0.0) else "no measurable change"
    if change.value == change.low == change.high == 0:
        word = "the same in every paired game"
    if unit:
        return (f"{what} {before:.1f} -> {after:.1f} {unit} (change {change.value:+.1f}, 95% CI {change.low:+.1f} "
                f"to {change.high:+.1f}): {word}")
    return f"{what} {pct(before)} -> {pct(after)} (change {pts(change.value)} points, {change.ci_pts()}): {word}"


def _real_sim(real: float, sim: float, diff: Estimate) -> str:
    return f"{pct(real)} in real games against {pct(sim)} simulated ({pts(diff.value)} points, {diff.ci_pts()})"


def real_against_words(seat: tuple[Estimate, float, float], decks: Sequence[tuple[Estimate, float, float]], bot: str,
                       games: int, all_games: int, pairings: int, deck_words: str = "deck") -> list[str]:
    """Real play against simulation in words: the answer first, then what the sample can and cannot tell.

    Args:
        seat: ``(difference, real rate, simulated rate)`` of the first seat's score; the difference (real minus
            simulated) with its 95% interval and the real games behind it.
        decks: the same for each deck (``name`` the deck).
        bot: the bot whose games are the simulation.
        games: the real games compared (of pairings the sweep played); ``all_games``: every real game.
        pairings: the ordered pairings compared.
        deck_words: what the game calls a deck.

    Returns:
        sentences: the answer (the seat, then the decks whose difference is measured: its interval leaves 0 out,
        the largest named), then the sample's limits (the games, the smallest difference the widest interval can
        tell, the chance of a difference by luck among many intervals, who played).
    """
    diff, real, sim = seat
    seat_words = (f"the first seat differs measurably: it scores {_real_sim(real, sim, diff)}" if diff.excludes(0.0)
                  else f"the first seat shows no measurable difference: it scores {_real_sim(real, sim, diff)}")
    moved = sorted((d for d in decks if d[0].excludes(0.0)), key=lambda d: -abs(d[0].value))
    noun = plural(deck_words)
    if not decks:
        deck_part = f"no {deck_words} met another in both the real games and the sweep"
    elif moved:
        named = "; ".join(f"{d[0].name}: {_real_sim(d[1], d[2], d[0])}" for d in moved[:NAMED])
        more = f" and {len(moved) - NAMED} more" if len(moved) > NAMED else ""
        rest = len(decks) - len(moved)
        deck_part = (f"{len(moved)} of {count(len(decks), deck_words)} differ{'s' if len(moved) == 1 else ''} "
                     f"measurably ({named}{more})" + (f"; the other {rest} show{'s' if rest == 1 else ''} no "
                                                      "measurable difference" if rest else ""))
    else:
        widest = max(decks, key=lambda d: d[0].high - d[0].low)[0]
        deck_part = (f"none of the {len(decks)} {noun} differs measurably (the widest interval: {widest.name}, "
                     f"{widest.ci_pts()})")
    answer = f"Real play against {bot}'s simulation: {seat_words}; {deck_part}."
    halves = [(d[0].high - d[0].low) / 2 for d in decks if d[0].known] or [(diff.high - diff.low) / 2]
    left = all_games - games
    limits = (f"The sample: {count(games, 'real game')} on {count(pairings, 'ordered pairing')} the sweep also played"
              + (f" ({left} more real games are of pairings it did not play and are left out)" if left else "")
              + f"; at this size a {deck_words}'s difference is measurable only beyond about "
              f"{100 * min(halves):.0f} to {100 * max(halves):.0f} points, so 'no measurable difference' means no "
              "difference that large, not none.")
    luck = (f"Each interval is 95% on its own: among {len(decks)} {noun} about {0.05 * len(decks):.1f} would differ "
            "measurably by chance alone." if len(decks) > 1 else "")
    who = (f"People and {bot} differ in skill as well as in style, and people chose their {noun} and seats: a "
           f"difference says the simulation does not predict these games, not why.")
    return [answer, limits] + ([luck] if luck else []) + [who]
