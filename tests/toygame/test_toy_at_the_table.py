"""Toy Dice, registered from outside rules/, played end to end through the real pages and
the table's socket: a sheet edited on its page, the pool builder with its odds, a roll,
the GM's secret roll sealed to players, replay after a reconnect, and the exports. No file
outside tests/toygame/ knows the game."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Membership, Role
from rules import registry
from sheets.models import Sheet, Trait
from table.models import TableEvent
from tests.table.sockets import caught_up, messages, open_socket, send

from .. import toygame

pytestmark = pytest.mark.django_db(transaction=True)
SEALED = "The GM rolled behind the screen"


@pytest.fixture
def toy():
    game = registry.register(toygame)
    yield game
    registry.unregister(toygame.SLUG)


@pytest.fixture
def table(toy, gm, player, client_for):
    """A Toy Dice campaign made through the pages: the GM creates it and a player's
    character, whose Brawn the player raises to d8 on the sheet page."""
    gm_client = client_for(gm)
    created = gm_client.post(
        reverse("campaign_create"), {"name": "Toy night", "description": "", "system": "toy"}
    )
    assert created.status_code == 302, created.content[:500]
    campaign = Campaign.objects.get(name="Toy night")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    gm_client.post(
        reverse("sheet_create", args=[campaign.pk]),
        {"name": "Pip", "kind": "pc", "owner": player.pk},
    )
    sheet = Sheet.objects.get(campaign=campaign, name="Pip")
    brawn = Trait.objects.get(sheet=sheet, name="Brawn")
    assert (brawn.die, Trait.objects.get(sheet=sheet, name="Wits").die) == (6, 6)
    client_for(player).post(
        reverse("trait_step", args=[campaign.pk, sheet.pk, brawn.pk]),
        {"direction": "up", "version": brawn.version},
    )
    brawn.refresh_from_db()
    assert brawn.die == 8
    scene = services.create_scene(campaign, title="The cellar", description="")
    services.start_scene(campaign, scene.pk, gm)
    return campaign, sheet


def test_the_sheet_page_shows_the_games_traits(table, player, client_for):
    campaign, sheet = table
    page = client_for(player).get(sheet.get_absolute_url()).content.decode()
    assert "Brawn" in page and "Wits" in page and "d8" in page


def test_the_pool_builder_shows_the_odds_and_rolls_from_the_sheet(table, player, client_for):
    """TOY-1, TOY-2: click Brawn, see its odds, roll it; the die is the sheet's."""
    campaign, sheet = table
    client = client_for(player)
    brawn = Trait.objects.get(sheet=sheet, name="Brawn")
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    builder = client.post(url, {"trait": [brawn.pk], "clicked": brawn.pk, "target": 5}).content
    assert b"Odds for d8" in builder and b"50.0% to meet 5." in builder
    roll = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    client.post(roll, {"trait": [brawn.pk], "visibility": "public"}, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    assert event.request["pool"] == [{"die": "d8", "trait": "Brawn", "group": "traits"}]
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    assert f"Highest {event.outcome['highest']}" in page


def test_the_gms_hunch_is_sealed_to_players_live_in_replay_and_in_exports(
    table, gm, player, client_for
):
    """TOY-3: the GM's secret d20 reaches players as a sealed card, everywhere."""
    campaign, _ = table

    async def play():
        gm_socket, ok, _ = await open_socket(gm, campaign)
        player_socket, ok2, _ = await open_socket(player, campaign)
        assert ok and ok2
        await caught_up(gm_socket)
        await caught_up(player_socket)
        await send(
            gm_socket,
            {"type": "act", "action": "hunch", "request": {"note": "trap?"}, "visibility": "gm"},
        )
        seen_by_gm = "".join(await messages(gm_socket, 1))
        seen_by_player = "".join(await messages(player_socket, 1))
        await gm_socket.disconnect()
        await player_socket.disconnect()
        again, ok3, _ = await open_socket(player, campaign, last_seq=0)
        replayed = "".join(await messages(again, 1))
        await again.disconnect()
        return seen_by_gm, seen_by_player, replayed

    seen_by_gm, seen_by_player, replayed = async_to_sync(play)()
    hunch = TableEvent.objects.get(campaign=campaign, action="hunch")
    face = str(hunch.outcome["face"])
    assert f"Hunch: {face}" in seen_by_gm and "trap?" in seen_by_gm
    for text in (seen_by_player, replayed):
        assert SEALED in text and "trap?" not in text and f"Hunch: {face}" not in text
    scene = campaign.scenes.get(title="The cellar")
    url = reverse("table_export_scene", args=[campaign.pk, scene.pk, "json"])
    players_export = client_for(player).get(url).content.decode()
    gms_export = client_for(gm).get(url).content.decode()
    assert "trap?" in gms_export and "trap?" not in players_export
    players_hunch = [e for e in json.loads(players_export)["events"] if e["seq"] == hunch.seq]
    assert players_hunch and "face" not in json.dumps(players_hunch)
    markdown = client_for(player).get(
        reverse("table_export_scene", args=[campaign.pk, scene.pk, "md"])
    )
    assert "trap?" not in markdown.content.decode()
    assert re.search(r"Hunch: \d+", markdown.content.decode()) is None
