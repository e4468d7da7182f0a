"""The table page of every game, for a player and the GM, on a phone (390 px) and a
laptop (1366 px), in the light and the dark theme, with a voided, a sealed and a
revealed card of the game's own roll in the log: axe-core finds no serious or critical
violation (issue #27, 9). A voided card is still read: struck out, but in the palette's
contrast (no opacity over the whole card). A table that scrolls sideways (the
characters' points and stress in a narrow column) can be reached and scrolled by
keyboard."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import log_in
from .test_play_surface import TYPICAL
from .test_table_play import SETUP

pytestmark = [pytest.mark.e2e, pytest.mark.axe]

SIZES = {"phone": (390, 844), "laptop": (1366, 900)}
SYSTEMS = ("serenity", "cortex_slots", "smallville", "personae", "unisystem")

# In each game's log: Alice's typical pool rolled in the open and voided by the GM, rolled
# blind (sealed to the players) and rolled blind and revealed, as her builder rolls it.
CARDS = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.http import QueryDict
from campaigns.models import Campaign, Membership
from sheets.models import Sheet, Trait
from table.writing import actions
from table.pools import rolls

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
typical = json.loads(sys.argv[2])
for system, seeded in json.loads(sys.argv[1]).items():
    c = Campaign.objects.get(pk=seeded["id"])
    member = Membership.objects.get(campaign=c, user=alice)
    sheet = Sheet.objects.get(pk=seeded["sheets"]["alice"])
    if system == "personae":  # PER-1: the GM's number to beat
        actions.perform(c, gm, "set_difficulty", {"difficulty": 9})
    data = QueryDict(mutable=True)
    data.setlist("trait", [str(t.pk) for t in Trait.objects.filter(sheet=sheet, name__in=typical[system])])
    data["goal"] = "Hold the line"
    struck = rolls.roll_pool(c, member, alice, sheet, data).event
    actions.void(c, gm, struck.pk, "Rolled the wrong pool")
    rolls.roll_pool(c, member, alice, sheet, data, visibility="blind")
    shown = rolls.roll_pool(c, member, alice, sheet, data, visibility="blind").event
    actions.reveal(c, gm, shown.pk)
print(json.dumps(None))
"""


@pytest.fixture(scope="module")
def table(daphne_server):
    seeded = daphne_server.seed(SETUP)
    daphne_server.seed(CARDS, json.dumps(seeded), json.dumps(TYPICAL))
    return seeded


def _the_cards_are_in_the_log(page, who: str) -> None:
    cards = page.locator("#log .roll-card")
    expect(cards.and_(page.locator(".voided"))).to_have_count(1)
    expect(cards.and_(page.locator(".revealed"))).to_have_count(1)
    sealed = ".sealed-card" if who == "alice" else ".visibility-blind:not(.revealed)"
    expect(cards.and_(page.locator(sealed))).to_have_count(1)
    voided = page.locator("#log .roll-card.voided")
    assert voided.evaluate("el => getComputedStyle(el).opacity") == "1"
    headline = voided.locator(".headline").first
    assert "line-through" in headline.evaluate("el => getComputedStyle(el).textDecorationLine")


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation_on_any_games_table(chromium, daphne_server, table, scheme, size):
    found: dict[str, list[dict]] = {}
    for who in ("alice", "gm"):
        page = log_in(chromium, daphne_server, who, viewport=SIZES[size])
        install_axe(page)
        page.emulate_media(color_scheme=scheme)
        for system in SYSTEMS:
            page.goto(f"{daphne_server.url}/c/{table[system]['id']}/table/")
            expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
            _the_cards_are_in_the_log(page, who)
            if violations := serious_violations(page):
                found[f"{who} {system}"] = violations
            if size == "phone":  # each tab in turn: only the one shown is read
                for tab in ("Log", "The table"):
                    page.get_by_role("tab", name=tab).click()
                    if violations := serious_violations(page):
                        found[f"{who} {system}, {tab}"] = violations
        page.context.close()
    assert not found, f"axe-core, {scheme} theme, {size}:\n" + describe(found)
