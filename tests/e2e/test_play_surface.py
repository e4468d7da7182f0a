"""One play surface per role, on a phone (390 × 844) and a laptop (1366 × 900), in each
of the five systems.

A player opens the table and rolls a typical pool by tapping its traits and Roll, and
nothing else: on the phone the page opens on their character, whose odds and Roll
button sit in the sheet at the bottom. On the laptop the same pool is one tap away
(Again) and Roll: two taps. No tab of the phone's page scrolls sideways. The
GM rolls opposition with the dice pickers (a size and a name per row) or, where the
game's opposition is a rating, with the − / + steppers. Screenshots of each role and
size go to $E2E_SCREENSHOTS (artifacts/screenshots/ under CI, which keeps them; a
temporary folder otherwise). The README's docs/img/table-laptop.png and table-phone.png
are made by docs/screenshots.py, at the demo's table.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, log_in
from .test_table_play import SELECTED, SETUP, _click, _fill, _is_builder_post, _roll, _trait

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
LAPTOP = (1366, 900)
SYSTEMS = ("serenity", "cortex_slots", "smallville", "personae", "unisystem")

# A typical roll: the fewest traits each game's rules accept for a roll. Cortex with
# Total/Effect slots asks for an Attribute, a Distinction and a Skill (CTX-1).
TYPICAL = {
    "serenity": ["Fightin'", "Brawler"],
    "cortex_slots": ["Agility", "Ex-Marine", "Shoot"],
    "smallville": ["Justice", "Lana"],
    "personae": ["Swordplay", "Might"],
    "unisystem": ["Dexterity", "Gun Fu"],
}
# What the GM rolls against the table, by the kind of opposition the game declares.
OPPOSITION = {
    "serenity": [("d8", "Armed thugs"), ("d6", "Cramped bay")],
    "cortex_slots": [("d10", "Reavers")],
    "smallville": [("d8", "Lex's goons"), ("d6", "Rain")],
}


def screenshots() -> Path:
    folder = os.environ.get("E2E_SCREENSHOTS")
    if folder:
        path = Path(folder)
    elif os.environ.get("CI"):
        path = ARTIFACTS / "screenshots"
    else:
        path = Path(tempfile.gettempdir()) / "rollcall-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _shoot(page: Page, name: str, top: bool = True) -> None:
    if top:
        page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots() / f"{name}.png"))


def _no_sideways_scroll(page: Page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def _open(page: Page, server, campaign: int) -> None:
    page.goto(f"{server.url}/c/{campaign}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


def _every_tab_fits(page: Page) -> None:
    tabs = page.locator(".surface-tabs [role=tab]")
    for index in range(tabs.count()):
        tabs.nth(index).click()
        expect(tabs.nth(index)).to_have_attribute("aria-selected", "true")
        panel = page.locator("#" + tabs.nth(index).get_attribute("aria-controls"))
        expect(panel).to_be_visible()
        assert _no_sideways_scroll(page), f"sideways scroll on {tabs.nth(index).inner_text()}"


def _player_rolls(page: Page, builder: str, system: str) -> int:
    """Tap the typical pool's traits and Roll: the taps it took, and the card is logged."""
    taps = 0
    for name in TYPICAL[system]:
        if not SELECTED.search(_trait(page, builder, name).get_attribute("class") or ""):
            _click(page, builder, name)  # a Personae skill brings its attribute along
            taps += 1
    if system == "personae":  # PER-9: the goal is said (typed), not tapped
        _fill(page, builder, "goal", "Disarm the duelist")
    seq = _roll(page, builder)
    taps += 1
    expect(page.locator(f"#event-{seq}")).to_be_attached()
    return taps


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_rolls_in_a_few_taps_on_a_phone_and_a_laptop(
    chromium, daphne_server, table, system
):
    campaign = table[system]["id"]
    builder = f"#builder-{table[system]['sheets']['alice']}"
    if system == "personae":  # PER-1: a challenge without a reactor beats the GM's number
        gm = log_in(chromium, daphne_server, "gm", viewport=LAPTOP)
        _open(gm, daphne_server, campaign)
        form = gm.locator("form.gm-set-difficulty")
        form.locator("[name='set_difficulty-difficulty']").fill("9")
        with gm.expect_response(lambda r: "/table/act/" in r.url):
            form.locator("button[type=submit]").click()
        expect(gm.locator("#gm-result")).to_contain_text("9")
        gm.context.close()

    phone = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    _open(phone, daphne_server, campaign)
    tabs = phone.locator(".surface-tabs")
    expect(tabs).to_be_visible()
    expect(tabs.get_by_role("tab", name="My character")).to_have_attribute("aria-selected", "true")
    expect(phone.locator("#panel-log")).to_be_hidden()
    # The Roll button is in the sheet at the bottom of the screen, under the thumb.
    roll = phone.locator(f"{builder} .pool-roll button[type=submit]")
    box = roll.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE[1] and box["y"] > PHONE[1] / 2, box
    assert _no_sideways_scroll(phone)
    taps = _player_rolls(phone, builder, system)
    # Three taps, or the rules' minimum of traits and Roll (CTX-1 asks for three traits).
    assert taps <= max(3, len(TYPICAL[system]) + 1)
    _shoot(phone, f"player-phone-{system}")
    phone.locator(f"{builder} .pool-tray-toggle").click()
    expect(phone.locator(f"{builder} .pool-tray-toggle")).to_have_attribute("aria-expanded", "true")
    expect(phone.locator(f"{builder} .pool-odds")).to_be_visible()
    _shoot(phone, f"player-phone-odds-{system}", top=False)
    _every_tab_fits(phone)
    phone.get_by_role("tab", name="Log").click()
    _shoot(phone, f"player-phone-log-{system}")
    # Keyboard: arrows move between the tabs.
    phone.get_by_role("tab", name="Log").focus()
    phone.keyboard.press("ArrowRight")
    expect(phone.get_by_role("tab", name="The table")).to_be_focused()
    expect(phone.get_by_role("tab", name="The table")).to_have_attribute("aria-selected", "true")
    phone.context.close()

    laptop = log_in(chromium, daphne_server, "alice", viewport=LAPTOP)
    _open(laptop, daphne_server, campaign)
    expect(laptop.locator(".surface-tabs")).to_be_hidden()
    for column in ("#panel-mine", "#panel-log", "#panel-table"):
        expect(laptop.locator(column)).to_be_visible()
    mine, log, scene = (
        laptop.locator(c).bounding_box() for c in ("#panel-mine", "#panel-log", "#panel-table")
    )
    assert mine["x"] < log["x"] < scene["x"], "my character, the log, the table: side by side"
    for name in TYPICAL[system]:  # the pool the phone rolled is gone: the builder starts afresh
        expect(_trait(laptop, builder, name)).not_to_have_class(re.compile(r"is-selected"))
    # The pool rolled on the phone is one tap away on the laptop: Again, then Roll.
    again = laptop.locator(f"{builder} .pool-again button").first
    expect(again).to_contain_text(TYPICAL[system][0])
    with laptop.expect_response(_is_builder_post):
        again.click()
    for name in TYPICAL[system]:
        expect(_trait(laptop, builder, name)).to_have_class(SELECTED)
    if system == "personae":  # PER-9: the goal is said (typed), not tapped
        _fill(laptop, builder, "goal", "Disarm the duelist again")
    seq = _roll(laptop, builder)
    expect(laptop.locator(f"#event-{seq}")).to_be_attached()
    _shoot(laptop, f"player-laptop-{system}")
    laptop.context.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_gm_rolls_opposition_with_real_controls(chromium, daphne_server, table, system):
    campaign = table[system]["id"]
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        gm = log_in(chromium, daphne_server, "gm", viewport=viewport)
        _open(gm, daphne_server, campaign)
        if size == "phone":
            expect(gm.get_by_role("tab", name="Dashboard")).to_have_attribute(
                "aria-selected", "true"
            )
        form = gm.locator("form[action$='/table/gm/roll/']")
        before = gm.locator("#log > li[data-seq]").count()
        if system in OPPOSITION:
            expect(form.locator("#gm-dice")).to_be_hidden()  # typing is the fallback only
            dice = OPPOSITION[system]
            while form.locator(".dice-row").count() < len(dice):
                form.get_by_role("button", name="Add a die").click()
            for row, (die, name) in zip(form.locator(".dice-row").all(), dice, strict=False):
                row.locator("select[name=die]").select_option(die)
                row.locator("input[name=die_name]").fill(name)
            # The steppers step a die: down one size, and back up.
            first = form.locator(".dice-row").first
            first.get_by_role("button", name="Step this die down").click()
            smaller = f"d{int(dice[0][0][1:]) - 2}"
            expect(first.locator("select[name=die]")).to_have_value(smaller)
            first.get_by_role("button", name="Step this die up").click()
            expect(first.locator("select[name=die]")).to_have_value(dice[0][0])
            said = dice[0][1]
        elif form.locator("[name=attribute]").count():
            attribute = form.locator("[data-stepper]", has=gm.locator("[name=attribute]"))
            attribute.get_by_role("button", name="Attribute: one more").click()
            expect(form.locator("[name=attribute]")).to_have_value("4")
            form.locator("[name=name]").fill("Vampire")
            said = "Total"
        else:
            said = None
        if said:
            with gm.expect_response(lambda r: r.url.endswith("/table/gm/roll/")):
                form.get_by_role("button", name="Roll").click()
            expect(gm.locator("#gm-result")).to_contain_text("✓")
            expect(gm.locator("#log > li[data-seq]")).to_have_count(before + 1)
            newest = gm.locator("#log > li[data-seq]").first
            expect(newest).to_contain_text(said)
            if system in OPPOSITION:
                for die, name in OPPOSITION[system]:
                    expect(newest.locator(".die", has_text=name)).to_contain_text(die)
        # The card's GM tools are one menu, closed until asked for.
        if size == "phone":
            gm.get_by_role("tab", name="Log").click()
        menu = gm.locator("#log .gm-card-menu").first
        if menu.count():
            expect(menu.locator("input[name=reason]")).to_be_hidden()
            menu.locator("summary").click()
            expect(menu.locator("input[name=reason]")).to_be_visible()
        if size == "phone":
            assert _no_sideways_scroll(gm)
            _shoot(gm, f"gm-phone-{system}")
            _every_tab_fits(gm)
            gm.get_by_role("tab", name="Dashboard").click()
            _shoot(gm, f"gm-phone-dashboard-{system}")
        else:
            _shoot(gm, f"gm-laptop-{system}")
        gm.context.close()
