"""Coming back after an outage: a table page tries again every few seconds at most, so it
is live again within a few seconds of the server's return however long it was gone, and
the pages of one table do not all try in the same instant (static/js/table.js).

The outage is played in the browser (Playwright routes the page's websockets): while it
lasts every connection is closed at once with 1012 (service restart) or refused by a
client-side close, the two ways the page meets a server that is away.

Issue #27, 13: the page comes back at a phone's size (390 × 844) and a laptop's (1366 ×
900). One game is enough: the socket, its status and its schedule are the table page's
own (static/js/table.js), the same markup and script in every game."""

from __future__ import annotations

import time

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
from sheets.services import create_sheet

U = get_user_model()
gm, alice = (U.objects.get(username=n) for n in ("gm", "alice"))
c = services.create_campaign(gm, name="Outage", description="", system="serenity")
Membership.objects.create(campaign=c, user=alice, role="player")
create_sheet(c, name="Ace", kind="pc", owner=alice, counters={"plot_points": 1})
print(json.dumps({"id": c.pk}))
"""

CEILING_MS = 4000  # static/js/table.js RECONNECT_CEILING_MS
OUTAGE_S = 10.0
SIZES = {"phone": (390, 844), "laptop": (1366, 900)}


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def test_the_wait_between_tries_is_capped_and_spread(chromium, daphne_server, table):
    page = log_in(chromium, daphne_server, "alice")
    page.goto(f"{daphne_server.url}/c/{table['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    schedule = page.evaluate(
        """() => {
          const delay = htmx.config.wsReconnectDelay;
          if (typeof delay !== "function") { return null; }
          const out = {};
          for (const attempt of [0, 1, 2, 3, 6, 12, 40]) {
            const draws = Array.from({length: 200}, () => delay(attempt));
            out[attempt] = [Math.min(...draws), Math.max(...draws)];
          }
          return out;
        }"""
    )
    assert schedule is not None, "the websocket extension still uses its own schedule (up to 64 s)"
    assert schedule["0"][1] <= 500  # the first try comes at once
    for attempt, (_low, high) in schedule.items():
        assert high <= CEILING_MS, (attempt, high)
    low, high = schedule["40"]
    assert low >= CEILING_MS / 2  # a page that lost the server long ago is no faster...
    assert high - low >= CEILING_MS / 4  # ...and the pages of a table are spread out
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_page_is_live_within_seconds_of_the_servers_return(chromium, daphne_server, table, size):
    page = log_in(chromium, daphne_server, "alice", viewport=SIZES[size])
    state = {"away": False, "tries": []}

    def route(ws):
        if state["away"]:
            state["tries"].append(time.monotonic())
            ws.close(code=1012, reason="restarting")
        else:
            ws.connect_to_server()

    page.route_web_socket("**/ws/**", route)
    page.goto(f"{daphne_server.url}/c/{table['id']}/table/")
    status = page.locator("#socket-status")
    expect(status).to_have_attribute("data-state", "live")

    state["away"] = True
    page.evaluate("() => window.rollcallSocket.close(4000, 'server gone')")
    wait_until(page, "() => document.getElementById('socket-status').dataset.state !== 'live'")
    page.wait_for_timeout(OUTAGE_S * 1000)  # the route handler runs while Playwright waits
    assert len(state["tries"]) >= 3, "the page stopped trying while the server was away"
    state["away"] = False
    back = time.monotonic()
    expect(status).to_have_attribute("data-state", "live", timeout=30_000)
    waited = time.monotonic() - back
    # At most one wait of the ceiling, and the connection itself (slack for a loaded machine).
    assert waited <= CEILING_MS / 1000 + 6, f"live again {waited:.1f} s after the server's return"
    page.context.close()
