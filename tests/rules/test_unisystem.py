"""Unisystem (UNI-1 … UNI-14): what a player sees on the roll card, checked against seed 004."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import unisystem as uni
from rules.kit.actions import resolve, roll
from rules.kit.errors import FaceError, RulesError
from rules.kit.faces import DrawnFaces, RecordedFaces
from rules.unisystem.actions import MALCOLM_LEAP, ROBIN_AND_THE_ZOMBIE, ROLL_SCHEMA, TYPICAL_VAMPIRE
from rules.unisystem.rolls import (
    DIFFICULTIES,
    ROLL_KINDS,
    D10Roll,
    level_name,
    resisted_result,
    roll_d10,
    success_levels,
)
from rules.unisystem.sheet import ATTRIBUTES
from rules.unisystem.situations import HORROR_RULES, jump_distances, panic, score_needs

ACTIONS = uni.ACTIONS


def run(name: str, request: dict, faces=()) -> dict:
    return resolve(ACTIONS[name], request, list(faces))


def d10(faces: list[int]) -> D10Roll:
    source = RecordedFaces(faces)
    result = roll_d10(source)
    source.finish()
    return result


def task(attribute=2, skill=2, **fields) -> dict:
    return {"kind": "task", "attribute": attribute, "skill": skill, **fields}


def attribute_test(attribute, kind="simple_test", **fields) -> dict:
    return {"kind": kind, "attribute": attribute, **fields}


def score(value: int, name: str = "Vampire", score_name: str = "Combat") -> dict:
    return {"name": name, "score": value, "score_name": score_name}


# ---------------------------------------------------------------------------
# The die: UNI-6 Rule of 10, UNI-7 Rule of 1


@pytest.mark.parametrize(
    ("faces", "value"),
    [
        ([7], 7),
        ([10, 7], 12),
        ([10, 4], 10),
        ([10, 5], 10),
        ([10, 6], 11),
        ([10, 10, 3], 15),
        ([10, 10, 10, 9], 24),
    ],
)
def test_uni6_rule_of_ten_chain(faces, value):
    assert d10(faces).value == value


@pytest.mark.parametrize(
    ("faces", "value"),
    [
        ([1, 3], -2),
        ([1, 2], -3),
        ([1, 4], -1),
        ([1, 5], 1),
        ([1, 8], 1),
        ([1, 10], 1),
        ([1, 1, 7], -5),
        ([1, 1, 3], -7),
        ([1, 1, 1, 2], -13),
    ],
)
def test_uni7_rule_of_one_chain(faces, value):
    assert d10(faces).value == value


def test_uni6_chain_is_shown_die_by_die():
    result = d10([10, 10, 3])
    assert result.chain == "Rule of 10: 10, then 10 (+5), then 3 — roll 15"
    assert result.dice() == [
        {"die": "d10", "face": 10, "role": "roll"},
        {"die": "d10", "face": 10, "role": "rule of 10 reroll"},
        {"die": "d10", "face": 3, "role": "rule of 10 reroll"},
    ]


def test_uni7_chain_is_shown_die_by_die():
    assert d10([1, 3]).chain == "Rule of 1: 1, then 3 (−2) — roll −2"
    assert d10([1, 8]).chain == "Rule of 1: 1, then 8 — roll 1"
    assert d10([1, 1, 7]).chain == "Rule of 1: 1, then 1 (−5), then 7 — roll −5"
    assert [entry["role"] for entry in d10([1, 1, 7]).dice()] == [
        "roll",
        "rule of 1 reroll",
        "rule of 1 reroll",
    ]


def test_uni6_uni7_a_plain_roll_draws_one_face():
    assert d10([4]).chain == "Rolled 4"
    with pytest.raises(FaceError):
        d10([4, 4])


@pytest.mark.parametrize("start", [10, 1])
def test_uni6_uni7_chains_are_capped(start):
    """Fifty rerolls are allowed; a fifty-first is a corrupt replay."""
    assert d10([start] * 50 + [3]).value in (10 + 5 * 49, -5 * 49 - 2)
    with pytest.raises(FaceError, match="50 times"):
        d10([start] * 52)


@given(st.integers(min_value=0, max_value=2**32))
@settings(max_examples=200)
def test_uni6_uni7_drawn_chain_replays_and_stays_in_bounds(seed):
    drawn = DrawnFaces(random.Random(seed))
    result = roll_d10(drawn)
    assert d10(drawn.faces) == result
    assert [entry["face"] for entry in result.dice()] == drawn.faces
    first = drawn.faces[0]
    if first == 10:
        assert result.value >= 10
    elif first == 1:
        assert result.value <= 1
    else:
        assert result.value == first and len(drawn.faces) == 1


# ---------------------------------------------------------------------------
# UNI-3 Success levels


@pytest.mark.parametrize(
    ("total", "levels", "name"),
    [
        (-7, 0, "Failure"),
        (8, 0, "Failure"),
        (9, 1, "Adequate"),
        (10, 1, "Adequate"),
        (11, 2, "Decent"),
        (12, 2, "Decent"),
        (13, 3, "Good"),
        (14, 3, "Good"),
        (15, 4, "Very Good"),
        (16, 4, "Very Good"),
        (17, 5, "Excellent"),
        (20, 5, "Excellent"),
        (21, 6, "Extraordinary"),
        (23, 6, "Extraordinary"),
        (24, 7, "Mind-boggling"),
        (26, 7, "Mind-boggling"),
        (27, 8, "Outrageous"),
        (29, 8, "Outrageous"),
        (30, 9, "Superheroic"),
        (32, 9, "Superheroic"),
        (33, 10, "God-like"),
        (35, 10, "God-like"),
        (36, 11, "level 11"),
        (38, 11, "level 11"),
        (39, 12, "level 12"),
    ],
)
def test_uni3_success_level_table(total, levels, name):
    assert success_levels(total) == levels
    assert level_name(levels) == name


@given(st.integers(-500, 500), st.integers(-500, 500))
def test_uni3_success_levels_are_monotonic_in_the_total(a, b):
    low, high = sorted((a, b))
    assert success_levels(low) <= success_levels(high)
    assert (success_levels(a) > 0) == (a >= 9)


@given(st.integers(36, 1000))
def test_uni3_one_more_level_per_three_points_past_god_like(total):
    assert success_levels(total) == 10 + (total - 33) // 3


# ---------------------------------------------------------------------------
# UNI-1, UNI-2, UNI-4: tasks and tests


def test_uni1_worked_example_malcolm_leaps_between_buildings():
    outcome = run("task", MALCOLM_LEAP, [10, 10, 3])
    assert outcome["roll"] == 15
    assert outcome["total"] == 13
    assert outcome["success"] is True
    assert outcome["levels"] == 3
    assert outcome["level_name"] == "Good"
    assert outcome["headline"] == "Total 13 — Good (3 success levels)"
    assert outcome["explanation"] == (
        "Rule of 10: 10, then 10 (+5), then 3 — roll 15; 15 + Str 1 + Dex 2 − 5 = 13"
    )
    assert [entry["face"] for entry in outcome["dice"]] == [10, 10, 3]


def test_uni1_success_is_nine_or_more():
    assert run("task", task(2, 2), [5])["success"] is True  # 9
    failed = run("task", task(2, 2), [4])
    assert failed["success"] is False and failed["levels"] == 0
    assert failed["headline"] == "Total 8 — failure"


@pytest.mark.parametrize(
    ("request_", "total"),
    [
        (task(3, 2), 5 + 3 + 2),
        (attribute_test(3), 5 + 6),
        (attribute_test(3, "difficult_test"), 5 + 3),
        ({"kind": "two_attributes", "attribute": 3, "second_attribute": 1}, 5 + 4),
    ],
)
def test_uni2_kinds_of_roll(request_, total):
    assert run("task", request_, [5])["total"] == total


def test_uni2_simple_test_doubles_the_attribute_on_the_card():
    outcome = run("task", attribute_test(2, attribute_name="Dexterity"), [6])
    assert outcome["explanation"] == "Rolled 6; 6 + Dex 2 × 2 = 10"


def test_uni2_unskilled_complex_work_stops_at_decent():
    request = task(5, 0, skill_name="Doctor", complex=True, unskilled_penalty=-2)
    outcome = run("task", request, [10, 9])  # 14 + 5 + 0 − 2 = 17
    assert outcome["total"] == 17
    assert outcome["levels"] == 2 and outcome["level_name"] == "Decent"
    assert outcome["levels_capped"] is True
    assert "capped" in outcome["headline"]
    assert "stops at 2 success levels" in outcome["explanation"]


def test_uni2_unskilled_simple_work_is_not_capped():
    outcome = run("task", task(5, 0, unskilled_penalty=-1), [10, 9])
    assert outcome["levels"] == 5 and outcome["levels_capped"] is False


@pytest.mark.parametrize(
    "request_",
    [
        task(2, 1, unskilled_penalty=-2),  # the penalty is for skill 0 only
        task(2, 0, unskilled_penalty=-6),  # past −5 only for complex work
        task(2, 0, unskilled_penalty=-11, complex=True),
        task(2, 0, unskilled_penalty=2),
        {"kind": "task", "attribute": 2},  # a task needs its skill
        {"kind": "two_attributes", "attribute": 2},
        attribute_test(0),
        attribute_test(31),
        attribute_test(True),
        attribute_test(2, attribute_name="Luck"),
    ],
)
def test_uni2_invalid_rolls_are_refused(request_):
    with pytest.raises(RulesError):
        run("task", request_, [5])


@pytest.mark.parametrize(
    ("difficulty", "value"),
    [
        ("easy", 5),
        ("moderate", 3),
        ("average", 1),
        ("challenging", 0),
        ("difficult", -1),
        ("very_difficult", -3),
        ("heroic", -6),
        ("inhuman", -10),
    ],
)
def test_uni4_presets_by_name(difficulty, value):
    assert run("task", task(2, 2, difficulty=difficulty), [5])["total"] == 9 + value


@pytest.mark.parametrize(
    ("difficulty", "inside", "outside"),
    [
        ("easy", 8, 4),
        ("moderate", 4, 5),
        ("average", 2, 3),
        ("challenging", 0, 1),
        ("difficult", -2, 0),
        ("very_difficult", -5, -6),
        ("heroic", -9, -10),
        ("inhuman", -14, -9),
    ],
)
def test_uni4_preset_ranges(difficulty, inside, outside):
    chosen = task(2, 2, difficulty=difficulty, difficulty_modifier=inside)
    assert run("task", chosen, [5])["total"] == 9 + inside
    with pytest.raises(RulesError):
        run("task", task(2, 2, difficulty=difficulty, difficulty_modifier=outside), [5])


def test_uni4_presets_free_modifier_and_qualities_add_up():
    request = task(
        2,
        2,
        difficulty="very_difficult",
        difficulty_modifier=-4,
        modifier=1,
        modifiers=[{"name": "Acute Senses", "value": 2}, {"name": "Klutz", "value": -1}],
    )
    outcome = run("task", request, [7])
    assert outcome["total"] == 7 + 4 - 4 + 1 + 2 - 1
    assert outcome["explanation"] == (
        "Rolled 7; 7 + attribute 2 + skill 2 − 4 (Very Difficult) + 1 + 2 (Acute Senses) "
        "− 1 (Klutz) = 9"
    )


@pytest.mark.parametrize(
    "fields",
    [
        {"difficulty_modifier": -1},  # no preset chosen
        {"difficulty": "impossible"},
        {"modifier": 51},
        {"modifier": 1.5},
        {"modifiers": [{"name": "", "value": 1}]},
        {"modifiers": [{"name": "Lucky", "value": 21}]},
        {"modifiers": [{"name": "Lucky"}]},
        {"modifiers": ["Lucky"]},
        {"modifiers": [{"name": "x", "value": 1}] * 13},
    ],
)
def test_uni4_invalid_modifiers_are_refused(fields):
    with pytest.raises(RulesError):
        run("task", task(2, 2, **fields), [5])


# ---------------------------------------------------------------------------
# UNI-5 Resisted actions


def test_uni5_worked_example_robin_wrestles_the_zombie():
    outcome = run("resisted", ROBIN_AND_THE_ZOMBIE, [1, 3, 7])
    robin, zombie = outcome["attacker"], outcome["defender"]
    assert (robin["roll"], robin["total"], robin["success"]) == (-2, 6, False)
    assert (zombie["roll"], zombie["total"], zombie["success"]) == (7, 17, True)
    assert outcome["winner"] == "defender" and outcome["winner_name"] == "Zombie"
    assert outcome["headline"] == "Zombie wins — 17 against 6"
    assert "−2 + Str 4 × 2 = 6" in outcome["explanation"]
    assert [(d["face"], d["roller"]) for d in outcome["dice"]] == [
        (1, "Robin"),
        (3, "Robin"),
        (7, "Zombie"),
    ]


@pytest.mark.parametrize(
    ("attacker", "defender", "has_defender", "result"),
    [
        (9, 8, True, "attacker wins"),
        (8, 30, True, "defender wins"),
        (14, 12, True, "attacker wins"),
        (12, 14, True, "defender wins"),
        (12, 12, True, "defender wins"),
        (12, 12, False, "tie"),
        (5, 5, True, "both fail"),
        (3, 8, False, "both fail"),
    ],
)
def test_uni5_who_wins(attacker, defender, has_defender, result):
    assert resisted_result(attacker, defender, has_defender=has_defender) == result


@given(st.integers(-50, 80), st.integers(-50, 80), st.booleans())
def test_uni5_winner_is_a_success_and_no_worse(attacker, defender, has_defender):
    result = resisted_result(attacker, defender, has_defender=has_defender)
    if result == "attacker wins":
        assert attacker >= 9 and (defender < 9 or attacker > defender)
    elif result == "defender wins":
        assert defender >= 9 and (attacker < 9 or defender >= attacker)
    elif result == "tie":
        assert attacker == defender >= 9 and not has_defender
    else:
        assert attacker < 9 and defender < 9


def test_uni5_both_fail_and_the_lower_total_fails_more():
    request = {
        "attacker": attribute_test(1, name="Andrew"),
        "defender": attribute_test(1, name="Jonathan"),
    }
    outcome = run("resisted", request, [2, 5])  # 4 against 7
    assert outcome["result"] == "both fail" and outcome["winner"] is None
    assert outcome["fails_more"] == "attacker"
    assert outcome["headline"] == "Both fail — 4 and 7; Andrew fails more"


def test_uni5_even_contest_ties():
    request = {"attacker": attribute_test(3), "defender": attribute_test(3), "even_contest": True}
    outcome = run("resisted", request, [5, 5])
    assert outcome["result"] == "tie" and outcome["winner"] is None
    assert outcome["headline"] == "Tie — 11 each"


def test_uni5_uni8_worked_example_defending_cast_member_ties_or_beats_a_grapple():
    grapple = score(14, score_name="Combat + 2 (grapple)")
    defender = {"name": "Buffy", **task(4, 1)}
    tied = run("resisted", {"attacker": grapple, "defender": defender}, [9])  # 14
    assert tied["winner"] == "defender" and tied["defender"]["total"] == 14
    lost = run("resisted", {"attacker": grapple, "defender": defender}, [8])  # 13
    assert lost["winner"] == "attacker"
    assert [d["face"] for d in lost["dice"]] == [8]


def test_uni5_uni8_worked_example_sneaking_past_needs_eleven():
    brains = score(10, score_name="Brains")
    sneak = {"name": "Xander", **task(2, 2)}
    assert run("resisted", {"attacker": sneak, "defender": brains}, [6])["winner"] == "defender"
    assert run("resisted", {"attacker": sneak, "defender": brains}, [7])["winner"] == "attacker"


def test_uni5_a_score_below_nine_never_wins():
    weak = score(7, name="Thug")
    outcome = run("resisted", {"attacker": weak, "defender": task(1, 0)}, [3])  # 4
    assert outcome["result"] == "both fail"


def test_uni5_two_fixed_scores_are_refused():
    with pytest.raises(RulesError, match="at least one side must roll"):
        run("resisted", {"attacker": score(12), "defender": score(10)})


def test_uni5_errors_name_the_side():
    with pytest.raises(RulesError, match="^Defender: attribute is required"):
        run(
            "resisted", {"attacker": attribute_test(2), "defender": {"kind": "simple_test"}}, [5, 5]
        )


# ---------------------------------------------------------------------------
# UNI-8 Ability Scores


def test_uni8_worked_example_typical_vampire():
    outcome = run("ability_scores", TYPICAL_VAMPIRE)
    scores = outcome["scores"]
    assert (scores["muscle"]["score"], scores["combat"]["score"], scores["brains"]["score"]) == (
        16,
        12,
        10,
    )
    assert outcome["headline"] == "Muscle 16 · Combat 12 · Brains 10"
    grapple = outcome["situational"][0]
    assert grapple["name"] == "grapple" and grapple["score"] == 14
    assert grapple["needs"]["defending"] == 14  # tie or beat
    assert scores["brains"]["needs"]["acting"] == 11  # beat Brains 10
    assert scores["combat"]["needs"]["defending"] == 12


def test_uni8_averages_round_down():
    request = {**TYPICAL_VAMPIRE, "intelligence": 3, "combat_skills": [3, 2], "bonuses": []}
    outcome = run("ability_scores", request)
    assert outcome["scores"]["brains"]["score"] == 2 + 2 + 6  # (3+2+2)//3 = 2
    assert outcome["scores"]["combat"]["score"] == 4 + 2 + 6  # (3+2)//2 = 2


def test_uni8_uni9_combat_17_adds_five_levels_to_damage():
    request = {**TYPICAL_VAMPIRE, "dexterity": 7, "combat_skills": [4], "bonuses": []}
    combat = run("ability_scores", request)["scores"]["combat"]
    assert (combat["score"], combat["levels"], combat["level_name"]) == (17, 5, "Excellent")
    assert run("damage", {"base_damage": 4, "attack_total": 17})["damage"] == 9


def test_uni8_score_needs_a_success_when_acting():
    assert score_needs(7) == {"acting": 9, "defending": None}
    assert score_needs(12) == {"acting": 13, "defending": 12}


# ---------------------------------------------------------------------------
# UNI-9 Damage and healing


def test_uni9_damage_adds_success_levels_to_base_damage():
    outcome = run("damage", {"base_damage": 5, "success_levels": 3, "life_points": 20})
    assert outcome["damage"] == 8 and outcome["life_points"] == 12
    assert outcome["headline"] == "8 damage (base 5 + 3 success levels); Life Points 20 → 12"


def test_uni9_a_failed_attack_deals_no_damage():
    outcome = run("damage", {"base_damage": 5, "attack_total": 8, "life_points": 3})
    assert outcome["hit"] is False and outcome["damage"] == 0 and outcome["life_points"] == 3


def test_uni9_life_points_can_go_below_zero():
    assert (
        run("damage", {"base_damage": 12, "success_levels": 2, "life_points": 4})["life_points"]
        == -10
    )


def test_uni9_each_doctor_success_level_heals_one_point():
    assert run("heal", {"success_levels": 4, "life_points": 3})["life_points"] == 7
    capped = run("heal", {"doctor_total": 17, "life_points": 24, "max_life_points": 26})
    assert capped["healed"] == 2 and capped["life_points"] == 26


@pytest.mark.parametrize(
    ("name", "request_"),
    [
        ("damage", {"base_damage": 5}),
        ("damage", {"base_damage": 5, "success_levels": 1, "attack_total": 12}),
        ("damage", {"base_damage": -1, "success_levels": 1}),
        ("heal", {"success_levels": 1}),
        ("heal", {"success_levels": 1, "life_points": 30, "max_life_points": 26}),
        ("heal", {"success_levels": 1, "life_points": -3, "max_life_points": -1}),
    ],
)
def test_uni9_invalid_requests_are_refused(name, request_):
    with pytest.raises(RulesError):
        run(name, request_)


# ---------------------------------------------------------------------------
# UNI-10 Working together, UNI-11 Lengthy tasks


def test_uni10_long_task_adds_only_successful_levels():
    request = {
        "mode": "long",
        "participants": [
            attribute_test(3, name="Oz"),
            attribute_test(3, name="Buffy"),
            attribute_test(2, name="Xander"),
        ],
        "required_levels": 50,
        "levels_so_far": 10,
    }
    outcome = run("working_together", request, [7, 2, 9])  # 13 (3), 8 (fail), 13 (3)
    assert outcome["gained"] == 6
    assert outcome["progress"] == {
        "required_levels": 50,
        "accumulated": 16,
        "remaining": 34,
        "complete": False,
    }
    assert [d["roller"] for d in outcome["dice"]] == ["Oz", "Buffy", "Xander"]


def test_uni10_short_task_helpers_add_levels_and_failures_subtract_three():
    example = ACTIONS["working_together"]
    outcome = run("working_together", example.example, example.example_faces)
    # Giles 6 + 4 + 4 = 14 (3 levels: +3); Xander 2 + 2 + 0 = 4 (fails: −3)
    assert outcome["help_bonus"] == 0
    assert [h["total"] for h in outcome["helpers"]] == [14, 4]
    assert outcome["total"] == 9 + 3 + 3 - 3 + 3 - 3
    assert outcome["levels"] == 2
    assert [d["roller"] for d in outcome["dice"]] == ["Giles", "Xander", "Willow"]


def test_uni10_helper_levels_count_before_the_leader_reads_levels():
    request = {
        "mode": "short",
        "leader": attribute_test(2),
        "helpers": [attribute_test(3), attribute_test(3)],
    }
    outcome = run("working_together", request, [5, 5, 4])  # helpers 11 (2) and 11 (2)
    assert outcome["help_bonus"] == 4
    assert outcome["total"] == 4 + 4 + 4 and outcome["level_name"] == "Decent"


@pytest.mark.parametrize(
    "request_",
    [
        {"mode": "short", "leader": attribute_test(2), "helpers": []},
        {"mode": "short", "helpers": [attribute_test(2)]},
        {"mode": "long", "participants": []},
        {"mode": "long", "participants": [attribute_test(2)] * 21},
        {
            "mode": "long",
            "participants": [attribute_test(2)],
            "required_levels": 5,
            "levels_so_far": 5,
        },
        {"mode": "long", "participants": [attribute_test(2)], "levels_so_far": 5},
        {"mode": "group"},
    ],
)
def test_uni10_invalid_groups_are_refused(request_):
    with pytest.raises(RulesError):
        run("working_together", request_, [5])


def test_uni11_breaking_down_a_sturdy_door():
    """The seed's door needs eight levels, gathered over several rolls."""
    state = {"required_levels": 8, "accumulated": 0, "rolls_made": 0}
    first = run("lengthy_task", {**state, "total": 13})
    assert (first["accumulated"], first["remaining"], first["complete"]) == (3, 5, False)
    assert first["rolls_made"] == 1
    state = {key: first[key] for key in ("required_levels", "accumulated", "rolls_made")}
    second = run("lengthy_task", {**state, "total": 8})
    assert second["accumulated"] == 3 and second["gained"] == 0
    third = run("lengthy_task", {**state, "success_levels": 6})
    assert third["complete"] is True and third["accumulated"] == 9 and third["remaining"] == 0
    assert third["headline"] == "9 of 8 success levels — done"


def test_uni11_a_finished_task_must_be_started_afresh():
    with pytest.raises(RulesError, match="already has"):
        run("lengthy_task", {"required_levels": 8, "accumulated": 8, "total": 12})


# ---------------------------------------------------------------------------
# UNI-12 Fear Test


@pytest.mark.parametrize(
    ("fields", "penalty"),
    [
        ({"demonic_visage": True}, -1),
        ({"attractiveness": -7}, -3),
        ({"attractiveness": -1}, 0),
        ({"attractiveness": 4}, 0),
        ({"splatter": 1}, -1),
        ({"splatter": 4}, -4),
        ({"sudden": True}, -2),
        ({"demonic_visage": True, "splatter": 2, "sudden": True}, -5),
        ({"demonic_visage": True, "splatter": 2, "familiar": True}, 0),
        ({"splatter": 3, "horror_rule": "double_penalties"}, -6),
        ({"splatter": 3, "turns_panicking": 2}, -1),
        ({"splatter": 3, "turns_panicking": 9}, 0),
        ({"modifiers": [{"name": "Nerves of Steel", "value": 3}]}, 3),
        ({"modifiers": [{"name": "Nerves of Steel", "value": 3}], "familiar": True}, 3),
    ],
)
def test_uni12_fear_modifiers(fields, penalty):
    outcome = run("fear_test", {"willpower": 3, **fields}, [5])
    assert outcome["total"] == 5 + 6 + penalty


def test_uni12_familiar_horror_still_checks_its_fields():
    with pytest.raises(RulesError):
        run("fear_test", {"willpower": 3, "familiar": True, "splatter": 9}, [5])


def test_uni12_willpower_once_for_more_horror():
    outcome = run("fear_test", {"willpower": 3, "horror_rule": "willpower_once"}, [5])
    assert outcome["total"] == 8 and outcome["explanation"].startswith("Rolled 5; 5 + Wil 3 = 8")


@pytest.mark.parametrize(
    ("face", "result"),
    [
        (9, None),  # 9: acts normally
        (8, "Startled"),
        (7, "Startled"),
        (6, "Freak out"),
        (5, "Freak out"),
        (4, "Run Away!"),
        (3, "Run Away!"),
        (2, "Total Terror"),
    ],
)
def test_uni12_panic_table(face, result):
    outcome = run("fear_test", {"willpower": 1, "modifier": -2}, [face])  # total = face
    assert outcome["total"] == face
    assert outcome["acts_normally"] is (result is None)
    assert (outcome["panic"] or {}).get("result") == result
    expected = result or "acts normally"
    assert outcome["headline"] == f"Total {face} — {expected}"


def test_uni12_rule_of_one_can_mean_total_terror():
    outcome = run("fear_test", {"willpower": 2}, [1, 1, 1, 2])  # −13 + 4
    assert outcome["total"] == -9 and outcome["panic"]["result"] == "Total Terror"


def test_uni12_worked_fear_example_on_the_card():
    example = ACTIONS["fear_test"]
    outcome = run("fear_test", example.example, example.example_faces)
    assert outcome["headline"] == "Total 5 — Freak out"
    assert outcome["explanation"].startswith(
        "Rolled 4; 4 + Wil 2 × 2 − 1 (demonic visage) − 2 (sudden) = 5; below 9: Freak out"
    )


# ---------------------------------------------------------------------------
# UNI-13 Movement and chases


def test_uni13_movement():
    outcome = run("movement", {"dexterity": 2, "constitution": 3})
    assert (outcome["yards_per_second"], outcome["yards_per_turn"], outcome["mph"]) == (5, 25, 10)


def chase(lead: int, **fields) -> dict:
    runner = attribute_test(2, name="Dawn", attribute_name="Dexterity")
    chaser = attribute_test(2, name="Vampire", attribute_name="Dexterity")
    return {"lead": lead, "runner": runner, "chaser": chaser, **fields}


def test_uni13_seed_example_chaser_wins_the_first_turn():
    outcome = run("chase", chase(3), [4, 8])
    assert (outcome["lead_before"], outcome["lead"], outcome["status"]) == (3, 2, "running")
    assert outcome["headline"] == "Lead +3 → +2: the chase goes on"
    assert outcome["winner"] == "chaser" and outcome["turn"] == 1
    assert [d["roller"] for d in outcome["dice"]] == ["Dawn", "Vampire"]


@pytest.mark.parametrize(
    ("lead", "faces", "new_lead", "status"),
    [
        (1, [4, 8], 0, "caught"),
        (4, [8, 4], 5, "escaped"),
        (2, [8, 4], 3, "running"),
        (2, [6, 6], 2, "running"),  # equal totals: nobody defends, the lead holds
        (2, [2, 3], 2, "running"),  # both fail: the lead holds
    ],
)
def test_uni13_chase_lead(lead, faces, new_lead, status):
    outcome = run("chase", chase(lead, turn=4), faces)
    assert (outcome["lead"], outcome["status"], outcome["turn"]) == (new_lead, status, 5)


@pytest.mark.parametrize(
    ("lead", "message"),
    [
        (0, "the chase is already over: at a lead of 0 the runner is caught"),
        (-1, "the chase is already over: at a lead of −1 the runner is caught"),
        (5, r"the chase is already over: at a lead of \+5 the runner has escaped"),
        (7, "the runner has escaped"),
        (True, "whole number"),
        ("3", "whole number"),
        (None, "whole number"),
    ],
)
def test_uni13_a_finished_chase_cannot_go_on(lead, message):
    with pytest.raises(RulesError, match=message):
        run("chase", chase(lead), [5, 5])


# ---------------------------------------------------------------------------
# UNI-14 Jumps


@pytest.mark.parametrize(
    ("strength", "feet", "yards"),
    [
        (1, 1, 2),
        (2, 1, 2),
        (3, 2, 3),
        (4, 4, 5),
        (5, 4, 5),
        (6, 5, 6),
        (7, 7, 8),
        (8, 7, 8),
        (9, 10, 10),
        (10, 10, 10),
        (11, 12, 11),
        (15, 20, 15),
    ],
)
def test_uni14_jump_table(strength, feet, yards):
    assert jump_distances(strength) == (feet, yards)


def test_uni14_seed_vampire_clears_a_fifteen_foot_gap():
    long_jump = run("jump", {"strength": 5, "jump": "long"})
    assert long_jump["distance"] == 5 and long_jump["distance_feet"] == 15
    assert long_jump["headline"] == "Long jump 5 yards (15 feet)" and long_jump["dice"] == []
    high_jump = run("jump", {"strength": 5, "jump": "high"})
    assert high_jump["distance"] == 4 and high_jump["unit"] == "feet"


def test_uni14_running_start_doubles_then_acrobatics_adds_levels():
    example = ACTIONS["jump"]
    outcome = run("jump", example.example, example.example_faces)
    assert outcome["table_distance"] == 5 and outcome["bonus"] == 2
    assert outcome["distance"] == 12


def test_uni14_high_jump_with_a_combat_score_and_a_failed_roll():
    assert run("jump", {"strength": 5, "jump": "high", "combat_score": 17})["distance"] == 9
    failed = {"strength": 5, "jump": "high", "acrobatics": task(1, 0)}
    assert run("jump", failed, [3])["distance"] == 4


def test_uni14_one_foot_more_reads_as_a_foot():
    outcome = run("jump", {"strength": 1, "jump": "high", "combat_score": 10})
    assert outcome["headline"] == "High jump 2 feet"
    assert outcome["explanation"] == (
        "Str 1: 1 foot on the Jump Table; Combat score 10 (no roll), succeeds (Adequate): "
        "+1 foot; 2 feet"
    )


def test_uni14_roll_or_score_not_both():
    with pytest.raises(RulesError):
        run("jump", {"strength": 5, "jump": "high", "combat_score": 12, "acrobatics": task()})


# ---------------------------------------------------------------------------
# The system as the app sees it


def test_uni1_sheet_template():
    template = uni.SHEET_TEMPLATE
    attributes = template.group("attributes")
    assert attributes.fixed_names == ATTRIBUTES and attributes.kind == "rating"
    assert {g.key for g in template.groups} == {"attributes", "skills", "qualities", "drawbacks"}
    assert template.group("qualities").max_rating > 0 and template.group("drawbacks").min_rating < 0
    assert {"drama_points", "life_points"} <= {c.key for c in template.counters}
    assert template.npc_kinds == ("guest_star", "adversary")


def test_decisions_name_unisystem_mechanics():
    ids = {mechanic.id for mechanic in uni.MECHANICS}
    assert set(uni.DECISIONS) <= ids
    for texts in uni.DECISIONS.values():
        assert texts and all(text.startswith("Decision: ") for text in texts)


RULES_MODULES = [p for p in Path(uni.__file__).parent.glob("*.py") if p.name != "mechanics.py"]


def test_every_mechanic_is_named_in_a_docstring():
    docstrings = " ".join(
        ast.get_docstring(node) or ""
        for path in RULES_MODULES
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
    )
    named = set(re.findall(r"UNI-\d+", docstrings))
    assert {mechanic.id for mechanic in uni.MECHANICS} <= named


def test_the_rules_package_imports_only_the_standard_library():
    for path in Path(uni.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert all(alias.name.split(".")[0] in {"dataclasses"} for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module in {
                    "__future__",
                    "collections.abc",
                    "dataclasses",
                    "fractions",
                    "typing",
                }


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_action_example_resolves(name):
    action = ACTIONS[name]
    assert action.name == name and action.schema and action.example
    assert all(rule.startswith("UNI-") for rule in action.rules)
    outcome = resolve(action, action.example, list(action.example_faces))
    assert_outcome_shape(action, outcome, list(action.example_faces))


def assert_outcome_shape(action, outcome: dict, faces: list[int]) -> None:
    assert json.loads(json.dumps(outcome)) == outcome  # plain JSON: no tuples, sets, Fractions
    assert isinstance(outcome["headline"], str) and outcome["headline"]
    assert isinstance(outcome["explanation"], str) and outcome["explanation"]
    if action.rolls:
        assert [entry["face"] for entry in outcome["dice"]] == faces
        assert all(entry["die"] == "d10" and entry["role"] for entry in outcome["dice"])
    else:
        assert "dice" not in outcome


# ---------------------------------------------------------------------------
# Refusals players read (UNI-2, UNI-4, UNI-5, UNI-10, UNI-13, UNI-14)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (attribute_test(3, skill=4), "a Simple Test adds no skill"),
        (attribute_test(3, skill=0), "a Simple Test adds no skill"),
        (
            attribute_test(3, "difficult_test", skill_name="Sports"),
            "a Difficult Test adds no skill",
        ),
        (
            attribute_test(3, unskilled_penalty=-3),
            "an unskilled penalty only applies to a Task at skill 0, not to a Simple Test",
        ),
        (
            attribute_test(3, "difficult_test", complex=True),
            "complex work .* only applies to a Task, not to a Difficult Test",
        ),
        (
            {"kind": "two_attributes", "attribute": 2, "second_attribute": 2, "skill": 1},
            "a roll of two attributes adds no skill",
        ),
        (task(2, 2, second_attribute=3), "a Task uses one attribute"),
        (attribute_test(2, second_attribute_name="Dexterity"), "a Simple Test uses one attribute"),
    ],
)
def test_uni2_fields_of_another_kind_of_roll_are_refused_not_dropped(request_, message):
    with pytest.raises(RulesError, match=message):
        run("task", request_, [5])


def test_uni2_unset_fields_of_another_kind_are_not_a_refusal():
    unset = {"skill": None, "skill_name": " ", "unskilled_penalty": 0, "complex": False}
    assert run("task", attribute_test(3, **unset), [5])["total"] == 11
    assert run("task", task(3, 2, second_attribute=None), [5])["total"] == 10


def test_uni2_uni5_sides_name_themselves_in_refusals():
    with pytest.raises(RulesError, match="^Defender: a Simple Test adds no skill"):
        run("resisted", {"attacker": task(), "defender": attribute_test(3, skill=2)}, [5, 5])
    with pytest.raises(RulesError, match="^Runner: an unskilled penalty"):
        run("chase", chase(2, runner=attribute_test(2, unskilled_penalty=-1)), [5, 5])


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"attacker": task()}, "^the defender is required$"),
        ({"defender": task()}, "^the attacker is required$"),
        ({"attacker": None, "defender": task()}, "^the attacker is required$"),
    ],
)
def test_uni5_a_missing_side_is_required(request_, message):
    with pytest.raises(RulesError, match=message):
        run("resisted", request_, [5, 5])


def test_uni10_uni13_missing_rollers_are_required():
    with pytest.raises(RulesError, match="^the leader is required$"):
        run("working_together", {"mode": "short", "helpers": [task()]}, [5, 5])
    with pytest.raises(RulesError, match="^Helper 1 is required$"):
        run("working_together", {"mode": "short", "leader": task(), "helpers": [None]}, [5, 5])
    with pytest.raises(RulesError, match="^the chaser is required$"):
        run("chase", {"lead": 2, "runner": task()}, [5, 5])


@pytest.mark.parametrize(
    "request_",
    [
        {"attacker": task(), "defender": score(12), "even_contest": True},
        {"attacker": score(12), "defender": task(), "even_contest": True},
    ],
)
def test_uni5_an_even_contest_against_a_fixed_score_is_refused(request_):
    with pytest.raises(RulesError, match="an even contest needs both sides to roll"):
        run("resisted", request_, [5])


def test_uni4_preset_choices_are_listed_by_their_names_and_accepted_by_name():
    with pytest.raises(RulesError) as refused:
        run("task", task(2, 2, difficulty="impossible"), [5])
    assert str(refused.value) == (
        "the difficulty must be one of: Easy (+5 or more), Moderate (+3 to +4), "
        "Average (+1 to +2), Challenging (no modifier), Difficult (−1 to −2), "
        "Very Difficult (−3 to −5), Heroic (−6 to −9), Inhuman (−10 or worse)"
    )
    by_name = run("task", task(2, 2, difficulty="Very Difficult", difficulty_modifier=-4), [5])
    assert by_name["total"] == 5
    with pytest.raises(RulesError, match="the modifier for Very Difficult is −3 to −5, so −6"):
        run("task", task(2, 2, difficulty="very_difficult", difficulty_modifier=-6), [5])
    assert (
        "very_difficult: Very Difficult (−3 to −5)" in ACTIONS["task"].schema["difficulty"]["help"]
    )


def test_uni14_a_null_roll_or_score_is_left_out():
    outcome = run("jump", {"strength": 5, "jump": "long", "acrobatics": None, "combat_score": None})
    assert outcome["distance"] == 5 and outcome["acrobatics"] is None


# ---------------------------------------------------------------------------
# Review checks, UNI-1 … UNI-14


def uni_task(faces, **request):
    return resolve(ACTIONS["task"], request, faces)


def test_uni1_success_is_nine_or_more_at_the_boundary():
    assert uni_task([3], attribute=3, skill=2)["success"] is False  # 8
    assert uni_task([4], attribute=3, skill=2)["success"] is True  # 9


def test_uni2_roll_kinds():
    assert uni_task([5], kind="simple_test", attribute=3)["total"] == 11
    assert uni_task([5], kind="difficult_test", attribute=3)["total"] == 8
    assert uni_task([5], kind="two_attributes", attribute=3, second_attribute=2)["total"] == 10
    capped = uni_task([9], attribute=3, skill=0, complex=True, modifier=3)  # 15
    assert capped["total"] == 15 and capped["levels"] == 2


def test_uni2_an_unskilled_penalty_or_skill_is_never_silently_dropped():
    """A Simple Test given an unskilled penalty (or a skill) must not resolve as if the
    field were not there: a task with a skill and a penalty is refused, and a test is
    refused the same way rather than ignoring the number."""
    for extra in ({"unskilled_penalty": -3}, {"skill": 4}):
        try:
            out = uni_task([5], kind="simple_test", attribute=3, **extra)
        except RulesError:
            continue
        assert out["total"] != 11, f"{extra} was silently ignored"


def test_uni3_level_boundaries():
    table = {
        8: 0,
        9: 1,
        10: 1,
        11: 2,
        12: 2,
        13: 3,
        14: 3,
        15: 4,
        16: 4,
        17: 5,
        20: 5,
        21: 6,
        23: 6,
        24: 7,
        26: 7,
        27: 8,
        29: 8,
        30: 9,
        32: 9,
        33: 10,
        35: 10,
        36: 11,
        38: 11,
        39: 12,
        -4: 0,
    }
    for total, levels in table.items():
        assert success_levels(total) == levels, total


def test_uni4_named_modifier_presets():
    assert uni_task([5], attribute=2, skill=2, difficulty="easy")["total"] == 14
    assert (
        uni_task([5], attribute=2, skill=2, difficulty="moderate", difficulty_modifier=4)["total"]
        == 13
    )
    assert (
        uni_task([5], attribute=2, skill=2, difficulty="very_difficult", difficulty_modifier=-5)[
            "total"
        ]
        == 4
    )
    assert (
        uni_task([5], attribute=2, skill=2, difficulty="inhuman", difficulty_modifier=-12)["total"]
        == -3
    )
    with pytest.raises(RulesError):
        uni_task([5], attribute=2, skill=2, difficulty="difficult", difficulty_modifier=-3)


def test_uni5_resisted_action_ties_and_failures():
    side = {"attribute": 3, "skill": 2}
    equal = resolve(ACTIONS["resisted"], {"attacker": side, "defender": side}, [5, 5])
    assert equal["result"] == "defender wins"
    even = resolve(
        ACTIONS["resisted"], {"attacker": side, "defender": side, "even_contest": True}, [5, 5]
    )
    assert even["result"] == "tie"
    low = {"attribute": 1, "skill": 1}
    both = resolve(ACTIONS["resisted"], {"attacker": low, "defender": low}, [4, 5])
    assert both["result"] == "both fail" and both["fails_more"] == "attacker"
    seed = resolve(
        ACTIONS["resisted"],
        {
            "attacker": {"kind": "simple_test", "attribute": 4},
            "defender": {"kind": "simple_test", "attribute": 5},
        },
        [1, 3, 7],
    )
    assert seed["attacker"]["total"] == 6 and seed["defender"]["total"] == 17
    assert seed["winner"] == "defender"


def test_uni5_fixed_ability_score_beat_acting_tie_defending():
    cast = {"attribute": 3, "skill": 2}
    acting = resolve(ACTIONS["resisted"], {"attacker": cast, "defender": {"score": 12}}, [7])
    assert acting["winner"] == "defender"  # 12 does not beat 12
    acting = resolve(ACTIONS["resisted"], {"attacker": cast, "defender": {"score": 12}}, [8])
    assert acting["winner"] == "attacker"
    defending = resolve(ACTIONS["resisted"], {"attacker": {"score": 14}, "defender": cast}, [9])
    assert defending["winner"] == "defender"  # 14 ties 14


def test_uni6_rule_of_ten():
    for faces, value in (
        ([10, 7], 12),
        ([10, 4], 10),
        ([10, 5], 10),
        ([10, 6], 11),
        ([10, 10, 3], 15),
        ([10, 10, 10, 7], 22),
        ([10, 1], 10),
    ):
        assert uni_task(faces, kind="difficult_test", attribute=1)["roll"] == value, faces
    malcolm = uni_task(
        [10, 10, 3], kind="two_attributes", attribute=1, second_attribute=2, modifier=-5
    )
    assert malcolm["total"] == 13 and malcolm["levels"] == 3


def test_uni7_rule_of_one():
    for faces, value in (
        ([1, 3], -2),
        ([1, 2], -3),
        ([1, 4], -1),
        ([1, 5], 1),
        ([1, 8], 1),
        ([1, 10], 1),
        ([1, 1, 7], -5),
        ([1, 1, 4], -6),
        ([1, 1, 1, 3], -12),
    ):
        assert uni_task(faces, kind="difficult_test", attribute=1)["roll"] == value, faces


def test_uni8_ability_scores_seed_vampire():
    out = resolve(
        ACTIONS["ability_scores"],
        {
            "strength": 5,
            "dexterity": 4,
            "intelligence": 2,
            "perception": 2,
            "willpower": 2,
            "combat_skills": [2],
            "mental_skills": [2],
            "bonuses": [{"score": "combat", "name": "grapple", "value": 2}],
        },
    )
    scores = out["scores"]
    assert (scores["muscle"]["score"], scores["combat"]["score"], scores["brains"]["score"]) == (
        16,
        12,
        10,
    )
    assert out["situational"][0]["score"] == 14
    assert out["situational"][0]["needs"]["defending"] == 14
    assert scores["brains"]["needs"]["acting"] == 11
    # averages round down
    odd = resolve(
        ACTIONS["ability_scores"],
        {
            "strength": 1,
            "dexterity": 1,
            "intelligence": 2,
            "perception": 2,
            "willpower": 3,
            "combat_skills": [2, 3],
            "mental_skills": [1, 2],
        },
    )
    assert odd["scores"]["combat"]["score"] == 1 + 2 + 6
    assert odd["scores"]["brains"]["score"] == 2 + 1 + 6
    combat17 = resolve(
        ACTIONS["ability_scores"],
        {
            "strength": 1,
            "dexterity": 9,
            "intelligence": 1,
            "perception": 1,
            "willpower": 1,
            "combat_skills": [2],
        },
    )
    assert combat17["scores"]["combat"]["levels"] == 5


def test_uni9_damage_and_healing():
    assert resolve(ACTIONS["damage"], {"base_damage": 5, "attack_total": 17})["damage"] == 10
    assert resolve(ACTIONS["damage"], {"base_damage": 5, "attack_total": 8})["damage"] == 0
    healed = resolve(ACTIONS["heal"], {"doctor_total": 13, "life_points": 10})
    assert healed["healed"] == 3 and healed["life_points"] == 13


def test_uni10_working_together():
    short = resolve(
        ACTIONS["working_together"],
        {
            "mode": "short",
            "leader": {"attribute": 3, "skill": 3},
            "helpers": [{"attribute": 4, "skill": 4}, {"attribute": 2, "skill": 0}],
        },
        [6, 2, 9],  # helper 14 (3 levels): +3; helper 4 fails: -3; leader 9+6 = 15
    )
    assert short["help_bonus"] == 0 and short["total"] == 15 and short["levels"] == 4
    long = resolve(
        ACTIONS["working_together"],
        {
            "mode": "long",
            "participants": [{"attribute": 3, "skill": 3}, {"attribute": 1, "skill": 0}],
        },
        [6, 2],
    )
    assert long["gained"] == 2  # 12 is 2 levels; the failed 3 adds nothing
    assert long["participants"][1]["success"] is False


def test_uni11_lengthy_task_running_sum():
    out = resolve(ACTIONS["lengthy_task"], {"required_levels": 8, "accumulated": 3, "total": 13})
    assert out["accumulated"] == 6 and out["remaining"] == 2 and out["complete"] is False
    out = resolve(ACTIONS["lengthy_task"], {"required_levels": 8, "accumulated": 6, "total": 8})
    assert out["accumulated"] == 6


def test_uni12_panic_table_boundaries():
    expected = {
        9: None,
        8: "Startled",
        7: "Startled",
        6: "Freak out",
        5: "Freak out",
        4: "Run Away!",
        3: "Run Away!",
        2: "Total Terror",
        0: "Total Terror",
        -7: "Total Terror",
    }
    for total, row in expected.items():
        got = panic(total)
        assert (got["result"] if got else None) == row, total


def test_uni12_fear_test_modifiers():
    cordelia = resolve(
        ACTIONS["fear_test"], {"willpower": 2, "demonic_visage": True, "sudden": True}, [4]
    )
    assert cordelia["total"] == 5 and cordelia["panic"]["result"] == "Freak out"
    hideous = resolve(ACTIONS["fear_test"], {"willpower": 2, "attractiveness": -7}, [3])
    assert hideous["total"] == 3 + 4 - 3
    splatter = resolve(ACTIONS["fear_test"], {"willpower": 2, "splatter": 4}, [3])
    assert splatter["total"] == 3
    familiar = resolve(
        ACTIONS["fear_test"], {"willpower": 2, "splatter": 4, "sudden": True, "familiar": True}, [3]
    )
    assert familiar["total"] == 7 and familiar["panic"]["result"] == "Startled"


def test_uni13_movement_and_chase():
    move = resolve(ACTIONS["movement"], {"dexterity": 2, "constitution": 3})
    assert (move["yards_per_second"], move["yards_per_turn"], move["mph"]) == (5, 25, 10)
    runner = {"kind": "simple_test", "attribute": 2}
    escaped = resolve(ACTIONS["chase"], {"lead": 4, "runner": runner, "chaser": runner}, [9, 3])
    assert escaped["lead"] == 5 and escaped["status"] == "escaped"
    caught = resolve(ACTIONS["chase"], {"lead": 1, "runner": runner, "chaser": runner}, [3, 9])
    assert caught["lead"] == 0 and caught["status"] == "caught"


def test_uni14_jump_table_rows_and_the_acrobatics_bonus():
    table = {
        1: (1, 2),
        2: (1, 2),
        3: (2, 3),
        4: (4, 5),
        5: (4, 5),
        6: (5, 6),
        7: (7, 8),
        8: (7, 8),
        9: (10, 10),
        10: (10, 10),
        11: (12, 11),
        13: (16, 13),
    }
    for strength, distances in table.items():
        assert jump_distances(strength) == distances, strength
    out = resolve(
        ACTIONS["jump"],
        {
            "strength": 5,
            "jump": "long",
            "running_start": True,
            "acrobatics": {"attribute": 4, "skill": 2},
        },
        [5],  # 11: 2 levels
    )
    assert out["distance"] == 10 + 2


# ---------------------------------------------------------------------------
# Fuzzing and replay: every action, any request, any faces


def random_roll(rng: random.Random, name: str | None = None) -> dict:
    kind = rng.choice(list(ROLL_KINDS))
    request: dict = {"kind": kind, "attribute": rng.randint(1, 8)}
    if name:
        request["name"] = name
    if rng.random() < 0.5:
        request["attribute_name"] = rng.choice(ATTRIBUTES)
    if kind == "task":
        request["skill"] = rng.randint(0, 6)
        if request["skill"] == 0:
            request["complex"] = rng.random() < 0.5
            request["unskilled_penalty"] = rng.randint(-5, 0)
    elif kind == "two_attributes":
        request["second_attribute"] = rng.randint(1, 8)
    if rng.random() < 0.4:
        preset = rng.choice(list(DIFFICULTIES))
        request["difficulty"] = preset
        if rng.random() < 0.5:
            limits = DIFFICULTIES[preset]
            request["difficulty_modifier"] = rng.randint(limits.lowest, limits.highest)
    if rng.random() < 0.4:
        request["modifier"] = rng.randint(-10, 10)
    if rng.random() < 0.3:
        request["modifiers"] = [{"name": "Quality", "value": rng.randint(-5, 5)}]
    return request


def random_side(rng: random.Random, role: str) -> dict:
    if rng.random() < 0.25:
        return {"name": role, "score": rng.randint(5, 20), "score_name": "Combat"}
    return random_roll(rng, role)


def random_request(name: str, rng: random.Random) -> dict:
    """A valid request for any action, drawn from `rng`."""
    if name == "task":
        return random_roll(rng)
    if name == "resisted":
        attacker = random_roll(rng, "Attacker")
        return {"attacker": attacker, "defender": random_side(rng, "Defender")}
    if name == "ability_scores":
        traits = ("strength", "dexterity", "intelligence", "perception", "willpower")
        return {
            **{trait: rng.randint(1, 10) for trait in traits},
            "combat_skills": [rng.randint(0, 6) for _ in range(rng.randint(0, 3))],
            "mental_skills": [rng.randint(0, 6) for _ in range(rng.randint(0, 3))],
            "bonuses": [{"score": "combat", "name": "grapple", "value": rng.randint(-3, 3)}],
        }
    if name in ("damage", "heal", "lengthy_task"):
        total_key = {"damage": "attack_total", "heal": "doctor_total", "lengthy_task": "total"}
        request = (
            {total_key[name]: rng.randint(-5, 40)}
            if rng.random() < 0.5
            else {"success_levels": rng.randint(0, 10)}
        )
        if name == "damage":
            return {
                **request,
                "base_damage": rng.randint(0, 12),
                "life_points": rng.randint(-5, 40),
            }
        if name == "heal":
            return {**request, "life_points": rng.randint(-5, 20), "max_life_points": 30}
        return {**request, "required_levels": 10, "accumulated": rng.randint(0, 9)}
    if name == "working_together":
        if rng.random() < 0.5:
            group = [random_roll(rng, f"P{i}") for i in range(rng.randint(1, 4))]
            return {"mode": "long", "participants": group, "required_levels": 20}
        helpers = [random_roll(rng, f"H{i}") for i in range(rng.randint(1, 4))]
        return {"mode": "short", "leader": random_roll(rng, "Leader"), "helpers": helpers}
    if name == "fear_test":
        return {
            "willpower": rng.randint(1, 6),
            "demonic_visage": rng.random() < 0.5,
            "attractiveness": rng.randint(-10, 5),
            "splatter": rng.randint(0, 4),
            "sudden": rng.random() < 0.5,
            "familiar": rng.random() < 0.2,
            "horror_rule": rng.choice(HORROR_RULES),
            "turns_panicking": rng.randint(0, 3),
        }
    if name == "movement":
        return {"dexterity": rng.randint(1, 8), "constitution": rng.randint(1, 8)}
    if name == "chase":
        return {
            "lead": rng.randint(1, 4),
            "runner": random_roll(rng, "Runner"),
            "chaser": random_roll(rng, "Chaser"),
        }
    if name == "jump":
        request = {"strength": rng.randint(1, 15), "jump": rng.choice(["long", "high"])}
        request["running_start"] = rng.random() < 0.5
        if rng.random() < 0.5:
            request["acrobatics"] = random_roll(rng)
        return request
    if name == "set_difficulty":
        if rng.random() < 0.2:
            return {"clear": True}
        preset = rng.choice(list(DIFFICULTIES))
        request = {"difficulty": preset}
        if rng.random() < 0.5:
            limits = DIFFICULTIES[preset]
            request["difficulty_modifier"] = rng.randint(limits.lowest, limits.highest)
        return request
    raise AssertionError(f"no request generator for {name}")


def test_random_requests_cover_every_action():
    rng = random.Random(1)
    for name, action in ACTIONS.items():
        rolled = roll(action, random_request(name, rng), rng)
        assert_outcome_shape(action, rolled.outcome, rolled.faces)


def test_uni6_uni7_ten_thousand_rolls_replay_exactly():
    """Every logged roll resolves again from its request and faces to the same outcome."""
    rng = random.Random(20240613)
    names = sorted(ACTIONS)
    for _ in range(10_000):
        name = rng.choice(names)
        request = random_request(name, rng)
        rolled = roll(ACTIONS[name], request, rng)
        assert resolve(ACTIONS[name], request, rolled.faces) == rolled.outcome


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
face_lists = st.lists(
    st.one_of(st.integers(-2, 12), st.sampled_from([1, 10]), json_values), max_size=8
)
action_names = st.sampled_from(sorted(ACTIONS))


def resolves_or_refuses(name: str, request: object, faces: object) -> None:
    try:
        outcome = resolve(ACTIONS[name], request, faces)
    except RulesError:
        return
    json.dumps(outcome)


@given(action_names, json_values, face_lists)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_arbitrary_requests_never_crash(name, request, faces):
    resolves_or_refuses(name, request, faces)


# Keys that the request schemas and sub-requests use, so mutations hit real fields.
FIELD_NAMES = sorted(
    {key for action in ACTIONS.values() for key in action.schema}
    | set(ROLL_SCHEMA)
    | {"score", "score_name", "value"}
)


def mutate(data: st.DataObject, value: object) -> object:
    """Replace, drop or add one field somewhere inside a valid request."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutate(data, value[key])}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        return [*value[:index], mutate(data, value[index]), *value[index + 1 :]]
    if isinstance(value, dict):
        how = data.draw(st.sampled_from(["drop", "add", "replace"]))
        if how == "drop" and value:
            key = data.draw(st.sampled_from(sorted(value)))
            return {k: v for k, v in value.items() if k != key}
        if how == "add":
            key = data.draw(st.sampled_from(FIELD_NAMES))
            return {**value, key: data.draw(json_values)}
    return data.draw(json_values | st.integers(-1000, 1000))


@given(action_names, st.integers(0, 2**32), st.data())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_near_valid_requests_and_faces_never_crash(name, seed, data):
    rng = random.Random(seed)
    request = mutate(data, random_request(name, rng))
    faces = roll(ACTIONS[name], random_request(name, rng), rng).faces
    if data.draw(st.booleans()):
        faces = data.draw(face_lists)
    resolves_or_refuses(name, request, faces)


@given(action_names, st.integers(0, 2**32), face_lists)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_valid_requests_with_arbitrary_faces(name, seed, faces):
    resolves_or_refuses(name, random_request(name, random.Random(seed)), faces)
