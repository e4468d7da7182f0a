"""The odds queries the Cortex family shares (SER, SMV, CTX): reading the odds fragment's
Cortex fields, and laying a result (or total) distribution out as an OddsReport.

Each game's own part (which distribution, which extra lines) is in its package's
`odds_queries`; the numbers all come from `rules.kit.cortex_odds`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cortex_odds import OnesOdds, chance_above, chance_pool_beats, ones_odds, results
from .dice import parse_die
from .errors import RulesError
from .odds import Distribution
from .odds_queries import OddsReport, bars, dice, mean, number, percent, text

MAX_PLOT_POINTS = 20
MAX_TARGET = 200

Outcomes = Distribution[tuple[int, ...]]


@dataclass(frozen=True)
class CortexFields:
    """The odds fragment's fields for a Cortex pool: pool (dice), side (Smallville's side
    pool), plot_points (dice added to the result), big_hero (CTX-6), target (the number
    to beat, strictly) and vs (an opposing pool, for a test or a contest roll-off)."""

    pool: list[str]
    side: list[str] | None
    plot_points: int
    big_hero: str | None
    target: int | None
    vs: list[str] | None


def read_fields(data: Mapping[str, Any], *, side: bool = False) -> CortexFields:
    """Every field is checked, in the order the fragment lists them, whether or not the
    game uses it; `side` reads the side pool too."""
    pool = dice(data, "pool")
    big_hero = text(data, "big_hero").strip() or None
    if big_hero is not None:
        parse_die(big_hero)
    return CortexFields(
        pool=pool,
        side=dice(data, "side") if side else None,
        plot_points=number(data, "plot_points", 0, MAX_PLOT_POINTS) or 0,
        big_hero=big_hero,
        target=number(data, "target", 0, MAX_TARGET),
        vs=dice(data, "vs") or None,
    )


def new_report(pool: Sequence[object], title: str = "") -> OddsReport:
    """An empty report for a pool, refusing an empty pool."""
    if not pool:
        raise RulesError("the pool is empty: pick at least one die")
    return OddsReport(title=title or f"Odds for {' '.join(str(d) for d in pool)}")


def pool_title(dice_built: Sequence[Any]) -> str:
    """ "Odds for Fightin' d10, Veteran d8": a built pool's dice by their labels."""
    return "Odds for " + ", ".join(d.label for d in dice_built)


def plus_report(
    pool: Sequence[object],
    outcomes_of: Callable[[Sequence[object]], Outcomes],
    *,
    opposing: Callable[[Sequence[object]], Outcomes],
    target: int | None = None,
    vs: Sequence[str] | None = None,
    title: str = "",
    ones_notes: Callable[[OnesOdds], list[str]] | None = None,
    extraordinary: Callable[[Outcomes, Outcomes | None, int | None], str] | None = None,
) -> OddsReport:
    """SER-2, SER-3, SER-5, SMV-8, SMV-9: a Cortex Plus pool's result, its complications,
    and its chance to beat a number or an opposing pool (`opposing` gives that pool's
    outcomes). `ones_notes` adds the game's lines about the 1s, `extraordinary` its line
    about an extraordinary success, given (ours, theirs or None, target or None)."""
    report = new_report(pool, title)
    outcomes = outcomes_of(pool)
    ones = ones_odds(pool)
    report.lines = [f"{percent(ones.at_least_one)} chance of at least one complication"]
    if ones_notes is not None:
        report.lines += ones_notes(ones)
    chance = None
    if vs:
        theirs = opposing(vs)
        chance = chance_pool_beats(outcomes, theirs)
        if extraordinary is not None:
            report.lines.append(extraordinary(outcomes, theirs, None))
    elif target is not None:
        chance = chance_above(outcomes, target)
        if extraordinary is not None:
            report.lines.append(extraordinary(outcomes, None, target))
    return finish(report, results(outcomes), chance, target=target, vs=vs, what="result")


def finish(
    report: OddsReport,
    totals: Distribution[int],
    chance: Fraction | None,
    *,
    target: int | None,
    vs: Sequence[str] | None,
    what: str,
    beat_note: str = "",
) -> OddsReport:
    """The summary and the bars: against an opposing pool, against a number (strictly
    beaten; `beat_note` says more), or the average `what` when there is neither."""
    chances = totals.probabilities()
    report.chance = chance
    if vs:
        report.summary = f"{percent(chance or 0)} to beat the opposing pool ({' '.join(vs)})."
        report.bars = bars(chances, lambda v: True)
    elif target is not None:
        report.summary = f"{percent(chance or 0)} to beat {target}{beat_note}."
        report.bars = bars(chances, lambda v: v > target)
        report.target_label = f"beat {target}"
        report.first_success = target + 1
    else:
        report.summary = f"Average {what} {float(mean(chances)):.1f}; no number to beat yet."
        report.bars = bars(chances, lambda v: True)
    return report
