"""What the pages show of Unisystem besides its rules (`rules.kit.ui` says what each
declaration means): a difficulty is a modifier, not a number to beat (UNI-4), a
player's builder takes it from the table, the builder picks the kind of roll (UNI-1,
UNI-2), success is 9 (UNI-1), and the GM's opposition is a task."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import cards
from ..kit.ui import (
    FROM_TABLE,
    PEOPLE,
    POOL,
    FieldControl,
    GameUi,
    OppositionRoll,
    on_card,
)
from .odds import SUCCESS
from .rolls import DIFFICULTIES, ROLL_KINDS

SHEETS_OWN = FieldControl(FROM_TABLE)  # the table reads it from the sheet or the scene

# The builder's kinds of roll (the last one said shorter than the rules say it).
BUILDER_KINDS = (
    ("task", ROLL_KINDS["task"]),
    ("simple_test", ROLL_KINDS["simple_test"]),
    ("difficult_test", ROLL_KINDS["difficult_test"]),
    ("two_attributes", "Two attributes"),
)
# UNI-4: (key, name, default modifier) of each named difficulty.
DIFFICULTY_CHOICES = tuple((key, d.label, d.default) for key, d in DIFFICULTIES.items())

# UNI-5, UNI-13: each roller is a character, its ratings ticked from its sheet.
ACTING_ROLL = FieldControl(POOL, label="Your roll")
OTHER_ROLL = FieldControl(POOL, whose="picked", sheet_key="sheet_id", label="The other side's roll")
# UNI-5, UNI-8: either side of a resisted action may be a Guest Star's or Adversary's
# fixed Ability Score instead of a roll (the table reads it from their sheet).
ACTING_OR_SCORE = FieldControl(POOL, label="The acting side: your roll", score=True)
OTHER_OR_SCORE = FieldControl(
    POOL, whose="picked", sheet_key="sheet_id", label="The defending side's roll", score=True
)


def resist_with(form: Mapping[str, Any]) -> dict[str, Any]:
    """UNI-5: the resister's character (the form's sheet) resists the roll on card `seq`
    with an attribute and a skill (a task) or an attribute doubled (a Simple Test); the
    table reads the ratings and the roll's total."""
    kind = "task" if form.get("skill") else "simple_test"
    defender: dict[str, Any] = {
        "kind": kind,
        "attribute_name": str(form.get("attribute", "")).strip()[:40],
    }
    if kind == "task":
        defender["skill_name"] = str(form.get("skill", "")).strip()[:60]
    return on_card(form, {"defender": defender})


def resist_choices(
    action: str,
    request: Mapping[str, Any],
    outcome: Mapping[str, Any],
    traits: tuple[tuple[str, str, int | None], ...],
) -> list[tuple[str, dict[str, str]]]:
    """UNI-5: what a character may resist a task or test with in one tap: the roll's own
    attribute and skill when the character has that skill, then each of their skills
    with the roll's attribute, then each attribute doubled (a Simple Test)."""
    if action != "task":
        return []
    attributes = [name for group, name, _ in traits if group == "attributes"]
    skills = [name for group, name, rating in traits if group == "skills" and rating]
    if not attributes:
        return []
    wanted = str(request.get("attribute_name") or "").casefold()
    attribute = next((a for a in attributes if a.casefold() == wanted), attributes[0])
    their_skill = str(request.get("skill_name") or "").casefold()
    skills.sort(key=lambda name: name.casefold() != their_skill)
    choices = [
        (f"{attribute} + {skill}", {"attribute": attribute, "skill": skill}) for skill in skills
    ]
    choices += [(f"{name} doubled", {"attribute": name}) for name in attributes]
    return choices


def success_levels(value: Any, outcome: Mapping[str, Any]) -> str | None:
    """UNI-3: the success level's name, with how many levels it is."""
    name = cards.plain(value, outcome)
    levels = outcome.get("levels")
    if name is None or levels is None:
        return name
    return f"{name} ({levels} level{'s' if levels != 1 else ''})"


CARD = cards.CardReading(
    facts=(
        cards.RESULT,
        cards.TOTAL,
        cards.AGAINST,
        cards.DAMAGE,
        cards.MARGIN,
        cards.CardFact("level_name", "Success", success_levels),
        cards.OUTCOME,
    ),
)

UI = GameUi(
    difficulty_is_target=False,
    builder_from_table=True,
    difficulty_help="A player's task takes it (UNI-4); without one it is Challenging.",
    target_placeholder=str(SUCCESS),
    choices={"kinds": BUILDER_KINDS, "difficulties": DIFFICULTY_CHOICES},
    opposition=OppositionRoll(
        fields="rating",
        action="task",
        extra={"kind": "task"},
    ),
    card_moves={"resisted": resist_with},
    card_move_picks={"resisted": resist_choices},
    card=CARD,
    action_fields={
        # UNI-11: the running tally is the task's, kept by the table.
        "lengthy_task": {"accumulated": SHEETS_OWN, "rolls_made": SHEETS_OWN},
        "resisted": {"attacker": ACTING_OR_SCORE, "defender": OTHER_OR_SCORE},
        "chase": {"runner": ACTING_ROLL, "chaser": OTHER_ROLL},
        "jump": {"acrobatics": FieldControl(POOL, label="Acrobatics roll")},
        "fear_test": {"modifiers": FieldControl(POOL, only="modifiers", label="Qualities")},
        # UNI-10: the leader's task, and the others who roll the same one.
        "working_together": {
            "leader": FieldControl(POOL, label="The leader's roll"),
            "helpers": FieldControl(PEOPLE, by_id=True, like="leader", label="Who helps"),
            "participants": FieldControl(
                PEOPLE, by_id=True, like="leader", label="Who rolls (a long task)"
            ),
        },
    },
    # A player acts as a character, whose sheet gives these numbers (UNI-9, UNI-12..14);
    # the GM may also roll for no character, and then types them.
    player_fields={
        "heal": {"life_points": SHEETS_OWN, "max_life_points": SHEETS_OWN},
        "movement": {"dexterity": SHEETS_OWN, "constitution": SHEETS_OWN},
        "jump": {"acrobatics": FieldControl(POOL, label="Acrobatics roll"), "strength": SHEETS_OWN},
        "fear_test": {
            "modifiers": FieldControl(POOL, only="modifiers", label="Qualities"),
            "willpower": SHEETS_OWN,
        },
    },
    # UNI-8: a Guest Star's or Adversary's scores are computed on its sheet page.
    played_elsewhere={"ability_scores": "the sheet page of a Guest Star or Adversary"},
)
