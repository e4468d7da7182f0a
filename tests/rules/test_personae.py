"""Personae v4 (PER-1 … PER-9): what players see on the roll card, from the seed's own examples."""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import personae
from rules.kit.actions import resolve, roll
from rules.kit.errors import FaceError, InvalidRequest, RulesError
from rules.personae.actions import (
    ASSIST,
    CHALLENGE,
    CONCERTED_EFFORT,
    EXTEND_CHALLENGE,
    GIVE_CRITICAL,
    SPEND_CRITICAL,
)
from rules.personae.challenges import compare_pools, concerted_dice_cap
from rules.personae.reading import (
    BANK_FIELDS,
    CRITICAL_TIMINGS,
    CRITICAL_USES,
    GRADES,
    MAX_BONUS_DICE,
    MAX_DIFFICULTY,
    OPPOSITION_FIELDS,
    PLAN_FIELDS,
    SIDE_FIELDS,
)

GOAL = "Strike the cultist with my sword so he sustains injury"


def challenge(
    actor_faces, reactor_faces=None, *, actor=None, reactor=None, difficulty=None, **plan
):
    """Resolve a challenge whose skills match the faces given (one die per face)."""
    request = {
        "actor": {
            "name": "Mara",
            "skill": len(actor_faces),
            "attribute": 0,
            "potential_threshold": 3,
            **(actor or {}),
        },
        "goal": GOAL,
        **plan,
    }
    if difficulty is None:
        request["reactor"] = {
            "name": "Cultist",
            "skill": len(reactor_faces),
            "attribute": 0,
            **(reactor or {}),
        }
    else:
        request["difficulty"] = difficulty
    return resolve(CHALLENGE, request, [*actor_faces, *(reactor_faces or [])])


def concerted(coordinator_faces, reactor_faces, **changes):
    request = {
        "coordinator": {"name": "Mara", "skill": 3, "attribute": 4, "potential_threshold": 3},
        "contributors": [
            {"name": "Bo", "rating": 2, "potential_threshold": 3},
            {"name": "Cy", "rating": 1, "potential_threshold": 4},
        ],
        "reactor": {"name": "Cultist", "skill": len(reactor_faces), "attribute": 3},
        "goal": "Drive the cultists back",
        **changes,
    }
    return resolve(CONCERTED_EFFORT, request, [*coordinator_faces, *reactor_faces])


def roles(outcome, side):
    return [(d["face"], d["role"]) for d in outcome["dice"] if d["side"] == side]


# --- PER-1 Challenge ---------------------------------------------------------------------------


def test_per1_highest_die_plus_attribute_and_modifiers_decides():
    outcome = challenge(
        [3, 7], [5], actor={"attribute": 4, "modifiers": 1}, reactor={"attribute": 6}
    )
    assert outcome["comparisons"][0] == {
        "actor_face": 7,
        "actor_total": 12,
        "reactor_face": 5,
        "reactor_total": 11,
    }
    assert outcome["result"] == "clear"
    assert outcome["success"] is True
    assert outcome["explanation"].startswith("Mara 7+5=12 vs Cultist 5+6=11")


def test_per1_higher_reactor_total_means_the_actor_fails():
    outcome = challenge([9], [8], actor={"attribute": 2}, reactor={"attribute": 4})
    assert outcome["result"] == "failure"
    assert outcome["headline"] == "Failure"
    assert outcome["success"] is False


def test_per1_faces_are_drawn_actor_first_then_sorted_high_to_low():
    outcome = challenge([2, 9, 5], [4, 8], actor={"attribute": 1}, reactor={"attribute": 1})
    assert roles(outcome, "actor") == [(9, "compared"), (5, "unused"), (2, "unused")]
    assert roles(outcome, "reactor") == [(8, "compared"), (4, "unused")]
    assert all(d["die"] == "d10" for d in outcome["dice"])


def test_per1_bonus_dice_add_to_the_skill_and_a_zero_skill_still_rolls_one_die():
    request = {
        "actor": {"skill": 2, "bonus_dice": 1, "attribute": 3, "potential_threshold": 2},
        "difficulty": 5,
        "goal": GOAL,
    }
    assert len(resolve(CHALLENGE, request, [1, 2, 3])["dice"]) == 3
    request["actor"] |= {"skill": 0, "bonus_dice": 0}
    outcome = resolve(CHALLENGE, request, [4])
    assert outcome["actor"]["dice"] == 1
    with pytest.raises(FaceError):
        resolve(CHALLENGE, request, [4, 4])


def test_per1_fixed_number_is_beaten_by_a_higher_total():
    assert challenge([8], difficulty=10, actor={"attribute": 3})["result"] == "clear"
    outcome = challenge([6], difficulty=10, actor={"attribute": 3})
    assert outcome["result"] == "failure"
    assert outcome["reactor"] is None
    assert outcome["difficulty"] == 10
    assert outcome["comparisons"][0]["reactor_face"] is None


def test_per1_decision_fixed_number_tie_is_won_by_an_actor_with_another_die():
    outcome = challenge([7, 2], difficulty=10, actor={"attribute": 3})
    assert outcome["result"] == "glancing"
    assert outcome["decided_by"] == "out_of_dice"
    assert roles(outcome, "actor") == [(7, "compared"), (2, "yielded")]
    assert (
        "difficulty 10 has no dice left to yield, so Mara's next die (2) wins the tie"
        in outcome["explanation"]
    )


def test_per1_decision_fixed_number_tie_with_one_die_is_not_broken():
    outcome = challenge([7], difficulty=10, actor={"attribute": 3})
    assert outcome["result"] == "failure"
    assert outcome["decided_by"] == "unbroken_tie"
    assert outcome["headline"] == "Failure — tie not broken"


def test_per1_decision_fixed_number_keeps_the_actors_nat_ten_save():
    outcome = challenge([10], difficulty=15, actor={"attribute": 2})
    assert outcome["result"] == "glancing"
    assert outcome["headline"] == "Glancing success — saved by a nat-10"


# --- PER-2 Ties ---------------------------------------------------------------------------------


def test_per2_tie_yields_to_next_highest_die_with_the_same_attribute_and_modifiers():
    outcome = challenge(
        [9, 7], [8, 5], actor={"attribute": 3, "modifiers": 1}, reactor={"attribute": 5}
    )
    assert [(c["actor_total"], c["reactor_total"]) for c in outcome["comparisons"]] == [
        (13, 13),
        (11, 10),
    ]
    assert outcome["result"] == "glancing"
    assert outcome["decided_by"] == "yielding"
    assert roles(outcome, "actor") == [(9, "compared"), (7, "yielded")]
    assert outcome["explanation"].startswith(
        "Mara 9+4=13 vs Cultist 8+5=13: tie; both yield: Mara 7+4=11 vs Cultist 5+5=10 "
        "— Mara wins by yielding: glancing success."
    )


def test_per2_ties_continue_to_the_third_highest_die():
    outcome = challenge([8, 6, 5], [8, 6, 4])
    assert len(outcome["comparisons"]) == 3
    assert outcome["result"] == "glancing"


def test_per2_seed_example_three_dice_beat_two_when_both_top_dice_tie():
    """The seed: 3 dice against 2, highest and 2nd-highest tied: the actor yields, the reactor cannot."""
    outcome = challenge([8, 6, 3], [8, 6], actor={"attribute": 2}, reactor={"attribute": 2})
    assert outcome["result"] == "glancing"
    assert outcome["decided_by"] == "out_of_dice"
    assert roles(outcome, "actor")[2] == (3, "yielded")
    assert (
        "Cultist has no dice left to yield, so Mara's next die (3) wins the tie"
        in outcome["explanation"]
    )


def test_per2_actor_out_of_dice_loses_the_tie():
    outcome = challenge([8, 6], [8, 6, 2])
    assert outcome["result"] == "failure"
    assert outcome["decided_by"] == "out_of_dice"
    assert roles(outcome, "reactor")[2] == (2, "yielded")


def test_per2_both_out_of_dice_together_leave_the_tie_unbroken():
    outcome = challenge([8, 6], [8, 6])
    assert outcome["result"] == "failure"
    assert outcome["decided_by"] == "unbroken_tie"
    assert "both are out of dice, so the tie is not broken" in outcome["explanation"]


def test_per2_compare_pools_on_totals():
    showdown = compare_pools([12, 9, 4], [12, 9])
    assert (showdown.winner, showdown.decided_by, showdown.actor_used) == (
        "actor",
        "out_of_dice",
        3,
    )
    assert compare_pools([12], [12]).winner is None


# --- PER-3 Clear and glancing success --------------------------------------------------------


def test_per3_clear_success_is_won_on_the_first_comparison_and_marked_for_development():
    outcome = challenge([9], [3])
    assert outcome["result"] == "clear"
    assert outcome["development_marked"] is True
    assert "marks a clear success toward development" in outcome["explanation"]


def test_per3_glancing_success_is_won_by_yielding_and_not_marked():
    outcome = challenge([9, 7], [9, 3])
    assert outcome["headline"] == "Glancing success — won by yielding"
    assert outcome["development_marked"] is False


# --- PER-4 Actor's nat-10s --------------------------------------------------------------------


def test_per4_nat_ten_exceeding_the_opponent_banks_at_least_one_critical():
    outcome = challenge([10, 4], [8], actor={"attribute": 2}, reactor={"attribute": 2})
    assert outcome["headline"] == "Clear success — 1 critical banked"
    assert outcome["criticals"] == {
        "before": 0,
        "banked": 1,
        "spent": 0,
        "after": 1,
        "potential_threshold": 3,
        "bank_limit": None,
    }


def test_per4_every_nat_ten_beyond_the_first_banks_one_more():
    outcome = challenge([10, 10, 10], [5], actor={"potential_threshold": 5})
    assert outcome["criticals"]["banked"] == 3
    assert outcome["nat_tens"] == {"actor": 3, "reactor": 0}


@pytest.mark.parametrize(
    ("banked_before", "told"),
    [
        (
            0,
            "3 nat-10s bank 2 criticals (bank 0 → 2); 1 lost to the Potential Threshold (2 a roll).",
        ),
        (
            2,
            "3 nat-10s bank 2 criticals (bank 2 → 4); 1 lost to the Potential Threshold (2 a roll).",
        ),
        (
            5,
            "3 nat-10s bank 2 criticals (bank 5 → 7); 1 lost to the Potential Threshold (2 a roll).",
        ),
    ],
    ids=["empty", "at-threshold", "past-threshold"],
)
def test_per4_criticals_banked_in_one_roll_are_capped_by_the_potential_threshold(
    banked_before, told
):
    outcome = challenge(
        [10, 10, 10], [5], actor={"potential_threshold": 2, "criticals": banked_before}
    )
    assert outcome["criticals"]["banked"] == 2
    assert outcome["criticals"]["after"] == banked_before + 2
    assert told in outcome["explanation"]


@pytest.mark.parametrize(
    ("before", "limit", "banked", "told"),
    [
        (0, 5, 3, "3 nat-10s bank 3 criticals (bank 0 → 3 of 5)."),
        (3, 5, 2, "bank 3 → 5 of 5); 1 lost to the campaign's bank limit of 5."),
        (
            5,
            5,
            0,
            "3 nat-10s, but Mara already holds 5 criticals, at the campaign's bank limit of 5",
        ),
        (7, 5, 0, "Mara already holds 7 criticals, past the campaign's bank limit of 5, so none"),
        (2, 0, 0, "already holds 2 criticals, past the campaign's bank limit of 0"),
        (97, None, 2, "bank 97 → 99); 1 lost to the most a sheet records (99)."),
    ],
    ids=["room", "fills", "full", "over", "zero", "sheet"],
)
def test_per6_the_campaigns_bank_limit_caps_what_is_kept(before, limit, banked, told):
    outcome = challenge(
        [10, 10, 10],
        [5],
        actor={"potential_threshold": 4, "criticals": before, "bank_limit": limit},
    )
    assert outcome["result"] == "clear"
    assert outcome["criticals"]["banked"] == banked
    assert outcome["criticals"]["after"] == before + banked
    assert outcome["criticals"]["bank_limit"] == limit
    assert told in outcome["explanation"]


def test_per4_tie_broken_in_the_actors_favour_is_a_clear_success_without_criticals():
    outcome = challenge([10, 6], [9, 4], actor={"attribute": 2}, reactor={"attribute": 3})
    assert outcome["result"] == "clear" and outcome["dice_result"] == "clear"
    assert outcome["decided_by"] == "yielding"
    assert outcome["criticals"]["banked"] == 0
    assert outcome["development_marked"] is True
    assert outcome["headline"] == "Clear success — won by yielding with a nat-10"
    assert (
        "Mara rolled 1 nat-10, so winning by yielding is a clear success, but it banks no "
        "criticals." in outcome["explanation"]
    )


def test_per4_a_nat_ten_and_an_opponent_out_of_dice_is_a_clear_success_without_criticals():
    outcome = challenge([10, 5], [9], reactor={"attribute": 1})
    assert outcome["decided_by"] == "out_of_dice"
    assert outcome["result"] == "clear" and outcome["criticals"]["banked"] == 0
    fixed = challenge([10, 5], difficulty=10)
    assert fixed["result"] == "clear" and fixed["criticals"]["banked"] == 0
    without = challenge([9, 5], difficulty=9)
    assert without["result"] == "glancing"


def test_per4_tie_not_broken_is_a_glancing_success():
    outcome = challenge([10], [9], actor={"attribute": 2}, reactor={"attribute": 3})
    assert outcome["decided_by"] == "unbroken_tie"
    assert outcome["result"] == "glancing"
    assert outcome["criticals"]["banked"] == 0
    assert "Mara rolled 1 nat-10 and cannot fail outright" in outcome["explanation"]


@pytest.mark.parametrize(
    ("actor_faces", "reactor_faces"), [([10], [9, 9]), ([10, 1], [8])], ids=["out", "loss"]
)
def test_per4_actor_with_a_nat_ten_cannot_fail_outright(actor_faces, reactor_faces):
    outcome = challenge(actor_faces, reactor_faces, reactor={"attribute": 5})
    assert outcome["result"] == "glancing"
    assert outcome["headline"] == "Glancing success — saved by a nat-10"


@pytest.mark.parametrize(
    ("actor_attribute", "reactor_attribute"), [(3, 3), (2, 3)], ids=["tie", "loss"]
)
def test_per4_decision_reactor_nat_ten_overrides_ties_and_losses(
    actor_attribute, reactor_attribute
):
    outcome = challenge(
        [10, 9],
        [10],
        actor={"attribute": actor_attribute},
        reactor={"attribute": reactor_attribute},
    )
    assert outcome["result"] == "failure"
    assert "is not saved, because Cultist rolled one too" in outcome["explanation"]


def test_per4_both_nat_tens_actor_still_banks_on_a_clear_win():
    outcome = challenge([10, 10], [10], actor={"attribute": 4}, reactor={"attribute": 3})
    assert outcome["result"] == "clear"
    assert outcome["criticals"]["banked"] == 2


# --- PER-5 Reactor's nat-10 -------------------------------------------------------------------


def test_per5_reactor_nat_ten_makes_the_actor_fail_even_on_a_tie():
    outcome = challenge([9, 8], [10, 2], actor={"attribute": 4}, reactor={"attribute": 3})
    assert outcome["result"] == "failure"
    assert outcome["decided_by"] == "reactor_nat_ten"
    assert outcome["headline"] == "Failure — Cultist's nat-10 holds the tie"
    assert roles(outcome, "actor") == [(9, "compared"), (8, "unused")]
    steered = challenge(
        [9, 8], [10, 2], actor={"attribute": 4}, reactor={"attribute": 3}, assistants=["Bo"]
    )
    assert steered["headline"] == "Glancing success — steered by 1 assistant"


def test_per5_reactor_exceeding_still_wins_and_never_banks_criticals():
    outcome = challenge([3], [10, 10], actor={"criticals": 1})
    assert outcome["result"] == "failure"
    assert outcome["nat_tens"]["reactor"] == 2
    assert outcome["criticals"]["after"] == 1
    assert "potential_threshold" not in outcome["reactor"]


def test_per5_actor_can_still_win_clearly_against_a_reactor_nat_ten():
    assert challenge([9], [10], actor={"attribute": 5})["result"] == "clear"


# --- PER-6 Criticals --------------------------------------------------------------------------


def test_per6_critical_spent_before_rolling_succeeds_without_dice():
    request = {
        "actor": {
            "name": "Mara",
            "skill": 3,
            "attribute": 2,
            "potential_threshold": 3,
            "criticals": 2,
        },
        "reactor": {"skill": 4, "attribute": 6},
        "goal": GOAL,
        "spend_critical": "before_roll",
    }
    outcome = resolve(CHALLENGE, request, [])
    assert outcome["result"] == "clear"
    assert outcome["dice"] == []
    assert outcome["decided_by"] == "automatic_success"
    assert outcome["criticals"]["after"] == 1
    assert outcome["headline"] == "Clear success — bought with a critical"
    assert outcome["success"] is True and outcome["development_marked"] is False
    assert "not marked toward development" in outcome["explanation"]
    with pytest.raises(FaceError):
        resolve(CHALLENGE, request, [5])


def test_per3_per6_an_automatic_success_is_not_marked_even_with_assistants():
    outcome = challenge(
        [], [], actor={"skill": 2, "criticals": 1}, spend_critical="before_roll", assistants=["Bo"]
    )
    assert outcome["result"] == "clear" and outcome["development_marked"] is False


def test_per6_critical_kept_for_after_the_ties_steers_a_failure_to_glancing():
    outcome = challenge([4], [9], actor={"criticals": 1}, spend_critical="if_failed")
    assert outcome["dice_result"] == "failure"
    assert outcome["result"] == "glancing"
    assert outcome["criticals"]["after"] == 0
    assert outcome["steering"] == [
        {"by": "critical", "name": "Mara", "from": "failure", "to": "glancing"}
    ]


def test_per6_critical_kept_for_a_failure_is_not_spent_on_a_success():
    outcome = challenge([9, 7], [9, 3], actor={"criticals": 1}, spend_critical="if_failed")
    assert outcome["result"] == "glancing"
    assert outcome["criticals"]["spent"] == 0


def test_per6_spending_needs_a_banked_critical():
    with pytest.raises(InvalidRequest, match="no criticals banked"):
        challenge([5], [5], spend_critical="before_roll")


def test_per6_spend_critical_action_before_rolling_and_after_ties():
    base = {"name": "Mara", "potential_threshold": 3, "criticals": 2}
    automatic = resolve(SPEND_CRITICAL, base | {"use": "automatic_success"})
    assert (automatic["result"], automatic["criticals"]["after"]) == ("clear", 1)
    assert automatic["development_marked"] is False
    steered = resolve(SPEND_CRITICAL, base | {"use": "steer_failure", "result": "failure"})
    assert steered["result"] == "glancing"
    assert steered["headline"] == "Glancing success — steered by a critical"
    with pytest.raises(InvalidRequest, match="only a failure can be steered"):
        resolve(SPEND_CRITICAL, base | {"use": "steer_failure", "result": "glancing"})
    trait = resolve(SPEND_CRITICAL, base | {"use": "trait_or_benefit", "note": "Riposte"})
    assert trait["result"] is None and trait["note"] == "Riposte"
    with pytest.raises(InvalidRequest, match="say what the critical is spent on"):
        resolve(SPEND_CRITICAL, base | {"use": "trait_or_benefit"})
    with pytest.raises(InvalidRequest, match="no criticals banked"):
        resolve(SPEND_CRITICAL, base | {"criticals": 0, "use": "automatic_success"})
    with pytest.raises(FaceError):
        resolve(SPEND_CRITICAL, base | {"use": "automatic_success"}, [3])


def test_per6_give_critical_moves_criticals_between_banks():
    outcome = resolve(
        GIVE_CRITICAL,
        {
            "giver": {"name": "Mara", "potential_threshold": 3, "criticals": 3},
            "receiver": {"name": "Bo", "potential_threshold": 4, "criticals": 1},
            "count": 2,
        },
    )
    assert outcome["giver"] == {"name": "Mara", "before": 3, "after": 1}
    assert outcome["receiver"]["after"] == 3
    assert outcome["headline"] == "Mara gives Bo 2 criticals"


@pytest.mark.parametrize(
    ("giver", "receiver", "message"),
    [
        ({"criticals": 1}, {}, "Mara has only 1 critical to give"),
        (
            {},
            {"criticals": 2, "bank_limit": 3},
            r"Bo can hold only 1 more \(the campaign's bank limit of 3\); give fewer",
        ),
        ({}, {"criticals": 5, "bank_limit": 3}, "Bo can hold only 0 more"),
        ({}, {"criticals": 98}, r"Bo can hold only 1 more \(the most a sheet records \(99\)\)"),
        ({}, {"name": "mara"}, "cannot give criticals to themself"),
        ({"criticals": 1, "bank_limit": 0}, {}, "Mara has only 1 critical to give"),
    ],
    ids=["too-few", "receiver-limit", "receiver-over-limit", "sheet", "self", "giver-limit"],
)
def test_per6_decision_give_critical_respects_banks_and_the_receivers_limit(
    giver, receiver, message
):
    request = {
        "giver": {"name": "Mara", "potential_threshold": 3, "criticals": 3} | giver,
        "receiver": {"name": "Bo", "potential_threshold": 3, "criticals": 1} | receiver,
        "count": 2,
    }
    with pytest.raises(InvalidRequest, match=message):
        resolve(GIVE_CRITICAL, request)


def test_per6_gifts_go_past_the_threshold_and_up_to_the_receivers_bank_limit():
    outcome = resolve(
        GIVE_CRITICAL,
        {
            "giver": {"name": "Mara", "potential_threshold": 2, "criticals": 6},
            "receiver": {"name": "Bo", "potential_threshold": 2, "criticals": 2, "bank_limit": 6},
            "count": 4,
        },
    )
    assert outcome["giver"]["after"] == 2
    assert outcome["receiver"] == {
        "name": "Bo",
        "before": 2,
        "after": 6,
        "potential_threshold": 2,
        "bank_limit": 6,
    }
    assert outcome["explanation"].endswith("Bo's bank 2 → 6 of 6.")


def test_per6_a_character_holding_more_than_the_threshold_or_limit_is_never_refused():
    actor = {"potential_threshold": 2, "criticals": 6, "bank_limit": 4}
    assert challenge([5], [3], actor=actor)["criticals"]["after"] == 6
    spent = challenge([3], [5], actor=actor, spend_critical="if_failed")
    assert spent["result"] == "glancing" and spent["criticals"]["after"] == 5
    spend = resolve(
        SPEND_CRITICAL,
        {**actor, "use": "trait_or_benefit", "note": "Riposte"},
    )
    assert spend["criticals"]["after"] == 5
    gift = resolve(
        GIVE_CRITICAL,
        {
            "giver": {"name": "Mara", **actor},
            "receiver": {"name": "Bo", **actor, "criticals": 0},
            "count": 4,
        },
    )
    assert (gift["giver"]["after"], gift["receiver"]["after"]) == (2, 4)
    with pytest.raises(InvalidRequest, match="between 0 and 99"):
        challenge([5], [5], actor={"criticals": 100})
    with pytest.raises(InvalidRequest, match="Mara's bank limit must be between 0 and 99"):
        challenge([5], [5], actor={"bank_limit": -1})


# --- PER-7 Assisting --------------------------------------------------------------------------


def test_per7_each_assistant_steers_one_step_failure_to_glancing_to_clear():
    outcome = challenge([3], [9], assistants=["Bo", "Cy", "Dee"])
    assert outcome["dice_result"] == "failure"
    assert outcome["result"] == "clear"
    assert [(s["name"], s["from"], s["to"]) for s in outcome["steering"]] == [
        ("Bo", "failure", "glancing"),
        ("Cy", "glancing", "clear"),
    ]
    assert outcome["headline"] == "Clear success — steered by 2 assistants"
    assert outcome["development_marked"] is True


def test_per7_decision_assistants_steer_before_a_kept_critical_is_needed():
    outcome = challenge(
        [3], [9], actor={"criticals": 1}, assistants=["Bo"], spend_critical="if_failed"
    )
    assert outcome["result"] == "glancing"
    assert outcome["criticals"]["spent"] == 0


def test_per7_assist_action_steers_a_logged_result():
    outcome = resolve(
        ASSIST, {"primary_actor": "Mara", "assistants": ["Bo", "Cy"], "result": "glancing"}
    )
    assert outcome["result"] == "clear"
    assert outcome["result_before"] == "glancing"
    assert "Already a clear success, so Cy cannot steer it further." in outcome["explanation"]


@pytest.mark.parametrize(
    "assistants",
    [["Bo", "bo"], ["Mara"], [], [""], [7]],
    ids=["twice", "self", "none", "blank", "int"],
)
def test_per7_decision_assistants_are_named_once_and_not_the_primary_actor(assistants):
    with pytest.raises(InvalidRequest):
        resolve(
            ASSIST,
            {"primary_actor": "Mara", "assistants": assistants, "result": "failure"},
        )


def test_per7_the_reactor_cannot_assist_the_actor():
    with pytest.raises(InvalidRequest, match="already part of this roll"):
        challenge([3], [9], assistants=["Cultist"])


# --- PER-8 Concerted effort -------------------------------------------------------------------


def test_per8_decision_pool_is_capped_at_the_rounded_down_average_threshold_plus_two():
    # Mara 3 + Bo 2 + Cy 1 = 6 dice wanted; thresholds 3, 3, 4 average 3.33 → cap 5.
    outcome = concerted([7, 9, 2, 4, 1], [8, 5], attack=True)
    assert outcome["concerted"]["dice_pooled"] == 6
    assert outcome["concerted"]["dice_cap"] == 5
    assert outcome["actor"]["dice"] == 5
    assert outcome["explanation"].startswith(
        "Mara coordinates Bo and Cy: 6 dice pooled, capped at 5 (the group's average Potential "
        "Threshold, rounded down, + 2)."
    )
    assert concerted_dice_cap([3, 3, 4]) == 5
    assert concerted_dice_cap([4, 5]) == 6


def test_per8_coordinators_attribute_is_added_and_a_hit_lands_per_participant():
    outcome = concerted([7, 9, 2, 4, 1], [8, 5], attack=True)
    assert outcome["comparisons"][0]["actor_total"] == 13
    assert outcome["hits"] == 3
    assert outcome["headline"] == "Clear success — 3 hits"
    assert outcome["used_this_scene"] is True


def test_per8_decision_a_glancing_attack_still_hits_and_a_failure_does_not():
    glancing = concerted([7, 6, 2, 4, 1], [8, 5], attack=True)
    assert (glancing["result"], glancing["hits"]) == ("glancing", 3)
    failed = concerted([1, 1, 1, 1, 1], [8, 5], attack=True)
    assert (failed["result"], failed["hits"]) == ("failure", 0)
    assert concerted([7, 9, 2, 4, 1], [8, 5])["hits"] == 0


def test_per8_small_pools_are_not_capped_and_unskilled_contributors_still_count():
    outcome = concerted(
        [6, 2],
        [3],
        coordinator={"name": "Mara", "skill": 2, "attribute": 1, "potential_threshold": 3},
        contributors=[{"name": "Bo", "rating": 0, "potential_threshold": 3}],
        attack=True,
    )
    assert outcome["actor"]["dice"] == 2
    assert outcome["hits"] == 2


def test_per8_only_once_per_scene():
    with pytest.raises(InvalidRequest, match="already made its concerted effort this scene"):
        concerted([7, 9, 2, 4, 1], [8, 5], used_this_scene=True)


def test_per8_needs_a_contributor_named_once():
    with pytest.raises(InvalidRequest, match="at least one contributor"):
        concerted([7], [8], contributors=[])
    with pytest.raises(InvalidRequest, match="already part of this roll"):
        concerted(
            [7, 9, 2, 4, 1],
            [8, 5],
            contributors=[{"name": "mara", "rating": 2, "potential_threshold": 3}],
        )


# --- PER-9 Goals ------------------------------------------------------------------------------


def test_per9_challenge_records_the_stated_goal_and_whether_it_is_extended():
    outcome = challenge([9], [3], extended=True)
    assert outcome["goal"] == GOAL
    assert outcome["extended"] is True
    assert challenge([9], [3])["extended"] is None


@pytest.mark.parametrize("goal", ["", "   ", None, 5], ids=["empty", "blank", "null", "int"])
def test_per9_a_challenge_needs_a_goal(goal):
    with pytest.raises(InvalidRequest):
        challenge([9], [3], goal=goal)


def test_per9_extend_challenge_after_the_outcome():
    outcome = resolve(EXTEND_CHALLENGE, EXTEND_CHALLENGE.example)
    assert outcome["headline"] == "Challenge extended"
    assert outcome["next_goal"].startswith("Talk him down")
    over = resolve(EXTEND_CHALLENGE, {"goal": GOAL, "extended": False})
    assert (over["headline"], over["next_goal"]) == ("Challenge over", None)
    with pytest.raises(InvalidRequest, match="state the goal the challenge is extended toward"):
        resolve(EXTEND_CHALLENGE, {"goal": GOAL, "extended": True})
    with pytest.raises(InvalidRequest, match="say whether"):
        resolve(EXTEND_CHALLENGE, {"goal": GOAL})


# --- Validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"actor": {"skill": True, "attribute": 1, "potential_threshold": 3}}, "whole number"),
        ({"actor": {"skill": 11, "attribute": 1, "potential_threshold": 3}}, "between 0 and 10"),
        ({"actor": {"skill": 1, "attribute": 1}}, "Potential Threshold is required"),
        ({"actor": {"skill": 1, "atribute": 1, "potential_threshold": 3}}, "unknown field"),
        ({"difficulty": 12}, "not both"),
        ({"reactor": None}, "must be an object"),
        ({"spend_critical": "later"}, "must be one of"),
        ({"extended": "yes"}, "extended must be true, false"),
        ({"assistants": "Bo"}, "must be a list"),
    ],
)
def test_per1_invalid_requests_are_refused_with_a_readable_message(change, message):
    request = copy.deepcopy(CHALLENGE.example) | change
    with pytest.raises(InvalidRequest, match=message):
        resolve(CHALLENGE, request, list(CHALLENGE.example_faces))


def test_every_action_example_resolves_with_its_example_faces():
    for action in personae.ACTIONS.values():
        outcome = resolve(action, action.example, list(action.example_faces))
        assert outcome["headline"] and outcome["explanation"]
        assert action.schema and set(action.example) <= set(action.schema)
        assert_plain_json(outcome)
    assert resolve(CHALLENGE, CHALLENGE.example, [10, 3, 10, 8, 6])["headline"] == (
        "Clear success — 2 criticals banked"
    )


def test_sheet_template_and_decisions_cover_the_personae_mechanics():
    template = personae.SHEET_TEMPLATE
    assert template.group("skills").link_group == "attributes"
    assert template.group("attributes").kind == "rating"
    assert {c.key for c in template.counters} == {"potential_threshold", "criticals", "development"}
    ids = {m.id for m in personae.MECHANICS}
    assert set(personae.DECISIONS) <= ids
    assert all(
        text.startswith("Decision: ") for texts in personae.DECISIONS.values() for text in texts
    )


def test_every_personae_mechanic_is_named_in_code_and_in_a_test():
    package = Path(personae.__file__).parent
    modules = [
        importlib.import_module(f"rules.personae.{path.stem}")
        for path in package.glob("*.py")
        if path.stem != "mechanics"
    ]
    code_docs = " ".join(
        inspect.getdoc(obj) or ""
        for module in modules
        for obj in [module, *vars(module).values()]
        if inspect.isfunction(obj) or inspect.isclass(obj) or inspect.ismodule(obj)
    )
    test_names = " ".join(
        name.upper().replace("_", "-") for name in globals() if name.startswith("test_")
    )
    for mechanic in personae.MECHANICS:
        assert mechanic.id in code_docs, mechanic.id
        assert re.search(rf"\b{mechanic.id.replace('-', '')}-", test_names), mechanic.id


# --- Review checks, PER-1 … PER-9 -------------------------------------------------------------


def per_challenge(actor, reactor, faces, **request):
    """actor = (skill, attribute, threshold, criticals); reactor = (skill, attribute) or a number."""
    skill, attribute, threshold, criticals = actor
    req = {
        "actor": {
            "skill": skill,
            "attribute": attribute,
            "potential_threshold": threshold,
            "criticals": criticals,
        },
        "goal": "Strike the cultist",
        **request,
    }
    if isinstance(reactor, int):
        req["difficulty"] = reactor
    else:
        req["reactor"] = {"skill": reactor[0], "attribute": reactor[1]}
    return resolve(personae.ACTIONS["challenge"], req, faces)


def test_per1_attribute_and_modifiers_add_to_the_highest_die():
    out = per_challenge((3, 2, 3, 0), (2, 4), [2, 8, 5, 7, 1])  # 8+2=10 vs 7+4=11
    assert out["comparisons"][0]["actor_total"] == 10
    assert out["comparisons"][0]["reactor_total"] == 11
    assert out["result"] == "failure"


def test_per2_ties_yield_to_the_next_die():
    assert per_challenge((2, 3, 3, 0), (2, 3), [8, 6, 8, 5])["result"] == "glancing"
    assert per_challenge((2, 3, 3, 0), (2, 3), [8, 5, 8, 6])["result"] == "failure"
    # 3 dice against 2, two ties: the side with a die left wins
    out = per_challenge((3, 0, 3, 0), (2, 0), [8, 6, 2, 8, 6])
    assert out["result"] == "glancing" and out["decided_by"] == "out_of_dice"
    out = per_challenge((1, 0, 3, 0), (2, 0), [8, 8, 6])
    assert out["result"] == "failure" and out["decided_by"] == "out_of_dice"


def test_per2_both_out_of_dice_leaves_the_tie_unbroken():
    out = per_challenge((2, 3, 3, 0), (2, 3), [8, 6, 8, 6])
    assert out["decided_by"] == "unbroken_tie" and out["result"] == "failure"


def test_per3_only_first_comparison_wins_are_clear_and_marked():
    clear = per_challenge((2, 3, 3, 0), (2, 3), [8, 5, 7, 6])
    assert clear["result"] == "clear" and clear["development_marked"] is True
    glancing = per_challenge((2, 3, 3, 0), (2, 3), [8, 6, 8, 5])
    assert glancing["result"] == "glancing" and glancing["development_marked"] is False


def test_per4_actor_nat10_cannot_fail_outright():
    # a plain loss
    assert per_challenge((2, 0, 3, 0), (2, 3), [10, 2, 9, 8])["result"] == "glancing"
    # a tie broken against the actor by running out of dice
    out = per_challenge((1, 0, 3, 0), (2, 1), [10, 9, 6])
    assert out["decided_by"] == "out_of_dice" and out["result"] == "glancing"
    # an unbroken tie
    out = per_challenge((2, 1, 3, 0), (2, 2), [10, 6, 9, 5])
    assert out["decided_by"] == "unbroken_tie" and out["result"] == "glancing"


def test_per4_clear_success_banks_one_critical_per_nat10():
    out = per_challenge((3, 0, 3, 0), (1, 0), [10, 10, 4, 5])
    assert out["result"] == "clear" and out["criticals"]["banked"] == 2
    # winning by yielding with a nat-10 is a clear success without criticals, and marked
    out = per_challenge((2, 1, 3, 0), (2, 2), [10, 7, 9, 5])
    assert out["success"] is True and out["criticals"]["banked"] == 0
    assert out["result"] == "clear" and out["development_marked"] is True


def test_per4_banking_is_capped_per_roll_by_the_threshold_not_by_the_bank():
    """PER-4: a clear success banks one critical per nat-10 "(at most the Potential
    Threshold)"; PER-6: "The campaign sets how many can be kept". Two nat-10s with a
    threshold of 3 bank 2, whatever the bank already holds."""
    out = per_challenge((2, 0, 3, 2), (1, 0), [10, 10, 4])
    assert out["result"] == "clear"
    assert out["criticals"]["banked"] == 2


def test_per6_campaign_sets_how_many_criticals_are_kept():
    """PER-6: how many criticals can be kept is the campaign's call, so a character holding
    more criticals than their Potential Threshold is a legal state, never refused."""
    out = per_challenge((1, 0, 3, 4), (1, 0), [7, 3])
    assert out["criticals"]["before"] == 4


def test_per4_reactor_nat10_overrides_the_actors_save():
    out = per_challenge((2, 0, 3, 0), (2, 0), [10, 5, 10, 4])
    assert out["result"] == "failure" and out["criticals"]["banked"] == 0


def test_per5_reactor_nat10_makes_the_actor_fail_on_a_tie():
    out = per_challenge((2, 1, 3, 0), (2, 0), [9, 8, 10, 2])  # 10 vs 10, actor could yield 9
    assert out["result"] == "failure"
    won = per_challenge((2, 2, 3, 0), (2, 0), [9, 3, 10, 2])
    assert won["result"] == "clear"
    assert won["criticals"]["banked"] == 0  # the reactor's nat-10 never banks


def test_per6_criticals_steer_failure_to_glancing_only():
    out = per_challenge((1, 0, 3, 1), (2, 0), [3, 9, 2], spend_critical="if_failed")
    assert out["result"] == "glancing" and out["criticals"]["after"] == 0
    kept = per_challenge((1, 0, 3, 1), (2, 0), [9, 3, 2], spend_critical="if_failed")
    assert kept["result"] == "clear" and kept["criticals"]["spent"] == 0
    with pytest.raises(RulesError):
        resolve(
            personae.ACTIONS["spend_critical"],
            {
                "potential_threshold": 3,
                "criticals": 1,
                "use": "steer_failure",
                "result": "glancing",
            },
        )
    before = per_challenge((1, 0, 3, 1), (2, 0), [], spend_critical="before_roll")
    assert before["success"] is True and before["criticals"]["after"] == 0
    assert before["development_marked"] is False  # PER-3: no roll was won


def test_per7_each_assistant_steers_one_step():
    one = per_challenge((1, 0, 3, 0), (2, 0), [3, 9, 2], assistants=["Bo"])
    assert one["result"] == "glancing"
    two = per_challenge((1, 0, 3, 0), (2, 0), [3, 9, 2], assistants=["Bo", "Cy"])
    assert two["result"] == "clear"
    with pytest.raises(RulesError):
        per_challenge((1, 0, 3, 0), (2, 0), [3, 9, 2], assistants=["Bo", "bo"])


def test_per8_concerted_effort_cap_attribute_and_hits():
    request = {
        "coordinator": {"name": "Mara", "skill": 3, "attribute": 4, "potential_threshold": 3},
        "contributors": [
            {"name": "Bo", "rating": 2, "potential_threshold": 3},
            {"name": "Cy", "rating": 1, "potential_threshold": 4},
        ],
        "reactor": {"name": "Cultist", "skill": 2, "attribute": 3},
        "attack": True,
        "goal": "Drive them back",
    }
    out = resolve(personae.ACTIONS["concerted_effort"], request, [7, 9, 2, 4, 1, 8, 5])
    # 6 dice pooled; average threshold 10/3 = 3.33 + 2 -> no more than 5 dice
    assert out["concerted"]["dice_rolled"] == 5
    assert out["comparisons"][0]["actor_total"] == 9 + 4
    assert out["hits"] == 3
    with pytest.raises(RulesError):
        resolve(personae.ACTIONS["concerted_effort"], {**request, "used_this_scene": True}, [])


def test_per9_goal_is_stated_and_extension_recorded():
    with pytest.raises(RulesError):
        per_challenge((1, 0, 3, 0), (1, 0), [5, 4], goal="  ")
    out = resolve(
        personae.ACTIONS["extend_challenge"],
        {"goal": "Strike", "extended": True, "next_goal": "Arrest him"},
    )
    assert out["extended"] is True and out["next_goal"] == "Arrest him"


# --- Invariants and fuzzing -------------------------------------------------------------------


def assert_plain_json(outcome):
    """Only JSON types: a round trip through json gives the same value (tuples would not)."""
    assert json.loads(json.dumps(outcome, allow_nan=False)) == outcome


def side_strategy(*, banks):
    fields = {
        "skill": st.integers(0, 6),
        "bonus_dice": st.integers(0, 2),
        "attribute": st.integers(0, 10),
        "modifiers": st.integers(-5, 5),
    }
    if banks:
        fields["potential_threshold"] = st.integers(1, 10)
    return st.fixed_dictionaries(fields)


def dice_count(side):
    return max(1, side["skill"] + side.get("bonus_dice", 0))


@st.composite
def rolled_challenges(draw):
    actor = draw(side_strategy(banks=True))
    actor["criticals"] = draw(st.integers(0, 12))
    actor["bank_limit"] = draw(st.none() | st.integers(0, 10))
    reactor = draw(side_strategy(banks=False))
    actor_faces = draw(
        st.lists(st.integers(1, 10), min_size=dice_count(actor), max_size=dice_count(actor))
    )
    reactor_faces = draw(
        st.lists(st.integers(1, 10), min_size=dice_count(reactor), max_size=dice_count(reactor))
    )
    assistants = draw(st.lists(st.sampled_from(["Bo", "Cy", "Dee"]), unique=True, max_size=3))
    spend = draw(st.sampled_from(["no", "if_failed"])) if actor["criticals"] else "no"
    request = {
        "actor": actor,
        "reactor": reactor,
        "goal": GOAL,
        "assistants": assistants,
        "spend_critical": spend,
    }
    return request, actor_faces, reactor_faces


@settings(max_examples=150, deadline=None)
@given(rolled_challenges(), st.data())
def test_per4_actor_with_a_nat_ten_never_fails_outright_unless_the_reactor_rolled_one(case, data):
    request, actor_faces, reactor_faces = case
    actor_faces[data.draw(st.integers(0, len(actor_faces) - 1))] = 10
    outcome = resolve(CHALLENGE, request, actor_faces + reactor_faces)
    if 10 not in reactor_faces:
        assert outcome["dice_result"] != "failure"
        assert outcome["result"] != "failure"


@settings(max_examples=150, deadline=None)
@given(rolled_challenges())
def test_per3_per4_per6_per7_outcome_invariants(case):
    request, actor_faces, reactor_faces = case
    outcome = resolve(CHALLENGE, request, actor_faces + reactor_faces)
    criticals = outcome["criticals"]
    grades = GRADES
    assert (
        0
        <= criticals["banked"]
        <= min(outcome["nat_tens"]["actor"], criticals["potential_threshold"])
    )
    assert criticals["after"] == criticals["before"] + criticals["banked"] - criticals["spent"]
    limit = criticals["bank_limit"]
    if limit is not None and criticals["banked"]:
        assert criticals["before"] + criticals["banked"] <= limit
    if criticals["banked"]:
        assert outcome["dice_result"] == "clear" and outcome["decided_by"] == "first_comparison"
    assert grades.index(outcome["result"]) >= grades.index(outcome["dice_result"])
    assert outcome["development_marked"] == (outcome["result"] == "clear")
    assert len(outcome["dice"]) == len(actor_faces) + len(reactor_faces)
    assert [d["role"] for d in outcome["dice"]].count("compared") == 2
    if 10 in reactor_faces and outcome["decided_by"] != "first_comparison":
        assert outcome["dice_result"] == "failure"
    assert_plain_json(outcome)


JSON_KEYS = st.sampled_from(
    sorted(
        {
            *SIDE_FIELDS,
            *BANK_FIELDS,
            *PLAN_FIELDS,
            *OPPOSITION_FIELDS,
            *(key for action in personae.ACTIONS.values() for key in action.schema),
            "rating",
        }
    )
) | st.text(max_size=8)
PLAUSIBLE = (
    st.none()
    | st.booleans()
    | st.integers(-2, 12)
    | st.sampled_from(["Mara", "bo", " ", "", "failure", "glancing", "clear", "before_roll", "d10"])
    | st.sampled_from(CRITICAL_USES + CRITICAL_TIMINGS)
)
JSON_SCALARS = PLAUSIBLE | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(JSON_KEYS, children, max_size=6)
    ),
    max_leaves=25,
)
FACE_LISTS = st.lists(st.integers(1, 10), max_size=30) | st.lists(JSON_SCALARS, max_size=12)

NAMES = ["Mara", "Bo", "Cy", "Dee", "Eve"]
GRADES = list(GRADES)


def random_side(rng, name, *, banks):
    side = {
        "name": name,
        "skill": rng.randint(0, 10),
        "bonus_dice": rng.randint(0, 3),
        "attribute": rng.randint(0, 10),
        "modifiers": rng.randint(-5, 5),
    }
    if banks:
        side["potential_threshold"] = rng.randint(1, 10)
        side["criticals"] = rng.randint(0, 12)
        if rng.random() < 0.5:
            side["bank_limit"] = rng.randint(0, 12)
    return side


def random_bank_holder(rng, name, *, least=0):
    threshold = rng.randint(max(1, least), 10)
    return {
        "name": name,
        "potential_threshold": threshold,
        "criticals": rng.randint(least, threshold),
    }


def random_rolled_request(rng, action):
    """A valid challenge or concerted effort, against a reactor or a fixed number."""
    actor = random_side(rng, "Mara", banks=True)
    request = {"goal": GOAL, "extended": rng.choice([None, True, False])}
    if rng.random() < 0.8:
        request["reactor"] = random_side(rng, "Cultist", banks=False)
    else:
        request["difficulty"] = rng.randint(1, 25)
    helpers = rng.sample(NAMES[1:], rng.randint(0, 4))
    if action is CONCERTED_EFFORT:
        cut = rng.randint(1, len(helpers)) if helpers else 0
        request["coordinator"] = actor
        request["contributors"] = [
            {"name": n, "rating": rng.randint(0, 5), "potential_threshold": rng.randint(1, 10)}
            for n in helpers[:cut] or ["Zed"]
        ]
        request["attack"] = rng.random() < 0.5
        helpers = helpers[cut:]
    else:
        request["actor"] = actor
    request["assistants"] = helpers
    if actor["criticals"]:
        request["spend_critical"] = rng.choice(["no", "no", "if_failed", "before_roll"])
    return request


def random_spend(rng, action):
    request = random_bank_holder(rng, "Mara", least=1) | {"use": rng.choice(CRITICAL_USES)}
    if request["use"] == "steer_failure":
        request["result"] = "failure"
    if request["use"] == "trait_or_benefit" or rng.random() < 0.3:
        request["note"] = "Riposte"
    return request


def random_gift(rng, action):
    giver = random_bank_holder(rng, "Mara", least=1)
    receiver = random_bank_holder(rng, "Bo")
    while receiver["criticals"] == receiver["potential_threshold"]:
        receiver = random_bank_holder(rng, "Bo")
    if rng.random() < 0.5:
        receiver["bank_limit"] = receiver["potential_threshold"]
    most = min(giver["criticals"], receiver["potential_threshold"] - receiver["criticals"])
    return {"giver": giver, "receiver": receiver, "count": rng.randint(1, most)}


def random_assist(rng, action):
    return {
        "primary_actor": "Mara",
        "assistants": rng.sample(NAMES[1:], rng.randint(1, 4)),
        "result": rng.choice(GRADES),
    }


def random_extension(rng, action):
    extended = rng.random() < 0.5
    return {"goal": GOAL, "extended": extended} | ({"next_goal": "Arrest him"} if extended else {})


def random_grant(rng, action):
    """PER-1: bonus dice the GM grants; 0 withdraws an earlier grant."""
    dice = rng.randint(0, MAX_BONUS_DICE)
    request = {"name": rng.choice(NAMES), "dice": dice}
    if dice == 0 or rng.random() < 0.3:
        request["replaces"] = rng.randint(1, MAX_BONUS_DICE)
    if rng.random() < 0.3:
        request["note"] = "the high ground"
    return request


def random_difficulty(rng, action):
    """PER-1: the number the GM sets for the scene (or a clear), with why."""
    if rng.random() < 0.2:
        return {"clear": True, "note": "the rope is mended"}
    return {"difficulty": rng.randint(1, MAX_DIFFICULTY), "note": "a frayed rope"}


RANDOM_REQUESTS = {
    "challenge": random_rolled_request,
    "concerted_effort": random_rolled_request,
    "spend_critical": random_spend,
    "give_critical": random_gift,
    "assist": random_assist,
    "extend_challenge": random_extension,
    "grant_bonus_dice": random_grant,
    "set_difficulty": random_difficulty,
}


def valid_request(rng, action):
    return RANDOM_REQUESTS[action.name](rng, action)


def containers(value):
    """Every (container, key) inside a JSON-like value, so a mutation can hit any field."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield value, key
            yield from containers(child)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield value, index
            yield from containers(child)


@st.composite
def near_valid_cases(draw, action):
    """A valid request and its faces, with a few fields changed, dropped or added."""
    seed = draw(st.integers(0, 2**32))
    request = valid_request(random.Random(seed), action)
    faces = roll(action, request, random.Random(seed)).faces
    for _ in range(draw(st.integers(0, 2))):
        container, key = draw(st.sampled_from(list(containers(request))))
        how = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if how == "delete":
            del container[key]
        elif how == "add" and isinstance(container, dict):
            container[draw(JSON_KEYS)] = draw(PLAUSIBLE | JSON_VALUES)
        else:
            container[key] = draw(PLAUSIBLE | JSON_VALUES)
    if draw(st.integers(0, 3)) == 0:
        faces = draw(FACE_LISTS | st.just(faces[:-1]) | st.just([*faces, 10]))
    return request, faces


@pytest.mark.parametrize("action", personae.ACTIONS.values(), ids=personae.ACTIONS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_per1_fuzzed_requests_return_an_outcome_or_a_rules_error(action, data):
    request, faces = data.draw(near_valid_cases(action) | st.tuples(JSON_VALUES, FACE_LISTS))
    try:
        outcome = resolve(action, request, faces)
    except RulesError:
        return
    assert isinstance(outcome["headline"], str) and isinstance(outcome["explanation"], str)
    assert_plain_json(outcome)


def test_per1_replay_10000_random_rolls_resolve_again_to_the_same_outcome():
    rng = random.Random(20240604)
    actions = list(personae.ACTIONS.values())
    rolling = [CHALLENGE, CHALLENGE, CONCERTED_EFFORT]
    for _ in range(10_000):
        action = rng.choice(rolling if rng.random() < 0.9 else actions)
        request = valid_request(rng, action)
        rolled = roll(action, request, rng)
        assert resolve(action, request, rolled.faces) == rolled.outcome
