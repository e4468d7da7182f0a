"""The action order at the table: started, passed, changed and ended through
table.writing.actions (logged, public, voidable, replayed, exported), shown in the scene panel
as each member may see it, and never naming a hidden GM character to players."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from table.models import TableEvent
from table.pages.scene_panel import render_panel
from table.reading.export import export_data, to_markdown, verify
from table.reading.rendering import render_event_html
from table.writing import actions

from .sockets import messages, open_socket, send

HTMX = {"HTTP_HX_REQUEST": "true"}


def holder(t, user=None) -> str | None:
    state = actions.scene_state(t.campaign, user)["state"]
    order = state.get("order") or {}
    return next(
        (s["label"] for s in order.get("slots", []) if s["slot"] == order.get("current")), None
    )


def start(t, **request):
    request = {"sheets": [t.pc.pk, t.other_pc.pk], "first": t.pc.pk, **request}
    return t.perform(t.gm, "order_start", request)


def panel(t, user) -> str:
    from campaigns.models import Membership  # noqa: PLC0415 (test helper)

    membership = Membership.objects.get(campaign=t.campaign, user=user)
    return render_panel(t.campaign, membership)


@pytest.mark.django_db
def test_the_gm_starts_the_order_and_the_spotlight_passes(table_for):
    t = table_for("serenity")
    t.start_scene()
    event = start(t, gm_side=True)
    assert event.headline == "Action order (popcorn): Mal has the spotlight"
    assert event.visibility == "public" and event.action == "order_start"
    assert holder(t) == "Mal"
    passed = t.perform(t.player, "order_pass", {"to": 2})  # Mal's player hands it to Zoe
    assert passed.headline == "Mal hands the spotlight to Zoe"
    assert holder(t, t.other) == "Zoe"
    for audience in ("gm", "players"):
        assert "Mal hands the spotlight to Zoe" in render_event_html(passed, audience)
    page = panel(t, t.other)
    assert "Zoe’s turn" in page and "acted this round" in page and 'id="order-pass"' in page
    assert 'id="order-pass"' not in panel(t, t.player)  # not Mal's turn any more


@pytest.mark.django_db
def test_a_player_cannot_pass_when_it_is_not_their_turn(table_for):
    t = table_for("serenity")
    t.start_scene()
    start(t)
    for user in (t.other, t.observer):
        with pytest.raises(actions.ActionError):
            t.perform(user, "order_pass", {"to": 2})
    with pytest.raises(actions.ActionError, match="It is not your turn: Mal has the spotlight"):
        t.perform(t.other, "order_pass", {"to": 2})
    with pytest.raises(actions.ActionError, match="Only the GM"):
        t.perform(t.player, "order_end", {})
    assert holder(t) == "Mal"
    assert TableEvent.objects.filter(action__startswith="order_").count() == 1


@pytest.mark.django_db
def test_handing_back_to_one_who_acted_is_refused_in_words(table_for):
    t = table_for("serenity")
    t.start_scene()
    start(t, gm_side=True)
    t.perform(t.player, "order_pass", {"to": 2})
    with pytest.raises(actions.ActionError, match="Mal has already acted this round"):
        t.perform(t.other, "order_pass", {"to": 1})


@pytest.mark.django_db
def test_voiding_a_pass_gives_the_spotlight_back(table_for):
    t = table_for("smallville")
    t.start_scene()
    start(t)
    passed = t.perform(t.player, "order_pass", {"to": 2})
    void = actions.void(t.campaign, t.gm, passed.pk, "wrong person")
    assert holder(t) == "Mal"
    assert "The action order: restored." in void.outcome["undone"]
    state = t.state()["order"]
    assert state["acted"] == [] and state["round"] == 1


@pytest.mark.django_db
def test_the_order_needs_a_scene_is_public_and_ends_with_the_gm(table_for):
    t = table_for("cortex_slots")
    with pytest.raises(actions.ActionError, match="Start a scene first"):
        start(t)
    t.start_scene()
    with pytest.raises(actions.ActionError, match="changes what everyone sees"):
        t.perform(t.gm, "order_start", {"sheets": [t.pc.pk]}, visibility="gm")
    start(t)
    ended = t.perform(t.gm, "order_end", {})
    assert ended.headline == "The action order ends"
    assert "order" not in t.state()


@pytest.mark.django_db
def test_a_hidden_gm_character_is_not_named_to_players(table_for):
    t = table_for("serenity")
    t.npc.hidden = True
    t.npc.save()
    t.start_scene()
    started = t.perform(t.gm, "order_start", {"sheets": [t.pc.pk, t.npc.pk], "first": t.npc.pk})
    passed = t.perform(t.gm, "order_pass", {"to": 1})
    assert "Niska" in panel(t, t.gm)  # the GM sees who it is
    shown = [
        panel(t, t.player),
        json.dumps(actions.scene_state(t.campaign, t.player)),
        to_markdown(export_data(t.campaign, t.player)),
        json.dumps(export_data(t.campaign, t.player)),
        *(render_event_html(e, "players") for e in (started, passed)),
    ]
    for text in shown:
        assert "Niska" not in text
    slots = actions.scene_state(t.campaign, t.player)["state"]["order"]["slots"]
    assert t.npc.pk not in [s.get("sheet") for s in slots]  # nor its sheet
    assert "GM character #2" in shown[0]
    assert passed.headline == "GM character #2 hands the spotlight to Mal"


@pytest.mark.django_db
def test_a_character_hidden_after_joining_is_veiled_too(table_for):
    t = table_for("serenity")
    t.start_scene()
    t.perform(t.gm, "order_start", {"sheets": [t.pc.pk, t.npc.pk]})
    t.npc.hidden = True
    t.npc.save()
    assert "Niska" not in json.dumps(actions.scene_state(t.campaign, t.player)["state"]["order"])
    passed = t.perform(t.gm, "order_pass", {"to": 2})
    assert passed.headline == "Mal hands the spotlight to GM character #2"
    with pytest.raises(actions.ActionError, match="It is not your turn: GM character #2 has"):
        t.perform(t.player, "order_pass", {"to": 1})
    assert "Niska" in panel(t, t.gm) and "Niska" not in panel(t, t.player)


@pytest.mark.django_db
def test_unisystem_orders_by_dexterity_and_turns_go_down_the_line(table_for):
    t = table_for("unisystem")
    zoe = t.trait(t.other_pc, "attributes", "Dexterity")
    zoe.rating = 5
    zoe.save()
    t.start_scene()
    event = t.perform(t.gm, "order_start", {"sheets": [t.pc.pk, t.other_pc.pk]})
    assert event.headline == "Initiative by Dexterity: Zoe, Mal"
    t.perform(t.other, "order_pass", {})
    assert holder(t) == "Mal"
    t.perform(t.player, "order_pass", {})
    assert holder(t) == "Zoe" and t.state()["order"]["round"] == 2


@pytest.mark.django_db
def test_the_log_replays_and_verifies_with_the_order(table_for):
    t = table_for("personae")
    t.start_scene()
    t.perform(t.gm, "order_start", {"sheets": [t.pc.pk, t.other_pc.pk], "by": "Might"})
    t.perform(t.gm, "order_add", {"gm_side": True})
    t.perform(t.gm, "order_remove", {"slot": 3})
    t.perform(t.gm, "order_pass", {})
    assert verify(t.campaign).ok  # each outcome re-resolves from its stored request
    text = to_markdown(export_data(t.campaign, t.player))
    assert "Initiative by Might" in text and "The GM joins the action order" in text


@pytest.mark.django_db
def test_the_panels_forms_start_and_pass(client, table_for):
    t = table_for("serenity")
    t.start_scene()
    url = reverse("table_order", args=[t.campaign.pk])
    client.force_login(t.gm)
    page = client.get(reverse("table_scene", args=[t.campaign.pk])).content.decode()
    assert 'id="order-start-form"' in page and f'id="order-start-{t.pc.pk}"' in page
    data = {"op": "start", "sheets": [t.pc.pk, t.other_pc.pk], "gm_side": "1", "first": "0"}
    answer = client.post(url, data, **HTMX).content.decode()
    assert "The GM’s turn" in answer and "✓ Action order (popcorn)" in answer
    answer = client.post(url, {"op": "pass", "to": "1"}, **HTMX).content.decode()
    assert "Mal’s turn" in answer
    client.force_login(t.other)
    answer = client.post(url, {"op": "pass", "to": "2"}, **HTMX).content.decode()
    assert "It is not your turn" in answer and 'role="alert"' in answer
    client.force_login(t.player)
    answer = client.post(url, {"op": "pass", "to": "2"}, **HTMX).content.decode()
    assert "Zoe’s turn" in answer


@pytest.mark.django_db(transaction=True)
async def test_every_socket_sees_the_spotlight_move(table_for):
    t = await sync_to_async(table_for)("serenity")
    await sync_to_async(t.start_scene)()
    gm, _, _ = await open_socket(t.gm, t.campaign, last_seq=None)
    player, _, _ = await open_socket(t.player, t.campaign, last_seq=None)
    other, _, _ = await open_socket(t.other, t.campaign, last_seq=None)
    request = {"sheets": [t.pc.pk, t.other_pc.pk], "first": t.pc.pk}
    await send(gm, {"type": "act", "action": "order_start", "request": request})
    for comm in (gm, player, other):
        assert "Mal has the spotlight" in "".join(await messages(comm, 1))
    await send(other, {"type": "act", "action": "order_pass", "request": {"to": 2}})
    refused = "".join(await messages(other, 1))
    assert "It is not your turn" in refused
    assert await player.receive_nothing(timeout=0.2)
    await send(player, {"type": "act", "action": "order_pass", "request": {"to": 2}})
    for comm in (gm, player, other):
        assert "Mal hands the spotlight to Zoe" in "".join(await messages(comm, 1))
    for comm in (gm, player, other):
        await comm.disconnect()
