"""What a game keeps for the scene reaches the page through its declarations
(rules.kit.scene): the scene panel shows it in the game's words, with the game's own
partial where it has one, and a More-actions form offers the names the scene keeps of
the kind it asks for. Each character's row shows the dice of the groups the game's sheet
keeps at the table."""

from __future__ import annotations

import html

import pytest
from django.template.loader import select_template
from django.urls import reverse

from rules.registry import SYSTEMS
from table.pages.scene_panel import panel_groups

pytestmark = pytest.mark.django_db


def _panel(client, campaign) -> str:
    return html.unescape(client.get(reverse("table_scene", args=[campaign.pk])).content.decode())


@pytest.mark.parametrize("slug", list(SYSTEMS))
def test_every_partial_a_scene_piece_names_is_there(slug):
    game = SYSTEMS[slug]
    for piece in game.scene:
        if piece.partial:
            assert select_template(game.partials[piece.partial]), (slug, piece.key)
        if piece.label:
            assert piece.partial or piece.lines, (slug, piece.key)


def test_the_trouble_pool_shows_as_the_games_dice_first(table_for, client_for):
    """SMV-9: the Watchtower's dice, as chips, before the rest of the scene."""
    t = table_for("smallville")
    t.start_scene()
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 2}, sheet_id=t.pc.pk)
    panel = _panel(client_for(t.player), t.campaign)
    assert '<dt>Trouble Pool</dt><dd><span class="die-chip">d8</span> </dd>' in panel
    assert panel.index("Trouble Pool") < panel.index("Characters")


def test_tasks_and_chases_show_apart_and_each_form_offers_its_own(table_for, client_for, faces):
    """UNI-11, UNI-13: a task's levels and a chase's lead on the panel; the lengthy task's
    form offers the scene's tasks by name, the chase's form its chases."""
    t = table_for("unisystem")
    t.start_scene()
    t.perform(t.player, "lengthy_task", {"required_levels": 4, "success_levels": 2,
                                         "table": {"task": "Ritual"}}, sheet_id=t.pc.pk)  # fmt: skip
    runner = {"sheet_id": t.pc.pk, "kind": "simple_test", "attribute_name": "Dexterity"}
    chaser = {"sheet_id": t.npc.pk, "kind": "simple_test", "attribute_name": "Dexterity"}
    faces.queue.extend([2, 8])
    t.perform(t.player, "chase", {"lead": 2, "runner": runner, "chaser": chaser,
                                  "table": {"chase": "Alley"}}, sheet_id=t.pc.pk)  # fmt: skip
    client = client_for(t.player)
    panel = _panel(client, t.campaign)
    assert '<dt>Lengthy tasks</dt><dd><ul class="plain"><li>Ritual: 2 / 4</li></ul>' in panel
    assert '<dt>Chases</dt><dd><ul class="plain"><li>Alley: lead 1, turn 1 (running)' in panel

    def form(action: str) -> str:
        url = reverse("table_act_form", args=[t.campaign.pk, action])
        return client.get(url).content.decode()

    task_form, chase_form = form("lengthy_task"), form("chase")
    assert "Task name</label>" in task_form and 'name="table_task"' in task_form
    assert '<option value="Ritual">' in task_form and "Alley" not in task_form
    assert "Chase name</label>" in chase_form and 'name="table_chase"' in chase_form
    assert '<option value="Alley">' in chase_form and "Ritual" not in chase_form


@pytest.mark.parametrize(
    ("slug", "groups"),
    [
        ("serenity", ("stress", "complications")),
        ("smallville", ("stress",)),
        ("cortex_slots", ("conditions",)),
        ("personae", ()),
        ("unisystem", ()),
    ],
)
def test_a_characters_dice_on_the_panel_are_those_the_sheet_keeps_at_the_table(
    slug, groups, table_for
):
    """SER-7, SMV-10, CTX-4: stress, complications and conditions are given at the table,
    so the panel shows them; the traits a player builds on the sheet, never."""
    assert panel_groups(table_for(slug).campaign) == groups


def test_the_panel_shows_a_characters_complication_not_their_assets(table_for, client_for):
    """SER-7: Mal's complication is on the panel's row; his Pistol stays on his sheet."""
    t = table_for("serenity")
    row = _panel(client_for(t.other), t.campaign).split(f'id="char-{t.pc.pk}"')[1]
    row = row.split("</tr>")[0]
    assert "Winged d6" in row and "Pistol" not in row
