"""The Log tab on a phone (issue #27, 2): the chat line and the newest card are on its
first screen, and the sticky tabs never cover the chat line, also when it is reached
from further down the page (the `c` shortcut, or Tab)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_table_play import SETUP

pytestmark = pytest.mark.e2e

PHONE = (390, 844)

# In sight on the first screen, and what a tap there lands on (nothing sticky over it).
IN_SIGHT = """([selector, height]) => {
  const el = document.querySelector(selector);
  const box = el.getBoundingClientRect();
  const x = box.left + Math.min(box.width / 2, 40), y = box.top + Math.min(box.height / 2, 20);
  const hit = document.elementFromPoint(x, y);
  return { top: Math.round(box.top), bottom: Math.round(box.bottom),
           shown: box.top >= 0 && y < height && !!hit && (hit === el || el.contains(hit)) };
}"""


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def _in_sight(page: Page, selector: str) -> dict:
    return page.evaluate(IN_SIGHT, [selector, PHONE[1]])


@pytest.mark.parametrize("who", ["alice", "gm"])
def test_the_log_tab_opens_on_the_chat_line_and_the_newest_card(
    chromium, daphne_server, table, who
):
    page = log_in(chromium, daphne_server, who, viewport=PHONE)
    page.goto(f"{daphne_server.url}/c/{table['serenity']['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    page.get_by_role("tab", name="Log").click()
    for line in range(6):  # a log longer than the screen
        page.locator("#chat-text").fill(f"Line {line} from {who}")
        page.locator("#chat-text").press("Enter")
        expect(page.locator("#log > li[data-seq]").first).to_contain_text(f"Line {line} from {who}")
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")

    newest = _in_sight(page, "#log > li[data-seq]")
    assert newest["shown"] and newest["top"] + 200 <= PHONE[1], f"the newest card is at {newest}"
    chat = _in_sight(page, "#chat-text")
    assert chat["shown"], f"the chat line is at {chat}"

    # From further down, the chat line is brought into sight below the sticky tabs.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.keyboard.press("c")
    expect(page.locator("#chat-text")).to_be_focused()
    chat = _in_sight(page, "#chat-text")
    assert chat["shown"], f"the chat line is under the tabs: {chat}"
    page.context.close()
