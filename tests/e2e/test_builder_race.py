"""The pool builder under a player who is quicker than the server: a number typed while
the builder's answer to a click is still out must survive that answer replacing the
builder, and so must the player's place in the field (static/js/table.js). The answer
is held back at the network, so the race is the same on every run."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import EXPECT_TIMEOUT_MS, log_in, wait_until

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets.models import Trait
from sheets.services import create_sheet

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
c = services.create_campaign(gm, name="E2E builder race", description="", system="serenity")
Membership.objects.create(campaign=c, user=alice, role="player")
s = create_sheet(c, name="Ace", kind="pc", owner=alice, counters={"plot_points": 2})
Trait.objects.create(sheet=s, group="stylins", name="Fightin'", die=10)
Trait.objects.create(sheet=s, group="values", name="Loyalty", die=8)
print(json.dumps({"id": c.pk, "sheet": s.pk}))
"""
SELECTED = re.compile(r"(^|\s)is-selected(\s|$)")


def test_a_number_typed_while_a_click_is_answered_is_kept(chromium, daphne_server):
    seeded = daphne_server.seed(SETUP)
    page = log_in(chromium, daphne_server, "alice")
    page.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    builder = f"#builder-{seeded['sheet']}"
    held = []

    def hold_builder_posts(route) -> None:
        if route.request.method == "POST" and not held:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/table/pool/\d+/$"), hold_builder_posts)
    page.locator(f"{builder} label.trait-choice", has_text="Fightin'").click()
    deadline = time.monotonic() + EXPECT_TIMEOUT_MS / 1000
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the click sent no request"
    target = page.locator(f"{builder} [name=target]")
    target.click()
    page.keyboard.type("9")
    held[0].continue_()  # the click's answer lands before the typing's pause is over

    expect(page.locator(f"{builder} label.trait-choice", has_text="Fightin'")).to_have_class(
        SELECTED
    )
    expect(page.locator(f"{builder} [name=target]")).to_have_value("9")
    # The server heard the 9: the odds are against it.
    expect(page.locator(f"{builder} .odds-summary")).to_contain_text(re.compile(r"\b9\b"))
    wait_until(page, "() => document.activeElement && document.activeElement.name === 'target'")
    page.unroute(re.compile(r"/table/pool/\d+/$"))
    page.context.close()
