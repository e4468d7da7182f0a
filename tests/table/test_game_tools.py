"""The GM's tools and the scene panel's hooks are the games' declarations (their TOOLS,
rules.kit.tools): the table renders them and plays them at the addresses the games
declare, and its own code names none of the actions they play."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import select_template
from django.urls import resolve, reverse

from rules.registry import SYSTEMS
from table.pages import gm as views_gm
from table.pages import scene_panel
from table.pages.action_menu import has_form

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
HX = {"HTTP_HX_REQUEST": "true"}
DECLARED = sorted({name for game in SYSTEMS.values() for name in game.tools.actions()})


def test_the_table_names_no_action_a_game_declares_a_tool_for():
    """The engine asks the declaration: no action a game's tools play is named in table/
    (its code, docstrings, comments and templates; migrations record their own day)."""
    assert {"set_difficulty", "grant_bonus_dice", "contest_start", "contest_roll"} <= set(DECLARED)
    words = re.compile("|".join(re.escape(name) for name in [*DECLARED, "contest_"]))
    offenders = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}"
        for path in sorted((ROOT / "table").rglob("*"))
        if path.suffix in (".py", ".html", ".jinja", ".js") and "migrations" not in path.parts
        for text in [path.read_text(encoding="utf-8")]
        for match in words.finditer(text)
    ]
    assert offenders == []


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_every_declared_tool_plays_an_action_of_the_game_with_a_partial_that_exists(slug):
    game = SYSTEMS[slug]
    assert set(game.tools.actions()) <= set(game.actions)
    for name in game.tools.partials():
        assert select_template(game.partials[name]), (slug, name)
    for tool in game.tools.gm_tools:  # without a partial, the block is the action's form
        assert tool.partial or has_form(game, game.actions[tool.action]), (slug, tool.action)


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_a_declared_address_is_the_tools_own_not_a_fixed_one(slug):
    """A tool's or a box's address reaches its generic view: no fixed URL of the table
    shadows it."""
    tools = SYSTEMS[slug].tools
    for tool in tools.gm_tools:
        if tool.read is not None:
            url = reverse("table_gm_tool", args=[1, tool.path])
            assert resolve(url).func is views_gm.gm_tool, url
    if tools.panel is not None:
        url = reverse("table_panel_move", args=[1, tools.panel.address])
        assert resolve(url).func is scene_panel.panel_move, url


def test_the_contests_keep_their_addresses(table_for):
    """The names the contests' forms had before the games declared them reach the same
    views at the same paths."""
    c = table_for("serenity").campaign.pk
    assert reverse("table_gm_contest", args=[c]) == reverse("table_gm_tool", args=[c, "contest"])
    assert reverse("table_contest", args=[c]) == reverse("table_panel_move", args=[c, "contest"])


def test_an_address_or_a_move_the_game_does_not_declare_is_not_found(table_for, client_for):
    t = table_for("serenity")
    gm, c = client_for(t.gm), t.campaign.pk
    assert gm.post(reverse("table_gm_tool", args=[c, "nothing"]), {}, **HX).status_code == 404
    box = reverse("table_panel_move", args=[c, "contest"])
    assert gm.post(box, {"op": "dance"}, **HX).status_code == 404
    assert gm.post(reverse("table_panel_move", args=[c, "nothing"]), {}).status_code == 404
    assert client_for(t.observer).post(box, {"op": "give_in"}).status_code == 403
    assert (
        client_for(t.player).post(reverse("table_gm_tool", args=[c, "contest"])).status_code == 403
    )


def test_a_game_without_a_box_or_tools_answers_none(table_for, client_for):
    """Personae declares a difficulty and a bonus-dice block (posted to the generic action
    form view), no tool with a form of its own and no panel box."""
    t = table_for("personae")
    gm, c = client_for(t.gm), t.campaign.pk
    assert gm.post(reverse("table_gm_tool", args=[c, "grant_bonus_dice"]), {}).status_code == 404
    assert gm.post(reverse("table_contest", args=[c]), {"op": "give_in"}).status_code == 404
    page = gm.get(reverse("table", args=[c])).content.decode()
    dashboard = page.split('id="gm-h"')[1].split("</section>")[0]
    assert dashboard.index("Set the difficulty") < dashboard.index("Grant bonus dice")
    assert "Open a contest" not in page


def test_the_gm_opens_a_contest_from_its_tool_and_a_player_gives_in_from_the_box(
    table_for, client_for
):
    """SER-6 through the declared tool and box: the dashboard's block posts to the tool's
    address, the box's Give in to the box's."""
    t = table_for("serenity")
    t.start_scene()
    gm, mal, c = client_for(t.gm), client_for(t.player), t.campaign.pk
    page = gm.get(reverse("table", args=[c])).content.decode()
    tool = reverse("table_gm_tool", args=[c, "contest"])
    assert f'hx-post="{tool}"' in page and "Open a contest" in page
    opened = gm.post(
        tool,
        {"a_sheet": t.pc.pk, "a_goal": "win", "b_name": "Thugs", "b_goal": "stop", "first": "0"},
        **HX,
    ).content.decode()
    assert "✓" in opened, opened
    panel = mal.get(reverse("table_scene", args=[c])).content.decode()
    assert "▶ Mal’s turn" in panel and "Give in" in panel
    box = reverse("table_panel_move", args=[c, "contest"])
    assert f'hx-post="{box}"' in panel
    given = mal.post(box, {"op": "give_in"}, **HX).content.decode()
    assert "✓" in given and 'class="contest"' not in given
    record = next(iter(t.state()["contests"].values()))
    assert record["contest"]["status"] == "given_in"
