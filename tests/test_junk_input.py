"""Junk posted to every form: a clear error or a redirect, never a 500, nothing half-saved."""

from urllib.parse import quote

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, Membership, Scene

FIELD_NAMES = st.sampled_from(
    [
        "name",
        "description",
        "system",
        "title",
        "role",
        "username",
        "password",
        "password1",
        "password2",
        "display_name",
        "old_password",
        "new_password1",
        "new_password2",
        "next",
    ]
)
JUNK_VALUES = st.one_of(
    st.text(max_size=300),
    st.sampled_from(["", " ", "0", "-1", "99999999999999999999", "gm", "d20", "\x00", "<script>"]),
)
JUNK_FORMS = st.dictionaries(FIELD_NAMES, JUNK_VALUES, max_size=6)


def form_urls(campaign, gm):
    # Not "a player's": a junk post may have made that member a GM in an earlier example.
    membership = Membership.objects.filter(campaign=campaign).exclude(user=gm).first()
    c = campaign.pk
    return [
        reverse("campaign_create"),
        reverse("campaign_edit", args=[c]),
        reverse("scenes", args=[c]),
        reverse("member_role", args=[c, membership.pk]),
        reverse("invite_create", args=[c]),
        reverse("profile"),
        reverse("password_change"),
    ]


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=JUNK_FORMS, index=st.integers(min_value=0, max_value=6))
def test_junk_to_member_forms_never_500(data, index, campaign, gm, client_for):
    client = client_for(gm)
    client.raise_request_exception = False
    url = form_urls(campaign, gm)[index]
    campaigns_before = Campaign.objects.count()
    response = client.post(url, data)
    assert response.status_code in (200, 302, 400, 403, 404), (url, data, response.status_code)
    if response.status_code != 302:
        assert Campaign.objects.count() == campaigns_before


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=JUNK_FORMS, url_name=st.sampled_from(["signup", "login"]))
def test_junk_to_public_forms_never_500(data, url_name, client):
    client.raise_request_exception = False
    response = client.post(reverse(url_name), data)
    assert response.status_code in (200, 302, 400, 429)  # 429: too many failures (throttled)


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(token=st.text(min_size=1, max_size=80).filter(lambda t: "/" not in t))
@example(token="\x00")  # PostgreSQL refuses text holding NUL: it must never reach a query
@example(token="abc\x00def")
@example(token="A" * 32)  # the shape of a token, no invite's
def test_junk_invite_tokens_explain_themselves(token, campaign, outsider, client_for):
    client = client_for(outsider)
    client.raise_request_exception = False
    response = client.post(f"/join/{quote(token, safe='')}/")
    assert response.status_code == 404
    assert not Membership.objects.filter(user=outsider).exists()
    assert Scene.objects.count() == 0
