"""Starter sheets: each game offers two or three archetypes a player picks on New sheet;
the sheet is created filled, ready to roll, and the pool builder makes a legal pool from
it. The blank sheet stays an option, and a made-up starter is refused in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.kit.builder import build
from rules.registry import get_system
from sheets.exchange import FORMAT, VERSION, check_document
from sheets.models import Counter, Sheet, Trait

from .conftest import SYSTEMS, text

pytestmark = pytest.mark.django_db

# What a player ticks for a first roll from each starter: one trait of each group named.
FIRST_POOL = {
    "serenity": ("stylins",),
    "cortex_slots": ("attributes", "distinctions", "skills"),
    "smallville": ("values", "relationships"),
    "personae": ("skills", "attributes"),
    "unisystem": ("attributes", "skills"),
}
FIELDS = {"personae": {"goal": "Get past the guard", "difficulty": "8"}, "unisystem": {}}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_game_offers_two_or_three_starters_that_are_ready_to_roll(system):
    game = get_system(system)
    assert 2 <= len(game.starters) <= 3
    assert len({s.key for s in game.starters}) == len(game.starters)
    for starter in game.starters:
        assert starter.name and starter.summary
        assert game.missing_to_roll(starter.lines()) == (), starter.key
        # Every starter passes the importer's checks, so the form would take each trait.
        document = {"format": FORMAT, "version": VERSION, "system": system, "name": "A"}
        clean = check_document({**document, **starter.document()}, system, may_import_npc=False)
        assert not clean.notices


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_picks_a_starter_and_gets_a_filled_sheet_that_rolls(
    system, make_campaign, player, client_for
):
    campaign = make_campaign(system)
    client = client_for(player)
    page = text(client.get(reverse("sheet_create", args=[campaign.pk])))
    game = get_system(system)
    for starter in game.starters:
        assert starter.name in page and f'value="{starter.key}"' in page
    assert "Blank sheet" in page
    starter = game.starters[0]
    response = client.post(
        reverse("sheet_create", args=[campaign.pk]), {"name": "Robin", "starter": starter.key}
    )
    sheet = Sheet.objects.get(campaign=campaign)
    assert response.status_code == 302 and response["Location"] == sheet.get_absolute_url()
    assert sheet.owner == player and sheet.created_by == player
    names = set(Trait.objects.filter(sheet=sheet).values_list("name", flat=True))
    assert {row["name"] for rows in starter.traits.values() for row in rows} <= names
    shown = text(client.get(sheet.get_absolute_url()))
    assert "Ready to roll" in shown and f"starts as {starter.name}" in shown

    traits = list(Trait.objects.filter(sheet=sheet).select_related("parent", "link"))
    ticked = []
    for group in FIRST_POOL[system]:
        pick = next(t for t in traits if t.group == group and (t.die or t.rating))
        if group == "attributes" and system == "personae":
            skill = next(t for t in traits if t.pk == ticked[0])
            pick = next(t for t in traits if t.pk == skill.link_id)
        ticked.append(pick.pk)
    counters = dict(Counter.objects.filter(sheet=sheet).values_list("key", "value"))
    data = {"trait": [str(i) for i in ticked], **FIELDS.get(system, {})}
    pool = build(game, traits, data, counters=counters, character=sheet.name, target=8)
    assert pool.ready, pool.errors


def test_the_blank_sheet_stays_an_option_and_a_made_up_starter_is_refused(
    make_campaign, player, client_for
):
    campaign = make_campaign("cortex_slots")
    client = client_for(player)
    url = reverse("sheet_create", args=[campaign.pk])
    refused = client.post(url, {"name": "Robin", "starter": "wizard"})
    assert refused.status_code == 422 and not Sheet.objects.exists()
    assert "Choose one of the starting characters, or a blank sheet." in text(refused)
    assert 'value="Robin"' in text(refused)
    assert client.post(url, {"name": "Robin", "starter": ""}).status_code == 302
    sheet = Sheet.objects.get()
    assert not Trait.objects.filter(sheet=sheet).exists()
    assert "Not ready to roll yet" in text(client.get(sheet.get_absolute_url()))
