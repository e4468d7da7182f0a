"""The action order in three browsers: the GM starts a popcorn order from the scene
panel, the spotlight passes from the GM to a player and from that player to another,
and every page shows whose turn it is, live; a player whose character does not hold the
spotlight has no control to pass it. In Unisystem the order is initiative by Dexterity."""

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
from sheets.models import Trait
from sheets.services import create_sheet

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice", "bob")}
out = {}
for system in ("serenity", "unisystem"):
    c = services.create_campaign(users["gm"], name=f"Order {system}", description="", system=system)
    sheets = {}
    for p, hero in (("alice", "Ace"), ("bob", "Bo")):
        Membership.objects.create(campaign=c, user=users[p], role="player")
        s = create_sheet(c, name=hero, kind="pc", owner=users[p])
        sheets[p] = s.pk
        if system == "unisystem":
            dex = 2 if p == "alice" else 5
            Trait.objects.filter(sheet=s, group="attributes", name="Dexterity").update(rating=dex)
    hidden = create_sheet(c, name="Mr Universe", kind="npc", hidden=True)
    sheets["hidden"] = hidden.pk
    scene = services.create_scene(c, title="The bridge", description="")
    services.start_scene(c, scene.pk)
    out[system] = {"id": c.pk, "sheets": sheets}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.fixture(scope="module")
def pages(chromium, daphne_server):
    return {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}


def _open(pages, server, cid) -> None:
    for page in pages.values():
        page.goto(f"{server.url}/c/{cid}/table/")
    for page in pages.values():
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


def _everyone_sees(pages, text: str) -> None:
    for page in pages.values():
        expect(page.locator("#order-tracker .order-now")).to_contain_text(text)


def test_the_gm_starts_a_popcorn_order_and_the_spotlight_passes_on_every_page(
    pages, daphne_server, table
):
    _open(pages, daphne_server, table["serenity"]["id"])
    gm, alice, bob = pages["gm"], pages["alice"], pages["bob"]
    sheets = table["serenity"]["sheets"]
    expect(alice.locator("#order-start-form")).to_have_count(0)  # the GM's control only
    gm.check(f"#order-start-{sheets['hidden']}")
    gm.select_option("#order-first", value="0")  # the GM's side starts
    gm.click("#order-start")
    _everyone_sees(pages, "The GM’s turn")
    for page in (alice, bob):
        expect(page.locator("#order-tracker")).to_contain_text("GM character #3")
        expect(page.locator("#order-tracker")).not_to_contain_text("Mr Universe")
        expect(page.locator("#order-pass")).to_have_count(0)
    expect(gm.locator("#order-tracker")).to_contain_text("Mr Universe")

    gm.select_option("#order-to", label="Ace")
    gm.click("#order-pass")
    _everyone_sees(pages, "Ace’s turn")
    expect(bob.locator("#order-pass")).to_have_count(0)
    alice.select_option("#order-to", label="Bo")
    alice.click("#order-pass")
    _everyone_sees(pages, "Bo’s turn")
    for page in pages.values():
        expect(page.locator(".order-slot.acted")).to_have_count(2)
        expect(page.locator("#log")).to_contain_text("Ace hands the spotlight to Bo")
    expect(alice.locator("#order-pass")).to_have_count(0)
    # Bo hands to the hidden GM character, the last to act; then the round ends and
    # whoever acted last starts the next.
    bob.select_option("#order-to", label="GM character #3")
    bob.click("#order-pass")
    _everyone_sees(pages, "GM character #3’s turn")
    gm.select_option("#order-to", label="Bo")
    gm.click("#order-pass")
    _everyone_sees(pages, "Round 2: ▶ Bo’s turn")


def test_unisystem_initiative_goes_down_the_line_by_dexterity(pages, daphne_server, table):
    _open(pages, daphne_server, table["unisystem"]["id"])
    gm, alice, bob = pages["gm"], pages["alice"], pages["bob"]
    expect(gm.locator("#order-by")).to_have_value("Dexterity")
    gm.click("#order-start")
    _everyone_sees(pages, "Bo’s turn")  # Dexterity 5 before 2
    expect(alice.locator("#order-pass")).to_have_count(0)
    bob.click("#order-pass")  # "End my turn"
    _everyone_sees(pages, "Ace’s turn")
    alice.click("#order-pass")
    _everyone_sees(pages, "Round 2")
