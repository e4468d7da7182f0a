"""Personae at the table (PER-1 … PER-9): criticals banked up to the Potential Threshold,
spent and given; the concerted effort once per scene."""

import html

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.writing.actions import ActionError

pytestmark = pytest.mark.django_db

ACTOR = {"skill_name": "Swordplay", "skill": 10, "attribute": 10, "potential_threshold": 10}


@pytest.fixture
def t(table_for):
    return table_for("personae")


def test_challenge_banks_criticals_up_to_the_threshold(t, faces):
    """PER-1, PER-4: ratings come from the sheet (3 dice, Might 4) and the number to beat
    from the GM (5, not the 50 typed); three nat-10s bank criticals, at most the Potential
    Threshold (here 2), which is also the campaign's bank limit; a clear success won on the
    roll marks development."""
    t.pc.counters.filter(key="criticals").update(value=0)
    t.pc.counters.filter(key="potential_threshold").update(value=2)
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 5})
    faces.queue.extend([10, 10, 10])
    event = t.perform(t.player, "challenge", {"actor": ACTOR, "difficulty": 50, "goal": "Win"},
                      sheet_id=t.pc.pk)  # fmt: skip
    actor = event.request["actor"]
    assert (actor["skill"], actor["attribute"], actor["potential_threshold"]) == (3, 4, 2)
    assert event.request["difficulty"] == 5
    assert event.outcome["criticals"]["banked"] == 2
    assert t.counter(t.pc, "criticals") == 2
    assert t.counter(t.pc, "development") == 1


def test_spend_and_give_criticals(t, faces):
    """PER-6: spending takes one; a gift moves criticals between the two sheets, never
    more than the giver holds nor past the receiver's bank limit (their threshold, 3)."""
    t.pc.counters.filter(key="criticals").update(value=3)
    t.other_pc.counters.filter(key="criticals").update(value=2)
    t.perform(t.player, "spend_critical", {"use": "trait_or_benefit", "note": "Second wind"},
              sheet_id=t.pc.pk)  # fmt: skip
    assert t.counter(t.pc, "criticals") == 2
    with pytest.raises(ActionError, match="has only 2 criticals to give"):
        t.perform(t.player, "give_critical", {"count": 3, "table": {"target": t.other_pc.pk}},
                  sheet_id=t.pc.pk)  # fmt: skip
    with pytest.raises(ActionError, match="bank limit of 3"):
        t.perform(t.player, "give_critical", {"count": 2, "table": {"target": t.other_pc.pk}},
                  sheet_id=t.pc.pk)  # fmt: skip
    t.perform(t.player, "give_critical", {"count": 1, "table": {"target": t.other_pc.pk}},
              sheet_id=t.pc.pk)  # fmt: skip
    assert (t.counter(t.pc, "criticals"), t.counter(t.other_pc, "criticals")) == (1, 3)
    with pytest.raises(ActionError, match="your own characters"):
        t.perform(t.player, "give_critical", {"table": {"target": t.pc.pk}}, sheet_id=t.other_pc.pk)


def test_spend_before_rolling_and_steer(t, faces):
    """PER-6: a critical spent before rolling buys a clear success with no dice."""
    t.pc.counters.filter(key="criticals").update(value=1)
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 50, "note": "a sheer cliff"})
    event = t.perform(
        t.player,
        "challenge",
        {"actor": ACTOR, "difficulty": 50, "goal": "Leap", "spend_critical": "before_roll"},
        sheet_id=t.pc.pk,
    )
    assert event.faces == [] and event.outcome["result"] == "clear"
    assert t.counter(t.pc, "criticals") == 0


def test_concerted_effort_once_per_scene(t, faces):
    """PER-8: contributors named by sheet lend their rating; a second effort in the
    same scene is refused; a new scene allows it again."""
    with pytest.raises(ActionError, match="Start a scene first"):
        t.perform(t.player, "concerted_effort", {}, sheet_id=t.pc.pk)
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 5})
    request = {
        "coordinator": {"skill_name": "Swordplay"},
        "contributors": [{"sheet_id": t.other_pc.pk}],
        "goal": "Drive them back",
        "attack": True,
    }
    event = t.perform(t.player, "concerted_effort", request, sheet_id=t.pc.pk)
    assert event.request["contributors"] == [{"name": "Zoe", "rating": 3, "potential_threshold": 3}]
    assert event.outcome["concerted"]["dice_rolled"] == 5
    with pytest.raises(ActionError, match="already made its concerted effort"):
        t.perform(t.player, "concerted_effort", request, sheet_id=t.pc.pk)
    t.start_scene("The shore")
    with pytest.raises(ActionError, match="has not set a difficulty for this scene"):
        t.perform(t.player, "concerted_effort", request, sheet_id=t.pc.pk)
    t.perform(t.gm, "set_difficulty", {"difficulty": 7})
    t.perform(t.player, "concerted_effort", request, sheet_id=t.pc.pk)


def test_granted_bonus_dice_are_rolled_by_the_next_challenge(t, faces):
    """PER-1: the GM grants Mal 2 bonus dice; his next challenge rolls 3 + 2 dice whatever
    bonus dice it asks for, and the one after rolls none."""
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 9})
    grant = t.perform(t.gm, "grant_bonus_dice", {"dice": 2}, sheet_id=t.pc.pk)
    assert grant.headline == "The GM grants Mal 2 bonus dice for the next challenge"
    actor = {"skill_name": "Swordplay", "bonus_dice": 7}
    first = t.perform(t.player, "challenge", {"actor": actor, "goal": "Win"}, sheet_id=t.pc.pk)
    assert (first.request["actor"]["bonus_dice"], len(first.faces)) == (2, 5)
    second = t.perform(t.player, "challenge", {"actor": actor, "goal": "Win"}, sheet_id=t.pc.pk)
    assert (second.request["actor"]["bonus_dice"], len(second.faces)) == (0, 3)


def test_assist_and_extend_are_logged(t):
    """PER-7, PER-9: no state, but logged like every action."""
    t.perform(t.player, "assist", {"primary_actor": "Mal", "assistants": ["Zoe"], "result": "failure"},
              sheet_id=t.pc.pk)  # fmt: skip
    event = t.perform(
        t.player, "extend_challenge", {"goal": "Win", "extended": False}, sheet_id=t.pc.pk
    )
    assert event.seq == 2


def test_the_builder_rolls_against_another_character_and_their_skill(t, faces, client_for):
    """PER-1, PER-5: the player's builder offers another character and the skill they
    resist with; the roll reads the reactor from that sheet, and the reactor's natural 10
    beats the actor."""
    t.start_scene()
    player = client_for(t.player)
    skill = t.trait(t.pc, "skills", "Swordplay")
    form = {
        "trait": [str(skill.pk)],
        "clicked": str(skill.pk),
        "goal": "Disarm her",
        "against": str(t.other_pc.pk),
        "against_skill": "Swordplay",
        "visibility": "public",
    }
    builder = player.post(reverse("table_pool", args=[t.campaign.pk, t.pc.pk]), form,
                          HTTP_HX_REQUEST="true").content.decode()  # fmt: skip
    assert '<select name="against">' in builder and f'value="{t.other_pc.pk}" selected' in builder
    assert "Against Zoe" in html.unescape(builder)
    faces.queue.extend([9, 5, 3, 10, 2, 2])
    player.post(reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk]), form,
                HTTP_HX_REQUEST="true")  # fmt: skip
    event = TableEvent.objects.get(campaign=t.campaign, action="challenge")
    assert event.request["reactor"]["name"] == "Zoe"
    assert event.request["reactor"]["skill"] == 3 and "difficulty" not in event.request
    assert event.outcome["result"] == "failure", event.outcome
