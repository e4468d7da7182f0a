"""Talk in the log (issue #18): in-character and out-of-character lines reach everyone,
a whisper to the GM is read by the GMs and its author (tests/table/test_whispers.py:
everyone else sees a sealed line), bad lines are refused with nothing stored, and `/roll`
builds the same request as the pool builder does for the same traits."""

from __future__ import annotations

import html
import re

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from table.models import Kind, TableEvent
from table.pools.builder import build, builder_inputs
from table.pools.rolls import roll_request
from table.pools.scene import scene_state
from table.reading.rendering import clear_cache
from table.talk import chat

from .sockets import caught_up, messages, open_socket, send, seqs

pytestmark = pytest.mark.django_db(transaction=True)

NOTICE = re.compile(r'<div id="table-notice"[^>]*data-code="(\w+)"[^>]*>(.*?)</div>', re.S)
WHISPER_TEXT = "I pocket the idol when nobody looks"


@pytest.fixture(autouse=True)
def fresh_cards():
    clear_cache()
    yield
    clear_cache()


def cards(received: list[str]) -> str:
    return "".join(t for t in received if 'hx-swap-oob="afterbegin:#log"' in t)


def refusal(received: list[str]) -> str:
    for text in received:
        match = NOTICE.search(text)
        if match and match.group(1) in ("refused", "malformed"):
            return html.unescape(match.group(2))
    return ""


def say_over_sockets(t, speaker, message: dict, listeners) -> dict:
    """Open a socket for the speaker and each listener, send `message` from the speaker;
    what each socket received, by user."""

    async def exchange():
        socks = {}
        for user in [speaker, *listeners]:
            comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
            assert connected
            await caught_up(comm)
            socks[user] = comm
        await send(socks[speaker], message)
        # The speaker always hears back (the card, or the refusal); once a card is out,
        # every listener gets it too: wait for that, not for a quiet moment, which a busy
        # machine can stretch past any bound.
        got = {speaker: await messages(socks[speaker], 1)}
        carded = bool(seqs(got[speaker]))
        for user, comm in socks.items():
            if user != speaker:
                got[user] = await messages(comm, 1 if carded else 0)
        for comm in socks.values():
            await comm.disconnect()
        return got

    return async_to_sync(exchange)()


def test_in_character_and_out_of_character_lines_reach_everyone(table_for):
    t = table_for("serenity")
    listeners = [t.gm, t.other, t.observer]
    got = say_over_sockets(
        t, t.player, {"type": "say", "speak": f"ic:{t.pc.pk}", "text": "  Shiny.  "}, listeners
    )
    for user in [t.player, *listeners]:
        card = cards(got[user])
        assert "Pete (as Mal)" in card and "says:" in card and "Shiny." in card, user
    got = say_over_sockets(
        t, t.other, {"type": "say", "mode": "ooc", "text": "brb, pizza"}, [t.gm, t.player]
    )
    for user in (t.other, t.gm, t.player):
        assert "says (out of character):" in cards(got[user])
    line = TableEvent.objects.get(kind=Kind.CHAT, request__mode="ic")
    assert line.request == {"mode": "ic", "text": "Shiny."}
    assert line.character_id == t.pc.pk
    assert line.outcome["headline"] == "Pete (as Mal) says: Shiny."


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"mode": "ooc", "text": "   "}, "the line is empty"),
        ({"mode": "ooc", "text": "x" * 1001}, "at most 1000 characters"),
        ({"mode": "shout", "text": "hello"}, "Say how"),
        ({"mode": "ic", "sheet_id": "OTHER", "text": "I'm Zoe now"}, "You do not speak for Zoe"),
        ({"mode": "ic", "text": "Who am I?"}, "Choose the character who speaks"),
        ({"mode": "ooc", "text": "I only watch", "as": "observer"}, "Observers can watch"),
    ],
)
def test_bad_lines_are_refused_with_a_clear_message_and_nothing_is_stored(
    table_for, message, expected
):
    t = table_for("serenity")
    if message.get("sheet_id") == "OTHER":
        message = {**message, "sheet_id": t.other_pc.pk}
    speaker = t.observer if message.pop("as", None) == "observer" else t.player
    got = say_over_sockets(t, speaker, {"type": "say", **message}, [t.gm])
    assert expected in refusal(got[speaker])
    assert got[t.gm] == []
    assert not TableEvent.objects.filter(kind=Kind.CHAT).exists()


def test_the_text_is_escaped_on_the_card(table_for):
    t = table_for("serenity")
    got = say_over_sockets(
        t, t.player, {"type": "say", "mode": "ooc", "text": "<script>alert(1)</script>"}, []
    )
    card = cards(got[t.player])
    assert "<script>" not in card and "&lt;script&gt;" in card


def test_a_gm_speaks_as_a_gm_character_but_a_player_never_does(table_for):
    t = table_for("serenity")
    event = chat.say(t.campaign.pk, t.gm, "ic", "You owe me.", sheet_id=t.npc.pk)
    assert event.outcome["headline"] == "Gina the GM (as Niska) says: You owe me."
    with pytest.raises(chat.ActionError, match="You do not speak for Niska"):
        chat.say(t.campaign.pk, t.player, "ic", "I'm Niska", sheet_id=t.npc.pk)
    with pytest.raises(chat.ActionError, match="You do not speak for Mal"):
        chat.say(t.campaign.pk, t.gm, "ic", "I'm Mal", sheet_id=t.pc.pk)


def test_chat_lines_are_in_the_hash_chain(table_for):
    from table.reading.export import verify

    t = table_for("serenity")
    chat.say(t.campaign.pk, t.player, "ooc", "hello")
    chat.say(t.campaign.pk, t.player, "whisper", "psst")
    assert verify(t.campaign).ok
    TableEvent.objects.filter(kind=Kind.CHAT, seq=2).update(
        request={"mode": "whisper", "text": "x"}
    )
    assert not verify(t.campaign).ok


# --------------------------------------------------------------------------- /roll


def builder_request(t, user, sheet, names: list[str], **extra):
    """What the pool builder's Roll button sends for these traits, clicked by id."""
    membership = t.campaign.memberships.get(user=user)
    state = scene_state(t.campaign, membership)
    inputs = builder_inputs(t.campaign, sheet, state)
    by_name = {trait.name: trait.pk for trait in inputs.traits}
    data: dict = {"trait": [], **extra}
    for name in names:  # one click after another, as on the page
        clicked = by_name[name]
        if clicked in data["trait"]:
            continue
        data = {**data, "trait": [*data["trait"], clicked], "clicked": clicked}
        pool = build(t.campaign, sheet, data, inputs, gm=membership.is_gm)
        data["trait"] = list(pool.selected)
    return roll_request(t.campaign, sheet, pool, data, state)


@pytest.mark.parametrize(
    ("system", "line", "names"),
    [
        (
            "serenity",
            "/roll fightin’ + War Veteran, loyalty",
            ["Fightin'", "War Veteran", "Loyalty"],
        ),
        ("cortex_slots", "/roll Agility + Shoot + ex-marine", ["Agility", "Shoot", "Ex-Marine"]),
        ("personae", "/roll Swordplay: disarm the guard", ["Swordplay"]),
        ("unisystem", "/roll Dexterity + Acrobatics", ["Dexterity", "Acrobatics"]),
    ],
)
def test_roll_from_the_chat_line_makes_the_builders_request(
    table_for, faces, monkeypatch, system, line, names
):
    t = table_for(system)
    sent = []
    perform_in = chat.actions.perform_in

    def recording(campaign_id, user, action, request, **kwargs):
        sent.append((action, request))
        return perform_in(campaign_id, user, action, request, **kwargs)

    monkeypatch.setattr(chat.actions, "perform_in", recording)
    if system == "personae":  # PER-1: the GM gives the number to beat
        t.start_scene()
        t.perform(t.gm, "set_difficulty", {"difficulty": 9})
    goal = {"goal": line.partition(":")[2].strip()} if ":" in line else {}
    name, expected = builder_request(t, t.player, t.pc, names, **goal)
    faces.queue.extend([3] * 12)
    got = say_over_sockets(
        t, t.player, {"type": "say", "speak": f"ic:{t.pc.pk}", "text": line}, [t.gm]
    )
    assert refusal(got[t.player]) == ""
    event = TableEvent.objects.filter(kind=Kind.ACTION).last()
    assert event.action == name and event.character_id == t.pc.pk
    assert sent[-1] == (name, expected), "the same request as the builder's Roll button"
    assert cards(got[t.gm]) and cards(got[t.player])


def test_roll_an_unknown_trait_is_refused_by_name_and_nothing_is_logged(table_for):
    t = table_for("serenity")
    got = say_over_sockets(
        t,
        t.player,
        {"type": "say", "speak": f"ic:{t.pc.pk}", "text": "/roll Fightn + Loyalty"},
        [t.gm],
    )
    assert refusal(got[t.player]) == "Mal has no trait called “Fightn”."
    assert got[t.gm] == []
    assert not TableEvent.objects.exists()


def test_roll_secret_for_the_gm_and_blind_for_a_player(table_for, faces):
    t = table_for("serenity")
    faces.queue.extend([3] * 12)
    gm_roll = chat.say(
        t.campaign.pk, t.gm, "ic", "/roll Fightin' + Loyalty secret", sheet_id=t.npc.pk
    )
    assert gm_roll.visibility == "gm"
    blind = chat.say(t.campaign.pk, t.player, "ooc", "/roll Fightin' + Loyalty blind")
    assert blind.visibility == "blind" and blind.character_id == t.pc.pk
    with pytest.raises(chat.ActionError, match="Only the GM can roll in secret"):
        chat.say(t.campaign.pk, t.player, "ooc", "/roll Fightin' + Loyalty secret")


def test_the_chat_form_posts_without_javascript(table_for):
    t = table_for("serenity")
    client = Client()
    client.force_login(t.player)
    url = reverse("table_say", args=[t.campaign.pk])
    answer = client.post(url, {"speak": "whisper", "text": "no script here"})
    assert answer.status_code == 302
    assert TableEvent.objects.get(kind=Kind.CHAT).visibility == "whisper"
    answer = client.post(url, {"speak": "ooc", "text": ""})
    assert answer.status_code == 400 and "empty" in answer.content.decode()
    assert TableEvent.objects.filter(kind=Kind.CHAT).count() == 1
