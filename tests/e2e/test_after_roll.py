"""After a roll (issue #27, 6): the pool is cleared, so a second tap on Roll cannot roll
it again, and Again brings it back in one tap; the GM's "Pools being built" drops it at
once and does not list it again when the player's builder next re-renders."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_table_play import SELECTED, SETUP, _click, _is_builder_post, _roll, _trait

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
LAPTOP = (1366, 900)
POOL = ["Fightin'", "Brawler"]
LIVE = re.compile(r"\bis-live\b")


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def _open(page: Page, server, campaign: int) -> None:
    page.goto(f"{server.url}/c/{campaign}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_roll_clears_the_pool_and_again_brings_it_back(chromium, daphne_server, table, viewport):
    system = "serenity"
    builder = f"#builder-{table[system]['sheets']['alice']}"
    page = log_in(chromium, daphne_server, "alice", viewport=viewport)
    _open(page, daphne_server, table[system]["id"])
    for name in POOL:
        if not SELECTED.search(_trait(page, builder, name).get_attribute("class") or ""):
            _click(page, builder, name)
    seq = _roll(page, builder)
    expect(page.locator(f"#event-{seq}")).to_be_attached()
    for name in POOL:
        expect(_trait(page, builder, name)).not_to_have_class(SELECTED)
    roll = page.locator(f"{builder} .pool-roll button[type=submit]")
    expect(roll).to_be_disabled()  # a second tap rolls nothing
    again = page.locator(f"{builder} .pool-again button").first
    expect(again).to_contain_text(POOL[0])
    with page.expect_response(_is_builder_post):
        again.click()
    for name in POOL:
        expect(_trait(page, builder, name)).to_have_class(SELECTED)
    expect(roll).to_be_enabled()
    page.context.close()


def test_the_gms_list_drops_a_rolled_pool_at_once(chromium, daphne_server, table):
    system = "serenity"
    sheet = table[system]["sheets"]["bob"]
    builder, slot = f"#builder-{sheet}", f"#live-pool-{sheet}"
    gm = log_in(chromium, daphne_server, "gm", viewport=LAPTOP)
    bob = log_in(chromium, daphne_server, "bob", viewport=PHONE)
    for page in (gm, bob):
        _open(page, daphne_server, table[system]["id"])
    for name in POOL:
        _click(bob, builder, name)
    expect(gm.locator(slot)).to_contain_text("Bo: ")
    seq = _roll(bob, builder)
    expect(gm.locator(f"#event-{seq}")).to_be_attached()
    expect(gm.locator(slot)).not_to_have_class(LIVE, timeout=1000)
    bob.wait_for_timeout(1000)
    expect(gm.locator(slot)).not_to_contain_text("Fightin'")
    # Bob's next move in the builder (who will see his next roll) lists nothing either.
    with bob.expect_response(_is_builder_post):
        bob.locator(f"{builder} select[name=visibility]").select_option("blind")
    bob.wait_for_timeout(500)
    expect(gm.locator(slot)).not_to_contain_text("Fightin'")
    expect(gm.locator(slot)).not_to_have_class(LIVE)
    gm.context.close()
    bob.context.close()
