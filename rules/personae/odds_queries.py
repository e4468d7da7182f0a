"""Personae's odds queries (PER-1 … PER-5): the grades of a challenge against a number or
a reactor, and the criticals it banks, from the odds fragment's fields (skill,
attribute, bonus_dice, modifiers, then difficulty, or vs_skill + vs_attribute
(+ vs_bonus_dice, vs_modifiers) for a reactor) or from the builder's challenge."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..kit.errors import RulesError
from ..kit.odds_queries import OddsQueries, OddsReport, bars, number, percent
from .odds import DIE, challenge_odds, number_odds


def highest_plus(dice: int, bonus: int) -> dict[int, Fraction]:
    """PER-1: the first comparison's total, the highest of n d10 plus the bonus."""
    n = max(dice, 1)
    return {face + bonus: Fraction(face**n - (face - 1) ** n, DIE**n) for face in range(1, DIE + 1)}


def challenge_report(
    skill: int,
    attribute: int,
    *,
    bonus_dice: int = 0,
    modifiers: int = 0,
    difficulty: int | None = None,
    reactor: tuple[int, int] | None = None,
    critical_room: int | None = None,
    title: str = "",
) -> OddsReport:
    """PER-1..PER-5: the grades' chances against a number or a reactor (dice, bonus)."""
    dice = max(skill, 1) + bonus_dice
    bonus = attribute + modifiers
    report = OddsReport(title=title or f"Odds for {dice}d10 + {bonus}")
    chances = highest_plus(dice, bonus)
    if reactor is not None:
        grades = challenge_odds(dice, bonus, reactor[0], reactor[1], critical_cap=critical_room)
        against = f"a reactor rolling {max(reactor[0], 1)}d10 + {reactor[1]}"
    elif difficulty is not None:
        grades = number_odds(dice, bonus, difficulty, critical_cap=critical_room)
        against = str(difficulty)
        report.first_success = difficulty + 1
        report.target_label = f"beat {difficulty}"
    else:
        report.summary = "Pick a difficulty or a reactor to see the chance of success."
        report.bars = bars(chances, lambda v: True)
        return report
    report.chance = grades.success
    report.summary = f"{percent(grades.success)} to succeed against {against}."
    report.lines = [
        f"Clear success {percent(grades.clear)}",
        f"Glancing success {percent(grades.glancing)}",
        f"Failure {percent(grades.failure)}",
        f"Criticals banked on average: {float(grades.expected_criticals):.2f}",
    ]
    beaten = difficulty
    report.bars = bars(chances, (lambda v: v > beaten) if beaten is not None else (lambda v: True))
    return report


def from_fields(data: Mapping[str, Any]) -> OddsReport:
    skill = number(data, "skill", 0, 10)
    attribute = number(data, "attribute", 0, 10)
    if skill is None or attribute is None:
        raise RulesError("give a skill (dice) and an attribute")
    vs_skill = number(data, "vs_skill", 0, 10)
    reactor = None
    if vs_skill is not None:
        reactor = (
            vs_skill + (number(data, "vs_bonus_dice", 0, 10) or 0),
            (number(data, "vs_attribute", 0, 10) or 0)
            + (number(data, "vs_modifiers", -20, 20) or 0),
        )
    return challenge_report(
        skill,
        attribute,
        bonus_dice=number(data, "bonus_dice", 0, 10) or 0,
        modifiers=number(data, "modifiers", -20, 20) or 0,
        difficulty=None if reactor else number(data, "difficulty", 1, 50),
        reactor=reactor,
    )


def from_request(request: Mapping[str, Any], target: int | None) -> OddsReport:
    """The builder's challenge carries its own difficulty (PER-1) and the room left in the
    bank for criticals (PER-6); the table's number is not used."""
    actor = request["actor"]
    room = actor["potential_threshold"] - actor.get("criticals", 0)
    return challenge_report(
        actor["skill"],
        actor["attribute"],
        bonus_dice=actor.get("bonus_dice", 0),
        modifiers=actor.get("modifiers", 0),
        difficulty=request.get("difficulty"),
        critical_room=room,
        title=f"Odds for {actor.get('skill_name', '')} + {actor.get('attribute_name', '')}",
    )


# The builder shows the chances while the goal is still missing (PER-9): it does not change them.
ODDS = OddsQueries(from_fields=from_fields, from_request=from_request, while_incomplete=True)
