"""A newcomer's character on a phone: a player opens New sheet, picks a starting
character by tapping it, sees the sheet say "Ready to roll", follows its link to the
table and rolls the first pool. The same picker works by keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_table_play import SEED_PRELUDE, _click, _roll

pytestmark = pytest.mark.e2e

PHONE = (390, 844)

SETUP = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="E2E starters", description="", system="serenity")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
Membership.objects.create(campaign=c, user=users["bob"], role="player")
scene = services.create_scene(c, title="Badger's office", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk}))
"""
)


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)["id"]


def _sheet_id(page: Page) -> int:
    found = re.search(r"/sheets/(\d+)/$", page.url)
    assert found, page.url
    return int(found.group(1))


def test_a_player_picks_a_starter_on_a_phone_and_rolls_at_the_table(
    chromium, daphne_server, campaign
):
    phone = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    phone.goto(f"{daphne_server.url}/c/{campaign}/sheets/new/")
    phone.get_by_label("Name").fill("Jo")
    phone.get_by_text("Old soldier").click()  # a tap on the card's words picks it
    expect(phone.locator("#starter-soldier")).to_be_checked()
    assert phone.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "the picker scrolls sideways on a phone"
    phone.get_by_role("button", name="Create sheet").click()
    phone.wait_for_url(re.compile(r"/sheets/\d+/$"))
    sheet = _sheet_id(phone)
    ready = phone.locator(f"#ready-{sheet}")
    expect(ready).to_contain_text("Ready to roll")

    ready.get_by_role("link", name="Open the table").click()
    expect(phone.locator("#socket-status")).to_have_attribute("data-state", "live")
    builder = f"#builder-{sheet}"
    _click(phone, builder, "Fightin'")
    _click(phone, builder, "War Veteran")
    seq = _roll(phone, builder)
    expect(phone.locator(f"#event-{seq}")).to_contain_text("Jo")
    phone.context.close()


def test_the_starter_picker_works_by_keyboard(chromium, daphne_server, campaign):
    page = log_in(chromium, daphne_server, "bob")
    page.goto(f"{daphne_server.url}/c/{campaign}/sheets/new/")
    page.get_by_label("Name").fill("Kay")
    page.keyboard.press("Tab")  # into the picker: the checked choice (Blank sheet) first
    expect(page.locator("#starter-blank")).to_be_focused()
    page.keyboard.press("ArrowDown")  # radios wrap: Blank sheet -> the first starter
    expect(page.locator("#starter-soldier")).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#starter-mechanic")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Create sheet")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    expect(page.locator(f"#ready-{_sheet_id(page)}")).to_contain_text("Ready to roll")
    expect(page.locator("body")).to_contain_text("Kay starts as Ship's mechanic")
    page.context.close()


def test_a_blank_sheet_step_by_step_on_a_phone(chromium, daphne_server, campaign):
    phone = log_in(chromium, daphne_server, "bob", viewport=PHONE)
    phone.goto(f"{daphne_server.url}/c/{campaign}/sheets/new/")
    phone.get_by_label("Name").fill("Wash")
    phone.get_by_role("button", name="Create sheet").click()  # the blank sheet is the default
    phone.wait_for_url(re.compile(r"/sheets/\d+/$"))
    sheet = _sheet_id(phone)
    expect(phone.locator(f"#ready-{sheet}")).to_contain_text("Not ready to roll yet")
    phone.get_by_role("link", name="Fill it in step by step").click()
    expect(phone.locator(".guide-progress")).to_have_text("Step 1 of 7: Stylin's")
    phone.get_by_text("Add a Stylin'").click()
    phone.get_by_label("Name", exact=True).fill("Fightin'")
    with phone.expect_response(lambda r: r.request.method == "POST" and "/add/" in r.url):
        phone.get_by_label("Name", exact=True).press("Enter")
    # The check on the page follows the save: a Stylin' is all a roll needs.
    expect(phone.locator(f"#ready-{sheet}")).to_contain_text("Ready to roll")
    phone.get_by_role("link", name="Next: Refinements").click()
    expect(phone.locator(".guide-progress")).to_have_text("Step 2 of 7: Refinements")
    phone.get_by_role("link", name="Back").click()
    expect(phone.locator(f"#sheet-{sheet}")).to_contain_text("Fightin'")
    phone.goto(f"{daphne_server.url}/c/{campaign}/sheets/{sheet}/guide/7/")
    expect(phone.locator(f"#ready-{sheet}")).to_contain_text("Ready to roll")
    assert phone.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "a step scrolls sideways on a phone"
    phone.context.close()
