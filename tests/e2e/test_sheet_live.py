"""A player edits a sheet in one browser; the GM sees it change in another, without reloading.

Daphne serves the app (pages and the campaign websocket) from a subprocess
against a temporary SQLite file; Debian's chromium drives two contexts, each
logged in through the login form. Also checked: a row the GM is typing in is
not overwritten by the player's later change (it is marked instead), and the
GM's stale save then shows both versions. Screenshots go to artifacts/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, log_in, wait_until

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets import services as sheets

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
campaign = services.create_campaign(gm, name="Live sheets", description="", system="serenity")
Membership.objects.create(campaign=campaign, user=alice, role="player")
sheet = sheets.create_sheet(campaign, name="Mal", kind="pc", owner=alice)
trait = sheets.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
print(json.dumps({"campaign": campaign.pk, "sheet": sheet.pk, "trait": trait.pk}))
"""


@pytest.fixture(scope="module")
def ids(daphne_server):
    return daphne_server.seed(SETUP)


def _open_sheet(chromium, daphne_server, username: str, url: str):
    page = log_in(chromium, daphne_server, username, viewport=(1100, 900))
    # Note when the campaign socket is open, so the test waits for it instead of sleeping.
    page.add_init_script(
        "document.addEventListener('htmx:wsOpen', () => { window.__wsOpen = true; });"
    )
    page.goto(url)
    wait_until(page, "() => window.__wsOpen === true")
    return page


def test_players_edit_reaches_the_gms_open_sheet(chromium, daphne_server, ids):
    trait = ids["trait"]
    sheet_url = f"{daphne_server.url}/c/{ids['campaign']}/sheets/{ids['sheet']}/"
    player = _open_sheet(chromium, daphne_server, "alice", sheet_url)
    gm = _open_sheet(chromium, daphne_server, "gm", sheet_url)

    # The player renames the trait (the field saves itself on change).
    name = player.locator(f"#t{trait}-name")
    name.fill("Fightin' Dirty")
    with player.expect_response(lambda r: r.request.method == "POST" and r.status == 200):
        name.press("Tab")
    # Over the socket: the sheet page has no poll, so only the push can bring it.
    expect(gm.locator(f"#t{trait}-name")).to_have_value("Fightin' Dirty")

    # Step the die up; Enter in a field saves that field and never presses another button.
    with player.expect_response(lambda r: "/step/" in r.url and r.status == 200):
        player.locator(f"#t{trait}-step-up").click()
    expect(gm.locator(f"#t{trait}-die")).to_have_value("d10")
    notes = player.locator(f"#t{trait}-notes")
    notes.fill("Brawls in every bar on Persephone")
    with player.expect_response(lambda r: r.request.method == "POST" and r.status == 200):
        notes.press("Enter")
    expect(gm.locator(f"#t{trait}-notes")).to_have_value("Brawls in every bar on Persephone")
    expect(player.locator(f"#t{trait}-die")).to_have_value("d10")
    player.screenshot(path=str(ARTIFACTS / "sheet-live-player.png"), full_page=True)

    # The GM starts typing in that row; the player's next change must not overwrite it.
    gm_notes = gm.locator(f"#t{trait}-notes")
    gm_notes.click()
    gm_notes.press("End")
    gm_notes.type(" (GM)")
    name.fill("Fightin' Mean")
    with player.expect_response(lambda r: r.request.method == "POST" and r.status == 200):
        name.press("Tab")
    expect(gm.locator(f"#trait-{trait}.is-stale")).to_be_visible()
    expect(gm_notes).to_have_value("Brawls in every bar on Persephone (GM)")
    expect(gm.locator(f"#t{trait}-name")).to_have_value("Fightin' Dirty")

    # The GM's save carries the old version: refused, with both versions shown.
    with gm.expect_response(lambda r: r.request.method == "POST" and r.status == 409):
        gm_notes.press("Tab")
    conflict = gm.locator(f"#t{trait}-conflict")
    expect(conflict).to_contain_text("someone else changed “Fightin' Mean”")
    expect(conflict).to_contain_text("(GM)")
    gm.screenshot(path=str(ARTIFACTS / "sheet-live-gm-conflict.png"), full_page=True)
    with gm.expect_response(lambda r: r.request.method == "POST" and r.status == 200):
        conflict.get_by_role("button", name="Use mine").click()
    expect(player.locator(f"#t{trait}-notes")).to_have_value(
        "Brawls in every bar on Persephone (GM)"
    )
    expect(player.locator(f"#t{trait}-name")).to_have_value("Fightin' Mean")
