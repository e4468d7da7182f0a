"""A newcomer on a phone, from nothing: they sign up, meet the empty campaign list, follow
its Start here link for a game, read it and come back; then, in their new campaign, follow
the empty characters' Start here link and come back to make a character."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import open_page

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
PASSWORD = "two by two, hands of blue"


def test_a_newcomer_follows_an_empty_state_to_start_here_and_back(chromium, daphne_server):
    name = f"newcomer{uuid.uuid4().hex[:8]}"
    phone = open_page(chromium, name, viewport=PHONE)
    install_axe(phone)
    found: dict[str, list[dict]] = {}

    def axe(where: str) -> None:
        if violations := serious_violations(phone):
            found[where] = violations

    phone.goto(daphne_server.url + "/accounts/signup/")
    phone.fill("#id_username", name)
    phone.fill("#id_password1", PASSWORD)
    phone.fill("#id_password2", PASSWORD)
    phone.click("main button[type=submit]")
    phone.wait_for_url(re.compile(r"/campaigns/$"))

    empty = phone.locator("#empty-campaigns")
    expect(empty).to_contain_text("You are not in any campaign yet")
    axe("the empty campaign list")
    empty.get_by_role("link", name="Start here: how Smallville plays").click()
    expect(phone.get_by_role("heading", name="Start here: Smallville")).to_be_visible()
    expect(phone.get_by_role("heading", name="What to tap first")).to_be_visible()
    assert phone.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "the Start here page scrolls sideways on a phone"
    axe("Start here")
    phone.locator("#start-back").click()
    phone.wait_for_url(re.compile(r"/campaigns/$"))

    phone.locator("#empty-campaigns").get_by_role("link", name="Start a campaign").click()
    phone.get_by_label("Name").fill("Friday in Smallville")
    phone.get_by_label("Game system").select_option(label="Smallville")
    phone.locator("main button[type=submit]").click()
    phone.wait_for_url(re.compile(r"/c/\d+/$"))
    home = phone.url

    characters = phone.locator("#empty-characters")
    expect(characters).to_contain_text("No characters yet.")
    axe("the new campaign")
    characters.get_by_role("link", name="Start here: how Smallville plays").click()
    expect(phone.get_by_role("heading", name="What a roll is made of")).to_be_visible()
    phone.locator("#start-back").focus()
    phone.keyboard.press("Enter")  # by keyboard too
    phone.wait_for_url(home)
    phone.locator("#empty-characters").get_by_role("link", name="Make a character").click()
    expect(phone).to_have_url(re.compile(r"/sheets/new/$"))
    assert not found, "axe-core:\n" + describe(found)
