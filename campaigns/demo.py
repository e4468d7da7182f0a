"""Demo users and one demo campaign per game that declares one (its DEMO, `rules.kit.demo`),
so a new user has something to play with at once. The sheets app fills them with
characters (sheets.demo.load_demo, which `manage.py load_demo` runs)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from rules.kit.demo import DemoCampaign
from rules.registry import SYSTEMS

from .models import Campaign, Membership, Role, Scene

DEMO_PASSWORD = "rollcall-demo"
DEMO_USERS = {
    "gm": "The GM",
    "alice": "Alice",
    "bob": "Bob",
}
DEMO_GM = "gm"


def demo_campaigns() -> list[tuple[str, DemoCampaign]]:
    """(game slug, its demo campaign) for every game that declares one, in registry order."""
    return [(slug, game.demo) for slug, game in SYSTEMS.items() if game.demo is not None]


def load_demo_users() -> dict:
    """The demo users by username, created with the demo password if missing."""
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
    return users


def load_demo_campaigns(users: dict) -> list[Campaign]:
    """Create (or leave as they are) the demo campaigns, their members and first scenes."""
    campaigns = []
    for slug, demo in demo_campaigns():
        campaign, created = Campaign.objects.get_or_create(
            name=demo.name, defaults={"system": slug, "description": demo.description}
        )
        Membership.objects.get_or_create(
            campaign=campaign, user=users[DEMO_GM], defaults={"role": Role.GM}
        )
        for username in demo.characters:
            Membership.objects.get_or_create(
                campaign=campaign, user=users[username], defaults={"role": Role.PLAYER}
            )
        if created:
            title, description = demo.scene
            Scene.objects.create(campaign=campaign, title=title, description=description)
        campaigns.append(campaign)
    return campaigns
