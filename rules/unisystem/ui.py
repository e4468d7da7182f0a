"""What the pages show of Unisystem besides its rules (`rules.kit.ui` says what each
declaration means): a difficulty is a modifier, not a number to beat (UNI-4), a
player's builder takes it from the table, the builder picks the kind of roll (UNI-1,
UNI-2), success is 9 (UNI-1), and the GM's opposition is a task."""

from __future__ import annotations

from ..kit.ui import GameUi, OppositionRoll
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
)
