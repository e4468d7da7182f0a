"""Unisystem: every action with its request schema (plain data for forms and docs) and a
worked example."""

from __future__ import annotations

from typing import Any

from ..kit.actions import Action
from .rolls import (
    DIFFICULTIES,
    MAX_GROUP,
    MAX_NAME_LENGTH,
    MAX_NAMED_MODIFIERS,
    MAX_NOTE_LENGTH,
    MODIFIER_LIMIT,
    ROLL_KINDS,
    resolve_resisted,
    resolve_task,
)
from .sheet import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_MIN,
    ATTRIBUTES,
    LIFE_POINTS_MAX,
    LIFE_POINTS_MIN,
    NAMED_MODIFIER_LIMIT,
    SKILL_MAX,
)
from .situations import (
    HORROR_RULES,
    SCORE_KEYS,
    resolve_ability_scores,
    resolve_chase,
    resolve_damage,
    resolve_fear_test,
    resolve_heal,
    resolve_jump,
    resolve_lengthy_task,
    resolve_movement,
    resolve_set_difficulty,
    resolve_working_together,
)

# ---------------------------------------------------------------------------
# Request schemas (plain data for forms and docs)


REQUIRED: Any = object()


def _field(field: dict[str, Any], default: Any) -> dict[str, Any]:
    """Mark a schema field required, or give its default (None: optional, no default).

    "required" is True, or a phrase saying when ("for a task").
    """
    return {**field, "required": True} if default is REQUIRED else {**field, "default": default}


def _int(help_text: str, lo: int, hi: int, default: Any = REQUIRED) -> dict[str, Any]:
    return _field({"type": "int", "min": lo, "max": hi, "help": help_text}, default)


def _bool(help_text: str) -> dict[str, Any]:
    return {"type": "bool", "default": False, "help": help_text}


def _text(help_text: str, max_length: int = MAX_NAME_LENGTH) -> dict[str, Any]:
    return {"type": "text", "max_length": max_length, "default": "", "help": help_text}


def _choice(help_text: str, choices: Any, default: Any = REQUIRED) -> dict[str, Any]:
    return _field({"type": "choice", "choices": list(choices), "help": help_text}, default)


MODIFIER_SCHEMA: dict[str, Any] = {
    "difficulty": {
        "type": "choice",
        "choices": list(DIFFICULTIES),
        "help": "UNI-4 preset, by key or name: "
        + "; ".join(f"{key}: {d.display}" for key, d in DIFFICULTIES.items()),
    },
    "difficulty_modifier": _int(
        "a value inside the chosen preset's range (default: the first value listed)",
        -MODIFIER_LIMIT,
        MODIFIER_LIMIT,
        None,
    ),
    "modifier": _int("any other modifier the GM sets", -MODIFIER_LIMIT, MODIFIER_LIMIT, 0),
    "modifiers": {
        "type": "list",
        "max_items": MAX_NAMED_MODIFIERS,
        "default": [],
        "help": "Qualities, Drawbacks, Drama Point bonuses and the like",
        "items": {
            "type": "object",
            "fields": {
                "name": {**_text("what gives it, e.g. Nerves of Steel"), "required": True},
                "value": _int("the modifier", -NAMED_MODIFIER_LIMIT, NAMED_MODIFIER_LIMIT),
            },
        },
    },
}

ROLL_SCHEMA: dict[str, Any] = {
    "name": _text("who rolls (shown on the roll card)"),
    "kind": _choice("; ".join(ROLL_KINDS.values()), ROLL_KINDS, "task"),
    "attribute": _int("the attribute's rating", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
    "attribute_name": {"type": "choice", "choices": list(ATTRIBUTES), "help": "which attribute"},
    "skill": {
        **_int("the skill's rating (task only); 0 is unskilled", 0, SKILL_MAX),
        "required": "for a task",
    },
    "skill_name": _text("which skill (task only)"),
    "second_attribute": {
        **_int("the other attribute (two attributes only)", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
        "required": "for two attributes",
    },
    "second_attribute_name": {
        "type": "choice",
        "choices": list(ATTRIBUTES),
        "help": "which other attribute",
    },
    "unskilled_penalty": _int(
        "penalty for trying at skill 0 (−1 to −5; down to −10 for complex work)", -10, 0, 0
    ),
    "complex": _bool("complex work: an unskilled success stops at 2 levels (Decent)"),
    **MODIFIER_SCHEMA,
}

ROLL_FIELD = {"type": "object", "fields": ROLL_SCHEMA}
SCORE_FIELD = {
    "type": "object",
    "fields": {
        "name": _text("who (a Guest Star or Adversary)"),
        "score": _int("the fixed Ability Score, situational bonuses included", 1, 100),
        "score_name": _text("Muscle, Combat, Brains …", 40),
    },
}
# UNI-5: a roll already on the table, resisted from its card (the table fills it in).
ROLLED_FIELD = {
    "type": "object",
    "fields": {
        "name": _text("who rolled it"),
        "total": _int("the roll's total", -1000, 1000),
        "rolled_on": _int("the roll card's number", 1, 10**9),
    },
}
SIDE_FIELD = {"type": "one_of", "options": [ROLL_FIELD, SCORE_FIELD, ROLLED_FIELD]}

LEVELS_FIELD = _int("success levels already worked out", 0, 500)


def _levels_or_total(total_key: str, help_text: str) -> dict[str, Any]:
    return {
        "success_levels": {**LEVELS_FIELD, "required": f"unless {total_key} is given"},
        total_key: {**_int(help_text, -1000, 1000), "required": "unless success_levels is given"},
    }


# ---------------------------------------------------------------------------
# The system

MALCOLM_LEAP = {
    "name": "Malcolm",
    "kind": "two_attributes",
    "attribute": 1,
    "attribute_name": "Strength",
    "second_attribute": 2,
    "second_attribute_name": "Dexterity",
    "modifier": -5,
}
ROBIN_AND_THE_ZOMBIE = {
    "attacker": {
        "name": "Robin",
        "kind": "simple_test",
        "attribute": 4,
        "attribute_name": "Strength",
    },
    "defender": {
        "name": "Zombie",
        "kind": "simple_test",
        "attribute": 5,
        "attribute_name": "Strength",
    },
}
TYPICAL_VAMPIRE = {
    "strength": 5,
    "dexterity": 4,
    "intelligence": 2,
    "perception": 2,
    "willpower": 2,
    "combat_skills": [2],
    "mental_skills": [2],
    "bonuses": [{"score": "combat", "name": "grapple", "value": 2}],
}

ACTIONS: dict[str, Action] = {
    action.name: action
    for action in (
        Action(
            name="task",
            title="Task or Test",
            resolver=resolve_task,
            rules=("UNI-1", "UNI-2", "UNI-3", "UNI-4", "UNI-6", "UNI-7"),
            schema=ROLL_SCHEMA,
            example=MALCOLM_LEAP,
            example_faces=(10, 10, 3),
        ),
        Action(
            name="resisted",
            title="Resisted action",
            resolver=resolve_resisted,
            rules=("UNI-5", "UNI-1", "UNI-3", "UNI-6", "UNI-7"),
            schema={
                "attacker": {**SIDE_FIELD, "help": "the side acting (rolls first)"},
                "defender": {**SIDE_FIELD, "help": "the side resisting (wins equal totals)"},
                "even_contest": _bool("nobody is defending: equal totals are a tie"),
            },
            example=ROBIN_AND_THE_ZOMBIE,
            example_faces=(1, 3, 7),
        ),
        Action(
            name="ability_scores",
            title="Ability Scores",
            resolver=resolve_ability_scores,
            rules=("UNI-8", "UNI-3", "UNI-5"),
            schema={
                **{
                    key: _int(key.title(), ATTRIBUTE_MIN, ATTRIBUTE_MAX)
                    for key in ("strength", "dexterity", "intelligence", "perception", "willpower")
                },
                "combat_skills": {
                    "type": "list",
                    "items": _int("a combat skill's rating", 0, SKILL_MAX),
                    "max_items": MAX_GROUP,
                    "default": [],
                    "help": "combat skills averaged (rounded down) into Combat",
                },
                "mental_skills": {
                    "type": "list",
                    "items": _int("a relevant skill's rating", 0, SKILL_MAX),
                    "max_items": MAX_GROUP,
                    "default": [],
                    "help": "relevant skills averaged (rounded down) into Brains",
                },
                "bonuses": {
                    "type": "list",
                    "max_items": MAX_NAMED_MODIFIERS,
                    "default": [],
                    "help": "situational scores, e.g. grapple = Combat + 2",
                    "items": {
                        "type": "object",
                        "fields": {
                            "score": _choice("which score it adds to", SCORE_KEYS),
                            "name": {**_text("what for, e.g. grapple"), "required": True},
                            "value": _int("the bonus", -NAMED_MODIFIER_LIMIT, NAMED_MODIFIER_LIMIT),
                        },
                    },
                },
            },
            example=TYPICAL_VAMPIRE,
            rolls=False,
        ),
        Action(
            name="damage",
            title="Damage",
            resolver=resolve_damage,
            rules=("UNI-9", "UNI-3"),
            schema={
                "base_damage": _int("the weapon's base damage", 0, 200),
                **_levels_or_total("attack_total", "the attack roll's total or Combat Score"),
                "life_points": _int(
                    "the target's current Life Points (optional)",
                    LIFE_POINTS_MIN,
                    LIFE_POINTS_MAX,
                    None,
                ),
            },
            example={"base_damage": 5, "attack_total": 17, "life_points": 26},
            rolls=False,
        ),
        Action(
            name="heal",
            title="Healing (Doctor)",
            resolver=resolve_heal,
            rules=("UNI-9", "UNI-3"),
            schema={
                **_levels_or_total("doctor_total", "the Doctor roll's total"),
                "life_points": _int("current Life Points", LIFE_POINTS_MIN, LIFE_POINTS_MAX),
                "max_life_points": _int(
                    "the most Life Points the character can have (optional)",
                    0,
                    LIFE_POINTS_MAX,
                    None,
                ),
            },
            example={"doctor_total": 13, "life_points": 10, "max_life_points": 26},
            rolls=False,
        ),
        Action(
            name="working_together",
            title="Working together",
            resolver=resolve_working_together,
            rules=("UNI-10", "UNI-11", "UNI-1", "UNI-3"),
            schema={
                "mode": _choice(
                    "long (levels add up) or short (a leader, helpers)", ("long", "short")
                ),
                "participants": {
                    "type": "list",
                    "items": ROLL_FIELD,
                    "max_items": MAX_GROUP,
                    "required": "for a long task",
                    "help": "everyone who rolls, in order",
                },
                "required_levels": _int("levels the long task needs (optional)", 1, 500, None),
                "levels_so_far": _int("levels a long task already has", 0, 500, 0),
                "leader": {**ROLL_FIELD, "required": "for a short task"},
                "helpers": {
                    "type": "list",
                    "items": ROLL_FIELD,
                    "max_items": MAX_GROUP - 1,
                    "required": "for a short task",
                    "help": "they roll first, in order: +1 per success level, −3 per failure",
                },
            },
            example={
                "mode": "short",
                "leader": {
                    "name": "Willow",
                    "attribute": 3,
                    "attribute_name": "Willpower",
                    "skill": 3,
                    "skill_name": "Occultism",
                    "difficulty": "very_difficult",
                },
                "helpers": [
                    {
                        "name": "Giles",
                        "attribute": 4,
                        "attribute_name": "Intelligence",
                        "skill": 4,
                        "skill_name": "Occultism",
                    },
                    {
                        "name": "Xander",
                        "attribute": 2,
                        "attribute_name": "Intelligence",
                        "skill": 0,
                        "skill_name": "Occultism",
                    },
                ],
            },
            example_faces=(6, 2, 9),
        ),
        Action(
            name="lengthy_task",
            title="Lengthy task",
            resolver=resolve_lengthy_task,
            rules=("UNI-11", "UNI-3"),
            schema={
                "required_levels": _int("success levels the task needs", 1, 500),
                "accumulated": _int("levels gathered so far", 0, 500, 0),
                "rolls_made": _int("rolls made so far", 0, 10000, 0),
                **_levels_or_total("total", "this roll's total"),
            },
            example={"required_levels": 8, "accumulated": 3, "rolls_made": 2, "total": 13},
            rolls=False,
        ),
        Action(
            name="fear_test",
            title="Fear Test",
            resolver=resolve_fear_test,
            rules=("UNI-12", "UNI-4", "UNI-6", "UNI-7"),
            schema={
                "name": _text("who is scared"),
                "willpower": _int("Willpower (doubled unless the horror rule says once)", 1, 30),
                "demonic_visage": _bool("a demonic visage: −1"),
                "attractiveness": _int(
                    "the creature's Attractiveness; a negative one gives half, toward zero",
                    -20,
                    20,
                    0,
                ),
                "splatter": _int(
                    "0 none; 1 some blood; 2 a murder victim; 3 R-rated gore; 4 cult carnage",
                    0,
                    4,
                    0,
                ),
                "sudden": _bool("sudden or unexpected: another −2"),
                "familiar": _bool("seen often enough (third or fourth encounter): no penalty"),
                "horror_rule": _choice(
                    "none; willpower_once (not doubled); double_penalties", HORROR_RULES, "none"
                ),
                "turns_panicking": _int(
                    "Turns spent running away: each eases the fear penalty by 1", 0, 20, 0
                ),
                **MODIFIER_SCHEMA,
            },
            example={"name": "Cordelia", "willpower": 2, "demonic_visage": True, "sudden": True},
            example_faces=(4,),
        ),
        Action(
            name="movement",
            title="Movement",
            resolver=resolve_movement,
            rules=("UNI-13",),
            schema={
                "dexterity": _int("Dexterity", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
                "constitution": _int("Constitution", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
            },
            example={"dexterity": 2, "constitution": 2},
            rolls=False,
        ),
        Action(
            name="chase",
            title="Chase (one Turn)",
            resolver=resolve_chase,
            rules=("UNI-13", "UNI-5"),
            schema={
                "lead": _int("the runner's lead now; to start, +1 per Turn of head start", 1, 4),
                "turn": _int("Turns played so far", 0, 1000, 0),
                "runner": {
                    **ROLL_FIELD,
                    "help": "Dexterity doubled, or Dexterity + Sports (rolls first)",
                },
                "chaser": {**ROLL_FIELD, "help": "Dexterity doubled, or Dexterity + Sports"},
            },
            example={
                "lead": 3,
                "runner": {
                    "name": "Dawn",
                    "kind": "simple_test",
                    "attribute": 2,
                    "attribute_name": "Dexterity",
                },
                "chaser": {
                    "name": "Vampire",
                    "kind": "simple_test",
                    "attribute": 4,
                    "attribute_name": "Dexterity",
                },
            },
            example_faces=(4, 8),
        ),
        Action(
            name="set_difficulty",
            title="Set the difficulty",
            resolver=resolve_set_difficulty,
            rules=("UNI-4",),
            schema={
                "difficulty": {
                    **MODIFIER_SCHEMA["difficulty"],
                    "required": "unless clear",
                },
                "difficulty_modifier": MODIFIER_SCHEMA["difficulty_modifier"],
                "clear": _bool("clear the difficulty instead (choose none then)"),
                "note": _text("what makes it hard, for the roll card", MAX_NOTE_LENGTH),
            },
            example={
                "difficulty": "very_difficult",
                "difficulty_modifier": -4,
                "note": "in the dark",
            },
            rolls=False,
        ),
        Action(
            name="jump",
            title="Jump",
            resolver=resolve_jump,
            rules=("UNI-14", "UNI-3"),
            schema={
                "strength": _int("Strength", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
                "jump": _choice("long (yards) or high (feet)", ("long", "high")),
                "running_start": _bool("a good running start doubles the table distance"),
                "acrobatics": {
                    **ROLL_FIELD,
                    "required": False,
                    "help": "a Dexterity + Acrobatics roll: +1 yard or foot per success level",
                },
                "combat_score": _int("or a fixed Combat Score instead of the roll", 1, 100, None),
            },
            example={
                "strength": 5,
                "jump": "long",
                "running_start": True,
                "acrobatics": {
                    "attribute": 4,
                    "attribute_name": "Dexterity",
                    "skill": 2,
                    "skill_name": "Acrobatics",
                },
            },
            example_faces=(5,),
        ),
    )
}
