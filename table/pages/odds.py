"""The odds fragment: exact chances for a pool or a contest, as a chart and a sentence.

GET /c/<id>/odds/?pool=d8,d6,d10&target=11 (or POST the same fields, or the pool
builder's fields with `sheet`) answers with table/_odds.html: an SVG chart of the
distribution with the target marked (table/pages/svg.py) and the chance of success in words.
The campaign's game answers the query (its ODDS, `rules.kit.odds_queries`): every
number comes from the rules' exact odds (Fractions), and which fields a game reads is
said in its package's `odds_queries`. This module only reads the request, asks the
game, and lays the report out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaigns.permissions import get_campaign_for_user
from rules.kit.errors import RulesError
from rules.kit.odds_queries import Bar, OddsReport
from rules.registry import get_system
from table.pages.svg import odds_chart, percent
from table.pools.builder import builder_for


@dataclass
class OddsView:
    """What _odds.html shows."""

    title: str = ""
    summary: str = ""
    chance: Fraction | None = None
    lines: list[str] = field(default_factory=list)
    chart: str = ""
    error: str = ""
    rows: list[Any] = field(default_factory=list)

    @property
    def percent(self) -> str:
        return "" if self.chance is None else percent(self.chance)


def _index(bars: list[Bar], first_success_value: int) -> float | None:
    for i, bar in enumerate(bars):
        if bar.value >= first_success_value:
            return float(i)
    return float(len(bars)) if bars else None


def laid_out(report: OddsReport) -> OddsView:
    """A game's report as the fragment shows it: the chart, the sentence, the lines."""
    first = report.first_success
    return OddsView(
        title=report.title,
        summary=report.summary,
        chance=report.chance,
        lines=list(report.lines),
        rows=list(report.bars),
        chart=odds_chart(
            report.bars,
            title=report.title,
            summary=report.summary,
            target_label=report.target_label,
            target_index=None if first is None else _index(report.bars, first),
        ),
    )


def compute(system: str, data: Mapping) -> OddsView:
    """The odds of the fragment's own fields, or why there are none."""
    try:
        return laid_out(get_system(system).odds.from_fields(data))
    except RulesError as error:
        return OddsView(error=sentence(str(error)))


def pool_odds(system: str, pool, target: int | None) -> OddsView:
    """The builder's odds (table/pool.py's Pool), against the scene's number, or why
    there are none yet."""
    if pool is None or pool.request is None:
        return OddsView(error="Pick dice to see the odds.")
    queries = get_system(system).odds
    if pool.errors and not queries.while_incomplete:
        # the builder's status already says what is wrong; saying it twice is noise
        return OddsView(error="The odds appear once the pool can be rolled.")
    try:
        return laid_out(queries.from_request(pool.request or {}, target))
    except (RulesError, KeyError) as error:
        return OddsView(error=sentence(str(error)))


def sentence(message: str) -> str:
    """Capitalise a rules message, but never a die name ("d7 is not a die size")."""
    if message[:1] == "d" and message[1:2].isdigit():
        return message
    return message[:1].upper() + message[1:]


@login_required
def odds_fragment(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """GET or POST: the odds of a pool or a contest, for any member; 404 for anyone else."""
    campaign, _ = get_campaign_for_user(request.user, campaign_id)
    data = request.POST if request.method == "POST" else request.GET
    if data.get("sheet"):  # the pool builder's own fields
        pool, target = builder_for(campaign, request.user, data)
        view = pool_odds(campaign.system, pool, target)
    else:
        view = compute(campaign.system, data)
    return render(request, "table/_odds.html", {"odds": view, "campaign": campaign})
