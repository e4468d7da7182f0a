"""Ability Scores of Unisystem Guest Stars and Adversaries (UNI-8), with the GM's overrides.

The numbers come from the rules' own `ability_scores` action, fed from the sheet: the
six attributes, the skills flagged as combat skills and those flagged as mental
skills. A GM may type a score instead (the seed's "some creatures have bonuses"); the
sheet then shows both. Traits are any objects with group, name, rating and flags (the
sheets app's models, or plain records).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..kit.actions import resolve
from ..kit.errors import RulesError
from ..kit.ui import Score, Scores, SheetScores
from .actions import ACTIONS
from .rolls import MAX_GROUP, level_name, success_levels
from .sheet import ATTRIBUTE_MIN
from .situations import score_needs

ATTRIBUTE_KEYS = ("strength", "dexterity", "intelligence", "perception", "willpower")
SCORE_KEYS = ("muscle", "combat", "brains")


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
    request = {key: attributes.get(key, ATTRIBUTE_MIN) for key in ATTRIBUTE_KEYS}
    request["combat_skills"] = combat[:MAX_GROUP]
    request["mental_skills"] = mental[:MAX_GROUP]
    return request


def compute(traits: Iterable) -> dict:
    """The rules' outcome for these traits (raises RulesError if they are out of range)."""
    return resolve(ACTIONS["ability_scores"], request_from(traits))


def for_traits(traits: Iterable, overrides: Mapping | None) -> Scores:
    """UNI-8: each score as computed, as the GM overrode it, and what it means at the
    table (success levels, and what the cast needs against it)."""
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
        levels = success_levels(value) if value is not None else 0
        needs = score_needs(value) if value is not None else {}
        items.append(
            Score(
                key=key,
                name=key.title(),
                computed=computed,
                override=override,
                value=value,
                levels=levels,
                level_name=level_name(levels),
                acting=needs.get("acting"),
                defending=needs.get("defending"),
            )
        )
    return Scores(tuple(items), outcome["explanation"] if outcome else "", problem)


SCORES = SheetScores(
    npc_kinds=("guest_star", "adversary"),
    keys=SCORE_KEYS,
    groups=("attributes", "skills"),
    compute=for_traits,
    title="Ability Scores",
    holders="Guest Stars and Adversaries",
)
