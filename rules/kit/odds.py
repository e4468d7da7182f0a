"""Exact distributions shared by every system's odds: integer weights, Fractions, never floats.

A finite distribution is kept as integer weights over the equally likely
outcomes of the dice, so sums and comparisons stay exact and cheap; a
probability becomes a Fraction only when asked for, and a float only on screen.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
J = TypeVar("J", bound=Hashable)


@dataclass(frozen=True)
class Distribution(Generic[K]):
    """Outcome -> how many of the `total` equally likely rolls give it.

    The weights of a complete distribution add up to `total`; a partial one
    (say, only the rolls that are not botches) keeps the same `total`, so its
    chances stay chances of the whole roll.
    """

    weights: Mapping[K, int]
    total: int

    def chance(self, outcome: K) -> Fraction:
        return Fraction(self.weights.get(outcome, 0), self.total)

    def chance_if(self, test: Callable[[K], bool]) -> Fraction:
        return Fraction(sum(w for key, w in self.weights.items() if test(key)), self.total)

    def map(self, project: Callable[[K], J]) -> Distribution[J]:
        """The distribution of `project(outcome)`, e.g. the result alone out of (result, effect)."""
        merged: dict[J, int] = {}
        for key, weight in self.weights.items():
            new = project(key)
            merged[new] = merged.get(new, 0) + weight
        return Distribution(merged, self.total)

    def probabilities(self) -> dict[K, Fraction]:
        """Every outcome's chance, in the outcomes' natural order."""
        return {key: Fraction(w, self.total) for key, w in sorted(self.weights.items()) if w}


def point_mass(value: K) -> Distribution[K]:
    """A distribution that always gives `value` (a fixed number standing in for a roll)."""
    return Distribution({value: 1}, 1)


def product_distribution(
    first: Distribution[K], second: Distribution[J], combine: Callable[[K, J], Hashable]
) -> Distribution:
    """The distribution of `combine(a, b)` for two independent rolls a and b."""
    merged: dict = {}
    for key_a, weight_a in first.weights.items():
        for key_b, weight_b in second.weights.items():
            new = combine(key_a, key_b)
            merged[new] = merged.get(new, 0) + weight_a * weight_b
    return Distribution(merged, first.total * second.total)


def chance_to_beat(ours: Distribution[int], theirs: Distribution[int], margin: int = 1) -> Fraction:
    """P(our value ≥ their value + margin) for two independent rolls.

    margin 1 is "strictly greater" (a tie fails, SER-5); margin 5 is an
    extraordinary success (SER-10).
    """
    their_values = sorted(theirs.weights)
    at_most = list(accumulate(theirs.weights[v] for v in their_values))
    ways = 0
    for value, weight in ours.weights.items():
        beaten = bisect_left(their_values, value - margin + 1)
        if beaten:
            ways += weight * at_most[beaten - 1]
    return Fraction(ways, ours.total * theirs.total)


def count_distribution(chances: Iterable[Fraction]) -> list[Fraction]:
    """How many of several independent events happen: entry i is P(exactly i).

    Used for the number of 1s (SER-3, SMV-9) and hitches (CTX-4) in a pool.
    """
    counts = [Fraction(1)]
    for p in chances:
        shifted = [Fraction(0), *counts]
        counts = [c * (1 - p) for c in counts] + [Fraction(0)]
        counts = [a + p * b for a, b in zip(counts, shifted, strict=True)]
    return counts


@dataclass(frozen=True)
class ChartRow:
    """One bar of an odds chart: the chance of exactly `value`, and of `value` or more."""

    value: int
    chance: Fraction
    at_least: Fraction


def chart_rows(
    chances: Mapping[int, Fraction], *, beyond: Fraction = Fraction(0)
) -> list[ChartRow]:
    """Display-ready rows, lowest value first, with the cumulative "at least" chance.

    `beyond` is the chance of values above the last one listed, for distributions
    whose tail is not listed value by value (Unisystem's open-ended rolls).
    """
    rows = []
    at_least = beyond
    for value in sorted(chances, reverse=True):
        at_least += chances[value]
        rows.append(ChartRow(value, chances[value], at_least))
    rows.reverse()
    return rows
