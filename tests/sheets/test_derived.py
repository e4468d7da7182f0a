"""Counters a game works out from the sheet (Unisystem's Life Points, UNI-9: 10 + 4 ×
(Strength + Constitution)) are filled in when a sheet is made, from a starter or an
import, and follow an edit of the attributes while still full; the GM can still change
them. A player's import keeps them worked out, said in plain words."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from rules.kit.game import game_from_package
from rules.kit.sheet import Counter as CounterSpec
from rules.kit.sheet import SheetTemplate, TraitGroup
from rules.kit.starting import Line
from sheets import services
from sheets.models import Counter, Sheet, Trait
from tests.test_game_defaults import bare_package

from .conftest import text

pytestmark = pytest.mark.django_db


def value(sheet: Sheet, key: str) -> int:
    return Counter.objects.get(sheet=sheet, key=key).value


def test_a_new_unisystem_character_starts_with_life_and_drama_points(
    make_campaign, player, client_for
):
    campaign = make_campaign("unisystem")
    client_for(player).post(reverse("sheet_create", args=[campaign.pk]), {"name": "Willa"})
    sheet = Sheet.objects.get()
    # Every attribute starts at 2: 10 + 4 × (2 + 2).
    assert (value(sheet, "life_points"), value(sheet, "max_life_points")) == (26, 26)
    assert value(sheet, "drama_points") == 10


def test_a_starter_gets_life_points_from_its_attributes(make_campaign, player, client_for):
    campaign = make_campaign("unisystem")
    client_for(player).post(
        reverse("sheet_create", args=[campaign.pk]), {"name": "Faith", "starter": "fighter"}
    )
    sheet = Sheet.objects.get()
    # The fighter: Strength 4, Constitution 3.
    assert (value(sheet, "life_points"), value(sheet, "max_life_points")) == (38, 38)


def test_raising_constitution_raises_full_life_points_but_not_after_damage(
    make_campaign, make_sheet, gm
):
    campaign = make_campaign("unisystem")
    sheet = make_sheet(campaign, "Xander")
    con = Trait.objects.get(sheet=sheet, name="Constitution")
    services.save_trait(sheet, con.pk, {"rating": "4"}, con.version)
    assert (value(sheet, "life_points"), value(sheet, "max_life_points")) == (34, 34)
    # Damage taken (or the GM's own number) stays; the maximum still follows.
    Counter.objects.filter(sheet=sheet, key="life_points").update(value=20)
    con.refresh_from_db()
    services.save_trait(sheet, con.pk, {"rating": "5"}, con.version)
    assert (value(sheet, "life_points"), value(sheet, "max_life_points")) == (20, 38)
    # The GM can still set them.
    counter = Counter.objects.get(sheet=sheet, key="max_life_points")
    services.save_counter(
        sheet, "max_life_points", "40", counter.version, editor=services.Editor(gm, True)
    )
    assert value(sheet, "max_life_points") == 40


def _import(strength: int, constitution: int, **counters) -> str:
    return json.dumps(
        {
            "format": "rollcall-sheet",
            "version": 1,
            "system": "unisystem",
            "name": "Oz",
            "kind": "pc",
            "counters": counters,
            "traits": {
                "attributes": [
                    {"name": "Strength", "rating": strength},
                    {"name": "Constitution", "rating": constitution},
                ]
            },
        }
    )


def test_a_players_import_keeps_life_points_worked_out_in_plain_words(
    make_campaign, player, client_for
):
    campaign = make_campaign("unisystem")
    response = client_for(player).post(
        reverse("sheet_import", args=[campaign.pk]),
        {"text": _import(3, 3, life_points=99, drama_points=10)},
        follow=True,
    )
    sheet = Sheet.objects.get()
    assert (value(sheet, "life_points"), value(sheet, "max_life_points")) == (34, 34)
    assert value(sheet, "drama_points") == 10
    page = text(response)
    assert "Life Points: 34, worked out from the sheet (the file said 99)." in page
    assert "counters." not in page


def test_an_import_without_counters_gets_them_from_the_sheet(make_campaign, player, client_for):
    campaign = make_campaign("unisystem")
    response = client_for(player).post(
        reverse("sheet_import", args=[campaign.pk]), {"text": _import(4, 2)}, follow=True
    )
    sheet = Sheet.objects.get()
    assert (value(sheet, "life_points"), value(sheet, "max_life_points")) == (34, 34)
    assert "worked out" not in text(response)


def test_any_game_can_declare_a_derived_counter():
    """The hook is generic: a toy game's Vigour counter is twice its Body."""
    package = bare_package()
    package.SHEET_TEMPLATE = SheetTemplate(
        groups=(TraitGroup("stats", "Stats", "rating", max_rating=9, fixed_names=("Body",)),),
        counters=(CounterSpec("vigour", "Vigour", derived=lambda traits: 2 * traits[0].rating),),
    )
    game = game_from_package(package)
    assert game.sheet_template.counter("vigour").derive([Line("stats", "Body", rating=4)]) == 8
    assert game.sheet_template.derived_counters() == (game.sheet_template.counter("vigour"),)
