"""The table page is laid out in its final form from the first paint (issue #27, 11): on
a phone the header, the tabs and the panel in view do not move once the deferred scripts
run. Layout shift is read with a PerformanceObserver on `layout-shift` (buffered: every
shift since the page began), after the page is live and has had a moment to settle."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_table_play import SETUP

pytestmark = pytest.mark.e2e

PHONE = (390, 844)

# Every shift since navigation, as Chrome's cumulative layout shift counts them (not
# those right after the user's own input).
LAYOUT_SHIFT = """() => new Promise((resolve) => {
  let total = 0;
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) { continue; }
      total += entry.value;
      shifts.push(entry.value.toFixed(3) + " " + entry.sources.map(
        (s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?").join(","));
    }
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => resolve({ total, shifts }), 300);
})"""


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.mark.parametrize("who", ["alice", "gm"])
@pytest.mark.parametrize("system", ["serenity", "personae"])
def test_the_phone_table_page_does_not_shift(chromium, daphne_server, table, system, who):
    page = log_in(chromium, daphne_server, who, viewport=PHONE)
    page.goto(f"{daphne_server.url}/c/{table[system]['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    page.wait_for_timeout(700)
    shift = page.evaluate(LAYOUT_SHIFT)
    assert shift["total"] < 0.1, shift
    # The page is tabbed, its first tab shown and the others not.
    expect(page.locator(".surface-tabs")).to_be_visible()
    expect(page.locator("#panel-mine")).to_be_visible()
    expect(page.locator("#panel-table")).to_be_hidden()
    page.context.close()


def test_without_scripts_the_page_is_one_column(chromium, daphne_server, table):
    page = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    context = page.context
    plain = chromium.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        java_script_enabled=False,
        storage_state=context.storage_state(),
    )
    bare = plain.new_page()
    bare.goto(f"{daphne_server.url}/c/{table['serenity']['id']}/table/")
    expect(bare.locator(".surface-tabs")).to_be_hidden()
    for panel in ("#panel-mine", "#panel-log", "#panel-table"):
        expect(bare.locator(panel)).to_be_visible()
    plain.close()
    context.close()
