"""The event stream under daphne, the server Rollcall ships: a real HTTP connection
reads Server-Sent Events, picks up an event another process logged (the stream reads
the log again every keep-alive period), and resumes after Last-Event-ID."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rollcall.localserver import free_port, start_daphne, stop, wait_for_port

ROOT = Path(__file__).resolve().parents[2]

SEED = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from api import access
from campaigns import services
from campaigns.models import Campaign, Membership
from table.writing import actions

ROLL = {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]}
U = get_user_model()
if sys.argv[1] == "setup":
    gm = U.objects.create_user("gm", password="x")
    player = U.objects.create_user("pete", password="x")
    campaign = services.create_campaign(gm, name="Live", description="", system="serenity")
    membership = Membership.objects.create(campaign=campaign, user=player, role="player")
    scene = services.create_scene(campaign, title="Docks", description="")
    services.start_scene(campaign, scene.pk, gm)
    actions.perform(campaign, gm, "roll", ROLL)
    print(json.dumps({"campaign": campaign.pk, "token": access.create_token(membership, "bot")[1]}))
else:
    campaign = Campaign.objects.get()
    event = actions.perform(campaign, U.objects.get(username="gm"), "roll", ROLL, visibility=sys.argv[2])
    print(json.dumps({"seq": event.seq}))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("api-daphne")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "SQLITE_PATH": str(tmp / "db.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "rollcall.settings",
        "DEBUG": "false",
        "API_STREAM_KEEPALIVE": "1",
        "PYTHONPATH": str(ROOT),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )

    def seed(*args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-c", SEED, *args], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    ids = seed("setup")
    port = free_port()
    process = start_daphne(port, env, str(tmp / "daphne.log"), str(ROOT))
    try:
        wait_for_port(port, process, timeout=120)
        yield port, ids, seed
    finally:
        stop(process)


def open_stream(port: int, ids: dict, last_event_id: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {ids['token']}", "Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    conn.request("GET", f"/api/v1/campaigns/{ids['campaign']}/stream/", headers=headers)
    return conn, conn.getresponse()


def messages(response, count: int) -> list[dict]:
    """The next `count` messages with an id, as {"id", "data"}."""
    out, fields = [], {}
    while len(out) < count:
        line = response.readline().decode().rstrip("\n")
        if line == "":
            if "id" in fields:
                out.append({"id": int(fields["id"]), "data": json.loads(fields["data"])})
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value
    return out


def test_a_stream_under_daphne_pushes_sealed_events_and_resumes(server):
    port, ids, seed = server
    conn, response = open_stream(port, ids, last_event_id="0")
    try:
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        assert [m["id"] for m in messages(response, 2)] == [1, 2]  # the scene, the roll
        secret = seed("roll", "gm")["seq"]  # logged by another process
        (sealed,) = messages(response, 1)
        assert sealed["id"] == secret and sealed["data"]["kind"] == "sealed"
        assert "faces" not in sealed["data"]
    finally:
        conn.close()
    public = seed("roll", "public")["seq"]
    conn, response = open_stream(port, ids, last_event_id=str(secret))
    try:
        (again,) = messages(response, 1)
        assert again["id"] == public and again["data"]["faces"]
    finally:
        conn.close()


def test_head_under_daphne_answers_at_once_with_get_headers_and_no_body(server):
    """HEAD on the stream never starts it: the next request on the same connection is
    answered; HEAD on the campaign carries GET's Content-Length and nothing after it."""
    port, ids, _ = server
    url = f"/api/v1/campaigns/{ids['campaign']}/"
    auth = {"Authorization": f"Bearer {ids['token']}"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("HEAD", url + "stream/", headers=auth)
        head = conn.getresponse()
        assert head.status == 200 and head.read() == b""
        assert head.getheader("Content-Type").startswith("text/event-stream")
        conn.request("HEAD", url, headers=auth)
        head = conn.getresponse()
        assert head.status == 200 and head.read() == b""
        conn.request("GET", url, headers=auth)
        full = conn.getresponse()
        body = full.read()
        assert full.status == 200 and json.loads(body)["id"] == ids["campaign"]
        assert (
            head.getheader("Content-Length") == full.getheader("Content-Length") == str(len(body))
        )
        assert head.getheader("Content-Type") == full.getheader("Content-Type")
    finally:
        conn.close()
