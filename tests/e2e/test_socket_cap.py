"""One table open in more tabs than a user may keep (TABLE_SOCKETS_PER_USER, 6 by
default): the oldest tab says why it stopped and does not reconnect by itself, so it
never fights the newer tabs; the newer tabs stay live."""

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
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
c = services.create_campaign(gm, name="E2E tabs", description="", system="serenity")
Membership.objects.create(campaign=c, user=alice, role="player")
print(json.dumps({"id": c.pk}))
"""
CAP = 6
REPLACED = (
    "You opened this table in another tab or device; this one was closed. Reload to use it here."
)


def test_the_oldest_tab_says_why_it_closed_and_stays_closed(chromium, daphne_server):
    campaign = daphne_server.seed(SETUP)["id"]
    url = f"{daphne_server.url}/c/{campaign}/table/"
    first = log_in(chromium, daphne_server, "alice")
    opened: list[str] = []
    first.on("websocket", lambda ws: opened.append(ws.url))
    first.goto(url)
    status = first.locator("#socket-status")
    expect(status).to_have_attribute("data-state", "live")
    newer = []
    for _ in range(CAP):
        page = first.context.new_page()  # the same browser: another tab
        page.goto(url)
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
        newer.append(page)
    expect(status).to_have_attribute("data-state", "closed")
    expect(status).to_contain_text(REPLACED)
    expect(first.locator("#table-notice")).to_contain_text(REPLACED)
    # Past the page's first retry (1 s) and the extension's: it stays closed.
    first.wait_for_timeout(2500)
    assert len(opened) == 1, opened
    expect(status).to_have_attribute("data-state", "closed")
    for page in newer:
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    first.context.close()
