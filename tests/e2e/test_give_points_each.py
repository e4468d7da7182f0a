"""The GM gives every player character a plot point in one click from the dashboard: one
card reaches the players' log, and each sheet's points go up."""

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
from sheets.services import create_sheet

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice", "bob")}
out = {}
for system in ("serenity", "unisystem"):
    c = services.create_campaign(users["gm"], name=f"Give {system}", description="", system=system)
    for p, hero in (("alice", "Ace"), ("bob", "Bo")):
        Membership.objects.create(campaign=c, user=users[p], role="player")
        create_sheet(c, name=hero, kind="pc", owner=users[p],
                     counters={"plot_points": 2, "drama_points": 2})
    create_sheet(c, name="Thugs", kind="npc", counters={"plot_points": 0, "drama_points": 0})
    out[system] = c.pk
print(json.dumps(out))
"""

WORDS = {"serenity": "1 plot point each", "unisystem": "1 Drama Point each"}


@pytest.fixture(scope="module")
def campaigns(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.mark.parametrize("system", list(WORDS))
def test_one_click_gives_every_player_character_a_point(chromium, daphne_server, campaigns, system):
    url = f"{daphne_server.url}/c/{campaigns[system]}/table/"
    alice = log_in(chromium, daphne_server, "alice", viewport=(1366, 900))
    alice.goto(url)
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    gm = log_in(chromium, daphne_server, "gm", viewport=(1366, 900))
    gm.goto(url)
    expect(gm.locator("#socket-status")).to_have_attribute("data-state", "live")
    form = gm.locator("form.give-each")
    form.locator("xpath=ancestor::details[1]/summary").click()
    form.get_by_role("button", name="Give to all player characters").click()
    headline = f"GM gave Ace and Bo {WORDS[system]}"
    expect(gm.locator("#gm-result")).to_contain_text(headline)
    expect(alice.locator("#log")).to_contain_text(headline)
    expect(alice.locator("#log .table-event", has_text="GM gave")).to_have_count(1)
    gm.context.close()
    alice.context.close()
