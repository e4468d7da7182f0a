"""Cortex with slots' demo campaign: pulp heroes, invented to fit it, with a d12+dN skill
each (CTX-8), a Signature Asset (CTX-9) and a Big Hero Die (CTX-6)."""

from __future__ import annotations

from ..kit.demo import DemoCampaign, dice, sheet

ATTRIBUTES = ("Agility", "Alertness", "Intelligence", "Strength", "Vitality", "Willpower")


def _attributes(*sizes: str) -> list[dict]:
    return [{"name": n, "die": d} for n, d in zip(ATTRIBUTES, sizes, strict=True)]


DEMO = DemoCampaign(
    name="Cortex: The Brass Ring",
    description="Pulp heroes race a rival syndicate to a lost airship over the Andes.",
    characters={"alice": ("Dr. Ada Quill",), "bob": ("Captain Rook Mallory",)},
    scene=(
        "The hangar at dawn",
        "Someone has sabotaged the engine, and the rivals are already aloft.",
    ),
    sheets=(
        sheet(
            "alice",
            "Dr. Ada Quill",
            {
                "attributes": _attributes("d6", "d8", "d12", "d4", "d6", "d10"),
                "distinctions": dice(
                    ("Brilliant Archaeologist", "d8"), ("Too Curious by Half", "d8")
                ),
                "skills": dice(
                    ("Languages", "d12+d6"),
                    ("Science", "d10"),
                    ("Notice", "d8"),
                    ("Pilot", "d4"),
                ),
                "assets": [
                    {
                        "name": "Grandfather's Journal",
                        "die": "d8",
                        "flags": {"signature": True},
                    },
                    {"name": "Brass Sextant", "die": "d6"},
                ],
                "talents": dice(("Read Any Map", "d8")),
                "conditions": [],
                "big_hero": dice(("Big Hero Die", "d6")),
            },
            {"plot_points": 2, "advance_points": 7, "milestones": 3},
            notes="Knows where the airship went down; does not know who else knows.",
        ),
        sheet(
            "bob",
            "Captain Rook Mallory",
            {
                "attributes": _attributes("d10", "d8", "d6", "d8", "d10", "d6"),
                "distinctions": dice(("Ace of the Andes Run", "d8"), ("Owes Everyone Money", "d8")),
                "skills": dice(
                    ("Pilot", "d12+d4"), ("Fight", "d10"), ("Shoot", "d8"), ("Charm", "d6")
                ),
                "assets": [
                    {
                        "name": "The Kestrel (biplane)",
                        "die": "d10",
                        "flags": {"signature": True},
                    }
                ],
                "talents": dice(("Barrel Roll", "d8")),
                "conditions": dice(("Hungover", "d6")),
                "big_hero": [],
            },
            {"plot_points": 1, "advance_points": 4},
        ),
        sheet(
            None,
            "Baron Anselm Vogt",
            {
                "attributes": _attributes("d8", "d10", "d10", "d6", "d8", "d12"),
                "distinctions": dice(("Syndicate Mastermind", "d10")),
                "skills": dice(("Scheme", "d12"), ("Shoot", "d8")),
                "assets": dice(("Zeppelin Nachtfalke", "d12")),
            },
            {"plot_points": 3},
            kind="npc",
            npc_kind="boss",
            hidden=True,
            notes="Already aloft. Wants the airship's engine, not its gold.",
        ),
        sheet(
            None,
            "Syndicate Goons",
            {
                "attributes": _attributes("d6", "d6", "d4", "d8", "d6", "d4"),
                "distinctions": dice(("Paid by the Hour", "d6")),
                "skills": dice(("Fight", "d8"), ("Shoot", "d6")),
            },
            kind="npc",
            npc_kind="mob",
        ),
    ),
)
