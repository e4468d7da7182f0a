"""A player uploads a portrait on the sheet page; the table's character list and the roll
card that was already in the log show the picture at once (the card's address has no
version: it is revalidated), where the initials were before."""

from __future__ import annotations

import pytest
from PIL import Image
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
from table.writing import actions

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
campaign = services.create_campaign(gm, name="Portraits", description="", system="serenity")
Membership.objects.create(campaign=campaign, user=alice, role="player")
services.start_scene(campaign, services.create_scene(campaign, title="Docks", description="").pk, gm)
sheet = sheets.create_sheet(campaign, name="Zoe Washburne", kind="pc", owner=alice)
sheets.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
pool = [{"die": "d8", "trait": "Fightin'", "group": "stylins"}]
actions.perform(campaign, alice, "roll", {"pool": pool}, sheet_id=sheet.pk)
print(json.dumps({"campaign": campaign.pk, "sheet": sheet.pk}))
"""

# The served portrait is 256 px wide; the initials are an SVG drawn 64 wide.
CARD_AVATAR = "() => { const i = document.querySelector('#log .roll-card h3 img.avatar'); return i && i.complete && i.naturalWidth; }"
LIST_AVATAR = "(id) => { const i = document.querySelector(`#char-${id} img.avatar`); return i && i.complete && i.naturalWidth; }"


def test_an_uploaded_portrait_shows_on_the_table_at_once(chromium, daphne_server, tmp_path):
    ids = daphne_server.seed(SETUP)
    base = f"{daphne_server.url}/c/{ids['campaign']}"
    alice = log_in(chromium, daphne_server, "alice", viewport=(1200, 900))

    alice.goto(f"{base}/table/")
    assert wait_until(alice, CARD_AVATAR) == 64  # the initials, now in the browser's cache

    picture = tmp_path / "zoe.jpg"
    Image.new("RGB", (640, 480), "#3a6b8a").save(picture, "JPEG")
    alice.goto(f"{base}/sheets/{ids['sheet']}/")
    alice.get_by_label("Portrait (PNG, JPEG or WebP").set_input_files(str(picture))
    alice.get_by_role("button", name="Upload").click()
    expect(alice.locator("#messages")).to_contain_text("Portrait saved.")
    expect(alice.get_by_role("img", name="Portrait of Zoe Washburne")).to_be_visible()
    expect(alice.get_by_role("button", name="Remove portrait")).to_be_visible()

    alice.goto(f"{base}/table/")
    assert wait_until(alice, LIST_AVATAR, ids["sheet"]) == 256
    assert wait_until(alice, f"() => ({CARD_AVATAR})() === 256")
