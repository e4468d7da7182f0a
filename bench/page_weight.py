"""How heavy the table page is, and how soon it can be used: for a player and for the GM.

Run from the repository root (needs Debian's chromium, as the browser tests do):

    .venv/bin/python bench/page_weight.py [--json] [--runs 3] [--rolls 40]

It builds a fresh embedded database (SQLite) in a temporary directory with the demo
campaigns (`load_demo`) and `--rolls` rolls in the Serenity Plus campaign's log, gathers
the static files (collectstatic, as `make run` does) and serves them with ONE daphne on
production settings (DEBUG off, whitenoise serving its pre-compressed files). Then, in
chromium, for each role: log in, empty the browser's cache, open the table page and
measure (service workers blocked, so nothing comes from the app's offline cache)

- transferred: the bytes that crossed the network for the page's HTML, CSS and JS
  (bodies as served, gzip where the server sends gzip, plus headers); the HTML's gzip size
  is printed beside it, for a proxy that compresses pages (docs/deploy.md);
- usable_ms: from the start of the navigation until the socket status says "live" and the
  pool builder is interactive (its scripts ran: a trait can be picked and the builder
  posts it), read from the page's own clock (performance.now()).

Each figure is the median of `--runs` cold loads (a new browser context each time).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.scratch import seeded_demo  # noqa: E402
from rollcall.localserver import free_port, wait_for_port  # noqa: E402

PASSWORD = "rollcall-demo"
KINDS = ("document", "stylesheet", "script")

SEED = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns.models import Campaign
from sheets.models import Sheet
from table.writing import actions

rolls = int(sys.argv[1])
gm = get_user_model().objects.get(username="gm")
alice = get_user_model().objects.get(username="alice")
campaign = Campaign.objects.filter(system="serenity").order_by("pk").first()
pool = [{"die": "d8", "trait": "Goons", "group": "situation"},
        {"die": "d6", "trait": "Bad light", "group": "situation"}]
for number in range(rolls):
    actions.perform(campaign, gm, "roll", {"pool": pool},
                    visibility="gm" if number % 5 == 4 else "public")
print(json.dumps({"campaign": campaign.pk,
                  "alice_sheets": list(Sheet.objects.filter(campaign=campaign, owner=alice).values_list("pk", flat=True))}))
"""

# Installed through the browser's debugging protocol (not governed by the page's CSP):
# the moment the socket status turns "live", on the page's own clock.
WATCH_LIVE = """
window.__liveAt = null;
new MutationObserver(function () {
  var status = document.getElementById("socket-status");
  if (status && status.getAttribute("data-state") === "live" && window.__liveAt === null) {
    window.__liveAt = performance.now();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"], childList: true });
window.__builderAt = null;
window.__formAt = null;
document.addEventListener("htmx:afterProcessNode", function (evt) {
  if (!evt.target.matches) { return; }
  if (window.__builderAt === null && evt.target.matches(".pool-builder form")) {
    window.__builderAt = performance.now();
  }
  if (window.__formAt === null && evt.target.matches(".table-page form[hx-post]")) {
    window.__formAt = performance.now();
  }
});
"""

# The builder is interactive once htmx has processed its form (htmx keeps its internal
# data on the element) and the page's deferred scripts have run. A GM without a GM
# character has no builder: then the first of the dashboard's forms counts.
BUILDER_READY = """() => {
  const form = document.querySelector(".pool-builder form") || document.querySelector(".table-page form[hx-post]");
  return !!(form && form["htmx-internal-data"] && document.readyState !== "loading");
}"""


def prepare(tmp: Path, rolls: int) -> tuple[dict, dict]:
    return seeded_demo(tmp, SEED, str(rolls))


def measure(browser, url: str, username: str, table_url: str) -> dict:
    # No service worker: it would serve the static files from what it cached while the
    # login page was open (static/js/sw.js), and the figures are for a first visit.
    context = browser.new_context(viewport={"width": 1366, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda u: "/accounts/login/" not in u)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.add_init_script(WATCH_LIVE)

    # The browser's own count of bytes on the wire per request, by resource type: the
    # response's headers plus its body's chunks as encoded (gzip where it was served so).
    # Chromium reports some bodies in dataReceived and some only in loadingFinished's
    # total: the larger of the two counts.
    kinds, wire, finished = {}, {}, {}

    def received(event) -> None:
        kinds[event["requestId"]] = (event["type"], event["response"]["url"])
        wire[event["requestId"]] = wire.get(event["requestId"], 0) + event["response"].get(
            "encodedDataLength", 0
        )

    def chunk(event) -> None:
        wire[event["requestId"]] = wire.get(event["requestId"], 0) + event["encodedDataLength"]

    cdp.on("Network.responseReceived", received)
    cdp.on("Network.dataReceived", chunk)
    cdp.on(
        "Network.loadingFinished",
        lambda event: finished.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    page.goto(table_url)
    deadline = time.monotonic() + 30
    while not (page.evaluate("window.__liveAt !== null") and page.evaluate(BUILDER_READY)):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the table never became usable for {username}")
        page.wait_for_timeout(5)
    live_at, builder_at = page.evaluate("[window.__liveAt, window.__builderAt ?? window.__formAt]")
    usable = max(live_at, builder_at if builder_at is not None else live_at)
    page.wait_for_load_state("load")

    sizes = {kind: 0 for kind in KINDS}
    for request_id, (kind, where) in kinds.items():
        kind = kind.lower()
        if kind in sizes and where.startswith(url):
            sizes[kind] += max(wire.get(request_id, 0), finished.get(request_id, 0))
    raw_html = context.request.get(table_url).body()  # the same page as served, for its gzip size
    context.close()
    return {
        "transferred_bytes": sum(sizes.values()),
        "html_bytes": sizes["document"],
        "css_bytes": sizes["stylesheet"],
        "js_bytes": sizes["script"],
        "html_gzip_bytes": len(gzip.compress(raw_html, 6)),
        "usable_ms": round(usable, 1),
        "live_ms": round(live_at, 1),
        "builder_ms": round(builder_at, 1) if builder_at is not None else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rolls", type=int, default=40, help="rolls in the log")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="rollcall-page-weight-"))
    server = None
    try:
        env, seeded = prepare(tmp, args.rolls)
        port = free_port()
        daphne = shutil.which("daphne", path=str(Path(sys.executable).parent)) or "daphne"
        server = subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "--access-log", os.devnull,
             "rollcall.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp / "daphne.log").open("w"),
        )  # fmt: skip
        wait_for_port(port, server)
        url = f"http://127.0.0.1:{port}"
        table_url = f"{url}/c/{seeded['campaign']}/table/"
        figures = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"),
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                for role, username in (("player", "alice"), ("gm", "gm")):
                    runs = [measure(browser, url, username, table_url) for _ in range(args.runs)]
                    figures[role] = {
                        key: statistics.median(run[key] for run in runs) for key in runs[0]
                    }
            finally:
                browser.close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)

    figures["runs"] = args.runs
    figures["rolls_in_log"] = args.rolls
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"table page, {args.rolls} rolls in the log, median of {args.runs} cold loads (chromium)")
    for role in ("player", "gm"):
        f = figures[role]
        print(
            f"  {role:6}  transferred {f['transferred_bytes'] / 1024:6.1f} KiB "
            f"(HTML {f['html_bytes'] / 1024:.1f}, CSS {f['css_bytes'] / 1024:.1f}, "
            f"JS {f['js_bytes'] / 1024:.1f}; HTML gzipped would be {f['html_gzip_bytes'] / 1024:.1f})"
            f"  usable {f['usable_ms']:.0f} ms (live {f['live_ms']:.0f}, builder {f['builder_ms']:.0f})"
        )


if __name__ == "__main__":
    main()
