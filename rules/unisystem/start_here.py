"""Unisystem: the Start here page (seed 004; UNI-1, UNI-2, UNI-3, UNI-4, UNI-6, UNI-7)."""

from __future__ import annotations

from ..kit.starting import StartHere

START_HERE = StartHere(
    roll=(
        "One d10, plus an attribute, plus a skill (or the attribute again), plus the "
        "modifier the Director sets: 9 or more succeeds (UNI-1, UNI-2).",
        "The more you beat 9 by, the better: 9–10 is Adequate, 11–12 Decent, 13–14 Good, "
        "and so on up (UNI-3).",
        "A natural 10 rolls again and adds; a natural 1 rolls again and may take away "
        "(UNI-6, UNI-7).",
    ),
    gm_sets=(
        "The Director (the GM) sets the modifier, from Easy (+5) to Inhuman (−10), on "
        "the GM dashboard (Set the difficulty, UNI-4).",
        "Guest Stars and Adversaries do not roll: their Muscle, Combat and Brains scores "
        "are numbers the cast must beat (UNI-5, UNI-8).",
    ),
    first_scene=(
        "The Director gives the scene a title on the GM dashboard (New scene, then "
        "Create and start) and sets the scene: a cemetery at night, a library after "
        "hours.",
        "Something happens that needs a roll: a Perception and Notice task to spot "
        "trouble is the classic first one.",
    ),
    first_taps=(
        "Make your character: Sheets, then New sheet; rate the six attributes and add "
        "skills (a starting character has them).",
        "Open the table. Under My character, tap an attribute and a skill: the odds line "
        "says your chance of 9 or more.",
        "Press Roll. The card shows the d10 (and any reroll), the total and its success level.",
    ),
    rules=("UNI-1", "UNI-2", "UNI-3", "UNI-4", "UNI-6", "UNI-7"),
)
