"""Serenity Plus's odds. Result and effect (SER-2, SER-4, SER-8) are the Cortex Plus ones
of `rules.kit.cortex_odds`; here is what only Serenity Plus has, the extraordinary
success (SER-10), and the readings the odds take where rules.md leaves room (the same
as the actions', so the odds match what `resolve` does with real faces):

- SER-2/SER-8: a plot-point die that finds no non-1 die left is not spent; all
  dice showing 1 is result 0 (a botch).
- SER-4: with no die left for the effect, the effect is a d4, counted with the
  rolls whose effect die really is a d4.
"""

from __future__ import annotations

from fractions import Fraction

from ..kit.cortex import EXTRAORDINARY_MARGIN
from ..kit.cortex_odds import results
from ..kit.odds import Distribution, chance_to_beat


def chance_extraordinary(
    ours: Distribution[tuple[int, ...]], theirs: Distribution[tuple[int, ...]]
) -> Fraction:
    """SER-10: P(our result beats theirs by 5 or more)."""
    return chance_to_beat(results(ours), results(theirs), EXTRAORDINARY_MARGIN)


ODDS_DECISIONS: dict[str, list[str]] = {
    "SER-2": [
        "Decision (odds): a roll whose dice all show 1 has result 0 and counts as a botch.",
    ],
    "SER-4": [
        "Decision (odds): when no die is left for the effect, the effect is a d4; the odds "
        "count it together with rolls whose effect die is a d4.",
    ],
    "SER-8": [
        "Decision (odds): plot-point dice beyond the non-1 dice rolled add nothing and are "
        "not spent, so the result is then the sum of every non-1 die.",
    ],
}
