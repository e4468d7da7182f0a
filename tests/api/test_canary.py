"""The canary of the table (tests/table/test_canary.py), read through the API: hidden
events of every kind in every game, each carrying a marker only the GM may see. A GM's
token finds every marker; a player's, another player's and an observer's find none, at
any endpoint, the event stream included, while still being shown every seq."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from table.models import TableEvent
from tests.table.test_canary import CANARY, plant

from .conftest import api_url, get, open_stream, token_for

pytestmark = pytest.mark.django_db(transaction=True)
SYSTEMS = ["serenity", "smallville", "cortex_slots", "personae", "unisystem"]


def read_everything(campaign_id: int, token: str, count: int) -> dict[str, str]:
    """Every JSON endpoint, every page of the log, every event by its seq (and one past
    the end): name -> body."""
    out: dict[str, str] = {}
    for name in ("", "scene/", "session/", "sheets/"):
        response = get(api_url(campaign_id, name), token)
        assert response.status_code == 200, (name, response.status_code)
        out[name or "campaign"] = response.content.decode()
    after, pages = 0, []
    while after is not None:
        page = get(api_url(campaign_id, "events/"), token, after=after, limit=3).json()
        pages.append(page)
        after = page["next_after"]
    out["log"] = json.dumps(pages)
    for seq in range(1, count + 2):
        response = get(api_url(campaign_id, f"events/{seq}/"), token)
        assert response.status_code in (200, 404)
        out[f"event {seq}"] = f"{response.status_code} {response.content.decode()}"
    return out


async def streamed(campaign_id: int, token: str, count: int) -> str:
    response, stream = await open_stream(api_url(campaign_id, "stream/"), token, after=0)
    assert stream is not None, response.content
    try:
        messages = await stream.events(count)
    finally:
        await stream.close()
    assert [m.id for m in messages] == list(range(1, count + 1))
    return json.dumps([m.data for m in messages])


@pytest.mark.parametrize("system", SYSTEMS)
async def test_no_hidden_marker_reaches_a_players_token(table_for, faces, system):
    t = await sync_to_async(table_for)(system)
    markers = await sync_to_async(plant)(t, system)
    events = await sync_to_async(lambda: list(TableEvent.objects.filter(campaign=t.campaign)))()
    count = len(events)
    hidden = {e.seq for e in events if e.visibility != "public" and not e.revealed}
    assert hidden
    cid = t.campaign.pk

    gm_token = await sync_to_async(token_for)(t.campaign, t.gm)
    gm_seen = await sync_to_async(read_everything)(cid, gm_token, count)
    gm_seen["stream"] = await streamed(cid, gm_token, count)
    assert set(CANARY.findall(" ".join(gm_seen.values()))) == markers  # the test can fail

    for who in (t.player, t.other, t.observer):
        token = await sync_to_async(token_for)(t.campaign, who)
        seen = await sync_to_async(read_everything)(cid, token, count)
        seen["stream"] = await streamed(cid, token, count)
        for name, text in seen.items():
            assert not CANARY.findall(text), f"{name} for {who} shows {CANARY.findall(text)}"
        # every seq is listed, the hidden ones sealed ...
        log = [e for page in json.loads(seen["log"]) for e in page["events"]]
        assert [e["seq"] for e in log] == list(range(1, count + 1))
        assert {e["seq"] for e in log if e["kind"] == "sealed"} == hidden
        assert all(set(e) == {"seq", "kind", "headline", "created_at", "commitment"}
                   for e in log if e["kind"] == "sealed")  # fmt: skip
        # ... and asked for by seq, a hidden event is exactly a missing one
        missing = seen[f"event {count + 1}"]
        assert missing.startswith("404 ")
        for seq in hidden:
            assert seen[f"event {seq}"] == missing
        assert not any({"revealed", "secret_difficulty"} & set(e) for e in log)  # GMs' fields
