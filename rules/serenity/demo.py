"""Serenity Plus's demo campaign. The crew's Stylin's and Refinements are the ones seed
000 names (Fightin', Fixin', Finaglin'; War Veteran for Mal and Zoe, Mechanic for
Kaylee, Doctor for Simon); everything else is invented to fit the campaign."""

from __future__ import annotations

from ..kit.demo import DemoCampaign, DemoSheet, dice, fixed_dice, sheet
from .sheet import STRESS_TYPES


def _crew(
    owner, name, fightin, fixin, finaglin, refinement, stylin, values, aspects, assets, notes
) -> DemoSheet:
    return sheet(
        owner,
        name,
        {
            "stylins": dice(("Fightin'", fightin), ("Fixin'", fixin), ("Finaglin'", finaglin)),
            "refinements": [{"name": refinement[0], "die": refinement[1], "parent": stylin}],
            "values": dice(*values),
            "aspects": dice(*aspects),
            "resources": [],
            "assets": dice(*assets),
            "stress": fixed_dice(STRESS_TYPES),
            "complications": [],
        },
        {"plot_points": 1},
        notes=notes,
    )


DEMO = DemoCampaign(
    name="Serenity: Leveragin' the Black",
    description="Mal's crew takes a job that is never as simple as Badger says.",
    characters={"alice": ("Mal", "Kaylee"), "bob": ("Zoe", "Simon")},
    scene=("Badger's office", "A job offer, a double-cross, and a very nervous middleman."),
    sheets=(
        _crew(
            "alice",
            "Mal",
            "d10",
            "d6",
            "d8",
            ("War Veteran", "d8"),
            "Fightin'",
            [("Freedom", "d10"), ("Loyalty", "d8")],
            [("Browncoat to the bone", "d8")],
            [("Serenity", "d8"), ("Liberty Hammer pistol", "d6")],
            "Captain of Serenity. Fought at Serenity Valley.",
        ),
        _crew(
            "bob",
            "Zoe",
            "d12",
            "d6",
            "d6",
            ("War Veteran", "d10"),
            "Fightin'",
            [("Loyalty", "d10"), ("Duty", "d8")],
            [("Unflappable", "d8")],
            [("Mare's Leg carbine", "d8")],
            "First mate. Served with Mal in the war.",
        ),
        _crew(
            "alice",
            "Kaylee",
            "d4",
            "d12",
            "d8",
            ("Mechanic", "d10"),
            "Fixin'",
            [("Kindness", "d10"), ("Hope", "d8")],
            [("Sees the best in folk", "d6")],
            [("Toolkit", "d6")],
            "Ship's mechanic; talks to the engine and it listens.",
        ),
        _crew(
            "bob",
            "Simon",
            "d4",
            "d10",
            "d8",
            ("Doctor", "d12"),
            "Fixin'",
            [("Family", "d10"), ("Duty", "d8")],
            [("Core-world manners", "d6")],
            [("Medical bag", "d8")],
            "A trauma surgeon on the run with his sister.",
        ),
    ),
)
