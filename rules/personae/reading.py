"""Personae: reading a request's sides, banks of criticals, opposition and plan, each
field checked and every name claimed once, so the rules work on validated data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..kit.errors import InvalidRequest
from ..kit.requests import get_choice, get_int, get_list, get_str, require_mapping
from .sheet import MAX_ATTRIBUTE, MAX_CRITICALS, MAX_SKILL, MAX_THRESHOLD

DIE = 10

MAX_BONUS_DICE = 10
MAX_MODIFIER = 20
MAX_DIFFICULTY = 50
MAX_HELPERS = 11
MAX_NAME = 80
MAX_GOAL = 300
MAX_NOTE = 120

GRADES = ("failure", "glancing", "clear")
GRADE_TITLES = {"failure": "Failure", "glancing": "Glancing success", "clear": "Clear success"}
CRITICAL_TIMINGS = ("no", "before_roll", "if_failed")
CRITICAL_USES = ("automatic_success", "steer_failure", "trait_or_benefit")


# --- Reading requests -------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a challenge after validation: how many d10s, and what is added to a die."""

    name: str
    dice: int
    skill: int
    bonus_dice: int
    attribute: int
    modifiers: int
    skill_name: str
    attribute_name: str

    @property
    def bonus(self) -> int:
        return self.attribute + self.modifiers

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "skill": self.skill,
            "skill_name": self.skill_name,
            "bonus_dice": self.bonus_dice,
            "dice": self.dice,
            "attribute": self.attribute,
            "attribute_name": self.attribute_name,
            "modifiers": self.modifiers,
        }


@dataclass(frozen=True)
class Bank:
    """A character's banked criticals (PER-6), the Potential Threshold that caps what one
    roll banks (PER-4), and the campaign's bank limit on how many can be kept (None: none)."""

    criticals: int
    threshold: int
    limit: int | None = None

    @property
    def cap(self) -> int:
        """How many criticals can be kept: the bank limit, or what a sheet records."""
        return MAX_CRITICALS if self.limit is None else min(self.limit, MAX_CRITICALS)

    @property
    def room(self) -> int:
        """How many more can be kept; 0 for a character already holding more than the limit."""
        return max(0, self.cap - self.criticals)

    def summary(self) -> dict[str, Any]:
        return {"potential_threshold": self.threshold, "bank_limit": self.limit}


@dataclass(frozen=True)
class Opposition:
    """What the actor is compared against: a reactor's pool, or a fixed number."""

    reactor: Side | None
    difficulty: int | None

    @property
    def label(self) -> str:
        return self.reactor.name if self.reactor else f"difficulty {self.difficulty}"

    def totals(self, faces: list[int]) -> list[int]:
        """A fixed number is a single total with nothing behind it to yield to."""
        if self.reactor:
            return [face + self.reactor.bonus for face in faces]
        return [self.difficulty] if self.difficulty is not None else []


@dataclass(frozen=True)
class Plan:
    """What is settled before the dice: goal (PER-9), assistants (PER-7), critical use (PER-6)."""

    goal: str
    extended: bool | None
    assistants: tuple[str, ...]
    spend_critical: str


SIDE_FIELDS = (
    "name",
    "skill",
    "skill_name",
    "bonus_dice",
    "attribute",
    "attribute_name",
    "modifiers",
)
BANK_FIELDS = ("potential_threshold", "criticals", "bank_limit")
PLAN_FIELDS = ("goal", "extended", "assistants", "spend_critical")
BANK_HOLDER_FIELDS = ("name", *BANK_FIELDS)
OPPOSITION_FIELDS = ("reactor", "difficulty")


def read_fields(raw: object, allowed: tuple[str, ...], what: str) -> Mapping:
    """The mapping itself; unknown fields are refused so a misspelt option is never ignored."""
    data = require_mapping(raw, what)
    for key in data:
        if key not in allowed:
            raise InvalidRequest(
                f"the {what} has an unknown field {str(key)[:40]!r} "
                f"(it can have: {', '.join(allowed)})"
            )
    return data


def read_name(data: Mapping, key: str, what: str, default: str | None = None) -> str:
    """A trimmed name; a blank one falls back to `default`, or is refused when there is none."""
    text = get_str(data, key, default="", max_len=MAX_NAME, what=what).strip()
    if text:
        return text
    if default is None:
        raise InvalidRequest(f"{what} is required")
    return default


def claim_name(name: str, seen: set[str]) -> str:
    """Refuse a second use of a name in one roll: nobody helps twice or helps themself."""
    if name.casefold() in seen:
        raise InvalidRequest(f"{name} is already part of this roll and cannot be listed again")
    seen.add(name.casefold())
    return name


def read_names(data: Mapping, key: str, what: str, seen: set[str]) -> tuple[str, ...]:
    """Distinct helper names, none of them already taking part (`seen` grows as names are read)."""
    names = []
    for entry in get_list(data, key, default=[], max_len=MAX_HELPERS):
        if not isinstance(entry, str) or not entry.strip():
            raise InvalidRequest(f"each of the {what} must be named")
        if len(entry.strip()) > MAX_NAME:
            raise InvalidRequest(f"a name among the {what} is at most {MAX_NAME} characters")
        names.append(claim_name(entry.strip(), seen))
    return tuple(names)


def read_side(raw: object, role: str, extra_fields: tuple[str, ...] = ()) -> tuple[Side, Mapping]:
    """PER-1: a side rolls its skill's dice plus bonus dice (at least one) and adds the rest."""
    data = read_fields(raw, SIDE_FIELDS + extra_fields, role)
    name = read_name(data, "name", f"the {role}'s name", default=role.capitalize())
    skill = get_int(data, "skill", lo=0, hi=MAX_SKILL, what=f"{name}'s skill rating")
    bonus_dice = get_int(
        data, "bonus_dice", lo=0, hi=MAX_BONUS_DICE, default=0, what=f"{name}'s bonus dice"
    )
    side = Side(
        name=name,
        dice=max(1, skill + bonus_dice),
        skill=skill,
        bonus_dice=bonus_dice,
        attribute=get_int(data, "attribute", lo=0, hi=MAX_ATTRIBUTE, what=f"{name}'s attribute"),
        modifiers=get_int(
            data,
            "modifiers",
            lo=-MAX_MODIFIER,
            hi=MAX_MODIFIER,
            default=0,
            what=f"{name}'s modifiers",
        ),
        skill_name=get_str(
            data, "skill_name", default="", max_len=MAX_NAME, what="a skill name"
        ).strip(),
        attribute_name=get_str(
            data, "attribute_name", default="", max_len=MAX_NAME, what="an attribute name"
        ).strip(),
    )
    return side, data


def read_bank(data: Mapping, name: str) -> Bank:
    """PER-6: banked criticals, the Potential Threshold and the campaign's bank limit.

    Holding more criticals than the threshold (or the limit) is a legal state: the campaign
    decides how many are kept, so nobody is refused for what they already hold.
    """
    threshold = get_int(
        data, "potential_threshold", lo=1, hi=MAX_THRESHOLD, what=f"{name}'s Potential Threshold"
    )
    criticals = get_int(
        data, "criticals", lo=0, hi=MAX_CRITICALS, default=0, what=f"{name}'s banked criticals"
    )
    limit = None
    if data.get("bank_limit") is not None:
        limit = get_int(data, "bank_limit", lo=0, hi=MAX_CRITICALS, what=f"{name}'s bank limit")
    return Bank(criticals=criticals, threshold=threshold, limit=limit)


def read_opposition(data: Mapping) -> Opposition:
    """Either a reactor who rolls, or a fixed number to beat; exactly one of them."""
    if "reactor" in data and "difficulty" in data:
        raise InvalidRequest("give either a reactor who rolls or a fixed difficulty, not both")
    if "reactor" not in data and "difficulty" not in data:
        raise InvalidRequest("give a reactor who rolls, or a fixed difficulty to beat")
    if "difficulty" in data:
        return Opposition(None, get_int(data, "difficulty", lo=1, hi=MAX_DIFFICULTY))
    reactor, _ = read_side(data["reactor"], "reactor")
    return Opposition(reactor, None)


def _read_extended(data: Mapping) -> bool | None:
    value = data.get("extended")
    if value is not None and not isinstance(value, bool):
        raise InvalidRequest("extended must be true, false, or left out until the actor decides")
    return value


def read_goal(data: Mapping) -> str:
    """PER-9: the goal is stated before anyone rolls."""
    goal = get_str(data, "goal", default="", max_len=MAX_GOAL, what="the goal").strip()
    if not goal:
        raise InvalidRequest("state the goal first: what happens if the challenge succeeds")
    return goal


def read_plan(data: Mapping, spender: str, bank: Bank, seen: set[str]) -> Plan:
    """PER-6, PER-7, PER-9: everything declared before the dice are rolled."""
    spend = get_choice(data, "spend_critical", CRITICAL_TIMINGS, default="no")
    if spend != "no" and bank.criticals == 0:
        raise InvalidRequest(f"{spender} has no criticals banked to spend")
    return Plan(
        goal=read_goal(data),
        extended=_read_extended(data),
        assistants=read_names(data, "assistants", "assistants", seen),
        spend_critical=spend,
    )
