"""The pool builder offers the table's Assets: scene Assets (CTX-7) and session Assets
(SER-10), for the systems whose pools take Assets (SER-1, CTX-1). They are clicked by
name in the `table_asset` field; the die is always the one the table holds."""

from __future__ import annotations

import html as html_lib
import random

import pytest
from django.urls import reverse

from rules.kit import cortex_odds
from table.models import TableEvent
from table.pages.svg import percent
from table.pools import builder
from table.writing import actions
from tests.table.page_fixtures import (  # noqa: F401
    build_sheet,
    fresh_cards,
    ids,
    make_campaign,
    seed_scene_asset,
    seed_session_asset,
    start_scene,
    table,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    monkeypatch.setattr(actions, "RNG", random.Random(7))


@pytest.fixture
def assets_table(table):  # noqa: F811
    """Mal's Serenity table with a scene Asset (Smoke d8) and a session Asset (Cover d6)."""
    campaign, sheet, t = table
    seed_scene_asset(campaign, "Smoke", "d8", sheet)
    seed_session_asset(campaign, "Cover", "d6", sheet)
    return campaign, sheet, t


def _builder(client, campaign, sheet, data):
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    response = client.post(url, data, **HX)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def _summary(text: str) -> str:
    start = text.index('<p class="odds-summary"><strong>') + len('<p class="odds-summary"><strong>')
    return text[start : text.index("</strong>", start)]


def test_ser10_ctx7_scene_and_session_assets_are_listed(assets_table, client_for, player):
    """SER-10, CTX-7: the page's builder lists both, with the die and the scope."""
    campaign, sheet, t = assets_table
    page = html_lib.unescape(
        client_for(player).get(reverse("table", args=[campaign.pk])).content.decode()
    )
    for text in (page, _builder(client_for(player), campaign, sheet, {})):
        assert "Scene and session Assets" in text
        assert 'name="table_asset" value="Smoke"' in text
        assert 'name="table_asset" value="Cover"' in text
        block = text[text.index("Scene and session Assets") :]
        smoke = block[block.index('value="Smoke"') : block.index("</li>")]
        assert "d8" in smoke and "scene Asset" in smoke
        cover = block[block.index('value="Cover"') :]
        cover = cover[: cover.index("</li>")]
        assert "d6" in cover and "session Asset" in cover


def test_ser1_clicking_an_asset_adds_it_to_the_request_and_the_odds(
    assets_table, client_for, player
):
    """SER-1: a clicked table Asset joins the pool by name; the odds count its die."""
    campaign, sheet, t = assets_table
    client = client_for(player)
    base = {"trait": ids(t["fightin"], t["veteran"]), "target": "11"}
    without = _builder(client, campaign, sheet, base)
    with_asset = _builder(client, campaign, sheet, {**base, "table_asset": "Smoke"})
    assert 'value="Smoke" checked' in with_asset
    assert 'value="Smoke" checked' not in without
    before = cortex_odds.chance_above(cortex_odds.serenity_outcomes(["d10", "d8"]), 11)
    after = cortex_odds.chance_above(cortex_odds.serenity_outcomes(["d10", "d8", "d8"]), 11)
    assert before != after
    assert _summary(without).startswith(f"{percent(before)} to beat 11")
    assert _summary(with_asset).startswith(f"{percent(after)} to beat 11")

    # The odds fragment reads the same builder fields.
    response = client.post(
        reverse("odds", args=[campaign.pk]), {**base, "sheet": sheet.pk, "table_asset": "smoke"}
    )
    assert _summary(html_lib.unescape(response.content.decode())).startswith(
        f"{percent(after)} to beat 11"
    )

    data = {**base, "sheet": sheet.pk, "table_asset": ["Smoke", "Cover"]}
    pool, _ = builder.builder_for(campaign, player, data)
    assets = [e for e in pool.request["pool"] if e["group"] == "assets"]
    assert assets == [
        {"die": "d8", "trait": "Smoke", "group": "assets"},
        {"die": "d6", "trait": "Cover", "group": "assets"},
    ]


def test_ser1_ser10_rolling_takes_the_asset_die_from_the_table(assets_table, client_for, player):
    """SER-1, SER-10: Roll sends the clicked Assets; the logged dice hold the table's."""
    campaign, sheet, t = assets_table
    url = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    data = {"trait": ids(t["fightin"]), "table_asset": ["Smoke", "Cover"]}
    response = client_for(player).post(url, data, **HX)
    assert "Rolled:" in response.content.decode()
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    dice = {(d["trait"], d["die"]) for d in event.outcome["dice"]}
    assert {("Smoke", "d8"), ("Cover", "d6"), ("Fightin'", "d10")} <= dice
    scopes = {e["trait"]: e.get("scope") for e in event.request["pool"]}
    assert scopes["Smoke"] == "scene" and scopes["Cover"] == "session"


def test_a_forged_asset_name_does_nothing(assets_table, client_for, player):
    """Names the table does not hold are left out with a note: never rolled, never trusted,
    not even a sheet trait's name or a trait id sent as an Asset."""
    campaign, sheet, t = assets_table
    client = client_for(player)
    forged = {"trait": ids(t["fightin"]), "table_asset": ["Battleship", "Pistol", t["loyalty"].pk]}
    text = _builder(client, campaign, sheet, forged)
    assert "“Battleship” is not a scene or session Asset now: left out." in text
    assert 'value="Battleship"' not in text and 'value="Smoke" checked' not in text

    pool, _ = builder.builder_for(campaign, player, {**forged, "sheet": sheet.pk})
    assert [e["trait"] for e in pool.request["pool"]] == ["Fightin'"]

    url = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    client.post(url, forged, **HX)
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    assert [d["trait"] for d in event.outcome["dice"]] == ["Fightin'"]


def test_ser10_a_scene_asset_hides_a_session_one_of_the_same_name(table, client_for, player):  # noqa: F811
    """SER-10: the scene's Asset is the nearer one (table.acting.state.table_asset reads it first);
    an Asset named like one on the sheet is the sheet's and is not offered again."""
    campaign, sheet, t = table
    seed_scene_asset(campaign, "Smoke", "d10", sheet)
    seed_session_asset(campaign, "smoke", "d6", sheet)
    seed_session_asset(campaign, "pistol", "d4", sheet)
    text = _builder(client_for(player), campaign, sheet, {})
    assert text.count('name="table_asset"') == 1
    assert 'value="Smoke"' in text and "d10" in text


def test_ctx1_ctx7_cortex_slots_pools_take_scene_assets(gm, player, observer, client_for):
    """CTX-1, CTX-7: a scene Asset bought with a plot point joins a Cortex pool and rolls."""
    campaign = make_campaign(gm, player, observer, "cortex_slots", name="Cortex assets")
    sheet, t = build_sheet(campaign, player, "cortex_slots")
    start_scene(campaign)
    seed_scene_asset(campaign, "High ground", "d6", sheet)
    client = client_for(player)
    data = {"trait": ids(t["agility"], t["marine"], t["sneak"]), "table_asset": "High ground"}
    text = _builder(client, campaign, sheet, data)
    assert 'value="High ground" checked' in text and "scene Asset" in text
    url = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    assert "Rolled:" in client.post(url, data, **HX).content.decode()
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    entry = next(e for e in event.request["pool"] if e["trait"] == "High ground")
    assert (entry["die"], entry["scope"]) == ("d6", "scene")
    assert "High ground" in {d.get("trait") for d in event.outcome["dice"]}


def test_systems_without_assets_in_pools_offer_none(gm, player, observer, client_for):
    """SMV-1: Smallville pools take no Assets, so the builder lists none."""
    campaign = make_campaign(gm, player, observer, "smallville", name="No assets")
    sheet, _ = build_sheet(campaign, player, "smallville")
    start_scene(campaign)
    seed_session_asset(campaign, "Cover", "d6", sheet)
    text = _builder(client_for(player), campaign, sheet, {"table_asset": "Cover"})
    assert "Scene and session Assets" not in text and 'name="table_asset"' not in text
