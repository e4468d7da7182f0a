"""Who may open each table URL, as a table: GM, player, observer, outsider (404), anonymous
(login: a redirect, or 401 with HX-Redirect for htmx).

Every URL is tried as a plain request and as an htmx fragment request.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.table.page_fixtures import fresh_cards, ids, table  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

OK, FORBIDDEN, MISSING, LOGIN = 200, 403, 404, 302


def _urls(campaign, sheet, traits):
    c = campaign.pk
    pool = {"trait": ids(traits["fightin"]), "clicked": ""}
    return [
        # (method, url, data, {role: status})
        ("get", reverse("table", args=[c]), {}, dict(gm=OK, player=OK, observer=OK)),
        (
            "get",
            reverse("table_events", args=[c]) + "?before=5",
            {},
            dict(gm=OK, player=OK, observer=OK),
        ),
        ("get", reverse("table_scene", args=[c]), {}, dict(gm=OK, player=OK, observer=OK)),
        (
            "get",
            reverse("odds", args=[c]) + "?pool=d8,d6&target=7",
            {},
            dict(gm=OK, player=OK, observer=OK),
        ),
        ("post", reverse("odds", args=[c]), {"pool": "d8,d6"}, dict(gm=OK, player=OK, observer=OK)),
        (
            "post",
            reverse("table_pool", args=[c, sheet.pk]),
            pool,
            dict(gm=OK, player=OK, observer=FORBIDDEN),
        ),
        (
            "get",
            reverse("table_pool", args=[c, sheet.pk]),
            {},
            dict(gm=OK, player=OK, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_pool_roll", args=[c, sheet.pk]),
            pool,
            dict(gm=OK, player=OK, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_act", args=[c, "stress"]),
            {"stress-type": "Afraid", "stress-die": "d6", "sheet": sheet.pk},
            dict(gm=OK, player=OK, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_quick", args=[c, "activate_complication"]),
            {"sheet": sheet.pk, "complication": "Hurt"},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_reveal", args=[c, 999]),
            {},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_void", args=[c, 999]),
            {"reason": "oops"},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_gm_roll", args=[c]),
            {"dice": "d8 Thugs", "visibility": "public"},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_gm_contest", args=[c]),
            {"a_sheet": sheet.pk, "a_goal": "x", "b_name": "Thugs", "b_goal": "y"},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_gm_tool", args=[c, "contest"]),
            {"a_sheet": sheet.pk, "a_goal": "x", "b_name": "Thugs", "b_goal": "y"},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_panel_move", args=[c, "contest"]),
            {"op": "give_in"},
            dict(gm=OK, player=OK, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_gm_points", args=[c]),
            {"sheet": sheet.pk, "amount": 1},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
        (
            "post",
            reverse("table_gm_scene", args=[c]),
            {"op": "new", "title": "Next"},
            dict(gm=OK, player=FORBIDDEN, observer=FORBIDDEN),
        ),
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_every_table_url_by_role(table, client_for, gm, player, observer, outsider, htmx):  # noqa: F811
    campaign, sheet, traits = table
    users = {
        "gm": gm,
        "player": player,
        "observer": observer,
        "outsider": outsider,
        "anonymous": None,
    }
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for method, url, data, expected in _urls(campaign, sheet, traits):
        expected = {**expected, "outsider": MISSING, "anonymous": LOGIN}
        for role, user in users.items():
            response = getattr(client_for(user), method)(url, data, **headers)
            want = expected[role]
            if want == OK and not htmx and method == "post" and "odds" not in url:
                # without htmx a successful form post goes back to the page
                assert response.status_code in (200, 302), (role, method, url)
                continue
            if want == LOGIN and htmx:
                # htmx would swap the login page into the fragment: the whole page goes
                assert response.status_code == 401, (method, url, response.status_code)
                assert reverse("login") in response["HX-Redirect"], url
                continue
            assert response.status_code == want, (role, method, url, response.status_code)
            if want == LOGIN:
                assert reverse("login") in response["Location"], url


def test_a_hidden_gm_character_is_404_for_players(table, client_for, gm, player):  # noqa: F811
    from tests.table.page_fixtures import build_sheet

    campaign, _, _ = table
    npc, _ = build_sheet(campaign, None, "serenity", "Niska", kind="npc")
    npc.hidden = True
    npc.save()
    url = reverse("table_pool", args=[campaign.pk, npc.pk])
    assert client_for(player).get(url).status_code == 404
    assert client_for(gm).get(url).status_code == 200


def test_another_players_sheet_is_refused(table, client_for, make_user):  # noqa: F811
    from campaigns.models import Membership

    campaign, sheet, _ = table
    other = make_user("paula")
    Membership.objects.create(campaign=campaign, user=other, role="player")
    url = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    assert client_for(other).post(url, {}).status_code == 403
