"""A game that declares only what every game must (no UI, no odds, no scores, no demo, no
template partials) gets working defaults: the registry fills them in, every partial a
page includes has a default, and the pages render with them."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from django.template import engines
from django.template.loader import select_template
from django.urls import reverse

from rules import registry
from rules.kit.errors import RulesError
from rules.kit.game import GameSystem, game_from_package
from rules.kit.odds_queries import NO_ODDS
from rules.kit.sheet import Counter, SheetTemplate, TraitGroup
from rules.kit.tools import NO_TOOLS
from rules.kit.ui import DEFAULT_UI
from tests.test_no_game_names import FILES

ROOT = Path(__file__).resolve().parents[1]


def bare_package() -> ModuleType:
    """A game package with the required names only."""
    package = ModuleType("toy")
    package.SLUG = "toy"
    package.NAME = "Toy"
    package.PREFIX = "TOY"
    package.SOURCE = "tests"
    package.MECHANICS = ()
    package.SHEET_TEMPLATE = SheetTemplate(
        groups=(TraitGroup("knacks", "Knacks", "die", default_die=6),),
        counters=(Counter("plot_points", "Plot points", table_owned=True),),
    )
    package.ACTIONS = {}
    package.DECISIONS = {}
    package.ODDS_DECISIONS = {}
    return package


@pytest.fixture
def toy(monkeypatch) -> GameSystem:
    game = game_from_package(bare_package())
    monkeypatch.setitem(registry.SYSTEMS, game.slug, game)
    return game


def _partials_the_pages_include() -> set[str]:
    """Every partial name an engine template includes through a game's partials."""
    names = set()
    for _, path in FILES:
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"\.partials\.(\w+)", text))
        names |= set(re.findall(r"""game_partials\([^)]*\)\[["']([\w.]+)["']\]""", text))
    return names


def test_the_registry_fills_in_the_defaults():
    game = game_from_package(bare_package())
    assert game.odds is NO_ODDS and game.ui is DEFAULT_UI
    assert game.scores is None and game.demo is None and game.tools is NO_TOOLS
    assert game.partials["pool_options"] == [
        "games/toy/pool_options.html",
        "games/default/pool_options.html",
    ]
    with pytest.raises(RulesError, match="no odds"):
        game.odds.from_fields({"pool": "d8"})


def test_every_partial_a_page_includes_has_a_default():
    names = _partials_the_pages_include()
    assert {"pool_options", "gm_blocks", "sheet_scores", "card_controls.jinja"} <= names
    assert "card_moves.jinja" in names
    game = game_from_package(bare_package())
    for name in names:
        wanted = game.partials[name]
        if name.endswith(".jinja"):
            found = engines["jinja2"].env.select_template(wanted).name
        else:
            found = select_template(wanted).origin.template_name
        assert found == wanted[-1] and (ROOT / "templates" / found).is_file(), name


@pytest.mark.django_db
def test_the_pages_render_a_game_with_no_declarations(toy, gm, player, client_for):
    from campaigns import services
    from campaigns.models import Membership, Role
    from sheets import services as sheet_services

    campaign = services.create_campaign(gm, name="Toys", description="", system=toy.slug)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    sheet = sheet_services.create_sheet(campaign, name="Tin Soldier", kind="pc", owner=player)
    client = client_for(gm)

    response = client.post(
        reverse("table_gm_points", args=[campaign.pk]),
        {"sheet": sheet.pk, "amount": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert "Tin Soldier gets 2 plot points (now 2)." in response.content.decode()

    page = client.get(reverse("table", args=[campaign.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "Give plot points" in text and "Tin Soldier" in text
    assert "Roll opposition" not in text and "Set the difficulty" not in text
    assert 'data-counter="plot_points"' in text  # the table-owned counters, on the panel
    assert "Void" in text  # the card of the points given, with the GM's default buttons

    odds = client.get(reverse("odds", args=[campaign.pk]), {"pool": "d8,d6"})
    assert "There are no odds for this game yet" in odds.content.decode()

    refused = client.post(
        reverse("table_gm_roll", args=[campaign.pk]),
        {"dice": "d8", "visibility": "public"},
        HTTP_HX_REQUEST="true",
    )
    assert "no opposition roll" in refused.content.decode()
    assert client.get(reverse("table_quick", args=[campaign.pk, "trouble"])).status_code == 405
    quick = client.post(reverse("table_quick", args=[campaign.pk, "trouble"]), {"ones": "1"})
    assert quick.status_code == 404

    assert client.get(sheet.get_absolute_url()).status_code == 200
    assert client_for(player).get(reverse("sheet_list", args=[campaign.pk])).status_code == 200


def test_a_game_with_no_ready_check_or_starters_gets_the_defaults_on_the_sheet_pages(
    toy, gm, player, client_for
):
    from campaigns import services
    from campaigns.models import Membership, Role
    from sheets import services as sheet_services

    assert toy.starters == ()
    campaign = services.create_campaign(gm, name="Toys", description="", system=toy.slug)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    client = client_for(player)
    new = client.get(reverse("sheet_create", args=[campaign.pk])).content.decode()
    assert "starter-picker" not in new and "Create sheet" in new
    sheet = sheet_services.create_sheet(campaign, name="Tin Soldier", kind="pc", owner=player)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Not ready to roll yet" in page
    assert "a trait to roll: one of your Knacks with a die or a rating" in page
    sheet_services.add_trait(sheet, "knacks", {"name": "March", "die": "d6"}, {})
    assert "Ready to roll" in client.get(sheet.get_absolute_url()).content.decode()
    steps = client.get(reverse("sheet_guide", args=[campaign.pk, sheet.pk, 1])).content.decode()
    assert "Step 1 of 2: Knacks" in steps
