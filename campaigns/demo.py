"""Demo campaigns, one per system, so a new user has something to play with at once."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from .models import Campaign, Membership, Role, Scene
from .signals import demo_loaded

DEMO_PASSWORD = "rollcall-demo"
DEMO_USERS = {
    "gm": "The GM",
    "alice": "Alice",
    "bob": "Bob",
}


@dataclass(frozen=True)
class DemoCampaign:
    system: str
    name: str
    description: str
    characters: dict[str, tuple[str, ...]]  # username -> character names
    scene: tuple[str, str]


DEMO_CAMPAIGNS = (
    DemoCampaign(
        "serenity",
        "Serenity: Leveragin' the Black",
        "Mal's crew takes a job that is never as simple as Badger says.",
        {"alice": ("Mal", "Kaylee"), "bob": ("Zoe", "Simon")},
        ("Badger's office", "A job offer, a double-cross, and a very nervous middleman."),
    ),
    DemoCampaign(
        "cortex_slots",
        "Cortex: The Brass Ring",
        "Pulp heroes race a rival syndicate to a lost airship over the Andes.",
        {"alice": ("Dr. Ada Quill",), "bob": ("Captain Rook Mallory",)},
        (
            "The hangar at dawn",
            "Someone has sabotaged the engine, and the rivals are already aloft.",
        ),
    ),
    DemoCampaign(
        "smallville",
        "Smallville: Lowell County",
        "Small-town secrets, a meteor shower, and friends who are not what they seem.",
        {"alice": ("Dana Park",), "bob": ("Wes Harlan",)},
        ("The Talon after hours", "An argument among friends, and a stranger at the window."),
    ),
    DemoCampaign(
        "personae",
        "Personae: Glass City",
        "Masked vigilantes and the people they were before the masks.",
        {"alice": ("Vesper",), "bob": ("Anvil",)},
        ("Rooftops of the Gilt Quarter", "A chase across the skyline after a stolen ledger."),
    ),
    DemoCampaign(
        "unisystem",
        "Unisystem: Sunnydale Nights",
        "Monster hunters on the Hellmouth: Malcolm and Robin against the things in the dark.",
        {"alice": ("Malcolm",), "bob": ("Robin",)},
        ("The old cemetery", "A vampire waits among the crypts."),
    ),
)


@transaction.atomic
def load_demo() -> list[Campaign]:
    """Create (or leave as they are) the demo users and campaigns; safe to run again."""
    User = get_user_model()
    users = {}
    for username, display in DEMO_USERS.items():
        user, created = User.objects.get_or_create(
            username=username, defaults={"display_name": display}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        users[username] = user
    campaigns = []
    for demo in DEMO_CAMPAIGNS:
        campaign, created = Campaign.objects.get_or_create(
            name=demo.name, defaults={"system": demo.system, "description": demo.description}
        )
        Membership.objects.get_or_create(
            campaign=campaign, user=users["gm"], defaults={"role": Role.GM}
        )
        for username in demo.characters:
            Membership.objects.get_or_create(
                campaign=campaign, user=users[username], defaults={"role": Role.PLAYER}
            )
        if created:
            title, description = demo.scene
            Scene.objects.create(campaign=campaign, title=title, description=description)
        campaigns.append(campaign)
    _load_demo_sheets(campaigns, users)
    return campaigns


def _load_demo_sheets(campaigns: list[Campaign], users: dict) -> None:
    """Fill the demo sheets: the sheets app, above this one, answers demo_loaded."""
    demo_loaded.send(
        DemoCampaign,
        campaigns={c.system: c for c in campaigns},
        users=users,
        demos=DEMO_CAMPAIGNS,
    )
