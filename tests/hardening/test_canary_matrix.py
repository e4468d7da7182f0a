"""The canary matrix: a unique marker planted in each hidden thing (a secret roll, a blind
roll, a difficulty set behind the screen, a secret complication, a hidden GM character's
name, a void's reason, a whisper to the GM), and later public events that copy them (a
public complication of the same character, the hidden character rolling in public). For
every hidden thing and every reader of the log, the marker reaches exactly the members
who may see it (the GM; the author of a whisper) and nobody else: no other player, no
observer, no stream overlay, no post to the public Discord hook (table/log/visibility.py).

Every event kind is in the log that is read: a session's start, a scene's start and end,
actions public, secret and blind, a reveal, a void, chat lines."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from api import access
from campaigns import services
from integrations.embeds import event_payload
from integrations.models import Message
from table.live import broadcast
from table.log.visibility import GM, PLAYERS
from table.models import TableEvent
from table.talk import chat
from table.writing.actions import reveal, session_started, void
from tests.api.conftest import api_url, get, token_for
from tests.integrations.conftest import hooks, receiver  # noqa: F401 - fixtures
from tests.table.conftest import faces, other_player, table_for  # noqa: F401 - fixtures
from tests.table.sockets import messages, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
CANARY = re.compile(r"CANARY-[a-z]+")
SITUATION = "situation"

# The hidden things: the game whose log plants it, its marker, and who may read it.
HIDDEN = {
    "secret roll": ("serenity", "CANARY-secretroll", {"GM"}),
    "blind roll": ("personae", "CANARY-blindgoal", {"GM"}),
    "secret difficulty": ("personae", "CANARY-difficulty", {"GM"}),
    "secret complication": ("serenity", "CANARY-complication", {"GM"}),
    "hidden GM character": ("serenity", "CANARY-npc", {"GM"}),
    "void of a secret roll": ("serenity", "CANARY-voidreason", {"GM"}),
    "whisper": ("serenity", "CANARY-whisper", {"GM", "author"}),
}
MEMBERS = ("GM", "author", "other player", "observer")
# Readers of the whole log show every event a member may read; the scene panel shows the
# scene's state; the overlay and the public Discord hook read as players, with no login.
LOG_READERS = (
    "table page",
    "log fragment",
    "socket replay",
    "socket broadcast",
    "JSON export",
    "Markdown export",
    "API",
)
READERS = (*LOG_READERS, "scene panel", "overlay", "Discord public hook")
IN_THE_SCENE_PANEL = {"secret complication", "secret difficulty", "hidden GM character"}


def situation(trait: str) -> dict:
    return {"pool": [{"die": "d8", "trait": trait, "group": SITUATION}]}


def plant_serenity(t) -> None:
    session_started(t.campaign, t.gm)
    prologue = services.create_scene(t.campaign, title="Prologue", description="")
    services.start_scene(t.campaign, prologue.pk, t.gm)
    t.perform(t.gm, "roll", situation("CANARY-secretroll"), visibility="gm")
    services.end_scene(t.campaign, prologue.pk, t.gm)
    t.npc.name, t.npc.hidden = "CANARY-npc", True
    t.npc.save()
    t.start_scene()
    t.perform(t.gm, "activate_complication", {"complication": "CANARY-complication"},
              sheet_id=t.pc.pk, visibility="gm")  # fmt: skip
    t.perform(
        t.gm, "activate_complication", {"complication": "Sprained ankle"}, sheet_id=t.pc.pk
    )  # fmt: skip  (public: its request copies the secret one)
    t.perform(t.gm, "roll", situation("Cunning"), sheet_id=t.npc.pk)  # the hidden one, public
    t.perform(t.gm, "roll", situation("Cunning"), sheet_id=t.npc.pk, visibility="gm")
    shown = t.perform(t.gm, "roll", situation("Shown"), visibility="gm")
    reveal(t.campaign, t.gm, shown.pk)
    struck = t.perform(t.gm, "roll", situation("Struck"), visibility="gm")
    void(t.campaign, t.gm, struck.pk, "CANARY-voidreason")
    chat.say(t.campaign.pk, t.player, "whisper", "CANARY-whisper")
    chat.say(t.campaign.pk, t.player, "ooc", "Nice")
    chat.say(t.campaign.pk, t.gm, "ic", "You owe me", sheet_id=t.npc.pk)  # as the hidden one
    t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk)


def plant_personae(t) -> None:
    session_started(t.campaign, t.gm)
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 47, "note": "CANARY-difficulty"},
              visibility="gm")  # fmt: skip
    t.perform(t.player, "challenge", {"actor": {"skill_name": "Swordplay"},
                                      "goal": "CANARY-blindgoal"},
              sheet_id=t.pc.pk, visibility="blind")  # fmt: skip
    t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk)


PLANT = {"serenity": plant_serenity, "personae": plant_personae}


@pytest.fixture
def world(table_for, hooks, faces, monkeypatch):  # noqa: F811
    """A campaign of the game, its public Discord hook and its broadcasts, planted."""

    def make(system: str):
        t = table_for(system)
        hooks(t.campaign, gm=False)
        t.sent = []
        monkeypatch.setattr(
            broadcast, "publish", lambda c, audience, m: t.sent.append((audience, m))
        )
        PLANT[system](t)
        t.members = {"GM": t.gm, "author": t.player, "other player": t.other,
                     "observer": t.observer}  # fmt: skip
        t.count = TableEvent.objects.filter(campaign=t.campaign).count()
        t.whispers = TableEvent.objects.filter(campaign=t.campaign, visibility="whisper").count()
        return t

    return make


def client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def page(t, user, name: str, *args, query: str = "") -> str:
    response = client(user).get(reverse(name, args=[t.campaign.pk, *args]) + query)
    assert response.status_code == 200, (name, response.status_code)
    return response.content.decode()


async def replayed(t, user) -> str:
    comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
    assert connected
    whispers = t.whispers if user not in (t.gm, t.player) else 0  # the player whispers
    received = await messages(comm, t.count - whispers)
    await comm.disconnect()
    return "".join(received)


def broadcast_to(t, user) -> str:
    """What the member's open sockets were sent live (TableConsumer.push's filter)."""
    audience = GM if user == t.gm else PLAYERS
    kept = []
    for to, m in t.sent:
        if to != audience or m.get("user", user.pk) != user.pk:
            continue
        if m.get("author") == user.pk and "author_html" in m:
            kept.append(m["author_html"])  # their own whisper, whole
        else:
            kept.append(m.get("html", ""))
    return "".join(kept)


def api(t, user) -> str:
    token = token_for(t.campaign, user)
    out = [get(api_url(t.campaign.pk, rest), token).content.decode()
           for rest in ("", "scene/", "session/", "sheets/")]  # fmt: skip
    out.append(json.dumps(get(api_url(t.campaign.pk, "events/"), token, limit=200).json()))
    for seq in range(1, t.count + 1):
        out.append(get(api_url(t.campaign.pk, f"events/{seq}/"), token).content.decode())
    return " ".join(out)


def overlay(t) -> str:
    _, key = access.create_overlay(t.campaign, t.gm, "OBS")
    response = Client().get(reverse("overlay", args=[key]) + "?n=100")
    assert response.status_code == 200
    return response.content.decode()


def discord_public(t) -> str:
    """Every payload the public hook is queued to post, as the worker builds it."""
    posts = Message.objects.filter(webhook__campaign=t.campaign).select_related("event")
    payloads = [event_payload(m.event, m.audience, sealed=m.sealed) for m in posts]
    assert len(payloads) == t.count - t.whispers  # every event but the whispers
    return json.dumps(payloads)


def read(t, reader: str, user) -> str:
    if reader == "table page":
        return page(t, user, "table")
    if reader == "log fragment":
        return page(t, user, "table_events", query="?before=999")
    if reader == "scene panel":
        return page(t, user, "table_scene")
    if reader == "socket replay":
        return async_to_sync(replayed)(t, user)
    if reader == "socket broadcast":
        return broadcast_to(t, user)
    if reader == "JSON export":
        return page(t, user, "table_export_session", "current", "json")
    if reader == "Markdown export":
        return page(t, user, "table_export_session", "current", "md")
    if reader == "API":
        return api(t, user)
    raise AssertionError(reader)


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("thing", HIDDEN)
def test_a_hidden_thing_reaches_exactly_who_may_see_it(world, thing, reader):
    system, marker, may = HIDDEN[thing]
    t = world(system)
    if reader == "overlay":
        assert marker not in overlay(t)
        return
    if reader == "Discord public hook":
        assert marker not in discord_public(t)
        return
    shows = reader in LOG_READERS or (reader == "scene panel" and thing in IN_THE_SCENE_PANEL)
    for who in MEMBERS:
        seen = marker in read(t, reader, t.members[who])
        assert seen == (shows and who in may), f"{thing} × {reader} × {who}: seen={seen}"
