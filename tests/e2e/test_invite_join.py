"""A friend's first night, from the invite link: the GM copies the link from the members
page, a friend with no account opens it logged out, reads which campaign, game and GM it
is for, signs up on that page and is in, at their character's creation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import log_in, open_page

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services

gm = get_user_model().objects.get(username="gm")
campaign = services.create_campaign(gm, name="Jaynestown Nights", description="", system="serenity")
print(json.dumps({"campaign": campaign.pk, "game": campaign.get_system_display()}))
"""


@pytest.fixture(scope="module")
def seeded(daphne_server):
    return daphne_server.seed(SETUP)


def test_a_logged_out_friend_signs_up_on_the_invite_and_is_in(chromium, daphne_server, seeded):
    campaign = seeded["campaign"]
    gm = log_in(chromium, daphne_server, "gm")
    gm.goto(f"{daphne_server.url}/c/{campaign}/members/")
    gm.get_by_role("button", name="Create invite link").click()
    link_field = gm.get_by_role("textbox", name="Player invite link")
    link = link_field.input_value()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/join/[\w-]+/", link), link
    # This server listens on loopback only: the page says the link works here alone.
    expect(gm.get_by_text("These links only open on this machine")).to_be_visible()
    expect(gm.locator("details.invite-qr svg.qr")).to_be_visible()
    copy = gm.get_by_role("button", name=re.compile("^Copy link"))
    copy.click()
    expect(gm.locator("[data-copy-status]")).to_have_text("Copied")

    friend = open_page(chromium, "friend", viewport=(390, 844))  # a phone
    friend.goto(link)
    welcome = friend.locator("section.welcome")
    expect(welcome).to_contain_text("Jaynestown Nights")
    expect(welcome).to_contain_text(seeded["game"])
    expect(welcome).to_contain_text("The GM")
    expect(welcome).to_contain_text("You will join as Player")
    friend.get_by_label("Username", exact=True).first.fill("simon")
    friend.locator("#signup_password1").fill("a doctor on the run")
    friend.locator("#signup_password2").fill("a doctor on the run")
    friend.get_by_role("button", name="Sign up and join").click()

    friend.wait_for_url(f"**/c/{campaign}/sheets/new/")
    expect(friend.locator("#messages")).to_contain_text(
        "You joined Jaynestown Nights as Player. Make your character next."
    )
    friend.goto(f"{daphne_server.url}/c/{campaign}/table/")
    expect(friend.locator("h1, .campaign-title").first).to_contain_text("Jaynestown Nights")
    gm.context.close()
    friend.context.close()


@pytest.mark.axe
def test_the_invite_pages_have_no_serious_accessibility_violation(chromium, daphne_server, seeded):
    campaign = seeded["campaign"]
    gm = log_in(chromium, daphne_server, "gm")
    install_axe(gm)
    gm.goto(f"{daphne_server.url}/c/{campaign}/members/")
    if not gm.get_by_role("textbox", name="Player invite link").count():
        gm.get_by_role("button", name="Create invite link").click()
    link = gm.get_by_role("textbox", name="Player invite link").first.input_value()
    found = {"members": serious_violations(gm)}
    friend = open_page(chromium, "friend")
    install_axe(friend)
    friend.goto(link)
    expect(friend.locator("section.welcome")).to_be_visible()
    found["invite, logged out"] = serious_violations(friend)
    found = {where: v for where, v in found.items() if v}
    assert not found, describe(found)
    gm.context.close()
    friend.context.close()
