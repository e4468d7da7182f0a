"""Cortex with slots: every action with its request schema and a worked example."""

from __future__ import annotations

from ..kit.actions import Action
from .rolls import (
    MAX_DIFFICULTY,
    SLOT_TARGETS,
    SPEND_KINDS,
    resolve_gm_pool,
    resolve_resplit,
    resolve_roll,
)
from .sheet import MAX_ADVANCE_POINTS, MAX_PLOT_POINTS, NPC_KINDS, ROLLER_KINDS
from .spends import (
    RAISABLE_GROUPS,
    resolve_advance,
    resolve_bank_move,
    resolve_buy_hitch,
    resolve_spend,
)

# --------------------------------------------------------------------------- actions

_DIE = {
    "type": "object",
    "fields": {"die": "d4–d12 or d12+dN", "trait": "text ≤ 80", "group": "sheet group"},
}
_DIFFICULTY = {"type": "int or null", "min": 0, "max": MAX_DIFFICULTY}
_DIFFICULTY_BOTCH = {
    "type": "bool",
    "default": False,
    "meaning": "the GM's pool that set the difficulty botched: the roll succeeds unless it "
    "botched too (CTX-4); needs difficulty",
}
_ROLLED_DICE = {
    "type": "list",
    "meaning": "the 'dice' list of the roll's outcome, as returned (the roll's state)",
}
_PLOT_POINTS = {
    "type": "int",
    "min": 0,
    "max": MAX_PLOT_POINTS,
    "meaning": "the roller's plot points",
}

_EXAMPLE_POOL = [
    {"die": "d8", "trait": "Agility", "group": "attributes"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d10", "trait": "Shoot", "group": "skills"},
    {"die": "d8", "trait": "Sniper Rifle", "group": "assets"},
]
_EXAMPLE_ROLLED = [
    {"die": "d8", "trait": "Agility", "group": "attributes", "face": 6, "role": "effect"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions", "face": 2, "role": "bank"},
    {"die": "d10", "trait": "Shoot", "group": "skills", "face": 8, "role": "total"},
    {"die": "d8", "trait": "Sniper Rifle", "group": "assets", "face": 7, "role": "total"},
]
_EXAMPLE_HITCHED = [
    {"die": "d8", "trait": "Agility", "group": "attributes", "face": 5, "role": "total"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions", "face": 1, "role": "effect"},
    {"die": "d10", "trait": "Shoot", "group": "skills", "face": 9, "role": "total"},
]

ACTIONS: dict[str, Action] = {
    "roll": Action(
        name="roll",
        title="Roll a Cortex pool",
        resolver=resolve_roll,
        rules=("CTX-1", "CTX-2", "CTX-4", "CTX-5", "CTX-6", "CTX-8"),
        schema={
            "pool": {
                "type": "list",
                "max": 40,
                "items": _DIE,
                "meaning": "one Attribute, one Distinction, one or more Skills (d12+dN allowed), "
                "any Assets and Talents",
            },
            "roller_kind": {"type": "choice", "choices": list(ROLLER_KINDS), "default": "pc"},
            "big_hero": {"type": "die or null", "meaning": "the Big Hero Die; costs 1 plot point"},
            "plot_points": {**_PLOT_POINTS, "optional": True, "meaning": "needed with big_hero"},
            "difficulty": _DIFFICULTY,
            "difficulty_botch": {
                **_DIFFICULTY_BOTCH,
                "meaning": "with difficulty: the GM's pool rolled on its own botched (its "
                "automatic_failure); the roll succeeds unless it botches too (CTX-4)",
            },
            "difficulty_pool": {
                "type": "list of dice or null",
                "meaning": "a GM pool rolled now (instead of difficulty); its botch is an "
                "automatic failure of the opposition (CTX-4)",
            },
            "difficulty_kind": {
                "type": "choice",
                "choices": list(ROLLER_KINDS),
                "default": "plot against a pc, else pc",
            },
            "split": {
                "type": "object or null",
                "fields": {
                    "total": "two pool indices (0-based)",
                    "effect": "one pool index (0-based)",
                    "big_hero": "total or effect",
                },
                "meaning": "the player's own split; omitted: the proposed best split",
            },
        },
        example={"pool": _EXAMPLE_POOL, "difficulty": 11},
        example_faces=(6, 2, 8, 7),
    ),
    "gm_pool": Action(
        name="gm_pool",
        title="Roll a GM difficulty pool",
        resolver=resolve_gm_pool,
        rules=("CTX-1", "CTX-4", "CTX-5"),
        schema={
            "pool": {"type": "list", "min": 1, "max": 40, "items": _DIE},
            "roller_kind": {"type": "choice", "choices": list(NPC_KINDS), "default": "plot"},
        },
        example={"pool": ["d8", "d6", "d6"], "roller_kind": "boss"},
        example_faces=(5, 1, 4),
    ),
    "resplit": Action(
        name="resplit",
        title="Change the split",
        resolver=resolve_resplit,
        rules=("CTX-2", "CTX-4", "CTX-6", "CTX-8"),
        rolls=False,
        schema={
            "dice": _ROLLED_DICE,
            "split": {
                "type": "object",
                "fields": {
                    "total": "two numbers of dice in dice (0-based)",
                    "effect": "one number of a die in dice (0-based)",
                    "big_hero": "total or effect (omitted: the proposed slot)",
                },
                "meaning": "the player's new split; the Big Hero Die is placed by big_hero",
            },
            "difficulty": _DIFFICULTY,
            "difficulty_botch": _DIFFICULTY_BOTCH,
        },
        example={
            "dice": _EXAMPLE_ROLLED,
            "split": {"total": [0, 2], "effect": 3},
            "difficulty": 11,
        },
    ),
    "bank_move": Action(
        name="bank_move",
        title="Move a die from the Bank",
        resolver=resolve_bank_move,
        rules=("CTX-3", "CTX-7"),
        rolls=False,
        schema={
            "dice": _ROLLED_DICE,
            "index": {"type": "int", "meaning": "number of the banked die in dice (0-based)"},
            "to": {"type": "choice", "choices": list(SLOT_TARGETS)},
            "plot_points": _PLOT_POINTS,
            "difficulty": _DIFFICULTY,
            "difficulty_botch": _DIFFICULTY_BOTCH,
        },
        example={
            "dice": _EXAMPLE_ROLLED,
            "index": 1,
            "to": "total",
            "plot_points": 2,
            "difficulty": 16,
        },
    ),
    "buy_hitch": Action(
        name="buy_hitch",
        title="Buy a hitch",
        resolver=resolve_buy_hitch,
        rules=("CTX-4", "CTX-7"),
        rolls=False,
        schema={
            "buyer": {"type": "choice", "choices": ["gm", "players"]},
            "dice": _ROLLED_DICE,
            "index": {
                "type": "int",
                "meaning": "number of the hitch in dice (0-based; not with botch)",
            },
            "botch": {
                "type": "bool",
                "default": False,
                "meaning": "players buy a GM botch whole (at most 3 of its hitches are bought)",
            },
            "plot_points": _PLOT_POINTS,
            "scene": {"type": "text", "max": 80, "meaning": "scene marker for expiry"},
        },
        example={
            "buyer": "gm",
            "dice": _EXAMPLE_HITCHED,
            "index": 1,
            "plot_points": 1,
            "scene": "7",
        },
    ),
    "spend_plot_point": Action(
        name="spend_plot_point",
        title="Spend a plot point",
        resolver=resolve_spend,
        rules=("CTX-7",),
        rolls=False,
        schema={
            "kind": {"type": "choice", "choices": list(SPEND_KINDS)},
            "plot_points": _PLOT_POINTS,
            "description": {"type": "text", "max": 200, "for": "scene_change, stay_in_fight"},
            "target": {
                "type": "choice",
                "choices": ["difficulty", "complication"],
                "for": "opportunity",
            },
            "die": {
                "type": "die",
                "for": "opportunity, step_up_asset, activate_asset, big_hero_die",
            },
            "asset": {
                "type": "text",
                "max": 80,
                "for": "step_up_asset, activate_asset, scene_asset",
            },
            "to": {"type": "choice", "choices": list(SLOT_TARGETS), "for": "bank_die"},
        },
        example={"kind": "scene_asset", "plot_points": 2, "asset": "Cover of Smoke"},
    ),
    "advance": Action(
        name="advance",
        title="Advance",
        resolver=resolve_advance,
        rules=("CTX-9",),
        rolls=False,
        schema={
            "operation": {"type": "choice", "choices": ["award", "raise"]},
            "advance_points": {"type": "int", "min": 0, "max": MAX_ADVANCE_POINTS},
            "session_award": {"type": "int", "min": 1, "max": 9, "for": "award"},
            "milestone_points": {"type": "int", "min": 0, "max": 99, "for": "award"},
            "milestones": {"type": "int", "meaning": "running milestone record", "for": "award"},
            "group": {"type": "choice", "choices": list(RAISABLE_GROUPS), "for": "raise"},
            "trait": {"type": "text", "max": 80, "for": "raise"},
            "signature": {"type": "bool", "for": "raise an asset"},
            "from": {"type": "die", "meaning": "current die (d12+dN past d12)", "for": "raise"},
            "to": {"type": "die", "meaning": "one step up", "for": "raise"},
        },
        example={
            "operation": "raise",
            "advance_points": 40,
            "group": "skills",
            "trait": "Shoot",
            "from": "d6",
            "to": "d8",
        },
    ),
}
