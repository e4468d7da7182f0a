"""In chromium, on a phone: the GM's chat line carries the GM badge (axe finds nothing
serious on the page) and a player's never does; the table page is never stored; logging out clears what the browser kept, and the same
browser logs in again (its CSRF cookie kept) and is back at the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import PASSWORD, log_in, wait_until

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice")}
c = services.create_campaign(users["gm"], name="E2E device", description="", system="serenity")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
print(json.dumps({"id": c.pk}))
"""


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)


def _say(page, text: str) -> None:
    page.select_option("#chat-speak", "ooc")
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    wait_until(page, "() => document.getElementById('chat-text').value === ''")


def test_the_gm_badge_and_a_clean_log_out(chromium, daphne_server, campaign):
    url = f"{daphne_server.url}/c/{campaign['id']}/table/"
    gm = log_in(chromium, daphne_server, "gm")
    alice = log_in(chromium, daphne_server, "alice", viewport=(390, 844))  # a phone
    install_axe(alice)
    answers = {}
    alice.on("response", lambda r: answers.setdefault(r.url.split("?")[0], r.all_headers()))
    for page in (gm, alice):
        page.goto(url)
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    assert answers[url]["cache-control"] == "private, no-store"

    _say(gm, "Roll for initiative.")
    _say(alice, "Roll for initiative.")
    cards = alice.locator("#log .chat-card")
    expect(cards).to_have_count(2)
    expect(cards.nth(1).locator(".role-badge")).to_have_text("GM")  # the log is newest first
    expect(cards.nth(0).locator(".role-badge")).to_have_count(0)
    violations = serious_violations(alice)
    assert not violations, describe({"player table with the GM's line": violations})

    with alice.expect_response(lambda r: r.url.split("?")[0].endswith("/accounts/logout/")) as out:
        alice.get_by_role("button", name="Log out").click()
    alice.wait_for_url(lambda address: "/c/" not in address)
    logout = out.value.all_headers()
    assert logout["clear-site-data"] == '"cache", "storage"'
    alice.goto(url)
    alice.wait_for_url(lambda address: "/accounts/login/" in address)
    alice.fill("#id_username", "alice")
    alice.fill("#id_password", PASSWORD)
    alice.click("main button[type=submit]")
    alice.wait_for_url(lambda address: address.startswith(url))
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    expect(alice.locator("#log .chat-card")).to_have_count(2)
    for page in (gm, alice):
        page.context.close()
