"""The GM's "give plot points" is a logged table action ("give_points") that goes through
table.writing.actions.perform: GM only, 1..10 or a minus to take back, never below zero, a card
in the roll log, voidable, and the dashboard form calls it (SER-8; Drama Points in
Unisystem, criticals in Personae, PER-6)."""

import pytest
from django.urls import reverse

from rules.registry import SYSTEMS
from table.acting.state import TABLE_ACTIONS
from table.models import TableEvent
from table.reading.export import verify
from table.reading.rendering import render_event_html
from table.writing import actions

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def give(t, amount, user=None, sheet=None):
    sheet = sheet or t.pc
    return t.perform(user or t.gm, "give_points", {"amount": amount}, sheet_id=sheet.pk)


def test_the_table_actions_do_not_shadow_a_rules_action():
    for system in SYSTEMS.values():
        assert not set(TABLE_ACTIONS) & set(system.actions), system.slug


def test_giving_is_a_logged_event_with_a_card(table_for):
    t = table_for("serenity")
    event = give(t, 1)
    assert t.counter(t.pc, "plot_points") == 3
    assert (event.kind, event.action, event.character_id) == ("action", "give_points", t.pc.pk)
    assert event.headline == "GM gave Mal 1 plot point"
    assert event.effects == [{"sheet": t.pc.pk, "counter": "plot_points", "from": 2, "to": 3}]
    for audience in ("gm", "players"):
        card = render_event_html(event, audience)
        assert "GM gave Mal 1 plot point" in card and "Points from the GM" in card
    taken = give(t, -3)
    assert taken.headline == "GM took back 3 plot points from Mal"
    assert t.counter(t.pc, "plot_points") == 0
    assert verify(t.campaign).ok  # the outcome re-resolves from the stored request


@pytest.mark.parametrize(
    ("system", "key", "words"),
    [("unisystem", "drama_points", "2 Drama Points"), ("personae", "criticals", "2 criticals")],
)
def test_each_game_gives_its_own_points(table_for, system, key, words):
    t = table_for(system)
    before = t.counter(t.pc, key)
    assert give(t, 2).headline == f"GM gave Mal {words}"
    assert t.counter(t.pc, key) == before + 2


def test_personae_criticals_stop_at_the_potential_threshold(table_for):
    t = table_for("personae")  # threshold 3, no criticals
    with pytest.raises(actions.ActionError, match="at most 3 criticals"):
        give(t, 4)
    assert t.counter(t.pc, "criticals") == 0


def test_only_the_gm_gives_and_only_1_to_10(table_for):
    t = table_for("serenity")
    for user in (t.player, t.observer):
        with pytest.raises(actions.ActionError):
            give(t, 1, user=user)
    with pytest.raises(actions.ActionError, match="Choose the character"):
        t.perform(t.gm, "give_points", {"amount": 1})
    for amount in (0, 11, -11, "2", True):
        with pytest.raises(actions.ActionError):
            give(t, amount)
    assert not TableEvent.objects.exists()
    assert t.counter(t.pc, "plot_points") == 2


def test_taking_back_more_than_held_is_refused_and_changes_nothing(table_for):
    t = table_for("serenity")  # Mal holds 2
    with pytest.raises(actions.ActionError, match=r"Mal has only 2 plot points: .*take back 3"):
        give(t, -3)
    assert t.counter(t.pc, "plot_points") == 2
    assert not TableEvent.objects.exists()


def test_voiding_a_gift_takes_it_back(table_for):
    t = table_for("unisystem")
    event = give(t, 5)
    assert t.counter(t.pc, "drama_points") == 15
    struck = actions.void(t.campaign, t.gm, event.pk, "wrong character")
    assert t.counter(t.pc, "drama_points") == 10
    assert struck.outcome["not_undone"] == []
    assert verify(t.campaign).ok


def test_a_gift_refreshes_open_sheets(table_for, published, django_capture_on_commit_callbacks):
    """Open sheet pages re-fetch the counter the gift changed (sheets.live), once committed."""
    t = table_for("serenity")
    with django_capture_on_commit_callbacks(execute=True):
        give(t, 1)
    counter = f'hx-target="#counter-{t.pc.pk}-plot_points"'
    assert any(counter in html and to == "all" for _, html, to in published)


def test_the_dashboard_form_logs_the_action(table_for, client_for):
    t = table_for("serenity")
    url = reverse("table_gm_points", args=[t.campaign.pk])
    answer = client_for(t.gm).post(url, {"sheet": t.pc.pk, "amount": 1}, **HTMX)
    assert "Mal gets 1 plot point (now 3)." in answer.content.decode()
    event = TableEvent.objects.get()
    assert event.action == "give_points" and event.visibility == "public"
    answer = client_for(t.gm).post(url, {"sheet": t.pc.pk, "amount": -9}, **HTMX)
    assert "Mal has only 3 plot points" in answer.content.decode()
    assert t.counter(t.pc, "plot_points") == 3 and TableEvent.objects.count() == 1
    assert client_for(t.player).post(url, {"sheet": t.pc.pk, "amount": 1}).status_code == 403


def test_a_gift_to_a_hidden_gm_character_stays_with_the_gms(table_for, client_for):
    t = table_for("serenity")
    t.npc.hidden = True
    t.npc.save()
    url = reverse("table_gm_points", args=[t.campaign.pk])
    client_for(t.gm).post(url, {"sheet": t.npc.pk, "amount": 2}, **HTMX)
    event = TableEvent.objects.get()
    assert event.visibility == "gm"
    [shown] = actions.visible_events(t.campaign, t.player)
    sealed = render_event_html(shown, "players")
    assert "sealed-card" in sealed and t.npc.name not in sealed
