"""What matters at the table changes through the log (issue #15, point 6).

Each game declares in its sheet template which counters and trait groups are
table-owned (plot points SER-8/SMV/CTX-7, stress SER-7/SMV-10, complications SER-3,
conditions CTX-4, advance points CTX-9, criticals PER-6, development PER-3, Drama
Points and Life Points UNI-9). A player cannot change them on the sheet by any
route; a GM's sheet edit of one is a card in the roll log, broadcast and voidable;
a player's new or imported character starts them where a new sheet does.
"""

from __future__ import annotations

import html
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from rules.registry import get_system
from sheets.models import Counter, Sheet, Trait
from table.models import TableEvent
from table.reading.export import verify
from table.reading.rendering import render_event_html
from table.writing import actions
from tests.table.sockets import caught_up, messages, open_socket

from .conftest import text

pytestmark = pytest.mark.django_db

TABLE_OWNED = {
    "serenity": ({"plot_points"}, {"stress", "complications"}),
    "smallville": ({"plot_points"}, {"stress"}),
    "cortex_slots": ({"plot_points", "advance_points"}, {"conditions"}),
    "personae": ({"criticals", "development"}, set()),
    "unisystem": ({"drama_points", "life_points"}, set()),
}
COUNTERS = [(system, key) for system, (keys, _) in TABLE_OWNED.items() for key in sorted(keys)]


def counter_url(sheet: Sheet, key: str) -> str:
    return reverse("sheet_counter", args=[sheet.campaign_id, sheet.pk, key])


def trait_url(trait: Trait, action: str = "") -> str:
    url = reverse("trait", args=[trait.sheet.campaign_id, trait.sheet_id, trait.pk])
    return url + (f"{action}/" if action else "")


def row(sheet: Sheet, key: str) -> tuple[int, int]:
    counter = Counter.objects.get(sheet=sheet, key=key)
    return counter.value, counter.version


def dice(sheet: Sheet) -> list[tuple]:
    return list(
        Trait.objects.filter(sheet=sheet)
        .order_by("pk")
        .values_list("group", "name", "die", "plus_die", "notes", "position", "version")
    )


def messages_shown(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --------------------------------------------------------------------------- declarations


@pytest.mark.parametrize("system", sorted(TABLE_OWNED))
def test_each_game_declares_what_changes_at_the_table(system):
    template = get_system(system).sheet_template
    counters, groups = TABLE_OWNED[system]
    assert {c.key for c in template.table_owned_counters()} == counters
    assert {g.key for g in template.table_owned_groups()} == groups


# --------------------------------------------------------------------------- players refused


@pytest.mark.parametrize(("system", "key"), COUNTERS)
def test_a_player_cannot_set_a_table_counter_by_any_route(
    system, key, make_campaign, make_sheet, player, client_for, htmx
):
    campaign = make_campaign(system)
    sheet = make_sheet(campaign, "Mal")
    label = get_system(system).sheet_template.counter(key).label
    before = row(sheet, key)
    client = client_for(player)
    url = counter_url(sheet, key)
    attempts = [
        ({"value": "9", "version": before[1]}, htmx),  # the htmx field save
        ({"delta": "5", "version": before[1]}, htmx),  # the + button
        ({"value": "9", "version": before[1]}, {}),  # the form without JavaScript
    ]
    for data, headers in attempts:
        response = client.post(url, data, **headers)
        if headers:
            assert response.status_code == 403 and response["X-Table-Owned"] == "1"
            assert f"{label} change" in text(response)
            assert "at the table: ask the GM." in text(response)
            assert 'name="value"' not in text(response)  # the part comes back read-only
        else:
            assert response.status_code == 302
            shown = messages_shown(client.get(response["Location"]))
            assert any(label in m and "at the table: ask the GM." in m for m in shown)
    response = client.post(
        url, json.dumps({"value": 9, "version": before[1]}), content_type="application/json"
    )
    assert response.status_code in (302, 403)
    assert row(sheet, key) == before
    assert not TableEvent.objects.exists()


def test_the_refusal_names_plot_points_as_the_issue_says(
    make_campaign, make_sheet, player, client_for, htmx
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    response = client_for(player).post(
        counter_url(sheet, "plot_points"), {"value": "3", "version": 1}, **htmx
    )
    assert "Plot points change at the table: ask the GM." in text(response)
    assert 'class="status-problem"' in text(response)  # the polite status line says it


@pytest.mark.parametrize("system", ["serenity", "smallville"])
def test_a_player_cannot_touch_a_stress_die(
    system, make_campaign, make_sheet, player, client_for, htmx
):
    """SER-7 / SMV-10: stress is taken in contests at the table, not typed in."""
    campaign = make_campaign(system)
    sheet = make_sheet(campaign, "Mal")
    afraid = Trait.objects.get(sheet=sheet, group="stress", name="Afraid")
    Trait.objects.filter(pk=afraid.pk).update(die=8)
    before = dice(sheet)
    client = client_for(player)
    posts = [
        (trait_url(afraid), {"field": "die", "die": "d4", "version": 1}),
        (trait_url(afraid), {"die": "", "notes": "", "version": 1}),  # the whole row, no JS
        (trait_url(afraid), {"field": "notes", "notes": "shrugged off", "version": 1}),
        (trait_url(afraid, "step"), {"direction": "down", "version": 1}),
        (trait_url(afraid, "step"), {"direction": "up", "version": 1}),
        (trait_url(afraid, "delete"), {"version": 1}),
        (trait_url(afraid, "move"), {"direction": "down"}),
    ]
    for url, data in posts:
        response = client.post(url, data, **htmx)
        assert response.status_code == 403, (url, data)
        assert "Stress changes at the table: ask the GM." in text(response)
        assert 'name="die"' not in text(response)
        assert client.post(url, data).status_code == 302
    assert dice(sheet) == before
    assert not TableEvent.objects.exists()


def test_a_player_cannot_add_or_remove_a_complication(
    make_campaign, make_sheet, add_trait, player, client_for, htmx
):
    """SER-3: complications come from the GM activating a 1."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    winged = add_trait(sheet, "complications", "Winged", die="d8")
    before = dice(sheet)
    client = client_for(player)
    add = reverse("trait_add", args=[campaign.pk, sheet.pk, "complications"])
    response = client.post(add, {"name": "Lucky", "die": "d4"}, **htmx)
    assert response.status_code == 403
    assert "Complications change at the table: ask the GM." in text(response)
    for url, data in (
        (trait_url(winged, "delete"), {"version": 1}),
        (trait_url(winged, "step"), {"direction": "down", "version": 1}),
        (trait_url(winged), {"field": "name", "name": "Fine", "version": 1}),
    ):
        assert client.post(url, data, **htmx).status_code == 403
    assert dice(sheet) == before
    assert not TableEvent.objects.exists()


def test_the_player_page_shows_table_fields_read_only_with_the_reason(
    make_campaign, make_sheet, add_trait, gm, player, other_player, client_for
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    fightin = add_trait(sheet, "stylins", "Fightin'", die="d8")
    mine = text(client_for(player).get(sheet.get_absolute_url()))
    assert f'id="counter-{sheet.pk}-plot_points-value"' not in mine
    assert "Plot points change at the table: ask the GM." in mine
    assert "Stress changes at the table: ask the GM." in mine
    assert f'id="t{fightin.pk}-die"' in mine  # the player's own traits stay editable
    afraid = Trait.objects.get(sheet=sheet, group="stress", name="Afraid")
    assert f'id="t{afraid.pk}-die"' not in mine
    assert "Add a Complication" not in mine and "Add a Value" in mine
    gms = text(client_for(gm).get(sheet.get_absolute_url()))
    assert f'id="counter-{sheet.pk}-plot_points-value"' in gms and f'id="t{afraid.pk}-die"' in gms
    assert "A change here is a card in the roll log." in gms
    theirs = text(client_for(other_player).get(sheet.get_absolute_url()))
    assert "ask the GM" not in theirs  # someone else's sheet is read-only anyway


# --------------------------------------------------------------------------- the GM's edits


def test_a_gm_edit_is_one_logged_event_that_a_void_gives_back(
    make_campaign, make_sheet, gm, player, client_for, htmx
):
    """SER-8: the GM sets Mal's plot points on the sheet: one card, before and after."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    Counter.objects.filter(sheet=sheet, key="plot_points").update(value=1)
    response = client_for(gm).post(
        counter_url(sheet, "plot_points"), {"value": "3", "version": 1}, **htmx
    )
    assert response.status_code == 200 and 'value="3"' in text(response)
    assert row(sheet, "plot_points") == (3, 2)
    event = TableEvent.objects.get()
    assert (event.action, event.character_id, event.visibility) == (
        "set_counter",
        sheet.pk,
        "public",
    )
    assert event.headline == "GM set Mal's plot points to 3 (was 1)"
    assert event.effects == [{"sheet": sheet.pk, "counter": "plot_points", "from": 1, "to": 3}]
    assert [e.pk for e in actions.visible_events(campaign, player)] == [event.pk]
    card = html.unescape(render_event_html(event, "players"))
    assert "GM set Mal's plot points to 3 (was 1)" in card and "Set by the GM" in card

    # An unchanged value writes nothing; a + button is one more event.
    client_for(gm).post(counter_url(sheet, "plot_points"), {"value": "3", "version": 2}, **htmx)
    assert TableEvent.objects.count() == 1
    client_for(gm).post(counter_url(sheet, "plot_points"), {"delta": "1", "version": 2}, **htmx)
    assert row(sheet, "plot_points")[0] == 4
    assert TableEvent.objects.count() == 2

    voided = actions.void(campaign, gm, event.pk, "wrong character")
    assert row(sheet, "plot_points")[0] == 2  # the +2 is given back; the later +1 stays
    assert "Mal: plot points 4 → 2." in voided.outcome["undone"]
    assert verify(campaign).ok  # each card resolves again from what it recorded


def test_a_gm_edit_made_on_a_stale_page_is_a_conflict_and_logs_nothing(
    make_campaign, make_sheet, gm, client_for, htmx
):
    campaign = make_campaign("unisystem")
    sheet = make_sheet(campaign, "Malcolm")
    url = counter_url(sheet, "drama_points")
    assert client_for(gm).post(url, {"value": "12", "version": 1}, **htmx).status_code == 200
    response = client_for(gm).post(url, {"value": "4", "version": 1}, **htmx)
    assert response.status_code == 409 and "changed Drama Points to 12" in text(response)
    assert row(sheet, "drama_points") == (12, 2)
    assert TableEvent.objects.get().headline == "GM set Malcolm's Drama Points to 12 (was 10)"


def test_a_gm_edit_out_of_bounds_is_refused_beside_the_field(
    make_campaign, make_sheet, gm, client_for, htmx
):
    """PER-6: criticals stay within the Potential Threshold whoever sets them."""
    campaign = make_campaign("personae")
    sheet = make_sheet(campaign, "Aria")
    response = client_for(gm).post(
        counter_url(sheet, "criticals"), {"value": "4", "version": 1}, **htmx
    )
    assert response.status_code == 422 and "at most the Potential Threshold (3)" in text(response)
    assert row(sheet, "criticals") == (0, 1) and not TableEvent.objects.exists()


def test_a_gm_stress_step_is_logged_and_voidable(make_campaign, make_sheet, gm, client_for, htmx):
    """SER-7: stress on the sheet moves only with a card in the log."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    afraid = Trait.objects.get(sheet=sheet, group="stress", name="Afraid")
    client = client_for(gm)
    response = client.post(trait_url(afraid, "step"), {"direction": "up", "version": 1}, **htmx)
    assert response.status_code == 200 and "“Afraid” is now d4." in text(response)
    response = client.post(trait_url(afraid), {"field": "die", "die": "d10", "version": 2}, **htmx)
    assert response.status_code == 200
    afraid.refresh_from_db()
    assert (afraid.die, afraid.version) == (10, 3)
    first, second = TableEvent.objects.order_by("seq")
    assert first.headline == "GM set Mal's Afraid stress to d4 (was no die)"
    assert second.headline == "GM set Mal's Afraid stress to d10 (was d4)"
    actions.void(campaign, gm, second.pk, "typo")
    afraid.refresh_from_db()
    assert afraid.die == 4
    # A stale die edit is a conflict, not a second card.
    response = client.post(trait_url(afraid), {"field": "die", "die": "d6", "version": 2}, **htmx)
    assert response.status_code == 409
    assert TableEvent.objects.filter(action="set_die").count() == 2
    assert verify(campaign).ok


def test_a_gm_adds_and_removes_a_complication_through_the_log(
    make_campaign, make_sheet, gm, client_for, htmx
):
    """SER-3: a complication added or removed on the sheet is a card; voiding gives it back."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    client = client_for(gm)
    add = reverse("trait_add", args=[campaign.pk, sheet.pk, "complications"])
    response = client.post(add, {"name": "Winged", "die": "d6", "notes": "left arm"}, **htmx)
    assert response.status_code == 200
    winged = Trait.objects.get(sheet=sheet, group="complications")
    assert (winged.name, winged.die, winged.notes) == ("Winged", 6, "left arm")
    added = TableEvent.objects.get()
    assert added.headline == "GM gave Mal the complication “Winged” at d6"
    response = client.post(trait_url(winged, "delete"), {"version": winged.version}, **htmx)
    assert response.status_code == 200
    assert not Trait.objects.filter(pk=winged.pk).exists()
    removed = TableEvent.objects.latest("seq")
    assert removed.headline == "GM removed Mal's complication “Winged” (was d6)"
    actions.void(campaign, gm, removed.pk, "it is still there")
    assert Trait.objects.get(sheet=sheet, group="complications", name="Winged").die == 6


def test_a_hidden_gm_characters_changes_stay_with_the_gms(
    make_campaign, make_sheet, gm, player, client_for, htmx
):
    campaign = make_campaign("serenity")
    npc = make_sheet(campaign, "Reaver Captain", kind="npc", hidden=True)
    client_for(gm).post(counter_url(npc, "plot_points"), {"value": "2", "version": 1}, **htmx)
    event = TableEvent.objects.get()
    assert event.visibility == "gm"
    [shown] = actions.visible_events(campaign, player)
    sealed = render_event_html(shown, "players")
    assert "The GM acted behind the screen" in sealed and "Reaver" not in sealed


def test_the_table_actions_are_the_gms_only(make_campaign, make_sheet, gm, player):
    """Over the socket too: a player cannot run set_counter or set_die."""
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign, "Clark")
    for action, request in (
        ("set_counter", {"counter": "plot_points", "value": 5}),
        ("set_die", {"group": "stress", "trait": "Afraid", "die": None}),
    ):
        with pytest.raises(actions.ActionError, match="Only the GM"):
            actions.perform(campaign, player, action, request, sheet_id=sheet.pk)
    with pytest.raises(actions.ActionError, match="changes at the table"):
        actions.perform(
            campaign, gm, "set_counter", {"counter": "nonsense", "value": 1}, sheet_id=sheet.pk
        )
    with pytest.raises(actions.ActionError, match="changes at the table"):
        actions.perform(
            campaign,
            gm,
            "set_die",
            {"group": "abilities", "trait": "Flight", "die": "d12"},
            sheet_id=sheet.pk,
        )
    assert row(sheet, "plot_points") == (0, 1) and not TableEvent.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_a_gm_edit_reaches_the_table_and_the_open_sheets(
    make_campaign, make_sheet, gm, player
):
    campaign = await sync_to_async(make_campaign)("serenity")
    sheet = await sync_to_async(make_sheet)(campaign, "Mal")
    socket, connected, _ = await open_socket(player, campaign)
    assert connected
    try:
        await caught_up(socket)
        client = Client()
        await sync_to_async(client.force_login)(gm)
        response = await sync_to_async(client.post)(
            counter_url(sheet, "plot_points"), {"value": "2", "version": 1}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        received = html.unescape("".join(await messages(socket, expect=2)))
        assert "GM set Mal's plot points to 2 (was 0)" in received  # the card in the log
        assert f'hx-target="#counter-{sheet.pk}-plot_points"' in received  # the open sheet
    finally:
        await socket.disconnect()


# --------------------------------------------------------------------------- new characters


def _doc(**counters) -> str:
    return json.dumps(
        {
            "format": "rollcall-sheet",
            "version": 1,
            "system": "serenity",
            "name": "Jayne",
            "kind": "pc",
            "counters": counters,
            "traits": {
                "stylins": [{"name": "Fightin'", "die": "d10"}],
                "stress": [{"name": "Angry", "die": "d12"}],
                "complications": [{"name": "Greedy", "die": "d4"}],
            },
        }
    )


def test_a_player_import_cannot_inflate_plot_points(make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    client = client_for(player)
    response = client.post(
        reverse("sheet_import", args=[campaign.pk]), {"text": _doc(plot_points=12)}, follow=True
    )
    sheet = Sheet.objects.get(name="Jayne")
    assert row(sheet, "plot_points") == (0, 1)
    assert Trait.objects.get(sheet=sheet, name="Angry").die is None
    assert not Trait.objects.filter(sheet=sheet, group="complications").exists()
    assert Trait.objects.get(sheet=sheet, name="Fightin'").die == 10  # the rest is imported
    shown = messages_shown(response)
    assert (
        "Plot points: set to 0, where a new character starts. Plot points change at the table: ask the GM."
        in shown
    )
    assert "Stress: left as on a new character. Stress changes at the table: ask the GM." in shown
    assert any(m.startswith("Complications: left as on a new character.") for m in shown)
    assert not any("counters." in m or "traits." in m for m in shown)
    assert not TableEvent.objects.exists()


def test_a_gm_import_keeps_the_files_values_without_a_table_event(
    make_campaign, gm, player, client_for
):
    campaign = make_campaign("serenity")
    client_for(gm).post(
        reverse("sheet_import", args=[campaign.pk]),
        {"text": _doc(plot_points=12), "owner": player.pk},
    )
    sheet = Sheet.objects.get(name="Jayne")
    assert row(sheet, "plot_points")[0] == 12
    assert Trait.objects.get(sheet=sheet, name="Angry").die == 12
    assert Trait.objects.get(sheet=sheet, name="Greedy").die == 4
    assert not TableEvent.objects.exists()


def test_a_player_creating_a_character_starts_at_the_games_values(
    make_campaign, player, client_for
):
    campaign = make_campaign("cortex_slots")
    client_for(player).post(
        reverse("sheet_create", args=[campaign.pk]),
        {"name": "Vera", "plot_points": "9", "advance_points": "99", "counters": "x"},
    )
    sheet = Sheet.objects.get(name="Vera")
    assert row(sheet, "plot_points")[0] == 1 and row(sheet, "advance_points")[0] == 0
