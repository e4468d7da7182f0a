"""The GM whispers to one player from the chat line's "speak" picker: that player reads
it, another player sees only the sealed line "The GM whispered to Alice".

Issue #27, 8: at a phone's size (390 × 844, the chat line on the Log tab) and a laptop's
(1366 × 900). One game is enough: the chat line, its picker and the whisper's line are
the table's own (table/templates/table/_chat.html, table.acting.whispers), with no game's
markup or words in them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice", "bob")}
c = services.create_campaign(users["gm"], name="E2E GM whisper", description="", system="serenity")
for p in ("alice", "bob"):
    Membership.objects.create(campaign=c, user=users[p], role="player")
print(json.dumps({"id": c.pk, "alice": users["alice"].pk}))
"""

SECRET = "The captain is lying to you"


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.mark.parametrize("viewport", [(390, 844), (1366, 900)], ids=["phone", "laptop"])
def test_the_gm_whispers_to_one_player(chromium, daphne_server, campaign, viewport):
    url = f"{daphne_server.url}/c/{campaign['id']}/table/"
    pages = {
        name: log_in(chromium, daphne_server, name, viewport=viewport)
        for name in ("gm", "alice", "bob")
    }
    for page in pages.values():
        page.goto(url)
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    if viewport[0] < 600:  # on a phone the log and the chat line are on the Log tab
        for page in pages.values():
            page.get_by_role("tab", name="Log").click()
    gm = pages["gm"]
    gm.select_option("#chat-speak", f"whisper:{campaign['alice']}")
    gm.fill("#chat-text", SECRET)
    gm.press("#chat-text", "Enter")
    alice_name = "Alice"
    for name in ("gm", "alice"):
        expect(pages[name].locator("#log")).to_contain_text(SECRET)
    expect(pages["bob"].locator("#log")).to_contain_text(f"The GM whispered to {alice_name}")
    assert SECRET not in pages["bob"].content()
    for page in pages.values():
        page.context.close()
