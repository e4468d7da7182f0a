"""The GM's opposition at the table (SER-5, SER-10, SMV-10): a pool the GM rolls, or a
number the GM sets, is the scene's number to beat; a player's roll reads it from the
table (whatever its request says) and its card says success or failure. One rolled or
set behind the screen seals the rolls resting on it until the GM reveals it."""

from __future__ import annotations

import json

import pytest

from table.log.visibility import GM, PLAYERS, acknowledgement, event_data
from table.models import TableEvent
from table.reading.export import verify
from table.reading.rendering import card_html, event_message
from table.writing.actions import ActionError, reveal

pytestmark = pytest.mark.django_db

THUGS = [{"die": "d8", "trait": "Armed thugs", "group": "situation"}]
FIGHTIN = {"trait": "Fightin'", "group": "stylins"}
JUSTICE = {"trait": "Justice", "group": "values"}
LANA = {"trait": "Lana", "group": "relationships"}


def test_ser5_the_gms_pool_sets_the_number_a_players_roll_is_scored_against(table_for, faces):
    t = table_for("serenity")
    t.start_scene()
    faces.queue.extend([6])
    opposition = t.perform(t.gm, "roll", {"pool": THUGS})
    assert opposition.outcome["headline"].endswith("the number to beat")
    assert t.state()["difficulty"]["value"] == 6
    faces.queue.extend([9])  # Fightin' d10
    # The client's number is ignored: the table's opposition is the number to beat.
    rolled = t.perform(t.player, "roll", {"pool": [FIGHTIN], "difficulty": 50}, sheet_id=t.pc.pk)
    assert rolled.request["difficulty"] == 6
    assert rolled.outcome["success"] is True and rolled.outcome["margin"] == 3
    assert "Result 9 vs 6 — success by 3" in card_html(rolled, PLAYERS)
    assert verify(t.campaign).ok


def test_ser10_an_extraordinary_success_against_the_opposition_claims_a_benefit(table_for, faces):
    t = table_for("serenity")
    t.start_scene()
    faces.queue.extend([2])
    t.perform(t.gm, "roll", {"pool": THUGS})
    faces.queue.extend([9])
    rolled = t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    assert rolled.outcome["extraordinary"]["by"] == "player"
    claimed = t.perform(
        t.player,
        "benefit",
        {"benefit": "promote_asset", "target": "Cargo hold", "table": {"roll": rolled.seq}},
        sheet_id=t.pc.pk,
    )
    assert claimed.params["roll"] == rolled.seq
    with pytest.raises(ActionError, match="still to be claimed"):
        t.perform(t.player, "benefit", {"benefit": "promote_asset", "target": "Hold",
                                        "table": {"roll": rolled.seq}}, sheet_id=t.pc.pk)  # fmt: skip


def test_smv10_a_number_the_watchtower_sets_is_the_number_to_beat_a_tie_fails(table_for, faces):
    t = table_for("smallville")
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 12})
    faces.queue.extend([7, 5])
    rolled = t.perform(t.player, "roll", {"pool": [JUSTICE, LANA]}, sheet_id=t.pc.pk)
    assert rolled.outcome["success"] is False
    assert "Result 12 vs 12 — failure: a tie fails" in card_html(rolled, PLAYERS)
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "set_difficulty", {"difficulty": 1}, sheet_id=t.pc.pk)
    assert t.state()["difficulty"]["value"] == 12


def test_a_players_roll_against_a_secret_opposition_is_sealed_until_the_gm_reveals_it(
    table_for, faces
):
    """What a player could learn: nothing of the roll while the opposition is secret (not
    the verdict, not the number); the reveal opens the opposition and the roll on it."""
    t = table_for("serenity")
    t.start_scene()
    faces.queue.extend([7])
    secret = t.perform(t.gm, "roll", {"pool": THUGS}, visibility="gm")
    faces.queue.extend([9])
    rolled = t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    assert rolled.outcome["success"] is True  # scored all the same, for the GM
    data = event_data(rolled, PLAYERS)
    assert data["kind"] == "sealed" and "success" not in json.dumps(data)
    html = card_html(rolled, PLAYERS)
    assert "sealed-card" in html and "vs 7" not in html and "Armed thugs" not in html
    assert "against what the GM keeps behind the screen" in html
    assert "Result 9 vs 7 — success by 2" in card_html(rolled, GM)
    assert "sealed until the GM reveals that" in acknowledgement(rolled, PLAYERS)
    shown = reveal(t.campaign, t.gm, secret.pk)
    rolled.refresh_from_db()
    # The reveal's message opens the roll that rested on it, on the players' pages.
    message = event_message(shown, PLAYERS)
    assert f'id="event-{rolled.seq}" hx-swap-oob="true"' in message
    assert "Result 9 vs 7 — success by 2" in message
    assert "Result 9 vs 7 — success by 2" in card_html(rolled, PLAYERS)


def test_a_secret_number_set_by_the_gm_seals_the_roll_the_same_way(table_for, faces):
    t = table_for("smallville")
    t.start_scene()
    secret = t.perform(t.gm, "set_difficulty", {"difficulty": 3}, visibility="gm")
    faces.queue.extend([7, 5])
    rolled = t.perform(t.other, "roll", {"pool": [JUSTICE, LANA]}, sheet_id=t.other_pc.pk)
    assert event_data(rolled, PLAYERS)["kind"] == "sealed"
    reveal(t.campaign, t.gm, secret.pk)
    rolled = TableEvent.objects.get(pk=rolled.pk)
    assert event_data(rolled, PLAYERS)["outcome"]["success"] is True
