"""Every sheet URL × GM, owner player, other player, observer, outsider, anonymous.

Each URL is requested as a full page and as an htmx fragment request. Outsiders
get 404 (nothing is disclosed); anonymous visitors are sent to log in (htmx:
401 with HX-Redirect to the login page); members who may only view get 403 on
edits; a hidden GM character is 404 for everyone but the GMs.
"""

import json

import pytest
from django.urls import reverse

from sheets import services
from sheets.models import Sheet

from .conftest import text

pytestmark = pytest.mark.django_db

ROLES = ("gm", "owner", "other_player", "observer", "outsider", "anonymous")
CAMPAIGN_URLS = {
    "sheet_list",
    "sheet_create",
    "sheet_create_post",
    "sheet_import",
    "sheet_import_post",
}

# url name: (who may, status for a full page, status for an htmx request)
# who: "members" (anyone in the campaign), "players" (not observers), "editors" (owner and GMs)
TABLE = {
    "sheet_list": ("members", 200, 200),
    "sheet_create": ("players", 200, 200),
    "sheet_create_post": ("players", 302, 302),
    "sheet_import": ("players", 200, 200),
    "sheet_import_post": ("players", 302, 302),
    "sheet_detail": ("members", 200, 200),
    "sheet_export": ("members", 200, 200),
    "sheet_head": ("members", 200, 200),
    "sheet_head_post": ("editors", 302, 200),
    "sheet_scores": ("members", 200, 200),
    "sheet_scores_post": (
        "editors",
        302,
        422,
    ),  # a Serenity sheet has no scores: allowed, then refused
    "sheet_delete": ("editors", 200, 200),
    "sheet_delete_post": ("editors", 302, 302),
    "sheet_counter": ("members", 200, 200),
    "sheet_counter_post": ("editors", 302, 200),
    "sheet_group": ("members", 200, 200),
    "trait_add": ("editors", 302, 200),
    "trait": ("members", 200, 200),
    "trait_post": ("editors", 302, 200),
    "trait_step": ("editors", 302, 200),
    "trait_move": ("editors", 302, 200),
    "trait_delete": ("editors", 302, 200),
}

# Plot points change at the table: the owner's post is refused (the page comes back with
# the reason; htmx gets 403), the GM's is logged (tests/sheets/test_table_counters.py).
GM_ONLY_AT_THE_TABLE = {"sheet_counter_post"}

ALLOWED = {
    "members": {"gm", "owner", "other_player", "observer"},
    "players": {"gm", "owner", "other_player"},
    "editors": {"gm", "owner"},
}


def import_doc(name="Imported"):
    return json.dumps(
        {
            "format": "rollcall-sheet",
            "version": 1,
            "system": "serenity",
            "name": name,
            "kind": "pc",
            "traits": {"stylins": [{"name": "Fightin'", "die": "d8"}]},
        }
    )


def request_spec(url_name, sheet, trait, users):
    c, s = sheet.campaign_id, sheet.pk
    sheet_url = lambda name, *extra: reverse(name, args=[c, s, *extra])  # noqa: E731
    return {
        "sheet_list": ("get", reverse("sheet_list", args=[c]), {}),
        "sheet_create": ("get", reverse("sheet_create", args=[c]), {}),
        "sheet_create_post": (
            "post",
            reverse("sheet_create", args=[c]),
            {"name": "New", "kind": "pc", "owner": users["owner"].pk},
        ),
        "sheet_import": ("get", reverse("sheet_import", args=[c]), {}),
        "sheet_import_post": (
            "post",
            reverse("sheet_import", args=[c]),
            {"text": import_doc(), "owner": users["owner"].pk},
        ),
        "sheet_detail": ("get", sheet_url("sheet_detail"), {}),
        "sheet_export": ("get", sheet_url("sheet_export"), {}),
        "sheet_head": ("get", sheet_url("sheet_head"), {}),
        "sheet_head_post": (
            "post",
            sheet_url("sheet_head"),
            {"name": "Renamed", "notes": "", "version": 1},
        ),
        "sheet_scores": ("get", sheet_url("sheet_scores"), {}),
        "sheet_scores_post": (
            "post",
            sheet_url("sheet_scores"),
            {"override_combat": "12", "version": 1},
        ),
        "sheet_delete": ("get", sheet_url("sheet_delete"), {}),
        "sheet_delete_post": ("post", sheet_url("sheet_delete"), {}),
        "sheet_counter": ("get", sheet_url("sheet_counter", "plot_points"), {}),
        "sheet_counter_post": (
            "post",
            sheet_url("sheet_counter", "plot_points"),
            {"value": "2", "version": 1},
        ),
        "sheet_group": ("get", sheet_url("sheet_group", "stylins"), {}),
        "trait_add": ("post", sheet_url("trait_add", "stylins"), {"name": "Fixin'", "die": "d6"}),
        "trait": ("get", sheet_url("trait", trait.pk), {}),
        "trait_post": (
            "post",
            sheet_url("trait", trait.pk),
            {"field": "name", "name": "Shootin'", "version": 1},
        ),
        "trait_step": (
            "post",
            sheet_url("trait_step", trait.pk),
            {"direction": "up", "version": 1},
        ),
        "trait_move": ("post", sheet_url("trait_move", trait.pk), {"direction": "down"}),
        "trait_delete": ("post", sheet_url("trait_delete", trait.pk), {"version": 1}),
    }[url_name]


def check(response, expected, role, url_name, htmx):
    where = (url_name, role, "htmx" if htmx else "page", response.status_code)
    if expected == "login":
        login = reverse("login")
        if htmx:
            assert response.status_code == 401, where
            assert response["HX-Redirect"].startswith(login + "?next="), where
        else:
            assert response.status_code == 302, where
            assert response["Location"].startswith(login + "?next="), where
    else:
        assert response.status_code == expected, where


def run_table(url_name, expected_for, *, make, table, client_for, htmx_headers):
    clients = {role: client_for(user) for role, user in table.items()}
    for htmx in (False, True):
        for role in ROLES:
            sheet = make()
            trait = services.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
            method, url, data = request_spec(url_name, sheet, trait, table)
            extra = htmx_headers if htmx else {}
            response = getattr(clients[role], method)(url, data, **extra)
            check(response, expected_for(role, htmx), role, url_name, htmx)


@pytest.mark.parametrize("url_name", sorted(TABLE))
def test_player_character_sheet_urls(url_name, table, make_campaign, make_sheet, client_for, htmx):
    campaign = make_campaign("serenity")
    who, page_status, htmx_status = TABLE[url_name]

    def expected(role, is_htmx):
        if role == "anonymous":
            return "login"
        if role == "outsider":
            return 404
        if role not in ALLOWED[who]:
            return 403
        if role == "owner" and url_name in GM_ONLY_AT_THE_TABLE:
            return 403 if is_htmx else 302
        return htmx_status if is_htmx else page_status

    run_table(
        url_name,
        expected,
        make=lambda: make_sheet(campaign, "Mal"),
        table=table,
        client_for=client_for,
        htmx_headers=htmx,
    )


@pytest.mark.parametrize("url_name", sorted(set(TABLE) - CAMPAIGN_URLS))
def test_hidden_gm_character_is_404_for_everyone_but_gms(
    url_name, table, make_campaign, make_sheet, client_for, htmx
):
    campaign = make_campaign("serenity")
    _, page_status, htmx_status = TABLE[url_name]

    def expected(role, is_htmx):
        if role == "anonymous":
            return "login"
        if role != "gm":
            return 404
        return htmx_status if is_htmx else page_status

    run_table(
        url_name,
        expected,
        make=lambda: make_sheet(campaign, "Lurker", kind="npc", hidden=True),
        table=table,
        client_for=client_for,
        htmx_headers=htmx,
    )


def test_visible_gm_character_is_viewed_by_players_but_edited_by_gms_only(
    table, make_campaign, make_sheet, client_for, htmx
):
    campaign = make_campaign("serenity")
    npc = make_sheet(campaign, "Badger", kind="npc")
    trait = services.add_trait(npc, "stylins", {"name": "Finaglin'", "die": "d8"}, {})
    url = reverse("trait", args=[campaign.pk, npc.pk, trait.pk])
    for role in ("owner", "other_player", "observer"):
        assert client_for(table[role]).get(npc.get_absolute_url()).status_code == 200
        response = client_for(table[role]).post(
            url, {"field": "name", "name": "X", "version": 1}, **htmx
        )
        assert response.status_code == 403
    assert (
        client_for(table["gm"])
        .post(url, {"field": "name", "name": "X", "version": 1}, **htmx)
        .status_code
        == 200
    )


def test_lists_leave_out_hidden_gm_characters_for_players(
    table, make_campaign, make_sheet, client_for
):
    campaign = make_campaign("serenity")
    make_sheet(campaign, "Mal")
    make_sheet(campaign, "Lurking Reaver", kind="npc", hidden=True)
    for role, sees in (("gm", True), ("owner", False), ("observer", False)):
        for url in (
            reverse("sheet_list", args=[campaign.pk]),
            reverse("campaign_home", args=[campaign.pk]),
        ):
            body = text(client_for(table[role]).get(url))
            assert "Mal" in body
            assert ("Lurking Reaver" in body) is sees, (role, url)


def test_viewers_get_no_inputs_and_editors_do(table, make_campaign, make_sheet, client_for):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    services.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
    for role, edits in (
        ("gm", True),
        ("owner", True),
        ("other_player", False),
        ("observer", False),
    ):
        body = text(client_for(table[role]).get(sheet.get_absolute_url()))
        assert ('name="die"' in body) is edits, role
        assert "Fightin'" in body


def test_an_owner_demoted_to_observer_can_no_longer_edit(
    table, make_campaign, make_sheet, client_for, htmx
):
    from campaigns.models import Membership

    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    Membership.objects.filter(campaign=campaign, user=table["owner"]).update(role="observer")
    url = reverse("sheet_head", args=[campaign.pk, sheet.pk])
    assert (
        client_for(table["owner"]).post(url, {"name": "X", "version": 1}, **htmx).status_code == 403
    )
    assert Sheet.objects.get(pk=sheet.pk).name == "Mal"


def test_sheet_of_another_campaign_is_404_even_for_its_gm(
    table, make_campaign, make_sheet, client_for
):
    first = make_campaign("serenity")
    second = make_campaign("serenity")
    sheet = make_sheet(first, "Mal")
    url = reverse("sheet_detail", args=[second.pk, sheet.pk])
    assert client_for(table["gm"]).get(url).status_code == 404
