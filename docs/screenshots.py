"""The README's pictures of the table: docs/img/table-phone.png (390 × 844) and
docs/img/table-laptop.png (1366 × 900), Alice's page at the demo's Serenity Plus table.

Run from the repository root (needs Debian's chromium, as the browser tests do):

    .venv/bin/python docs/screenshots.py

It builds a fresh embedded database (SQLite) in a temporary directory with the demo
campaigns (`load_demo`), where the GM has started the first scene and rolled the
opposition, and Zoe has rolled,
serves it with daphne on production settings, and in chromium Alice, on the phone, rolls
Kaylee's Fixin' and Mechanic; then at each size she taps Again and adds her Toolkit: the
picture shows that pool in the tray's one line (the phone) or with its odds (the
laptop). The images are reduced to 256 colours (Pillow), a few dozen KiB each.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.scratch import seeded_demo  # noqa: E402
from rollcall.localserver import free_port, wait_for_port  # noqa: E402

PASSWORD = "rollcall-demo"
SIZES = {"phone": (390, 844), "laptop": (1366, 900)}
ROLLED = ("Fixin'", "Mechanic")
ADDED = "Toolkit"

SEED = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Campaign, Scene
from sheets.models import Sheet
from table.writing import actions

users = {u.username: u for u in get_user_model().objects.filter(username__in=("gm", "bob"))}
campaign = Campaign.objects.filter(system="serenity").order_by("pk").first()
services.start_scene(campaign, Scene.objects.filter(campaign=campaign).first().pk)
opposition = [{"die": "d8", "trait": "Badger's men", "group": "situation"},
              {"die": "d6", "trait": "Cramped office", "group": "situation"}]
actions.perform(campaign, users["gm"], "roll", {"pool": opposition})
zoe = Sheet.objects.get(campaign=campaign, name="Zoe")
pool = [{"die": "d12", "trait": "Fightin'", "group": "stylins"},
        {"die": "d10", "trait": "War Veteran", "group": "refinements"}]
actions.perform(campaign, users["bob"], "roll", {"pool": pool}, sheet_id=zoe.pk)
kaylee = Sheet.objects.get(campaign=campaign, name="Kaylee")
print(json.dumps({"campaign": campaign.pk, "kaylee": kaylee.pk}))
"""


def prepare(tmp: Path) -> tuple[dict, dict]:
    return seeded_demo(tmp, SEED)


def shoot(browser, url: str, seeded: dict, size: str, out: Path) -> None:
    from playwright.sync_api import expect

    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda u: "/accounts/login/" not in u)
    page.goto(f"{url}/c/{seeded['campaign']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    builder = f"#builder-{seeded['kaylee']}"

    def trait(name: str):
        return page.locator(f"{builder} label.trait-choice").filter(
            has=page.locator(".trait-name", has_text=re.compile(rf"^{re.escape(name)}$"))
        )

    def tap(what) -> None:
        with page.expect_response(lambda r: re.search(r"/table/pool/\d+/$", r.url) is not None):
            what.click()

    if size == "phone":
        for name in ROLLED:
            tap(trait(name))
        cards = page.locator("#log > li[data-seq]")
        before = cards.count()
        with page.expect_response(lambda r: r.url.endswith("/roll/")):
            page.locator(f"{builder} .pool-roll button[type=submit]").click()
        expect(cards).to_have_count(before + 1)
    tap(page.locator(f"{builder} .pool-again button").first)
    tap(trait(ADDED))
    for name in (*ROLLED, ADDED):
        expect(trait(name)).to_have_class(re.compile(r"\bis-selected\b"))
    expect(page.locator(f"{builder} .pool-tray-toggle")).to_contain_text("%")
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.screenshot(path=str(out), animations="disabled")
    context.close()


def shrink(path: Path) -> None:
    """256 colours, as pngquant would: the page's flat colours survive it."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="rollcall-screenshots-"))
    server = None
    try:
        env, seeded = prepare(tmp)
        port = free_port()
        daphne = shutil.which("daphne", path=str(Path(sys.executable).parent)) or "daphne"
        server = subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "--access-log", os.devnull,
             "rollcall.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp / "daphne.log").open("w"),
        )  # fmt: skip
        wait_for_port(port, server)
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"),
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                for size in SIZES:
                    out = ROOT / "docs" / "img" / f"table-{size}.png"
                    shoot(browser, f"http://127.0.0.1:{port}", seeded, size, out)
                    shrink(out)
                    print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} KiB")
            finally:
                browser.close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
