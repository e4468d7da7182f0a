"""Table fixtures: one campaign per system with a GM, a player (with a character),
a second player, an observer and an outsider, and dice that come up as a test says."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from campaigns import services
from campaigns.models import Campaign, Membership, Role
from sheets.models import Counter, Sheet, Trait
from table.live import broadcast
from table.writing import actions as table_actions


class QueuedFaces(random.Random):
    """A Random whose randint returns queued faces first (then falls back to a seed)."""

    def __init__(self) -> None:
        super().__init__(1234)
        self.queue: list[int] = []

    def randint(self, a: int, b: int) -> int:
        if self.queue:
            face = self.queue.pop(0)
            assert a <= face <= b, f"queued face {face} does not fit d{b}"
            return face
        return super().randint(a, b)


@pytest.fixture
def faces(monkeypatch):
    """faces.queue.extend([9, 4]) makes the next dice come up 9 then 4."""
    rng = QueuedFaces()
    monkeypatch.setattr(table_actions, "RNG", rng)
    return rng


def add_traits(sheet: Sheet, spec: dict[str, Iterable]) -> None:
    """spec: group -> entries (name, die) / (name, rating) / dicts with extra fields."""
    by_name: dict[tuple[str, str], Trait] = {}
    for group, entries in spec.items():
        for position, entry in enumerate(entries):
            fields = (
                dict(entry) if isinstance(entry, dict) else {"name": entry[0], "value": entry[1]}
            )
            value = fields.pop("value", None)
            parent = fields.pop("parent", None)
            link = fields.pop("link", None)
            if isinstance(value, str):
                base, _, plus = value.partition("+")
                fields["die"] = int(base.strip("d"))
                fields["plus_die"] = int(plus.strip("d")) if plus else None
            elif isinstance(value, int):
                fields["rating"] = value
            trait = Trait.objects.create(sheet=sheet, group=group, position=position, **fields)
            if parent:
                trait.parent = by_name[("stylins", parent)]
                trait.save()
            if link:
                trait.link = by_name[("attributes", link)]
                trait.save()
            by_name[(group, trait.name)] = trait


def add_counters(sheet: Sheet, counters: dict[str, int]) -> None:
    for key, value in counters.items():
        Counter.objects.update_or_create(sheet=sheet, key=key, defaults={"value": value})


STRESS = ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")

SHEETS = {
    "serenity": (
        {
            "stylins": [("Fightin'", "d10"), ("Finaglin'", "d6"), ("Movin'", "d8")],
            "refinements": [{"name": "War Veteran", "value": "d8", "parent": "Fightin'"}],
            "values": [("Loyalty", "d8"), ("Freedom", "d4")],
            "assets": [("Pistol", "d12")],
            "stress": [{"name": s} for s in STRESS],
            "complications": [("Winged", "d6")],
        },
        {"plot_points": 2},
    ),
    "smallville": (
        {
            "values": [("Justice", "d8"), ("Love", "d6"), ("Truth", "d4")],
            "relationships": [("Lana", "d6"), ("Chloe", "d8")],
            "abilities": [("Super-speed", "d10")],
            "distinctions": [
                ("Farm boy", "d6"),
                {"name": "Kryptonian", "value": "d8", "flags": {"heritage": True}},
            ],
            "locations": [("Kent Farm", "d6")],
            "stress": [{"name": s} for s in STRESS],
        },
        {"plot_points": 2},
    ),
    "cortex_slots": (
        {
            "attributes": [("Agility", "d8")],
            "distinctions": [("Ex-Marine", "d8")],
            "skills": [("Shoot", "d10"), ("Fight", "d12+d6")],
            "assets": [{"name": "Sniper Rifle", "value": "d8", "flags": {"signature": True}}],
            "big_hero": [("Big Hero Die", "d6")],
        },
        {"plot_points": 1, "advance_points": 40},
    ),
    "personae": (
        {
            "attributes": [("Might", 4), ("Wits", 2)],
            "skills": [{"name": "Swordplay", "value": 3, "link": "Might"}],
        },
        {"potential_threshold": 3, "criticals": 0, "development": 0},
    ),
    "unisystem": (
        {
            "attributes": [
                ("Strength", 2),
                ("Dexterity", 3),
                ("Constitution", 2),
                ("Intelligence", 2),
                ("Perception", 3),
                ("Willpower", 2),
            ],  # fmt: skip
            "skills": [("Sports", 2), ("Occultism", 1), ("Acrobatics", 1)],
            "qualities": [("Nerves of Steel", 2)],
        },
        {"drama_points": 10, "life_points": 26, "max_life_points": 26},
    ),
}


def make_sheet(campaign: Campaign, owner, name: str, *, kind: str = "pc", **extra) -> Sheet:
    sheet = Sheet.objects.create(campaign=campaign, owner=owner, name=name, kind=kind, **extra)
    traits, counters = SHEETS[campaign.system]
    add_traits(sheet, traits)
    add_counters(sheet, counters)
    return sheet


class Table:
    """A campaign of one system, its people and their characters."""

    def __init__(self, system: str, gm, player, observer, outsider, other) -> None:
        self.campaign = services.create_campaign(
            gm, name=f"{system} night", description="", system=system
        )
        Membership.objects.create(campaign=self.campaign, user=player, role=Role.PLAYER)
        Membership.objects.create(campaign=self.campaign, user=other, role=Role.PLAYER)
        Membership.objects.create(campaign=self.campaign, user=observer, role=Role.OBSERVER)
        self.gm, self.player, self.observer, self.outsider, self.other = (
            gm, player, observer, outsider, other,
        )  # fmt: skip
        self.pc = make_sheet(self.campaign, player, "Mal")
        self.other_pc = make_sheet(self.campaign, other, "Zoe")
        self.npc = make_sheet(self.campaign, None, "Niska", kind="npc")

    def start_scene(self, title: str = "The docks"):
        scene = services.create_scene(self.campaign, title=title, description="")
        services.start_scene(self.campaign, scene.pk, self.gm)
        return scene

    def perform(self, user, action, request, **kwargs):
        return table_actions.perform(self.campaign, user, action, request, **kwargs)

    def counter(self, sheet: Sheet, key: str) -> int:
        return Counter.objects.get(sheet=sheet, key=key).value

    def trait(self, sheet: Sheet, group: str, name: str) -> Trait:
        return Trait.objects.get(sheet=sheet, group=group, name=name)

    def state(self) -> dict:
        return table_actions.scene_state(self.campaign)["state"]


@pytest.fixture
def other_player(make_user):
    return make_user("zed", "Zed")


@pytest.fixture
def table_for(gm, player, observer, outsider, other_player):
    def make(system: str) -> Table:
        return Table(system, gm, player, observer, outsider, other_player)

    return make


@pytest.fixture
def published(monkeypatch):
    """Every fragment sent over the campaign sockets, (campaign, html, audience); no
    real fan-out."""
    sent = []
    monkeypatch.setattr(
        broadcast, "send_html", lambda campaign, html, to="all": sent.append((campaign, html, to))
    )
    monkeypatch.setattr(broadcast, "publish", lambda *args, **kwargs: None)
    return sent
