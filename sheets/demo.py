"""Demo character sheets for the demo campaigns, and `load_demo`, which makes the whole demo
(`manage.py load_demo` runs it).

Each game declares its demo campaign and sheets (its DEMO, `rules.kit.demo`). Every
sheet is written in the import format and goes through the importer's checks, so demo
data can never hold something the form would refuse; as in a GM's import, the values
the table keeps (plot points, Life Points, criticals, ...) are the declared ones.
Running it again leaves existing sheets as they are (a player may have edited them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db import transaction

from campaigns.demo import load_demo_campaigns, load_demo_users
from campaigns.models import Campaign
from rules.registry import get_system

from .exchange import FORMAT, VERSION, check_document, import_sheet
from .models import Sheet


@transaction.atomic
def load_demo() -> list[Campaign]:
    """Create (or leave as they are) the demo users, campaigns and sheets; safe to run again."""
    users = load_demo_users()
    campaigns = load_demo_campaigns(users)
    load_demo_sheets(campaigns, users)
    return campaigns


def demo_documents(system: str) -> list[tuple[str | None, dict]]:
    """(username of the player or None for the GM, import document) for a game's demo sheets."""
    demo = get_system(system).demo
    if demo is None:
        return []
    header = {"format": FORMAT, "version": VERSION, "system": system}
    return [(s.owner, {**header, **s.document}) for s in demo.sheets]


def load_demo_sheets(campaigns: Iterable[Campaign], users: Mapping) -> list[Sheet]:
    """Create each demo campaign's missing sheets; sheets that exist are left as they are."""
    created = []
    for campaign in campaigns:
        demo = get_system(campaign.system).demo
        if demo is None:
            continue
        existing = set(Sheet.objects.filter(campaign=campaign).values_list("name", flat=True))
        players = {name: user for user, names in demo.characters.items() for name in names}
        for username, doc in demo_documents(campaign.system):
            if doc["name"] in existing:
                continue
            # The GM's own sheets: the points, Life Points and criticals declared are
            # what the table starts with (a player's import would set them back).
            clean = check_document(
                doc, campaign.system, may_import_npc=True, keep_table_values=True
            )
            username = players.get(doc["name"], username)
            owner = users.get(username) if username else None
            created.append(import_sheet(campaign, clean, owner=owner))
    return created
