"""The stream overlay: a GM's revocable link shows the campaign's last few events as
players see them (a sealed card for a secret roll, never its dice), on a transparent
page that updates itself; a revoked or unknown link is a 404."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from api import access
from api.models import OverlayLink
from table.models import TableEvent
from table.writing import actions
from tests.table.test_canary import CANARY, plant

from .conftest import open_stream

ROLL = {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]}
SECRET = {"pool": [{"die": "d10", "trait": "Hidden sniper", "group": "situation"}]}


@pytest.fixture
def serenity(table_for):
    t = table_for("serenity")
    t.start_scene()
    return t


def new_link(t) -> str:
    return access.create_overlay(t.campaign, t.gm, "Friday stream")[1]


def cards(html: str) -> list[str]:
    return re.findall(r'<li id="event-(\d+)"', html)


@pytest.mark.django_db
def test_the_gm_makes_a_link_shown_once_and_stored_as_a_digest(serenity, client_for):
    t = serenity
    client = client_for(t.gm)
    made = client.post(reverse("overlay_create", args=[t.campaign.pk]), {"name": "OBS"})
    assert made.status_code == 200
    url = re.search(
        r'value="(http://testserver/overlay/ov_[0-9a-f]{12}_[^/"]+/)"', made.content.decode()
    )[1]
    link = OverlayLink.objects.get()
    assert link.name == "OBS" and link.created_by == t.gm
    # ov_<12 hex>_<secret>: the secret itself may hold "_" (URL-safe base64).
    secret = re.search(r"/overlay/ov_[0-9a-f]{12}_(.+)/$", url)[1]
    assert secret not in str(list(OverlayLink.objects.values()))
    page = client.get(reverse("api_tokens", args=[t.campaign.pk])).content.decode()
    assert "OBS" in page and secret not in page
    assert Client().get(url).status_code == 200  # no login: the link is the key
    for who in (t.player, t.observer):
        refused = client_for(who).post(
            reverse("overlay_create", args=[t.campaign.pk]), {"name": "x"}
        )
        assert refused.status_code == 403
        assert (
            "Overlay links of"
            not in client_for(who).get(reverse("api_tokens", args=[t.campaign.pk])).content.decode()
        )
    assert OverlayLink.objects.count() == 1


@pytest.mark.django_db
def test_the_overlay_shows_public_rolls_and_seals_a_secret_one(serenity):
    t = serenity
    text = new_link(t)
    public = actions.perform(t.campaign, t.player, "roll", {"pool": [
        {"die": "d10", "trait": "Fightin'", "group": "stylins"}]}, sheet_id=t.pc.pk)  # fmt: skip
    secret = actions.perform(t.campaign, t.gm, "roll", SECRET, visibility="gm")
    answer = Client().get(reverse("overlay", args=[text]))
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"] and answer["Referrer-Policy"] == "no-referrer"
    html = answer.content.decode()
    assert cards(html) == [str(secret.seq), str(public.seq), "1"]  # newest first
    assert "Fightin" in html and "The GM rolled behind the screen" in html
    assert "Hidden sniper" not in html and "d10 Hidden" not in html
    assert "overlay.css" in html and "overlay.js" in html
    assert "<script>" not in html and "style=" not in html  # the policy allows neither
    shown = Client().get(reverse("overlay", args=[text]), {"n": "2"}).content.decode()
    assert cards(shown) == [str(secret.seq), str(public.seq)]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "system", ["serenity", "smallville", "cortex_slots", "personae", "unisystem"]
)
def test_no_hidden_marker_reaches_the_overlay(table_for, faces, system):
    t = table_for(system)
    markers = plant(t, system)
    assert markers
    text = new_link(t)
    count = TableEvent.objects.filter(campaign=t.campaign).count()
    html = Client().get(reverse("overlay", args=[text]), {"n": "20"}).content.decode()
    assert len(cards(html)) == min(count, 20)
    assert not CANARY.findall(html)


@pytest.mark.django_db
def test_a_revoked_or_unknown_link_is_not_found(serenity, client_for):
    t = serenity
    text = new_link(t)
    link = OverlayLink.objects.get()
    revoked = client_for(t.gm).post(
        reverse("overlay_revoke", args=[t.campaign.pk, link.pk]), {"confirm": "yes"}
    )
    assert revoked.status_code == 302
    for key in (text, text[:-1] + "x", "ov_0123456789ab_" + "x" * 43, "nothing"):
        assert Client().get(reverse("overlay", args=[key])).status_code == 404
        assert Client().get(reverse("overlay_stream", args=[key])).status_code == 404
    player = client_for(t.player).post(reverse("overlay_revoke", args=[t.campaign.pk, link.pk]))
    assert player.status_code == 403


@pytest.mark.django_db
def test_revoking_an_overlay_link_asks_first(serenity, client_for):
    t = serenity
    text = new_link(t)
    link = OverlayLink.objects.get()
    url = reverse("overlay_revoke", args=[t.campaign.pk, link.pk])
    asked = client_for(t.gm).post(url)
    assert asked.status_code == 200
    assert f"Revoke the overlay link “{link.name}”?" in asked.content.decode()
    assert Client().get(reverse("overlay", args=[text])).status_code == 200
    assert client_for(t.gm).post(url, {"confirm": "yes"}).status_code == 302
    assert Client().get(reverse("overlay", args=[text])).status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_the_overlay_updates_itself_and_opens_a_card_on_reveal(table_for, quiet_streams):
    t = await sync_to_async(table_for)("serenity")
    await sync_to_async(t.start_scene)()
    text = await sync_to_async(new_link)(t)
    _, stream = await open_stream(reverse("overlay_stream", args=[text]), None, n="3")
    try:
        (first,) = await stream.events(1)  # what it shows now
        assert first.event == "cards" and cards(first.data["html"]) == ["1"]
        secret = await sync_to_async(actions.perform)(
            t.campaign, t.gm, "roll", SECRET, visibility="gm"
        )
        (update,) = await stream.events(1)
        assert cards(update.data["html"]) == [str(secret.seq), "1"]
        assert (
            "behind the screen" in update.data["html"]
            and "Hidden sniper" not in update.data["html"]
        )
        await sync_to_async(actions.reveal)(t.campaign, t.gm, secret.pk)
        (opened,) = await stream.events(1)
        assert cards(opened.data["html"])[1] == str(secret.seq)
        assert "Hidden sniper" in opened.data["html"]  # revealed: now everyone's
        await sync_to_async(OverlayLink.objects.update)(revoked_at="2030-01-01T00:00:00Z")
        await sync_to_async(actions.perform)(t.campaign, t.gm, "roll", ROLL)
        (end,) = await stream.events(1)
        assert end.event == "end" and end.data["revoked"] is True
    finally:
        await stream.close()
