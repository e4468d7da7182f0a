"""Unisystem's character sheet: six attributes, skills, Qualities and Drawbacks, Drama
Points and Life Points."""

from __future__ import annotations

from ..kit.sheet import Counter, SheetTemplate, TraitGroup
from ..kit.starting import rating_of

ATTRIBUTES = ("Strength", "Dexterity", "Constitution", "Intelligence", "Perception", "Willpower")
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 30
SKILL_MAX = 15
NAMED_MODIFIER_LIMIT = 20
LIFE_POINTS_MIN, LIFE_POINTS_MAX = -99, 999
STARTING_DRAMA_POINTS = 10
LIFE_POINTS_RULE = "10 + 4 × (Strength + Constitution)"


def life_points(traits) -> int:
    """UNI-9's Life Points, worked out from the sheet: 10 + 4 × (Strength + Constitution),
    so an average human (2 and 2) has 26 (decisions.py: the seed gives no formula)."""
    strength = rating_of(traits, "attributes", "Strength", 2)
    constitution = rating_of(traits, "attributes", "Constitution", 2)
    return 10 + 4 * (strength + constitution)


# Skills that start out flagged when added by name (the GM can change them).
DEFAULT_SKILL_FLAGS = (
    ("getting medieval", "combat"),
    ("gun fu", "combat"),
    ("kung fu", "combat"),
    ("computers", "mental"),
    ("knowledge", "mental"),
    ("languages", "mental"),
    ("notice", "mental"),
    ("occultism", "mental"),
    ("science", "mental"),
    ("influence", "mental"),
)


SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            key="attributes",
            label="Attributes",
            kind="rating",
            min_rating=ATTRIBUTE_MIN,
            max_rating=ATTRIBUTE_MAX,
            default_rating=2,
            fixed_names=ATTRIBUTES,
            help="2 is an average human; supernatural beings go higher.",
        ),
        TraitGroup(
            key="skills",
            label="Skills",
            kind="rating",
            min_rating=0,
            max_rating=SKILL_MAX,
            default_rating=0,
            flags=("combat", "mental"),
            help=(
                "0 is unskilled: you may still try, at the GM's say-so. Mark combat and "
                "mental skills: a Guest Star's Combat and Brains scores average them (UNI-8)."
            ),
            default_flags=DEFAULT_SKILL_FLAGS,
        ),
        TraitGroup(
            key="qualities",
            label="Qualities",
            kind="rating",
            min_rating=-NAMED_MODIFIER_LIMIT,
            max_rating=NAMED_MODIFIER_LIMIT,
            default_rating=0,
            help="The rating is the modifier the Quality gives to the rolls it helps.",
        ),
        TraitGroup(
            key="drawbacks",
            label="Drawbacks",
            kind="rating",
            min_rating=-NAMED_MODIFIER_LIMIT,
            max_rating=NAMED_MODIFIER_LIMIT,
            default_rating=0,
            help="The rating is the modifier the Drawback gives to the rolls it hinders.",
        ),
    ),
    counters=(
        Counter(
            "drama_points",
            "Drama Points",
            0,
            99,
            STARTING_DRAMA_POINTS,
            f"spent for bonuses and luck; a new character starts with {STARTING_DRAMA_POINTS}",
            table_owned=True,
        ),
        Counter(
            "life_points",
            "Life Points",
            LIFE_POINTS_MIN,
            LIFE_POINTS_MAX,
            0,
            f"damage subtracts from these; healing adds back; they start at {LIFE_POINTS_RULE}",
            table_owned=True,  # UNI-9
            derived=life_points,
        ),
        Counter(
            "max_life_points",
            "Maximum Life Points",
            0,
            LIFE_POINTS_MAX,
            0,
            f"healing never goes past this: {LIFE_POINTS_RULE}",
            derived=life_points,
        ),
    ),
    npc_kinds=("guest_star", "adversary"),
)
