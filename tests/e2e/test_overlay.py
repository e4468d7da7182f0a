"""The stream overlay in a browser: the GM makes a link on the campaign's token page; a
browser source opened on it (no login) is transparent and shows a secret roll as a
sealed card the moment it is rolled, opens it when the GM reveals it, and empties once
the link is revoked."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in, open_page, wait_until

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services

U = get_user_model()
c = services.create_campaign(U.objects.get(username="gm"), name="E2E overlay", description="", system="serenity")
scene = services.create_scene(c, title="On air", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk}))
"""


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)["id"]


def test_an_overlay_shows_players_view_live_and_stops_when_revoked(
    chromium, daphne_server, campaign
):
    gm = log_in(chromium, daphne_server, "gm")
    tokens_page = f"{daphne_server.url}/c/{campaign}/api-tokens/"
    gm.goto(tokens_page)
    gm.fill("#overlay-name", "Friday stream")
    gm.click("text=Create overlay link")
    link = gm.get_by_label("Your new overlay link").input_value()
    assert link.startswith(f"{daphne_server.url}/overlay/ov_")

    source = open_page(chromium, "obs")
    source.goto(link + "?n=3")
    expect(source.locator("#overlay-log > li")).to_have_count(1)  # the scene's start
    assert wait_until(source, "() => getComputedStyle(document.body).backgroundColor") == (
        "rgba(0, 0, 0, 0)"
    )
    assert source.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == (
        "rgba(0, 0, 0, 0)"
    )

    gm.goto(f"{daphne_server.url}/c/{campaign}/table/")
    expect(gm.locator("#socket-status")).to_have_attribute("data-state", "live")
    form = gm.locator("form[action$='/table/gm/roll/']")
    form.locator("select[name=die]").first.select_option("d12")
    form.locator("input[name=die_name]").first.fill("Hidden sniper")
    form.locator("[name=visibility]").select_option("gm")
    form.locator("button[type=submit]").click()
    expect(gm.locator("#log > li[data-seq]").first).to_contain_text("Hidden sniper")
    seq = gm.locator("#log > li[data-seq]").first.get_attribute("data-seq")

    card = source.locator(f"#event-{seq}")
    expect(card).to_contain_text("The GM rolled behind the screen")
    assert "Hidden sniper" not in source.content()

    gm.locator(f"#event-{seq} .gm-card-menu summary").click()
    gm.locator(f"#event-{seq} button", has_text="Reveal").click()
    expect(card).to_contain_text("Hidden sniper")

    gm.goto(tokens_page)
    gm.locator("form[action*='/overlay-links/'] button", has_text="Revoke").click()
    expect(gm.locator("h1")).to_contain_text("Revoke the overlay link")  # it asks first
    gm.get_by_role("button", name="Revoke link").click()
    expect(gm.locator(".messages")).to_contain_text("revoked")
    gm.goto(f"{daphne_server.url}/c/{campaign}/table/")
    expect(gm.locator("#socket-status")).to_have_attribute("data-state", "live")
    form.locator("select[name=die]").first.select_option("d6")
    form.locator("input[name=die_name]").first.fill("Thugs")
    form.locator("[name=visibility]").select_option("public")
    form.locator("button[type=submit]").click()
    expect(source.locator("#overlay-log > li")).to_have_count(0)  # the next event ended it
    assert source.goto(link).status == 404
