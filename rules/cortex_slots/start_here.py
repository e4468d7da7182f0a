"""Cortex with slots: the Start here page (seed 001; CTX-1, CTX-2, CTX-3, CTX-4, CTX-7)."""

from __future__ import annotations

from ..kit.starting import StartHere

START_HERE = StartHere(
    roll=(
        "A pool takes at least one die each from your Attributes, Distinctions and Skills; "
        "more Skills, Assets or Talents that apply add more dice (CTX-1).",
        "After the roll, two dice go in the Total slot and one in the Effect slot; the "
        "rest wait in the Bank. Rollcall proposes the best split and you may change it "
        "before you confirm (CTX-2). The total must beat the difficulty; the Effect die's "
        "size is how much you do.",
        "Every 1 is a hitch: the GM may buy it, giving you a plot point; three or more are "
        "a botch (CTX-4). A plot point moves a banked die into a slot (CTX-3).",
    ),
    gm_sets=(
        "The GM sets the difficulty by rolling a GM pool on the GM dashboard (Roll "
        "opposition): its two highest dice that did not show 1 are the number to beat "
        "(CTX-1).",
        "Hitches the GM buys make the difficulty grow; plot points buy the rest (CTX-4, CTX-7).",
    ),
    first_scene=(
        "The GM gives the scene a title on the GM dashboard (New scene, then Create and "
        "start) and describes the danger in a line or two.",
        "The GM rolls the difficulty for the first thing that stands in the heroes' way; "
        "a player says what their character does and builds the pool for it.",
    ),
    first_taps=(
        "Make your character: Sheets, then New sheet; a starting character has an "
        "Attribute, a Distinction and a Skill ready to roll.",
        "Open the table. Under My character, tap one Attribute, one Distinction and one "
        "Skill: the odds line says your chances against the difficulty.",
        "Press Roll, then check the Total and Effect slots Rollcall proposes and confirm. "
        "The card says whether you beat the difficulty and by what effect.",
    ),
    rules=("CTX-1", "CTX-2", "CTX-3", "CTX-4", "CTX-7"),
)
