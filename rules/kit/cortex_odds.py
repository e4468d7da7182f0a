"""Exact odds engine of the Cortex family: Serenity Plus (SER), Smallville (SMV), Cortex
slots (CTX). The Cortex Plus result and effect shared by Serenity Plus and Smallville are
here; each game's own queries are in its package's `odds` module.

A result is the sum of the k highest values of a pool, and the effect die sits
just below them, so the odds are computed by conditioning on one order
statistic instead of enumerating rolls. Fix the value v at the rank that
matters (SER: the effect die's face, the (k+1)-th highest value; CTX: the last
value in the Total, the k-th). Every entry then lands independently above, at
or below v. Only the entries above v (fewer than the rank) need their values
added up, and they are enumerated by how many of each kind of die they are;
everything at or below v is counted in closed form (binomial counts of how
many show v), cumulatively in the effect die's size. Polynomials of counts are
packed into single Python ints, so twenty dice take about a millisecond, and
every count is an exact integer.

A face that does not count (a 1) is kept as an entry with value 0: it adds
nothing to a total, and as an effect die it is no better than the d4 that
stands for "no effect die".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

from .dice import MAX_POOL, SIZES, Die, parse_die
from .errors import InvalidRequest
from .odds import (
    Distribution,
    chance_to_beat,
    count_distribution,
)

NO_EFFECT = 4
BOTCH_HITCHES = 3
TOTAL_DICE = 2


# --------------------------------------------------------------------------- pool entries


@dataclass(frozen=True)
class EntryKind:
    """The ways one pool entry can come up: (value, effect level, hitch, ways) per outcome.

    `size` is the die's size (12 for a d12+dN); `ways` how many faces it has in all.
    """

    size: int
    outcomes: tuple[tuple[int, int, bool, int], ...]
    ways: int


def plain_kind(size: int) -> EntryKind:
    """A dN: a 1 adds nothing and is a hitch (CTX-4) or complication (SER-3)."""
    faces = ((face, size, False, 1) for face in range(2, size + 1))
    return EntryKind(size, ((0, NO_EFFECT, True, 1), *faces), size)


def compound_kind(plus: int) -> EntryKind:
    """CTX-8 d12+dN: the sum; the d12's 1 is a hitch adding nothing, and the entry then
    lends only the plus die's size (as rules/cortex_slots/rolls.py reads it)."""
    outcomes: dict[tuple[int, int, bool], int] = {}
    for d12 in range(1, 13):
        for extra in range(1, plus + 1):
            key = (extra, plus, True) if d12 == 1 else (d12 + extra, 12, False)
            outcomes[key] = outcomes.get(key, 0) + 1
    return EntryKind(12, tuple((*key, ways) for key, ways in sorted(outcomes.items())), 12 * plus)


PHANTOM = EntryKind(0, ((0, NO_EFFECT, False, 1),), 1)
"""Pads a pool smaller than the rank looked at: always 0, never an effect die, never a hitch."""


def pool_dice(pool: Iterable[object], *, allow_compound: bool, what: str) -> list[Die]:
    """Dice from sizes, "d8"/"d12+d6" specs, request mappings or Die objects."""
    if isinstance(pool, str | bytes | Mapping):
        raise InvalidRequest(f"the {what} must be a list of dice")
    dice = [
        entry if isinstance(entry, Die) else parse_die(entry, allow_compound=allow_compound)
        for entry in pool
    ]
    for die in dice:
        if die.plus is not None and not allow_compound:
            raise InvalidRequest(f"{die.name} is not a die size in the {what}")
    if len(dice) > MAX_POOL:
        raise InvalidRequest(f"the {what} has {len(dice)} dice; at most {MAX_POOL} can be rolled")
    return dice


def entry_kinds(dice: Sequence[Die]) -> list[tuple[EntryKind, int]]:
    counts: dict[tuple[int, int | None], int] = {}
    for die in dice:
        counts[die.size, die.plus] = counts.get((die.size, die.plus), 0) + 1
    return [
        (plain_kind(size) if plus is None else compound_kind(plus), count)
        for (size, plus), count in sorted(
            counts.items(), key=lambda item: (item[0][0], item[0][1] or 0)
        )
    ]


def _plot_dice(extra: object) -> int:
    if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
        raise InvalidRequest("plot-point dice must be a whole number, 0 or more")
    return extra


# --------------------------------------------------------------------------- packed polynomials
#
# A polynomial with integer coefficients is packed into one int by evaluating it at
# 2**width (Kronecker substitution): adding and multiplying polynomials become single
# int operations. Packing is a ring map, so intermediate results may hold anything;
# a final polynomial whose coefficients all lie in [0, 2**width) unpacks exactly.
# Every final coefficient here counts rolls, so a width above the bit length of the
# number of rolls is enough.


def unpack(packed: int, width: int) -> dict[int, int]:
    mask = (1 << width) - 1
    poly = {}
    exponent = 0
    while packed:
        if coefficient := packed & mask:
            poly[exponent] = coefficient
        packed >>= width
        exponent += 1
    return poly


# --------------------------------------------------------------------------- the engine

Kinds = Sequence[tuple[EntryKind, int]]


@dataclass(frozen=True)
class Climb:
    """Rolls where exactly these entries beat the threshold value: `taken` maps a kind's
    index to how many of its entries (`above` in all, fewer than the rank) do.

    `sums` is the packed polynomial of their summed values (exponent sum·stride, plus
    the hitches among them when tracked) times the ways of choosing those entries.
    """

    above: int
    sums: int
    taken: dict[int, int]

    def rest(self, kinds: Kinds) -> list[tuple[EntryKind, int]]:
        """Kind by kind, how many entries are at or below the threshold."""
        return [(kind, count - self.taken.get(i, 0)) for i, (kind, count) in enumerate(kinds)]


def padded(kinds: Kinds, rank: int) -> list[tuple[EntryKind, int]]:
    """The pool with phantom entries added until it has `rank` entries."""
    short = rank - sum(count for _, count in kinds)
    return [*kinds, (PHANTOM, short)] if short > 0 else list(kinds)


def threshold_cases(
    kinds: Kinds, rank: int, width: int, stride: int = 1, *, hitches: bool = False
) -> Iterator[tuple[int, list[Climb]]]:
    """Split all rolls by the value at `rank` (1 = highest), then by which entries beat it.

    `kinds` must hold at least `rank` entries (see `padded`). Sums are packed with
    exponent sum·stride, leaving the lower exponents free for what the caller
    multiplies in (hitches, the effect size); with `hitches` the entries above count
    their own hitches there too, so `stride` must exceed the number of entries.
    """
    by_value: list[dict[int, int]] = []
    for kind, _ in kinds:
        packed: dict[int, int] = {}
        for value, _, hitch, ways in kind.outcomes:
            exponent = value * stride + (hitch and hitches)
            packed[value] = packed.get(value, 0) + (ways << (exponent * width))
        by_value.append(packed)
    above = [0] * len(kinds)
    previous = None
    for value in sorted({value for packed in by_value for value in packed}, reverse=True):
        if previous is not None:
            above = [
                sums + packed.get(previous, 0) for sums, packed in zip(above, by_value, strict=True)
            ]
        climbers = [(i, count, above[i]) for i, (_, count) in enumerate(kinds) if above[i]]
        yield value, _spread(climbers, rank - 1)
        previous = value


def _spread(climbers: Sequence[tuple[int, int, int]], budget: int) -> list[Climb]:
    """Every way to pick at most `budget` entries above the threshold, kind by kind."""
    picks: list[tuple[int, dict[int, int], int]] = [(1, {}, 0)]
    for index, count, above in climbers:
        grown = []
        for sums, taken, used in picks:
            grown.append((sums, taken, used))
            power = 1
            for more in range(1, min(count, budget - used) + 1):
                power *= above
                grown.append(
                    (sums * comb(count, more) * power, {**taken, index: more}, used + more)
                )
        picks = grown
    return [Climb(used, sums, taken) for sums, taken, used in picks]


def _effect_sizes(
    face: int, kinds: Kinds, climbs: Sequence[Climb], rank: int, width: int
) -> Iterator[tuple[Climb, int]]:
    """SER-4 for plain dice: each climb with the packed ways of each effect size (exponent:
    the size's index in SIZES), `face` being the effect die's face.

    At least rank − above of the dice left show that face and the effect is the
    largest of those. Counted cumulatively in S, "every die showing the face is
    size ≤ S", which only depends on how many dice that can show the face are
    size ≤ S. Dice too small to show it lie below with all their faces.
    Face 0 stands for the dice showing 1: no effect die, a d4.
    """
    if face == 0:
        for climb in climbs:
            yield climb, 1 << (SIZES.index(NO_EFFECT) * width)
        return
    eligible = sorted(
        (kind.size, i, count) for i, (kind, count) in enumerate(kinds) if kind.size >= face
    )
    outside = prod(kind.ways**count for kind, count in kinds if kind.size < face)
    shifts = [SIZES.index(size) * width for size, _, _ in eligible]
    could_show = sum(count for *_, count in eligible)
    for climb in climbs:
        need, remaining = rank - climb.above, could_show - climb.above
        seen = previous = effects = 0
        for (_, index, count), shift in zip(eligible, shifts, strict=True):
            seen += count - climb.taken.get(index, 0)
            cumulative = _face_shown(face, need, remaining, seen)
            effects += (cumulative - previous) << shift
            previous = cumulative
        yield climb, effects * outside


@lru_cache(maxsize=4096)
def _face_shown(face: int, need: int, dice: int, small: int) -> int:
    """Ways `dice` dice (all with a face `face`), each showing `face` or lower, have at
    least `need` showing `face`, all of them among the first `small` dice."""
    too_few = sum(comb(small, j) * (face - 1) ** (small - j) for j in range(min(need, small + 1)))
    return (face - 1) ** (dice - small) * (face**small - too_few)


def _cut_power(base: int, exponent: int, kept: int) -> int:
    """base**exponent with only the bits under the mask `kept` (low powers of t) kept;
    the mask is applied after every product, so numbers never grow past it."""
    result = 1
    while exponent:
        if exponent & 1:
            result = result * base & kept
        exponent >>= 1
        if exponent:
            base = base * base & kept
    return result


def _slot_weights(kind: EntryKind, value: int, width: int) -> list[tuple[int, int, int]]:
    """For each effect level S (in SIZES order): one entry's outcomes as packed polynomials
    in its hitches, at `value` (any level), at `value` with level ≤ S, below with level ≤ S."""
    weights = []
    for largest in SIZES:
        at_any = at_small = below_small = 0
        for face_value, level, hitch, ways in kind.outcomes:
            term = ways << (width if hitch else 0)
            if face_value == value:
                at_any += term
                if level <= largest:
                    at_small += term
            elif face_value < value and level <= largest:
                below_small += term
        weights.append((at_any, at_small, below_small))
    return weights


def effect_levels(
    value: int, kinds: Kinds, climbs: Sequence[Climb], rank: int, width: int, hitch_base: int
) -> Iterator[tuple[Climb, int, int]]:
    """CTX-2: (climb, effect level, packed ways by hitches) with `value` the Total's last value.

    The Total takes rank − above entries at that value; the Effect slot takes the
    largest level left: any entry below the value, or one at the value when more
    show it than the Total needs. Counted cumulatively in the level S: exactly
    `need` at the value with every entry below of level ≤ S, plus more than `need`
    at the value with every entry at or below of level ≤ S.

    The number at the value is the power of t in (at·t + below)^count, packed one
    level above the hitches (t = 2^(hitch_base·width)), so each count is one product.
    """
    stride = hitch_base * width
    digit = (1 << stride) - 1
    kept = (1 << (stride * (rank + 1))) - 1  # t^0 … t^rank: `need` never exceeds rank
    weights = [_slot_weights(kind, value, width) for kind, _ in kinds]
    factors: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def factor(index: int, level_index: int, count: int) -> tuple[int, int, int]:
        key = (index, level_index, count)
        if key not in factors:
            at_any, at_small, below_small = weights[index][level_index]
            factors[key] = (
                _cut_power((at_any << stride) + below_small, count, kept),
                _cut_power((at_small << stride) + below_small, count, kept),
                (at_small + below_small) ** count,
            )
        return factors[key]

    for climb in climbs:
        need = rank - climb.above
        rest = [(i, count) for i, (_, count) in enumerate(climb.rest(kinds)) if count]
        previous = 0
        for level_index, largest in enumerate(SIZES):
            exact = enough = any_count = 1
            for index, count in rest:
                exact_factor, enough_factor, any_factor = factor(index, level_index, count)
                exact = exact * exact_factor & kept
                enough = enough * enough_factor & kept
                any_count *= any_factor
            too_few = sum((enough >> (j * stride)) & digit for j in range(need + 1))
            cumulative = any_count - too_few + ((exact >> (need * stride)) & digit)
            if cumulative != previous:
                yield climb, largest, cumulative - previous
                previous = cumulative


# --------------------------------------------------------------------------- Cortex Plus results


def serenity_outcomes(pool: Iterable[object], *, extra: int = 0) -> Distribution[tuple[int, int]]:
    """(result, effect size) of a pool over all its rolls (SER-2, SER-4, SER-8; SMV-8 main pool).

    Result: the 2 + `extra` highest faces that are not 1 (fewer: all of them;
    none: 0, a botch). Effect: among the dice neither showing 1 nor counted in the
    result, the highest face, the larger die on equal faces; d4 when none.
    """
    dice = pool_dice(pool, allow_compound=False, what="pool")
    kept = TOTAL_DICE + _plot_dice(extra)
    rolls = prod(die.size for die in dice)
    width = rolls.bit_length() + 1
    kinds = padded(entry_kinds(dice), kept + 1)
    stride = len(SIZES)
    packed = 0
    for face, climbs in threshold_cases(kinds, kept + 1, width, stride):
        for climb, effects in _effect_sizes(face, kinds, climbs, kept + 1, width):
            packed += climb.sums * effects << ((kept - climb.above) * face * stride * width)
    weights = {}
    for exponent, ways in unpack(packed, width).items():
        result, size_index = divmod(exponent, stride)
        weights[result, SIZES[size_index]] = ways
    return Distribution(weights, rolls)


def results(outcomes: Distribution[tuple[int, ...]]) -> Distribution[int]:
    """The result (or total) alone, out of a joint distribution keyed by it first."""
    return outcomes.map(lambda key: key[0])


def chance_above(outcomes: Distribution[tuple[int, ...]], target: int) -> Fraction:
    """P(result > target): a test against a fixed difficulty; a tie fails (SER-5)."""
    return outcomes.chance_if(lambda key: key[0] > target)


def chance_pool_beats(
    ours: Distribution[tuple[int, ...]], theirs: Distribution[tuple[int, ...]]
) -> Fraction:
    """SER-5: P(our result strictly greater than theirs); a tie fails."""
    return chance_to_beat(results(ours), results(theirs))


@dataclass(frozen=True)
class OnesOdds:
    """How the 1s of a pool fall: complications (SER-3, SMV-9) or hitches (CTX-4)."""

    at_least_one: Fraction
    expected: Fraction
    all_ones: Fraction
    three_or_more: Fraction


def ones_odds_of(chances: Sequence[Fraction]) -> OnesOdds:
    """How the 1s fall, from each entry's chance of showing 1 (complications or hitches)."""
    counts = count_distribution(chances)
    return OnesOdds(
        at_least_one=1 - counts[0],
        expected=sum(chances, Fraction(0)),
        all_ones=counts[-1] if chances else Fraction(0),
        three_or_more=sum(counts[BOTCH_HITCHES:], Fraction(0)),
    )


def ones_odds(pool: Iterable[object]) -> OnesOdds:
    """SER-3, SMV-9: chance of a complication, expected complications, chance every
    main die shows 1 (Smallville: the roll fails outright)."""
    return ones_odds_of(
        [Fraction(1, die.size) for die in pool_dice(pool, allow_compound=False, what="pool")]
    )


def clear_caches() -> None:
    """Forget memoised counts, so a benchmark measures cold computation."""
    _face_shown.cache_clear()
