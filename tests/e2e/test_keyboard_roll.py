"""A roll by keyboard only (issue #27, 3): the builder re-renders after each tick, and the
player's focus stays on the trait they ticked, so a three-trait roll is `p` (the
builder's shortcut), Tab and Space to each trait, Tab to Roll and Enter: about a dozen
keys. Another member's update (the GM giving a plot point, which re-renders the
builder) leaves the focus where it is too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in, wait_until
from .test_table_play import SELECTED, SETUP, _is_builder_post, _trait

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
LAPTOP = (1366, 900)
THREE = {
    "serenity": ["Fightin'", "Brawler", "Pistol"],
    "cortex_slots": ["Agility", "Ex-Marine", "Shoot"],
}

FOCUSED_TRAIT = """() => {
  const el = document.activeElement;
  const label = el && el.closest("label.trait-choice");
  return label ? label.querySelector(".trait-name").textContent.trim() : "";
}"""


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def _focused(page: Page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e ? `${e.tagName} ${e.name || ''} ${e.value || ''}` : ''; }"
    )


def _settled(page: Page, builder: str) -> None:
    """A player presses what they see settled: not while the builder is about to re-render
    (aria-busy) or has a request of its own out (a key pressed as the builder is swapped
    lands on the old node)."""
    wait_until(
        page,
        "b => { const el = document.querySelector(b);"
        " return el && el.getAttribute('aria-busy') !== 'true' && !el.querySelector('.htmx-request')"
        " && !el.matches('.htmx-request'); }",
        builder,
    )


def _focus_stays(page: Page, before: str) -> None:
    """Once the builder's answer is in, the focus is where it was: the builder waits a
    moment before it settles, and the page has that long to put the focus back."""
    for _ in range(30):
        if _focused(page) == before:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the focus moved from {before} to {_focused(page)}")


@pytest.mark.parametrize(
    "system, viewport", [("serenity", LAPTOP), ("cortex_slots", PHONE)], ids=["laptop", "phone"]
)
def test_a_keyboard_roll_takes_about_a_dozen_keys(chromium, daphne_server, table, system, viewport):
    builder = f"#builder-{table[system]['sheets']['alice']}"
    page = log_in(chromium, daphne_server, "alice", viewport=viewport)
    page.goto(f"{daphne_server.url}/c/{table[system]['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    page.locator("body").click(position={"x": 1, "y": 1})
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        page.keyboard.press(key)
        keys += 1

    press("p")
    assert page.evaluate("b => !!document.activeElement.closest(b)", builder)
    for name in THREE[system]:
        for _ in range(30):
            if page.evaluate(FOCUSED_TRAIT) == name:
                break
            press("Tab")
        else:
            raise AssertionError(f"{name} was not reached with Tab")
        before = _focused(page)
        _settled(page, builder)
        with page.expect_response(_is_builder_post):
            press("Space")
        expect(_trait(page, builder, name)).to_have_class(SELECTED)
        _focus_stays(page, before)
    roll = page.locator(f"{builder} .pool-roll button[type=submit]")
    expect(roll).to_be_enabled()
    _settled(page, builder)
    for _ in range(15):
        if page.evaluate(
            "b => document.activeElement === document.querySelector(b)",
            f"{builder} .pool-roll button[type=submit]",
        ):
            break
        press("Tab")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/roll/")):
        press("Enter")
    expect(page.locator("#log .roll-card").first).to_contain_text("Ace")
    assert keys <= 15, f"a three-trait roll took {keys} keys"
    page.context.close()


def test_another_members_update_leaves_the_focus_alone(chromium, daphne_server, table):
    system = "serenity"
    builder = f"#builder-{table[system]['sheets']['alice']}"
    alice = log_in(chromium, daphne_server, "alice", viewport=LAPTOP)
    gm = log_in(chromium, daphne_server, "gm", viewport=LAPTOP)
    for page in (alice, gm):
        page.goto(f"{daphne_server.url}/c/{table[system]['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    loyalty = _trait(alice, builder, "Loyalty").locator("input")
    loyalty.focus()
    before = _focused(alice)
    held = alice.locator(builder).inner_text()
    form = gm.locator("form[hx-post$='/table/gm/points/']")
    gm.locator("summary", has_text=re.compile(r"^Give plot points$")).click()
    form.locator("select[name=sheet]").select_option(label="Ace")
    with alice.expect_response(_is_builder_post):  # Ace's builder re-renders itself
        with gm.expect_response(lambda r: r.url.endswith("/table/gm/points/")):
            form.locator("button[type=submit]").click()
    expect(alice.locator(builder)).not_to_have_text(held)
    _focus_stays(alice, before)
    alice.context.close()
    gm.context.close()
