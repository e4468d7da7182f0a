"""Unisystem's demo campaign. Malcolm's and Robin's Strength and Dexterity and the vampire
(an Adversary whose UNI-8 scores are Muscle 16, Combat 12, Brains 10) are seed 004's;
everything else is invented to fit the campaign."""

from __future__ import annotations

from ..kit.demo import DemoCampaign, ratings, sheet
from .sheet import ATTRIBUTES

DEMO = DemoCampaign(
    name="Unisystem: Sunnydale Nights",
    description=(
        "Monster hunters on the Hellmouth: Malcolm and Robin against the things in the dark."
    ),
    characters={"alice": ("Malcolm",), "bob": ("Robin",)},
    scene=("The old cemetery", "A vampire waits among the crypts."),
    sheets=(
        sheet(
            "alice",
            "Malcolm",
            {
                "attributes": ratings(ATTRIBUTES, (1, 2, 2, 4, 3, 3)),
                "skills": [
                    {"name": "Knowledge", "rating": 4},
                    {"name": "Occultism", "rating": 4},
                    {"name": "Computers", "rating": 3},
                    {"name": "Notice", "rating": 2},
                    {"name": "Acrobatics", "rating": 1},
                ],
                "qualities": [{"name": "Occult Library", "rating": 3}],
                "drawbacks": [
                    {"name": "Clown", "rating": -1, "notes": "Jokes at the worst moments."}
                ],
            },
            {"drama_points": 10, "life_points": 22, "max_life_points": 22},
            notes="The researcher. Once leapt between two buildings and does not talk about it.",
        ),
        sheet(
            "bob",
            "Robin",
            {
                "attributes": ratings(ATTRIBUTES, (4, 3, 3, 2, 3, 3)),
                "skills": [
                    {"name": "Gun Fu", "rating": 3},
                    {"name": "Kung Fu", "rating": 2},
                    {"name": "Crime", "rating": 2},
                    {"name": "Notice", "rating": 3},
                    {"name": "Driving", "rating": 2},
                ],
                "qualities": [{"name": "Police Officer", "rating": 2}],
                "drawbacks": [{"name": "Obligation (the Department)", "rating": -2}],
            },
            {"drama_points": 10, "life_points": 38, "max_life_points": 38},
            notes="A police officer who has wrestled a zombie and lost, once.",
        ),
        sheet(
            None,
            "Cemetery Vampire",
            {
                "attributes": ratings(ATTRIBUTES, (5, 4, 4, 2, 2, 2)),
                "skills": [
                    {"name": "Kung Fu", "rating": 2, "flags": {"combat": True}},
                    {"name": "Notice", "rating": 2, "flags": {"mental": True}},
                    {"name": "Occultism", "rating": 2, "flags": {"mental": True}},
                ],
            },
            {"life_points": 46, "max_life_points": 46},
            kind="npc",
            npc_kind="adversary",
            hidden=True,
            notes="Waits among the crypts. Grapples with Combat + 2 (14).",
        ),
    ),
)
