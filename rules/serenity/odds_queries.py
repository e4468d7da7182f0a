"""Serenity Plus's odds queries (SER-2, SER-3, SER-5, SER-8, SER-10): a pool's result,
its complications and its extraordinary successes, from the odds fragment's fields or
from the pool the builder built (`rules.kit.odds_queries` says what a query returns)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..kit.cortex import EXTRAORDINARY_MARGIN
from ..kit.cortex_odds import serenity_outcomes
from ..kit.cortex_queries import Outcomes, plus_report, pool_title, read_fields
from ..kit.odds_queries import OddsQueries, OddsReport, percent
from .actions import build_pool
from .odds import chance_extraordinary


def pool_report(
    pool: Sequence[object],
    *,
    plot_points: int = 0,
    target: int | None = None,
    vs: Sequence[str] | None = None,
    title: str = "",
) -> OddsReport:
    """SER-2/SER-8: the result with `plot_points` more dice in it; SER-5 against a number
    or an opposing pool; SER-10: the chance of beating it by 5 or more."""
    return plus_report(
        pool,
        lambda dice: serenity_outcomes(dice, extra=plot_points),
        opposing=serenity_outcomes,
        target=target,
        vs=vs,
        title=title,
        extraordinary=_extraordinary,
    )


def _extraordinary(ours: Outcomes, theirs: Outcomes | None, target: int | None) -> str:
    if theirs is not None:
        return f"{percent(chance_extraordinary(ours, theirs))} chance of an extraordinary success"
    high = (target or 0) + EXTRAORDINARY_MARGIN
    chance = ours.chance_if(lambda key: key[0] >= high)
    return f"{percent(chance)} chance of an extraordinary success ({high}+)"


def from_fields(data: Mapping[str, Any]) -> OddsReport:
    fields = read_fields(data)
    return pool_report(
        fields.pool, plot_points=fields.plot_points, target=fields.target, vs=fields.vs
    )


def from_request(request: Mapping[str, Any], target: int | None) -> OddsReport:
    built = build_pool(request, gm=False)
    return pool_report(
        list(built.dice),
        plot_points=built.plot_points,
        target=target,
        title=pool_title(built.dice),
    )


ODDS = OddsQueries(from_fields=from_fields, from_request=from_request)
