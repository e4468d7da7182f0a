"""Personae: every action with its request schema and a worked example."""

from __future__ import annotations

from typing import Any

from ..kit.actions import Action
from .challenges import (
    resolve_assist,
    resolve_challenge,
    resolve_concerted_effort,
    resolve_extend_challenge,
    resolve_give_critical,
    resolve_grant_bonus_dice,
    resolve_set_difficulty,
    resolve_spend_critical,
)
from .reading import (
    CRITICAL_TIMINGS,
    CRITICAL_USES,
    GRADES,
    MAX_BONUS_DICE,
    MAX_DIFFICULTY,
    MAX_GOAL,
    MAX_HELPERS,
    MAX_MODIFIER,
    MAX_NAME,
    MAX_NOTE,
)
from .sheet import MAX_ATTRIBUTE, MAX_CRITICALS, MAX_SKILL, MAX_THRESHOLD

# --- Schemas and actions ----------------------------------------------------------------------


def _integer(meaning: str, lo: int, hi: int, default: int | None = None) -> dict[str, Any]:
    field: dict[str, Any] = {"type": "integer", "min": lo, "max": hi, "meaning": meaning}
    field.update({"required": True} if default is None else {"required": False, "default": default})
    return field


def _text(meaning: str, max_len: int, *, required: bool = False) -> dict[str, Any]:
    return {"type": "string", "max_length": max_len, "required": required, "meaning": meaning}


BANK_LIMIT_SCHEMA: dict[str, Any] = {
    "type": "integer or null",
    "min": 0,
    "max": MAX_CRITICALS,
    "required": False,
    "default": None,
    "meaning": "the campaign's limit on criticals a character keeps (null: no limit); "
    "a character already holding more keeps them but gains no more. Accepted wherever a "
    "bank is given; it matters where criticals are gained (banking, receiving a gift)",
}


def _side_schema(role: str, meaning: str, *, banks: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": _text(f"the {role}'s name (default “{role.capitalize()}”)", MAX_NAME),
        "skill": _integer("skill rating: how many d10s to roll (0 still rolls one)", 0, MAX_SKILL),
        "skill_name": _text("the skill's name, for the roll card", MAX_NAME),
        "bonus_dice": _integer("circumstantial bonus dice", 0, MAX_BONUS_DICE, 0),
        "attribute": _integer("the attribute added to the compared die", 0, MAX_ATTRIBUTE),
        "attribute_name": _text("the attribute's name, for the roll card", MAX_NAME),
        "modifiers": _integer(
            "circumstantial modifiers, added with the attribute", -MAX_MODIFIER, MAX_MODIFIER, 0
        ),
    }
    if banks:
        fields["potential_threshold"] = _integer(
            "Potential Threshold: the most criticals one roll banks", 1, MAX_THRESHOLD
        )
        fields["criticals"] = _integer("criticals banked before the roll", 0, MAX_CRITICALS, 0)
        fields["bank_limit"] = BANK_LIMIT_SCHEMA
    return {"type": "object", "required": True, "meaning": meaning, "fields": fields}


OPPOSITION_SCHEMA: dict[str, Any] = {
    "reactor": {
        **_side_schema("reactor", "the side responding; give this or difficulty", banks=False),
        "required": False,
    },
    "difficulty": {
        **_integer("a fixed number to beat instead of a reactor", 1, MAX_DIFFICULTY),
        "required": False,
    },
}

PLAN_SCHEMA: dict[str, Any] = {
    "goal": _text("the stated goal: what happens on a success", MAX_GOAL, required=True),
    "extended": {
        "type": "boolean or null",
        "required": False,
        "default": None,
        "meaning": "whether the challenge is extended; null until the actor says",
    },
    "assistants": {
        "type": "list of strings",
        "max_length": MAX_HELPERS,
        "required": False,
        "default": [],
        "meaning": "names of characters assisting; each steers the result one step",
    },
    "spend_critical": {
        "type": "choice",
        "choices": list(CRITICAL_TIMINGS),
        "required": False,
        "default": "no",
        "meaning": "before_roll: a critical buys a success with no roll; if_failed: one steers "
        "a failure to a glancing success",
    },
}

CHALLENGE = Action(
    name="challenge",
    title="Challenge",
    resolver=resolve_challenge,
    rules=("PER-1", "PER-2", "PER-3", "PER-4", "PER-5", "PER-6", "PER-7", "PER-9"),
    schema={
        "actor": _side_schema("actor", "the side issuing the challenge", banks=True),
        **OPPOSITION_SCHEMA,
        **PLAN_SCHEMA,
    },
    example={
        "actor": {
            "name": "Mara",
            "skill": 3,
            "skill_name": "Swordplay",
            "attribute": 4,
            "attribute_name": "Might",
            "potential_threshold": 3,
            "criticals": 1,
            "bank_limit": 5,
        },
        "reactor": {"name": "Cultist", "skill": 2, "attribute": 3},
        "goal": "Strike the cultist with my sword so he sustains injury",
    },
    example_faces=(10, 3, 10, 8, 6),
)

CONCERTED_EFFORT = Action(
    name="concerted_effort",
    title="Concerted effort",
    resolver=resolve_concerted_effort,
    rules=("PER-8", "PER-1", "PER-2", "PER-3", "PER-4", "PER-5", "PER-6", "PER-7", "PER-9"),
    schema={
        "coordinator": _side_schema(
            "coordinator", "the character rolling for the group", banks=True
        ),
        "contributors": {
            "type": "list of objects",
            "required": True,
            "min_length": 1,
            "max_length": MAX_HELPERS,
            "meaning": "the other characters: each adds their rating in the skill",
            "fields": {
                "name": _text("the contributor's name", MAX_NAME, required=True),
                "rating": _integer("their rating in the skill (0 adds no dice)", 0, MAX_SKILL),
                "potential_threshold": _integer("their Potential Threshold", 1, MAX_THRESHOLD),
            },
        },
        "attack": {
            "type": "boolean",
            "required": False,
            "default": False,
            "meaning": "an attack: a success deals one hit per participant",
        },
        "used_this_scene": {
            "type": "boolean",
            "required": False,
            "default": False,
            "meaning": "whether the group already made a concerted effort this scene (refused)",
        },
        **OPPOSITION_SCHEMA,
        **PLAN_SCHEMA,
    },
    example={
        "coordinator": {
            "name": "Mara",
            "skill": 3,
            "attribute": 4,
            "potential_threshold": 3,
        },
        "contributors": [
            {"name": "Bo", "rating": 2, "potential_threshold": 3},
            {"name": "Cy", "rating": 1, "potential_threshold": 4},
        ],
        "reactor": {"name": "Cultist", "skill": 2, "attribute": 3},
        "attack": True,
        "goal": "Drive the cultists back from the shore",
    },
    example_faces=(7, 9, 2, 4, 1, 8, 5),
)

SPEND_CRITICAL = Action(
    name="spend_critical",
    title="Spend a critical",
    resolver=resolve_spend_critical,
    rules=("PER-6",),
    schema={
        "name": _text("the character spending", MAX_NAME),
        "potential_threshold": _integer("their Potential Threshold", 1, MAX_THRESHOLD),
        "criticals": _integer("criticals banked now", 0, MAX_CRITICALS, 0),
        "bank_limit": BANK_LIMIT_SCHEMA,
        "use": {
            "type": "choice",
            "choices": list(CRITICAL_USES),
            "required": True,
            "meaning": "automatic_success (before rolling), steer_failure (after ties are "
            "broken), trait_or_benefit",
        },
        "result": {
            "type": "choice",
            "choices": list(GRADES),
            "required": False,
            "meaning": "for steer_failure: the result being steered (must be failure)",
        },
        "note": _text("what it is spent on (required for trait_or_benefit)", MAX_GOAL),
    },
    example={
        "name": "Mara",
        "potential_threshold": 3,
        "criticals": 2,
        "use": "steer_failure",
        "result": "failure",
    },
    rolls=False,
)

_BANK_HOLDER_SCHEMA: dict[str, Any] = {
    "name": _text("the character's name", MAX_NAME, required=True),
    "potential_threshold": _integer("their Potential Threshold", 1, MAX_THRESHOLD),
    "criticals": _integer("criticals banked now", 0, MAX_CRITICALS, 0),
    "bank_limit": BANK_LIMIT_SCHEMA,
}

GIVE_CRITICAL = Action(
    name="give_critical",
    title="Give criticals",
    resolver=resolve_give_critical,
    rules=("PER-6",),
    schema={
        "giver": {"type": "object", "required": True, "fields": _BANK_HOLDER_SCHEMA},
        "receiver": {"type": "object", "required": True, "fields": _BANK_HOLDER_SCHEMA},
        "count": _integer("how many criticals to give", 1, MAX_CRITICALS, 1),
    },
    example={
        "giver": {"name": "Mara", "potential_threshold": 3, "criticals": 2},
        "receiver": {"name": "Bo", "potential_threshold": 3, "criticals": 0, "bank_limit": 3},
    },
    rolls=False,
)

ASSIST = Action(
    name="assist",
    title="Assist",
    resolver=resolve_assist,
    rules=("PER-7",),
    schema={
        "primary_actor": _text("the character making the challenge", MAX_NAME, required=True),
        "assistants": {
            "type": "list of strings",
            "required": True,
            "min_length": 1,
            "max_length": MAX_HELPERS,
            "meaning": "names of the assistants",
        },
        "result": {
            "type": "choice",
            "choices": list(GRADES),
            "required": True,
            "meaning": "the primary actor's result before steering",
        },
    },
    example={"primary_actor": "Mara", "assistants": ["Bo"], "result": "glancing"},
    rolls=False,
)

EXTEND_CHALLENGE = Action(
    name="extend_challenge",
    title="Extend or end a challenge",
    resolver=resolve_extend_challenge,
    rules=("PER-9",),
    schema={
        "goal": _text("the goal the challenge was for", MAX_GOAL, required=True),
        "extended": {"type": "boolean", "required": True, "meaning": "whether it goes on"},
        "next_goal": _text("what the extended challenge aims for (when extended)", MAX_GOAL),
    },
    example={
        "goal": "Strike the cultist with my sword",
        "extended": True,
        "next_goal": "Talk him down by threatening to bring him to his knees",
    },
    rolls=False,
)

GRANT_BONUS_DICE = Action(
    name="grant_bonus_dice",
    title="Grant bonus dice",
    resolver=resolve_grant_bonus_dice,
    rules=("PER-1",),
    schema={
        "name": _text("the character granted the dice (the table fills it)", MAX_NAME),
        "dice": _integer(
            "bonus dice for the character's next challenge (0 withdraws a grant)",
            0,
            MAX_BONUS_DICE,
        ),
        "note": _text("what earned them, for the roll card", MAX_NOTE),
        "replaces": _integer(
            "an unused grant this one replaces (the table fills it)", 0, MAX_BONUS_DICE, 0
        ),
    },
    example={"name": "Ace", "dice": 2, "note": "the high ground"},
    rolls=False,
)

SET_DIFFICULTY = Action(
    name="set_difficulty",
    title="Set the difficulty",
    resolver=resolve_set_difficulty,
    rules=("PER-1",),
    schema={
        "difficulty": {
            **_integer(
                "the number a challenge against a fixed number must beat", 1, MAX_DIFFICULTY
            ),
            "required": False,
        },
        "clear": {
            "type": "boolean",
            "required": False,
            "default": False,
            "meaning": "clear the difficulty instead (give no difficulty then)",
        },
        "note": _text("what makes it hard, for the roll card", MAX_NOTE),
    },
    example={"difficulty": 12, "note": "the rope is frayed"},
    rolls=False,
)

ACTIONS: dict[str, Action] = {
    action.name: action
    for action in (
        CHALLENGE,
        CONCERTED_EFFORT,
        SPEND_CRITICAL,
        GIVE_CRITICAL,
        ASSIST,
        EXTEND_CHALLENGE,
        GRANT_BONUS_DICE,
        SET_DIFFICULTY,
    )
}
