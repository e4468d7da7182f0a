"""Hidden state copied into a later public event: the gate veils it on every reader."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaigns import services
from table.log.visibility import GM, PLAYERS, event_data
from table.models import TableEvent
from table.reading.rendering import card_html
from table.writing.actions import reveal, scene_state, void

pytestmark = pytest.mark.django_db


def test_a_secret_complication_is_not_named_by_a_later_public_one(table_for, client_for, faces):
    t = table_for("serenity")
    scene = t.start_scene()
    t.perform(t.gm, "activate_complication", {"complication": "Hunted by Niska"},
              sheet_id=t.pc.pk, visibility="gm")  # fmt: skip
    public = t.perform(t.gm, "activate_complication", {"complication": "Sprained ankle"},
                       sheet_id=t.pc.pk)  # fmt: skip
    assert "Hunted by Niska" in json.dumps(public.request)  # the GM's copy holds it
    assert "Hunted by Niska" in json.dumps(event_data(public, GM))
    players = json.dumps(event_data(public, PLAYERS))
    assert "Sprained ankle" in players
    assert "Hunted by Niska" not in players
    assert "Hunted by Niska" not in card_html(public, PLAYERS)
    url = reverse("table_export_scene", args=[t.campaign.pk, scene.pk, "json"])
    exported = client_for(t.player).get(url).content.decode()
    assert "Sprained ankle" in exported and "Hunted by Niska" not in exported
    panel = client_for(t.player).get(reverse("table_scene", args=[t.campaign.pk]))
    assert "Sprained ankle" in panel.content.decode()
    assert "Hunted by Niska" not in panel.content.decode()


def test_a_hidden_gm_characters_public_roll_names_no_one(table_for, client_for, faces):
    t = table_for("serenity")
    t.npc.hidden = True
    t.npc.save()
    t.start_scene()
    pool = [{"die": "d8", "trait": "Cunning", "group": "situation"}]
    public = t.perform(t.gm, "roll", {"pool": pool}, sheet_id=t.npc.pk)
    gm_card, players_card = card_html(public, GM), card_html(public, PLAYERS)
    assert "Niska" in gm_card and f"/sheets/{t.npc.pk}/portrait/" in gm_card
    assert "Niska" not in players_card
    assert "/portrait/" not in players_card  # players' pages never ask for it
    assert "GM character" in players_card
    data = event_data(public, PLAYERS)
    assert data["character"] == "GM character" and "Niska" not in json.dumps(data)
    page = client_for(t.player).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "Niska" not in page and f"/sheets/{t.npc.pk}/portrait/" not in page
    t.npc.hidden = False  # shown to the players: the card names it again
    t.npc.save()
    assert "Niska" in card_html(public, PLAYERS)


def test_a_revealed_secret_roll_says_it_was_revealed(table_for, faces):
    t = table_for("serenity")
    t.start_scene()
    pool = [{"die": "d8", "trait": "Cunning", "group": "situation"}]
    secret = t.perform(t.gm, "roll", {"pool": pool}, visibility="gm")
    reveal(t.campaign, t.gm, secret.pk)
    secret.refresh_from_db()
    card = card_html(secret, PLAYERS)
    assert "Revealed by the GM" in card or "revealed by the GM" in card
    assert "GMs only" not in card


@pytest.mark.parametrize(
    "system, action, request_",
    [
        ("cortex_slots", "gm_pool", {"pool": ["d8", "d6"], "roller_kind": "boss"}),
        ("personae", "set_difficulty", {"difficulty": 12}),
    ],
)
def test_a_scene_ended_card_counts_only_what_players_saw(table_for, faces, system, action,
                                                          request_):  # fmt: skip
    t = table_for(system)
    scene = t.start_scene()
    t.perform(t.gm, action, request_, visibility="gm")
    services.end_scene(t.campaign, scene.pk, t.gm)
    ended = TableEvent.objects.get(campaign=t.campaign, kind="scene_end")
    assert "Expired" not in card_html(ended, PLAYERS)
    assert "difficulty" not in json.dumps(event_data(ended, PLAYERS))


def test_a_public_event_from_a_secret_roll_is_sealed_until_that_roll_is(table_for, faces):
    """A lengthy task fed by a roll made behind the screen would show its total: players
    read the task sealed, and its tracker as it was, until the GM reveals the roll."""
    t = table_for("unisystem")
    t.start_scene()
    t.perform(t.gm, "lengthy_task", {"required_levels": 9, "success_levels": 0,
                                     "table": {"task": "Ritual"}})  # fmt: skip
    faces.queue.extend([8])
    secret = t.perform(t.gm, "task", {"name": "Vault", "attribute": 3, "skill": 2},
                       visibility="gm")  # fmt: skip
    fed = t.perform(t.gm, "lengthy_task", {"table": {"task": "Ritual", "from_seq": secret.seq}})
    assert fed.request["total"] == secret.outcome["total"]
    assert event_data(fed, PLAYERS)["kind"] == "sealed"
    assert "sealed-card" in card_html(fed, PLAYERS)
    players_ritual = scene_state(t.campaign, t.player)
    assert players_ritual["state"]["trackers"]["lengthy"]["Ritual"]["rolls_made"] == 1
    assert t.state()["trackers"]["lengthy"]["Ritual"]["rolls_made"] == 2
    reveal(t.campaign, t.gm, secret.pk)
    fed.refresh_from_db()
    assert event_data(fed, PLAYERS)["request"]["total"] == secret.outcome["total"]
    assert "sealed-card" not in card_html(fed, PLAYERS)
    players_ritual = scene_state(t.campaign, t.player)
    assert players_ritual["state"]["trackers"]["lengthy"]["Ritual"]["rolls_made"] == 2


def test_voiding_a_sealed_copy_tells_players_nothing_of_it(table_for, faces):
    t = table_for("unisystem")
    t.start_scene()
    faces.queue.extend([8])
    secret = t.perform(t.gm, "task", {"name": "Vault", "attribute": 3, "skill": 2},
                       visibility="gm")  # fmt: skip
    fed = t.perform(t.gm, "lengthy_task", {"required_levels": 9,
                                           "table": {"task": "Ritual", "from_seq": secret.seq}})  # fmt: skip
    struck = void(t.campaign, t.gm, fed.pk, "a misclick")
    assert fed.headline in struck.explanation  # the GM's card says what was voided
    assert event_data(struck, PLAYERS)["kind"] == "sealed"
    reveal(t.campaign, t.gm, secret.pk)
    assert event_data(struck, PLAYERS)["kind"] == "void"


def test_a_hitch_bought_from_a_blind_roll_shows_its_dice_only_once_revealed(table_for, faces):
    t = table_for("cortex_slots")
    t.start_scene()
    pool = [
        {"die": "d4", "trait": "Agility", "group": "attributes"},
        {"die": "d4", "trait": "Ex-Marine", "group": "distinctions"},
        {"die": "d4", "trait": "Shoot", "group": "skills"},
    ]
    faces.queue.extend([3, 1, 4])
    blind = t.perform(t.player, "roll", {"pool": pool}, sheet_id=t.pc.pk, visibility="blind")
    hitch = next(i for i, d in enumerate(blind.outcome["dice"]) if d["hitch"])
    bought = t.perform(t.gm, "buy_hitch", {"index": hitch, "table": {"roll": blind.seq}})
    assert bought.request["dice"] == blind.outcome["dice"]  # the blind roll's dice
    assert event_data(bought, PLAYERS)["kind"] == "sealed"
    assert "Agility" not in card_html(bought, PLAYERS)
    assert not scene_state(t.campaign, t.player)["state"].get("held_hitches")
    reveal(t.campaign, t.gm, blind.pk)
    assert event_data(bought, PLAYERS)["request"]["dice"] == blind.outcome["dice"]
    assert scene_state(t.campaign, t.player)["state"]["held_hitches"]
