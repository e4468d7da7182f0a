"""Unisystem at the table (UNI-1 … UNI-14): ratings from the sheet, Life Points, the
lengthy-task and chase trackers kept for the scene."""

import pytest

from table.writing.actions import ActionError

pytestmark = pytest.mark.django_db


@pytest.fixture
def t(table_for):
    return table_for("unisystem")


def test_task_reads_ratings_and_qualities_from_the_sheet(t, faces):
    """UNI-1, UNI-4: Dexterity 3 + Sports 2 + Nerves of Steel 2 whatever the client says."""
    faces.queue.extend([5])
    event = t.perform(
        t.player,
        "task",
        {
            "attribute": 30,
            "attribute_name": "Dexterity",
            "skill": 15,
            "skill_name": "Sports",
            "modifiers": [{"name": "Nerves of Steel", "value": 20}],
        },  # fmt: skip
        sheet_id=t.pc.pk,
    )
    assert event.outcome["total"] == 5 + 3 + 2 + 2
    with pytest.raises(ActionError, match="no skill called “Piloting”"):
        t.perform(t.player, "task", {"attribute_name": "Dexterity", "skill_name": "Piloting"},
                  sheet_id=t.pc.pk)  # fmt: skip


def test_lengthy_task_tracker(t, faces):
    """UNI-11: the running sum lives in the scene; the client's copy is ignored; a
    logged roll's total can feed it."""
    t.start_scene()
    t.perform(t.player, "lengthy_task", {"required_levels": 4, "success_levels": 2, "accumulated": 99,
                                         "table": {"task": "Ritual"}}, sheet_id=t.pc.pk)  # fmt: skip
    assert t.state()["trackers"]["lengthy"]["Ritual"]["accumulated"] == 2
    faces.queue.extend([8])
    roll = t.perform(t.player, "task", {"attribute_name": "Intelligence", "skill_name": "Occultism"},
                     sheet_id=t.pc.pk)  # fmt: skip
    assert roll.outcome["total"] == 11  # 2 success levels
    done = t.perform(
        t.player,
        "lengthy_task",
        {"required_levels": 100, "table": {"task": "Ritual", "from_seq": roll.seq}},
        sheet_id=t.pc.pk,
    )
    assert done.request["required_levels"] == 4 and done.request["total"] == 11
    ritual = t.state()["trackers"]["lengthy"]["Ritual"]
    assert (ritual["accumulated"], ritual["rolls_made"], ritual["complete"]) == (4, 2, True)


def test_chase_tracker_until_caught(t, faces):
    """UNI-13: the lead moves one per turn toward the winner; at 0 the runner is caught.
    Both sides are characters, named by sheet (the chaser is the GM's Niska)."""
    t.start_scene()
    runner = {"sheet_id": t.pc.pk, "kind": "simple_test", "attribute_name": "Dexterity"}
    chaser = {"sheet_id": t.npc.pk, "kind": "simple_test", "attribute_name": "Dexterity"}
    request = {"lead": 2, "runner": runner, "chaser": chaser, "table": {"chase": "Alley"}}
    faces.queue.extend([2, 8])
    first = t.perform(t.player, "chase", request, sheet_id=t.pc.pk)
    assert first.request["runner"]["attribute"] == 3
    assert t.state()["trackers"]["chase"]["Alley"]["lead"] == 1
    faces.queue.extend([2, 8])
    t.perform(t.player, "chase", {**request, "lead": 4}, sheet_id=t.pc.pk)
    alley = t.state()["trackers"]["chase"]["Alley"]
    assert (alley["lead"], alley["turn"], alley["status"]) == (0, 2, "caught")


def test_damage_and_healing_change_life_points(t):
    """UNI-9: the GM's damage lowers the target's Life Points; healing stops at the max."""
    t.perform(t.gm, "damage", {"base_damage": 5, "attack_total": 17, "table": {"target": t.pc.pk}})
    assert t.counter(t.pc, "life_points") == 16
    with pytest.raises(ActionError, match="your own characters"):
        t.perform(t.other, "damage", {"base_damage": 5, "success_levels": 1,
                                      "table": {"target": t.pc.pk}})  # fmt: skip
    t.perform(t.player, "heal", {"success_levels": 20}, sheet_id=t.pc.pk)
    assert t.counter(t.pc, "life_points") == 26


def test_working_together_feeds_a_tracker_and_other_actions_log(t, faces):
    """UNI-10, UNI-12, UNI-13, UNI-14, UNI-8: rollers named by sheet take its ratings."""
    t.start_scene()
    faces.queue.extend([9, 9])
    event = t.perform(
        t.player,
        "working_together",
        {
            "mode": "long",
            "required_levels": 6,
            "participants": [
                {"sheet_id": t.pc.pk, "attribute_name": "Intelligence", "skill_name": "Occultism"},
                {
                    "sheet_id": t.other_pc.pk,
                    "attribute_name": "Intelligence",
                    "skill_name": "Occultism",
                },
            ],
            "table": {"task": "Research"},
        },  # fmt: skip
        sheet_id=t.pc.pk,
    )
    assert event.outcome["gained"] == 4
    assert t.state()["trackers"]["lengthy"]["Research"]["accumulated"] == 4
    faces.queue.extend([6])
    fear = t.perform(t.player, "fear_test", {"willpower": 30}, sheet_id=t.pc.pk)
    assert fear.request["willpower"] == 2
    move = t.perform(t.player, "movement", {}, sheet_id=t.pc.pk)
    assert move.outcome["yards_per_second"] == 5
    faces.queue.extend([5])
    t.perform(t.player, "jump", {"jump": "long"}, sheet_id=t.pc.pk)
    faces.queue.extend([5, 5])
    t.perform(t.player, "resisted", {"attacker": {"kind": "simple_test", "attribute_name": "Strength"},
                                     "defender": {"kind": "simple_test", "attribute_name": "Strength"},
                                     "table": {"target": t.npc.pk}}, sheet_id=t.pc.pk)  # fmt: skip
    t.perform(t.gm, "set_difficulty", {"difficulty": "difficult", "difficulty_modifier": -2})
    faces.queue[:] = [7]
    task = t.perform(t.player, "task", {"attribute_name": "Dexterity", "skill_name": "Sports",
                                        "difficulty": "easy"}, sheet_id=t.pc.pk)  # fmt: skip
    assert task.outcome["total"] == 7 + 3 + 2 - 2  # the GM's Difficult −2, not Easy +5
    t.perform(t.gm, "ability_scores", {"strength": 5, "dexterity": 4, "intelligence": 2,
                                       "perception": 2, "willpower": 2})  # fmt: skip
