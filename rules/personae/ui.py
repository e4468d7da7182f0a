"""What the pages show of Personae besides its rules (`rules.kit.ui` says what each
declaration means): skills are numbers of d10s, the panel shows criticals against the
Potential Threshold (PER-6), a player's builder takes the GM's difficulty and bonus
dice from the table (PER-1) and states its goal (PER-9), and the GM side rolls as a
reactor rather than from the dashboard."""

from __future__ import annotations

from ..kit.ui import CHARACTER, FROM_TABLE, PEOPLE, POOL, FieldControl, GameUi, OppositionRoll

# PER-6, PER-7, PER-8: banks and the reactor come from the sheets (the reactor is the
# form's other character); helpers are picked as characters.
FROM_THE_TABLE = FieldControl(FROM_TABLE)
ASSISTANTS = FieldControl(PEOPLE, label="Who assists")

UI = GameUi(
    panel_counters=("criticals", "potential_threshold"),
    builder_from_table=True,
    difficulty_help="A player's challenge without a reactor must beat it (PER-1).",
    target_field=False,
    against_group="skills",
    opposition=OppositionRoll(
        fields="rating",
        refusal=(
            "In Personae the GM side rolls as the reactor: roll for a GM character's sheet "
            "(under GM characters), or a player names it as the other side of a challenge."
        ),
    ),
    rating_labels={"skills": ("Dice for", "Dice (d10s)")},
    action_fields={
        "assist": {
            "primary_actor": FieldControl(CHARACTER, label="Who acts"),
            "assistants": ASSISTANTS,
        },
        "give_critical": {"giver": FROM_THE_TABLE, "receiver": FROM_THE_TABLE},
        "concerted_effort": {
            "coordinator": FieldControl(POOL, only="actor", label="The coordinator's roll"),
            "contributors": FieldControl(PEOPLE, by_id=True, label="Who contributes"),
            "reactor": FROM_THE_TABLE,
            "assistants": ASSISTANTS,
        },
    },
)
