"""UNI-5 from the card (issue #27, 5): anyone else at the table resists a task or test
from its card, in two taps: "Resist with…" loads the choices of their own characters
(the card is the same for every player), and one of them rolls the resisted action
against the card's total, without rolling the acting side again. The move is refused
for the roller's own roll, for another player's character, and for a roll hidden from
the resister exactly as for a roll that does not exist."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.reading.rendering import card_html, clear_cache
from table.writing.actions import ActionError

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
MAL_ROLL = {"kind": "task", "attribute_name": "Dexterity", "skill_name": "Sports"}


def _move(client, t, data):
    return client.post(reverse("table_move", args=[t.campaign.pk, "resisted"]), data, **HX)


def _pick(client, t, seq):
    url = reverse("table_move_pick", args=[t.campaign.pk, "resisted"])
    return client.get(url, {"seq": seq}, **HX)


def _notice(response) -> str:
    found = re.search(r'id="table-notice"[^>]*>(.*?)</div>', response.content.decode())
    assert found, response.content
    return html.unescape(found.group(1))


def _resisted():
    return TableEvent.objects.filter(action="resisted")


@pytest.fixture
def uni(table_for, faces):
    t = table_for("unisystem")
    t.start_scene()
    faces.queue.extend([7])
    t.roll = t.perform(t.player, "task", MAL_ROLL, sheet_id=t.pc.pk)  # 7 + 3 + 2 = 12
    clear_cache()
    return t


def test_zoe_resists_mals_roll_in_two_taps_against_its_total(uni, client_for, faces):
    """UNI-5: the card offers "Resist with…" (hidden in the players' card until the page
    finds the viewer plays someone else); Zoe's choices are her own character's, the
    roll's own pair first; her tap rolls only her side, against Mal's 12."""
    players = card_html(uni.roll, "players")
    assert re.search(rf'data-moves-against="{uni.pc.pk}" hidden', players)
    assert "Resist with" in players
    zoe = client_for(uni.other)
    picked = html.unescape(_pick(zoe, uni, uni.roll.seq).content.decode())
    assert "Zoe" in picked and "Mal" not in picked.replace("#", "")
    labels = re.findall(r'hx-swap="none">([^<]+)<', picked)
    assert labels[0] == "Dexterity + Sports" and "Strength doubled" in labels
    faces.queue.extend([8])  # 8 + 3 + 2 = 13 beats 12
    said = _notice(_move(zoe, uni, {"sheet": uni.other_pc.pk, "seq": uni.roll.seq,
                                    "attribute": "Dexterity", "skill": "Sports"}))  # fmt: skip
    assert "Zoe wins" in said and "12" in said
    event = _resisted().get()
    assert event.character_id == uni.other_pc.pk
    assert event.outcome["attacker"]["total"] == 12
    assert event.outcome["attacker"]["rolled_on"] == uni.roll.seq
    assert event.outcome["defender"]["total"] == 13
    assert event.outcome["result"] == "defender wins"
    assert len(event.outcome["dice"]) == 1  # only Zoe rolled
    assert faces.queue == []


def test_an_attribute_doubled_is_one_tap_too(uni, client_for, faces):
    faces.queue.extend([1])  # 1 + 2 × 2 = 5: fails against 12
    _move(client_for(uni.other), uni,
          {"sheet": uni.other_pc.pk, "seq": uni.roll.seq, "attribute": "Strength"})  # fmt: skip
    event = _resisted().get()
    assert event.outcome["defender"]["total"] == 5
    assert event.outcome["result"] == "attacker wins"


def test_the_gm_resists_with_a_gm_character(uni, client_for, faces):
    gm = client_for(uni.gm)
    picked = _pick(gm, uni, uni.roll.seq).content.decode()
    assert "Niska" in picked and "Zoe" not in picked
    assert "Resist with" in card_html(uni.roll, "gm")
    faces.queue.extend([2])
    _move(gm, uni, {"sheet": uni.npc.pk, "seq": uni.roll.seq, "attribute": "Willpower"})
    assert _resisted().get().character_id == uni.npc.pk


def test_nobody_resists_with_someone_elses_character_or_their_own_roll(uni, client_for):
    """UNI-5: Zoe naming Mal's character (against his own roll or not), and Mal resisting
    his own roll, change nothing."""
    zoe, mal = client_for(uni.other), client_for(uni.player)
    for client, sheet in ((zoe, uni.pc.pk), (mal, uni.pc.pk), (mal, uni.other_pc.pk)):
        response = _move(client, uni, {"sheet": sheet, "seq": uni.roll.seq,
                                       "attribute": "Strength"})  # fmt: skip
        assert 'data-kind="error"' in response.content.decode()
    assert not _resisted().exists()
    assert "Mal" not in _pick(mal, uni, uni.roll.seq).content.decode()


def test_a_hidden_roll_is_refused_as_a_missing_one(uni, client_for, faces):
    """UNI-5: the GM's secret roll cannot be resisted by a player, nor its choices loaded,
    and the refusal reads exactly as for a roll that is not there."""
    faces.queue.extend([5])
    secret = uni.perform(uni.gm, "task", {**MAL_ROLL, "name": "Niska"}, sheet_id=uni.npc.pk,
                         visibility="gm")  # fmt: skip
    zoe = client_for(uni.other)
    said = [
        _notice(_move(zoe, uni, {"sheet": uni.other_pc.pk, "seq": seq, "attribute": "Strength"}))
        for seq in (secret.seq, secret.seq + 50)
    ]
    assert said[0] == said[1] and "not one to resist" in said[0]
    assert [_pick(zoe, uni, seq).status_code for seq in (secret.seq, secret.seq + 50)] == [404, 404]
    assert not _resisted().exists()


def test_a_player_cannot_pass_a_made_up_total(uni, faces):
    """UNI-5: the acting side's total is the card's, never the client's."""
    faces.queue.extend([5])
    made_up = {"name": "Mal", "total": -9, "rolled_on": uni.roll.seq}
    with pytest.raises(ActionError, match="named by its card"):
        uni.perform(uni.other, "resisted",
                    {"attacker": made_up, "defender": {"kind": "simple_test",
                                                       "attribute_name": "Strength"}},
                    sheet_id=uni.other_pc.pk)  # fmt: skip
    assert not _resisted().exists()


def test_outsiders_and_observers_get_no_move(uni, client_for, outsider, observer):
    data = {"sheet": uni.pc.pk, "seq": uni.roll.seq, "attribute": "Strength"}
    assert _move(client_for(outsider), uni, data).status_code == 404
    assert _move(client_for(observer), uni, data).status_code in (403, 404)
    assert _pick(client_for(outsider), uni, uni.roll.seq).status_code == 404
    assert not _resisted().exists()
