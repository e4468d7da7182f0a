"""A player edits a sheet in one browser; the GM sees it change in another, without reloading.

Daphne serves the app (pages and the campaign websocket) from a subprocess
against a temporary SQLite file; Debian's chromium drives two contexts, each
logged in through the login form. Also checked: a row the GM is typing in is
not overwritten by the player's later change (it is marked instead), and the
GM's stale save then shows both versions. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
PASSWORD = "sheet-e2e-password"

SETUP = r"""
import json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", interactive=False, verbosity=0)
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets import services as sheets

U = get_user_model()
gm = U.objects.create_user(username="gm", password=sys.argv[1], display_name="The GM")
alice = U.objects.create_user(username="alice", password=sys.argv[1], display_name="Alice")
campaign = services.create_campaign(gm, name="Live sheets", description="", system="serenity")
Membership.objects.create(campaign=campaign, user=alice, role="player")
sheet = sheets.create_sheet(campaign, name="Mal", kind="pc", owner=alice)
trait = sheets.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
print(json.dumps({"campaign": campaign.pk, "sheet": sheet.pk, "trait": trait.pk}))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def live_server_url_and_ids():
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    tmp = Path(tempfile.mkdtemp(prefix="rollcall-sheet-e2e-"))
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "SQLITE_PATH": str(tmp / "sheets.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "rollcall.settings",
        "DEBUG": "true",
        "PYTHONPATH": str(ROOT),
    }
    py = sys.executable
    made = subprocess.run(
        [py, "-c", SETUP, PASSWORD], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    ids = json.loads(made.stdout.strip().splitlines()[-1])
    port = _free_port()
    daphne = shutil.which("daphne", path=str(Path(py).parent)) or "daphne"
    log = open(tmp / "daphne.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [daphne, "-b", "127.0.0.1", "-p", str(port), "rollcall.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "daphne did not start: " + (tmp / "daphne.log").read_text()
                    ) from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", ids
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _log_in(browser, base: str, username: str):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    # Note when the campaign socket is open, so the test waits for it instead of sleeping.
    page.add_init_script(
        "document.addEventListener('htmx:wsOpen', () => { window.__wsOpen = true; });"
    )
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return context, page


def test_players_edit_reaches_the_gms_open_sheet(live_server_url_and_ids):
    from playwright.sync_api import expect, sync_playwright

    base, ids = live_server_url_and_ids
    trait = ids["trait"]
    sheet_url = f"{base}/c/{ids['campaign']}/sheets/{ids['sheet']}/"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            _, player = _log_in(browser, base, "alice")
            _, gm = _log_in(browser, base, "gm")
            for page in (player, gm):
                page.goto(sheet_url)
                page.wait_for_function("window.__wsOpen === true", timeout=5000)

            # The player renames the trait (the field saves itself on change).
            name = player.locator(f"#t{trait}-name")
            name.fill("Fightin' Dirty")
            with player.expect_response(lambda r: r.request.method == "POST" and r.status == 200):
                name.press("Tab")
            saved_at = time.monotonic()
            expect(gm.locator(f"#t{trait}-name")).to_have_value("Fightin' Dirty", timeout=1000)
            assert time.monotonic() - saved_at < 1.0

            # Step the die up; Enter in a field saves that field and never presses another button.
            with player.expect_response(lambda r: "/step/" in r.url and r.status == 200):
                player.locator(f"#t{trait}-step-up").click()
            expect(gm.locator(f"#t{trait}-die")).to_have_value("d10", timeout=1000)
            notes = player.locator(f"#t{trait}-notes")
            notes.fill("Brawls in every bar on Persephone")
            with player.expect_response(lambda r: r.request.method == "POST" and r.status == 200):
                notes.press("Enter")
            expect(gm.locator(f"#t{trait}-notes")).to_have_value(
                "Brawls in every bar on Persephone", timeout=1000
            )
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
            expect(gm.locator(f"#trait-{trait}.is-stale")).to_be_visible(timeout=1000)
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
                "Brawls in every bar on Persephone (GM)", timeout=1000
            )
            expect(player.locator(f"#t{trait}-name")).to_have_value("Fightin' Mean")
        finally:
            browser.close()
