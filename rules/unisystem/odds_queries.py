"""Unisystem's odds queries (UNI-1, UNI-3, UNI-5, UNI-6, UNI-7): the open-ended total,
success at 9 and its success levels, a resisted roll or a fixed Ability Score, from the
odds fragment's fields (kind, attribute, skill, second_attribute, modifier (the total
of all modifiers), target (default 9), or vs_modifier (a resisted roll) or vs_score (a
fixed Ability Score)) or from the builder's task."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.odds import chart_rows
from ..kit.odds_queries import Bar, OddsQueries, OddsReport, number, percent, text
from .odds import (
    SUCCESS,
    against_score,
    resisted_chances,
    success_level_odds,
    total_law,
)
from .rolls import parse_roll_spec

CHART_WINDOW = (-6, 30)


def modifier_of(request: Mapping[str, Any]) -> int:
    """UNI-1: everything added to the d10, as the rules read the request."""
    spec = parse_roll_spec(request)
    return sum(term.value for term in spec.terms)


def total_report(
    modifier: int,
    *,
    target: int = SUCCESS,
    vs_modifier: int | None = None,
    vs_score: int | None = None,
    title: str = "",
) -> OddsReport:
    """UNI-1, UNI-3, UNI-5, UNI-6, UNI-7: the open-ended total, success at 9 or a contest."""
    law = total_law(modifier)
    report = OddsReport(title=title or f"Odds for d10 {modifier:+d}")
    low, high = CHART_WINDOW
    low, high = min(low, modifier - 4), max(high, modifier + 16)
    rows = chart_rows(law.window(low, high), beyond=law.at_least(high + 1))
    first: int | None
    if vs_modifier is not None:
        resisted = resisted_chances(modifier, vs_modifier)
        report.chance = resisted.attacker_wins
        report.summary = f"{percent(resisted.attacker_wins)} to win against d10 {vs_modifier:+d}."
        report.lines = [
            f"Defender wins {percent(resisted.defender_wins)}",
            f"Both fail {percent(resisted.both_fail)}",
        ]
        first = None
    elif vs_score is not None:
        report.chance = against_score(modifier, vs_score, defending=False)
        report.summary = f"{percent(report.chance)} to beat an Ability Score of {vs_score}."
        target = max(target, vs_score + 1)
        first = target
    else:
        report.chance = law.at_least(target)
        report.summary = f"{percent(report.chance)} to reach {target}."
        levels = success_level_odds(modifier, up_to=5)
        report.lines = [
            f"{percent(p)} for {level} success level{'s' if level != 1 else ''}"
            for level, p in levels.chances.items()
            if level and p
        ]
        first = target
    reached = first or target
    report.bars = [Bar(row.value, row.chance, row.value >= reached) for row in rows]
    report.first_success = first
    report.target_label = f"{first}+" if first is not None else ""
    return report


def from_fields(data: Mapping[str, Any]) -> OddsReport:
    request: dict[str, Any] = {"kind": text(data, "kind") or "task"}
    for key in ("attribute", "skill", "second_attribute", "modifier"):
        value = number(data, key, -50, 50)
        if value is not None:
            request[key] = value
    if request["kind"] == "task":
        request.setdefault("skill", 0)
    modifier = modifier_of(request)
    return total_report(
        modifier,
        target=number(data, "target", -50, 100) or SUCCESS,
        vs_modifier=number(data, "vs_modifier", -100, 100),
        vs_score=number(data, "vs_score", -100, 100),
    )


def from_request(request: Mapping[str, Any], target: int | None) -> OddsReport:
    """A task against the table's number to beat, else 9 (UNI-1)."""
    modifier = modifier_of(request)
    return total_report(
        modifier,
        target=target if target is not None else SUCCESS,
        title=f"Odds for d10 {modifier:+d}",
    )


ODDS = OddsQueries(from_fields=from_fields, from_request=from_request)
