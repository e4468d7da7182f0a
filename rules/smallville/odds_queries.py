"""Smallville's odds queries (SMV-7, SMV-8, SMV-9): the main pool's result with the side
pool's highest die, its complications and the chance it fails outright, from the odds
fragment's fields or from the pool the builder built."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..kit.cortex_odds import OnesOdds
from ..kit.cortex_queries import plus_report, pool_title, read_fields
from ..kit.odds_queries import OddsQueries, OddsReport, percent
from .actions import build_pool
from .odds import smallville_outcomes


def pool_report(
    main: Sequence[object],
    side: Sequence[object] = (),
    *,
    plot_points: int = 0,
    target: int | None = None,
    vs: Sequence[str] | None = None,
    title: str = "",
) -> OddsReport:
    """SMV-8: the main pool's result plus the side pool's highest die (SMV-7), against a
    number or an opposing pool; SMV-9: every main die showing 1 fails outright."""
    return plus_report(
        main,
        lambda dice: smallville_outcomes(dice, side, extra=plot_points),
        opposing=smallville_outcomes,
        target=target,
        vs=vs,
        title=title,
        ones_notes=_all_ones,
    )


def _all_ones(ones: OnesOdds) -> list[str]:
    return [f"{percent(ones.all_ones)} chance every main die shows 1 (fails outright)"]


def from_fields(data: Mapping[str, Any]) -> OddsReport:
    fields = read_fields(data, side=True)
    return pool_report(
        fields.pool,
        fields.side or [],
        plot_points=fields.plot_points,
        target=fields.target,
        vs=fields.vs,
    )


def from_request(request: Mapping[str, Any], target: int | None) -> OddsReport:
    built = build_pool(request, watchtower=False)
    return pool_report(
        list(built.main),
        list(built.side),
        plot_points=built.plot_points,
        target=target,
        title=pool_title(built.main + built.side),
    )


ODDS = OddsQueries(from_fields=from_fields, from_request=from_request)
