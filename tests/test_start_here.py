"""Each game's Start here page (its START_HERE, rendered by the rules pages), and every
empty page saying what to do next, checked from an empty database with fresh sign-ups."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.http import urlencode

from rules.registry import SYSTEMS

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _block(page: str, element_id: str) -> str:
    """The element with this id, up to its closing tag (empty states are short)."""
    match = re.search(rf'<(\w+)[^>]*\bid="{element_id}"[^>]*>(.*?)</\1>', page, re.DOTALL)
    assert match, f"no #{element_id} on the page"
    start = match.start()
    # A div's first closing tag may be an inner one: take up to the next section's end.
    end = page.find("</div>", match.end() - len(match.group(1)) - 3)
    return page[start : max(match.end(), end)]


def _links(block: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', block)


@pytest.mark.parametrize("slug", list(SYSTEMS))
def test_start_here_says_what_a_roll_is_made_of_what_the_gm_sets_and_what_to_tap(client, slug):
    game = SYSTEMS[slug]
    start = game.start_here
    response = client.get(reverse("rules_start", args=[slug]))
    page = _text(response)
    assert response.status_code == 200
    assert f"Start here: {game.name}" in page
    for heading in (
        "What a roll is made of",
        "What the GM sets",
        "What the first scene looks like",
        "What to tap first",
    ):
        assert heading in page
    for paragraph in (*start.roll, *start.gm_sets, *start.first_scene, *start.first_taps):
        assert paragraph in page
    for rule_id in start.rules:
        assert f"/rules/{slug}/#{rule_id}" in page
    # Its rules page and the rules index lead to it.
    assert reverse("rules_start", args=[slug]) in client.get(f"/rules/{slug}/").content.decode()
    assert reverse("rules_start", args=[slug]) in client.get("/rules/").content.decode()


@pytest.mark.parametrize("slug", list(SYSTEMS))
def test_each_game_declares_its_own_start_here(slug):
    start = SYSTEMS[slug].start_here
    assert start.rules and all(r.startswith(SYSTEMS[slug].module.PREFIX) for r in start.rules)
    assert len(start.first_taps) >= 3 and start.roll and start.gm_sets and start.first_scene


def test_start_here_offers_the_way_back_only_to_this_site(client):
    url = reverse("rules_start", args=[next(iter(SYSTEMS))])
    page = _text(client.get(url + "?" + urlencode({"back": "/c/7/table/"})))
    assert 'id="start-back"' in page and 'href="/c/7/table/"' in page
    for elsewhere in ("https://elsewhere.example/", "//elsewhere.example/", "javascript:x"):
        page = _text(client.get(url + "?" + urlencode({"back": elsewhere})))
        assert 'id="start-back"' not in page and "elsewhere.example" not in page.split("<main")[1]


def test_an_unknown_games_start_here_is_404(client):
    assert client.get("/rules/d20/start/").status_code == 404


# --------------------------------------------------------------------------- empty states


def _sign_up(username: str) -> Client:
    client = Client()
    response = client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": username.title(),
            "password1": "two by two, hands of blue",
            "password2": "two by two, hands of blue",
        },
    )
    assert response.status_code == 302
    return client


@pytest.fixture
def first_night():
    """A GM and a player who just signed up, and the GM's new campaign: nothing else."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign, Membership, Role

    assert not get_user_model().objects.exists() and not Campaign.objects.exists()
    gm = _sign_up("gina")
    slug = "smallville"
    empty = _text(gm.get(reverse("campaign_list")))
    response = gm.post(
        reverse("campaign_create"), {"name": "Friday game", "description": "", "system": slug}
    )
    campaign = Campaign.objects.get()
    assert response["Location"] == campaign.get_absolute_url()
    player = _sign_up("pete")
    Membership.objects.create(
        campaign=campaign, user=get_user_model().objects.get(username="pete"), role=Role.PLAYER
    )
    return {"gm": gm, "player": player, "campaign": campaign, "slug": slug, "list": empty}


def _start(slug: str) -> str:
    return reverse("rules_start", args=[slug])


def test_no_campaign_offers_to_start_one_and_every_games_start_here(first_night):
    block = _block(first_night["list"], "empty-campaigns")
    links = _links(block)
    assert reverse("campaign_create") in links
    for slug in SYSTEMS:
        assert any(link.startswith(_start(slug) + "?back=") for link in links), slug


def test_a_campaign_with_nobody_else_offers_the_invites_and_no_characters_a_new_sheet(
    first_night,
):
    from campaigns.models import Membership

    campaign = first_night["campaign"]
    Membership.objects.filter(user__username="pete").delete()
    page = _text(first_night["gm"].get(campaign.get_absolute_url()))
    assert reverse("members", args=[campaign.pk]) in _links(_block(page, "empty-members"))
    characters = _links(_block(page, "empty-characters"))
    assert reverse("sheet_create", args=[campaign.pk]) in characters
    assert any(link.startswith(_start(first_night["slug"])) for link in characters)
    assert reverse("table", args=[campaign.pk]) + "#gm-h" in _links(_block(page, "empty-scene"))


def test_an_empty_sheet_list_offers_a_new_character_and_start_here(first_night):
    campaign = first_night["campaign"]
    page = _text(first_night["player"].get(reverse("sheet_list", args=[campaign.pk])))
    links = _links(_block(page, "empty-sheets"))
    assert reverse("sheet_create", args=[campaign.pk]) in links
    back = reverse("sheet_list", args=[campaign.pk])
    assert f"{_start(first_night['slug'])}?back={back}" in links


def test_the_players_empty_table_says_make_a_character_and_read_start_here(first_night):
    campaign = first_night["campaign"]
    page = _text(first_night["player"].get(reverse("table", args=[campaign.pk])))
    character = _links(_block(page, "empty-character"))
    assert reverse("sheet_create", args=[campaign.pk]) in character
    assert any(link.startswith(_start(first_night["slug"])) for link in character)
    scene = _links(_block(page, "empty-table-scene"))
    assert any(link.startswith(_start(first_night["slug"])) for link in scene)
    log = _block(page, "empty-log")
    assert "No rolls yet." in log
    assert reverse("sheet_list", args=[campaign.pk]) in _links(log)


def test_the_gms_empty_table_and_dashboard_say_start_a_scene(first_night):
    campaign = first_night["campaign"]
    page = _text(first_night["gm"].get(reverse("table", args=[campaign.pk])))
    assert "#gm-scene-title" in _links(_block(page, "empty-table-scene"))
    dashboard = _block(page, "empty-gm-scene")
    assert "press Create and start" in dashboard
    assert any(
        link.startswith(_start(first_night["slug"])) and link.endswith("#first-scene")
        for link in _links(dashboard)
    )
    assert 'id="gm-scene-title"' in page  # where the link lands
    log = _block(page, "empty-log")
    assert "Start a scene on the GM dashboard" in log
    assert any(link.startswith(_start(first_night["slug"])) for link in _links(log))
    character = _links(_block(page, "empty-character"))
    assert reverse("sheet_list", args=[campaign.pk]) in character


def test_the_log_says_what_to_do_once_a_character_can_roll(first_night):
    from sheets import services

    campaign = first_night["campaign"]
    from django.contrib.auth import get_user_model

    pete = get_user_model().objects.get(username="pete")
    services.create_sheet(campaign, name="Dana", kind="pc", owner=pete, npc_kind="", hidden=False)
    page = _text(first_night["player"].get(reverse("table", args=[campaign.pk])))
    assert "Tap traits under My character, then Roll" in _block(page, "empty-log")
