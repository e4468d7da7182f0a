"""Serenity Plus: the Start here page (seed 000; SER-1, SER-2, SER-3, SER-4, SER-5,
SER-6, SER-7, SER-8)."""

from __future__ import annotations

from ..kit.starting import StartHere

START_HERE = StartHere(
    roll=(
        "One Stylin' die for how you do it (Fightin', Fixin', Finaglin'…), plus any "
        "Refinement filed under that Stylin' that fits, at most one Value die, and any "
        "Aspect, Resource or Asset that helps (SER-1).",
        "Roll them all and add the two highest dice that did not show 1: that is your "
        "result (SER-2). The highest die left over is your effect die: its size is how "
        "much you do (SER-4).",
        "Every 1 is set aside: the GM may turn it into a complication and give you a plot "
        "point for it (SER-3). A plot point adds one more rolled die to your result (SER-8).",
    ),
    gm_sets=(
        "The GM rolls the opposition's dice the same way, on the GM dashboard under Roll "
        "opposition: you must beat that result, and a tie fails (SER-5).",
        "For a fight or an argument the GM opens a contest: each side says what it wants "
        "and rolls in turn to beat the other's last result; the side that cannot takes "
        "stress from the other's effect die, or gives in (SER-6, SER-7).",
    ),
    first_scene=(
        "The GM gives the scene a title on the GM dashboard (New scene, then Create and "
        "start) and says where the crew is and what has gone wrong.",
        "Someone wants something from somebody who will not give it: that is the first "
        "roll. The GM rolls the opposition, and the player builds a pool to beat it.",
    ),
    first_taps=(
        "Make your character: Sheets, then New sheet; a starting character fills in a "
        "Stylin', a Refinement and a Value you can change.",
        "Open the table. Under My character, tap a Stylin', a Refinement under it and a "
        "Value: each die joins the pool, and the odds line says your chances.",
        "Press Roll. The card in the log shows each die, your result and effect die, and "
        "whether you beat the opposition.",
    ),
    rules=("SER-1", "SER-2", "SER-3", "SER-4", "SER-5", "SER-6", "SER-7", "SER-8"),
)
