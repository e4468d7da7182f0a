"""The GM dashboard's real controls: opposition dice from pickers (a size and a name per
row), the old typed line still accepted, and a card's GM tools in one menu."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.writing import actions
from tests.table.page_fixtures import build_sheet, fresh_cards, ids, table  # noqa: F401

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    monkeypatch.setattr(actions, "RNG", random.Random(11))


def _gm_roll(client, campaign, data):
    return client.post(reverse("table_gm_roll", args=[campaign.pk]), data, **HX).content.decode()


def _rolled(campaign) -> list[tuple[str, str]]:
    event = TableEvent.objects.filter(campaign=campaign, kind="action").latest("seq")
    return [(d["die"], d.get("trait", "")) for d in event.outcome["dice"]]


def test_the_gm_rolls_opposition_from_dice_pickers(table, client_for, gm):  # noqa: F811
    campaign, _, _ = table
    page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
    assert '<select name="die" data-die-size>' in page and 'name="die_name"' in page
    said = _gm_roll(
        client_for(gm),
        campaign,
        {
            "die": ["d8", "", "d6"],
            "die_name": ["Armed thugs", "left empty", "Cramped bay"],
            "visibility": "public",
        },
    )
    assert "✓" in said, said
    assert sorted(_rolled(campaign)) == [("d6", "Cramped bay"), ("d8", "Armed thugs")]


def test_typed_dice_still_roll_and_join_the_picked_ones(table, client_for, gm):  # noqa: F811
    campaign, _, _ = table
    said = _gm_roll(client_for(gm), campaign, {"dice": "d10 Crossfire", "visibility": "public"})
    assert "✓" in said, said
    assert _rolled(campaign) == [("d10", "Crossfire")]
    said = _gm_roll(
        client_for(gm),
        campaign,
        {"die": ["d4"], "die_name": ["Alarm"], "dice": "d12 Sniper", "visibility": "public"},
    )
    assert sorted(_rolled(campaign)) == [("d12", "Sniper"), ("d4", "Alarm")]


def test_a_picker_refuses_what_is_not_a_die_and_nothing_is_rolled(table, client_for, gm):  # noqa: F811
    campaign, _, _ = table
    before = TableEvent.objects.filter(campaign=campaign).count()
    said = _gm_roll(
        client_for(gm), campaign, {"die": ["d7"], "die_name": ["x"], "visibility": "public"}
    )
    assert "⚠" in said and "d4 to d12" in said
    said = _gm_roll(client_for(gm), campaign, {"die": ["", ""], "visibility": "public"})
    assert "⚠" in said
    assert TableEvent.objects.filter(campaign=campaign).count() == before


def test_a_cards_gm_tools_are_one_menu_and_players_see_none(
    table,  # noqa: F811
    fresh_cards,  # noqa: F811
    client_for,
    gm,
    player,
):
    campaign, sheet, t = table
    url = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    client_for(player).post(url, {"trait": ids(t["fightin"], t["veteran"])}, **HX)
    seq = TableEvent.objects.filter(campaign=campaign).latest("seq").seq
    page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
    card = re.search(rf'<li id="event-{seq}".*?</article>', page, re.S).group(0)
    assert card.count('<details class="gm-card-menu">') == 1
    menu = re.search(r'<details class="gm-card-menu">.*?</details>', card, re.S).group(0)
    assert 'name="reason"' in menu and "Void" in menu
    theirs = client_for(player).get(reverse("table", args=[campaign.pk])).content.decode()
    assert "gm-card-menu" not in theirs and 'name="reason"' not in theirs
