"""Open character sheets refresh what the table changed on them: every counter a table
action spends, gains, gives or sets, stress dice, and what a void gives back, reach the
sheet pages over the campaign socket once the action commits (sheets.live)."""

import pytest
from asgiref.sync import sync_to_async

from table.writing import actions

from .page_fixtures import fresh_cards  # noqa: F401  (cards are cached by pk; pks are reused)
from .sockets import HANG_GUARD, caught_up, open_socket

pytestmark = pytest.mark.django_db

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
LOYALTY = {"die": "d8", "trait": "Loyalty", "group": "values"}


def counter_sync(sheet, key: str) -> str:
    return f'hx-target="#counter-{sheet.pk}-{key}"'


def synced(published, needle: str) -> bool:
    return any(needle in html for _, html, _ in published)


def test_a_plot_point_spent_on_a_roll_refreshes_the_sheet(
    table_for, faces, published, django_capture_on_commit_callbacks
):
    t = table_for("serenity")
    faces.queue.extend([9, 8, 2])
    pool = [FIGHTIN, {"die": "d8", "trait": "War Veteran", "group": "refinements"}, LOYALTY]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        event = t.perform(t.player, "roll", {"pool": pool, "plot_points": 1}, sheet_id=t.pc.pk)
    assert event.outcome["plot_points_spent"] == 1
    assert not synced(published, counter_sync(t.pc, "plot_points"))  # nothing before commit
    for callback in callbacks:
        callback()
    assert synced(published, counter_sync(t.pc, "plot_points"))


def test_stress_and_drama_points_and_life_points_refresh_the_sheet(
    table_for, faces, published, django_capture_on_commit_callbacks
):
    t = table_for("serenity")
    with django_capture_on_commit_callbacks(execute=True):
        t.perform(t.gm, "stress", {"type": "Injured", "die": "d8"}, sheet_id=t.pc.pk)
    injured = t.trait(t.pc, "stress", "Injured")
    assert synced(published, f'hx-target="#trait-{injured.pk}"')

    u = table_for("unisystem")
    with django_capture_on_commit_callbacks(execute=True):
        u.perform(u.gm, "damage", {"base_damage": 5, "success_levels": 1}, sheet_id=u.pc.pk)
        u.perform(u.gm, "give_points", {"amount": 1}, sheet_id=u.pc.pk)
    assert synced(published, counter_sync(u.pc, "life_points"))
    assert synced(published, counter_sync(u.pc, "drama_points"))


def test_a_void_refreshes_the_counters_it_gives_back(
    table_for, published, django_capture_on_commit_callbacks
):
    t = table_for("serenity")
    event = t.perform(t.gm, "give_points", {"amount": 2}, sheet_id=t.pc.pk)
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        actions.void(t.campaign, t.gm, event.pk, "too generous")
    assert t.counter(t.pc, "plot_points") == 2
    assert synced(published, counter_sync(t.pc, "plot_points"))


def test_a_hidden_gm_characters_counter_refresh_goes_to_gms_only(
    table_for, published, django_capture_on_commit_callbacks
):
    t = table_for("serenity")
    t.npc.hidden = True
    t.npc.save()
    with django_capture_on_commit_callbacks(execute=True):
        t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.npc.pk, visibility="gm")
    sent = [to for _, html, to in published if counter_sync(t.npc, "plot_points") in html]
    assert sent == ["gm"]


@pytest.mark.django_db(transaction=True)
async def test_a_gift_reaches_another_members_open_socket(table_for):
    t = await sync_to_async(table_for)("serenity")
    comm, connected, _ = await open_socket(t.other, t.campaign)
    assert connected
    try:
        await caught_up(comm)
        await sync_to_async(actions.perform)(
            t.campaign, t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk
        )
        wanted = {f"#counter-{t.pc.pk}-plot_points", "GM gave Mal 1 plot point"}
        got = []
        while wanted - {w for w in wanted for m in got if w in m}:
            assert not await comm.receive_nothing(timeout=HANG_GUARD), got  # silence: fail
            got.append(await comm.receive_from())
    finally:
        await comm.disconnect()
