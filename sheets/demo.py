"""Demo character sheets for the demo campaigns (campaigns.demo.load_demo calls this).

Every sheet is written in the import format and goes through the importer's
checks, so demo data can never hold something the form would refuse. Running
it again leaves existing sheets as they are (a player may have edited them).

Seeds: the Serenity crew's Stylin's and Refinements are the ones seed 000 names
(Fightin', Fixin', Finaglin'; War Veteran for Mal and Zoe, Mechanic for Kaylee,
Doctor for Simon); Malcolm's and Robin's Strength and Dexterity and the vampire
(an Adversary whose UNI-8 scores are Muscle 16, Combat 12, Brains 10) are seed
004's. Everything else is invented to fit each campaign.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .exchange import FORMAT, VERSION, check_document, import_sheet
from .models import Sheet


def _doc(system: str, name: str, traits: dict, counters: dict | None = None, **extra) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "system": system,
        "name": name,
        "kind": extra.pop("kind", "pc"),
        **extra,
        "counters": counters or {},
        "traits": traits,
    }


def _dice(*pairs: tuple[str, str], **parent) -> list[dict]:
    key, value = next(iter(parent.items())) if parent else (None, None)
    rows = []
    for name, die in pairs:
        row = {"name": name, "die": die}
        if key:
            row[key] = value
        rows.append(row)
    return rows


def _stress(**held: str) -> list[dict]:
    return [
        {"name": n, "die": held.get(n.lower())}
        for n in ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")
    ]


def _serenity() -> list[tuple[str | None, dict]]:
    def crew(name, fightin, fixin, finaglin, refinement, stylin, values, aspects, assets, notes):
        return _doc(
            "serenity",
            name,
            {
                "stylins": _dice(("Fightin'", fightin), ("Fixin'", fixin), ("Finaglin'", finaglin)),
                "refinements": [{"name": refinement[0], "die": refinement[1], "parent": stylin}],
                "values": _dice(*values),
                "aspects": _dice(*aspects),
                "resources": [],
                "assets": _dice(*assets),
                "stress": _stress(),
                "complications": [],
            },
            {"plot_points": 1},
            notes=notes,
        )

    return [
        (
            "alice",
            crew(
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
        ),
        (
            "bob",
            crew(
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
        ),
        (
            "alice",
            crew(
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
        ),
        (
            "bob",
            crew(
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
    ]


CORTEX_ATTRIBUTES = ("Agility", "Alertness", "Intelligence", "Strength", "Vitality", "Willpower")


def _cortex() -> list[tuple[str | None, dict]]:
    def attrs(*dice):
        return [{"name": n, "die": d} for n, d in zip(CORTEX_ATTRIBUTES, dice, strict=True)]

    return [
        (
            "alice",
            _doc(
                "cortex_slots",
                "Dr. Ada Quill",
                {
                    "attributes": attrs("d6", "d8", "d12", "d4", "d6", "d10"),
                    "distinctions": _dice(
                        ("Brilliant Archaeologist", "d8"), ("Too Curious by Half", "d8")
                    ),
                    "skills": _dice(
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
                    "talents": _dice(("Read Any Map", "d8")),
                    "conditions": [],
                    "big_hero": _dice(("Big Hero Die", "d6")),
                },
                {"plot_points": 2, "advance_points": 7, "milestones": 3},
                notes="Knows where the airship went down; does not know who else knows.",
            ),
        ),
        (
            "bob",
            _doc(
                "cortex_slots",
                "Captain Rook Mallory",
                {
                    "attributes": attrs("d10", "d8", "d6", "d8", "d10", "d6"),
                    "distinctions": _dice(
                        ("Ace of the Andes Run", "d8"), ("Owes Everyone Money", "d8")
                    ),
                    "skills": _dice(
                        ("Pilot", "d12+d4"), ("Fight", "d10"), ("Shoot", "d8"), ("Charm", "d6")
                    ),
                    "assets": [
                        {
                            "name": "The Kestrel (biplane)",
                            "die": "d10",
                            "flags": {"signature": True},
                        }
                    ],
                    "talents": _dice(("Barrel Roll", "d8")),
                    "conditions": _dice(("Hungover", "d6")),
                    "big_hero": [],
                },
                {"plot_points": 1, "advance_points": 4},
            ),
        ),
        (
            None,
            _doc(
                "cortex_slots",
                "Baron Anselm Vogt",
                {
                    "attributes": attrs("d8", "d10", "d10", "d6", "d8", "d12"),
                    "distinctions": _dice(("Syndicate Mastermind", "d10")),
                    "skills": _dice(("Scheme", "d12"), ("Shoot", "d8")),
                    "assets": _dice(("Zeppelin Nachtfalke", "d12")),
                },
                {"plot_points": 3},
                kind="npc",
                npc_kind="boss",
                hidden=True,
                notes="Already aloft. Wants the airship's engine, not its gold.",
            ),
        ),
        (
            None,
            _doc(
                "cortex_slots",
                "Syndicate Goons",
                {
                    "attributes": attrs("d6", "d6", "d4", "d8", "d6", "d4"),
                    "distinctions": _dice(("Paid by the Hour", "d6")),
                    "skills": _dice(("Fight", "d8"), ("Shoot", "d6")),
                },
                kind="npc",
                npc_kind="mob",
            ),
        ),
    ]


def _values(**dice: str) -> list[dict]:
    return [
        {"name": n, "die": dice.get(n.lower(), "d4")}
        for n in ("Duty", "Glory", "Justice", "Love", "Power", "Truth")
    ]


def _smallville() -> list[tuple[str | None, dict]]:
    return [
        (
            "alice",
            _doc(
                "smallville",
                "Dana Park",
                {
                    "values": _values(
                        truth="d10", love="d8", justice="d8", duty="d6", glory="d4", power="d4"
                    ),
                    "relationships": _dice(("Wes", "d8"), ("Mom", "d6"), ("Sheriff Boyd", "d4")),
                    "abilities": _dice(("Telekinesis", "d8"), ("Meteor Sense", "d6")),
                    "distinctions": [
                        {"name": "Meteor-Touched", "die": "d8", "flags": {"heritage": True}},
                        {"name": "Investigative Reporter", "die": "d6"},
                        {"name": "Stubborn", "die": "d6"},
                    ],
                    "limits": [{"name": "Migraines", "die": "d8", "link": "Telekinesis"}],
                    "locations": _dice(("The Torch Office", "d6")),
                    "extras": _dice(("Editor Ruiz", "d6")),
                    "stress": _stress(insecure="d6"),
                },
                {"plot_points": 1},
                notes="Edits the school paper; the meteor shower changed her.",
            ),
        ),
        (
            "bob",
            _doc(
                "smallville",
                "Wes Harlan",
                {
                    "values": _values(
                        duty="d10", love="d8", power="d6", justice="d6", glory="d4", truth="d4"
                    ),
                    "relationships": _dice(("Dana", "d8"), ("Dad", "d8")),
                    "abilities": _dice(("Super-Strength", "d10")),
                    "distinctions": [
                        {"name": "Farm Boy", "die": "d8"},
                        {"name": "Quarterback", "die": "d6"},
                    ],
                    "limits": [
                        {"name": "Green Rock Sickness", "die": "d10", "link": "Super-Strength"}
                    ],
                    "locations": _dice(("Harlan Farm", "d8")),
                    "extras": [],
                    "stress": _stress(),
                },
                {"plot_points": 2},
                notes="Hides what he can do, badly.",
            ),
        ),
    ]


PERSONAE_ATTRIBUTES = (("Might", 2), ("Finesse", 3), ("Wits", 2), ("Presence", 1))


def _personae() -> list[tuple[str | None, dict]]:
    def attrs(*ratings):
        return [
            {"name": n, "rating": r} for (n, _), r in zip(PERSONAE_ATTRIBUTES, ratings, strict=True)
        ]

    return [
        (
            "alice",
            _doc(
                "personae",
                "Vesper",
                {
                    "attributes": attrs(1, 4, 3, 2),
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
        ),
        (
            "bob",
            _doc(
                "personae",
                "Anvil",
                {
                    "attributes": attrs(4, 1, 2, 3),
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
        ),
    ]


def _attributes(
    strength, dexterity, constitution, intelligence, perception, willpower
) -> list[dict]:
    values = (strength, dexterity, constitution, intelligence, perception, willpower)
    names = ("Strength", "Dexterity", "Constitution", "Intelligence", "Perception", "Willpower")
    return [{"name": n, "rating": r} for n, r in zip(names, values, strict=True)]


def _unisystem() -> list[tuple[str | None, dict]]:
    return [
        (
            "alice",
            _doc(
                "unisystem",
                "Malcolm",
                {
                    "attributes": _attributes(1, 2, 2, 4, 3, 3),
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
                {"drama_points": 10, "life_points": 26, "max_life_points": 26},
                notes="The researcher. Once leapt between two buildings and does not talk about it.",
            ),
        ),
        (
            "bob",
            _doc(
                "unisystem",
                "Robin",
                {
                    "attributes": _attributes(4, 3, 3, 2, 3, 3),
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
        ),
        (
            None,
            _doc(
                "unisystem",
                "Cemetery Vampire",
                {
                    "attributes": _attributes(5, 4, 4, 2, 2, 2),
                    "skills": [
                        {"name": "Kung Fu", "rating": 2, "flags": {"combat": True}},
                        {"name": "Notice", "rating": 2, "flags": {"mental": True}},
                        {"name": "Occultism", "rating": 2, "flags": {"mental": True}},
                    ],
                },
                {"life_points": 52, "max_life_points": 52},
                kind="npc",
                npc_kind="adversary",
                hidden=True,
                notes="Waits among the crypts. Grapples with Combat + 2 (14).",
            ),
        ),
    ]


DEMO_SHEETS = {
    "serenity": _serenity,
    "cortex_slots": _cortex,
    "smallville": _smallville,
    "personae": _personae,
    "unisystem": _unisystem,
}


def demo_documents(system: str) -> list[tuple[str | None, dict]]:
    """(username of the player or None for the GM, import document) for a system's demo sheets."""
    return DEMO_SHEETS[system]()


def load_demo_sheets(
    campaigns_by_system: Mapping, users: Mapping, demo_campaigns: Iterable
) -> list[Sheet]:
    """Create each demo campaign's missing sheets; sheets that exist are left as they are."""
    created = []
    for demo in demo_campaigns:
        campaign = campaigns_by_system.get(demo.system)
        if campaign is None or demo.system not in DEMO_SHEETS:
            continue
        existing = set(Sheet.objects.filter(campaign=campaign).values_list("name", flat=True))
        players = {name: user for user, names in demo.characters.items() for name in names}
        for username, doc in demo_documents(demo.system):
            if doc["name"] in existing:
                continue
            clean = check_document(doc, campaign.system, may_import_npc=True)
            username = players.get(doc["name"], username)
            owner = users.get(username) if username else None
            created.append(import_sheet(campaign, clean, owner=owner))
    return created
