"""Ability Scores of Unisystem Guest Stars and Adversaries (UNI-8), with the GM's overrides.

The numbers come from the rules' own `ability_scores` action, fed from the
sheet: the six attributes, the skills flagged as combat skills and those
flagged as mental skills. A GM may type a score instead (the seed's "some
creatures have bonuses"); the sheet then shows both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.kit.actions import resolve
from rules.kit.errors import RulesError
from rules.registry import get_system
from rules.unisystem import rolls as unisystem_rolls
from rules.unisystem import sheet as unisystem_sheet
from rules.unisystem import situations as unisystem_situations

from .validation import SCORE_KEYS

ATTRIBUTE_KEYS = ("strength", "dexterity", "intelligence", "perception", "willpower")


@dataclass(frozen=True)
class Score:
    key: str
    name: str
    computed: int | None
    override: int | None
    value: int | None
    levels: int
    level_name: str
    acting: int | None
    defending: int | None


@dataclass(frozen=True)
class Scores:
    items: tuple[Score, ...]
    explanation: str
    error: str = ""

    def by_key(self) -> dict[str, Score]:
        return {s.key: s for s in self.items}


def request_from(traits: Iterable) -> dict:
    """The UNI-8 request for a sheet's traits."""
    attributes: dict[str, int] = {}
    combat: list[int] = []
    mental: list[int] = []
    for t in traits:
        if t.group == "attributes" and t.rating is not None:
            attributes[t.name.casefold()] = t.rating
        elif t.group == "skills" and t.rating is not None:
            flags = t.flags or {}
            if flags.get("combat"):
                combat.append(t.rating)
            if flags.get("mental"):
                mental.append(t.rating)
    request = {key: attributes.get(key, unisystem_sheet.ATTRIBUTE_MIN) for key in ATTRIBUTE_KEYS}
    request["combat_skills"] = combat[: unisystem_rolls.MAX_GROUP]
    request["mental_skills"] = mental[: unisystem_rolls.MAX_GROUP]
    return request


def compute(traits: Iterable) -> dict:
    """The rules' outcome for these traits (raises RulesError if they are out of range)."""
    return resolve(get_system("unisystem").action("ability_scores"), request_from(traits))


def for_traits(traits: Iterable, overrides: Mapping | None) -> Scores:
    overrides = overrides or {}
    try:
        outcome = compute(traits)
    except RulesError as error:
        outcome, problem = None, str(error)
    else:
        problem = ""
    items = []
    for key in SCORE_KEYS:
        computed = outcome["scores"][key]["score"] if outcome else None
        override = overrides.get(key)
        value = override if override is not None else computed
        levels = unisystem_rolls.success_levels(value) if value is not None else 0
        needs = unisystem_situations.score_needs(value) if value is not None else {}
        items.append(
            Score(
                key=key,
                name=key.title(),
                computed=computed,
                override=override,
                value=value,
                levels=levels,
                level_name=unisystem_rolls.level_name(levels),
                acting=needs.get("acting"),
                defending=needs.get("defending"),
            )
        )
    return Scores(tuple(items), outcome["explanation"] if outcome else "", problem)
