"""Smallville's demo campaign, invented to fit it: a Heritage Distinction (SMV-3), a Limit
linked to an Ability (SMV-5), Locations and Extras for the side pool (SMV-7)."""

from __future__ import annotations

from ..kit.demo import DemoCampaign, dice, fixed_dice, sheet
from .sheet import STRESS_TYPES, VALUES

DEMO = DemoCampaign(
    name="Smallville: Lowell County",
    description="Small-town secrets, a meteor shower, and friends who are not what they seem.",
    characters={"alice": ("Dana Park",), "bob": ("Wes Harlan",)},
    scene=("The Talon after hours", "An argument among friends, and a stranger at the window."),
    sheets=(
        sheet(
            "alice",
            "Dana Park",
            {
                "values": fixed_dice(
                    VALUES,
                    "d4",
                    truth="d10",
                    love="d8",
                    justice="d8",
                    duty="d6",
                    glory="d4",
                    power="d4",
                ),
                "relationships": dice(("Wes", "d8"), ("Mom", "d6"), ("Sheriff Boyd", "d4")),
                "abilities": dice(("Telekinesis", "d8"), ("Meteor Sense", "d6")),
                "distinctions": [
                    {"name": "Meteor-Touched", "die": "d8", "flags": {"heritage": True}},
                    {"name": "Investigative Reporter", "die": "d6"},
                    {"name": "Stubborn", "die": "d6"},
                ],
                "limits": [{"name": "Migraines", "die": "d8", "link": "Telekinesis"}],
                "locations": dice(("The Torch Office", "d6")),
                "extras": dice(("Editor Ruiz", "d6")),
                "stress": fixed_dice(STRESS_TYPES, insecure="d6"),
            },
            {"plot_points": 1},
            notes="Edits the school paper; the meteor shower changed her.",
        ),
        sheet(
            "bob",
            "Wes Harlan",
            {
                "values": fixed_dice(
                    VALUES,
                    "d4",
                    duty="d10",
                    love="d8",
                    power="d6",
                    justice="d6",
                    glory="d4",
                    truth="d4",
                ),
                "relationships": dice(("Dana", "d8"), ("Dad", "d8")),
                "abilities": dice(("Super-Strength", "d10")),
                "distinctions": [
                    {"name": "Farm Boy", "die": "d8"},
                    {"name": "Quarterback", "die": "d6"},
                ],
                "limits": [{"name": "Green Rock Sickness", "die": "d10", "link": "Super-Strength"}],
                "locations": dice(("Harlan Farm", "d8")),
                "extras": [],
                "stress": fixed_dice(STRESS_TYPES),
            },
            {"plot_points": 2},
            notes="Hides what he can do, badly.",
        ),
    ),
)
