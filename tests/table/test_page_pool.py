"""The pool builder enforces each system's pool rules as you click (table/pool.py)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from rules.kit.builder import build
from rules.registry import get_system
from sheets.models import Trait
from tests.table.page_fixtures import build_sheet, fresh_cards, ids, make_campaign, table  # noqa: F401

pytestmark = pytest.mark.django_db


def _build(system, sheet, data, **kw):
    traits = list(Trait.objects.filter(sheet=sheet).select_related("parent", "link"))
    return build(
        get_system(system), traits, data, counters={"plot_points": 3}, character=sheet.name, **kw
    )


def _names(pool):
    chosen = {c.id: c.name for _, _, cs in pool.groups for c in cs if c.selected}
    return sorted(chosen[i] for i in pool.selected)


def _sheet(gm, player, observer, system):
    campaign = make_campaign(gm, player, observer, system)
    return build_sheet(campaign, player, system)


def test_ser1_one_stylin_the_clicked_one_wins(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "serenity")
    data = {"trait": ids(t["fightin"], t["finaglin"]), "clicked": str(t["finaglin"].pk)}
    pool = _build("serenity", sheet, data)
    assert _names(pool) == ["Finaglin'"]
    assert any("replaces" in n for n in pool.notes)


def test_ser1_refinements_only_under_the_chosen_stylin(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "serenity")
    data = {"trait": ids(t["fightin"], t["veteran"], t["liar"]), "clicked": ""}
    pool = _build("serenity", sheet, data)
    assert _names(pool) == ["Fightin'", "War Veteran"]
    liar = pool.choice(t["liar"].pk)
    assert liar.note == "only with Finaglin'"


def test_ser1_clicking_a_refinement_brings_its_stylin(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "serenity")
    data = {"trait": ids(t["fightin"], t["liar"]), "clicked": str(t["liar"].pk)}
    pool = _build("serenity", sheet, data)
    assert _names(pool) == ["Finaglin'", "Smooth Liar"]


def test_ser1_at_most_one_value_and_it_can_be_challenged(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "serenity")
    data = {
        "trait": ids(t["fightin"], t["loyalty"], t["freedom"]),
        "clicked": str(t["freedom"].pk),
        "challenged": [str(t["freedom"].pk)],
    }
    pool = _build("serenity", sheet, data)
    assert _names(pool) == ["Fightin'", "Freedom"]
    assert pool.ready
    value = [e for e in pool.request["pool"] if e["group"] == "values"]
    assert value == [{"die": "d6", "trait": "Freedom", "group": "values", "challenged": True}]


def test_ser1_a_pool_without_a_stylin_cannot_roll(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "serenity")
    pool = _build("serenity", sheet, {"trait": ids(t["pistol"])})
    assert not pool.ready
    assert "Stylin'" in pool.errors[0]


def test_ctx1_one_die_from_each_group(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "cortex_slots")
    data = {
        "trait": ids(t["agility"], t["strength"], t["marine"], t["shoot"], t["sneak"]),
        "clicked": str(t["agility"].pk),
    }
    pool = _build("cortex_slots", sheet, data)
    assert _names(pool) == ["Agility", "Ex-Marine", "Shoot", "Sneak"]
    assert pool.ready
    assert {"die": "d12+d6", "trait": "Shoot", "group": "skills"} in pool.request["pool"]
    missing = _build("cortex_slots", sheet, {"trait": ids(t["agility"], t["shoot"])})
    assert not missing.ready and "Distinction" in missing.errors[0]


def test_ctx6_big_hero_die_costs_a_plot_point(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "cortex_slots")
    data = {"trait": ids(t["agility"], t["marine"], t["shoot"]), "big_hero": "1"}
    pool = _build("cortex_slots", sheet, data)
    assert pool.cost == 1
    assert pool.request["big_hero"] == {"die": "d6", "trait": "Big Hero Die"}


def test_smv_free_dice_and_paid_dice_with_the_cost_shown(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "smallville")
    data = {
        "trait": ids(t["justice"], t["lana"], t["chloe"], t["speed"], t["farm"], t["kent"]),
        "clicked": "",
    }
    pool = _build("smallville", sheet, data)
    assert pool.ready, pool.errors
    # SMV-1 the Value and first Relationship free; SMV-3 the first Ability free, then 1 each
    assert pool.cost == 2
    assert pool.choice(t["chloe"].pk).note == "+1 plot point"
    assert pool.choice(t["speed"].pk).note == "free"
    assert pool.request["side_pool"][0]["trait"] == "Kent Farm"


def test_smv_one_value_and_heritage_only_when_about_it(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "smallville")
    data = {"trait": ids(t["justice"], t["truth"], t["lana"]), "clicked": str(t["truth"].pk)}
    pool = _build("smallville", sheet, data)
    assert _names(pool) == ["Lana", "Truth"]
    heritage = pool.choice(t["krypton"].pk)
    assert heritage.disabled and "Heritage" in heritage.note
    about = _build("smallville", sheet, {**data, "heritage_roll": "1"})
    assert not about.choice(t["krypton"].pk).disabled


def test_smv_a_pool_the_character_cannot_afford(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "smallville")
    traits = list(Trait.objects.filter(sheet=sheet))
    data = {
        "trait": ids(t["justice"], t["lana"], t["chloe"], t["speed"], t["farm"]),
        "plot_points": "3",
    }
    pool = build(
        get_system("smallville"), traits, data, counters={"plot_points": 1}, character="Clark"
    )
    assert not pool.ready
    assert "costs 5" in pool.errors[-1]


def test_per1_a_skill_brings_its_attribute(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "personae")
    data = {"trait": ids(t["sword"]), "clicked": str(t["sword"].pk), "difficulty": "9"}
    pool = _build("personae", sheet, data)
    assert _names(pool) == ["Might", "Swordplay"]
    assert pool.request["actor"]["skill"] == 3 and pool.request["actor"]["attribute"] == 4
    assert pool.request["difficulty"] == 9
    other = _build(
        "personae",
        sheet,
        {"trait": ids(t["sword"], t["might"], t["lore"]), "clicked": str(t["lore"].pk)},
    )
    assert _names(other) == ["Lore", "Wits"]


def test_per1_a_players_bonus_dice_and_difficulty_come_from_the_table(gm, player, observer):
    """PER-1: for a player the GM's grant and difficulty replace the typed ones; a secret
    difficulty leaves the number out (the roll goes blind); none set cannot be rolled."""
    sheet, t = _sheet(gm, player, observer, "personae")
    data = {"trait": ids(t["sword"]), "clicked": str(t["sword"].pk), "goal": "Win",
            "bonus_dice": "9", "difficulty": "2"}  # fmt: skip
    held = {"gm": False, "bonus_dice": {"dice": 2, "note": "ambush"}, "difficulty": {"value": 11}}
    pool = _build("personae", sheet, data, table=held)
    assert pool.ready, pool.errors
    assert pool.request["actor"]["bonus_dice"] == 2 and pool.request["difficulty"] == 11
    secret = _build("personae", sheet, data, table={"gm": False, "difficulty": {"secret": True}})
    assert secret.ready and "difficulty" not in secret.request
    assert secret.request["actor"]["bonus_dice"] == 0 and secret.options["secret_difficulty"]
    unset = _build("personae", sheet, data, table={"gm": False})
    assert "has not set a difficulty" in unset.errors[0]


def test_uni4_a_players_difficulty_is_the_gms(gm, player, observer):
    """UNI-4: a player's task takes the GM's preset and value, not the one picked."""
    sheet, t = _sheet(gm, player, observer, "unisystem")
    data = {"trait": ids(t["dex"], t["gun"]), "kind": "task", "difficulty": "easy"}
    shown = {"value": -4, "preset": "very_difficult", "label": "Very Difficult"}
    task = _build("unisystem", sheet, data, table={"gm": False, "difficulty": shown})
    assert task.ready, task.errors
    assert (task.request["difficulty"], task.request["difficulty_modifier"]) == (
        "very_difficult",
        -4,
    )
    assert task.options["difficulty_label"] == "Very Difficult (−4)"
    none = _build("unisystem", sheet, data, table={"gm": False})
    assert "difficulty" not in none.request


def test_uni_kinds_and_presets(gm, player, observer):
    sheet, t = _sheet(gm, player, observer, "unisystem")
    task = _build(
        "unisystem",
        sheet,
        {"trait": ids(t["dex"], t["gun"], t["nerves"]), "kind": "task", "difficulty": "moderate"},
    )
    assert task.ready, task.errors
    assert task.request["attribute"] == 4 and task.request["skill"] == 3
    assert task.request["difficulty"] == "moderate"
    assert task.request["modifiers"] == [{"name": "Nerves of Steel", "value": 2}]
    simple = _build("unisystem", sheet, {"trait": ids(t["str"], t["gun"]), "kind": "simple_test"})
    assert simple.request["kind"] == "simple_test" and "skill" not in simple.request
    assert simple.choice(t["gun"].pk).disabled
    one = _build(
        "unisystem", sheet, {"trait": ids(t["str"], t["dex"]), "clicked": str(t["dex"].pk)}
    )
    assert _names(one) == ["Dexterity"]
    two = _build("unisystem", sheet, {"trait": ids(t["str"], t["dex"]), "kind": "two_attributes"})
    assert two.request["second_attribute"] == 4


def test_the_builder_fragment_enforces_and_shows_odds(table, client_for, player):  # noqa: F811
    campaign, sheet, t = table
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    response = client_for(player).post(
        url,
        {
            "trait": ids(t["fightin"], t["finaglin"], t["veteran"]),
            "clicked": str(t["finaglin"].pk),
            "target": "7",
        },
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert f'value="{t["finaglin"].pk}" checked' in html
    assert f'value="{t["fightin"].pk}" checked' not in html
    assert "War Veteran left the pool" in html
    assert 'role="img"' in html and "to beat 7" in html


def test_a_pool_that_cannot_roll_says_why_once(table, client_for, player):  # noqa: F811
    """SER-1: no Stylin' picked; the builder's status says so, the odds don't repeat it."""
    campaign, sheet, t = table
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    response = client_for(player).post(
        url, {"trait": ids(t["pistol"]), "clicked": str(t["pistol"].pk)}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    errors = re.findall(r'<p class="error"[^>]*>([^<]*)', html)
    assert len(errors) == 1 and "Stylin" in html_lib.unescape(errors[0]), errors
    assert "The odds appear once the pool can be rolled." in html


def test_a_member_without_a_character_is_told_where_to_make_one(gm, player, observer, client_for):
    """A GM is not told to "ask your GM"; both get a link to the sheets page."""
    campaign = make_campaign(gm, player, observer, "serenity")
    sheets_url = reverse("sheet_list", args=[campaign.pk])
    told = {}
    for who in (gm, player):
        page = client_for(who).get(reverse("table", args=[campaign.pk])).content.decode()
        section = re.search(r'<section class="table-pools".*?</section>', page, re.S).group(0)
        assert f'href="{sheets_url}"' in section
        told[who] = html_lib.unescape(re.sub(r"<[^>]+>", "", section))
    assert "GM characters" in told[gm] and "No GM character yet" in told[gm]
    assert "ask your GM" not in told[gm]
    assert "You have no character in this campaign yet" in told[player]
    assert "ask your GM for one" in told[player]


def test_an_untouched_builder_invites_a_pick_rather_than_reporting_an_error(
    table,  # noqa: F811
    client_for,
    player,
):
    """A fresh builder has nothing wrong with it yet: no red "the pool is empty" before
    the player has clicked anything; once a pick leaves the pool unrollable, it says why."""
    campaign, sheet, t = table
    page = client_for(player).get(reverse("table", args=[campaign.pk])).content.decode()
    builder = re.search(rf'id="builder-{sheet.pk}".*?class="pool-roll"', page, re.S).group(0)
    assert "Pick traits above to build the pool." in builder
    assert 'class="error"' not in builder
    url = reverse("table_pool", args=[campaign.pk, sheet.pk])
    picked = client_for(player).post(
        url, {"trait": ids(t["pistol"]), "clicked": str(t["pistol"].pk)}, HTTP_HX_REQUEST="true"
    )
    assert "Pick traits above" not in picked.content.decode()
    assert 'class="error"' in picked.content.decode()
