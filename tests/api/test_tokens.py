"""Personal API tokens: made on the campaign's page and shown once, stored as a digest,
scoped to one campaign and to the member's role at each request, revoked at once, and
rate limited."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client
from django.urls import reverse

from api import keys
from api.models import ApiToken
from campaigns import services
from campaigns.models import Membership, Role
from table.writing import actions

from .conftest import api_url, get, token_for

pytestmark = pytest.mark.django_db


SECRET_ROLL = {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]}


@pytest.fixture
def serenity(table_for):
    t = table_for("serenity")
    t.start_scene()
    return t


def page(client, campaign):
    return client.get(reverse("api_tokens", args=[campaign.pk]))


# ---------------------------------------------------------------------- the page


def test_a_member_makes_a_token_sees_it_once_and_it_is_stored_as_a_digest(serenity, client_for):
    t = serenity
    client = client_for(t.observer)  # observers read too
    home = client.get(reverse("campaign_home", args=[t.campaign.pk])).content.decode()
    assert reverse("api_tokens", args=[t.campaign.pk]) in home  # linked from the campaign

    made = client.post(reverse("api_tokens", args=[t.campaign.pk]), {"name": "Dice bot"})
    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"]
    text = re.search(r'value="(rc_[0-9a-f]{12}_[A-Za-z0-9_-]{43})"', made.content.decode())[1]
    token = ApiToken.objects.get()
    assert token.name == "Dice bot" and token.membership.user == t.observer
    secret = text.split("_", 2)[2]
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(ApiToken.objects.values()))  # only its digest is kept

    listed = page(client, t.campaign).content.decode()
    assert "Dice bot" in listed and token.key_id in listed
    assert secret not in listed  # shown once, then never again
    assert get(api_url(t.campaign.pk), text).json()["role"] == "observer"


def test_each_member_sees_and_revokes_only_their_own_tokens(serenity, client_for):
    t = serenity
    mine = token_for(t.campaign, t.player, "mine")
    theirs = token_for(t.campaign, t.other, "theirs")
    theirs_pk = ApiToken.objects.get(name="theirs").pk
    client = client_for(t.player)
    listed = page(client, t.campaign).content.decode()
    assert "mine" in listed and "theirs" not in listed
    url = reverse("api_token_revoke", args=[t.campaign.pk, theirs_pk])
    assert client.post(url).status_code == 404
    assert client.post(url, {"confirm": "yes"}).status_code == 404
    assert get(api_url(t.campaign.pk), theirs).status_code == 200
    assert get(api_url(t.campaign.pk), mine).status_code == 200


def test_a_token_needs_a_name_and_a_member_has_at_most_a_few(serenity, client_for, settings):
    t = serenity
    settings.API_TOKENS_PER_MEMBER = 2
    client = client_for(t.player)
    url = reverse("api_tokens", args=[t.campaign.pk])
    assert "Give the token a name" in client.post(url, {"name": "  "}).content.decode()
    for n in range(2):
        assert "rc_" in client.post(url, {"name": f"bot {n}"}).content.decode()
    refused = client.post(url, {"name": "one more"}).content.decode()
    assert "2 tokens for this campaign already" in refused
    assert ApiToken.objects.count() == 2


def test_outsiders_and_visitors_have_no_token_page(serenity, client_for):
    t = serenity
    assert page(client_for(t.outsider), t.campaign).status_code == 404
    assert page(client_for(None), t.campaign).status_code == 302


# ---------------------------------------------------------------------- using a token


def test_a_revoked_token_is_refused_at_once(serenity, client_for):
    t = serenity
    text = token_for(t.campaign, t.player, "Serenity logger")
    assert get(api_url(t.campaign.pk, "events/"), text).status_code == 200
    token = ApiToken.objects.get()
    revoked = client_for(t.player).post(
        reverse("api_token_revoke", args=[t.campaign.pk, token.pk]), {"confirm": "yes"}
    )
    assert revoked.status_code == 302
    answer = get(api_url(t.campaign.pk, "events/"), text)
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"].startswith("Bearer")
    assert "unknown or revoked" in answer.json()["detail"]
    assert "Serenity logger" not in page(client_for(t.player), t.campaign).content.decode()


def test_a_token_for_one_campaign_is_refused_on_another(serenity, table_for):
    t = serenity
    other = table_for("smallville")  # the same people play there too
    text = token_for(t.campaign, t.player)
    assert get(api_url(t.campaign.pk), text).status_code == 200
    for rest in ("", "events/", "events/1/", "scene/", "session/", "sheets/", "stream/"):
        answer = get(api_url(other.campaign.pk, rest), text)
        assert answer.status_code == 404, rest
        assert answer.json()["detail"] == "No such campaign (or this token is for another one)."
    assert get(api_url(10**9), text).status_code == 404  # one that does not exist: the same


@pytest.mark.parametrize(
    "header",
    [
        None,
        "Bearer",
        "Bearer ",
        "Basic cGV0ZTpwYXNz",
        "Bearer rc_",
        "Bearer rc_0123456789ab_",
        "Bearer rc_0123456789ab_" + "x" * 43,
        "Bearer ov_0123456789ab_" + "x" * 43,
        "Bearer " + "x" * 5000,
        "Bearer rc_ZZZZZZZZZZZZ_abc",
    ],
)
def test_no_token_or_a_wrong_one_is_401_in_json(serenity, header):
    extra = {"HTTP_AUTHORIZATION": header} if header is not None else {}
    answer = Client().get(api_url(serenity.campaign.pk, "events/"), **extra)
    assert answer.status_code == 401
    assert answer["Content-Type"] == "application/problem+json"
    assert answer["WWW-Authenticate"].startswith("Bearer")
    assert "Authorization" in answer.json()["detail"]


def test_a_wrong_secret_with_a_real_id_is_refused(serenity):
    t = serenity
    text = token_for(t.campaign, t.player)
    kind, key_id, secret = text.split("_", 2)
    forged = f"{kind}_{key_id}_{secret[:-1]}{'A' if secret[-1] != 'A' else 'B'}"
    assert get(api_url(t.campaign.pk), forged).status_code == 401
    assert keys.split(forged, keys.TOKEN) == (key_id, forged.split("_", 2)[2])


def test_a_token_follows_its_members_role_and_goes_when_they_leave(serenity):
    t = serenity
    text = token_for(t.campaign, t.player)
    secret = actions.perform(t.campaign, t.gm, "roll", SECRET_ROLL, visibility="gm")
    assert get(api_url(t.campaign.pk, f"events/{secret.seq}/"), text).status_code == 404
    assert get(api_url(t.campaign.pk), text).json()["audience"] == "players"

    membership = Membership.objects.get(campaign=t.campaign, user=t.player)
    services.change_role(t.campaign, membership.pk, Role.GM)
    assert get(api_url(t.campaign.pk), text).json()["audience"] == "gm"
    assert get(api_url(t.campaign.pk, f"events/{secret.seq}/"), text).status_code == 200

    services.change_role(t.campaign, membership.pk, Role.OBSERVER)
    assert get(api_url(t.campaign.pk, f"events/{secret.seq}/"), text).status_code == 404

    services.leave(t.campaign, Membership.objects.get(pk=membership.pk))
    assert get(api_url(t.campaign.pk), text).status_code == 401
    assert not ApiToken.objects.exists()  # leaving takes the member's tokens with it


def test_past_its_rate_a_token_gets_429_with_retry_after(serenity, settings):
    t = serenity
    settings.API_TOKEN_RATE, settings.API_TOKEN_WINDOW = 3, 60
    text, other = token_for(t.campaign, t.player), token_for(t.campaign, t.other)
    for _ in range(3):
        assert get(api_url(t.campaign.pk, "events/"), text).status_code == 200
    refused = get(api_url(t.campaign.pk, "events/"), text)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Slow down: this token may make 3 requests every 60 seconds" in refused.json()["detail"]
    assert get(api_url(t.campaign.pk, "stream/"), text).status_code == 429  # streams count too
    assert get(api_url(t.campaign.pk, "events/"), other).status_code == 200  # per token


def test_last_used_is_recorded_at_most_once_a_minute(serenity):
    t = serenity
    text = token_for(t.campaign, t.player)
    assert ApiToken.objects.get().last_used_at is None
    get(api_url(t.campaign.pk), text)
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    get(api_url(t.campaign.pk), text)
    assert ApiToken.objects.get().last_used_at == first


def test_revoking_a_token_asks_first(serenity, client_for):
    t = serenity
    text = token_for(t.campaign, t.player, "Serenity logger")
    token = ApiToken.objects.get()
    client = client_for(t.player)
    url = reverse("api_token_revoke", args=[t.campaign.pk, token.pk])
    asked = client.post(url)
    assert asked.status_code == 200
    assert "Revoke the token “Serenity logger”?" in asked.content.decode()
    assert get(api_url(t.campaign.pk, "events/"), text).status_code == 200
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    assert get(api_url(t.campaign.pk, "events/"), text).status_code == 401
