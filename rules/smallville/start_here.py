"""Smallville: the Start here page (seed 002; SMV-1, SMV-3, SMV-7, SMV-8, SMV-9, SMV-10)."""

from __future__ import annotations

from ..kit.starting import StartHere

START_HERE = StartHere(
    roll=(
        "Every roll starts with one Value die (Duty, Glory, Justice, Love, Power or Truth) "
        "and one Relationship die, both free (SMV-1), and one Ability or Distinction die "
        "for free; more cost a plot point each (SMV-3).",
        "Locations and Extras roll beside the pool as a side pool (SMV-7). Your result is "
        "the two highest main dice that did not show 1, plus the highest side die (SMV-8).",
        "Main dice showing 1 are complications: the Watchtower may pay a plot point to add "
        "dice to her Trouble Pool (SMV-9).",
    ),
    gm_sets=(
        "The Watchtower (the GM) rolls the opposition on the GM dashboard (Roll "
        "opposition): you must beat that result.",
        "In a conflict the two sides roll in turn to beat each other; the side that cannot "
        "takes stress or gives in (SMV-10).",
    ),
    first_scene=(
        "The Watchtower gives the scene a title on the GM dashboard (New scene, then "
        "Create and start): who is there, and what does somebody want from somebody?",
        "The first roll is about a Relationship: a character pushes someone they care "
        "about, and the Watchtower rolls the other side.",
    ),
    first_taps=(
        "Make your character: Sheets, then New sheet; give a Value a die and add a "
        "Relationship (a starting character has both).",
        "Open the table. Under My character, tap a Value, a Relationship and an Ability "
        "or Distinction: the odds line says your chances.",
        "Press Roll. The card shows each die, which counted, and whether you beat the "
        "Watchtower's result.",
    ),
    rules=("SMV-1", "SMV-3", "SMV-7", "SMV-8", "SMV-9", "SMV-10"),
)
