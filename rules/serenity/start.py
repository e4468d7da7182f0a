"""Serenity Plus: what a sheet needs before its first roll (SER-1), and starter sheets."""

from __future__ import annotations

from ..kit.demo import dice
from ..kit.starting import Starter, rolled


def ready(traits) -> tuple[str, ...]:
    """SER-1: every pool has exactly one Stylin' die; the rest is optional."""
    if rolled(traits, "stylins"):
        return ()
    return ("a Stylin' with a die (how your character does things: Fightin', Fixin', …)",)


def _crew(fightin: str, fixin: str, finaglin: str, refinement, values, aspects, assets):
    return {
        "stylins": dice(("Fightin'", fightin), ("Fixin'", fixin), ("Finaglin'", finaglin)),
        "refinements": [{"name": refinement[0], "die": refinement[1], "parent": refinement[2]}],
        "values": dice(*values),
        "aspects": dice(*aspects),
        "assets": dice(*assets),
    }


# Crew archetypes in the spirit of seed 000 (a fighter, a mechanic, a talker: the
# Stylin's it names, a Refinement under one, Values, Aspects, Assets); the seed fixes
# no budget, so the dice are a starting point to edit.
STARTERS = (
    Starter(
        "soldier",
        "Old soldier",
        "Fought in the war and never stopped: Fightin' high, a War Veteran Refinement.",
        _crew(
            "d10",
            "d6",
            "d6",
            ("War Veteran", "d8", "Fightin'"),
            [("Loyalty", "d10"), ("Freedom", "d8")],
            [("Seen it all before", "d8")],
            [("Trusty pistol", "d6")],
        ),
    ),
    Starter(
        "mechanic",
        "Ship's mechanic",
        "Keeps the boat flying: Fixin' high, a Mechanic Refinement.",
        _crew(
            "d4",
            "d10",
            "d8",
            ("Mechanic", "d8", "Fixin'"),
            [("Kindness", "d10"), ("Hope", "d8")],
            [("Talks to engines", "d8")],
            [("Toolkit", "d6")],
        ),
    ),
    Starter(
        "grifter",
        "Smooth grifter",
        "Talks the crew into work and out of trouble: Finaglin' high, a Fast Talk Refinement.",
        _crew(
            "d6",
            "d4",
            "d10",
            ("Fast Talk", "d8", "Finaglin'"),
            [("Ambition", "d10"), ("Family", "d8")],
            [("Friends in every port", "d8")],
            [("Fancy hat", "d6")],
        ),
    ),
)
