"""The table page is laid out in its final form from the first paint (issue #27, 11): on
a phone the header, the tabs and the panel in view do not move once the deferred scripts
run (test_surface_walk.py reads the layout shift of each game's page, for a player and
the GM); without scripts the page is one column."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_table_play import SETUP

pytestmark = pytest.mark.e2e

PHONE = (390, 844)


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


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
