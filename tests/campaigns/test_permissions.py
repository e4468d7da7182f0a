"""Every campaign URL × every role: GM, player, observer, signed-in outsider, anonymous.

Outsiders get 404 (a campaign's existence is not disclosed); anonymous visitors are
sent to log in; members without the right role get 403.
"""

import pytest
from django.urls import reverse

from campaigns.models import Invite, Membership, Role, Scene

ROLES = ("gm", "player", "observer", "outsider", "anonymous")
LOGIN = "login"
CONFIRMED = {"confirm": "yes"}  # the second step of a destructive button


def build(campaign, gm):
    scene = Scene.objects.create(campaign=campaign, title="Docks")
    invite = Invite.objects.create(campaign=campaign, role=Role.PLAYER, created_by=gm)
    other = Membership.objects.get(campaign=campaign, role=Role.OBSERVER)
    c = campaign.pk
    return {
        "campaign_home": ("get", reverse("campaign_home", args=[c]), {}),
        "campaign_edit": ("get", reverse("campaign_edit", args=[c]), {}),
        "campaign_edit_post": ("post", reverse("campaign_edit", args=[c]), {"name": "X"}),
        "members": ("get", reverse("members", args=[c]), {}),
        "member_role": (
            "post",
            reverse("member_role", args=[c, other.pk]),
            {"role": "player"},
        ),
        "member_remove": ("post", reverse("member_remove", args=[c, other.pk]), CONFIRMED),
        "invite_create": ("post", reverse("invite_create", args=[c]), {"role": "player"}),
        "invite_revoke": ("post", reverse("invite_revoke", args=[c, invite.pk]), CONFIRMED),
        "invite_regenerate": ("post", reverse("invite_regenerate", args=[c, invite.pk]), {}),
        "scenes": ("get", reverse("scenes", args=[c]), {}),
        "scene_create": ("post", reverse("scenes", args=[c]), {"title": "New"}),
        "scene_start": ("post", reverse("scene_start", args=[c, scene.pk]), {}),
        "scene_end": ("post", reverse("scene_end", args=[c, scene.pk]), {}),
    }


# Expected status per role; "login" means a redirect to the login page.
EXPECTED = {
    #                     gm   player observer outsider anonymous
    "campaign_home": (200, 200, 200, 404, LOGIN),
    "campaign_edit": (200, 403, 403, 404, LOGIN),
    "campaign_edit_post": (302, 403, 403, 404, LOGIN),
    "members": (200, 403, 403, 404, LOGIN),
    "member_role": (302, 403, 403, 404, LOGIN),
    "member_remove": (302, 403, 403, 404, LOGIN),
    "invite_create": (302, 403, 403, 404, LOGIN),
    "invite_revoke": (302, 403, 403, 404, LOGIN),
    "invite_regenerate": (302, 403, 403, 404, LOGIN),
    "scenes": (200, 200, 200, 404, LOGIN),
    "scene_create": (302, 403, 403, 404, LOGIN),
    "scene_start": (302, 403, 403, 404, LOGIN),
    "scene_end": (302, 403, 403, 404, LOGIN),
}


@pytest.mark.parametrize("url_name", sorted(EXPECTED))
@pytest.mark.parametrize("role", ROLES)
def test_campaign_url_permissions(
    url_name, role, campaign, gm, player, observer, outsider, client_for
):
    users = {
        "gm": gm,
        "player": player,
        "observer": observer,
        "outsider": outsider,
        "anonymous": None,
    }
    method, url, data = build(campaign, gm)[url_name]
    response = getattr(client_for(users[role]), method)(url, data)
    expected = EXPECTED[url_name][ROLES.index(role)]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == expected, (url_name, role, response.status_code)


def test_unknown_campaign_is_404_even_for_members(client_for, campaign, gm):
    assert client_for(gm).get(reverse("campaign_home", args=[campaign.pk + 999])).status_code == 404


@pytest.mark.parametrize(
    "url", ["/", "/rules/", "/rules/serenity/", "/accounts/login/", "/accounts/signup/"]
)
def test_public_pages_open_to_anonymous(client, url, db):
    assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    "url", ["/campaigns/", "/campaigns/new/", "/accounts/profile/", "/accounts/password/"]
)
def test_account_pages_send_anonymous_to_login(client, url, db):
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
