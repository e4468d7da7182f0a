"""Sheets fixtures: a campaign per system with one named user per role, and sheets to edit."""

from __future__ import annotations

import html

import pytest

SYSTEMS = ("serenity", "cortex_slots", "smallville", "personae", "unisystem")

# One trait group per system to exercise editing on, with a valid and an invalid value.
EDIT_GROUPS = {
    "serenity": ("stylins", "die"),
    "cortex_slots": ("skills", "die"),
    "smallville": ("abilities", "die"),
    "personae": ("attributes", "rating"),
    "unisystem": ("skills", "rating"),
}


@pytest.fixture
def other_player(make_user):
    return make_user("paula", "Paula")


@pytest.fixture
def table(gm, player, other_player, observer, outsider):
    """Users by role name, for permission tables."""
    return {
        "gm": gm,
        "owner": player,
        "other_player": other_player,
        "observer": observer,
        "outsider": outsider,
        "anonymous": None,
    }


@pytest.fixture
def make_campaign(gm, player, other_player, observer):
    from campaigns import services
    from campaigns.models import Membership, Role

    def make(system: str = "serenity"):
        campaign = services.create_campaign(
            gm, name=f"A {system} game", description="", system=system
        )
        Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
        Membership.objects.create(campaign=campaign, user=other_player, role=Role.PLAYER)
        Membership.objects.create(campaign=campaign, user=observer, role=Role.OBSERVER)
        return campaign

    return make


@pytest.fixture
def make_sheet(player):
    from sheets import services

    def make(campaign, name="Hero", *, kind="pc", owner=None, npc_kind="", hidden=False):
        return services.create_sheet(
            campaign,
            name=name,
            kind=kind,
            owner=(owner or player) if kind == "pc" else None,
            npc_kind=npc_kind,
            hidden=hidden,
        )

    return make


@pytest.fixture
def add_trait():
    from sheets import services

    def add(sheet, group, name, *, flags=None, **data):
        return services.add_trait(
            sheet, group, {"name": name, **{k: str(v) for k, v in data.items()}}, flags or {}
        )

    return add


@pytest.fixture
def htmx():
    """Headers htmx sends with every request it makes."""
    return {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}


def text(response) -> str:
    """The response body with HTML entities decoded (Django escapes apostrophes)."""
    return html.unescape(response.content.decode())
