"""Personae: the Start here page (seed 003; PER-1, PER-2, PER-3, PER-4, PER-5, PER-6)."""

from __future__ import annotations

from ..kit.starting import StartHere

START_HERE = StartHere(
    roll=(
        "Only d10s. A skill is how many dice you roll; its attribute is a number added to "
        "your highest die (PER-1).",
        "The actor and the reactor each roll their skill; the higher total wins. On a tie "
        "both yield to their next-highest die, and so on (PER-2). Winning at once is a "
        "clear success; winning by yielding is a glancing success, at a cost (PER-3).",
        "A natural 10 means you cannot fail outright, and banks a critical (PER-4); a "
        "critical spent before rolling is an automatic success (PER-6).",
    ),
    gm_sets=(
        "The GM plays the reactor: the opposition's skill and attribute, rolled on the GM "
        "dashboard (Roll opposition). A reactor's natural 10 makes the actor fail even on "
        "a tie (PER-5).",
        "The GM also says what a character's goal costs when the success is only glancing.",
    ),
    first_scene=(
        "The GM gives the scene a title on the GM dashboard (New scene, then Create and "
        "start) and says what stands in the way.",
        "A player states a goal and the skill they use; the GM names the reactor and its "
        "skill, and both roll.",
    ),
    first_taps=(
        "Make your character: Sheets, then New sheet; rate your attributes and add a "
        "skill linked to one of them (a starting character has both).",
        "Open the table. Under My character, tap the skill you use: its dice and its "
        "attribute join the pool.",
        "Press Roll. The card shows both sides' dice, every yield, and whether your "
        "success is clear or glancing.",
    ),
    rules=("PER-1", "PER-2", "PER-3", "PER-4", "PER-5", "PER-6"),
)
