"""Talk in the log with the keyboard only (issue #18): a player tabs to the chat line,
says something in character, rolls with `/roll`, and whispers to the GM, without the
mouse. Each card arrives on every page it should; the whisper's text reaches the GM and its
author only (another player sees a sealed line); the chat field keeps the focus and is emptied after each line."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in, wait_until

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
c = services.create_campaign(users["gm"], name="E2E chat", description="", system="serenity")
for p in ("alice", "bob"):
    Membership.objects.create(campaign=c, user=users[p], role="player")
sheets = {}
for p, hero in (("alice", "Kaylee"), ("bob", "Jayne")):
    s = create_sheet(c, name=hero, kind="pc", owner=users[p], counters={"plot_points": 2})
    Trait.objects.create(sheet=s, group="stylins", name="Fightin'", die=10)
    Trait.objects.create(sheet=s, group="values", name="Loyalty", die=8)
    sheets[p] = s.pk
print(json.dumps({"id": c.pk, "sheets": sheets}))
"""


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)


def _focused_id(page: Page) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.id")


def _tab_to(page: Page, element_id: str, limit: int = 80) -> None:
    for _ in range(limit):
        if _focused_id(page) == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"#{element_id} was not reached with Tab")


def _line(page: Page, text: str) -> None:
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    wait_until(page, "() => document.getElementById('chat-text').value === ''")
    assert _focused_id(page) == "chat-text", "the field keeps the focus after sending"


def _log_text(page: Page) -> str:
    return page.inner_text("#log")


def test_a_keyboard_only_player_talks_rolls_and_whispers(chromium, daphne_server, campaign):
    pages = {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}
    url = f"{daphne_server.url}/c/{campaign['id']}/table/"
    for page in pages.values():
        page.goto(url)
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    alice = pages["alice"]

    _tab_to(alice, "chat-text")
    _line(alice, "Everything's shiny, Cap'n.")
    for page in pages.values():
        expect(page.locator("#log")).to_contain_text("Alice (as Kaylee) says:")
        expect(page.locator("#log")).to_contain_text("Everything's shiny, Cap'n.")

    _line(alice, "/roll Fightin' + Loyalty")
    for page in pages.values():
        expect(page.locator("#log .roll-card").first).to_contain_text("Kaylee")
    assert _focused_id(alice) == "chat-text"

    _line(alice, "/roll Fightn + Loyalty")
    expect(alice.locator("#table-notice")).to_contain_text("Kaylee has no trait called “Fightn”")

    # To the mode selector and back, with the keyboard: the last option whispers.
    alice.keyboard.press("Shift+Tab")
    assert _focused_id(alice) == "chat-speak"
    alice.keyboard.press("End")
    alice.keyboard.press("Tab")
    assert alice.eval_on_selector("#chat-speak", "el => el.value") == "whisper"
    _line(alice, "The engine is held together with gum.")
    for name in ("gm", "alice"):
        expect(pages[name].locator("#log")).to_contain_text("Alice whispers to the GM:")
        expect(pages[name].locator("#log")).to_contain_text("held together with gum")
    # Bob's page shows that Alice whispered to the GM, and nothing of what she said.
    expect(pages["bob"].locator("#log")).to_contain_text("Alice whispered to the GM.")
    assert "held together with gum" not in _log_text(pages["bob"])
    pages["bob"].reload()
    expect(pages["bob"].locator("#log")).to_contain_text("Everything's shiny")
    expect(pages["bob"].locator("#log")).to_contain_text("Alice whispered to the GM.")
    assert "held together with gum" not in _log_text(pages["bob"])
    for page in pages.values():
        page.context.close()
