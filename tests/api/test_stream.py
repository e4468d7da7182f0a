"""The event stream: new events pushed through the table's fan-out as they are logged,
each as the token's member may see it, resumed after Last-Event-ID; a revoked token or
a changed role ends it before anything more is sent."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from api.models import ApiToken
from campaigns import services
from campaigns.models import Membership, Role
from table.writing import actions

from .conftest import api_url, open_stream, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quiet_streams")]

ROLL = {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]}


async def setup(table_for):
    t = await sync_to_async(table_for)("serenity")
    await sync_to_async(t.start_scene)()
    return t


def roll(t, visibility="public"):
    return actions.perform(t.campaign, t.gm, "roll", ROLL, visibility=visibility)


async def test_new_events_arrive_as_they_are_logged_sealed_for_players(table_for):
    t = await setup(table_for)
    token = await sync_to_async(token_for)(t.campaign, t.player)
    gm_token = await sync_to_async(token_for)(t.campaign, t.gm)
    _, stream = await open_stream(api_url(t.campaign.pk, "stream/"), token)
    _, gm_stream = await open_stream(api_url(t.campaign.pk, "stream/"), gm_token)
    try:
        assert (await stream.next()).data is None  # `retry:` first; from now on, no history
        public = await sync_to_async(roll)(t)
        secret = await sync_to_async(roll)(t, "gm")
        first, second = await stream.events(2)  # the keep-alive is 120 s: pushed, not polled
        assert (first.id, first.data["kind"], first.data["faces"]) == (
            public.seq,
            "action",
            public.faces,
        )
        assert (second.id, second.data["kind"]) == (secret.seq, "sealed")
        assert "faces" not in second.data and "Thugs" not in str(second.data)
        gm_first, gm_second = await gm_stream.events(2)
        assert gm_second.data["faces"] == secret.faces and gm_second.data["revealed"] is False
    finally:
        await stream.close()
        await gm_stream.close()


async def test_a_stream_resumes_after_last_event_id(table_for):
    t = await setup(table_for)
    token = await sync_to_async(token_for)(t.campaign, t.player)
    events = [await sync_to_async(roll)(t) for _ in range(3)]
    url = api_url(t.campaign.pk, "stream/")
    _, stream = await open_stream(url, token, headers={"Last-Event-ID": str(events[0].seq)})
    try:
        got = await stream.events(2)
        assert [m.id for m in got] == [events[1].seq, events[2].seq]
    finally:
        await stream.close()
    _, stream = await open_stream(url, token, after=events[1].seq)
    try:
        assert [m.id for m in await stream.events(1)] == [events[2].seq]
    finally:
        await stream.close()
    response, _ = await open_stream(url, token, headers={"Last-Event-ID": "one"})
    assert response.status_code == 400
    assert "Last-Event-ID" in response.json()["detail"]


async def test_revoking_a_token_ends_its_open_stream_before_the_next_event(table_for):
    t = await setup(table_for)
    token = await sync_to_async(token_for)(t.campaign, t.player)
    _, stream = await open_stream(api_url(t.campaign.pk, "stream/"), token)
    try:
        await stream.next()
        await sync_to_async(ApiToken.objects.update)(revoked_at="2030-01-01T00:00:00Z")
        await sync_to_async(roll)(t)
        (end,) = await stream.events(1)
        assert end.event == "end" and "revoked" in end.data["detail"]
        with pytest.raises(StopAsyncIteration):
            await stream.next()
    finally:
        await stream.close()


async def test_a_role_change_ends_the_stream_and_the_next_one_reads_as_the_new_role(table_for):
    t = await setup(table_for)
    token = await sync_to_async(token_for)(t.campaign, t.player)
    url = api_url(t.campaign.pk, "stream/")
    _, stream = await open_stream(url, token)
    membership = await sync_to_async(Membership.objects.get)(campaign=t.campaign, user=t.player)
    try:
        await stream.next()
        await sync_to_async(services.change_role)(t.campaign, membership.pk, Role.GM)
        (end,) = await stream.events(1)  # the membership signal woke it: no event needed
        assert end.event == "end" and "role" in end.data["detail"]
    finally:
        await stream.close()
    secret = await sync_to_async(roll)(t, "gm")
    _, stream = await open_stream(url, token, after=secret.seq - 1)
    try:
        (message,) = await stream.events(1)
        assert message.data["faces"] == secret.faces  # read as a GM now
    finally:
        await stream.close()


async def test_a_stream_refuses_like_the_rest_of_the_api(table_for):
    t = await setup(table_for)
    url = api_url(t.campaign.pk, "stream/")
    response, _ = await open_stream(url, None)
    assert response.status_code == 401
    response, _ = await open_stream(url, "rc_0123456789ab_" + "x" * 43)
    assert response.status_code == 401
    other = await sync_to_async(table_for)("smallville")
    token = await sync_to_async(token_for)(other.campaign, other.player)
    response, _ = await open_stream(url, token)
    assert response.status_code == 404


async def test_a_quiet_stream_keeps_alive_and_ends_after_its_time(table_for, settings):
    settings.API_STREAM_KEEPALIVE = 1
    settings.API_STREAM_SECONDS = 2
    t = await setup(table_for)
    token = await sync_to_async(token_for)(t.campaign, t.player)
    _, stream = await open_stream(api_url(t.campaign.pk, "stream/"), token)
    try:
        await stream.next()
        assert (await stream.next()).comment  # ": keep-alive", before the end
        (end,) = await stream.events(1)
        assert end.event == "end" and "reconnect" in end.data["detail"]
    finally:
        await stream.close()
