"""Rollcall served the way `make run` serves it, on a real daphne, over real HTTP.

The commands are `make -n run`'s own (migrate, collectstatic, load_demo, daphne), run
with no DEBUG in the environment and HOST=0.0.0.0, as the README suggests for playing on
a LAN; only daphne is bound to the loopback address here, and the database and the
gathered static files live in a temporary directory. Each request names the Host it
wants, as a browser (or an attacker) on the network would.
"""

from __future__ import annotations

import http.client
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest

from rollcall.localserver import free_port, stop, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
DEMO_PASSWORD = "rollcall-demo"  # campaigns/demo.py
# The shell's own settings are left out: the server runs on make run's defaults.
SETTINGS_VARS = {
    "DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "ALLOWED_HOSTS", "HOST", "SQLITE_PATH",
    "STATIC_ROOT", "BEHIND_TLS_PROXY", "TRUSTED_PROXY_HOPS", "SECURE_SSL_REDIRECT",
    "DATABASE_URL", "REDIS_URL", "CSRF_TRUSTED_ORIGINS", "DJANGO_SETTINGS_MODULE", "PUBLIC_URL",
}  # fmt: skip


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    cookies: dict[str, str] = field(default_factory=dict)


@dataclass
class Served:
    port: int
    directory: Path
    printed: str = ""  # what the recipe printed before daphne started

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def request(self, method: str, path: str, *, host: str | None = None, headers=None,
                body: bytes | None = None) -> Answer:  # fmt: skip
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.putrequest(method, path, skip_host=True)
            connection.putheader("Host", host or self.host)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            answer = connection.getresponse()
            cookies = {}
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    cookies[key] = rest.split(";", 1)[0]
            return Answer(
                answer.status,
                {k.lower(): v for k, v in answer.getheaders()},
                answer.read().decode("utf-8", "replace"),
                cookies,
            )
        finally:
            connection.close()


def make_run_commands(port: int) -> list[list[str]]:
    """The Makefile's `run` recipe, as `make -n` prints it, without its install steps."""
    venv = Path(sys.executable).parent.parent
    printed = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", f"VENV={venv}", "HOST=0.0.0.0", f"PORT={port}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [
        shlex.split(line)
        for line in printed.splitlines()
        if "manage.py" in line or "/daphne " in line or "rollcall.reach" in line
    ]


def run_like_make(command: list[str], env: dict[str, str]) -> list[str]:
    """Split make's `VAR=value program args` into the environment and the command."""
    env = dict(env)
    while command and re.fullmatch(r"[A-Z_]+=.*", command[0]):
        name, _, value = command.pop(0).partition("=")
        env[name] = value
    return command, env


@pytest.fixture(scope="module")
def served():
    directory = Path(tempfile.mkdtemp(prefix="rollcall-make-run-"))
    port = free_port()
    base = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    base.update(SQLITE_PATH=str(directory / "db.sqlite3"), STATIC_ROOT=str(directory / "static"))
    commands = make_run_commands(port)
    assert [c[-1] for c in commands][-1] == "rollcall.asgi:application", commands
    *setup, daphne = commands
    printed = []
    for command in setup:
        argv, env = run_like_make(command, base)
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stderr}"
        printed.append(done.stdout)
    argv, env = run_like_make(daphne, base)
    assert argv[argv.index("-b") + 1] == "0.0.0.0"  # noqa: S104 - what make run asks for
    argv[argv.index("-b") + 1] = "127.0.0.1"  # tests reach only this machine's loopback
    log = (directory / "daphne.log").open("wb")
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    try:
        wait_for_port(port, process, timeout=120)
        yield Served(port, directory, "".join(printed))
    finally:
        stop(process)
        log.close()
        shutil.rmtree(directory, ignore_errors=True)


def form_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def log_in(served: Served, username: str, password: str, **headers) -> Answer:
    form = served.request("GET", "/accounts/login/")
    body = urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": form_token(form.body)}
    ).encode()
    return served.request(
        "POST",
        "/accounts/login/",
        body=body,
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={form.cookies['csrftoken']}",
            **headers,
        },
    )


# ---------------------------------------------------------------------- make run


def test_make_run_serves_pages_and_their_static_files_with_debug_off(served):
    page = served.request("GET", "/accounts/login/")
    assert page.status == 200
    assert "Log in" in page.body
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.body)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    for asset in assets:
        # collectstatic's hashed names, cached for good
        assert re.search(r"\.[0-9a-f]{12}\.(css|js|svg|png)$", asset), asset
        answer = served.request("GET", asset)
        assert answer.status == 200, asset
        assert "immutable" in answer.headers.get("cache-control", ""), asset


def test_an_unknown_page_is_a_plain_404(served):
    """DEBUG off: not Django's technical 404, which lists every URL pattern."""
    answer = served.request("GET", "/no/such/page/")
    assert answer.status == 404
    assert "URLconf" not in answer.body and "urlpatterns" not in answer.body


def test_the_demo_logins_work(served):
    answer = log_in(served, "gm", DEMO_PASSWORD)
    assert answer.status == 302
    session = answer.cookies["sessionid"]
    mine = served.request("GET", "/campaigns/", headers={"Cookie": f"sessionid={session}"})
    assert mine.status == 200
    assert len(set(re.findall(r'href="/c/(\d+)/"', mine.body))) == 5  # the demo campaigns


def test_make_run_prints_the_addresses_friends_open_and_they_answer(served):
    """HOST=0.0.0.0 used to print http://0.0.0.0:PORT/, which answers 400: now every
    address printed for friends is one this server accepts."""
    assert "0.0.0.0" not in served.printed
    friends = served.printed.split("Friends open it at:", 1)[1].split("On this machine:", 1)[0]
    urls = re.findall(r"http://(\S+)/", friends)
    assert urls and any(
        u.startswith(f"{socket.gethostname().lower().split('.')[0]}.local:") for u in urls
    )
    for host in urls:
        assert served.request("GET", "/accounts/login/", host=host).status == 200, host


# ---------------------------------------------------------------------- the Host header


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_an_unknown_host_gets_a_plain_400_never_the_debug_page(served, host):
    """HOST=0.0.0.0 used to serve DEBUG on: an unknown Host header showed anyone on the
    network Django's debug page, settings included."""
    answer = served.request("GET", "/accounts/login/", host=host)
    assert answer.status == 400
    for leak in ("DisallowedHost", "Traceback", "ALLOWED_HOSTS", "settings", "SECRET"):
        assert leak not in answer.body


def test_the_machines_own_names_reach_it(served):
    """Bound to every address, the machine's name and loopback names are allowed."""
    for name in (socket.gethostname().lower(), "localhost", "127.0.0.1"):
        answer = served.request("GET", "/accounts/login/", host=f"{name}:{served.port}")
        assert answer.status == 200, name


# ---------------------------------------------------------------------- X-Forwarded-For


def test_rotating_forwarded_for_does_not_reset_the_login_limit(served):
    """Reached directly, as on a LAN, a client's X-Forwarded-For is its own invention: a
    new address for every guess used to make a new count for every guess."""
    for n in range(4):
        answer = log_in(served, "alice", "wrong", **{"X-Forwarded-For": f"192.0.2.{n}"})
        assert answer.status == 200
    fifth = log_in(served, "alice", "wrong", **{"X-Forwarded-For": "192.0.2.50"})
    assert fifth.status == 429
    assert "Too many failed log-ins" in fifth.body
    right = log_in(served, "alice", DEMO_PASSWORD, **{"X-Forwarded-For": "192.0.2.51"})
    assert right.status == 429


# ---------------------------------------------------------------------- the socket


def test_the_table_socket_opens_from_its_own_page_only(served):
    """A logged-in page's socket opens; the same cookie from a page on another port of the
    same machine, or over https, is refused at the handshake."""
    import asyncio

    import websockets

    session = log_in(served, "bob", DEMO_PASSWORD).cookies["sessionid"]
    campaigns = served.request("GET", "/campaigns/", headers={"Cookie": f"sessionid={session}"})
    campaign = re.search(r'href="/c/(\d+)/"', campaigns.body).group(1)
    url = f"ws://127.0.0.1:{served.port}/ws/campaign/{campaign}/?last_seq=0"

    async def opens(origin: str) -> bool:
        try:
            async with websockets.connect(
                url, origin=origin, additional_headers={"Cookie": f"sessionid={session}"}
            ) as ws:
                await ws.send('{"type": "ping"}')
                while 'data-code="pong"' not in await asyncio.wait_for(ws.recv(), 60):
                    pass
                return True
        except websockets.InvalidStatus:
            return False

    assert asyncio.run(opens(f"http://127.0.0.1:{served.port}"))
    assert not asyncio.run(opens(f"http://127.0.0.1:{served.port + 1}"))
    assert not asyncio.run(opens(f"https://127.0.0.1:{served.port}"))
    assert not asyncio.run(opens("http://evil.example"))
