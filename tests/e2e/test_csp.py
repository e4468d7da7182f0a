"""Every page works under the Content-Security-Policy, in chromium.

The server runs on the defaults (DEBUG off, the policy on; tests/e2e/conftest.py), and
every browser test fails on a violation the browser reports. Here: the detector itself
is shown to catch one, then the GM, a player, a visitor and a staff member open every
kind of page, the admin's included, and use what runs script on each (htmx requests,
the live socket, the invite link's select-on-focus, the admin's own scripts).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import EXPECT_TIMEOUT_MS, PASSWORD, log_in, open_page, page_errors

pytestmark = pytest.mark.e2e

SETUP = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets import services as sheets

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
staff, _ = U.objects.get_or_create(username="inara", defaults={"is_staff": True, "is_superuser": True})
staff.set_password(sys.argv[1]); staff.save()
campaign = services.create_campaign(gm, name="Policy check", description="", system="serenity")
Membership.objects.create(campaign=campaign, user=alice, role="player")
services.create_invite(campaign, gm, "player")
sheet = sheets.create_sheet(campaign, name="Mal", kind="pc", owner=alice)
sheets.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
scene = services.create_scene(campaign, title="Policy scene", description="")
services.start_scene(campaign, scene.pk)
print(json.dumps({"campaign": campaign.pk, "sheet": sheet.pk, "staff": staff.pk}))
"""


@pytest.fixture(scope="module")
def ids(daphne_server):
    return daphne_server.seed(SETUP, PASSWORD)


def visit(page, url: str) -> None:
    response = page.goto(url)
    assert response.status == 200, url
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
    page.wait_for_load_state("networkidle")


def test_a_violation_fails_the_test(chromium, daphne_server, ids):
    """The guard every browser test relies on: an inline style the policy refuses is
    reported, so a page that broke under the policy could not pass unnoticed."""
    page = log_in(chromium, daphne_server, "alice")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color:red\">x</p>')")
    deadline = time.monotonic() + EXPECT_TIMEOUT_MS / 1000
    reported: list[str] = []  # page_errors() hands each error over once
    while not any("CSP violation" in e for e in reported) and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the violation event is queued after the insertion
        reported += [e for errors in page_errors().values() for e in errors]
    assert any("CSP violation" in e for e in reported), reported
    page.context.close()


def test_every_page_works_under_the_policy(chromium, daphne_server, ids):
    base, campaign, sheet = daphne_server.url, ids["campaign"], ids["sheet"]
    gm = log_in(chromium, daphne_server, "gm")
    for path in [
        "/campaigns/", f"/c/{campaign}/", f"/c/{campaign}/scenes/", f"/c/{campaign}/sheets/",
        f"/c/{campaign}/sheets/{sheet}/", f"/c/{campaign}/sheets/import/", "/rules/",
        "/rules/serenity/", "/accounts/profile/", "/accounts/password/", "/campaigns/new/",
    ]:  # fmt: skip
        visit(gm, base + path)
    visit(gm, f"{base}/c/{campaign}/members/")
    invite = gm.locator("input[data-select-on-focus]").first
    invite.focus()
    expect(invite).to_have_js_property("selectionEnd", len(invite.input_value()))
    visit(gm, f"{base}/c/{campaign}/table/")
    expect(gm.locator("#socket-status")).to_have_attribute("data-state", "live")
    expect(gm.locator("#scene-panel")).to_contain_text("Policy scene")

    alice = log_in(chromium, daphne_server, "alice")
    visit(alice, f"{base}/c/{campaign}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    builder = alice.locator(f"#builder-{sheet}")
    # Typing in a number field re-renders the builder once typing pauses (poolinput, sent
    # by table.js; it was an htmx filter, which needs eval). Typed first, while nothing
    # else is on its way, so the answer awaited is the one the typing asked for.
    with alice.expect_response(lambda r: f"/table/pool/{sheet}/" in r.url) as answer:
        builder.locator("input[name=plot_points]").fill("1")
    assert answer.value.status == 200
    expect(builder.locator("input[name=plot_points]")).to_have_value("1")
    with alice.expect_response(lambda r: f"/table/pool/{sheet}/" in r.url) as answer:
        # The checkbox by its role: once the answer is swapped in, the odds chart is
        # labelled with the trait's name too.
        builder.get_by_role("checkbox", name=re.compile("Fightin'")).check()
    assert answer.value.status == 200
    expect(builder.locator(".trait-choice.is-selected")).to_have_count(1)
    expect(builder.locator("input[name=plot_points]")).to_have_value("1")

    visitor = open_page(chromium, "visitor")
    for path in ["/", "/accounts/login/", "/accounts/signup/", "/rules/", "/admin/login/"]:
        visit(visitor, base + path)

    visitor.fill("#id_username", "inara")
    visitor.fill("#id_password", PASSWORD)
    visitor.click("input[type=submit]")
    visitor.wait_for_url(f"{base}/admin/")
    for path in [
        "/admin/",
        "/admin/accounts/user/",
        f"/admin/accounts/user/{ids['staff']}/change/",
    ]:
        visit(visitor, base + path)
    # the admin's own scripts: the permissions picker is built by SelectFilter2.js
    expect(visitor.locator("#id_user_permissions_from")).to_be_visible()
    for page in (gm, alice, visitor):
        page.context.close()
