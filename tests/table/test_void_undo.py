"""Voiding an event gives back the state it changed, in the void's transaction: counter
changes as deltas (never below zero), dice and flags on sheets, and each piece of scene
state (Trouble Pool, complications, contests, assets, trackers, ...) where nothing later
changed it. What could not be undone is named on the void's card. The undo record is
written at perform time, hashed with the event and never exported."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns import services
from table.models import TableEvent, TableLog
from table.reading.export import export_data, verify
from table.writing.actions import void

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
THUGS = [{"die": "d8", "trait": "Armed thugs", "group": "situation"}]
PAIR = [
    {"die": "d4", "trait": "Justice", "group": "values"},
    {"die": "d4", "trait": "Lana", "group": "relationships"},
]
FARM = [{"die": "d4", "trait": "Kent Farm", "group": "locations"}]


def strike(t, event, reason="mistake"):
    return void(t.campaign, t.gm, event.pk, reason)


def test_a_roll_gives_back_plot_points_and_the_challenged_value(table_for, faces):
    """SER-8, SER-9: the spent plot point returns; the d4 Value removed by the challenge
    is back."""
    t = table_for("serenity")
    faces.queue.extend([9, 8, 2, 3, 1])
    pool = [
        FIGHTIN,
        {"die": "d8", "trait": "War Veteran", "group": "refinements"},
        {"die": "d4", "trait": "Freedom", "group": "values", "challenged": True},
    ]
    event = t.perform(t.player, "roll", {"pool": pool, "plot_points": 1}, sheet_id=t.pc.pk)
    assert t.counter(t.pc, "plot_points") == 1
    assert not t.pc.traits.filter(group="values", name="Freedom").exists()
    struck = strike(t, event)
    assert t.counter(t.pc, "plot_points") == 2
    assert t.trait(t.pc, "values", "Freedom").die == 4
    assert struck.outcome["not_undone"] == []
    assert "Mal: plot points 1 → 2." in struck.explanation
    assert {"sheet": t.pc.pk, "counter": "plot_points", "from": 1, "to": 2} in struck.effects
    assert verify(t.campaign).ok


def test_counters_never_go_below_zero_and_the_card_says_so(table_for):
    t = table_for("serenity")
    gift = t.perform(t.gm, "give_points", {"amount": 3}, sheet_id=t.pc.pk)  # 2 -> 5
    t.perform(t.gm, "give_points", {"amount": -4}, sheet_id=t.pc.pk)  # 5 -> 1
    struck = strike(t, gift)
    assert t.counter(t.pc, "plot_points") == 0
    assert struck.outcome["not_undone"] == [
        "Mal now holds 0 plot points: 2 plot points could not be taken back."
    ]
    assert "Not undone: Mal now holds 0 plot points" in struck.explanation


def test_trouble_pool_restored_unless_changed_since(table_for):
    """SMV-9: the Watchtower's trouble is taken back with the plot points it paid, unless
    a later event changed the Trouble Pool again (then the GM is told)."""
    t = table_for("smallville")
    t.start_scene()
    first = t.perform(t.gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.pc.pk)
    assert t.state()["trouble_pool"] == ["d6"] and t.counter(t.pc, "plot_points") == 3
    strike(t, first)
    assert t.state().get("trouble_pool") is None and t.counter(t.pc, "plot_points") == 2

    second = t.perform(t.gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.pc.pk)
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.other_pc.pk)
    pool = t.state()["trouble_pool"]
    struck = strike(t, second)
    assert t.state()["trouble_pool"] == pool  # changed since: left as it is
    assert t.counter(t.pc, "plot_points") == 2  # the counter delta still comes back
    assert struck.outcome["not_undone"] == ["The Trouble Pool changed since: left as it is."]
    assert verify(t.campaign).ok


def test_independent_pieces_undo_alone(table_for):
    """CTX-7: voiding one scene asset leaves another made later."""
    t = table_for("cortex_slots")
    t.start_scene()
    t.pc.counters.filter(key="plot_points").update(value=2)
    spend = {"kind": "scene_asset"}
    smoke = t.perform(t.player, "spend_plot_point", {**spend, "asset": "Smoke"}, sheet_id=t.pc.pk)
    t.perform(t.player, "spend_plot_point", {**spend, "asset": "Cover"}, sheet_id=t.pc.pk)
    struck = strike(t, smoke)
    assert set(t.state()["assets"]) == {"Cover"}
    assert t.counter(t.pc, "plot_points") == 1
    assert struck.outcome["undone"][-1] == "The scene asset “Smoke”: restored."


def test_stress_and_complications_come_off(table_for):
    """SER-7, SER-3: stress is cleared; a scene complication and its plot point go; a
    stress die stepped up again later stays, and the card says so."""
    t = table_for("serenity")
    t.start_scene()
    hurt = t.perform(t.gm, "stress", {"type": "Injured", "die": "d8"}, sheet_id=t.pc.pk)
    strike(t, hurt)
    assert t.trait(t.pc, "stress", "Injured").die is None
    cx = t.perform(t.gm, "activate_complication", {"complication": "Jam"}, sheet_id=t.pc.pk)
    strike(t, cx)
    assert t.state()["complications"] == {} and t.counter(t.pc, "plot_points") == 2

    afraid = t.perform(t.gm, "stress", {"type": "Afraid", "die": "d6"}, sheet_id=t.pc.pk)
    t.perform(t.gm, "stress", {"type": "Afraid", "die": "d4"}, sheet_id=t.pc.pk)
    struck = strike(t, afraid)
    assert t.trait(t.pc, "stress", "Afraid").die == 8
    assert struck.outcome["not_undone"] == ["Mal's Afraid changed since: left at d8."]


def test_a_contest_and_a_tracker_roll_back(table_for, faces):
    """SER-6, UNI-11: a contest voided before anyone moved disappears; once moved, it
    stays; a lengthy task goes back to its earlier sum."""
    t = table_for("serenity")
    t.start_scene()
    sides = {"sides": [{"sheet_id": t.pc.pk, "goal": "go"}, {"name": "Guard", "goal": "stop"}]}
    started = t.perform(t.gm, "contest_start", {**sides, "first": 1})
    strike(t, started)
    assert t.state()["contests"] == {}
    again = t.perform(t.gm, "contest_start", {**sides, "first": 1})
    faces.queue.extend([6])
    t.perform(t.gm, "contest_roll", {"pool": THUGS})
    struck = strike(t, again)
    number = again.params["contest"]
    assert str(number) in t.state()["contests"]
    assert struck.outcome["not_undone"] == [f"Contest #{number} changed since: left as it is."]

    u = table_for("unisystem")
    u.start_scene()
    task = {"required_levels": 6, "table": {"task": "Ritual"}}
    u.perform(u.player, "lengthy_task", {**task, "success_levels": 2}, sheet_id=u.pc.pk)
    more = u.perform(u.player, "lengthy_task", {**task, "success_levels": 3}, sheet_id=u.pc.pk)
    void(u.campaign, u.gm, more.pk, "miscounted")
    assert u.state()["trackers"]["lengthy"]["Ritual"]["accumulated"] == 2


def test_a_resource_used_by_a_voided_roll_is_free_again(table_for, faces):
    """SMV-7: voiding the roll that used a Resource this session frees it."""
    t = table_for("smallville")
    request = {"pool": PAIR, "side_pool": FARM}
    first = t.perform(t.player, "roll", request, sheet_id=t.pc.pk)
    assert t.trait(t.pc, "locations", "Kent Farm").flags == {"used": True}
    strike(t, first)
    assert t.trait(t.pc, "locations", "Kent Farm").flags == {}


def test_scene_state_of_an_ended_scene_is_left(table_for):
    t = table_for("smallville")
    scene = t.start_scene("Lex's office")
    trouble = t.perform(t.gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.pc.pk)
    services.end_scene(t.campaign, scene.pk, t.gm)
    struck = strike(t, trouble)
    assert t.counter(t.pc, "plot_points") == 2
    assert struck.outcome["not_undone"] == [
        "“Lex's office” has ended, so its scene state was left as it is."
    ]


def test_the_undo_record_is_hashed_and_never_exported(table_for, client_for):
    t = table_for("smallville")
    scene = t.start_scene()
    trouble = t.perform(t.gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.pc.pk)
    assert trouble.undo["state"] == [{"path": ["trouble_pool"], "from": None, "to": ["d6"]}]
    assert trouble.undo["counters"] == [{"sheet": t.pc.pk, "counter": "plot_points", "delta": 1}]
    strike(t, trouble)
    out = StringIO()
    call_command("verify_log", str(t.campaign.pk), stdout=out)
    assert "OK: 3 events verified" in out.getvalue()
    exported = json.dumps(export_data(t.campaign, t.gm, scene=scene))
    assert '"undo"' not in exported and '"delta"' not in exported

    row = TableEvent.objects.get(pk=trouble.pk)
    TableEvent.objects.filter(pk=row.pk).update(undo={**row.undo, "counters": []})
    verdict = verify(t.campaign)
    assert not verdict.ok and verdict.first_bad_seq == trouble.seq and "hash" in verdict.problem


def test_the_dashboard_void_tells_the_gm_what_was_left(table_for, client_for):
    t = table_for("serenity")
    gift = t.perform(t.gm, "give_points", {"amount": 3}, sheet_id=t.pc.pk)
    t.perform(t.gm, "give_points", {"amount": -5}, sheet_id=t.pc.pk)
    url = reverse("table_void", args=[t.campaign.pk, gift.pk])
    text = client_for(t.gm).post(url, {"reason": "wrong pc"}, **HTMX).content.decode()
    assert "3 plot points could not be taken back" in text


def test_an_event_logged_before_undo_records_still_voids(table_for):
    """Events written before the undo record (undo empty, not hashed) verify as before;
    their counters come back from their effects."""
    t = table_for("serenity")
    gift = t.perform(t.gm, "give_points", {"amount": 2}, sheet_id=t.pc.pk)
    gift.undo = {}
    gift.hash = gift.compute_hash()
    TableEvent.objects.filter(pk=gift.pk).update(undo={}, hash=gift.hash)
    TableLog.objects.filter(campaign=t.campaign).update(last_hash=gift.hash)
    assert "undo" not in gift.hash_body() and verify(t.campaign).ok
    struck = strike(t, gift)
    assert t.counter(t.pc, "plot_points") == 2 and struck.outcome["not_undone"] == []
    assert verify(t.campaign).ok
