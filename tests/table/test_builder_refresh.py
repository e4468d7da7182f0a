"""A pool builder left open goes stale when another member changes what it shows from the
table: a new scene Asset (CTX-7, SER-10), the character's plot points, a contest's
standing its odds are against. After each event the page asks each builder's URL with
its `data-depends` key: 204 if nothing it shows changed, 200 if it should re-render
(static/js/table.js, checkBuilders)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sheets import services as sheets
from table.writing import actions
from tests.table.page_fixtures import (  # noqa: F401
    fresh_cards,
    seed_scene_asset,
    seed_session_asset,
    table,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
DEPENDS = re.compile(r'id="builder-(\d+)"[^>]*data-depends="([0-9a-f]{16})"')


def shown_key(client, campaign, sheet) -> str:
    """The key the table page renders on the sheet's builder."""
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    keys = {int(sheet_id): key for sheet_id, key in DEPENDS.findall(page)}
    return keys[sheet.pk]


def check(client, campaign, sheet, key: str) -> int:
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    response = client.get(url, {"depends": key}, **HX)
    assert response.content == b""  # an answer, never a builder to swap in
    return response.status_code


def test_an_open_builder_learns_when_the_table_changes_what_it_shows(
    table,  # noqa: F811
    client_for,
    gm,
    player,
):
    campaign, sheet, _ = table
    client = client_for(player)
    key = shown_key(client, campaign, sheet)
    assert check(client, campaign, sheet, key) == 204

    seed_scene_asset(campaign, "Smoke", "d8", sheet)  # CTX-7: a scene Asset appears
    assert check(client, campaign, sheet, key) == 200
    key = shown_key(client, campaign, sheet)
    assert check(client, campaign, sheet, key) == 204

    seed_session_asset(campaign, "Cover", "d6", sheet)  # SER-10
    assert check(client, campaign, sheet, key) == 200
    key = shown_key(client, campaign, sheet)

    # SER-5: the GM's opposition pool sets the number to beat the builder shows.
    goons = {"pool": [{"die": "d8", "trait": "Goons", "group": "situation"}]}
    actions.perform(campaign, gm, "roll", goons)
    assert check(client, campaign, sheet, key) == 200
    key = shown_key(client, campaign, sheet)

    # Another member's roll that changes nothing the builder shows leaves it be (the GM
    # rolls Mal's Fightin': scored against the number, it writes nothing).
    fightin = {"pool": [{"die": "d4", "trait": "Fightin'", "group": "stylins"}]}
    actions.perform(campaign, gm, "roll", fightin, sheet_id=sheet.pk)
    assert check(client, campaign, sheet, key) == 204

    actions.perform(campaign, gm, "give_points", {"amount": 1}, sheet_id=sheet.pk)
    assert check(client, campaign, sheet, key) == 200


def test_the_re_rendered_builder_offers_the_new_asset_and_carries_the_new_key(
    table,  # noqa: F811
    client_for,
    player,
):
    campaign, sheet, _ = table
    client = client_for(player)
    old = shown_key(client, campaign, sheet)
    seed_scene_asset(campaign, "Smoke", "d8", sheet)
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    text = client.post(url, {}, **HX).content.decode()
    assert 'name="table_asset" value="Smoke"' in text
    rendered = DEPENDS.search(text).group(2)
    assert rendered != old and check(client, campaign, sheet, rendered) == 204


def test_only_the_sheets_players_may_ask(table, client_for, outsider, observer):  # noqa: F811
    campaign, sheet, _ = table
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    for user in (outsider, observer):
        response = client_for(user).get(url, {"depends": "0" * 16}, **HX)
        assert response.status_code in (403, 404)


def test_a_trait_edited_on_the_sheet_page_stales_the_open_builder(
    table,  # noqa: F811
    client_for,
    player,
):
    """The sheet page and the table are open side by side: a die stepped down or a trait
    renamed on the sheet reaches the builder without a click."""
    campaign, sheet, traits = table
    client = client_for(player)
    key = shown_key(client, campaign, sheet)
    fightin = traits["fightin"]
    sheets.step_trait(sheet, fightin.pk, "down", fightin.version)
    assert check(client, campaign, sheet, key) == 200
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    text = client.post(url, {}, **HX).content.decode()
    assert re.search(r"Fightin&#x27;</span>\s*<span[^>]*>d8<", text), text
    key = DEPENDS.search(text).group(2)
    assert check(client, campaign, sheet, key) == 204

    pistol = traits["pistol"]
    sheets.save_trait(sheet, pistol.pk, {"name": "Sawn-off"}, pistol.version)
    assert check(client, campaign, sheet, key) == 200
