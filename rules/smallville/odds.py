"""Smallville's odds: the main pool as Cortex Plus (`rules.kit.cortex_odds`) plus the
highest side die (SMV-7, SMV-8, SMV-9), read where rules.md leaves room as the actions
read it:

- SMV-7: a side die showing 1 adds nothing and is not a complication.
- SMV-9: all main dice showing 1 is result 0, whatever the side pool shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import prod

from ..kit.cortex_odds import pool_dice, serenity_outcomes
from ..kit.odds import Distribution, point_mass, product_distribution


def side_pool_distribution(side: Iterable[object]) -> Distribution[int]:
    """SMV-7: what a Resource side pool adds, its highest die. Side 1s are not
    complications, and a 1 adds nothing (a 1 never counts toward a Cortex total)."""
    sizes = [die.size for die in pool_dice(side, allow_compound=False, what="side pool")]
    if not sizes:
        return point_mass(0)
    weights = {}
    for face in range(1, max(sizes, default=1) + 1):
        ways = prod(min(face, size) for size in sizes) - prod(min(face - 1, size) for size in sizes)
        if ways:
            weights[0 if face == 1 else face] = ways
    return Distribution(weights, prod(sizes))


def smallville_outcomes(
    pool: Iterable[object], side: Iterable[object] = (), *, extra: int = 0
) -> Distribution[tuple[int, int]]:
    """(result, effect size) in Smallville: the main pool as SER-2/SER-4 plus the highest
    side die (SMV-7, SMV-8). All main dice showing 1 fails outright (SMV-9): result 0
    whatever the side pool shows."""
    return product_distribution(
        serenity_outcomes(pool, extra=extra),
        side_pool_distribution(side),
        lambda main, side_value: (main[0] + side_value if main[0] else 0, main[1]),
    )


ODDS_DECISIONS: dict[str, list[str]] = {
    "SMV-7": [
        "Decision (odds): a side die showing 1 adds nothing (a 1 never counts toward a "
        "Cortex-family total) and is not a complication.",
    ],
    "SMV-9": [
        "Decision (odds): all main dice showing 1 is result 0, whatever the side pool shows.",
    ],
}
