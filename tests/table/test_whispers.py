"""A whisper to the GM, as at a real table: the GMs and its author read it; every other
member sees that it happened, a sealed line in its place in the log ("Pete whispered to
the GM"), so no seq is missing; readers that know no member (the overlay, the players'
Discord channel) never show it. It is never revealed, and a player's reveal or void is
refused by role, the same whatever seq or event it names."""

from __future__ import annotations

import html
import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from api import access
from integrations import vault
from integrations.models import Audience, Message, Webhook
from table.models import Kind, TableEvent
from table.reading.export import export_data, to_markdown
from table.reading.reads import fetch_stream
from table.reading.rendering import clear_cache
from table.talk import chat

from .sockets import caught_up, messages, open_socket, send, seqs

pytestmark = pytest.mark.django_db(transaction=True)

NOTICE = re.compile(r'<div id="table-notice"[^>]*data-code="(\w+)"[^>]*>(.*?)</div>', re.S)
SECRET = "I pocket the idol when nobody looks"
SEALED = "Pete whispered to the GM"
HOOK_URL = "https://discord.com/api/webhooks/123456789012345678"
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


@pytest.fixture(autouse=True)
def fresh_cards():
    clear_cache()
    yield
    clear_cache()


def cards(received: list[str]) -> str:
    return "".join(t for t in received if 'hx-swap-oob="afterbegin:#log"' in t)


def notice(received: list[str]) -> str:
    for text in received:
        match = NOTICE.search(text)
        if match:
            return html.unescape(match.group(2))
    return ""


def api_client(t, user) -> Client:
    _, key = access.create_token(t.campaign.memberships.get(user=user), "bot")
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}")


def page_of(user, t) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("table", args=[t.campaign.pk])).content.decode()


def each_socket_answer(t, user, payloads: list[dict]) -> list[str]:
    """Send each payload from `user`'s socket; the notice each one got back."""

    async def exchange():
        comm, connected, _ = await open_socket(user, t.campaign, last_seq=None)
        assert connected
        answers = []
        for payload in payloads:
            await send(comm, payload)
            answers.append(notice(await messages(comm, 1, quiet=0.3)))
        await comm.disconnect()
        return answers

    return async_to_sync(exchange)()


def test_another_player_sees_a_sealed_line_in_its_place_live_on_replay_and_in_the_page(
    table_for,
):
    t = table_for("serenity")

    async def live():
        socks = {}
        for user in (t.player, t.gm, t.other, t.observer):
            comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
            assert connected
            await caught_up(comm)
            socks[user] = comm
        await send(socks[t.player], {"type": "say", "mode": "whisper", "text": SECRET})
        got = {user: await messages(comm, 1, quiet=0.4) for user, comm in socks.items()}
        for comm in socks.values():
            await comm.disconnect()
        return got

    got = async_to_sync(live)()
    for user in (t.player, t.gm):
        assert SECRET in cards(got[user]) and "whispers to the GM:" in cards(got[user]), user
    for user in (t.other, t.observer):
        assert seqs(got[user]) == [1], user
        assert SEALED in cards(got[user]) and SECRET not in "".join(got[user]), user
    chat.say(t.campaign.pk, t.other, "ooc", "Everyone hears this")

    async def replay(user):
        comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
        assert connected
        received = await messages(comm, 2, quiet=0.3)
        await comm.disconnect()
        return received

    for user, whole in ((t.gm, True), (t.player, True), (t.other, False), (t.observer, False)):
        received = async_to_sync(replay)(user)
        assert seqs(received) == [1, 2], user
        assert (SECRET in cards(received)) is whole, user
        assert (SEALED in cards(received)) is not whole, user
        page = page_of(user, t)
        assert 'id="event-1"' in page and 'id="event-2"' in page, user
        assert (SECRET in page) is whole and (SEALED in page) is not whole, user


def test_exports_and_the_api_give_another_player_the_sealed_line(table_for):
    t = table_for("serenity")
    chat.say(t.campaign.pk, t.player, "whisper", SECRET)
    chat.say(t.campaign.pk, t.other, "ooc", "Everyone hears this")
    for user, whole in ((t.gm, True), (t.player, True), (t.other, False), (t.observer, False)):
        data = export_data(t.campaign, user)
        text = json.dumps(data) + to_markdown(data)
        assert [e["seq"] for e in data["events"]] == [1, 2], user
        assert (SECRET in text) is whole and (SEALED in text) is not whole, user
        if not whole:
            assert data["events"][0] == {
                **data["events"][0],
                "kind": "sealed",
                "headline": SEALED,
                "commitment": None,
            }
            assert "Commitment" not in to_markdown(data)
    for user, whole in ((t.gm, True), (t.player, True), (t.other, False)):
        client = api_client(t, user)
        log = client.get(f"/api/v1/campaigns/{t.campaign.pk}/events/").json()
        assert [e["seq"] for e in log["events"]] == [1, 2], user
        assert (SECRET in json.dumps(log)) is whole, user
        one = client.get(f"/api/v1/campaigns/{t.campaign.pk}/events/1/")
        missing = client.get(f"/api/v1/campaigns/{t.campaign.pk}/events/99/")
        assert one.status_code == (200 if whole else 404), user
        if not whole:
            assert one.json() == missing.json()


def test_api_paging_ends_and_last_seq_agrees_when_the_log_ends_with_anothers_whisper(
    table_for,
):
    t = table_for("serenity")
    t.start_scene()
    t.perform(t.gm, "roll", {"pool": [GOONS]})
    chat.say(t.campaign.pk, t.player, "ooc", "My turn")
    chat.say(t.campaign.pk, t.player, "whisper", SECRET)
    head = TableEvent.objects.filter(campaign=t.campaign).count()
    client = api_client(t, t.other)
    base = f"/api/v1/campaigns/{t.campaign.pk}"
    assert client.get(f"{base}/").json()["last_seq"] == head
    read, after = [], 0
    for _ in range(head + 2):
        page = client.get(f"{base}/events/", {"after": after, "limit": 1}).json()
        assert page["last_seq"] == head
        read += [e["seq"] for e in page["events"]]
        if page["next_after"] is None:
            break
        after = page["next_after"]
    else:
        pytest.fail(f"the pages never ended: next_after stayed {after}")
    assert read == list(range(1, head + 1))
    assert SECRET not in json.dumps(page)


@pytest.mark.parametrize("action", ["reveal", "void"])
def test_a_players_reveal_or_void_is_refused_the_same_whatever_it_names(table_for, action):
    t = table_for("serenity")
    t.start_scene()
    public = t.perform(t.gm, "roll", {"pool": [GOONS]})
    secret = t.perform(t.gm, "roll", {"pool": [GOONS]}, visibility="gm")
    whisper = chat.say(t.campaign.pk, t.other, "whisper", SECRET)
    own = chat.say(t.campaign.pk, t.player, "whisper", "mine")
    named = [public, secret, whisper, own]
    missing = max(e.seq for e in named) + 50
    extra = {"reason": "cheating"} if action == "void" else {}
    payloads = [{"type": action, "seq": e.seq, **extra} for e in named]
    payloads.append({"type": action, "seq": missing, **extra})
    payloads += [{"type": action, "event_id": e.pk, **extra} for e in named]
    payloads.append({"type": action, "event_id": missing * 1000, **extra})
    before = list(TableEvent.objects.values_list("seq", "revealed", "voided"))
    answers = each_socket_answer(t, t.player, payloads)
    expected = "Only the GM can reveal a roll." if action == "reveal" else (
        "Only the GM can void an event."
    )  # fmt: skip
    assert answers == [expected] * len(payloads)
    client = Client()
    client.force_login(t.player)
    statuses = {
        client.post(reverse(f"table_{action}", args=[t.campaign.pk, event_id]), extra).status_code
        for event_id in [e.pk for e in named] + [missing * 1000]
    }
    assert statuses == {403}
    assert list(TableEvent.objects.values_list("seq", "revealed", "voided")) == before


def test_a_gm_cannot_reveal_a_whisper_over_the_socket_or_the_page(table_for):
    t = table_for("serenity")
    whisper = chat.say(t.campaign.pk, t.player, "whisper", SECRET)
    answers = each_socket_answer(
        t,
        t.gm,
        [{"type": "reveal", "seq": whisper.seq}, {"type": "reveal", "event_id": whisper.pk}],
    )
    stays = "A whisper stays between its author and the GM: it is never revealed."
    assert answers == [stays, stays]
    client = Client()
    client.force_login(t.gm)
    answer = client.post(
        reverse("table_reveal", args=[t.campaign.pk, whisper.pk]), HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200 and stays in html.unescape(answer.content.decode())
    assert list(TableEvent.objects.values_list("seq", "kind", "revealed")) == [
        (1, Kind.CHAT, False)
    ]
    assert SECRET not in page_of(t.other, t)


def test_the_catch_up_of_a_whole_audience_keeps_the_authors_card_apart(table_for):
    """What the hub re-reads for all the players' sockets when a broadcast was lost:
    the sealed line for everyone, the whole card only for its author's sockets."""
    t = table_for("serenity")
    chat.say(t.campaign.pk, t.player, "whisper", SECRET)
    (message,) = fetch_stream(t.campaign.pk, "players", 0, 10)["messages"]
    assert SEALED in message["html"] and SECRET not in message["html"]
    assert message["author"] == t.player.pk and SECRET in message["author_html"]
    (gm_message,) = fetch_stream(t.campaign.pk, "gm", 0, 10)["messages"]
    assert SECRET in gm_message["html"] and "author_html" not in gm_message


def test_no_whisper_reaches_the_overlay_or_the_players_discord_channel(table_for):
    t = table_for("serenity")
    hooks = {
        audience: Webhook.objects.create(
            campaign=t.campaign,
            audience=audience,
            url_sealed=vault.seal(vault.parse(f"{HOOK_URL}/{name}-channel-token-0123456789").url),
            url_hint=name,
        )
        for audience, name in ((Audience.PUBLIC, "players"), (Audience.GM, "gm"))
    }
    chat.say(t.campaign.pk, t.other, "ooc", "Everyone hears this")
    whisper = chat.say(t.campaign.pk, t.player, "whisper", SECRET)
    _, link = access.create_overlay(t.campaign, t.gm, "Friday stream")
    overlay = Client().get(reverse("overlay", args=[link]), {"n": "5"}).content.decode()
    assert "Everyone hears this" in overlay
    assert SECRET not in overlay and SEALED not in overlay and 'id="event-2"' not in overlay
    queued = Message.objects.filter(event=whisper)
    assert [m.webhook_id for m in queued] == [hooks[Audience.GM].pk]
    other = page_of(t.other, t)  # a member, though, sees that it happened
    assert SEALED in other and SECRET not in other
