"""After each event every connected page re-reads its scene panel and asks its pool
builders whether they went stale: an HTTP request per member per event. An action that
changed no state (most rolls) is marked `data-quiet` on its socket message, and the page
re-reads nothing for it (static/js/table.js, changesNothing)."""

from __future__ import annotations

import re

import pytest

from table.log.visibility import GM, PLAYERS
from table.reading.rendering import changes_nothing, event_message
from table.writing.actions import reveal

pytestmark = pytest.mark.django_db

GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}
TAG = re.compile(r'<template hx-swap-oob="afterbegin:#log" data-seq="(\d+)"([^>]*)>')


def quiet_in_message(event, audience=PLAYERS) -> bool:
    (seq, rest), *_ = TAG.findall(event_message(event, audience))
    assert int(seq) == event.seq
    return "data-quiet" in rest


def test_a_roll_that_changes_nothing_is_quiet(table_for):
    t = table_for("serenity")
    event = t.perform(t.gm, "roll", {"pool": [GOONS]})
    assert changes_nothing(event)
    assert quiet_in_message(event) and quiet_in_message(event, GM)


def test_actions_and_scene_starts_that_change_what_the_panel_shows_are_not(table_for):
    t = table_for("cortex_slots")
    started = t.start_scene()
    given = t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk)  # a counter
    asset = t.perform(
        t.player, "spend_plot_point", {"kind": "scene_asset", "asset": "Smoke"}, sheet_id=t.pc.pk
    )  # a counter and the scene's Assets
    for event in (given, asset):
        assert not changes_nothing(event) and not quiet_in_message(event)
    first = t.campaign.table_events.get(kind="scene_start", scene=started)
    assert not changes_nothing(first)


def test_reveals_are_never_quiet(table_for):
    """A reveal shows players a roll (and what it set) they could not see before."""
    t = table_for("serenity")
    secret = t.perform(t.gm, "roll", {"pool": [GOONS]}, visibility="gm")
    shown = reveal(t.campaign, t.gm, secret.pk)
    assert changes_nothing(secret) and not changes_nothing(shown)
    assert not quiet_in_message(shown)


def test_the_re_reads_after_an_event_stay_lean(
    table_for, client_for, django_assert_max_num_queries
):
    """What every member's page asks after an event that changed state: the scene panel
    and each builder's check read the membership once (the view's permission check) and
    the user never again."""
    from django.urls import reverse

    t = table_for("serenity")
    t.start_scene()
    t.perform(t.gm, "roll", {"pool": [GOONS]})
    client = client_for(t.player)
    panel = reverse("table_scene", args=[t.campaign.pk])
    check = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    client.get(panel)
    with django_assert_max_num_queries(11):  # 15 when each helper read its own, 12 when
        # the panel read the active scene twice
        assert client.get(panel).status_code == 200
    with django_assert_max_num_queries(10):  # the sheet's traits among them
        assert client.get(check, {"depends": "0" * 16}).status_code == 200
