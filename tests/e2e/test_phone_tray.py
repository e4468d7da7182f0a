"""The pool's tray on a phone (issue #27, 1): compact unless the player opens it, one line
of what is picked and its odds above the Roll row, so every trait above it can be
tapped; opened or closed, it stays as the player left it across the builder's updates.
On a laptop there is no tray: the odds are always shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_table_play import SELECTED, SETUP, _click, _fill, _is_builder_post, _trait

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
LAPTOP = (1366, 900)
PICKS = {
    "serenity": ["Fightin'", "Brawler", "Pistol"],
    "unisystem": ["Dexterity", "Gun Fu"],
}

# The label (or something in it) is what a tap at its centre lands on, once it is
# scrolled to the middle of the screen.
TAPPABLE = """(label) => {
  label.scrollIntoView({ block: "center" });
  const box = label.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!hit && (hit === label || label.contains(hit));
}"""


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def _open(page: Page, server, campaign: int) -> None:
    page.goto(f"{server.url}/c/{campaign}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


def _untick(page: Page, builder: str, name: str) -> None:
    """Untick a trait, scrolled to where an open tray leaves it in sight."""
    label = _trait(page, builder, name)
    label.evaluate("l => { l.scrollIntoView({ block: 'start' }); window.scrollBy(0, -90); }")
    with page.expect_response(_is_builder_post):
        label.click()
    expect(label).not_to_have_class(SELECTED)


def _tray_height(page: Page, builder: str) -> float:
    return page.locator(f"{builder} .pool-tray").bounding_box()["height"]


@pytest.mark.parametrize("system", sorted(PICKS))
def test_the_phone_tray_is_compact_and_stays_as_left(chromium, daphne_server, table, system):
    builder = f"#builder-{table[system]['sheets']['alice']}"
    page = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    _open(page, daphne_server, table[system]["id"])
    tray, toggle = (
        page.locator(f"{builder} .pool-tray"),
        page.locator(f"{builder} .pool-tray-toggle"),
    )
    for name in PICKS[system]:
        _click(page, builder, name)
        assert _tray_height(page, builder) < 0.25 * PHONE[1]
    _fill(page, builder, "target", "9")
    if system == "serenity":  # a cost line in the pool's status
        _fill(page, builder, "plot_points", "1")
        expect(tray.locator(".pool-status")).to_contain_text("Costs up to 1 plot point")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_contain_text(f"{len(PICKS[system])} picked")
    expect(toggle).to_contain_text("%")  # the odds, in the one line
    expect(tray.locator(".pool-roll button[type=submit]")).to_be_visible()
    # The status lines, the GM's additions and the odds: kept for screen readers, not shown.
    box = tray.locator(".pool-tray-body").bounding_box()
    assert box is None or box["height"] <= 1, f"the tray's body is shown: {box}"
    assert _tray_height(page, builder) < 0.25 * PHONE[1]
    for label in page.locator(f"{builder} label.trait-choice").all():
        assert label.evaluate(TAPPABLE), f"{label.inner_text()} is covered"

    # Opened, it stays open across an update; closed, it stays closed.
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(tray.locator(".pool-odds")).to_be_visible()
    _untick(page, builder, PICKS[system][-1])  # the builder re-renders
    expect(page.locator(f"{builder} .pool-tray-toggle")).to_have_attribute("aria-expanded", "true")
    expect(page.locator(f"{builder} .pool-odds")).to_be_visible()
    page.locator(f"{builder} .pool-tray-toggle").click()
    expect(page.locator(f"{builder} .pool-tray-toggle")).to_have_attribute("aria-expanded", "false")
    _click(page, builder, PICKS[system][-1])
    expect(page.locator(f"{builder} .pool-tray-toggle")).to_have_attribute("aria-expanded", "false")
    assert _tray_height(page, builder) < 0.25 * PHONE[1]
    page.context.close()

    laptop = log_in(chromium, daphne_server, "alice", viewport=LAPTOP)
    _open(laptop, daphne_server, table[system]["id"])
    expect(laptop.locator(f"{builder} .pool-tray-toggle")).to_be_hidden()
    _click(laptop, builder, PICKS[system][1])
    expect(laptop.locator(f"{builder} .pool-odds")).to_be_visible()
    expect(_trait(laptop, builder, PICKS[system][1])).to_be_visible()
    laptop.context.close()
