"""Smallville as a player sees it: what a pool costs, the side pool, trouble, Shut Down."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import smallville
from rules.kit.actions import resolve
from rules.kit.errors import RulesError
from rules.smallville.sheet import VALUES

JUSTICE = {"die": "d8", "trait": "Justice", "group": "values"}
LANA = {"die": "d6", "trait": "Lana", "group": "relationships"}
CHLOE = {"die": "d10", "trait": "Chloe", "group": "relationships"}
SPEED = {"die": "d10", "trait": "Super-speed", "group": "abilities"}
FARM_BOY = {"die": "d6", "trait": "Farm boy", "group": "distinctions"}
KRYPTONIAN = {"die": "d8", "trait": "Kryptonian", "group": "distinctions", "heritage": True}
AFRAID = {"die": "d8", "trait": "Afraid", "group": "stress"}
KRYPTONITE = {"die": "d6", "trait": "Kryptonite", "group": "limits", "ability": "Super-speed"}
DETAIL = {"die": "d6", "trait": "Loose railing", "group": "useful_details"}
FARM = {"die": "d8", "trait": "Kent Farm", "group": "locations"}


def act(name, request, faces=()):
    return resolve(smallville.ACTIONS[name], request, list(faces))


def roll(*entries, faces, **extra):
    return act("roll", {"pool": list(entries), **extra}, faces)


def costs(out):
    return [(c["trait"], c["dice"], c["plot_points"]) for c in out["costs"]]


# ---------------------------------------------------------------------------
# Free and paid dice


def test_smv1_a_value_and_a_relationship_are_free():
    out = roll(JUSTICE, LANA, faces=[6, 4])
    assert (out["result"], out["effect"], out["plot_points_spent"]) == (10, "d4", 0)
    assert costs(out) == [("Justice", 1, 0), ("Lana", 1, 0)]


def test_smv1_a_player_needs_both_a_value_and_a_relationship():
    with pytest.raises(RulesError, match="needs a Value die"):
        roll(LANA, SPEED, faces=[3, 3])
    with pytest.raises(RulesError, match="needs a Relationship die"):
        roll(JUSTICE, SPEED, faces=[3, 3])
    with pytest.raises(RulesError, match="only one Value"):
        roll(JUSTICE, {**JUSTICE, "trait": "Love"}, LANA, faces=[3, 3, 3])


def test_smv1_the_watchtower_may_roll_a_situation():
    storm = {"die": "d12", "trait": "Meteor storm", "group": "situation"}
    out = roll(storm, SPEED, faces=[11, 4], watchtower=True)
    assert out["result"] == 15
    with pytest.raises(RulesError, match="not a group"):
        roll(JUSTICE, LANA, storm, faces=[3, 3, 3])


def test_smv2_challenging_rolls_three_dice_and_steps_down_after_the_conflict():
    out = roll(
        {**JUSTICE, "challenged": True}, {**LANA, "challenged": True}, faces=[2, 3, 8, 1, 6, 5]
    )
    assert len(out["dice"]) == 6
    assert (out["result"], out["effect"]) == (14, "d6")
    assert costs(out) == [("Justice", 3, 0), ("Lana", 3, 0)]
    assert [(s["trait"], s["from"], s["to"]) for s in out["steps_down_after_conflict"]] == [
        ("Justice", "d8", "d6"),
        ("Lana", "d6", "d4"),
    ]


def test_smv2_only_the_value_and_first_relationship_can_be_challenged():
    with pytest.raises(RulesError, match="only the Relationship the conflict is about"):
        roll(JUSTICE, LANA, {**CHLOE, "challenged": True}, faces=[3] * 5)
    with pytest.raises(RulesError, match="only a Value or Relationship can be challenged"):
        roll(JUSTICE, LANA, {**SPEED, "challenged": True}, faces=[3] * 3)


def test_smv2_a_further_relationship_costs_1():
    out = roll(JUSTICE, LANA, CHLOE, faces=[3, 3, 3])
    assert costs(out)[2] == ("Chloe", 1, 1)
    assert out["plot_points_spent"] == 1


def test_smv3_one_ability_or_distinction_is_free_more_cost_1_each():
    out = roll(JUSTICE, LANA, SPEED, FARM_BOY, {**SPEED, "trait": "Flight"}, faces=[3] * 5)
    assert costs(out)[2:] == [("Super-speed", 1, 0), ("Farm boy", 1, 1), ("Flight", 1, 1)]
    assert out["plot_points_for_dice"] == 2


def test_smv3_a_heritage_rolls_only_when_the_roll_is_about_it():
    with pytest.raises(RulesError, match="Kryptonian d8 is a Heritage"):
        roll(JUSTICE, LANA, KRYPTONIAN, faces=[3] * 3)
    out = roll(JUSTICE, LANA, KRYPTONIAN, faces=[3, 3, 7], heritage_roll=True)
    assert costs(out)[2] == ("Kryptonian", 1, 0)
    with pytest.raises(RulesError, match="only a Distinction can be a Heritage"):
        roll(JUSTICE, LANA, {**SPEED, "heritage": True}, faces=[3] * 3, heritage_roll=True)


def test_smv4_the_opponents_stress_is_free_once_more_stress_costs_1():
    out = roll(JUSTICE, LANA, AFRAID, {**AFRAID, "trait": "Angry"}, faces=[3] * 4)
    assert costs(out)[2:] == [("Afraid", 1, 0), ("Angry", 1, 1)]
    with pytest.raises(RulesError, match="stress die must name its type"):
        roll(JUSTICE, LANA, {**AFRAID, "trait": "Sad"}, faces=[3] * 3)


def test_smv5_an_opponents_limit_adds_three_free_dice_and_offers_shut_down():
    out = roll(JUSTICE, LANA, KRYPTONITE, faces=[2, 2, 6, 5, 4])
    assert (out["result"], out["effect"]) == (11, "d6")
    assert costs(out)[2] == ("Kryptonite", 3, 0)
    assert out["shut_down_option"] == {"limit": "Kryptonite", "ability": "Super-speed"}
    with pytest.raises(RulesError, match="only one of the opponent's Limits"):
        roll(JUSTICE, LANA, KRYPTONITE, KRYPTONITE, faces=[3] * 8)


def test_smv5_shut_down_costs_1_free_when_the_opponent_was_stressed_out():
    request = {"won": True, "limit": "Kryptonite", "ability": "Super-speed"}
    assert act("shut_down", request)["plot_points_paid"] == 1
    free = act("shut_down", {**request, "stressed_out": True})
    assert (free["plot_points_paid"], free["shut_down"]) == (0, "Super-speed")
    with pytest.raises(RulesError, match="needs a win"):
        act("shut_down", {**request, "won": False})


def test_smv6_a_useful_detail_is_a_d6_for_1_free_when_reused():
    out = roll(
        JUSTICE, LANA, DETAIL, {**DETAIL, "trait": "Dark barn", "reused": True}, faces=[3] * 4
    )
    assert costs(out)[2:] == [("Loose railing", 1, 1), ("Dark barn", 1, 0)]
    with pytest.raises(RulesError, match="a Useful Detail is a d6"):
        roll(JUSTICE, LANA, {**DETAIL, "die": "d8"}, faces=[3] * 3)


def test_smv6_the_watchtower_takes_a_detail_die_out_of_the_trouble_pool():
    trouble_detail = {**DETAIL, "die": "d10", "from_trouble": True}
    out = roll(trouble_detail, faces=[9], watchtower=True, trouble_pool=["d6", "d10", "d10"])
    assert out["trouble_pool"] == ["d10", "d6"]
    assert costs(out) == [("Loose railing", 1, 0)]
    with pytest.raises(RulesError, match="no d12 to take"):
        roll({**trouble_detail, "die": "d12"}, faces=[9], watchtower=True, trouble_pool=["d6"])
    with pytest.raises(RulesError, match="only the Watchtower"):
        roll(JUSTICE, LANA, trouble_detail, faces=[3] * 3, trouble_pool=["d10"])


def test_smv7_resources_roll_apart_free_when_on_the_sheet_and_unused():
    spent = {**FARM, "trait": "Talon", "used": True}
    borrowed = {"die": "d6", "trait": "Lex's car", "group": "extras", "on_sheet": False}
    out = act(
        "roll", {"pool": [JUSTICE, LANA], "side_pool": [FARM, spent, borrowed]}, [5, 4, 7, 1, 6]
    )
    assert costs(out)[2:] == [("Kent Farm", 1, 0), ("Talon", 1, 1), ("Lex's car", 1, 1)]
    assert out["resources_used"] == ["Kent Farm", "Talon"]
    assert out["result"] == 5 + 4 + 7
    assert out["side_die"]["trait"] == "Kent Farm"
    assert [d["role"] for d in out["dice"]] == ["result", "result", "side", "unused", "unused"]
    assert out["complications"] == []  # the Talon's 1 is no complication


def test_smv7_a_side_die_showing_1_adds_nothing():
    out = act("roll", {"pool": [JUSTICE, LANA], "side_pool": [FARM]}, [5, 4, 1])
    assert out["result"] == 9 and out["side_die"] is None
    assert out["trouble_offer"] == 0


def test_smv8_two_highest_main_dice_plus_highest_side_die_and_plot_points():
    out = act("roll", smallville.ACTIONS["roll"].example, [7, 4, 9, 1, 5])
    assert out["main_result"] == 9 + 7 + 4
    assert out["result"] == 9 + 7 + 4 + 5
    assert out["effect"] == "d4"
    assert (out["plot_points_for_dice"], out["plot_points_for_result"]) == (1, 1)
    assert out["plot_points_spent"] == 2


def test_smv8_the_effect_die_comes_from_the_main_pool_only():
    out = act("roll", {"pool": [JUSTICE, LANA, SPEED], "side_pool": [FARM, FARM]}, [7, 5, 2, 8, 6])
    assert (out["result"], out["effect"]) == (20, "d10")


@st.composite
def rolled_requests(draw):
    """A valid pool (Value, Relationship, more Abilities) with a side pool, and its faces."""
    sizes = st.sampled_from(("d4", "d6", "d8", "d10", "d12"))
    main = [JUSTICE, LANA] + [
        {"die": draw(sizes), "trait": f"Ability {i}", "group": "abilities"}
        for i in range(draw(st.integers(0, 3)))
    ]
    side = [
        {"die": draw(sizes), "trait": f"Place {i}", "group": "extras"}
        for i in range(draw(st.integers(0, 3)))
    ]
    faces = [draw(st.integers(1, int(e["die"][1:]))) for e in main + side]
    request = {"pool": main, "side_pool": side, "plot_points": draw(st.integers(0, 2))}
    return request, faces, len(main)


@settings(max_examples=150, deadline=None)
@given(rolled_requests())
def test_smv7_smv8_smv9_invariants(rolled):
    """The result is the main result plus the best side die above 1; side 1s are never
    complications; main 1s always are; all main dice 1 fails outright with 0."""
    request, faces, main_count = rolled
    out = act("roll", request, faces)
    main_faces, side_faces = faces[:main_count], faces[main_count:]
    best_side = max((f for f in side_faces if f != 1), default=0)
    assert out["fails_outright"] == all(f == 1 for f in main_faces)
    expected = 0 if out["fails_outright"] else out["main_result"] + best_side
    assert out["result"] == expected
    assert len(out["complications"]) == main_faces.count(1)
    roles = [d["role"] for d in out["dice"]]
    assert all(role in ("side", "unused") for role in roles[main_count:])
    assert all(d["face"] != 1 for d in out["dice"] if d["role"] in ("result", "effect", "side"))


def test_smv9_all_main_dice_showing_1_fail_outright():
    out = act("roll", {"pool": [JUSTICE, LANA], "side_pool": [FARM]}, [1, 1, 8])
    assert (out["fails_outright"], out["result"]) == (True, 0)
    assert out["headline"] == "Fails outright, all main dice 1"
    assert out["side_die"] is None
    assert out["trouble_offer"] == 2


def test_smv9_the_watchtowers_1s_let_the_player_remove_trouble():
    lex = [
        {"die": "d10", "trait": "Power", "group": "values"},
        {"die": "d8", "trait": "Lionel", "group": "relationships"},
    ]
    out = roll(*lex, faces=[1, 6], watchtower=True)
    assert out["trouble_removal"] == ["d10"] and out["trouble_offer"] == 0


@pytest.mark.parametrize(
    ("ones", "added"),
    [(1, ["d6"]), (2, ["d8"]), (4, ["d12"]), (5, ["d12", "d6"]), (6, ["d12", "d8"])],
)
def test_smv9_the_watchtower_pays_per_1_a_d6_stepped_up_by_further_1s(ones, added):
    out = act("trouble", {"trouble_pool": ["d4"], "operation": "add", "ones": ones})
    assert out["added"] == added
    assert out["plot_points_paid"] == ones
    assert out["paid_by"] == "watchtower"
    assert sorted(out["trouble_pool"]) == sorted(["d4", *added])


def test_smv9_a_player_removes_a_trouble_die_of_that_size_or_smaller():
    pool = ["d12", "d8", "d6"]
    out = act("trouble", {"trouble_pool": pool, "operation": "remove", "one_die": "d10"})
    assert (out["removed"], out["trouble_pool"], out["paid_by"]) == ("d8", ["d12", "d6"], "player")
    out = act(
        "trouble", {"trouble_pool": pool, "operation": "remove", "one_die": "d10", "die": "d6"}
    )
    assert out["trouble_pool"] == ["d12", "d8"]
    with pytest.raises(RulesError, match="no die of d4 or smaller"):
        act("trouble", {"trouble_pool": pool, "operation": "remove", "one_die": "d4"})
    with pytest.raises(RulesError, match="no d12 of d10 or smaller"):
        act(
            "trouble", {"trouble_pool": pool, "operation": "remove", "one_die": "d10", "die": "d12"}
        )


# ---------------------------------------------------------------------------
# Tests, contests and stress (SMV-10)

WATCHTOWER = {
    "pool": [
        {"die": "d8", "trait": "Locked vault", "group": "situation"},
        {"die": "d6", "trait": "Guards", "group": "situation"},
    ]
}


def test_smv10_a_test_tie_fails_and_there_is_no_extraordinary_success():
    player = {"pool": [JUSTICE, LANA]}
    tie = act("test", {"player": player, "opposition": WATCHTOWER}, [5, 3, 4, 4])
    assert (tie["success"], tie["margin"]) == (False, 0)
    big = act("test", {"player": player, "opposition": WATCHTOWER}, [8, 6, 2, 2])
    assert (big["success"], big["margin"], big["extraordinary"]) == (True, 10, None)


def test_smv10_contests_and_stress_work_as_serenitys():
    contest = act("contest_start", smallville.ACTIONS["contest_start"].example)["contest"]
    contest = act("contest_roll", {"contest": contest, **WATCHTOWER}, [8, 6])["contest"]
    assert contest["standing"]["result"] == 14 and contest["turn"] == 0
    clark = {"pool": [JUSTICE, LANA, SPEED], "side_pool": [FARM]}
    contest = act("contest_roll", {"contest": contest, **clark}, [8, 5, 9, 3])["contest"]
    assert contest["standing"]["result"] == 20
    assert contest["standing"]["effect"] == "d6"
    out = act("contest_roll", {"contest": contest, **WATCHTOWER}, [2, 3])
    assert out["winner"] == 0 and out["contest"]["stress_die"] == "d6"
    assert out["contest"]["extraordinary"] is False  # short by 15, but Smallville has none
    done = act(
        "contest_stress",
        {"contest": out["contest"], "type": "Insecure", "stress": {"Insecure": "d12"}},
    )
    assert done["taken_out"] is True
    with pytest.raises(RulesError, match="type must be one of: Afraid, Angry"):
        act("contest_stress", {"contest": out["contest"], "type": "Injured!"})


def test_smv10_stress_types_are_fixed_on_the_sheet():
    template = smallville.SHEET_TEMPLATE
    assert template.group("stress").fixed_names == (
        "Afraid",
        "Angry",
        "Exhausted",
        "Injured",
        "Insecure",
    )
    out = act("stress", {"stress": {"Angry": "d6"}, "type": "Angry", "die": "d10"})
    assert (out["from"], out["to"]) == ("d6", "d10")


def test_sheet_template_has_the_seed_groups():
    template = smallville.SHEET_TEMPLATE
    assert [g.key for g in template.groups] == [
        "values",
        "relationships",
        "abilities",
        "distinctions",
        "limits",
        "locations",
        "extras",
        "stress",
    ]
    assert template.group("values").fixed_names == VALUES
    assert template.group("distinctions").flags == ("heritage",)
    assert template.group("limits").link_group == "abilities"
    assert smallville.NAME == "Smallville"


# ---------------------------------------------------------------------------
# A roll against the number to beat the Watchtower's opposition set (SMV-10)


def test_smv10_a_roll_against_the_number_to_beat_says_success_without_a_margin():
    out = roll(JUSTICE, LANA, faces=[7, 5], difficulty=11)
    assert out["success"] is True and "margin" not in out
    assert out["headline"] == "Result 12 vs 11 — success, effect d4"


def test_smv10_a_tie_fails_and_the_paid_dice_stay_on_the_face():
    out = roll(JUSTICE, LANA, SPEED, faces=[7, 5, 3], difficulty=15, plot_points=1)
    assert out["result"] == 15 and out["success"] is False
    assert out["headline"] == "Result 15 vs 15 — failure: a tie fails, 1 plot point"
    out = roll(JUSTICE, LANA, faces=[7, 5], difficulty=12)
    assert out["headline"] == "Result 12 vs 12 — failure: a tie fails"


def test_smv9_smv10_a_roll_that_fails_outright_fails_against_any_number():
    out = roll(JUSTICE, LANA, faces=[1, 1], difficulty=0)
    assert out["success"] is False
    assert out["headline"].startswith("Fails outright, result 0 vs 0 — failure")


def test_smv10_smallville_has_no_extraordinary_success():
    out = roll(JUSTICE, LANA, faces=[8, 6], difficulty=2)
    assert "extraordinary" not in out and out["headline"].startswith("Result 14 vs 2 — success,")


@settings(max_examples=150, deadline=None)
@given(faces=st.tuples(st.integers(1, 8), st.integers(1, 6)), number=st.integers(0, 20))
def test_smv10_strictly_greater_succeeds_and_the_roll_is_unchanged(faces, number):
    plain = roll(JUSTICE, LANA, faces=list(faces))
    scored = roll(JUSTICE, LANA, faces=list(faces), difficulty=number)
    assert scored["result"] == plain["result"] and scored["dice"] == plain["dice"]
    assert scored["success"] is (plain["result"] > number)
