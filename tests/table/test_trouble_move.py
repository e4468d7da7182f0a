"""SMV-9 from the card (issue #27, 5): against a 1 the Watchtower rolled, a player pays
one plot point to take a Trouble Pool die out in two taps ("Remove a Trouble Pool die…"
on her card, then the character who pays). Refused with another player's character and
for a hidden roll exactly as for a missing one."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.reading.rendering import card_html, clear_cache

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
POOL = [{"die": "d6", "trait": "Storm", "group": "situation"},
        {"die": "d8", "trait": "Goons", "group": "situation"}]  # fmt: skip


def _move(client, t, data):
    return client.post(reverse("table_move", args=[t.campaign.pk, "trouble"]), data, **HX)


def _pick(client, t, seq):
    url = reverse("table_move_pick", args=[t.campaign.pk, "trouble"])
    return client.get(url, {"seq": seq}, **HX)


def _notice(response) -> str:
    found = re.search(r'id="table-notice"[^>]*>(.*?)</div>', response.content.decode())
    assert found, response.content
    return html.unescape(found.group(1))


def _removals():
    return TableEvent.objects.filter(action="trouble", outcome__paid_by="player")


@pytest.fixture
def smv(table_for, faces):
    t = table_for("smallville")
    t.start_scene()
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 2})  # d8 in the pool
    faces.queue.extend([5, 1])  # the Goons' d8 shows 1
    t.gm_roll = t.perform(t.gm, "roll", {"pool": POOL})
    t.points = t.counter(t.pc, "plot_points")
    clear_cache()
    return t


def test_a_player_removes_a_trouble_die_in_two_taps(smv, client_for):
    """SMV-9: the Watchtower's card offers the move to players only; Mal pays one."""
    assert "Remove a Trouble Pool die" in card_html(smv.gm_roll, "players")
    gm = card_html(smv.gm_roll, "gm")  # the players' own, read alike: marked as theirs
    assert "Remove a Trouble Pool die" not in gm or "data-players-only hidden" in gm
    mal = client_for(smv.player)
    picked = html.unescape(_pick(mal, smv, smv.gm_roll.seq).content.decode())
    assert "Mal" in picked and "Zoe" not in picked
    assert "Pay 1 plot point: remove a Trouble Pool die (d8 or smaller)" in picked
    said = _notice(_move(mal, smv, {"sheet": smv.pc.pk, "seq": smv.gm_roll.seq}))
    assert "Trouble" in said and "no die" not in said, said
    assert _removals().count() == 1
    assert smv.counter(smv.pc, "plot_points") == smv.points - 1
    assert smv.state()["trouble_pool"] == []


def test_nobody_pays_with_another_players_character(smv, client_for):
    response = _move(client_for(smv.other), smv, {"sheet": smv.pc.pk, "seq": smv.gm_roll.seq})
    assert 'data-kind="error"' in response.content.decode()
    assert smv.counter(smv.pc, "plot_points") == smv.points
    assert not _removals().exists()


def test_a_hidden_roll_is_refused_as_a_missing_one(smv, client_for, faces):
    faces.queue.extend([1, 5])
    secret = smv.perform(smv.gm, "roll", {"pool": POOL}, visibility="gm")
    mal = client_for(smv.player)
    said = [
        _notice(_move(mal, smv, {"sheet": smv.pc.pk, "seq": seq}))
        for seq in (secret.seq, secret.seq + 50)
    ]
    assert said[0] == said[1]
    assert [_pick(mal, smv, s).status_code for s in (secret.seq, secret.seq + 50)] == [404, 404]
    assert not _removals().exists()
