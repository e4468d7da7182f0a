"""Cortex with slots: exact odds of the proposed split (CTX-2, CTX-4, CTX-6, CTX-8), from
the Cortex family's engine in `rules.kit.cortex_odds`, read where rules.md leaves room
as the actions read it:

- CTX-2: the odds are those of the app's proposed split: the two highest values
  in the Total, the largest die the Total does not need in the Effect slot. Bank
  moves (CTX-3) happen after the roll and are not in these odds.
- CTX-4: a botch (3+ hitches) fails whatever the total; a botch in the GM's pool
  does not change the difficulty it sets.
- CTX-6: the Big Hero Die stays outside the split; it joins the Total unless the
  Total already wins without it, so the roll succeeds when Total + its face beats
  the difficulty and the roll is no botch.
- CTX-8: when a d12+dN's d12 shows 1, the entry is a hitch, the d12 adds nothing,
  the plus die adds its face and lends its own size to the Effect slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import prod

from ..kit.cortex_odds import (
    BOTCH_HITCHES,
    TOTAL_DICE,
    OnesOdds,
    effect_levels,
    entry_kinds,
    ones_odds_of,
    padded,
    pool_dice,
    results,
    threshold_cases,
    unpack,
)
from ..kit.dice import Die, parse_die
from ..kit.errors import InvalidRequest
from ..kit.odds import Distribution, chance_to_beat, product_distribution

MIN_SLOTS_POOL = 3


def slots_outcomes(pool: Iterable[object]) -> Distribution[tuple[int, int, bool]]:
    """(total, effect level, botch) of the proposed split (CTX-2, CTX-4, CTX-8).

    Total: the two highest values (a 1 adds 0; a d12+dN adds both faces, only the
    plus die when the d12 hitched). Effect: the largest level among the entries the
    Total does not need; d4 when none. Botch: three or more hitches.
    """
    dice = pool_dice(pool, allow_compound=True, what="pool")
    if len(dice) < MIN_SLOTS_POOL:
        raise InvalidRequest(
            "a Cortex roll needs at least three dice, for the Total and Effect slots"
        )
    return _slots_distribution(dice)


def _slots_distribution(dice: Sequence[Die]) -> Distribution[tuple[int, int, bool]]:
    """The engine behind `slots_outcomes`; for fewer than three dice only the totals mean
    anything (a GM pool)."""
    rolls = prod(_entry_ways(die) for die in dice)
    width = rolls.bit_length() + 1
    hitch_base = max(len(dice), TOTAL_DICE) + 1
    kinds = padded(entry_kinds(dice), TOTAL_DICE)
    packed: dict[int, int] = {}
    for value, climbs in threshold_cases(kinds, TOTAL_DICE, width, hitch_base, hitches=True):
        for climb, level, ways in effect_levels(
            value, kinds, climbs, TOTAL_DICE, width, hitch_base
        ):
            shift = (TOTAL_DICE - climb.above) * value * hitch_base * width
            packed[level] = packed.get(level, 0) + (climb.sums * ways << shift)
    weights: dict[tuple[int, int, bool], int] = {}
    for level, poly in packed.items():
        for exponent, ways in unpack(poly, width).items():
            total, hitches = divmod(exponent, hitch_base)
            key = (total, level, hitches >= BOTCH_HITCHES)
            weights[key] = weights.get(key, 0) + ways
    return Distribution(weights, rolls)


def _entry_ways(die: Die) -> int:
    return die.size * (die.plus or 1)


def _big_hero(big_hero: object) -> Distribution[int] | None:
    if big_hero is None:
        return None
    die = big_hero if isinstance(big_hero, Die) else parse_die(big_hero)
    if die.plus is not None:
        raise InvalidRequest("the Big Hero Die is a single die, like d6")
    return Distribution(dict.fromkeys(range(1, die.size + 1), 1), die.size)


def slots_placed_outcomes(
    pool: Iterable[object], *, big_hero: object = None, difficulty: int | None = None
) -> Distribution[tuple[int, int]]:
    """(total, effect level) as the app proposes them, Big Hero Die included (CTX-6).

    The Big Hero Die (a 1 counts as 1, never a hitch) joins the Total, unless the
    Total already beats `difficulty` without it: then it joins the Effect slot and
    the larger size is the level (rules/cortex_slots/rolls.py proposes the same).
    """
    outcomes = slots_outcomes(pool)
    hero = _big_hero(big_hero)
    if hero is None:
        return outcomes.map(lambda key: key[:2])
    hero_size = max(hero.weights)

    def placed(key: tuple[int, int, bool], face: int) -> tuple[int, int]:
        total, level, botch = key
        if difficulty is not None and not botch and total > difficulty:
            return total, max(level, hero_size)
        return total + face, level

    return product_distribution(outcomes, hero, placed)


def _unbotched_totals(pool: Iterable[object], big_hero: object) -> Distribution[int]:
    """Totals of the rolls that are not botches (a partial distribution), the Big Hero
    Die added: with it the roll succeeds exactly when Total + its face beats the
    difficulty, wherever the app proposes to put it."""
    outcomes = slots_outcomes(pool)
    totals: dict[int, int] = {}
    for (total, _, botch), ways in outcomes.weights.items():
        if not botch:
            totals[total] = totals.get(total, 0) + ways
    unbotched = Distribution(totals, outcomes.total)
    hero = _big_hero(big_hero)
    if hero is None:
        return unbotched
    return product_distribution(unbotched, hero, lambda total, face: total + face)


def slots_success_chance(
    pool: Iterable[object], difficulty: int, *, big_hero: object = None
) -> Fraction:
    """CTX-2, CTX-4, CTX-6: P(total strictly greater than `difficulty` and no botch)."""
    return _unbotched_totals(pool, big_hero).chance_if(lambda total: total > difficulty)


def gm_pool_totals(gm_pool: Iterable[object]) -> Distribution[int]:
    """CTX-1: a GM pool's difficulty, its two highest values, botches included."""
    return results(_gm_pool_outcomes(gm_pool))


def _gm_pool_outcomes(gm_pool: Iterable[object]) -> Distribution:
    dice = pool_dice(gm_pool, allow_compound=True, what="GM pool")
    if not dice:
        raise InvalidRequest("the GM pool needs at least one die")
    return _slots_distribution(dice)


def slots_beats_gm_chance(
    pool: Iterable[object], gm_pool: Iterable[object], *, big_hero: object = None
) -> Fraction:
    """CTX-1, CTX-2, CTX-4: P(the player's roll, not a botch, beats the GM pool).

    A GM pool that botches is an automatic failure of the opposition (CTX-4, "the
    same works the other way round"), so then any roll that is not itself a botch
    succeeds, as rules/cortex_slots/rolls.py resolves it.
    """
    player = _unbotched_totals(pool, big_hero)
    gm = _gm_pool_outcomes(gm_pool)
    standing: dict[int, int] = {}
    gm_botches = 0
    for (total, _, botch), ways in gm.weights.items():
        if botch:
            gm_botches += ways
        else:
            standing[total] = standing.get(total, 0) + ways
    beats_standing = chance_to_beat(player, Distribution(standing, gm.total))
    player_unbotched = Fraction(sum(player.weights.values()), player.total)
    return beats_standing + player_unbotched * Fraction(gm_botches, gm.total)


def hitch_odds(pool: Iterable[object]) -> OnesOdds:
    """CTX-4: chance of a hitch, expected hitches, chance of a botch (`three_or_more`).

    Every die showing 1 is a hitch, a d12+dN's d12 included; its plus die and the
    Big Hero Die (CTX-6, not part of `pool`) never hitch.
    """
    return ones_odds_of(
        [Fraction(1, die.size) for die in pool_dice(pool, allow_compound=True, what="pool")]
    )


ODDS_DECISIONS: dict[str, list[str]] = {
    "CTX-2": [
        "Decision (odds): chances are those of the proposed split, the two highest values "
        "in the Total and the largest die the Total does not need in the Effect slot; Bank "
        "moves (CTX-3) come after the roll and are left out.",
    ],
    "CTX-4": [
        "Decision (odds): a player's botch fails whatever the total; a GM pool that "
        "botches is an automatic failure of the opposition, so any roll that is not "
        "itself a botch beats it.",
    ],
    "CTX-6": [
        "Decision (odds): the Big Hero Die stays outside the split and joins the Total "
        "unless the Total already wins, so a roll succeeds when Total plus its face beats "
        "the difficulty and the roll is no botch.",
    ],
    "CTX-8": [
        "Decision (odds): when a d12+dN's d12 shows 1 the entry is a hitch, the d12 adds "
        "nothing, and the plus die adds its face and gives the effect level.",
    ],
}
