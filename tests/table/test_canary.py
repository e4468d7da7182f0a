"""The canary: hidden events of every kind, in every game, each carrying a unique marker
in the fields only the GM may see (a hidden GM character's name, a secret pool's dice,
a secret complication or scene Asset, a blind roll's goal, a secret void's reason, a
difficulty set and bonus dice granted behind the screen). The
GM's views hold every marker; no player's or observer's HTML, replay, JSON or Markdown
export, sealed card or scene panel holds any (table/log/visibility.py)."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from table.log.visibility import GM, PLAYERS
from table.models import TableEvent
from table.reading.rendering import card_html
from table.writing.actions import void
from tests.table.sockets import messages, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
CANARY = re.compile(r"CANARY-[a-z]+-[a-z]+")


def plant(t, system: str) -> set[str]:
    """Hidden events for this game; returns the markers they carry."""
    markers: set[str] = set()

    def mark(what: str) -> str:
        marker = f"CANARY-{system.replace('_', '')[:6]}-{what}"
        markers.add(marker)
        return marker

    t.npc.name, t.npc.hidden = mark("npc"), True
    t.npc.save()
    t.start_scene()
    if system in ("serenity", "smallville"):
        pool = [{"die": "d8", "trait": mark("situation"), "group": "situation"}]
        t.perform(t.gm, "roll", {"pool": pool}, visibility="gm")
        t.perform(t.gm, "roll", {"pool": pool}, sheet_id=t.npc.pk, visibility="gm")
    if system == "serenity":
        t.perform(t.gm, "activate_complication", {"complication": mark("complication")},
                  sheet_id=t.pc.pk, visibility="gm")  # fmt: skip
    if system == "cortex_slots":
        t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6"], "roller_kind": "boss"},
                  sheet_id=t.npc.pk, visibility="gm")  # fmt: skip
        t.perform(t.gm, "spend_plot_point", {"kind": "scene_asset", "asset": mark("asset")},
                  sheet_id=t.npc.pk, visibility="gm")  # fmt: skip
    if system == "personae":
        t.perform(t.gm, "set_difficulty", {"difficulty": 47, "note": mark("difficulty")},
                  visibility="gm")  # fmt: skip
        t.perform(t.gm, "grant_bonus_dice", {"dice": 3, "note": mark("grant")},
                  sheet_id=t.pc.pk, visibility="gm")  # fmt: skip
        actor = {"skill_name": "Swordplay"}
        t.perform(t.player, "challenge", {"actor": actor, "goal": mark("goal")},
                  sheet_id=t.pc.pk, visibility="blind")  # fmt: skip
    if system == "unisystem":
        t.perform(t.gm, "set_difficulty", {"difficulty": "heroic", "note": mark("difficulty")},
                  visibility="gm")  # fmt: skip
        t.perform(t.player, "task", {"attribute_name": "Dexterity", "skill_name": "Sports"},
                  sheet_id=t.pc.pk, visibility="blind")  # fmt: skip
        t.perform(t.gm, "task", {"name": mark("name"), "attribute": 3, "skill": 2,
                                 "modifiers": [{"name": mark("modifier"), "value": 1}]},
                  visibility="gm")  # fmt: skip
    last = TableEvent.objects.filter(campaign=t.campaign).order_by("-seq").first()
    void(t.campaign, t.gm, last.pk, mark("reason"))
    t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk)  # a public event after
    return markers


def http_views(t, user, client_for) -> dict[str, str]:
    client = client_for(user)
    campaign = t.campaign.pk
    scene = TableEvent.objects.filter(campaign=t.campaign, kind="scene_start").first().scene_id
    urls = {
        "table page": reverse("table", args=[campaign]),
        "older events": reverse("table_events", args=[campaign]) + "?before=999",
        "scene panel": reverse("table_scene", args=[campaign]),
        "JSON export": reverse("table_export_scene", args=[campaign, scene, "json"]),
        "Markdown export": reverse("table_export_scene", args=[campaign, scene, "md"]),
        "session export": reverse("table_export_session", args=[campaign, "current", "md"]),
    }
    if user == t.player:
        urls["pool builder"] = reverse("table_pool", args=[campaign, t.pc.pk])
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        out[name] = response.content.decode()
    return out


@pytest.mark.parametrize(
    "system", ["serenity", "smallville", "cortex_slots", "personae", "unisystem"]
)
async def test_no_hidden_marker_reaches_players(table_for, client_for, faces, system):
    t = await sync_to_async(table_for)(system)
    markers = await sync_to_async(plant)(t, system)
    events = await sync_to_async(lambda: list(TableEvent.objects.filter(campaign=t.campaign)))()
    count = len(events)

    async def replay(user) -> str:
        comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
        assert connected
        received = await messages(comm, count)
        await comm.disconnect()
        return "".join(received)

    gm_seen = " ".join((await sync_to_async(http_views)(t, t.gm, client_for)).values())
    gm_seen += await replay(t.gm)
    gm_seen += " ".join([await sync_to_async(card_html)(e, GM) for e in events])
    assert set(CANARY.findall(gm_seen)) == markers  # the GM sees every marker: the test can fail

    for who in (t.player, t.other, t.observer):
        views = await sync_to_async(http_views)(t, who, client_for)
        views["replay"] = await replay(who)
        views["sealed cards"] = " ".join(
            [await sync_to_async(card_html)(e, PLAYERS) for e in events]
        )
        for name, text in views.items():
            assert not CANARY.findall(text), f"{name} for {who} shows {CANARY.findall(text)}"
        exported = json.loads(views["JSON export"])
        assert [e["seq"] for e in exported["events"]] == sorted(e.seq for e in events)
