"""Cortex with slots: odds queries (CTX-2, CTX-4, CTX-6, CTX-8): the Total as the app
proposes it, hitches and botches, with or without the Big Hero Die, from the odds
fragment's fields or from the pool the builder built."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..kit.cortex_odds import results
from ..kit.cortex_queries import finish, new_report, read_fields
from ..kit.dice import parse_die
from ..kit.odds import Distribution, product_distribution
from ..kit.odds_queries import OddsQueries, OddsReport, percent
from .odds import hitch_odds, slots_beats_gm_chance, slots_outcomes


def pool_report(
    pool: Sequence[object],
    *,
    big_hero: object = None,
    target: int | None = None,
    vs: Sequence[str] | None = None,
    title: str = "",
) -> OddsReport:
    """CTX-2: the Total's distribution; CTX-4: hitches, and a botch fails; CTX-6: the Big
    Hero Die; against a difficulty or a GM pool (`vs`)."""
    report = new_report(pool, title)
    totals, success = _totals(pool, big_hero, target)
    hitches = hitch_odds(pool)
    report.lines = [
        f"{percent(hitches.at_least_one)} chance of at least one hitch",
        f"{percent(hitches.three_or_more)} chance of a botch (3+ hitches)",
    ]
    chance = None
    if vs:
        chance = slots_beats_gm_chance(pool, vs, big_hero=big_hero)
    elif target is not None:
        chance = success
    return finish(
        report, totals, chance, target=target, vs=vs, what="total", beat_note=" (botches fail)"
    )


def _totals(
    pool: Sequence[object], big_hero: object, target: int | None
) -> tuple[Distribution[int], Fraction | None]:
    """CTX-2, CTX-4, CTX-6 from ONE pass of `slots_outcomes` (it is the costly part): the
    chart's totals as `slots_placed_outcomes` proposes them, and the chance of success as
    `slots_success_chance` counts it (the tests check both)."""
    outcomes = slots_outcomes(pool)
    hero = None
    if big_hero is not None:
        size = parse_die(big_hero).size
        hero = Distribution(dict.fromkeys(range(1, size + 1), 1), size)

    def placed(key, face):
        total, _, botch = key
        if target is not None and not botch and total > target:
            return total
        return total + face

    totals = results(outcomes) if hero is None else product_distribution(outcomes, hero, placed)
    success = None
    if target is not None:
        weights: dict[int, int] = {}
        for (total, _, botch), ways in outcomes.weights.items():
            if not botch:
                weights[total] = weights.get(total, 0) + ways
        unbotched = Distribution(weights, outcomes.total)
        if hero is not None:
            unbotched = product_distribution(unbotched, hero, lambda t, f: t + f)
        success = unbotched.chance_if(lambda total: total > target)
    return totals, success


def from_fields(data: Mapping[str, Any]) -> OddsReport:
    fields = read_fields(data)
    return pool_report(fields.pool, big_hero=fields.big_hero, target=fields.target, vs=fields.vs)


def from_request(request: Mapping[str, Any], target: int | None) -> OddsReport:
    """The difficulty the request carries wins over the table's number (CTX-2)."""
    pool = [dict(e) for e in request.get("pool", [])]
    return pool_report(
        pool,
        big_hero=request.get("big_hero"),
        target=request.get("difficulty", target),
        title="Odds for " + ", ".join(f"{e.get('trait', '')} {e['die']}".strip() for e in pool),
    )


ODDS = OddsQueries(from_fields=from_fields, from_request=from_request)
