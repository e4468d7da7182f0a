"""One member cannot bloat everyone's pages: a cap on the sheets each member makes in a
campaign (SHEETS_PER_PLAYER, SHEETS_PER_GM), through the form and the import alike."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from campaigns import services
from sheets.models import Sheet

from .conftest import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_caps(settings):
    settings.SHEETS_PER_PLAYER = 2
    settings.SHEETS_PER_GM = 3


def _doc(name: str) -> str:
    return json.dumps(
        {"format": "rollcall-sheet", "version": 1, "system": "serenity", "name": name}
    )


def _create(client, campaign, name, **extra):
    return client.post(reverse("sheet_create", args=[campaign.pk]), {"name": name, **extra})


def test_a_player_makes_as_many_sheets_as_the_cap_and_no_more(
    small_caps, make_campaign, player, client_for
):
    campaign = make_campaign("serenity")
    client = client_for(player)
    assert _create(client, campaign, "Mal").status_code == 302
    imported = client.post(reverse("sheet_import", args=[campaign.pk]), {"text": _doc("Zoe")})
    assert imported.status_code == 302

    refused = _create(client, campaign, "Wash")
    body = text(refused)
    assert refused.status_code == 422
    assert "You have made 2 character sheets in this campaign" in body
    assert "ask the GM to make the next one" in body
    assert 'value="Wash"' in body  # what they typed is still there
    refused_import = client.post(
        reverse("sheet_import", args=[campaign.pk]), {"text": _doc("Jayne")}
    )
    assert refused_import.status_code == 422
    assert "You have made 2 character sheets" in text(refused_import)
    assert '"name": "Jayne"' in text(refused_import)
    assert sorted(Sheet.objects.filter(campaign=campaign).values_list("name", flat=True)) == [
        "Mal",
        "Zoe",
    ]


def test_the_list_and_the_forms_say_why_the_buttons_are_off(
    small_caps, make_campaign, player, other_player, client_for
):
    campaign = make_campaign("serenity")
    client = client_for(player)
    for name in ("Mal", "Zoe"):
        _create(client, campaign, name)
    page = text(client.get(reverse("sheet_list", args=[campaign.pk])))
    assert '<button type="button" disabled aria-describedby="sheet-cap">New sheet</button>' in page
    assert 'id="sheet-cap">You have made 2 character sheets' in page
    assert reverse("sheet_create", args=[campaign.pk]) not in page
    form = text(client.get(reverse("sheet_create", args=[campaign.pk])))
    assert '<button type="submit" disabled aria-describedby="sheet-cap">Create sheet' in form
    importer = text(client.get(reverse("sheet_import", args=[campaign.pk])))
    assert '<button type="submit" disabled aria-describedby="sheet-cap">Import' in importer
    # Another player's cap is their own.
    theirs = text(client_for(other_player).get(reverse("sheet_list", args=[campaign.pk])))
    assert "sheet-cap" not in theirs
    assert reverse("sheet_create", args=[campaign.pk]) in theirs


def test_deleting_a_sheet_frees_its_place(small_caps, make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    client = client_for(player)
    for name in ("Mal", "Zoe"):
        _create(client, campaign, name)
    assert _create(client, campaign, "Wash").status_code == 422
    mal = Sheet.objects.get(name="Mal")
    client.post(reverse("sheet_delete", args=[campaign.pk, mal.pk]))
    assert _create(client, campaign, "Wash").status_code == 302


def test_gms_keep_more_sheets_and_count_what_they_make_for_others(
    small_caps, make_campaign, gm, player, client_for
):
    campaign = make_campaign("serenity")
    client = client_for(gm)
    assert _create(client, campaign, "Niska", kind="npc").status_code == 302
    assert _create(client, campaign, "Saffron", kind="npc").status_code == 302
    # A sheet the GM makes for a player is the GM's to count, not the player's.
    assert _create(client, campaign, "Book", kind="pc", owner=player.pk).status_code == 302
    refused = _create(client, campaign, "Badger", kind="npc")
    assert refused.status_code == 422
    assert "You have made 3 sheets in this campaign, as many as a GM may" in text(refused)
    assert _create(client_for(player), campaign, "Mal").status_code == 302
    assert Sheet.objects.filter(campaign=campaign).count() == 4


def test_the_cap_is_per_campaign(small_caps, make_campaign, player, client_for):
    first, second = make_campaign("serenity"), make_campaign("serenity")
    client = client_for(player)
    for name in ("Mal", "Zoe"):
        _create(client, first, name)
    assert _create(client, first, "Wash").status_code == 422
    assert _create(client, second, "Mal").status_code == 302


def test_by_default_a_player_makes_eight(make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    client = client_for(player)
    for n in range(8):
        assert _create(client, campaign, f"Crew {n}").status_code == 302
    assert _create(client, campaign, "One too many").status_code == 422


@pytest.mark.django_db(transaction=True)
def test_sheets_made_before_the_cap_count_for_the_player_who_plays_them(gm, player):
    """The migration: a player character counts for its player, a GM character for nobody."""
    campaign = services.create_campaign(gm, name="Old", description="", system="serenity")
    executor = MigrationExecutor(connection)
    executor.migrate([("sheets", "0003_sheet_portrait")])
    old_apps = executor.loader.project_state([("sheets", "0003_sheet_portrait")]).apps
    OldSheet = old_apps.get_model("sheets", "Sheet")
    pc = OldSheet.objects.create(campaign_id=campaign.pk, name="Mal", kind="pc", owner_id=player.pk)
    npc = OldSheet.objects.create(campaign_id=campaign.pk, name="Niska", kind="npc")
    executor = MigrationExecutor(connection)
    executor.migrate([("sheets", "0004_sheet_created_by")])
    made = dict(Sheet.objects.filter(pk__in=[pc.pk, npc.pk]).values_list("name", "created_by"))
    assert made == {"Mal": player.pk, "Niska": None}
