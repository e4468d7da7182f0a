"""Exact odds (the kit's Cortex engine, each game's odds module) against brute force, icepool,
random rolls and the resolvers.

Every check compares exact Fractions or integer counts. The brute-force
references below are written from rules.md alone (SER-2, SER-4, SER-5, SER-8,
SER-10, SMV-7, SMV-8, SMV-9, CTX-2, CTX-4, CTX-6, CTX-8, PER-1 … PER-5, UNI-3,
UNI-5, UNI-6, UNI-7), with the readings recorded in each game's ODDS_DECISIONS; the
last section runs the system modules' own `resolve` on enumerated faces.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cortex_slots import odds as slots_odds
from rules.kit import cortex_odds, odds
from rules.kit.dice import SIZES, Die
from rules.kit.errors import RulesError
from rules.personae import odds as personae_odds
from rules.serenity import odds as serenity_odds
from rules.smallville import odds as smallville_odds
from rules.unisystem import odds as uni_odds

# --------------------------------------------------------------------------- references

NO_EFFECT = 4


def counting_dice(sizes: Sequence[int], faces: Sequence[int]) -> list[tuple[int, int]]:
    """SER-2: the (face, size) of the dice not showing 1, highest face first, the smaller
    die first on equal faces (the result takes the smaller dice)."""
    return sorted(
        ((face, size) for face, size in zip(faces, sizes, strict=True) if face != 1),
        key=lambda die: (-die[0], die[1]),
    )


def result_and_effect(counted: Sequence[tuple[int, int]], extra: int) -> tuple[int, int]:
    """SER-2, SER-4, SER-8: the result takes 2 + extra counting dice, the effect is the
    highest (face, size) left, d4 when none is."""
    kept = 2 + extra
    leftover = counted[kept:]
    return sum(face for face, _ in counted[:kept]), (max(leftover)[1] if leftover else NO_EFFECT)


def reference_serenity(sizes: Sequence[int], faces: Sequence[int], extra: int) -> tuple[int, int]:
    return result_and_effect(counting_dice(sizes, faces), extra)


def reference_side(faces: Sequence[int]) -> int:
    """SMV-7: the highest side die; a 1 adds nothing."""
    return max((face for face in faces if face != 1), default=0)


def reference_smallville(main: tuple[int, int], side_value: int) -> tuple[int, int]:
    """SMV-8, SMV-9: main result plus the side die, unless every main die showed 1."""
    result, effect = main
    return (result + side_value if result else 0), effect


Entry = tuple[int, int | None]  # (size, plus die) — (12, 6) is a d12+d6


def entry_faces(entries: Sequence[Entry]) -> list[range]:
    """The faces a pool draws, in order: a d12+dN draws the d12, then its plus die."""
    faces = []
    for size, plus in entries:
        faces.append(range(1, size + 1))
        if plus:
            faces.append(range(1, plus + 1))
    return faces


def reference_slots(entries: Sequence[Entry], faces: Sequence[int]) -> tuple[int, int, bool]:
    """CTX-2, CTX-4, CTX-8: (total, effect level, botch) of the best split, found by trying
    every die in the Effect slot with the two highest of the others in the Total."""
    rolled = []
    it = iter(faces)
    for size, plus in entries:
        face = next(it)
        extra = next(it) if plus else 0
        hitch = face == 1
        value = (0 if hitch else face) + extra
        level = (plus if hitch else size) if plus else (NO_EFFECT if hitch else size)
        rolled.append((value, level, hitch))
    best = None
    for effect in range(len(rolled)):
        others = sorted((v for i, (v, _, _) in enumerate(rolled) if i != effect), reverse=True)
        candidate = (sum(others[:2]), rolled[effect][1])
        best = candidate if best is None else max(best, candidate)
    hitches = sum(hitch for _, _, hitch in rolled)
    return best[0], best[1], hitches >= 3


def reference_gm_total(entries: Sequence[Entry], faces: Sequence[int]) -> int:
    """CTX-1: a GM pool's difficulty, its two highest values."""
    return reference_gm_roll(entries, faces)[0]


def reference_gm_roll(entries: Sequence[Entry], faces: Sequence[int]) -> tuple[int, bool]:
    """CTX-1, CTX-4: a GM pool's difficulty and whether it botched (three or more 1s)."""
    values = []
    hitches = 0
    it = iter(faces)
    for _, plus in entries:
        face = next(it)
        hitches += face == 1
        values.append((0 if face == 1 else face) + (next(it) if plus else 0))
    return sum(sorted(values, reverse=True)[:2]), hitches >= 3


def reference_challenge(
    actor: Sequence[int], actor_bonus: int, reactor: Sequence[int] | None, opposing: int
) -> tuple[str, int]:
    """PER-1 … PER-5: (grade, nat-10s that bank a critical each, before the cap).
    `reactor` None is a fixed number `opposing`."""
    mine = [face + actor_bonus for face in sorted(actor, reverse=True)]
    theirs = (
        [opposing] if reactor is None else [f + opposing for f in sorted(reactor, reverse=True)]
    )
    actor_tens = list(actor).count(10)
    reactor_ten = reactor is not None and 10 in reactor
    first = (mine[0] > theirs[0]) - (mine[0] < theirs[0])
    final = first
    if first == 0 and not reactor_ten:
        step = 1
        while step < len(mine) and step < len(theirs) and mine[step] == theirs[step]:
            step += 1
        if step < len(mine) and step < len(theirs):
            final = 1 if mine[step] > theirs[step] else -1
        else:
            final = (len(mine) > step) - (len(theirs) > step)
    if first > 0:
        return "clear", actor_tens
    if final > 0 and not (first == 0 and reactor_ten):
        return ("clear" if actor_tens else "glancing"), 0
    return ("glancing" if actor_tens and not reactor_ten else "failure"), 0


def reference_unisystem_die(draw: Callable[[], int]) -> int:
    """UNI-6, UNI-7: one d10 with its chains (10,7 → 12; 10,10,3 → 15; 1,3 → −2; 1,8 → 1;
    1,1,7 → −5)."""
    first = draw()
    if first == 10:
        value = 10
        while (face := draw()) == 10:
            value += 5
        return value + max(face - 5, 0)
    if first == 1:
        face = draw()
        if face != 1:
            return face - 5 if face < 5 else 1
        value = -5
        while (face := draw()) == 1:
            value -= 5
        return value + min(face - 5, 0)
    return first


def reference_levels(total: int) -> int:
    """UNI-3, straight from the table."""
    table = [
        (9, 1),
        (11, 2),
        (13, 3),
        (15, 4),
        (17, 5),
        (21, 6),
        (24, 7),
        (27, 8),
        (30, 9),
        (33, 10),
    ]
    levels = 0
    for start, level in table:
        if total >= start:
            levels = level
    if total >= 36:
        levels = 10 + (total - 33) // 3
    return levels


def reference_resisted(attacker: int, defender: int, has_defender: bool) -> str:
    """UNI-5 from two totals."""
    a_ok, d_ok = attacker >= 9, defender >= 9
    if not a_ok and not d_ok:
        return "both_fail"
    if a_ok != d_ok:
        return "attacker_wins" if a_ok else "defender_wins"
    if attacker != defender:
        return "attacker_wins" if attacker > defender else "defender_wins"
    return "defender_wins" if has_defender else "tie"


def counts(ranges: Sequence[Iterable[int]], key: Callable[[tuple[int, ...]], Hashable]) -> Counter:
    """Brute force: the key of every combination of faces."""
    return Counter(key(faces) for faces in itertools.product(*ranges))


def nonzero(distribution: odds.Distribution) -> dict:
    return {key: ways for key, ways in distribution.weights.items() if ways}


def pools_up_to(most: int) -> list[tuple[int, ...]]:
    """Every multiset of die sizes with 1 … `most` dice."""
    return [
        pool
        for n in range(1, most + 1)
        for pool in itertools.combinations_with_replacement(SIZES, n)
    ]


def sampled_pools(seed: int, sizes: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    """Random pools of the given sizes, keeping those small enough to enumerate."""
    rng = random.Random(seed)
    pools = []
    while len(pools) < 4:
        pool = tuple(sorted(rng.choices(SIZES, k=rng.choice(sizes))))
        if math.prod(pool) <= limit and pool not in pools:
            pools.append(pool)
    return pools


# --------------------------------------------------------------------------- Serenity (SER)


ONES = "ones"


def brute_serenity(pool: Sequence[int], extras: Sequence[int]) -> dict[int | str, Counter]:
    """One pass over the faces: (result, effect) counts for each plot-point extra, and
    under ONES how many rolls show each number of 1s."""
    out: dict[int | str, Counter] = {key: Counter() for key in (*extras, ONES)}
    for faces in itertools.product(*(range(1, size + 1) for size in pool)):
        counted = counting_dice(pool, faces)
        for extra in extras:
            out[extra][result_and_effect(counted, extra)] += 1
        out[ONES][faces.count(1)] += 1
    return out


SERENITY_POOLS = pools_up_to(4) + sampled_pools(seed=5, sizes=(5, 6), limit=40_000)


@pytest.fixture(scope="module")
def serenity_brute() -> dict[tuple[tuple[int, ...], int | str], Counter]:
    table = {}
    for pool in SERENITY_POOLS:
        for key, counter in brute_serenity(pool, (0, 1, 2)).items():
            table[pool, key] = counter
    return table


def test_serenity_joint_matches_brute_force_for_every_small_pool(serenity_brute):
    """SER-2, SER-4, SER-8: the (result, effect) counts are exactly the enumerated ones,
    for every pool of up to 4 dice and sampled pools of 5–6, with 0–2 plot-point dice."""
    for (pool, extra), expected in serenity_brute.items():
        if extra == ONES:
            continue
        outcomes = cortex_odds.serenity_outcomes(pool, extra=extra)
        assert outcomes.total == math.prod(pool)
        assert nonzero(outcomes) == dict(expected), (pool, extra)


def test_serenity_derived_chances_match_brute_force(serenity_brute):
    """SER-2, SER-3, SER-5, SMV-9: P(result > target) for every target; the chance of a 1,
    the expected number of 1s and the chance that every die shows 1."""
    for (pool, extra), expected in serenity_brute.items():
        total = math.prod(pool)
        if extra == ONES:
            got = cortex_odds.ones_odds(pool)
            assert got.at_least_one == Fraction(total - expected[0], total)
            assert got.expected == Fraction(sum(k * n for k, n in expected.items()), total)
            assert got.all_ones == Fraction(expected[len(pool)], total)
            continue
        outcomes = cortex_odds.serenity_outcomes(pool, extra=extra)
        for target in range(-1, 12 * (2 + extra) + 1):
            beats = sum(n for (result, _), n in expected.items() if result > target)
            assert cortex_odds.chance_above(outcomes, target) == Fraction(beats, total)


def test_pool_against_pool_matches_brute_force(serenity_brute):
    """SER-5 (ties fail) and SER-10 (beat by 5 or more) between two rolled pools."""
    pools = [p for p in SERENITY_POOLS if len(p) <= 3][::3]
    for ours, theirs in itertools.product(pools, repeat=2):
        mine = Counter()
        for (result, _), n in serenity_brute[ours, 0].items():
            mine[result] += n
        other = Counter()
        for (result, _), n in serenity_brute[theirs, 0].items():
            other[result] += n
        total = math.prod(ours) * math.prod(theirs)
        wins = sum(a * b for x, a in mine.items() for y, b in other.items() if x > y)
        big = sum(a * b for x, a in mine.items() for y, b in other.items() if x >= y + 5)
        ours_odds, theirs_odds = (
            cortex_odds.serenity_outcomes(ours),
            cortex_odds.serenity_outcomes(theirs),
        )
        assert cortex_odds.chance_pool_beats(ours_odds, theirs_odds) == Fraction(wins, total)
        assert serenity_odds.chance_extraordinary(ours_odds, theirs_odds) == Fraction(big, total)


def test_serenity_worked_example():
    """SER-4: d10=9, d8=8, d6=6, d12=2 → result 17, effect d6 (not the d12)."""
    assert reference_serenity((10, 8, 6, 12), (9, 8, 6, 2), 0) == (17, 6)
    outcomes = cortex_odds.serenity_outcomes(["d10", "d8", "d6", "d12"])
    assert outcomes.chance((17, 6)) > 0


def test_serenity_pool_edges():
    """SER-2: an empty pool always gives 0; all 1s is a botch; bad input is refused."""
    assert nonzero(cortex_odds.serenity_outcomes([])) == {(0, NO_EFFECT): 1}
    assert cortex_odds.serenity_outcomes([4]).chance((0, NO_EFFECT)) == Fraction(1, 4)
    for bad in (["d7"], "d8", [Die(12, plus=6)]):
        with pytest.raises(RulesError):
            cortex_odds.serenity_outcomes(bad)
    with pytest.raises(RulesError):
        cortex_odds.serenity_outcomes([8], extra=-1)


# --------------------------------------------------------------------------- Smallville (SMV)


def test_smallville_matches_brute_force(serenity_brute):
    """SMV-7, SMV-8, SMV-9: main pool plus the highest side die; side 1s add nothing;
    all main dice showing 1 is result 0 whatever the side pool shows."""
    for side in ((), (6,), (4, 8), (12, 12, 4)):
        side_counts = counts([range(1, s + 1) for s in side], reference_side)
        for (main, extra), main_counts in serenity_brute.items():
            if len(main) > 3 or extra == ONES:
                continue
            expected = Counter()
            for main_part, ways in main_counts.items():
                for side_part, side_ways in side_counts.items():
                    expected[reference_smallville(main_part, side_part)] += ways * side_ways
            got = smallville_odds.smallville_outcomes(main, side, extra=extra)
            assert nonzero(got) == dict(expected), (main, side, extra)


# --------------------------------------------------------------------------- Cortex slots (CTX)

CTX_POOLS: list[tuple[Entry, ...]] = (
    [tuple((size, None) for size in pool) for pool in pools_up_to(4) if len(pool) == 3]
    + [tuple((size, None) for size in pool) for pool in pools_up_to(4) if len(pool) == 4][::7]
    + [
        ((12, 4), (6, None), (8, None)),
        ((12, 6), (12, 4), (4, None)),
        ((12, 12), (10, None), (4, None)),
        ((12, 8), (12, 8), (12, None)),
    ]
)


def as_dice(entries: Sequence[Entry]) -> list[Die]:
    return [Die(size, plus=plus) for size, plus in entries]


def brute_slots(entries: Sequence[Entry]) -> Counter:
    return counts(entry_faces(entries), lambda faces: reference_slots(entries, faces))


@pytest.fixture(scope="module")
def slots_brute() -> dict[tuple[Entry, ...], Counter]:
    return {entries: brute_slots(entries) for entries in CTX_POOLS}


def test_slots_joint_matches_brute_force(slots_brute):
    """CTX-2, CTX-4, CTX-8: (total, effect level, botch) of the best split, exactly."""
    for entries, expected in slots_brute.items():
        assert nonzero(slots_odds.slots_outcomes(as_dice(entries))) == dict(expected), entries


def test_slots_success_and_big_hero_die_match_brute_force(slots_brute):
    """CTX-2, CTX-4, CTX-6: success is total > difficulty without a botch; the Big Hero
    Die (its 1 counts 1) joins the Total unless the Total already wins, then the Effect."""
    for entries, expected in list(slots_brute.items())[::4]:
        dice = as_dice(entries)
        rolls = sum(expected.values())
        for difficulty in (0, 5, 9, 14):
            wins = sum(n for (t, _, botch), n in expected.items() if t > difficulty and not botch)
            assert slots_odds.slots_success_chance(dice, difficulty) == Fraction(wins, rolls)
            placed, success = Counter(), 0
            for (total, level, botch), n in expected.items():
                for hero in range(1, 7):
                    if not botch and total > difficulty:
                        placed[total, max(level, 6)] += n
                        success += n
                    else:
                        placed[total + hero, level] += n
                        success += n * (not botch and total + hero > difficulty)
            got = slots_odds.slots_placed_outcomes(dice, big_hero="d6", difficulty=difficulty)
            assert nonzero(got) == dict(placed)
            assert slots_odds.slots_success_chance(dice, difficulty, big_hero=6) == Fraction(
                success, rolls * 6
            )


def test_slots_against_gm_pool_matches_brute_force(slots_brute):
    """CTX-1, CTX-2, CTX-4: beating a rolled GM pool (two highest values) without a
    botch; a GM pool that botches is an automatic failure of the opposition."""
    gm_entries: list[tuple[Entry, ...]] = [
        ((4, None), (4, None), (6, None)),
        ((8, None), (6, None), (6, None)),
        ((12, 4), (4, None)),
    ]
    for gm in gm_entries:
        gm_rolls = counts(entry_faces(gm), lambda faces, gm=gm: reference_gm_roll(gm, faces))
        gm_counts = Counter()
        for (difficulty, _), m in gm_rolls.items():
            gm_counts[difficulty] += m
        assert nonzero(slots_odds.gm_pool_totals(as_dice(gm))) == dict(gm_counts)
        for entries, expected in list(slots_brute.items())[::9]:
            wins = sum(
                n * m
                for (total, _, botch), n in expected.items()
                for (difficulty, gm_botch), m in gm_rolls.items()
                if not botch and (gm_botch or total > difficulty)
            )
            rolls = sum(expected.values()) * sum(gm_counts.values())
            assert slots_odds.slots_beats_gm_chance(as_dice(entries), as_dice(gm)) == Fraction(
                wins, rolls
            )


def test_hitch_odds_match_brute_force(slots_brute):
    """CTX-4, CTX-8: hitches are 1s on any die but a plus die; a botch is three or more."""
    for entries, expected in slots_brute.items():
        hitches = Counter()
        for faces in itertools.product(*entry_faces(entries)):
            it = iter(faces)
            rolled = []
            for _, plus in entries:
                rolled.append(next(it) == 1)
                if plus:
                    next(it)
            hitches[sum(rolled)] += 1
        rolls = sum(hitches.values())
        got = slots_odds.hitch_odds(as_dice(entries))
        assert got.at_least_one == Fraction(rolls - hitches[0], rolls)
        assert got.expected == Fraction(sum(k * n for k, n in hitches.items()), rolls)
        assert got.three_or_more == Fraction(sum(n for k, n in hitches.items() if k >= 3), rolls)
        botches = sum(n for (_, _, botch), n in expected.items() if botch)
        assert got.three_or_more == Fraction(botches, rolls)


def test_compound_worked_example():
    """CTX-8: d12 shows 9, d6 shows 1 → value 10, no hitch."""
    entries: tuple[Entry, ...] = ((12, 6), (4, None), (4, None))
    assert reference_slots(entries, (9, 1, 1, 1)) == (10, NO_EFFECT, False)
    assert slots_odds.slots_outcomes(as_dice(entries)).chance((10, NO_EFFECT, False)) > 0


# --------------------------------------------------------------------------- icepool

ZERO_ONES = {size: icepool.d(size).map(lambda face: 0 if face == 1 else face) for size in SIZES}


def icepool_chances(die: icepool.Die) -> dict[int, Fraction]:
    return {
        outcome: Fraction(die.quantity(outcome), die.denominator()) for outcome in die.outcomes()
    }


@settings(max_examples=30, deadline=None)
@given(
    pool=st.lists(st.sampled_from(SIZES), min_size=1, max_size=9),
    extra=st.integers(min_value=0, max_value=2),
)
def test_serenity_results_match_icepool(pool, extra):
    """SER-2, SER-8: the result alone is the sum of the 2 + extra highest dice, 1s as 0."""
    expected = icepool.Pool([ZERO_ONES[s] for s in pool]).highest(2 + extra).sum()
    got = cortex_odds.results(cortex_odds.serenity_outcomes(pool, extra=extra)).probabilities()
    assert got == icepool_chances(expected)


@settings(max_examples=15, deadline=None)
@given(
    main=st.lists(st.sampled_from(SIZES), min_size=1, max_size=6),
    side=st.lists(st.sampled_from(SIZES), min_size=1, max_size=3),
)
def test_smallville_results_match_icepool(main, side):
    """SMV-7, SMV-8, SMV-9: main result + highest side die (1s as 0), 0 if the main botches."""
    main_die = icepool.Pool([ZERO_ONES[s] for s in main]).highest(2).sum()
    side_die = icepool.Pool([ZERO_ONES[s] for s in side]).highest(1).sum()
    expected = icepool.map(lambda m, s: m + s if m else 0, main_die, side_die)
    got = cortex_odds.results(smallville_odds.smallville_outcomes(main, side)).probabilities()
    assert got == icepool_chances(expected)


@settings(max_examples=15, deadline=None)
@given(
    plain=st.lists(st.sampled_from(SIZES), min_size=3, max_size=6),
    plus=st.lists(st.sampled_from(SIZES), max_size=2),
)
def test_slots_totals_match_icepool(plain, plus):
    """CTX-2, CTX-8: the Total is the sum of the two highest values; a d12+dN is its d12
    (a 1 adds 0) plus its plus die."""
    values = [ZERO_ONES[s] for s in plain] + [ZERO_ONES[12] + icepool.d(p) for p in plus]
    expected = icepool.Pool(values).highest(2).sum()
    dice = [Die(s) for s in plain] + [Die(12, plus=p) for p in plus]
    assert cortex_odds.results(slots_odds.slots_outcomes(dice)).probabilities() == icepool_chances(
        expected
    )
    hitches = sum((icepool.d(d.size) == 1 for d in dice), start=icepool.Die([0]))
    botch = Fraction(
        sum(hitches.quantity(k) for k in hitches.outcomes() if k >= 3), hitches.denominator()
    )
    assert slots_odds.hitch_odds(dice).three_or_more == botch


# --------------------------------------------------------------------------- Personae (PER)


def sorted_rolls(dice: int) -> Iterable[tuple[tuple[int, ...], int]]:
    """Every sorted roll of `dice` d10 with how many ordered rolls give it."""
    for faces in itertools.combinations_with_replacement(range(1, 11), dice):
        ways = math.factorial(dice)
        for n in Counter(faces).values():
            ways //= math.factorial(n)
        yield faces, ways


def brute_challenge(
    n: int, a: int, m: int | None, b: int, caps: Sequence[int]
) -> dict[int, personae_odds.ChallengeOdds]:
    """Odds by enumerating sorted rolls, for each cap on criticals banked in `caps`."""
    grades, tens, total = Counter(), Counter(), 0
    reactor_rolls = list(sorted_rolls(m)) if m else [(None, 1)]
    for actor, ways_a in sorted_rolls(n):
        for reactor, ways_r in reactor_rolls:
            grade, banked = reference_challenge(actor, a, reactor, b)
            grades[grade] += ways_a * ways_r
            tens[banked] += ways_a * ways_r
            total += ways_a * ways_r
    return {
        cap: personae_odds.ChallengeOdds(
            Fraction(grades["clear"], total),
            Fraction(grades["glancing"], total),
            Fraction(grades["failure"], total),
            Fraction(sum(min(k, cap) * ways for k, ways in tens.items()), total),
        )
        for cap in caps
    }


@pytest.mark.parametrize(
    ("n", "m"), [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (1, 3), (3, 3), (4, 2), (2, 4)]
)
def test_challenge_matches_brute_force(n, m):
    """PER-1, PER-2, PER-3, PER-4, PER-5 against a rolled reactor, leads from −11 to +11."""
    for a, b in ((0, 0), (3, 1), (1, 4), (0, 9), (11, 0), (0, 11)):
        for cap, expected in brute_challenge(n, a, m, b, (0, 1, 3)).items():
            assert personae_odds.challenge_odds(n, a, m, b, critical_cap=cap) == expected, (
                n,
                a,
                m,
                b,
            )


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_fixed_number_matches_brute_force(n):
    """PER-1, PER-2, PER-3, PER-4 against a fixed number (no dice to yield, no PER-5)."""
    for a in (0, 2):
        for difficulty in range(1, 16):
            expected = brute_challenge(n, a, None, difficulty, (2,))[2]
            assert personae_odds.number_odds(n, a, difficulty, critical_cap=2) == expected


def test_challenge_ten_dice_is_a_distribution():
    """PER-2: 10 against 10 (no brute force possible) still adds up, and a huge lead wins."""
    result = personae_odds.challenge_odds(10, 3, 10, 2)
    assert result.clear + result.glancing + result.failure == 1
    assert personae_odds.challenge_odds(10, 40, 10, 0).clear == 1
    with pytest.raises(RulesError):
        personae_odds.challenge_odds(0, 0, 1, 0)


# --------------------------------------------------------------------------- Unisystem (UNI)


def chain_chances(depth: int) -> dict[int, Fraction]:
    """Exact chances of every value whose chain is at most `depth` faces long."""
    chances: dict[int, Fraction] = {}

    def walk(prefix: list[int]) -> None:
        faces = iter(prefix)

        def draw() -> int:
            face = next(faces, None)
            if face is None:
                raise LookupError
            return face

        try:
            value = reference_unisystem_die(draw)
        except LookupError:
            if len(prefix) < depth:
                for face in range(1, 11):
                    walk([*prefix, face])
            return
        chances[value] = chances.get(value, Fraction(0)) + Fraction(1, 10 ** len(prefix))

    walk([])
    return chances


def test_unisystem_die_matches_its_chains():
    """UNI-6, UNI-7: every value reachable in ≤ 6 faces has exactly the chance of its
    chains, and values that need longer chains are where the tails say."""
    for faces, value in (
        ((10, 7), 12),
        ((10, 4), 10),
        ((10, 10, 3), 15),
        ((1, 3), -2),
        ((1, 8), 1),
        ((1, 1, 7), -5),
    ):
        assert reference_unisystem_die(iter(faces).__next__) == value
    law = uni_odds.total_law(0)
    chances = chain_chances(6)
    for value in range(-18, 30):
        assert law.chance(value) == chances.get(value, Fraction(0)), value
    assert sum(law.window(-80, 120).values()) + law.at_least(121) + (1 - law.at_least(-80)) == 1


@settings(max_examples=40, deadline=None)
@given(modifier=st.integers(-30, 30), low=st.integers(-60, 40), span=st.integers(0, 60))
def test_unisystem_at_least_is_consistent(modifier, low, span):
    """UNI-1: P(total ≥ t) agrees with the chances of single totals, tails included."""
    law = uni_odds.total_law(modifier)
    high = low + span
    inside = sum(law.window(low, high).values(), Fraction(0))
    assert law.at_least(low) == inside + law.at_least(high + 1)
    assert uni_odds.success_chance(modifier) == law.at_least(9)


def test_unisystem_success_levels():
    """UNI-3: level chances are the chances of the level's totals; they add up to 1."""
    for modifier in (-5, 0, 3, 8, 20):
        law = uni_odds.total_law(modifier)
        levels = uni_odds.success_level_odds(modifier, up_to=14)
        assert sum(levels.chances.values()) + levels.beyond == 1
        for level, chance in levels.chances.items():
            window = [t for t in range(-200, 80) if reference_levels(t) == level]
            expected = sum((law.chance(t) for t in window), Fraction(0))
            if level == 0:
                expected += 1 - law.at_least(-200)
            assert chance == expected, (modifier, level)
    assert reference_levels(13) == 3 and reference_levels(35) == 10 and reference_levels(38) == 11


def test_unisystem_resisted_against_a_window_sum():
    """UNI-5: the closed form equals the sum over both totals within 10^-12 (everything
    outside the window has less chance than that), and matches the reference rules."""
    bound = Fraction(1, 10**12)
    for attacker, defender in ((4, 5), (8, 10), (0, 12)):
        for has_defender in (True, False):
            got = uni_odds.resisted_chances(attacker, defender, has_defender=has_defender)
            assert got.attacker_wins + got.defender_wins + got.tie + got.both_fail == 1
            a_law, d_law = uni_odds.total_law(attacker), uni_odds.total_law(defender)
            window = Counter()
            a_values, d_values = a_law.window(-65, 95), d_law.window(-65, 95)
            for a, pa in a_values.items():
                for d, pd in d_values.items():
                    window[reference_resisted(a, d, has_defender)] += pa * pd
            for outcome in ("attacker_wins", "defender_wins", "tie", "both_fail"):
                assert 0 <= getattr(got, outcome) - window[outcome] <= bound


def test_unisystem_fixed_scores():
    """UNI-5: acting, a cast member must beat the score (and reach 9); defending, beat or tie."""
    for modifier, score in ((10, 14), (10, 11), (5, 6), (8, 20)):
        law = uni_odds.total_law(modifier)
        assert uni_odds.against_score(modifier, score, defending=False) == law.at_least(
            max(9, score + 1)
        )
        assert uni_odds.against_score(modifier, score, defending=True) == law.at_least(
            max(9, score)
        )


def test_chart_rows():
    """Chart rows: ascending values, exact chances, cumulative "at least" down to the total."""
    rows = odds.chart_rows(
        cortex_odds.results(cortex_odds.serenity_outcomes([6, 8])).probabilities()
    )
    assert [r.value for r in rows] == sorted(r.value for r in rows)
    assert rows[0].at_least == 1 and rows[-1].at_least == rows[-1].chance
    assert all(a.at_least == a.chance + b.at_least for a, b in itertools.pairwise(rows))
    law_rows = uni_odds.total_law(4).chart(5, 20)
    assert law_rows[-1].at_least == uni_odds.total_law(4).at_least(20)


# --------------------------------------------------------------------------- random rolls


def chi_square_ok(observed: Counter, expected: dict[Hashable, Fraction], rolls: int) -> bool:
    """Pearson's chi-square below the p = 10^-6 critical value (Wilson–Hilferty), cells
    with fewer than 5 expected rolls merged into one."""
    cells, rare_seen, rare_expected = [], 0, 0.0
    for key, chance in expected.items():
        mean = float(chance) * rolls
        if mean < 5:
            rare_seen += observed[key]
            rare_expected += mean
        else:
            cells.append((observed[key], mean))
    if rare_expected:
        cells.append((rare_seen, rare_expected))
    assert sum(observed.values()) == rolls and set(observed) <= set(expected)
    statistic = sum((seen - mean) ** 2 / mean for seen, mean in cells)
    df = len(cells) - 1
    critical = df * (1 - 2 / (9 * df) + 4.753 * math.sqrt(2 / (9 * df))) ** 3
    return statistic < critical


ROLLS = 200_000


def columns(rng: random.Random, sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """ROLLS rolls of a pool, drawn die by die."""
    return list(zip(*(rng.choices(range(1, s + 1), k=ROLLS) for s in sizes), strict=True))


def sample_serenity(rng: random.Random) -> tuple[Counter, dict]:
    """SER-2, SER-4, SER-8: d4 d6 d8 d10 d12 with one plot-point die."""
    pool = (4, 6, 8, 10, 12)
    seen = Counter(reference_serenity(pool, faces, 1) for faces in columns(rng, pool))
    return seen, cortex_odds.serenity_outcomes(pool, extra=1).probabilities()


def sample_smallville(rng: random.Random) -> tuple[Counter, dict]:
    """SMV-7, SMV-8, SMV-9: d6 d8 d10 with a d6 d8 side pool."""
    main, side = (6, 8, 10), (6, 8)
    seen = Counter(
        reference_smallville(reference_serenity(main, f[:3], 0), reference_side(f[3:]))
        for f in columns(rng, main + side)
    )
    return seen, smallville_odds.smallville_outcomes(main, side).probabilities()


def sample_slots(rng: random.Random) -> tuple[Counter, dict]:
    """CTX-2, CTX-4, CTX-8: d6 d8 d10 d12+d6."""
    entries: tuple[Entry, ...] = ((6, None), (8, None), (10, None), (12, 6))
    seen = Counter(reference_slots(entries, f) for f in columns(rng, (6, 8, 10, 12, 6)))
    return seen, slots_odds.slots_outcomes(as_dice(entries)).probabilities()


def sample_personae(rng: random.Random) -> tuple[Counter, dict]:
    """PER-1 … PER-5: 4d10+2 against 3d10+3."""
    seen = Counter(reference_challenge(f[:4], 2, f[4:], 3)[0] for f in columns(rng, (10,) * 7))
    exact = personae_odds.challenge_odds(4, 2, 3, 3)
    return seen, {"clear": exact.clear, "glancing": exact.glancing, "failure": exact.failure}


def sample_unisystem(rng: random.Random) -> tuple[Counter, dict]:
    """UNI-5, UNI-6, UNI-7: a resisted roll, +4 against +5."""

    def draw() -> int:
        return rng.randint(1, 10)

    seen = Counter(
        reference_resisted(
            reference_unisystem_die(draw) + 4, reference_unisystem_die(draw) + 5, True
        )
        for _ in range(ROLLS)
    )
    exact = uni_odds.resisted_chances(4, 5)
    return seen, {name: chance for name, chance in vars(exact).items() if chance}


@pytest.mark.parametrize(
    "sample",
    [sample_serenity, sample_smallville, sample_slots, sample_personae, sample_unisystem],
    ids=["serenity", "smallville", "cortex_slots", "personae", "unisystem"],
)
def test_random_rolls_land_on_the_exact_distribution(sample):
    """200,000 seeded rolls fall within a chi-square bound of the exact odds."""
    seen, exact = sample(random.Random(2024))
    assert chi_square_ok(seen, exact, ROLLS)


# --------------------------------------------------------------------------- the resolvers
#
# The system modules resolve one roll from recorded faces; here they resolve every
# combination of faces of a few requests, and the counts must equal the odds.


def resolved(action, request: dict, ranges: Sequence[Iterable[int]], key: Callable) -> Counter:
    """The key of `resolve(action, request, faces)` for every combination of faces."""
    from rules.kit.actions import resolve

    return Counter(
        key(resolve(action, request, list(faces))) for faces in itertools.product(*ranges)
    )


def projected(counter: Counter, length: int) -> dict:
    """Counts by the first `length` fields of each key."""
    out: Counter = Counter()
    for key, ways in counter.items():
        out[key[:length]] += ways
    return dict(out)


def cortex_entry(size: int, group: str, trait: str) -> dict:
    return {"die": f"d{size}", "trait": trait, "group": group}


def serenity_request(pool: Sequence[int], plot_points: int = 0) -> dict:
    """SER-1: a Stylin' die first, the rest Assets."""
    entries = [cortex_entry(pool[0], "stylins", "Fightin'")]
    entries += [cortex_entry(s, "assets", f"Asset {i}") for i, s in enumerate(pool[1:])]
    return {"pool": entries, "plot_points": plot_points}


def test_serenity_resolver_agrees():
    """SER-2, SER-4, SER-8 (`roll`) and SER-5, SER-10 (`test`) of rules/serenity/."""
    from rules import serenity

    for pool, plot_points in (((8, 6), 0), ((10, 8, 4), 1), ((6, 6, 12), 0), ((6, 8, 6, 4), 0)):
        got = resolved(
            serenity.ACTIONS["roll"],
            serenity_request(pool, plot_points),
            [range(1, s + 1) for s in pool],
            lambda outcome: (outcome["result"], int(outcome["effect"][1:])),
        )
        assert dict(got) == nonzero(cortex_odds.serenity_outcomes(pool, extra=plot_points)), pool
    player, gm = (6, 4), (6, 4, 4)
    request = {
        "player": serenity_request(player),
        "opposition": {"pool": [cortex_entry(s, "situation", "Trouble") for s in gm]},
    }
    got = resolved(
        serenity.ACTIONS["test"],
        request,
        [range(1, s + 1) for s in player + gm],
        lambda outcome: (
            outcome["success"],
            (outcome["extraordinary"] or {}).get("by") == "player",
        ),
    )
    rolls = math.prod(player + gm)
    ours, theirs = cortex_odds.serenity_outcomes(player), cortex_odds.serenity_outcomes(gm)
    assert Fraction(got[True, True] + got[True, False], rolls) == cortex_odds.chance_pool_beats(
        ours, theirs
    )
    assert Fraction(got[True, True], rolls) == serenity_odds.chance_extraordinary(ours, theirs)


def test_smallville_resolver_agrees():
    """SMV-7, SMV-8, SMV-9 (`roll`) of rules/smallville/."""
    from rules import smallville

    for main, side, plot_points in (((8, 6), (6,), 0), ((10, 4, 6), (4, 8), 1), ((4, 4), (), 0)):
        entries = [
            cortex_entry(main[0], "values", "Justice"),
            cortex_entry(main[1], "relationships", "Lana"),
        ]
        entries += [cortex_entry(s, "abilities", "Super-speed") for s in main[2:]]
        request = {
            "pool": entries,
            "side_pool": [cortex_entry(s, "locations", f"Place {i}") for i, s in enumerate(side)],
            "plot_points": plot_points,
        }
        got = resolved(
            smallville.ACTIONS["roll"],
            request,
            [range(1, s + 1) for s in main + side],
            lambda outcome: (outcome["result"], int(outcome["effect"][1:])),
        )
        assert dict(got) == nonzero(
            smallville_odds.smallville_outcomes(main, side, extra=plot_points)
        )


def slots_request(entries: Sequence[str], **extra: object) -> dict:
    """CTX-1: an Attribute, a Distinction, a Skill, then Assets."""
    groups = ["attributes", "distinctions", "skills"] + ["assets"] * (len(entries) - 3)
    pool = [
        {"die": die, "trait": f"Trait {i}", "group": g}
        for i, (die, g) in enumerate(zip(entries, groups, strict=True))
    ]
    return {"pool": pool, **extra}


def test_cortex_slots_resolver_agrees():
    """CTX-2, CTX-4, CTX-6, CTX-8 (`roll`, `gm_pool`) of rules/cortex_slots/."""
    from rules import cortex_slots

    for entries, difficulty in ((("d4", "d6", "d12+d4"), 9), (("d4", "d4", "d4", "d6"), 5)):
        dice = [Die(12, plus=int(e[5:])) if "+" in e else Die(int(e[1:])) for e in entries]
        ranges = entry_faces([(d.size, d.plus) for d in dice])
        got = resolved(
            cortex_slots.ACTIONS["roll"],
            slots_request(entries, difficulty=difficulty),
            ranges,
            lambda o: (o["total"], int(o["effect_level"][1:]), o["botch"], o["success"]),
        )
        assert projected(got, 3) == nonzero(slots_odds.slots_outcomes(dice))
        rolls = sum(got.values())
        wins = sum(n for k, n in got.items() if k[3])
        assert Fraction(wins, rolls) == slots_odds.slots_success_chance(dice, difficulty)
        hero = resolved(
            cortex_slots.ACTIONS["roll"],
            slots_request(entries, difficulty=difficulty, big_hero="d4", plot_points=1),
            [*ranges, range(1, 5)],
            lambda o: (o["total"], int(o["effect_level"][1:]), o["success"]),
        )
        placed = slots_odds.slots_placed_outcomes(dice, big_hero="d4", difficulty=difficulty)
        assert projected(hero, 2) == nonzero(placed)
        wins = sum(n for k, n in hero.items() if k[2])
        assert Fraction(wins, rolls * 4) == slots_odds.slots_success_chance(
            dice, difficulty, big_hero=4
        )
    gm = ["d8", "d6", "d12+d4"]
    got = resolved(
        cortex_slots.ACTIONS["gm_pool"],
        {"pool": gm},
        [range(1, 9), range(1, 7), range(1, 13), range(1, 5)],
        lambda o: o["result"],
    )
    assert dict(got) == nonzero(slots_odds.gm_pool_totals(gm))


def test_personae_resolver_agrees():
    """PER-1 … PER-5 (`challenge`, before assistants) of rules/personae/."""
    from rules import personae

    bank = {"potential_threshold": 2, "criticals": 0}
    cases = [
        ({"skill": 2, "attribute": 3}, {"reactor": {"skill": 1, "attribute": 4}}, (2, 3, 1, 4)),
        ({"skill": 1, "attribute": 2}, {"reactor": {"skill": 2, "attribute": 1}}, (1, 2, 2, 1)),
        ({"skill": 3, "attribute": 1}, {"difficulty": 9}, (3, 1, None, 9)),
    ]
    for actor, opposition, (n, a, m, b) in cases:
        request = {"actor": {**actor, **bank}, **opposition, "goal": "Win"}
        got = resolved(
            personae.ACTIONS["challenge"],
            request,
            [range(1, 11)] * (n + (m or 0)),
            lambda o: (o["dice_result"], o["criticals"]["banked"]),
        )
        rolls = 10 ** (n + (m or 0))
        expected = (
            personae_odds.challenge_odds(n, a, m, b, critical_cap=2)
            if m
            else personae_odds.number_odds(n, a, b, critical_cap=2)
        )
        for grade in ("clear", "glancing", "failure"):
            ways = sum(k for (g, _), k in got.items() if g == grade)
            assert Fraction(ways, rolls) == getattr(expected, grade)
        assert (
            Fraction(sum(c * k for (_, c), k in got.items()), rolls) == expected.expected_criticals
        )


def chains(action, request: dict, depth: int, key: Callable) -> tuple[Counter, Fraction]:
    """Resolve every face sequence of at most `depth` faces that makes a complete roll:
    (chance of each key, chance left to longer sequences)."""
    from rules.kit.actions import resolve
    from rules.kit.errors import FaceError

    found: Counter = Counter()

    def walk(prefix: list[int]) -> None:
        try:
            outcome = resolve(action, request, prefix)
        except FaceError:
            if len(prefix) < depth:
                for face in range(1, 11):
                    walk([*prefix, face])
            return
        found[key(outcome)] += Fraction(1, 10 ** len(prefix))

    walk([])
    return found, 1 - sum(found.values(), Fraction(0))


def test_unisystem_resolver_agrees():
    """UNI-1, UNI-3, UNI-6, UNI-7 (`task`) and UNI-5 (`resisted`) of rules/unisystem/."""
    from rules import unisystem

    task = {"kind": "simple_test", "attribute": 3, "modifier": -1}
    found, _ = chains(unisystem.ACTIONS["task"], task, 5, lambda o: (o["total"], o["levels"]))
    law = uni_odds.total_law(5)
    for (total, levels), chance in found.items():
        if -15 <= total <= 22:
            assert law.chance(total) == chance
            assert reference_levels(total) == levels
    side = {"kind": "simple_test", "attribute": 4}
    for request, exact in (
        (
            {"attacker": side, "defender": {"kind": "simple_test", "attribute": 5}},
            uni_odds.resisted_chances(8, 10),
        ),
        (
            {"attacker": {"score": 14}, "defender": side, "even_contest": False},
            uni_odds.resisted_odds(uni_odds.fixed_score(14), uni_odds.total_law(8)),
        ),
    ):
        found, missing = chains(unisystem.ACTIONS["resisted"], request, 4, lambda o: o["result"])
        for name, outcome in (
            ("attacker wins", "attacker_wins"),
            ("defender wins", "defender_wins"),
            ("tie", "tie"),
            ("both fail", "both_fail"),
        ):
            assert 0 <= getattr(exact, outcome) - found[name] <= missing
