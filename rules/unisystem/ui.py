"""What the pages show of Unisystem besides its rules (`rules.kit.ui` says what each
declaration means): a difficulty is a modifier, not a number to beat (UNI-4), a
player's builder takes it from the table, the builder picks the kind of roll (UNI-1,
UNI-2), success is 9 (UNI-1), and the GM's opposition is a task."""

from __future__ import annotations

from ..kit.ui import PEOPLE, POOL, FieldControl, GameUi, OppositionRoll
from .odds import SUCCESS
from .rolls import DIFFICULTIES, ROLL_KINDS

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
    action_fields={
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
    # UNI-8: a Guest Star's or Adversary's scores are computed on its sheet page.
    played_elsewhere={"ability_scores": "the sheet page of a Guest Star or Adversary"},
)
