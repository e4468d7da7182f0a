"""Typing on a sheet and leaving before it saved asks first; once saved, leaving is quiet.

Daphne serves the app from a subprocess; Debian's chromium drives one logged-in player.
The browser's own "Leave site?" question is a beforeunload dialog, which the test sees
(and answers "stay") through page.on("dialog").
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in, wait_until

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets import services as sheets

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
campaign = services.create_campaign(gm, name="Unsaved typing", description="", system="serenity")
Membership.objects.create(campaign=campaign, user=alice, role="player")
sheet = sheets.create_sheet(campaign, name="Kaylee", kind="pc", owner=alice)
trait = sheets.add_trait(sheet, "stylins", {"name": "Tinkerin'", "die": "d8"}, {})
print(json.dumps({"campaign": campaign.pk, "sheet": sheet.pk, "trait": trait.pk}))
"""


@pytest.fixture(scope="module")
def ids(daphne_server):
    return daphne_server.seed(SETUP)


def test_leaving_with_unsaved_typing_asks_and_after_saving_does_not(chromium, daphne_server, ids):
    campaign, trait = ids["campaign"], ids["trait"]
    sheet_url = f"{daphne_server.url}/c/{campaign}/sheets/{ids['sheet']}/"
    page = log_in(chromium, daphne_server, "alice", viewport=(1100, 900))
    page.goto(sheet_url)
    asked: list[str] = []

    def stay(dialog) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", stay)
    scenes = page.locator("nav.campaign-nav").get_by_role("link", name="Scenes")

    # Nothing typed: a reload is quiet.
    page.reload()
    assert asked == []

    # Typed, not saved: following a link asks, and staying keeps the page and the typing.
    notes = page.locator(f"#t{trait}-notes")
    notes.click()
    page.keyboard.type("Talks to engines")
    with page.expect_event("dialog"):
        scenes.click()
    expect(notes).to_have_value("Talks to engines")
    assert asked == ["beforeunload"]
    assert page.url == sheet_url

    # Saved (the field saves itself when left): leaving is quiet. Clicking the link above
    # already left the field, so its save may be under way or done by now; pressing Tab
    # leaves it again, and the page is left once nothing is marked unsaved any more.
    notes.press("Tab")
    wait_until(page, "() => document.querySelector('[data-dirty]') === null")
    expect(notes).to_have_value("Talks to engines")
    scenes.click()
    page.wait_for_url(f"{daphne_server.url}/c/{campaign}/scenes/")
    assert asked == ["beforeunload"]
