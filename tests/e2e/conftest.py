"""Browser tests: one live daphne per test session, Debian chromium, logged-in pages.

`daphne_server` (session): migrates a temporary SQLite file, gathers the static files
(collectstatic, as `make run` does), creates the users every browser test logs in as
(gm, alice, bob), and serves the app (pages and websockets) with daphne from a
subprocess, on the defaults: DEBUG off, the Content-Security-Policy on. Daphne adopts a socket this process already bound and
listens on, so no port can be taken in between (two xdist workers each get their
own server). Each test module seeds its own campaigns with `daphne_server.seed()`.
`lan_server` (session) is another, as `HOST=0.0.0.0 make run` serves: on every address,
with an empty database, for a test that starts from nothing and opens links at the
machine's LAN address.

`chromium` (module): one browser per module, closed with it, so Playwright's sync
API (which owns the main thread's event loop while it runs) never outlives the
browser tests. `log_in()` opens a context, logs in through the login form, and
records the page's console messages, uncaught errors, Content-Security-Policy
violations and failed requests.

When a browser test fails, its report gets every open page's console, a screenshot
and the HTML of each page (artifacts/failed-<test>-<user>.png/.html), and the tails
of daphne's stderr and request log. A test also fails on any uncaught JavaScript
error or any CSP violation in its pages (the browser refused a script, a style or
a connection the page relies on).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
PASSWORD = "e2e-table-password"
USERS = {"gm": "The GM", "alice": "Alice", "bob": "Bob"}
EXPECT_TIMEOUT_MS = 30_000  # expect(), actions and navigation: a hang guard only, so that
# a machine busy with other work (two cores, two workers, other jobs) is never too slow

USERS_SCRIPT = r"""
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
U = get_user_model()
for pair in sys.argv[2:]:
    username, display = pair.split("=", 1)
    U.objects.create_user(username=username, password=sys.argv[1], display_name=display)
"""


@dataclass
class LiveServer:
    url: str
    env: dict[str, str]
    log: Path  # daphne's stderr: Django's errors and tracebacks
    access_log: Path
    lan_url: str = ""  # lan_server only: the address friends on the network open

    def seed(self, script: str, *args: str) -> Any:
        """Run `script` (Python that calls django.setup() itself) against the server's
        database; return the JSON it prints on its last line."""
        made = subprocess.run(
            [sys.executable, "-c", script, *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if made.returncode:
            raise RuntimeError(f"seeding failed:\n{made.stderr}")
        lines = made.stdout.strip().splitlines()
        return json.loads(lines[-1]) if lines else None

    @staticmethod
    def tail(path: Path, lines: int) -> str:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def _wait_until_serving(proc: subprocess.Popen, url: str, log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        if proc.poll() is not None:
            raise RuntimeError("daphne exited:\n" + log.read_text(errors="replace"))
        try:
            with urllib.request.urlopen(url + "/accounts/login/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("daphne did not answer:\n" + log.read_text(errors="replace"))
        time.sleep(0.1)


@pytest.fixture(scope="session")
def daphne_server():
    yield from _serve("127.0.0.1", users=True)


@pytest.fixture(scope="session")
def lan_server():
    """A second server, as `HOST=0.0.0.0 make run` serves: listening on every address,
    its settings given HOST=0.0.0.0 (so the machine's own addresses are allowed hosts and
    invite links use its LAN address), on an empty database: no user, no campaign.
    `url` is the loopback address the GM browses at on this machine, `lan_url` the
    machine's first LAN address (rollcall.reach.lan_addresses), which friends open."""
    from rollcall.reach import lan_addresses

    lan = lan_addresses()
    if not lan:
        pytest.skip("this machine has no non-loopback IPv4 address for friends to reach")
    yield from _serve("0.0.0.0", users=False, lan=lan[0])  # noqa: S104 - the LAN test's point


def _serve(host: str, *, users: bool, lan: str = ""):
    tmp = Path(tempfile.mkdtemp(prefix="rollcall-e2e-"))
    left_out = (
        *("DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "HOST", "STATIC_ROOT"),
        "PUBLIC_URL",
    )
    env = {
        **{k: v for k, v in os.environ.items() if k not in left_out},
        "SQLITE_PATH": str(tmp / "e2e.sqlite3"),
        "STATIC_ROOT": str(tmp / "static"),
        "DJANGO_SETTINGS_MODULE": "rollcall.settings",
        "PYTHONPATH": str(ROOT),
    }
    if host != "127.0.0.1":
        env["HOST"] = host  # the settings allow the hosts that reach it, as `make run` does
    py = sys.executable
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([py, "manage.py", *command, "-v", "0"], cwd=ROOT, env=env, check=True)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind((host, 0))
    listener.listen(128)
    port = listener.getsockname()[1]
    log, access_log = tmp / "daphne.stderr", tmp / "daphne.access"
    daphne = shutil.which("daphne", path=str(Path(py).parent)) or "daphne"
    with log.open("w") as err, access_log.open("w") as out:
        proc = subprocess.Popen(
            [daphne, "--fd", str(listener.fileno()), "rollcall.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=err,
            pass_fds=(listener.fileno(),),
        )
    listener.close()  # daphne holds its own copy
    server = LiveServer(url=f"http://127.0.0.1:{port}", env=env, log=log, access_log=access_log)
    if lan:
        server.lan_url = f"http://{lan}:{port}"
    SERVERS.append(server)
    try:
        if users:
            server.seed(USERS_SCRIPT, PASSWORD, *(f"{u}={d}" for u, d in USERS.items()))
        _wait_until_serving(proc, server.url, log, seconds=120)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        SERVERS.remove(server)
        shutil.rmtree(tmp, ignore_errors=True)


SERVERS: list[LiveServer] = []


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with pytest.MonkeyPatch.context() as mp:
        # Playwright's sync API runs an event loop in this thread; nothing here uses the
        # ORM, but Django's async-safety check would refuse it while the loop runs.
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"),
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                yield browser
            finally:
                for page in list(OPEN_PAGES):
                    OPEN_PAGES.pop(page, None)
                browser.close()


# --------------------------------------------------------------------------- pages


@dataclass
class PageRecord:
    user: str
    lines: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


OPEN_PAGES: dict[Any, PageRecord] = {}


# Injected by the browser's debugging protocol, which the page's policy does not govern:
# each violation is written to the console, where `console` above records it.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`Content Security Policy violation: ${e.effectiveDirective} blocked `
    + `${e.blockedURI || "inline"} at ${e.sourceFile || e.documentURI}:${e.lineNumber}`
    + (e.target && e.target.outerHTML ? ` on ${e.target.outerHTML.slice(0, 200)}` : ""));
});
"""


def watch_policy(page) -> None:
    page.add_init_script(REPORT_VIOLATIONS)


def wait_until(page, expression: str, arg: Any = None, timeout: float = EXPECT_TIMEOUT_MS) -> Any:
    """Poll a JavaScript function until it returns something truthy, and return that.

    Not page.wait_for_function: that polls by evaluating a string inside the page, which
    the Content-Security-Policy (no 'unsafe-eval') refuses once the answer is not there at
    the first try. page.evaluate goes through the DevTools protocol, which the CSP leaves
    alone."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(50)


def log_in(browser, server: LiveServer, username: str, viewport=(1200, 900)):
    """A new browser context logged in as `username`; returns its page."""
    page = open_page(browser, username, viewport)
    page.goto(server.url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def open_page(browser, label: str, viewport=(1200, 900)):
    """A page in a new browser context, its console, errors and CSP violations recorded
    under `label`."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.set_default_timeout(EXPECT_TIMEOUT_MS)
    page = context.new_page()
    record = OPEN_PAGES[page] = PageRecord(label)

    def console(message) -> None:
        record.lines.append(f"console.{message.type}: {message.text}")
        if "Content Security Policy" in message.text:  # chromium's words for a violation
            record.errors.append(f"CSP violation: {message.text}")

    def page_error(error) -> None:
        record.lines.append(f"pageerror: {error}")
        record.errors.append(str(error))

    def failed(request) -> None:
        record.lines.append(f"requestfailed: {request.method} {request.url} {request.failure}")

    def answered(response) -> None:
        if response.status >= 400:
            record.lines.append(f"HTTP {response.status}: {response.request.method} {response.url}")

    page.on("console", console)
    page.on("pageerror", page_error)
    page.on("requestfailed", failed)
    page.on("response", answered)
    page.on("close", lambda _page: OPEN_PAGES.pop(_page, None))
    watch_policy(page)
    return page


@pytest.fixture(autouse=True)
def no_uncaught_script_errors(request):
    """Every page's log is marked where a test starts; a test fails on an uncaught
    JavaScript error or a Content-Security-Policy violation in any of its pages."""
    for record in OPEN_PAGES.values():
        record.lines.append(f"--- {request.node.name}")
    yield
    errors = page_errors()
    assert not errors, f"uncaught JavaScript errors or CSP violations: {errors}"


def page_errors() -> dict[str, list[str]]:
    """Uncaught JavaScript errors so far, per user (and forget them)."""
    out = {}
    for record in OPEN_PAGES.values():
        if record.errors:
            out[record.user] = list(record.errors)
            record.errors.clear()
    return out


# --------------------------------------------------------------------------- on failure


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:100]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed and OPEN_PAGES:
        stem = _slug(item.name)
        for page, record in list(OPEN_PAGES.items()):
            name = f"failed-{stem}-{record.user}"
            try:
                page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
                (ARTIFACTS / f"{name}.html").write_text(page.content())
            except Exception as error:  # noqa: BLE001 - the page may be gone
                record.lines.append(f"(no screenshot: {error})")
            report.sections.append(
                (f"browser: {record.user} ({page.url})", "\n".join(record.lines[-80:]) or "-")
            )
    if report.when == "call" and report.failed:
        for server in SERVERS:
            report.sections.append(("daphne stderr", server.tail(server.log, 80) or "-"))
            report.sections.append(("daphne requests", server.tail(server.access_log, 30) or "-"))
    return report
