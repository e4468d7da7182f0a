"""Personae's demo campaign, invented to fit it: masked vigilantes whose skills name their
attributes (PER-1), with criticals banked under their Potential Threshold (PER-6), and
the thief they chase, a GM character who rolls as the reactor (the GM's opposition)."""

from __future__ import annotations

from ..kit.demo import DemoCampaign, ratings, sheet

ATTRIBUTES = ("Might", "Finesse", "Wits", "Presence")

DEMO = DemoCampaign(
    name="Personae: Glass City",
    description="Masked vigilantes and the people they were before the masks.",
    characters={"alice": ("Vesper",), "bob": ("Anvil",)},
    scene=("Rooftops of the Gilt Quarter", "A chase across the skyline after a stolen ledger."),
    sheets=(
        sheet(
            "alice",
            "Vesper",
            {
                "attributes": ratings(ATTRIBUTES, (1, 4, 3, 2)),
                "skills": [
                    {"name": "Acrobatics", "rating": 4, "link": "Finesse"},
                    {"name": "Stealth", "rating": 3, "link": "Finesse"},
                    {"name": "Investigation", "rating": 2, "link": "Wits"},
                    {
                        "name": "Shadow-Step",
                        "rating": 2,
                        "link": "Wits",
                        "notes": "Preternatural: short blinks between shadows.",
                    },
                ],
            },
            {"potential_threshold": 3, "criticals": 1, "development": 2},
            notes="By day, a night-shift archivist at the Gilt Quarter library.",
        ),
        sheet(
            "bob",
            "Anvil",
            {
                "attributes": ratings(ATTRIBUTES, (4, 1, 2, 3)),
                "skills": [
                    {"name": "Brawling", "rating": 4, "link": "Might"},
                    {"name": "Intimidation", "rating": 3, "link": "Presence"},
                    {
                        "name": "Iron Skin",
                        "rating": 3,
                        "link": "Might",
                        "notes": "Preternatural toughness.",
                    },
                ],
            },
            {"potential_threshold": 4, "criticals": 0, "development": 1},
        ),
        sheet(
            None,
            "The Ledger Thief",
            {
                "attributes": ratings(ATTRIBUTES, (2, 4, 3, 2)),
                "skills": [
                    {"name": "Parkour", "rating": 4, "link": "Finesse"},
                    {"name": "Knife Work", "rating": 3, "link": "Finesse"},
                    {"name": "Misdirection", "rating": 3, "link": "Wits"},
                ],
            },
            {"potential_threshold": 3, "criticals": 1},
            kind="npc",
            notes="Runs the rooftops with the stolen ledger; the reactor of the chase.",
        ),
    ),
)
