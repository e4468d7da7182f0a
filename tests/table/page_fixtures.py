"""Shared setup for the table page tests: one campaign per system with a sheet to roll.

Imported by tests/table/test_page*.py and test_odds_fragment.py (named users per
role come from tests/conftest.py: gina the GM, pete the player, olive the
observer, oscar the outsider).
"""

from __future__ import annotations

import pytest

from campaigns import services
from campaigns.models import Membership, Role
from sheets.models import Trait
from sheets.services import create_sheet
from table.models import SceneState, SessionState


def trait(sheet, group, name, die=None, rating=None, **extra):
    return Trait.objects.create(
        sheet=sheet, group=group, name=name, die=die, rating=rating, **extra
    )


def set_rating(sheet, group, name, rating):
    Trait.objects.filter(sheet=sheet, group=group, name=name).update(rating=rating)
    return Trait.objects.get(sheet=sheet, group=group, name=name)


def build_sheet(campaign, owner, system: str, name: str = "Hero", kind: str = "pc"):
    """A sheet with enough traits to roll in `system`; returns (sheet, {name: trait})."""
    sheet = create_sheet(
        campaign,
        name=name,
        kind=kind,
        owner=owner if kind == "pc" else None,
        counters={"plot_points": 3, "drama_points": 2, "criticals": 0, "potential_threshold": 3},
    )
    t = {}
    if system == "serenity":
        t["fightin"] = trait(sheet, "stylins", "Fightin'", 10)
        t["finaglin"] = trait(sheet, "stylins", "Finaglin'", 6)
        t["veteran"] = trait(sheet, "refinements", "War Veteran", 8, parent=t["fightin"])
        t["liar"] = trait(sheet, "refinements", "Smooth Liar", 6, parent=t["finaglin"])
        t["loyalty"] = trait(sheet, "values", "Loyalty", 8)
        t["freedom"] = trait(sheet, "values", "Freedom", 6)
        t["pistol"] = trait(sheet, "assets", "Pistol", 12)
    elif system == "cortex_slots":
        t["agility"] = trait(sheet, "attributes", "Agility", 8)
        t["strength"] = trait(sheet, "attributes", "Strength", 6)
        t["marine"] = trait(sheet, "distinctions", "Ex-Marine", 8)
        t["loner"] = trait(sheet, "distinctions", "Loner", 6)
        t["shoot"] = trait(sheet, "skills", "Shoot", 12, plus_die=6)
        t["sneak"] = trait(sheet, "skills", "Sneak", 6)
        t["rifle"] = trait(sheet, "assets", "Sniper Rifle", 8)
        t["hero"] = trait(sheet, "big_hero", "Big Hero Die", 6)
    elif system == "smallville":
        Trait.objects.filter(sheet=sheet, group="values", name="Justice").update(die=8)
        Trait.objects.filter(sheet=sheet, group="values", name="Truth").update(die=6)
        t["justice"] = Trait.objects.get(sheet=sheet, group="values", name="Justice")
        t["truth"] = Trait.objects.get(sheet=sheet, group="values", name="Truth")
        t["lana"] = trait(sheet, "relationships", "Lana", 6)
        t["chloe"] = trait(sheet, "relationships", "Chloe", 8)
        t["speed"] = trait(sheet, "abilities", "Super-speed", 10)
        t["farm"] = trait(sheet, "distinctions", "Farm boy", 6)
        t["krypton"] = trait(sheet, "distinctions", "Kryptonian", 8, flags={"heritage": True})
        t["kent"] = trait(sheet, "locations", "Kent Farm", 6)
    elif system == "personae":
        t["might"] = trait(sheet, "attributes", "Might", rating=4)
        t["wits"] = trait(sheet, "attributes", "Wits", rating=2)
        t["sword"] = trait(sheet, "skills", "Swordplay", rating=3, link=t["might"])
        t["lore"] = trait(sheet, "skills", "Lore", rating=2, link=t["wits"])
    elif system == "unisystem":
        t["str"] = set_rating(sheet, "attributes", "Strength", 3)
        t["dex"] = set_rating(sheet, "attributes", "Dexterity", 4)
        t["per"] = set_rating(sheet, "attributes", "Perception", 2)
        t["gun"] = trait(sheet, "skills", "Gun Fu", rating=3)
        t["kung"] = trait(sheet, "skills", "Kung Fu", rating=2)
        t["nerves"] = trait(sheet, "qualities", "Nerves of Steel", rating=2)
    return sheet, t


def make_campaign(gm, player, observer, system: str, name: str = "Table test"):
    campaign = services.create_campaign(gm, name=name, description="", system=system)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=observer, role=Role.OBSERVER)
    return campaign


def start_scene(campaign, title="The scene"):
    scene = services.create_scene(campaign, title=title, description="")
    services.start_scene(campaign, scene.pk)
    return scene


def seed_scene_asset(campaign, name: str, die: str, sheet) -> None:
    """A scene Asset as CTX-7 keeps it in the running scene's state."""
    row, _ = SceneState.objects.get_or_create(
        scene=campaign.active_scene, defaults={"campaign": campaign}
    )
    row.data.setdefault("assets", {})[name] = {"die": die, "sheet": sheet.pk, "seq": 0}
    row.save()


def seed_session_asset(campaign, name: str, die: str, sheet) -> None:
    """A session Asset as an SER-10 promotion leaves it in the session state."""
    row, _ = SessionState.objects.get_or_create(campaign_id=campaign.pk)
    row.data.setdefault("assets", {})[name] = {
        "die": die, "sheet": sheet.pk, "seq": 0, "scene": None,
    }  # fmt: skip
    row.save()


@pytest.fixture
def table(campaign, player):
    """The shared Serenity campaign with Pete's sheet and a running scene."""
    sheet, traits = build_sheet(campaign, player, "serenity", "Mal")
    start_scene(campaign)
    return campaign, sheet, traits


def ids(*traits) -> list[str]:
    return [str(t.pk) for t in traits]


@pytest.fixture(autouse=True)
def fresh_cards():
    """table.reading.rendering caches cards by event pk; test databases reuse pks."""
    from table.reading import rendering

    rendering.clear_cache()
    yield
    rendering.clear_cache()
