"""Installable, in chromium: the manifest, its icons and the service worker are served
as a browser needs them; the worker takes over the page; when the server is stopped
(really stopped: this module runs a daphne of its own and terminates it), reloading the
table shows the offline shell, which says so, and when the same server comes back on the
same address the shell reconnects by itself and the table is there again."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from rollcall.localserver import free_port

from .conftest import PASSWORD, USERS, USERS_SCRIPT, LiveServer, _wait_until_serving, log_in
from .conftest import wait_until as wait_in_page

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership

U = get_user_model()
c = services.create_campaign(U.objects.get(username="gm"), name="Pocket table", description="", system="serenity")
Membership.objects.create(campaign=c, user=U.objects.get(username="alice"), role="player")
print(json.dumps({"id": c.pk}))
"""


class RestartableServer(LiveServer):
    """daphne on one fixed loopback port, stopped and started again at will; its
    database and secret key stay, so a browser's session outlives a restart."""

    def __init__(self, tmp: Path) -> None:
        left_out = ("DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "HOST", "STATIC_ROOT")
        env = {
            **{k: v for k, v in os.environ.items() if k not in left_out},
            "SQLITE_PATH": str(tmp / "pwa.sqlite3"),
            "STATIC_ROOT": str(tmp / "static"),
            "DJANGO_SETTINGS_MODULE": "rollcall.settings",
            "PYTHONPATH": str(ROOT),
        }
        self.port = free_port()
        super().__init__(f"http://127.0.0.1:{self.port}", env, tmp / "daphne.stderr",
                         tmp / "daphne.access")  # fmt: skip
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        daphne = shutil.which("daphne", path=str(Path(sys.executable).parent)) or "daphne"
        with self.log.open("a") as err, self.access_log.open("a") as out:
            self.process = subprocess.Popen(
                [daphne, "--fd", str(listener.fileno()), "rollcall.asgi:application"],
                cwd=ROOT, env=self.env, stdout=out, stderr=err, pass_fds=(listener.fileno(),),
            )  # fmt: skip
        listener.close()
        _wait_until_serving(self.process, self.url, self.log, seconds=120)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture(scope="module")
def server():
    tmp = Path(tempfile.mkdtemp(prefix="rollcall-pwa-"))
    live = RestartableServer(tmp)
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *command, "-v", "0"], cwd=ROOT, env=live.env,
                       check=True)  # fmt: skip
    live.seed(USERS_SCRIPT, PASSWORD, *(f"{u}={d}" for u, d in USERS.items()))
    live.campaign = live.seed(SETUP)["id"]
    live.start()
    try:
        yield live
    finally:
        live.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def test_the_manifest_icons_and_worker_are_served_as_a_browser_needs(chromium, server):
    page = log_in(chromium, server, "alice")
    href = page.evaluate("() => document.querySelector('link[rel=manifest]').href")
    answer = page.request.get(href)
    assert answer.ok and answer.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(answer.text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        image = page.request.get(server.url + icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png", icon["src"]
    worker = page.request.get(server.url + "/sw.js")
    assert worker.ok and worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"
    for url in json.loads(worker.text().split(" = ", 1)[1].split(";\n", 1)[0])["files"]:
        assert page.request.get(server.url + url).ok, url  # the shell it keeps is there


def test_offline_the_shell_says_so_and_reconnects_by_itself(chromium, server):
    page = log_in(chromium, server, "alice")
    table = f"{server.url}/c/{server.campaign}/table/"
    page.goto(table)
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    scope = wait_in_page(
        page,
        "() => navigator.serviceWorker.ready.then(r => navigator.serviceWorker.controller"
        " ? r.scope : null)",
        timeout=60_000,
    )
    assert scope == server.url + "/"

    server.stop()
    try:
        page.reload()
        expect(page.locator("[data-offline] h1")).to_have_text("You are offline")
        expect(page.locator("#offline-status")).to_contain_text("reconnects by itself")
        assert page.url == table  # the shell stands in for the page that was asked for
        assert page.locator("#log").count() == 0  # nothing of the table is kept
    finally:
        server.start()
    expect(page.locator("#log")).to_be_attached(timeout=60_000)  # back, by itself
    assert page.url == table and page.locator("[data-offline]").count() == 0
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
