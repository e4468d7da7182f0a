"""Toy Dice, registered from outside rules/, played end to end through the real pages and
the table's socket: a sheet edited on its page, the pool builder with its odds, a roll,
the GM's secret roll sealed to players, replay after a reconnect, the exports, and a clue
kept for the scene (shown, voided, expired). No file outside tests/toygame/ knows the
game."""

from __future__ import annotations

import html
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
from table.writing import actions as table_actions
from tests.table.conftest import QueuedFaces
from tests.table.sockets import caught_up, messages, open_socket, send

from .. import toygame

pytestmark = pytest.mark.django_db(transaction=True)
SEALED = "The GM rolled behind the screen"
HX = {"HTTP_HX_REQUEST": "true"}


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


def test_the_card_says_the_dice_and_facts_in_the_games_words(
    table, player, client_for, monkeypatch
):
    """TOY-1 on the card: the game's own die role (kept, drawn counted; dropped), its own
    die mark (top face) and its own fact (Top faces), from its UI alone."""
    campaign, sheet = table
    faces = QueuedFaces()
    faces.queue.extend([8, 3])
    monkeypatch.setattr(table_actions, "RNG", faces)
    client = client_for(player)
    traits = list(
        Trait.objects.filter(sheet=sheet).order_by("position").values_list("pk", flat=True)
    )
    roll = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    client.post(roll, {"trait": traits, "visibility": "public"}, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    assert [d["face"] for d in event.outcome["dice"]] == [8, 3]
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    card = page[page.index(f'id="event-{event.seq}"') :]
    brawn, wits = re.findall(r'<li class="die ([^"]*)">(.*?)</li>', card, re.S)[:2]
    assert "counted" in brawn[0].split() and re.search(r"Brawn.*kept, top face", brawn[1], re.S)
    assert "counted" not in wits[0].split() and re.search(r"Wits.*dropped", wits[1], re.S)
    assert re.search(r"<dt>Top faces</dt><dd>1 of 2 dice</dd>", card)


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


def _spot(client, campaign, sheet, clue, note="", visibility="public"):
    data = {"table_clue": clue, "spot-note": note, "spot-visibility": visibility}
    if sheet is not None:
        data["sheet"] = sheet.pk
    return client.post(reverse("table_act", args=[campaign.pk, "spot"]), data, **HX)


def _panel(client, campaign) -> str:
    return html.unescape(client.get(reverse("table_scene", args=[campaign.pk])).content.decode())


def test_a_clue_shows_on_the_panel_is_given_back_by_a_void_and_expires_with_the_scene(
    table, gm, player, client_for
):
    """TOY-4: scene state the toy declares only in its own package (its SCENE). The
    More-actions form asks for the clue by its name; the panel lists it in the game's
    words; a void gives it back and says which; the scene's end names what expired."""
    campaign, sheet = table
    pip, gm_client = client_for(player), client_for(gm)
    page = pip.get(reverse("table", args=[campaign.pk])).content.decode()
    assert "Clue name" in page and 'name="table_clue"' in page
    assert "✓" in _spot(pip, campaign, sheet, "Muddy boots", "by the door").content.decode()
    _spot(pip, campaign, sheet, "Torn map")
    panel = _panel(pip, campaign)
    assert "<dt>Clues</dt>" in panel
    assert "<li>Muddy boots (by the door)</li>" in panel and "<li>Torn map</li>" in panel
    form = pip.get(reverse("table_act_form", args=[campaign.pk, "spot"])).content.decode()
    assert '<option value="Muddy boots">' in form  # the scene's clues, one tap away

    boots = TableEvent.objects.get(campaign=campaign, action="spot", outcome__clue="Muddy boots")
    voided = gm_client.post(
        reverse("table_void", args=[campaign.pk, boots.pk]), {"reason": "wrong room"}, **HX
    )
    assert voided.status_code == 200
    struck = TableEvent.objects.get(campaign=campaign, kind="void")
    assert struck.outcome["undone"] == ["The clue “Muddy boots”: restored."]
    panel = _panel(pip, campaign)
    assert "Muddy boots" not in panel and "<li>Torn map</li>" in panel

    gm_client.post(reverse("table_gm_scene", args=[campaign.pk]), {"op": "end"}, **HX)
    ended = TableEvent.objects.get(campaign=campaign, kind="scene_end")
    assert ended.explanation == "“The cellar” ends. Expired with it: clues."
    assert ended.effects == [{"scene_state": {"expired": {"clues": 1}}}]
    assert "Expired with it: clues." in html.unescape(
        pip.get(reverse("table", args=[campaign.pk])).content.decode()
    )


def test_a_clue_found_behind_the_screen_is_not_the_players_to_see_or_count(
    table, gm, player, client_for
):
    """TOY-4 with the secrecy contract: a clue the GM finds in secret is on the GM's panel
    only, offered on the GM's form only, and the scene's public end does not count it."""
    campaign, _ = table
    pip, gm_client = client_for(player), client_for(gm)
    _spot(gm_client, campaign, None, "Hidden lever", "behind the shelf", visibility="gm")
    assert "Hidden lever" in _panel(gm_client, campaign)
    assert "Hidden lever" not in _panel(pip, campaign)
    assert "<dt>Clues</dt>" not in _panel(pip, campaign)
    form = pip.get(reverse("table_act_form", args=[campaign.pk, "spot"])).content.decode()
    assert "Hidden lever" not in form
    gm_form = gm_client.get(reverse("table_act_form", args=[campaign.pk, "spot"])).content
    assert b'<option value="Hidden lever">' in gm_form

    gm_client.post(reverse("table_gm_scene", args=[campaign.pk]), {"op": "end"}, **HX)
    ended = TableEvent.objects.get(campaign=campaign, kind="scene_end")
    assert ended.explanation == "“The cellar” ends."
    assert "clues" not in json.dumps(ended.effects)


def test_the_gms_hunch_is_a_tool_of_the_dashboard(table, gm, player, client_for):
    """TOY-3: the game declares the hunch a GM tool (its TOOLS, in this folder only): the
    GM dashboard shows it as a block of its own, the action's form, whose post rolls the
    hunch behind the screen; "More actions" says where it is, and players see no block."""
    campaign, _ = table
    client = client_for(gm)
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    dashboard = page.split('id="gm-h"')[1].split("</section>")[0]
    block = re.search(
        r'<details class="gm-block" open>\s*<summary>Roll a hunch</summary>(.*?)</details>',
        dashboard,
        re.S,
    )
    assert block, dashboard
    assert 'name="hunch-note"' in block.group(1)
    action = re.search(r'<form method="post" action="([^"]+)"', block.group(1)).group(1)
    assert "Hunch: on the GM dashboard's hunch" in html.unescape(page)
    answer = client.post(
        action, {"hunch-note": "the lock", "hunch-visibility": "gm"}, **HX
    ).content.decode()
    assert "✓" in answer, answer
    hunch = TableEvent.objects.get(campaign=campaign, action="hunch")
    assert hunch.outcome["note"] == "the lock" and hunch.visibility == "gm"
    theirs = client_for(player).get(reverse("table", args=[campaign.pk])).content.decode()
    assert "Roll a hunch" not in theirs and 'name="hunch-note"' not in theirs
