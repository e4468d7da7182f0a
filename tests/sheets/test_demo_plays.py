"""The demo shows each game at its best: every game's GM can roll opposition (from the
dashboard, or with a GM character where the game's GM side rolls as a character), and
the sheets hold the points and Life Points their games declare, so the first hit in
Unisystem takes a hunter from full Life Points, not from 0."""

import pytest
from django.urls import reverse

from rules.registry import get_system
from sheets.demo import load_demo
from sheets.models import Counter, Sheet
from table.models import TableEvent

pytestmark = pytest.mark.django_db


def counters(sheet):
    return {c.key: c.value for c in Counter.objects.filter(sheet=sheet)}


def test_every_demo_gm_can_roll_opposition(client_for):
    for campaign in load_demo():
        gm = campaign.memberships.get(role="gm").user
        page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
        opposition = get_system(campaign.system).ui.opposition
        from_dashboard = bool(opposition.fields) and not opposition.refusal
        gm_characters = Sheet.objects.filter(campaign=campaign, kind="npc")
        builders = [s for s in gm_characters if f'id="builder-{s.pk}"' in page]
        assert from_dashboard or builders, f"{campaign.system}: the GM has nothing to roll with"
        if from_dashboard:
            assert reverse("table_gm_roll", args=[campaign.pk]) in page, campaign.system


def test_the_personae_gm_rolls_for_the_thief_from_its_builder(client_for):
    campaign = next(c for c in load_demo() if c.system == "personae")
    gm = campaign.memberships.get(role="gm").user
    thief = Sheet.objects.get(campaign=campaign, kind="npc")
    picked = [thief.traits.get(name=n).pk for n in ("Parkour", "Finesse")]
    url = reverse("table_pool_roll", args=[campaign.pk, thief.pk])
    form = {"trait": picked, "goal": "get away with the ledger", "difficulty": "12"}
    client_for(gm).post(url, form, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.get(campaign=campaign)
    assert event.character_id == thief.pk and event.faces


def test_unisystem_hunters_start_with_their_life_and_drama_points():
    """UNI-9: Life Points worked out from Strength and Constitution (the sheet's derived
    counter), full at the start; Drama Points as the demo gives them."""
    campaign = next(c for c in load_demo() if c.system == "unisystem")
    life = get_system("unisystem").sheet_template.counter("life_points")
    for name in ("Malcolm", "Robin", "Cemetery Vampire"):
        sheet = Sheet.objects.get(campaign=campaign, name=name)
        held = counters(sheet)
        expected = life.derive(list(sheet.traits.all()))
        assert held["life_points"] == held["max_life_points"] == expected > 0, name
        if name != "Cemetery Vampire":
            assert held["drama_points"] == 10, name


def test_every_demo_sheet_holds_what_its_game_declares():
    """Plot points, criticals, development: the table starts where the demo says."""
    for campaign in load_demo():
        for demo_sheet in get_system(campaign.system).demo.sheets:
            doc = demo_sheet.document
            held = counters(Sheet.objects.get(campaign=campaign, name=doc["name"]))
            for key, value in doc["counters"].items():
                assert held[key] == value, (campaign.system, doc["name"], key)
