"""The GM gives points to several characters (or every player character) in one step:
one logged action ("give_points_each"), one card, voided as one; GM only, characters of
this campaign only, a hidden GM character kept behind the screen."""

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.reading.export import verify
from table.reading.rendering import render_event_html
from table.writing import actions
from tests.table.conftest import make_sheet

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def give_each(t, sheets, amount=1, user=None, **kwargs):
    request = {"amount": amount, "sheets": [s.pk if hasattr(s, "pk") else s for s in sheets]}
    return t.perform(user or t.gm, "give_points_each", request, **kwargs)


def test_one_card_gives_each_character_a_point(table_for):
    t = table_for("serenity")  # Mal and Zoe hold 2 each
    before = {s.pk: t.counter(s, "plot_points") for s in (t.pc, t.other_pc)}
    event = give_each(t, [t.pc, t.other_pc])
    assert TableEvent.objects.count() == 1
    assert event.headline == "GM gave Mal and Zoe 1 plot point each"
    for sheet in (t.pc, t.other_pc):
        assert t.counter(sheet, "plot_points") == before[sheet.pk] + 1
    card = render_event_html(event, "players")
    assert "GM gave Mal and Zoe 1 plot point each" in card
    assert verify(t.campaign).ok
    actions.void(t.campaign, t.gm, event.pk, "too generous")
    for sheet in (t.pc, t.other_pc):
        assert t.counter(sheet, "plot_points") == before[sheet.pk]


@pytest.mark.parametrize(
    ("system", "key", "words"),
    [("unisystem", "drama_points", "2 Drama Points"), ("personae", "criticals", "2 criticals")],
)
def test_each_game_gives_its_own_points(table_for, system, key, words):
    t = table_for(system)
    held = t.counter(t.other_pc, key)
    event = give_each(t, [t.pc, t.other_pc], amount=2)
    assert event.headline == f"GM gave Mal and Zoe {words} each"
    assert t.counter(t.other_pc, key) == held + 2


def test_only_the_gm_and_only_this_campaigns_characters(table_for):
    t = table_for("serenity")
    with pytest.raises(actions.ActionError, match="Only the GM"):
        give_each(t, [t.pc], user=t.player)
    with pytest.raises(actions.ActionError):
        give_each(t, [t.pc], user=t.observer)
    elsewhere = table_for("serenity")
    for sheets in ([t.pc, elsewhere.pc], [t.pc, 10**9], [], [t.pc, t.pc], ["1"]):
        with pytest.raises(actions.ActionError):
            give_each(t, sheets)
    with pytest.raises(actions.ActionError):
        give_each(t, [t.pc], amount=0)
    assert not TableEvent.objects.exists()
    assert t.counter(t.pc, "plot_points") == 2


def test_one_who_cannot_hold_more_stops_the_whole_give(table_for):
    t = table_for("personae")  # criticals capped at 3
    with pytest.raises(actions.ActionError, match="at most 3 criticals"):
        give_each(t, [t.pc, t.other_pc], amount=4)
    assert t.counter(t.pc, "criticals") == 0 and not TableEvent.objects.exists()


def test_a_hidden_gm_character_keeps_the_give_behind_the_screen(table_for):
    t = table_for("serenity")
    t.npc.hidden = True
    t.npc.save()
    with pytest.raises(actions.ActionError, match="hidden GM character"):
        give_each(t, [t.pc, t.npc])
    event = give_each(t, [t.pc, t.npc], visibility="gm")
    [shown] = actions.visible_events(t.campaign, t.player)
    sealed = render_event_html(shown, "players")
    assert "sealed-card" in sealed and "Niska" not in sealed
    assert "Niska" in render_event_html(event, "gm")
    # A player naming the hidden sheet is told what a missing one gets.
    with pytest.raises(actions.ActionError, match="Only the GM"):
        give_each(t, [t.npc], user=t.player)


def test_the_dashboard_gives_to_every_player_character_in_one_click(table_for, client_for):
    t = table_for("serenity")
    extra = make_sheet(t.campaign, t.player, "Kaylee")
    url = reverse("table_gm_points_each", args=[t.campaign.pk])
    answer = client_for(t.gm).post(url, {"who": "all", "amount": 1}, **HTMX).content.decode()
    assert "GM gave Kaylee, Mal and Zoe 1 plot point each." in answer
    event = TableEvent.objects.get()
    assert event.visibility == "public" and t.npc.name not in event.headline
    assert t.counter(extra, "plot_points") == 3  # 2 from the seed, 1 given
    ticked = {"who": "ticked", "sheets": [t.pc.pk, t.npc.pk], "amount": 2}
    answer = client_for(t.gm).post(url, ticked, **HTMX).content.decode()
    assert "GM gave Mal and Niska 2 plot points each." in answer
    answer = client_for(t.gm).post(url, {"who": "ticked", "amount": 1}, **HTMX).content.decode()
    assert "Tick at least one character." in answer
    assert client_for(t.player).post(url, {"who": "all", "amount": 1}).status_code == 403
    assert TableEvent.objects.count() == 2


def test_the_dashboard_offers_it_in_the_games_words(table_for, client_for):
    t = table_for("unisystem")
    page = client_for(t.gm).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "Give Drama Points to several" in page and "Give to all player characters" in page
