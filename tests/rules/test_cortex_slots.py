"""Cortex with Total and Effect slots (CTX-1 … CTX-9): what a player sees at the table."""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import cortex_slots
from rules.cortex_slots.rolls import SPEND_KINDS, RolledDie, Split, _placed, best_split, tally
from rules.cortex_slots.sheet import NPC_KINDS, ROLLER_KINDS
from rules.kit.actions import resolve, roll
from rules.kit.dice import Die
from rules.kit.errors import InvalidDie, RulesError

ACTIONS = cortex_slots.ACTIONS
SIZE_NAMES = ("d4", "d6", "d8", "d10", "d12")


def die(spec: str, group: str, trait: str = "") -> dict:
    return {"die": spec, "trait": trait, "group": group}


def basic_pool(attribute="d8", distinction="d8", skill="d10", *extras) -> list[dict]:
    return [
        die(attribute, "attributes", "Agility"),
        die(distinction, "distinctions", "Ex-Marine"),
        die(skill, "skills", "Shoot"),
        *extras,
    ]


def do(action: str, request: dict, faces=()) -> dict:
    return resolve(ACTIONS[action], request, list(faces))


def roll_outcome(faces, pool=None, **fields) -> dict:
    return do("roll", {"pool": pool or basic_pool(), **fields}, faces)


def roles(outcome: dict) -> list[str]:
    return [d["role"] for d in outcome["dice"]]


# --------------------------------------------------------------------------- worked examples


def test_ctx8_worked_example_d12_plus_d6_showing_9_and_1_is_value_10_no_hitch():
    outcome = roll_outcome([3, 2, 9, 1], pool=basic_pool("d4", "d4", "d12+d6"))
    shoot = outcome["dice"][2]
    assert (shoot["die"], shoot["face"], shoot["plus_face"]) == ("d12+d6", 9, 1)
    assert shoot["value"] == 10
    assert shoot["hitch"] is False
    assert outcome["hitches"] == 0
    assert outcome["total"] == 13


def test_ctx2_example_headline_total_15_vs_11_success_effect_d8_6_damage():
    action = ACTIONS["roll"]
    outcome = resolve(action, action.example, list(action.example_faces))
    assert outcome["headline"] == "Total 15 vs 11 — success, effect d8 (6 damage)"
    assert roles(outcome) == ["effect", "bank", "total", "total"]
    assert (outcome["total"], outcome["effect_level"], outcome["damage"]) == (15, "d8", 6)
    assert outcome["success"] is True and outcome["margin"] == 4


def test_ctx9_worked_decision_raising_to_d8_costs_32():
    outcome = do(
        "advance",
        {
            "operation": "raise",
            "advance_points": 32,
            "group": "attributes",
            "trait": "Agility",
            "from": "d6",
            "to": "d8",
        },
    )
    assert outcome["cost"] == 32
    assert outcome["advance_points"] == 0
    assert outcome["to"] == "d8"


# --------------------------------------------------------------------------- CTX-1 pools


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("attributes", "a Cortex roll needs an Attribute die"),
        ("distinctions", "a Cortex roll needs a Distinction die"),
        ("skills", "a Cortex roll needs a Skill die"),
    ],
)
def test_ctx1_pool_needs_an_attribute_a_distinction_and_a_skill(missing, message):
    pool = [d for d in basic_pool() if d["group"] != missing] + [die("d6", "assets")]
    with pytest.raises(RulesError, match=message):
        do("roll", {"pool": pool}, [])


def test_ctx1_extra_dice_come_from_skills_assets_and_talents_only():
    extras = [die("d6", "skills", "Notice"), die("d8", "assets", "Rifle"), die("d4", "talents")]
    outcome = roll_outcome([2, 3, 4, 5, 6, 3], pool=basic_pool("d8", "d8", "d10", *extras))
    assert len(outcome["dice"]) == 6
    for group in ("attributes", "distinctions"):
        with pytest.raises(RulesError, match="only one"):
            do("roll", {"pool": [*basic_pool(), die("d6", group)]}, [])
    with pytest.raises(RulesError, match="must come from"):
        do("roll", {"pool": [*basic_pool(), die("d6", "conditions")]}, [])


def test_ctx1_refuses_bad_dice_with_player_messages():
    with pytest.raises(InvalidDie, match="d14 is not a die size"):
        do("roll", {"pool": basic_pool("d14")}, [])
    with pytest.raises(RulesError, match="pool must be a list"):
        do("roll", {"pool": "d8 d8 d10"}, [])


def test_ctx1_gm_pool_result_is_the_two_highest_non_1_dice():
    outcome = do("gm_pool", {"pool": ["d10", "d8", "d6", "d12"]}, [1, 7, 6, 1])
    assert outcome["result"] == 13
    assert [d["role"] for d in outcome["dice"]] == ["unused", "result", "result", "unused"]
    assert outcome["hitches"] == 2 and outcome["botch"] is False
    assert outcome["headline"] == "Difficulty 13 — 2 hitches the players can buy"


def test_ctx1_gm_pool_with_one_non_1_die_counts_that_die_alone():
    outcome = do("gm_pool", {"pool": ["d10", "d8"]}, [1, 5])
    assert outcome["result"] == 5


def test_ctx1_gm_pool_rolled_in_the_same_action_sets_the_difficulty():
    outcome = roll_outcome([5, 4, 6, 3, 6], difficulty_pool=["d6", "d6"])
    assert outcome["difficulty"] == 9
    assert outcome["difficulty_pool"]["result"] == 9
    assert outcome["total"] == 11 and outcome["success"] is True
    with pytest.raises(RulesError, match="not both"):
        roll_outcome([], difficulty=4, difficulty_pool=["d6"])


# --------------------------------------------------------------------------- CTX-2 slots


def test_ctx2_a_tie_with_the_difficulty_fails():
    outcome = roll_outcome([6, 2, 8], difficulty=14)
    assert outcome["total"] == 14
    assert outcome["success"] is False
    assert outcome["headline"] == "Total 14 vs 14 — failure"


def test_ctx2_best_split_prefers_the_larger_effect_die_over_more_damage():
    pool = basic_pool("d8", "d8", "d10", die("d6", "assets", "Rifle"))
    outcome = roll_outcome([7, 2, 8, 6], pool=pool)
    assert outcome["total"] == 15
    assert outcome["effect_level"] == "d8" and outcome["damage"] == 2
    assert roles(outcome) == ["total", "effect", "total", "bank"]


def test_ctx2_ties_put_the_smaller_dice_in_the_total_and_keep_the_larger_banked():
    pool = basic_pool("d8", "d6", "d4", die("d10", "assets"))
    outcome = roll_outcome([4, 4, 4, 3], pool=pool)
    assert (outcome["total"], outcome["effect_level"], outcome["damage"]) == (8, "d10", 3)
    assert roles(outcome) == ["bank", "total", "total", "effect"]


def test_ctx2_the_players_own_split_is_applied():
    split = {"total": [0, 1], "effect": 2}
    outcome = roll_outcome([6, 2, 8], split=split, difficulty=7)
    assert outcome["total"] == 8 and outcome["effect_level"] == "d10" and outcome["damage"] == 8
    assert outcome["success"] is True
    assert outcome["split_is_proposed"] is False
    assert outcome["proposed_split"] == {"total": [0, 2], "effect": 1, "big_hero": None}
    assert "Your split" in outcome["explanation"]


@pytest.mark.parametrize(
    "split",
    [
        {"total": [0, 0], "effect": 2},
        {"total": [0, 1], "effect": 1},
        {"total": [0, 3], "effect": 2},
        {"total": [0], "effect": 2},
        {"total": [True, 1], "effect": 2},
        {"total": [0, 1], "effect": False},
        {"total": [0, 1], "effect": 2, "big_hero": "total"},
        {"total": "0,1", "effect": 2},
        [0, 1, 2],
    ],
)
def test_ctx2_a_players_split_must_name_three_different_dice_of_the_pool(split):
    with pytest.raises(RulesError):
        roll_outcome([6, 2, 8], split=split)


def test_ctx2_a_1_may_sit_in_a_slot_but_adds_nothing_there():
    outcome = roll_outcome([1, 5, 4], difficulty=8)
    assert roles(outcome) == ["effect", "total", "total"]
    assert outcome["effect_level"] == "d4" and outcome["damage"] == 0
    outcome = roll_outcome([1, 1, 4], split={"total": [0, 2], "effect": 1})
    assert outcome["total"] == 4 and outcome["damage"] == 0


# --------------------------------------------------------------------------- CTX-3 the Bank


def rolled_state(faces=(6, 2, 8, 7)) -> list[dict]:
    action = ACTIONS["roll"]
    return resolve(action, action.example, list(faces))["dice"]


def test_ctx3_a_banked_die_in_the_total_is_a_second_wind():
    outcome = do(
        "bank_move",
        {"dice": rolled_state(), "index": 1, "to": "total", "plot_points": 2, "difficulty": 16},
    )
    assert outcome["total"] == 17 and outcome["success"] is True
    assert outcome["plot_points"] == 1
    assert outcome["dice"][1]["role"] == "total" and outcome["dice"][1]["from_bank"] is True
    assert "second wind" in outcome["headline"]


def test_ctx3_a_banked_die_in_the_effect_slot_adds_damage_and_the_larger_size_is_the_level():
    state = rolled_state()
    state[1] = {**state[1], "die": "d12", "face": 5}
    outcome = do("bank_move", {"dice": state, "index": 1, "to": "effect", "plot_points": 1})
    assert outcome["damage"] == 11
    assert outcome["effect_level"] == "d12"
    assert outcome["plot_points"] == 0


def test_ctx3_bank_moves_refuse_without_plot_points_or_banked_dice():
    state = rolled_state()
    with pytest.raises(RulesError, match="no plot point"):
        do("bank_move", {"dice": state, "index": 1, "to": "total", "plot_points": 0})
    with pytest.raises(RulesError, match="not in the Bank"):
        do("bank_move", {"dice": state, "index": 2, "to": "total", "plot_points": 1})
    state[1] = {**state[1], "face": 1}
    with pytest.raises(RulesError, match="adds nothing"):
        do("bank_move", {"dice": state, "index": 1, "to": "total", "plot_points": 1})


def test_ctx3_repeats_while_dice_and_points_last():
    pool = basic_pool("d8", "d8", "d10", die("d6", "assets"), die("d6", "talents"))
    state = roll_outcome([6, 2, 8, 5, 3], pool=pool)["dice"]
    first, second = (i for i, d in enumerate(state) if d["role"] == "bank")
    moved = do("bank_move", {"dice": state, "index": first, "to": "total", "plot_points": 2})
    moved = do(
        "bank_move", {"dice": moved["dice"], "index": second, "to": "effect", "plot_points": 1}
    )
    assert "bank" not in roles(moved)
    assert (moved["total"], moved["damage"], moved["plot_points"]) == (19, 5, 0)


def test_ctx3_a_faked_state_is_refused():
    state = rolled_state()
    state[0] = {**state[0], "face": 9}
    with pytest.raises(RulesError, match="between 1 and 8"):
        do("bank_move", {"dice": state, "index": 1, "to": "total", "plot_points": 1})
    state = rolled_state()
    state[0] = {**state[0], "role": "bank"}
    with pytest.raises(RulesError, match="one in the Effect slot"):
        do("bank_move", {"dice": state, "index": 1, "to": "total", "plot_points": 1})


# --------------------------------------------------------------------------- CTX-4 hitches


def test_ctx4_three_hitches_are_a_botch_and_an_automatic_failure():
    pool = basic_pool("d8", "d8", "d10", die("d12", "assets"), die("d12", "talents"))
    outcome = roll_outcome([1, 1, 1, 12, 12], pool=pool, difficulty=0)
    assert outcome["hitches"] == 3 and outcome["botch"] is True
    assert outcome["total"] == 24 and outcome["success"] is False
    assert outcome["headline"].startswith("Botch!")
    assert "disruption" in outcome["explanation"]
    with pytest.raises(RulesError, match="botched"):
        state = outcome["dice"]
        do("bank_move", {"dice": state, "index": 2, "to": "total", "plot_points": 3})


def test_ctx4_the_gm_buys_a_slot_hitch_player_gains_a_plot_point_die_joins_difficulty():
    state = roll_outcome([1, 5, 4])["dice"]
    outcome = do(
        "buy_hitch", {"buyer": "gm", "dice": state, "index": 0, "plot_points": 2, "scene": "s1"}
    )
    assert outcome["plot_points"] == 3
    assert outcome["held"] == {
        "die": "d8",
        "source": "Agility d8",
        "held_by": "gm",
        "use": "difficulty",
        "scene": "s1",
        "expires": "end_of_scene",
    }
    assert outcome["dice"][0]["bought"] is True and outcome["scene_scoped"] is True
    with pytest.raises(RulesError, match="already been bought"):
        do("buy_hitch", {"buyer": "gm", "dice": outcome["dice"], "index": 0, "plot_points": 3})


def test_ctx4_a_bank_hitch_bought_gives_the_player_a_condition():
    pool = basic_pool("d8", "d8", "d10", die("d6", "assets"))
    state = roll_outcome([5, 4, 6, 1], pool=pool)["dice"]
    assert state[3]["role"] == "bank"
    outcome = do("buy_hitch", {"buyer": "gm", "dice": state, "index": 3, "plot_points": 0})
    assert outcome["held"]["use"] == "condition" and outcome["held"]["die"] == "d6"
    assert outcome["plot_points"] == 1


def test_ctx4_at_most_three_hitches_are_bought_per_roll_and_only_hitches():
    pool = basic_pool("d8", "d8", "d10", die("d6", "assets"), die("d6", "talents"))
    state = roll_outcome([1, 1, 1, 1, 5], pool=pool)["dice"]
    points = 0
    for index in range(3):
        outcome = do(
            "buy_hitch", {"buyer": "gm", "dice": state, "index": index, "plot_points": points}
        )
        state, points = outcome["dice"], outcome["plot_points"]
    assert points == 3 and outcome["bought_this_roll"] == 3
    with pytest.raises(RulesError, match="3 hitches have already been bought"):
        do("buy_hitch", {"buyer": "gm", "dice": state, "index": 3, "plot_points": points})
    with pytest.raises(RulesError, match="is not a hitch"):
        do("buy_hitch", {"buyer": "gm", "dice": rolled_state(), "index": 0, "plot_points": 0})


def test_ctx4_players_buy_the_gms_hitches_and_botches_with_a_plot_point():
    gm = do("gm_pool", {"pool": ["d8", "d8", "d8", "d10"], "roller_kind": "boss"}, [1, 1, 1, 7])
    assert gm["botch"] is True and gm["hitch_buyer"] == "players"
    hitch = do("buy_hitch", {"buyer": "players", "dice": gm["dice"], "index": 0, "plot_points": 1})
    assert hitch["plot_points"] == 0 and hitch["held"]["use"] == "opportunity"
    assert hitch["spend"] == {"kind": "opportunity", "cost": 1}
    botch = do(
        "buy_hitch", {"buyer": "players", "dice": gm["dice"], "botch": True, "plot_points": 2}
    )
    assert botch["held"]["use"] == "disruption" and botch["bought"] == [0, 1, 2]
    with pytest.raises(RulesError, match="was already bought"):
        do(
            "buy_hitch",
            {"buyer": "players", "dice": hitch["dice"], "botch": True, "plot_points": 2},
        )
    with pytest.raises(RulesError, match="no plot point"):
        do("buy_hitch", {"buyer": "players", "dice": gm["dice"], "index": 1, "plot_points": 0})
    with pytest.raises(RulesError, match="automatic failure"):
        do("buy_hitch", {"buyer": "gm", "dice": rolled_state(), "botch": True, "plot_points": 0})


# --------------------------------------------------------------------------- CTX-5 advantages


def raised_for(outcome: dict) -> str | None:
    return outcome["advantage"] and outcome["advantage"]["raises_difficulty_for"]


@pytest.mark.parametrize(
    ("kind", "side"), [("pc", "players"), ("boss", "gm"), ("plot", "gm"), ("mob", None)]
)
def test_ctx5_a_hitch_raises_the_difficulty_for_the_side_that_rolled_it_but_never_for_mobs(
    kind, side
):
    assert raised_for(roll_outcome([1, 5, 4], roller_kind=kind)) == side


@pytest.mark.parametrize(("kind", "side"), [("boss", "gm"), ("plot", "gm"), ("mob", None)])
def test_ctx5_a_gm_pool_hitch_gives_an_advantage_unless_a_mob_rolled_it(kind, side):
    assert raised_for(do("gm_pool", {"pool": ["d6", "d6"], "roller_kind": kind}, [1, 4])) == side


def test_ctx5_no_hitch_no_advantage():
    assert roll_outcome([2, 5, 4])["advantage"] is None


# --------------------------------------------------------------------------- CTX-6 Big Hero Die


def test_ctx6_big_hero_die_1_counts_1_is_not_a_hitch_and_costs_a_plot_point():
    outcome = roll_outcome([6, 2, 8, 1], big_hero="d6", plot_points=2, difficulty=14)
    hero = outcome["dice"][3]
    assert hero["big_hero"] is True and hero["hitch"] is False and hero["value"] == 1
    assert hero["role"] == "total"
    assert outcome["total"] == 15 and outcome["success"] is True
    assert outcome["hitches"] == 0
    assert outcome["plot_points"] == 1
    assert outcome["spends"] == [{"kind": "big_hero_die", "cost": 1, "die": "d6"}]


def test_ctx6_big_hero_die_in_the_effect_slot_adds_damage_and_the_larger_size_is_the_level():
    outcome = roll_outcome([6, 2, 8, 9], big_hero="d12", plot_points=1, difficulty=5)
    assert outcome["split"]["big_hero"] == "effect"
    assert outcome["effect_level"] == "d12" and outcome["damage"] == 11
    chosen = roll_outcome(
        [6, 2, 8, 9],
        big_hero="d12",
        plot_points=1,
        split={"total": [0, 2], "effect": 1, "big_hero": "total"},
    )
    assert chosen["total"] == 23 and chosen["effect_level"] == "d8"


def test_ctx6_big_hero_die_refused_without_a_plot_point_or_for_a_gm_character():
    with pytest.raises(RulesError, match="no plot point"):
        roll_outcome([6, 2, 8, 1], big_hero="d6", plot_points=0)
    with pytest.raises(RulesError, match="how many plot points"):
        roll_outcome([6, 2, 8, 1], big_hero="d6")
    with pytest.raises(RulesError, match="only a player character"):
        roll_outcome([6, 2, 8, 1], big_hero="d6", plot_points=1, roller_kind="boss")


# --------------------------------------------------------------------------- CTX-7 spends


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {"kind": "scene_change", "description": "The lights go out"},
            {"description": "The lights go out"},
        ),
        ({"kind": "opportunity", "target": "difficulty", "die": "d8"}, {"stepped_to": "d6"}),
        ({"kind": "opportunity", "target": "complication", "die": "d4"}, {"stepped_to": None}),
        ({"kind": "step_up_asset", "asset": "Rifle", "die": "d6"}, {"stepped_to": "d8"}),
        ({"kind": "activate_asset", "asset": "Crates", "die": "d6"}, {"expires": "end_of_scene"}),
        ({"kind": "big_hero_die", "die": "d8"}, {"die": "d8"}),
        ({"kind": "scene_asset", "asset": "Smoke"}, {"die": "d6", "expires": "end_of_scene"}),
        ({"kind": "bank_die", "to": "effect"}, {"to": "effect"}),
        ({"kind": "stay_in_fight"}, {"description": ""}),
    ],
)
def test_ctx7_each_plot_point_spend_costs_one_and_is_logged(fields, expected):
    outcome = do("spend_plot_point", {**fields, "plot_points": 3})
    assert (
        outcome["plot_points"] == 2 and outcome["cost"] == 1 and outcome["kind"] == fields["kind"]
    )
    assert expected.items() <= outcome.items()
    assert outcome["headline"].startswith("Plot point spent")
    with pytest.raises(RulesError, match="no plot point"):
        do("spend_plot_point", {**fields, "plot_points": 0})


def test_ctx7_spends_refuse_what_cannot_be_done():
    with pytest.raises(RulesError, match="cannot step up"):
        do(
            "spend_plot_point",
            {"kind": "step_up_asset", "asset": "Rifle", "die": "d12", "plot_points": 1},
        )
    with pytest.raises(RulesError, match="cannot be empty"):
        do("spend_plot_point", {"kind": "scene_change", "description": "  ", "plot_points": 1})
    with pytest.raises(RulesError, match="needs a die size"):
        do("spend_plot_point", {"kind": "opportunity", "target": "difficulty", "plot_points": 1})


# --------------------------------------------------------------------------- CTX-8 compound dice


def test_ctx8_the_d12s_own_1_is_a_hitch_but_the_plus_die_still_adds():
    outcome = roll_outcome([3, 2, 1, 4], pool=basic_pool("d4", "d4", "d12+d6"))
    shoot = outcome["dice"][2]
    assert shoot["hitch"] is True and shoot["value"] == 4
    assert outcome["hitches"] == 1
    assert outcome["total"] == 7


def test_ctx8_a_compound_die_in_the_effect_slot_gives_level_d12_or_its_plus_die_after_a_hitch():
    pool = basic_pool("d10", "d10", "d12+d6")
    outcome = roll_outcome([9, 9, 2, 3], pool=pool)
    assert outcome["dice"][2]["role"] == "effect" and outcome["effect_level"] == "d12"
    outcome = roll_outcome([9, 9, 1, 3], pool=pool)
    assert outcome["dice"][2]["role"] == "effect" and outcome["effect_level"] == "d6"


@pytest.mark.parametrize("group", ["attributes", "distinctions", "skills", "talents", "assets"])
def test_ctx8_every_stat_and_signature_asset_can_be_d12_plus_dn(group):
    pool = [entry for entry in basic_pool("d6", "d6", "d6") if entry["group"] != group]
    pool.append(die("d12+d8", group, "Big"))
    outcome = roll_outcome([2, 3, 4][: len(pool) - 1] + [9, 1], pool=pool)
    big = next(d for d in outcome["dice"] if d["trait"] == "Big")
    assert (big["value"], big["hitch"], outcome["hitches"]) == (10, False, 0)
    assert cortex_slots.SHEET_TEMPLATE.group(group).kind == "die_or_compound"


def test_ctx8_only_a_d12_carries_a_plus_die_and_never_the_big_hero_die():
    with pytest.raises(InvalidDie, match="only a d12"):
        do("roll", {"pool": basic_pool("d8", "d8", "d10+d6")}, [])
    with pytest.raises(InvalidDie, match="not a die size here"):
        roll_outcome([3, 4, 5, 6], big_hero="d12+d6", plot_points=1)


# --------------------------------------------------------------------------- CTX-9 advancement


def advance(**fields) -> dict:
    return do("advance", {"operation": "raise", "advance_points": 100, "trait": "Shoot", **fields})


def test_ctx9_raises_cost_four_times_the_new_die_one_step_at_a_time():
    assert advance(group="skills", **{"from": "d4", "to": "d6"})["cost"] == 24
    assert advance(group="skills", **{"from": "d10", "to": "d12"})["cost"] == 48
    assert advance(group="skills", **{"from": "d12", "to": "d12+d4"})["cost"] == 64
    assert advance(group="skills", **{"from": "d12+d10", "to": "d12+d12"})["cost"] == 96
    with pytest.raises(RulesError, match="only go up one step, from d6 to d8"):
        advance(group="skills", **{"from": "d6", "to": "d10"})
    with pytest.raises(RulesError, match="only go up one step, from d12 to d12\\+d4"):
        advance(group="attributes", **{"from": "d12", "to": "d12"})
    with pytest.raises(RulesError, match="as high as a stat goes"):
        advance(group="skills", **{"from": "d12+d12", "to": "d12+d12"})


@pytest.mark.parametrize("group", ["attributes", "distinctions", "skills", "talents", "assets"])
def test_ctx9_ctx8_every_stat_and_signature_asset_goes_past_d12(group):
    raised = advance(group=group, signature=True, **{"from": "d12", "to": "d12+d4"})
    assert (raised["to"], raised["cost"]) == ("d12+d4", 64)
    raised = advance(group=group, signature=True, **{"from": "d12+d8", "to": "d12+d10"})
    assert raised["cost"] == 88


def test_ctx9_refuses_when_points_are_short_or_the_asset_is_not_a_signature_asset():
    with pytest.raises(RulesError, match="costs 32 advance points; you have 31"):
        advance(group="attributes", advance_points=31, **{"from": "d6", "to": "d8"})
    with pytest.raises(RulesError, match="not a Signature Asset"):
        advance(group="assets", **{"from": "d6", "to": "d8"})
    assert advance(group="assets", signature=True, **{"from": "d6", "to": "d8"})["cost"] == 32


def test_ctx9_session_award_of_1_to_9_plus_milestones():
    outcome = do(
        "advance",
        {
            "operation": "award",
            "advance_points": 10,
            "session_award": 7,
            "milestone_points": 3,
            "milestones": 4,
        },
    )
    assert outcome["advance_points"] == 20 and outcome["earned"] == 10
    assert outcome["milestones"] == 7
    for award in (0, 10, True):
        with pytest.raises(RulesError):
            do("advance", {"operation": "award", "advance_points": 0, "session_award": award})


def test_ctx1_ctx3_ctx7_true_and_false_are_not_numbers():
    with pytest.raises(RulesError, match="whole number"):
        roll_outcome([6, 2, 8], difficulty=True)
    with pytest.raises(RulesError, match="whole number"):
        do("spend_plot_point", {"kind": "stay_in_fight", "plot_points": True})
    state = rolled_state()
    state[0] = {**state[0], "face": True}
    with pytest.raises(RulesError, match="whole number"):
        do("bank_move", {"dice": state, "index": 1, "to": "total", "plot_points": 1})
    with pytest.raises(RulesError, match="not a die size"):
        do("roll", {"pool": basic_pool(True)}, [])


# --------------------------------------------------------------------------- the module's shape


def test_sheet_template_holds_the_ctx_sheet():
    template = cortex_slots.SHEET_TEMPLATE
    for key in ("attributes", "distinctions", "skills", "assets", "talents"):
        assert template.group(key).kind == "die_or_compound"
    for key in ("conditions", "big_hero"):
        assert template.group(key).kind == "die"
    assert template.group("big_hero").max_traits == 1
    assert {c.key for c in template.counters} == {"plot_points", "advance_points", "milestones"}
    assert template.npc_kinds == ("boss", "plot", "mob")
    assert cortex_slots.NAME == "Cortex (Total & Effect)"


def test_decisions_name_ctx_mechanics_and_read_as_decisions():
    ids = {m.id for m in cortex_slots.MECHANICS}
    assert set(cortex_slots.DECISIONS) <= ids
    for texts in cortex_slots.DECISIONS.values():
        assert all(t.startswith("Decision: ") for t in texts)


def test_every_ctx_mechanic_is_named_by_the_code_and_by_a_test():
    package = Path(cortex_slots.__file__).parent
    trees = [ast.parse(p.read_text()) for p in package.glob("*.py") if p.name != "mechanics.py"]
    docstrings = " ".join(
        ast.get_docstring(node) or ""
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Module)
    )
    test_names = " ".join(name for name in globals() if name.startswith("test_"))
    for mechanic in cortex_slots.MECHANICS:
        number = mechanic.id.split("-")[1]
        assert re.search(rf"{mechanic.id}(?!\d)", docstrings), f"no docstring names {mechanic.id}"
        assert re.search(rf"_ctx{number}(?!\d)", test_names), f"no test names {mechanic.id}"


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_action_example_resolves_to_plain_json(name):
    action = ACTIONS[name]
    assert action.schema and action.rules
    outcome = resolve(action, action.example, list(action.example_faces))
    assert json.loads(json.dumps(outcome)) == outcome
    assert outcome["headline"] and outcome["explanation"]
    if action.rolls:
        assert all({"die", "trait", "group", "face", "role"} <= d.keys() for d in outcome["dice"])


# --------------------------------------------------------------------------- random requests


def random_die(rng: random.Random, group: str, trait: str, compound: bool = False) -> dict:
    if compound and rng.random() < 0.25:
        return die(f"d12+{rng.choice(SIZE_NAMES)}", group, trait)
    return die(rng.choice(SIZE_NAMES), group, trait)


def random_roll_request(rng: random.Random) -> dict:
    """A valid CTX roll request of any shape the table can send."""
    pool = [random_die(rng, "attributes", "Agility"), random_die(rng, "distinctions", "Ex-Marine")]
    pool += [random_die(rng, "skills", f"Skill {i}", True) for i in range(rng.randint(1, 3))]
    pool += [
        random_die(rng, rng.choice(("assets", "talents")), f"Extra {i}")
        for i in range(rng.randint(0, 3))
    ]
    rng.shuffle(pool)
    request: dict = {"pool": pool, "roller_kind": rng.choice(ROLLER_KINDS)}
    if request["roller_kind"] == "pc" and rng.random() < 0.3:
        request.update(big_hero=rng.choice(SIZE_NAMES), plot_points=rng.randint(1, 5))
    chance = rng.random()
    if chance < 0.4:
        request["difficulty"] = rng.randint(0, 30)
    elif chance < 0.7:
        request["difficulty_pool"] = [rng.choice(SIZE_NAMES) for _ in range(rng.randint(1, 4))]
        request["difficulty_kind"] = rng.choice(ROLLER_KINDS)
    if rng.random() < 0.3:
        total_a, total_b, effect = rng.sample(range(len(pool)), 3)
        request["split"] = {"total": [total_a, total_b], "effect": effect}
        if "big_hero" in request:
            request["split"]["big_hero"] = rng.choice(("total", "effect"))
    return request


def random_gm_request(rng: random.Random) -> dict:
    pool = [random_die(rng, "difficulty", "", True) for _ in range(rng.randint(1, 5))]
    return {"pool": pool, "roller_kind": rng.choice(NPC_KINDS)}


def random_follow_up(rng: random.Random) -> tuple[str, dict]:
    """A bank move, bought hitch, spend or advance built on a random roll: valid or near it."""
    state = roll(ACTIONS["roll"], random_roll_request(rng), rng).outcome["dice"]
    index = rng.randrange(len(state))
    points = rng.randint(0, 4)
    kind = rng.choice(("bank_move", "buy_hitch", "spend_plot_point", "advance"))
    if kind == "bank_move":
        return kind, {
            "dice": state,
            "index": index,
            "to": rng.choice(("total", "effect")),
            "plot_points": points,
            "difficulty": rng.randint(0, 25),
        }
    if kind == "buy_hitch":
        return kind, {
            "buyer": rng.choice(("gm", "players")),
            "dice": state,
            "index": index,
            "plot_points": points,
            "scene": "scene-1",
        }
    if kind == "spend_plot_point":
        return kind, {
            "kind": rng.choice(list(SPEND_KINDS)),
            "plot_points": points,
            "description": "A door slams",
            "target": "difficulty",
            "asset": "Rope",
            "die": rng.choice(SIZE_NAMES),
            "to": "total",
        }
    size = rng.choice(SIZE_NAMES[:-1])
    return kind, {
        "operation": "raise",
        "advance_points": rng.randint(0, 60),
        "trait": "Shoot",
        "group": "skills",
        "from": size,
        "to": SIZE_NAMES[SIZE_NAMES.index(size) + 1],
    }


# --------------------------------------------------------------------------- invariants


def entry_value(entry: dict) -> int:
    """CTX-4/6/8 restated for the check: a 1 counts only on the Big Hero Die or a plus die."""
    main = entry["face"] if entry["face"] != 1 or entry["big_hero"] else 0
    return main + (entry["plus_face"] or 0)


def entry_level(entry: dict) -> int | None:
    sizes = [int(part) for part in entry["die"].replace("d", "").split("+")]
    if entry["face"] == 1 and not entry["big_hero"]:
        return sizes[1] if len(sizes) == 2 else None
    return sizes[0]


seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=200, deadline=None)
@given(seeds, seeds)
def test_ctx2_ctx4_ctx6_ctx8_slots_never_count_a_1_and_the_effect_die_is_never_in_the_total(
    request_seed, face_seed
):
    request = random_roll_request(random.Random(request_seed))
    request.pop("split", None)
    outcome = roll(ACTIONS["roll"], request, random.Random(face_seed)).outcome
    dice = outcome["dice"]
    pool_dice = [d for d in dice if not d["big_hero"]]
    assert [d["role"] for d in pool_dice].count("total") == 2
    assert [d["role"] for d in pool_dice].count("effect") == 1
    split = outcome["proposed_split"]
    assert split["effect"] not in split["total"]
    assert outcome["total"] == sum(entry_value(d) for d in dice if d["role"] == "total")
    assert outcome["damage"] == sum(entry_value(d) for d in dice if d["role"] == "effect")
    assert outcome["hitches"] == sum(d["face"] == 1 and not d["big_hero"] for d in dice)
    assert outcome["botch"] == (outcome["hitches"] >= 3)
    gm = outcome["difficulty_pool"]
    assert outcome["difficulty_botch"] == (gm is not None and gm["botch"])
    if outcome["botch"]:
        assert outcome["success"] is False
    elif outcome["difficulty_botch"]:
        assert outcome["success"] is True
    elif outcome["difficulty"] is not None:
        assert outcome["success"] == (outcome["total"] > outcome["difficulty"])
    best = max(
        (
            entry_value(pool_dice[a]) + entry_value(pool_dice[b]),
            entry_level(pool_dice[e]) or 4,
            entry_value(pool_dice[e]),
        )
        for a, b in itertools.combinations(range(len(pool_dice)), 2)
        for e in range(len(pool_dice))
        if e not in (a, b)
    )
    proposed = (
        sum(entry_value(pool_dice[i]) for i in split["total"]),
        entry_level(pool_dice[split["effect"]]) or 4,
        entry_value(pool_dice[split["effect"]]),
    )
    assert proposed == best


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_ctx1_ctx4_gm_pool_counts_the_two_highest_non_1_dice(seed):
    rng = random.Random(seed)
    outcome = roll(ACTIONS["gm_pool"], random_gm_request(rng), rng).outcome
    values = sorted((entry_value(d) for d in outcome["dice"]), reverse=True)
    assert outcome["result"] == sum(values[:2])
    assert outcome["hitches"] == sum(d["face"] == 1 for d in outcome["dice"])


# --------------------------------------------------------------------------- fuzz


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, -1, 3, 12, 40, 41, 99, 100]),
    st.text(max_size=12),
    st.sampled_from(
        [
            "d4",
            "d8",
            "d12",
            "d12+d6",
            "d12+d12",
            "d7",
            "d10+d4",
            "total",
            "effect",
            "bank",
            "gm",
            "players",
            "pc",
            "mob",
            "raise",
            "award",
            "opportunity",
        ]
    ),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)


@st.composite
def mutated(draw, value):
    """A copy of `value` with one field somewhere removed or replaced."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        changed = dict(value)
        how = draw(st.integers(0, 2))
        if how == 0:
            del changed[key]
        else:
            changed[key] = draw(json_values) if how == 1 else draw(mutated(value[key]))
        return changed
    if isinstance(value, list) and value and draw(st.booleans()):
        index = draw(st.integers(0, len(value) - 1))
        changed = list(value)
        changed[index] = draw(mutated(value[index]))
        return changed
    return draw(json_values)


@st.composite
def near_valid_calls(draw):
    rng = random.Random(draw(seeds))
    choice = draw(st.sampled_from(("roll", "gm_pool", "follow_up")))
    if choice == "roll":
        name, request = "roll", random_roll_request(rng)
    elif choice == "gm_pool":
        name, request = "gm_pool", random_gm_request(rng)
    else:
        name, request = random_follow_up(rng)
    faces = roll(ACTIONS[name], request, rng).faces if ACTIONS[name].rolls else []
    if draw(st.booleans()):
        request = draw(mutated(request))
    if draw(st.booleans()):
        faces = draw(st.one_of(mutated(faces), st.lists(st.integers(-2, 14), max_size=12)))
    return name, request, faces


def call_is_safe(name: str, request: object, faces: object) -> None:
    try:
        outcome = resolve(ACTIONS[name], request, faces)
    except RulesError as error:
        assert str(error)
        return
    assert json.loads(json.dumps(outcome)) == outcome
    assert isinstance(outcome["headline"], str) and isinstance(outcome["explanation"], str)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(ACTIONS)), json_values, json_values)
def test_fuzz_arbitrary_json_requests_and_faces_only_ever_raise_rules_errors(name, request, faces):
    call_is_safe(name, request, faces)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_valid_calls())
def test_fuzz_near_valid_requests_only_ever_raise_rules_errors(call):
    call_is_safe(*call)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(ACTIONS)), st.lists(st.integers(-2, 14), max_size=20))
def test_fuzz_examples_with_arbitrary_faces_only_ever_raise_rules_errors(name, faces):
    call_is_safe(name, ACTIONS[name].example, faces)


# --------------------------------------------------------------------------- replay


def test_replay_10000_random_rolls_resolve_again_to_the_same_outcome():
    rng = random.Random(20240601)
    for _ in range(10_000):
        name = "roll" if rng.random() < 0.8 else "gm_pool"
        request = random_roll_request(rng) if name == "roll" else random_gm_request(rng)
        rolled = roll(ACTIONS[name], request, rng)
        assert resolve(ACTIONS[name], request, rolled.faces) == rolled.outcome


# --------------------------------------------------------------------------- CTX-2 changing the split


def test_ctx2_resplit_rescores_a_kept_roll_without_rolling():
    state = rolled_state()  # Agility 6, Ex-Marine 2, Shoot 8, Sniper Rifle 7
    outcome = do(
        "resplit", {"dice": state, "split": {"total": [0, 2], "effect": 3}, "difficulty": 11}
    )
    assert (outcome["total"], outcome["effect_level"], outcome["damage"]) == (14, "d8", 7)
    assert outcome["success"] is True and outcome["margin"] == 3
    assert outcome["bank"] == [1] and roles(outcome) == ["total", "bank", "total", "effect"]
    assert outcome["split"] == {"total": [0, 2], "effect": 3, "big_hero": None}
    assert outcome["proposed_split"] == {"total": [2, 3], "effect": 0, "big_hero": None}
    assert outcome["split_is_proposed"] is False
    assert outcome["headline"] == "Split changed — Total 14 vs 11 — success, effect d8 (7 damage)"
    back = do(
        "resplit",
        {"dice": outcome["dice"], "split": outcome["proposed_split"], "difficulty": 11},
    )
    assert back["total"] == 15 and back["split_is_proposed"] is True
    with pytest.raises(RulesError, match="takes no faces"):
        do("resplit", {"dice": state, "split": {"total": [0, 2], "effect": 3}}, [3])


def test_ctx2_ctx4_ctx6_resplit_gives_what_the_roll_gives_with_that_split():
    rng = random.Random(7)
    keys = (
        "dice",
        "total",
        "effect_level",
        "damage",
        "hitches",
        "botch",
        "difficulty",
        "difficulty_botch",
        "success",
        "margin",
        "bank",
        "split",
        "proposed_split",
        "split_is_proposed",
    )
    for _ in range(300):
        request = random_roll_request(rng)
        request.pop("split", None)
        rolled = roll(ACTIONS["roll"], request, rng)
        a, b, e = rng.sample(range(len(request["pool"])), 3)
        split = {"total": [a, b], "effect": e}
        if "big_hero" in request and rng.random() < 0.5:
            split["big_hero"] = rng.choice(("total", "effect"))
        direct = resolve(ACTIONS["roll"], {**request, "split": split}, rolled.faces)
        changed = do(
            "resplit",
            {
                "dice": rolled.outcome["dice"],
                "split": split,
                "difficulty": rolled.outcome["difficulty"],
                "difficulty_botch": rolled.outcome["difficulty_botch"],
            },
        )
        assert {k: changed[k] for k in keys} == {k: direct[k] for k in keys}


@pytest.mark.parametrize(
    ("split", "message"),
    [
        ({"total": [0, 0], "effect": 2}, "die #1 is named twice"),
        ({"total": [0, 1], "effect": 1}, "die #2 is in the Total slot"),
        ({"total": [0, 4], "effect": 2}, "among dice #1 to #4; there is no die #5"),
        ({"total": [0, 1], "effect": 7}, "one of dice #1 to #4; this roll has no die #8"),
        ({"total": [0, 1], "effect": -1}, "this roll has no die #0"),
        ({"total": [0, 1], "effect": True}, "given by its number"),
        ({"total": [0, 1], "effect": 2, "big_hero": "total"}, "no Big Hero Die"),
        ({"total": [0], "effect": 2}, "exactly two dice"),
        (None, "the new split is required"),
        ("0,1,2", "must be an object"),
    ],
)
def test_ctx2_resplit_refuses_invalid_splits_numbering_dice_from_one(split, message):
    with pytest.raises(RulesError, match=message):
        do("resplit", {"dice": rolled_state(), "split": split})


def test_ctx2_ctx6_resplit_places_the_big_hero_die_by_slot_not_by_number():
    rolled = roll_outcome([3, 5, 7, 1], big_hero="d8", plot_points=1, difficulty=12)
    assert rolled["dice"][3]["role"] == "total" and rolled["total"] == 13
    to_effect = do(
        "resplit",
        {
            "dice": rolled["dice"],
            "split": {"total": [1, 2], "effect": 0, "big_hero": "effect"},
            "difficulty": 12,
        },
    )
    assert (to_effect["total"], to_effect["damage"], to_effect["success"]) == (12, 4, False)
    assert to_effect["split"]["big_hero"] == "effect"
    proposed = do(
        "resplit",
        {"dice": to_effect["dice"], "split": {"total": [1, 2], "effect": 0}, "difficulty": 12},
    )
    assert proposed["split"]["big_hero"] == "total" and proposed["total"] == 13
    with pytest.raises(RulesError, match="die #4 is the Big Hero Die"):
        do("resplit", {"dice": rolled["dice"], "split": {"total": [3, 1], "effect": 0}})


def test_ctx2_ctx3_ctx4_the_split_is_settled_once_a_die_moves_or_a_hitch_is_bought():
    moved = do("bank_move", {"dice": rolled_state(), "index": 1, "to": "total", "plot_points": 1})
    with pytest.raises(RulesError, match="die #2 has already moved from the Bank"):
        do("resplit", {"dice": moved["dice"], "split": {"total": [0, 2], "effect": 3}})
    state = roll_outcome([1, 5, 4])["dice"]
    bought = do("buy_hitch", {"buyer": "gm", "dice": state, "index": 0, "plot_points": 0})
    with pytest.raises(RulesError, match="hitch on die #1 has already been bought"):
        do("resplit", {"dice": bought["dice"], "split": {"total": [0, 1], "effect": 2}})


def test_ctx2_ctx3_ctx4_players_see_dice_numbered_from_one():
    with pytest.raises(RulesError, match="no die #4"):
        roll_outcome([6, 2, 8], split={"total": [0, 3], "effect": 1})
    with pytest.raises(RulesError, match="die #3 is in the Total slot"):
        roll_outcome([6, 2, 8], split={"total": [0, 2], "effect": 2})
    with pytest.raises(RulesError, match="the banked die must be one of dice #1 to #4; .* #5"):
        do("bank_move", {"dice": rolled_state(), "index": 4, "to": "total", "plot_points": 1})
    with pytest.raises(RulesError, match="this roll has no die #9"):
        do("buy_hitch", {"buyer": "gm", "dice": rolled_state(), "index": 8, "plot_points": 0})


# --------------------------------------------------------------------------- CTX-4 the GM's botch


def test_ctx4_a_gm_pool_botch_is_an_automatic_failure_of_the_opposition():
    gm = do("gm_pool", {"pool": ["d8", "d8", "d8", "d10"]}, [1, 1, 1, 9])
    assert gm["botch"] is True and gm["automatic_failure"] is True and gm["result"] == 9
    assert gm["headline"] == "Difficulty 9 — a botch: the GM's side fails automatically"
    assert "succeeds unless it botches too" in gm["explanation"]
    gm_pool = ["d8", "d8", "d8", "d10"]
    outcome = roll_outcome([2, 3, 4, 1, 1, 1, 9], difficulty_pool=gm_pool)
    assert (outcome["difficulty"], outcome["total"]) == (9, 7)
    assert outcome["difficulty_botch"] is True and outcome["success"] is True
    assert outcome["headline"].startswith("Total 7 vs 9 — success (the GM's pool botched)")
    assert "automatic failure for the opposition" in outcome["explanation"]
    both = roll_outcome([1, 1, 1, 1, 1, 1, 9], difficulty_pool=gm_pool)
    assert both["botch"] and both["difficulty_botch"] and both["success"] is False
    plain = roll_outcome([2, 3, 4, 1, 5, 1, 9], difficulty_pool=gm_pool)
    assert plain["difficulty_botch"] is False and plain["success"] is False


def test_ctx4_a_separately_rolled_gm_botch_carries_into_the_roll_and_its_follow_ups():
    assert roll_outcome([2, 3, 4], difficulty=9, difficulty_botch=True)["success"] is True
    assert roll_outcome([2, 3, 4], difficulty=9)["success"] is False
    with pytest.raises(RulesError, match="still needs its difficulty"):
        roll_outcome([2, 3, 4], difficulty_botch=True)
    moved = do(
        "bank_move",
        {
            "dice": rolled_state(),
            "index": 1,
            "to": "effect",
            "plot_points": 1,
            "difficulty": 30,
            "difficulty_botch": True,
        },
    )
    assert moved["success"] is True and moved["difficulty_botch"] is True
    assert moved["bank"] == []


def test_ctx4_ctx8_players_buy_a_hitch_on_a_gm_d12_plus_die():
    gm = do("gm_pool", {"pool": ["d12+d6", "d8"]}, [1, 4, 6])
    assert gm["dice"][0]["hitch"] is True and gm["result"] == 10
    bought = do("buy_hitch", {"buyer": "players", "dice": gm["dice"], "index": 0, "plot_points": 1})
    assert bought["held"]["use"] == "opportunity" and bought["bought"] == [0]


# --------------------------------------------------------------------------- review checks, CTX-1 … CTX-9


def ctx_pool(*sizes: str, first_groups: tuple[str, ...] = ("attributes", "distinctions")):
    """An Attribute, a Distinction, then Skills: the smallest legal CTX-1 pool and more."""
    groups = [*first_groups, *["skills"] * len(sizes)]
    return [
        {"die": size, "trait": f"T{i}", "group": group}
        for i, (size, group) in enumerate(zip(sizes, groups, strict=False))
    ]


def ctx_roll(sizes, faces, **request):
    return resolve(ACTIONS["roll"], {"pool": ctx_pool(*sizes), **request}, faces)


def test_ctx1_pool_needs_attribute_distinction_and_skill():
    with pytest.raises(RulesError):
        resolve(ACTIONS["roll"], {"pool": ctx_pool("d6", "d8")}, [3, 4])
    no_skill = [
        {"die": "d6", "group": "attributes"},
        {"die": "d8", "group": "distinctions"},
        {"die": "d8", "group": "assets"},
    ]
    with pytest.raises(RulesError):
        resolve(ACTIONS["roll"], {"pool": no_skill}, [3, 4, 5])
    # extra Skills, Assets and Talents are fine
    pool = ctx_pool("d6", "d8", "d10", "d4") + [
        {"die": "d6", "group": "assets"},
        {"die": "d8", "group": "talents"},
    ]
    assert resolve(ACTIONS["roll"], {"pool": pool}, [1, 2, 3, 4, 5, 6])["total"] == 11


def test_ctx1_gm_pool_result_is_two_highest_non_one_dice():
    out = resolve(ACTIONS["gm_pool"], {"pool": ["d8", "d6", "d6", "d10"]}, [1, 6, 5, 3])
    assert out["result"] == 11
    out = resolve(ACTIONS["gm_pool"], {"pool": ["d8", "d6"]}, [1, 1])
    assert out["result"] == 0
    out = resolve(ACTIONS["gm_pool"], {"pool": ["d8", "d6"]}, [7, 1])
    assert out["result"] == 7


def test_ctx2_success_is_strictly_greater_than_difficulty():
    tie = ctx_roll(("d6", "d8", "d10"), [3, 5, 7], difficulty=12)
    assert tie["total"] == 12 and tie["success"] is False
    win = ctx_roll(("d6", "d8", "d10"), [3, 5, 7], difficulty=11)
    assert win["success"] is True


def test_ctx2_proposed_split_is_highest_total_then_largest_effect():
    """Exhaustive check of the proposal against every legal split, on seeded random pools."""
    rng = random.Random(2024)
    for _ in range(250):
        dice = []
        for _ in range(rng.randint(3, 6)):
            if rng.random() < 0.15:
                die = Die(12, group="skills", plus=rng.choice((4, 6, 8, 10, 12)))
                dice.append(RolledDie(die, rng.randint(1, 12), rng.randint(1, die.plus)))
            else:
                size = rng.choice((4, 6, 8, 10, 12))
                dice.append(RolledDie(Die(size), rng.randint(1, size)))
        proposed = tally(_placed(dice, best_split(dice)), None)
        best = max(
            (s.total, s.effect_level)
            for total in itertools.combinations(range(len(dice)), 2)
            for effect in range(len(dice))
            if effect not in total
            for s in [tally(_placed(dice, Split(total, effect)), None)]
        )
        assert (proposed.total, proposed.effect_level) == best


def test_ctx2_rules_example_equal_faces_keep_larger_die_for_effect():
    # d4=4, d12=4, d6=4, d8=2: total 8 either way; the d12 must be the effect die
    out = ctx_roll(("d4", "d12", "d6", "d8"), [4, 4, 4, 2])
    assert out["total"] == 8 and out["effect_level"] == "d12"


def test_ctx2_player_can_change_the_split_after_seeing_the_dice():
    """CTX-2: the app proposes the best split and lets the player change it before
    confirming, i.e. with the dice showing: a dice-free action re-slots a kept roll."""
    reslot = [
        action
        for action in ACTIONS.values()
        if not action.rolls and "split" in action.schema and "dice" in action.schema
    ]
    assert reslot, "no action lets a player re-split a roll that has already been rolled"
    rolled = ctx_roll(("d6", "d8", "d10"), [3, 5, 7], difficulty=9)
    assert rolled["split"] == {"total": [1, 2], "effect": 0, "big_hero": None}
    changed = resolve(
        reslot[0],
        {"dice": rolled["dice"], "split": {"total": [0, 2], "effect": 1}, "difficulty": 9},
    )
    assert (changed["total"], changed["effect_level"], changed["damage"]) == (10, "d8", 5)
    assert changed["success"] is True and changed["bank"] == []


def test_ctx3_bank_moves_second_wind_and_effect():
    rolled = ctx_roll(("d6", "d8", "d10", "d12", "d4"), [6, 7, 9, 3, 4], difficulty=17)
    assert rolled["total"] == 16 and rolled["success"] is False
    bank = [i for i, d in enumerate(rolled["dice"]) if d["role"] == "bank"]
    d4 = next(i for i in bank if rolled["dice"][i]["die"] == "d4")
    d6 = next(i for i in bank if rolled["dice"][i]["die"] == "d6")
    wind = resolve(
        ACTIONS["bank_move"],
        {"dice": rolled["dice"], "index": d4, "to": "total", "plot_points": 1, "difficulty": 17},
    )
    assert wind["total"] == 20 and wind["success"] is True and wind["plot_points"] == 0
    effect = resolve(
        ACTIONS["bank_move"],
        {"dice": wind["dice"], "index": d6, "to": "effect", "plot_points": 1, "difficulty": 17},
    )
    # faces add for damage (3 + 6), the larger size (d12) stays the level
    assert effect["damage"] == 9 and effect["effect_level"] == "d12"
    with pytest.raises(RulesError):
        resolve(
            ACTIONS["bank_move"],
            {"dice": wind["dice"], "index": d6, "to": "effect", "plot_points": 0},
        )


def test_ctx4_three_hitches_are_a_botch_and_always_fail():
    out = ctx_roll(("d6", "d8", "d10", "d12", "d12"), [1, 1, 1, 12, 12], difficulty=0)
    assert out["hitches"] == 3 and out["botch"] is True
    assert out["total"] == 24 and out["success"] is False


def test_ctx4_gm_buys_slot_hitch_for_difficulty_and_bank_hitch_for_condition():
    rolled = ctx_roll(("d6", "d8", "d10", "d4"), [1, 7, 9, 1], split={"total": [1, 2], "effect": 0})
    slot = resolve(
        ACTIONS["buy_hitch"], {"buyer": "gm", "dice": rolled["dice"], "index": 0, "plot_points": 2}
    )
    assert slot["plot_points"] == 3
    assert slot["held"]["use"] == "difficulty" and slot["held"]["die"] == "d6"
    assert slot["held"]["expires"] == "end_of_scene"
    banked = resolve(
        ACTIONS["buy_hitch"], {"buyer": "gm", "dice": slot["dice"], "index": 3, "plot_points": 3}
    )
    assert banked["held"]["use"] == "condition" and banked["held"]["die"] == "d4"


def test_ctx4_at_most_three_hitches_bought_from_one_roll():
    rolled = ctx_roll(("d6", "d8", "d10", "d12", "d4", "d4"), [1, 1, 9, 1, 1, 3])
    dice, points = rolled["dice"], 0
    hitches = [i for i, d in enumerate(dice) if d["hitch"]]
    assert len(hitches) == 4
    for index in hitches[:3]:
        out = resolve(
            ACTIONS["buy_hitch"],
            {"buyer": "gm", "dice": dice, "index": index, "plot_points": points},
        )
        dice, points = out["dice"], out["plot_points"]
    with pytest.raises(RulesError):
        resolve(
            ACTIONS["buy_hitch"],
            {"buyer": "gm", "dice": dice, "index": hitches[3], "plot_points": points},
        )


def test_ctx4_buying_a_gm_botch_buys_at_most_three_hitches():
    """CTX-4: at most 3 hitches bought per roll, also when players buy a 4-hitch GM botch
    whole: it buys 3 of them and the fourth cannot be bought afterwards."""
    gm = resolve(
        ACTIONS["gm_pool"],
        {"pool": ["d8", "d6", "d6", "d10", "d4"], "roller_kind": "boss"},
        [1, 1, 1, 7, 1],
    )
    out = resolve(
        ACTIONS["buy_hitch"],
        {"buyer": "players", "dice": gm["dice"], "botch": True, "plot_points": 1},
    )
    assert out["bought_this_roll"] == 3 and out["bought"] == [0, 1, 2]
    assert "3 of its 4 hitches" in out["explanation"]
    with pytest.raises(RulesError, match="3 hitches have already been bought"):
        resolve(
            ACTIONS["buy_hitch"],
            {"buyer": "players", "dice": out["dice"], "index": 4, "plot_points": 1},
        )


def test_ctx5_advantage_against_the_side_that_rolled_never_for_mobs():
    pc = ctx_roll(("d6", "d8", "d10"), [1, 5, 7])
    assert pc["advantage"]["raises_difficulty_for"] == "players"
    boss = resolve(ACTIONS["gm_pool"], {"pool": ["d8", "d6"], "roller_kind": "boss"}, [1, 5])
    assert boss["advantage"]["raises_difficulty_for"] == "gm"
    mob = resolve(ACTIONS["gm_pool"], {"pool": ["d8", "d6", "d6"], "roller_kind": "mob"}, [1, 1, 1])
    assert mob["advantage"] is None
    mob_roll = ctx_roll(("d6", "d8", "d10"), [1, 5, 7], roller_kind="mob")
    assert mob_roll["advantage"] is None


def test_ctx6_big_hero_die_one_counts_one_and_is_not_a_hitch():
    out = ctx_roll(
        ("d6", "d8", "d10"),
        [3, 5, 7, 1],
        big_hero="d8",
        plot_points=1,
        difficulty=12,
        split={"total": [1, 2], "effect": 0, "big_hero": "total"},
    )
    assert out["total"] == 13 and out["success"] is True
    assert out["hitches"] == 0 and out["plot_points"] == 0


def test_ctx6_big_hero_die_in_effect_slot_gives_the_larger_size():
    out = ctx_roll(
        ("d6", "d8", "d10"),
        [3, 5, 7, 1],
        big_hero="d12",
        plot_points=1,
        split={"total": [1, 2], "effect": 0, "big_hero": "effect"},
    )
    assert out["effect_level"] == "d12" and out["damage"] == 4
    with pytest.raises(RulesError):
        ctx_roll(("d6", "d8", "d10"), [3, 5, 7, 1], big_hero="d8", plot_points=0)


def test_ctx7_every_spend_costs_one_plot_point_and_is_refused_at_zero():
    out = resolve(
        ACTIONS["spend_plot_point"],
        {"kind": "opportunity", "plot_points": 2, "target": "difficulty", "die": "d4"},
    )
    assert out["plot_points"] == 1 and out["stepped_to"] is None
    out = resolve(
        ACTIONS["spend_plot_point"], {"kind": "scene_asset", "plot_points": 1, "asset": "Smoke"}
    )
    assert out["die"] == "d6" and out["plot_points"] == 0
    with pytest.raises(RulesError):
        resolve(
            ACTIONS["spend_plot_point"], {"kind": "scene_asset", "plot_points": 0, "asset": "x"}
        )
    with pytest.raises(RulesError):
        resolve(
            ACTIONS["spend_plot_point"],
            {"kind": "step_up_asset", "plot_points": 1, "asset": "Rifle", "die": "d12"},
        )


def test_ctx8_seed_example_d12_plus_d6_showing_9_and_1():
    pool = [
        {"die": "d6", "group": "attributes"},
        {"die": "d8", "group": "distinctions"},
        {"die": "d12+d6", "group": "skills"},
    ]
    out = resolve(ACTIONS["roll"], {"pool": pool}, [3, 4, 9, 1])
    entry = out["dice"][2]
    assert entry["value"] == 10 and entry["hitch"] is False and out["hitches"] == 0


def test_ctx8_a_d12_plus_stat_that_is_not_a_skill_rolls_as_one_entry():
    """Seed: "When a player uses a *stat* that has a d12+ die type, the extra die adds to
    the total": Attributes, Distinctions, Skills and Talents (and Signature Assets) alike."""
    pool = [
        {"die": "d12+d6", "group": "attributes"},
        {"die": "d8", "group": "distinctions"},
        {"die": "d6", "group": "skills"},
    ]
    out = resolve(ACTIONS["roll"], {"pool": pool}, [9, 1, 4, 3])
    assert out["dice"][0]["value"] == 10 and out["hitches"] == 0


def test_ctx9_advance_costs_four_times_the_new_die():
    for frm, to, cost in (
        ("d4", "d6", 24),
        ("d6", "d8", 32),
        ("d8", "d10", 40),
        ("d10", "d12", 48),
    ):
        out = resolve(
            ACTIONS["advance"],
            {
                "operation": "raise",
                "advance_points": 60,
                "group": "attributes",
                "trait": "Agi",
                "from": frm,
                "to": to,
            },
        )
        assert out["cost"] == cost and out["advance_points"] == 60 - cost
    for award in (0, 10):
        with pytest.raises(RulesError):
            resolve(
                ACTIONS["advance"],
                {"operation": "award", "advance_points": 0, "session_award": award},
            )
    out = resolve(
        ACTIONS["advance"],
        {"operation": "award", "advance_points": 5, "session_award": 9, "milestone_points": 3},
    )
    assert out["advance_points"] == 17


def test_the_gms_card_scores_a_roll_against_a_secret_difficulty_as_the_roll_would():
    """CTX-2, CTX-4 behind the screen: the GM's card reads a player's roll against the
    difficulty set in secret as an open one is read: a total must beat it, a botch fails,
    and a botched GM pool fails the GM's side."""
    score = cortex_slots.UI.card.secret_score
    assert score({"total": 9, "botch": False}, {"value": 8, "seq": 3}) == "8: success, total 9"
    assert score({"total": 8, "botch": False}, {"value": 8, "seq": 3}) == "8: failure, total 8"
    assert (
        score({"total": 0, "botch": True}, {"value": 8, "seq": 3})
        == "8: failure (a botch), total 0"
    )
    assert (
        score({"total": 3, "botch": False}, {"value": 0, "botch": True, "seq": 3})
        == "0, from a botched pool: success, total 3"
    )
    # A roll scored in the open says the same of the same dice and difficulty.
    rolled = do("roll", {"pool": basic_pool(), "difficulty": 12}, [6, 3, 7])
    secret = score(rolled, {"value": 12, "seq": 3})
    assert secret.startswith(f"12: {'success' if rolled['success'] else 'failure'}")
