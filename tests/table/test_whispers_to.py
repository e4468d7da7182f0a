"""Whispers to one player: the GM's to any player, and a player's to another where the
campaign allows it. The GMs, the author and the recipient read the text on the page,
live, on replay, in exports and through the API; every other member sees the sealed
line ("The GM whispered to Pete"); the overlay and the players' Discord channel get
nothing. A player's whisper to a player is refused while the campaign does not allow
it, and a recipient who is no player of the campaign is refused as a missing one."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from api import access
from campaigns.models import Campaign, Membership, Role
from integrations import vault
from integrations.models import Audience, Message, Webhook
from table.models import TableEvent
from table.reading.export import export_data, to_markdown
from table.reading.rendering import clear_cache
from table.talk import chat
from table.writing.actions import ActionError

from .sockets import caught_up, messages, open_socket, send, seqs
from .test_whispers import HOOK_URL, api_client, cards, notice, page_of

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "The idol is a fake"
OFF = "Whispers between players are off in this campaign"
MISSING = "No such player in this campaign."


@pytest.fixture(autouse=True)
def fresh_cards():
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def third(make_user):
    return make_user("tess", "Tess")


def allow(t, on=True):
    Campaign.objects.filter(pk=t.campaign.pk).update(player_whispers=on)


def join(t, user):
    Membership.objects.create(campaign=t.campaign, user=user, role=Role.PLAYER)


def readers_and_others(t, author, recipient, third):
    readers = {t.gm, author, recipient}
    others = [u for u in (t.player, t.other, third, t.observer) if u not in readers]
    return sorted(readers, key=str), others


def live_and_replay(t, author, payload, users):
    """What each user's socket got live when `author` sent `payload`, then on a replay."""

    async def live():
        socks = {}
        for user in users:
            comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
            assert connected
            await caught_up(comm)
            socks[user] = comm
        author_sock = socks.get(author)
        if author_sock is None:
            author_sock, connected, _ = await open_socket(author, t.campaign, last_seq=0)
            await caught_up(author_sock)
        await send(author_sock, payload)
        got = {user: await messages(comm, 1, quiet=0.4) for user, comm in socks.items()}
        for comm in {*socks.values(), author_sock}:
            await comm.disconnect()
        return got

    async def replay(user):
        comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
        assert connected
        received = await messages(comm, 1, quiet=0.3)
        await comm.disconnect()
        return received

    got = async_to_sync(live)()
    return got, {user: async_to_sync(replay)(user) for user in users}


def check_everywhere(t, readers, others, sealed, whole_line):
    for user in readers + others:
        whole = user in readers
        page = page_of(user, t)
        assert 'id="event-1"' in page, user
        assert (SECRET in page) is whole and (sealed in page) is not whole, user
        data = export_data(t.campaign, user)
        text = json.dumps(data) + to_markdown(data)
        assert (SECRET in text) is whole and (sealed in text) is not whole, user
        if whole:
            assert whole_line in page, user
        if user != t.observer:
            log = api_client(t, user).get(f"/api/v1/campaigns/{t.campaign.pk}/events/").json()
            assert [e["seq"] for e in log["events"]] == [1], user
            assert (SECRET in json.dumps(log)) is whole, user


def test_the_gm_whispers_to_one_player(table_for, third):
    t = table_for("serenity")
    join(t, third)
    readers, others = readers_and_others(t, t.gm, t.player, third)
    payload = {"type": "say", "mode": "whisper", "to": t.player.pk, "text": SECRET}
    got, replayed = live_and_replay(t, t.gm, payload, readers + others)
    sealed = "The GM whispered to Pete"
    for user in readers:
        assert SECRET in cards(got[user]) and SECRET in cards(replayed[user]), user
    for user in others:
        assert seqs(got[user]) == [1] and seqs(replayed[user]) == [1], user
        received = "".join(got[user] + replayed[user])
        assert sealed in cards(got[user]) and SECRET not in received, user
    check_everywhere(t, readers, others, sealed, "whispers to Pete:")


def test_a_player_whispers_to_another_where_the_gm_allows_it(table_for, third):
    t = table_for("serenity")
    join(t, third)
    allow(t)
    readers, others = readers_and_others(t, t.player, t.other, third)
    payload = {"type": "say", "speak": f"whisper:{t.other.pk}", "text": SECRET}
    got, replayed = live_and_replay(t, t.player, payload, readers + others)
    for user in readers:
        assert SECRET in cards(got[user]) and SECRET in cards(replayed[user]), user
    for user in others:
        assert "Pete whispered to Zed" in cards(got[user]), user
        assert SECRET not in "".join(got[user] + replayed[user]), user
    check_everywhere(t, readers, others, "Pete whispered to Zed", "Pete</span> whispers to Zed:")


def test_no_whisper_to_a_player_reaches_the_overlay_or_the_players_discord(table_for):
    t = table_for("serenity")
    allow(t)
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
    whispered = [
        chat.say(t.campaign.pk, t.gm, "whisper", SECRET, to=t.player.pk),
        chat.say(t.campaign.pk, t.player, "whisper", SECRET, to=t.other.pk),
    ]
    _, link = access.create_overlay(t.campaign, t.gm, "Friday stream")
    overlay = Client().get(reverse("overlay", args=[link]), {"n": "5"}).content.decode()
    assert "Everyone hears this" in overlay
    assert SECRET not in overlay and "whispered" not in overlay
    for event in whispered:
        queued = Message.objects.filter(event=event)
        assert [m.webhook_id for m in queued] == [hooks[Audience.GM].pk]


def test_a_player_cannot_whisper_to_a_player_while_the_campaign_does_not_allow_it(table_for):
    t = table_for("serenity")
    for to in (t.other.pk, t.outsider.pk, 10**9):  # the setting first, whoever is named
        with pytest.raises(ActionError, match=OFF):
            chat.say(t.campaign.pk, t.player, "whisper", SECRET, to=to)

    async def over_the_socket():
        comm, connected, _ = await open_socket(t.player, t.campaign, last_seq=None)
        assert connected
        await send(comm, {"type": "say", "speak": f"whisper:{t.other.pk}", "text": SECRET})
        answer = notice(await messages(comm, 1, quiet=0.3))
        await comm.disconnect()
        return answer

    assert OFF in async_to_sync(over_the_socket)()
    client = Client()
    client.force_login(t.player)
    url = reverse("table_say", args=[t.campaign.pk])
    answer = client.post(url, {"speak": f"whisper:{t.other.pk}", "text": SECRET})
    assert answer.status_code == 400 and OFF in answer.content.decode().replace("&#x27;", "'")
    assert not TableEvent.objects.exists()


def test_a_recipient_who_is_no_player_here_looks_like_a_missing_one(table_for):
    t = table_for("serenity")
    allow(t)
    nobody = [t.outsider.pk, 10**9, 0, t.observer.pk, t.gm.pk]  # a GM is no player
    for author in (t.player, t.gm):
        for to in nobody + [author.pk]:
            with pytest.raises(ActionError) as caught:
                chat.say(t.campaign.pk, author, "whisper", SECRET, to=to)
            assert str(caught.value) == MISSING, (author, to)
    for speak in ("whisper:abc", "whisper:", "whisper:-3"):
        with pytest.raises(ActionError, match=MISSING):
            chat.say(t.campaign.pk, t.player, "whisper", SECRET, to=chat.to_of({"speak": speak}))
    assert not TableEvent.objects.exists()


def test_the_chat_line_offers_whom_to_whisper_to(table_for, client_for):
    t = table_for("serenity")
    gm_page = page_of(t.gm, t)
    assert f'value="whisper:{t.player.pk}">Whisper to Pete' in gm_page
    assert f'value="whisper:{t.other.pk}">Whisper to Zed' in gm_page
    assert "Whisper to Olive" not in gm_page  # an observer plays no part
    assert "Whisper to Zed" not in page_of(t.player, t)
    edit = reverse("campaign_edit", args=[t.campaign.pk])
    form = {"name": t.campaign.name, "description": "", "player_whispers": "on"}
    client_for(t.gm).post(edit, form)
    assert Campaign.objects.get(pk=t.campaign.pk).player_whispers
    player_page = page_of(t.player, t)
    assert f'value="whisper:{t.other.pk}">Whisper to Zed' in player_page
    assert "Whisper to Pete" not in player_page and "Whisper to GM" in player_page
