"""Exact odds for Unisystem's open-ended d10 (UNI-1, UNI-3, UNI-5, UNI-6, UNI-7).

The Rule of 10 and the Rule of 1 make chains of any length, so a roll has
infinitely many values. Past a few values each tail repeats itself every 5
points, ten times less likely each time (another 10, or another 1, in the
chain). A distribution is therefore kept as a finite core plus two such
geometric tails, and every chance is summed in closed form: a tail of period 5
and ratio 1/10 sums to (its first 5 values) / (1 − 1/10), and the product of two
tails to (their first 5 products) / (1 − 1/100). No chain is cut off; every
result is an exact Fraction.

Where rules.md leaves room the odds read it as the actions do:

- UNI-5: a fixed Ability Score is that side's total (below 9 it never wins);
  equal totals matter only when both sides succeed.
- UNI-6/UNI-7: a reroll never starts the other chain (a 1 after a 10 adds 0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from ..kit.errors import InvalidRequest
from ..kit.odds import ChartRow, chart_rows

DIE = 10
PERIOD = 5
RATIO = Fraction(1, DIE)
SUCCESS = 9
MAX_MODIFIER = 1000


@dataclass(frozen=True)
class OpenEndedLaw:
    """An integer distribution: a finite core and two geometric tails of period 5.

    For x ≥ upper_start, P(x + 5) = P(x)/10 and upper_seed[i] = P(upper_start + i);
    for x ≤ lower_start, P(x − 5) = P(x)/10 and lower_seed[i] = P(lower_start − i);
    `core` holds the values strictly between. A fixed number has zero tails.
    """

    core: Mapping[int, Fraction]
    upper_start: int
    upper_seed: tuple[Fraction, ...] = field(default=(Fraction(0),) * PERIOD)
    lower_start: int = 0
    lower_seed: tuple[Fraction, ...] = field(default=(Fraction(0),) * PERIOD)

    def shifted(self, modifier: int) -> OpenEndedLaw:
        """The law of X + modifier (attribute, skill and modifiers added to the die)."""
        return OpenEndedLaw(
            {x + modifier: p for x, p in self.core.items()},
            self.upper_start + modifier,
            self.upper_seed,
            self.lower_start + modifier,
            self.lower_seed,
        )

    def chance(self, x: int) -> Fraction:
        """P(X = x)."""
        if x >= self.upper_start:
            periods, step = divmod(x - self.upper_start, PERIOD)
            return self.upper_seed[step] * RATIO**periods
        if x <= self.lower_start:
            periods, step = divmod(self.lower_start - x, PERIOD)
            return self.lower_seed[step] * RATIO**periods
        return self.core.get(x, Fraction(0))

    def at_least(self, t: int) -> Fraction:
        """P(X ≥ t), in closed form for any t."""
        if t >= self.upper_start:
            periods, step = divmod(t - self.upper_start, PERIOD)
            return _tail_from(self.upper_seed, step) * RATIO**periods
        if t - 1 <= self.lower_start:
            periods, step = divmod(self.lower_start - (t - 1), PERIOD)
            return 1 - _tail_from(self.lower_seed, step) * RATIO**periods
        core = sum((p for x, p in self.core.items() if x >= t), Fraction(0))
        return core + _tail_from(self.upper_seed, 0)

    def sum_from(
        self, start: int, weight: Callable[[int], Fraction], regular_from: int
    ) -> Fraction:
        """Σ P(X = y)·weight(y) over y ≥ start, where weight(y + 5) = weight(y)/10 for
        y ≥ `regular_from`: the values summed one by one until both tails repeat, then
        the rest of each residue class as a geometric series of ratio 1/100."""
        regular = max(start, self.upper_start, regular_from)
        head = sum((self.chance(y) * weight(y) for y in range(start, regular)), Fraction(0))
        tail = sum(self.chance(regular + i) * weight(regular + i) for i in range(PERIOD))
        return head + tail / (1 - RATIO**2)

    def window(self, low: int, high: int) -> dict[int, Fraction]:
        """P(X = x) for low ≤ x ≤ high."""
        return {x: self.chance(x) for x in range(low, high + 1)}

    def chart(self, low: int, high: int) -> list[ChartRow]:
        """Chart rows for totals low … high; "at least" includes the tail above `high`."""
        return chart_rows(self.window(low, high), beyond=self.at_least(high + 1))


def _tail_from(seed: tuple[Fraction, ...], step: int) -> Fraction:
    """Mass of a geometric tail from its `step`-th value on (the values before `step` in
    the first period come back one period later, ten times less likely)."""
    return (sum(seed[step:], Fraction(0)) + RATIO * sum(seed[:step], Fraction(0))) / (1 - RATIO)


def die_law() -> OpenEndedLaw:
    """UNI-6 and UNI-7 for one d10, built from the chain rules face by face.

    2–9: the face. 10, then j more 10s (+5 each), then a last reroll r of 1–9:
    10 + 5j + max(r − 5, 0) (10,7 → 12; 10,10,3 → 15). 1, then a first reroll r of
    2–10: r − 5 if negative, else it stays 1 (1,3 → −2; 1,8 → 1). 1, then j ≥ 1
    rerolled 1s (−5 each, the 1 replaced), then r of 2–10: −5j + min(r − 5, 0)
    (1,1,7 → −5). The chains for j = 0 (tens) and j = 1 (ones) give the tails' first
    period; every further 10 or 1 repeats it 5 points further out at 1/10 the chance.
    """
    tenth = RATIO
    core: dict[int, Fraction] = {face: tenth for face in range(2, DIE)}
    upper = [Fraction(0)] * PERIOD
    for last in range(1, DIE):
        upper[max(last - 5, 0)] += tenth * tenth
    lower = [Fraction(0)] * PERIOD
    for first_reroll in range(2, DIE + 1):
        value = first_reroll - 5 if first_reroll < 5 else 1
        core[value] = core.get(value, Fraction(0)) + tenth * tenth
    for last in range(2, DIE + 1):
        lower[-min(last - 5, 0)] += tenth * tenth * tenth
    return OpenEndedLaw(core, DIE, tuple(upper), -PERIOD, tuple(lower))


def _modifier(value: object, what: str = "the modifier") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_MODIFIER:
        raise InvalidRequest(
            f"{what} must be a whole number between −{MAX_MODIFIER} and {MAX_MODIFIER}"
        )
    return value


def total_law(modifier: int) -> OpenEndedLaw:
    """UNI-1: the total of one roll, the die after UNI-6/UNI-7 plus everything added to it."""
    return die_law().shifted(_modifier(modifier))


def fixed_score(score: int) -> OpenEndedLaw:
    """UNI-5: a Guest Star's or Adversary's Ability Score, a total that never varies."""
    score = _modifier(score, "an Ability Score")
    return OpenEndedLaw({score: Fraction(1)}, score + 1, lower_start=score - 1)


def success_chance(modifier: int) -> Fraction:
    """UNI-1: P(total ≥ 9)."""
    return total_law(modifier).at_least(SUCCESS)


def level_start(level: int) -> int:
    """UNI-3: the lowest total with this many success levels (level ≥ 1).

    9–10: 1, 11–12: 2, 13–14: 3, 15–16: 4, 17–20: 5, 21–23: 6, then +1 per 3 points.
    """
    if level <= 5:
        return SUCCESS + 2 * (level - 1)
    return 21 + 3 * (level - 6)


@dataclass(frozen=True)
class LevelOdds:
    """UNI-3: P(exactly L success levels) for L = 0 … up_to; `beyond` is P(more than up_to)."""

    chances: dict[int, Fraction]
    beyond: Fraction


def success_level_odds(modifier: int, *, up_to: int = 12) -> LevelOdds:
    """UNI-3: how many success levels a roll with this total modifier reaches (0: failure)."""
    law = total_law(modifier)
    reach = [Fraction(1)] + [law.at_least(level_start(level)) for level in range(1, up_to + 2)]
    chances = {level: reach[level] - reach[level + 1] for level in range(up_to + 1)}
    return LevelOdds(chances, reach[up_to + 1])


@dataclass(frozen=True)
class ResistedOdds:
    """UNI-5 outcomes of a resisted action; they add up to 1."""

    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction
    both_fail: Fraction


def resisted_odds(
    attacker: OpenEndedLaw, defender: OpenEndedLaw, *, has_defender: bool = True
) -> ResistedOdds:
    """UNI-5: a success beats a failure; two successes compare totals, equal totals going
    to the defender (a tie when nobody defends); two failures: nobody succeeds.

    Either side may be a `fixed_score`: as rules/unisystem/rolls.py reads it, a score is
    that side's total, so a score below 9 is a failure that never wins.
    """
    attacker_succeeds = attacker.at_least(SUCCESS)
    defender_succeeds = defender.at_least(SUCCESS)
    regular = attacker.upper_start
    higher = defender.sum_from(SUCCESS, lambda y: attacker.at_least(y + 1), regular)
    equal = defender.sum_from(SUCCESS, attacker.chance, regular)
    lower = attacker_succeeds * defender_succeeds - higher - equal
    return ResistedOdds(
        attacker_wins=attacker_succeeds * (1 - defender_succeeds) + higher,
        defender_wins=defender_succeeds * (1 - attacker_succeeds)
        + lower
        + (equal if has_defender else 0),
        tie=Fraction(0) if has_defender else equal,
        both_fail=(1 - attacker_succeeds) * (1 - defender_succeeds),
    )


def resisted_chances(
    attacker_modifier: int, defender_modifier: int, *, has_defender: bool = True
) -> ResistedOdds:
    """UNI-5 for two rolling sides, each a total modifier on the d10."""
    return resisted_odds(
        total_law(attacker_modifier), total_law(defender_modifier), has_defender=has_defender
    )


def against_score(modifier: int, score: int, *, defending: bool) -> Fraction:
    """UNI-5: P(the cast member wins) against a fixed Ability Score: beating it when
    acting, beating or tying it when defending, and reaching 9 either way."""
    roll, fixed = total_law(modifier), fixed_score(score)
    if defending:
        return resisted_odds(fixed, roll).defender_wins
    return resisted_odds(roll, fixed).attacker_wins


ODDS_DECISIONS: dict[str, list[str]] = {
    "UNI-3": [
        "Decision (odds): success levels are listed up to a chosen level; the chance of "
        "more is given as one exact remainder.",
    ],
    "UNI-5": [
        "Decision (odds): a fixed Ability Score is that side's total, so below 9 it never "
        "wins; equal totals matter only when both sides succeed; both failing is its own "
        "outcome.",
    ],
    "UNI-6": [
        "Decision (odds): the chains are summed exactly to any length; a 1 rerolled in a "
        "Rule of 10 chain only ends it (adds 0).",
    ],
    "UNI-7": [
        "Decision (odds): a 10 rerolled in a Rule of 1 chain only ends it (adds nothing).",
    ],
}
