"""Serenity Plus as a player sees it: pools, results, tests, complications, benefits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import serenity
from rules.kit import cortex
from rules.kit.actions import resolve
from rules.kit.errors import RulesError
from rules.serenity.actions import awareness_pool

FIGHTIN = {"die": "d8", "trait": "Fightin'", "group": "stylins"}
FIXIN = {"die": "d10", "trait": "Fixin'", "group": "stylins"}
VETERAN = {"die": "d6", "trait": "War Veteran", "group": "refinements", "parent": "Fightin'"}
LOYALTY = {"die": "d8", "trait": "Loyalty", "group": "values"}
MULE = {"die": "d6", "trait": "Mule", "group": "assets"}


def act(name, request, faces=()):
    return resolve(serenity.ACTIONS[name], request, list(faces))


def roll(*entries, faces, **extra):
    return act("roll", {"pool": list(entries), **extra}, faces)


# ---------------------------------------------------------------------------
# Rolling a pool


def test_ser4_worked_example_d10_9_d8_8_d6_6_d12_2_gives_17_effect_d6():
    out = act("roll", serenity.ACTIONS["roll"].example, [9, 8, 6, 2])
    assert out["result"] == 17
    assert out["effect"] == "d6"
    assert out["headline"] == "Result 17, effect d6"
    assert [d["role"] for d in out["dice"]] == ["result", "result", "effect", "unused"]
    assert out["dice"][3] == {
        "die": "d12",
        "trait": "Pistol",
        "group": "assets",
        "face": 2,
        "role": "unused",
    }
    assert out["botch"] is False and out["complications"] == []


def test_ser2_equal_faces_the_result_takes_the_smaller_dice():
    big = {"die": "d12", "trait": "Big Iron", "group": "assets"}
    out = roll(FIGHTIN, VETERAN, big, faces=[5, 5, 5])
    assert out["result"] == 10
    assert out["effect"] == "d12"
    assert [d["role"] for d in out["dice"]] == ["result", "result", "effect"]


def test_ser2_botch_when_no_die_shows_more_than_1():
    out = roll(FIGHTIN, VETERAN, faces=[1, 1])
    assert (out["result"], out["botch"], out["effect"]) == (0, True, "d4")
    assert out["headline"] == "Botch, result 0, 2 complications"


def test_ser3_each_1_is_a_complication_with_its_size():
    out = roll(FIGHTIN, VETERAN, MULE, faces=[7, 1, 1])
    assert out["result"] == 7
    assert out["complications"] == [
        {"die": "d6", "trait": "War Veteran", "group": "refinements"},
        {"die": "d6", "trait": "Mule", "group": "assets"},
    ]
    assert [d["role"] for d in out["dice"]] == ["result", "complication", "complication"]
    assert "GM may activate" in out["explanation"]


def test_ser8_plot_points_add_dice_to_the_result():
    out = roll(FIGHTIN, VETERAN, MULE, faces=[7, 5, 3], plot_points=2)
    assert (out["result"], out["effect"], out["plot_points_spent"]) == (15, "d4", 1)
    assert [d["role"] for d in out["dice"]] == ["result"] * 3


def test_ser8_spending_after_the_roll_resolves_the_same_faces_again():
    faces = [9, 8, 6, 2]
    before = act("roll", {"pool": serenity.ACTIONS["roll"].example["pool"]}, faces)
    after = act("roll", {"pool": serenity.ACTIONS["roll"].example["pool"], "plot_points": 1}, faces)
    assert (before["result"], before["effect"]) == (17, "d6")
    assert (after["result"], after["effect"], after["plot_points_spent"]) == (23, "d12", 1)
    assert [d["face"] for d in after["dice"]] == faces


# ---------------------------------------------------------------------------
# SER-1 pool rules


def test_ser1_a_roll_needs_exactly_one_stylin():
    with pytest.raises(RulesError, match="needs one Stylin'"):
        roll(LOYALTY, MULE, faces=[3, 3])
    with pytest.raises(RulesError, match="only one Stylin'"):
        roll(FIGHTIN, FIXIN, faces=[3, 3])


def test_ser1_refinements_only_under_the_rolled_stylin():
    with pytest.raises(RulesError, match="filed under Fightin', but this roll uses Fixin'"):
        roll(FIXIN, VETERAN, faces=[3, 3])
    with pytest.raises(RulesError, match="needs its parent"):
        roll(FIGHTIN, {k: v for k, v in VETERAN.items() if k != "parent"}, faces=[3, 3])
    curly = {**VETERAN, "parent": "fightin\u2019"}
    assert roll(FIGHTIN, curly, faces=[3, 4])["result"] == 7


def test_ser1_at_most_one_value_and_other_dice_join_freely():
    with pytest.raises(RulesError, match="at most one Value"):
        roll(FIGHTIN, LOYALTY, {**LOYALTY, "trait": "Family"}, faces=[3, 3, 3])
    aspect = {"die": "d4", "trait": "Browncoat", "group": "aspects"}
    resource = {"die": "d6", "trait": "Friends on Persephone", "group": "resources"}
    out = roll(FIGHTIN, VETERAN, LOYALTY, aspect, resource, MULE, faces=[2, 3, 4, 4, 5, 6])
    assert out["result"] == 11
    assert out["effect"] == "d8"  # Loyalty's 4 ties Browncoat's 4: the larger die


def test_ser1_every_die_names_a_group_the_pool_takes():
    with pytest.raises(RulesError, match="needs a group"):
        roll(FIGHTIN, {"die": "d6", "trait": "Luck"}, faces=[3, 3])
    with pytest.raises(RulesError, match="not a group"):
        roll(FIGHTIN, {"die": "d6", "trait": "Luck", "group": "skills"}, faces=[3, 3])
    with pytest.raises(RulesError, match="not a group"):
        roll(FIGHTIN, {"die": "d6", "trait": "Rain", "group": "situation"}, faces=[3, 3])
    with pytest.raises(RulesError, match="stress die must name its type"):
        roll(FIGHTIN, {"die": "d6", "trait": "Tired", "group": "stress"}, faces=[3, 3])
    with pytest.raises(RulesError, match="d14 is not a die size"):
        roll({**FIGHTIN, "die": "d14"}, faces=[3])


def test_ser1_gm_pools_are_free_form():
    out = roll(
        {"die": "d10", "trait": "Reavers", "group": "situation"},
        FIXIN,
        FIGHTIN,
        faces=[6, 4, 2],
        gm=True,
    )
    assert (out["result"], out["effect"]) == (10, "d8")


def test_ser9_a_challenged_value_rolls_three_dice_and_steps_down():
    out = roll(FIGHTIN, {**LOYALTY, "challenged": True}, faces=[2, 7, 6, 5])
    assert len(out["dice"]) == 4
    assert [d["trait"] for d in out["dice"]].count("Loyalty") == 3
    assert (out["result"], out["effect"]) == (13, "d8")
    assert out["value_steps_down"] == {
        "trait": "Loyalty",
        "group": "values",
        "from": "d8",
        "to": "d6",
    }
    d4 = roll(FIGHTIN, {**LOYALTY, "die": "d4", "challenged": True}, faces=[2, 3, 3, 3])
    assert d4["value_steps_down"]["to"] is None
    assert roll(FIGHTIN, LOYALTY, faces=[2, 3])["value_steps_down"] is None


def test_ser9_only_a_value_can_be_challenged():
    with pytest.raises(RulesError, match="only a Value can be challenged"):
        roll({**FIGHTIN, "challenged": True}, faces=[3])
    with pytest.raises(RulesError, match="must be true or false"):
        roll(FIGHTIN, {**LOYALTY, "challenged": 1}, faces=[3, 3])


# ---------------------------------------------------------------------------
# Tests and extraordinary successes

PLAYER = {"pool": [FIGHTIN, MULE]}
GM = {
    "pool": [
        {"die": "d8", "trait": "Guards", "group": "situation"},
        {"die": "d6", "trait": "Locked door", "group": "situation"},
    ]
}


def test_ser5_player_must_beat_the_gm_strictly_a_tie_fails():
    tie = act("test", {"player": PLAYER, "opposition": GM}, [5, 3, 4, 4])
    assert (tie["success"], tie["margin"], tie["extraordinary"]) == (False, 0, None)
    assert tie["headline"] == "Failure, 8 vs 8"
    win = act("test", {"player": PLAYER, "opposition": GM}, [5, 4, 4, 4])
    assert (win["success"], win["margin"]) == (True, 1)
    assert [d["roller"] for d in win["dice"]] == ["player"] * 2 + ["opposition"] * 2
    assert win["player"]["result"] == 9 and win["opposition"]["result"] == 8


def test_ser10_test_extraordinary_success_lists_the_players_menu():
    gm = {
        "pool": [
            *GM["pool"],
            {"die": "d6", "trait": "Shot", "group": "complications"},
            {"die": "d8", "trait": "Afraid", "group": "stress"},
        ]
    }
    out = act("test", {"player": PLAYER, "opposition": gm}, [8, 6, 2, 3, 1, 1])
    assert out["margin"] == 9
    extraordinary = out["extraordinary"]
    assert (extraordinary["by"], extraordinary["margin"]) == ("player", 9)
    menu = {(o["benefit"], o["trait"], o["to"]) for o in extraordinary["options"]}
    assert menu == {
        ("promote_asset", None, None),
        ("step_up_asset", "Mule", "d8"),
        ("remove_complication", "Shot", None),
        ("step_down_stress", "Afraid", "d6"),
    }


def test_ser10_gm_characters_have_their_own_menu():
    gm = {
        "pool": [
            {"die": "d10", "trait": "Jubal", "group": "situation"},
            {"die": "d8", "trait": "Bleeding", "group": "complications"},
        ]
    }
    out = act("test", {"player": PLAYER, "opposition": gm}, [2, 1, 9, 4])
    assert out["extraordinary"]["by"] == "opposition"
    assert [(o["benefit"], o["to"]) for o in out["extraordinary"]["options"]] == [
        ("step_up_complication", "d10")
    ]


def test_ser10_margin_of_4_is_not_extraordinary():
    out = act("test", {"player": PLAYER, "opposition": GM}, [8, 6, 6, 4])
    assert out["margin"] == 4 and out["extraordinary"] is None


def test_ser10_benefit_action_applies_a_listed_benefit():
    request = {"winner_pool": PLAYER["pool"], "loser_pool": GM["pool"], "margin": 6}
    out = act("benefit", {**request, "benefit": "step_up_asset", "target": "Mule"})
    assert out["benefit"]["from"] == "d6" and out["benefit"]["to"] == "d8"
    out = act("benefit", {**request, "benefit": "step_up_asset"})  # the only asset
    assert out["benefit"]["trait"] == "Mule"
    promoted = act("benefit", {**request, "benefit": "promote_asset", "target": "Cover"})
    assert promoted["benefit"]["trait"] == "Cover"
    with pytest.raises(RulesError, match="name the scene Asset"):
        act("benefit", {**request, "benefit": "promote_asset"})
    with pytest.raises(RulesError, match="benefit must be one of"):
        act("benefit", {**request, "benefit": "remove_complication"})
    with pytest.raises(RulesError, match="margin of 5 or more"):
        act("benefit", {**request, "margin": 4, "benefit": "promote_asset", "target": "x"})
    with pytest.raises(RulesError, match="one of: 'Mule'"):
        act("benefit", {**request, "benefit": "step_up_asset", "target": "Pistol"})


# ---------------------------------------------------------------------------
# Complications, stress, contests


def test_ser3_activating_a_complication_gives_a_plot_point_and_a_d6():
    out = act("activate_complication", {"plot_points": 2, "complication": "Winged"})
    assert out["plot_points"] == 3
    assert out["complications"] == {"Winged": "d6"}
    assert out["change"] == {"trait": "Winged", "from": None, "to": "d6"}


def test_ser3_a_fitting_complication_steps_up_instead():
    out = act(
        "activate_complication",
        {"plot_points": 0, "complications": {"Winged": "d8"}, "complication": "winged"},
    )
    assert out["complications"] == {"Winged": "d10"}
    with pytest.raises(RulesError, match="already d12"):
        act(
            "activate_complication",
            {"plot_points": 0, "complications": {"Winged": "d12"}, "complication": "Winged"},
        )
    with pytest.raises(RulesError, match="at most 99"):
        act("activate_complication", {"plot_points": 99, "complication": "Winged"})


def test_ser7_serenity_stress_uses_the_five_decided_types():
    assert serenity.STRESS_TYPES == ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")
    assert serenity.SHEET_TEMPLATE.group("stress").fixed_names == serenity.STRESS_TYPES
    out = act("stress", {"type": "Exhausted", "die": "d6"})
    assert out["stress"]["Exhausted"] == "d6" and out["from"] is None


def test_ser6_ser7_serenity_contest_from_start_to_stress():
    start = serenity.ACTIONS["contest_start"].example
    contest = act("contest_start", start)["contest"]
    assert contest["turn"] == 1  # the thugs open
    thugs = {
        "pool": [
            {"die": "d10", "trait": "Thugs", "group": "situation"},
            {"die": "d8", "trait": "Knives", "group": "situation"},
            {"die": "d6", "trait": "Numbers", "group": "situation"},
        ]
    }
    contest = act("contest_roll", {"contest": contest, **thugs}, [7, 5, 4])["contest"]
    assert contest["standing"]["effect"] == "d6"
    out = act("contest_roll", {"contest": contest, "pool": [FIGHTIN, VETERAN]}, [6, 5])
    assert out["winner"] == 1 and out["contest"]["stress_die"] == "d6"
    assert out["contest"]["extraordinary"] is False
    done = act("contest_stress", {"contest": out["contest"], "type": "Injured"})
    assert done["stress"]["Injured"] == "d6"
    assert done["headline"] == "Mal: Injured d6"


# ---------------------------------------------------------------------------
# Awareness and knowledge

STYLINS = {"Fightin'": "d10", "Finaglin\u2019": "d6", "Fixin'": "d8"}
REFINEMENTS = [
    {"trait": "War Veteran", "die": "d8", "parent": "Fightin'"},
    {"trait": "Mechanic", "die": "d10", "parent": "Fixin'"},
]


def test_ser11_awareness_defaults_to_finaglin():
    assert awareness_pool(STYLINS, REFINEMENTS) == [
        {"die": "d6", "trait": "Finaglin\u2019", "group": "stylins"}
    ]


def test_ser11_a_fitting_refinement_rolls_with_its_own_stylin():
    pool = awareness_pool(STYLINS, REFINEMENTS, "Mechanic")
    assert pool == [
        {"die": "d8", "trait": "Fixin'", "group": "stylins"},
        {"die": "d10", "trait": "Mechanic", "group": "refinements", "parent": "Fixin'"},
    ]
    assert act("roll", {"pool": pool}, [3, 9])["result"] == 12


def test_ser11_awareness_action_and_its_refusals():
    out = act(
        "awareness_pool",
        {"stylins": STYLINS, "refinements": REFINEMENTS, "refinement": "War Veteran"},
    )
    assert [e["trait"] for e in out["pool"]] == ["Fightin'", "War Veteran"]
    with pytest.raises(RulesError, match="no Finaglin'"):
        act("awareness_pool", {"stylins": {"Fightin'": "d8"}})
    with pytest.raises(RulesError, match="no Refinement called Doctor"):
        act("awareness_pool", {"stylins": STYLINS, "refinement": "Doctor"})


# ---------------------------------------------------------------------------
# The sheet


def test_sheet_template_has_the_seed_groups():
    template = serenity.SHEET_TEMPLATE
    keys = [g.key for g in template.groups]
    assert keys == [
        "stylins",
        "refinements",
        "values",
        "aspects",
        "resources",
        "assets",
        "stress",
        "complications",
    ]
    assert template.group("refinements").parent == "stylins"
    assert all(g.kind == "die" for g in template.groups)
    assert template.counter("plot_points").maximum == cortex.MAX_PLOT_POINTS
    assert serenity.NAME == "Serenity Plus"


# ---------------------------------------------------------------------------
# A roll against the number to beat the GM's opposition set (SER-5, SER-10)

THUGS = {"die": "d8", "trait": "Armed thugs", "group": "situation"}
INJURED = {"die": "d8", "trait": "Injured", "group": "stress"}


def test_ser5_a_roll_against_the_number_to_beat_says_success_and_by_how_much():
    out = roll(FIGHTIN, VETERAN, LOYALTY, faces=[7, 5, 3], difficulty=10)
    assert out["result"] == 12 and out["success"] is True and out["margin"] == 2
    assert out["headline"] == "Result 12 vs 10 — success by 2, effect d8"
    assert out["extraordinary"] is None
    assert "12 beats 10" in out["explanation"]


def test_ser5_a_tie_fails_on_the_cards_face():
    out = roll(FIGHTIN, VETERAN, faces=[6, 4], difficulty=10)
    assert out["success"] is False and out["margin"] == 0
    assert out["headline"] == "Result 10 vs 10 — failure: a tie fails"


def test_ser10_beating_the_number_by_5_is_an_extraordinary_success_with_its_benefits():
    out = roll(FIGHTIN, VETERAN, MULE, faces=[8, 6, 2], difficulty=9, opposition_pool=[INJURED])
    assert out["headline"] == "Result 14 vs 9 — extraordinary success by 5, effect d6"
    won = out["extraordinary"]
    assert won["by"] == "player" and won["margin"] == 5
    kinds = {o["benefit"] for o in won["options"]}
    assert {"promote_asset", "step_up_asset", "step_down_stress"} <= kinds


def test_ser10_falling_short_by_5_is_the_oppositions_extraordinary_success():
    out = roll(FIGHTIN, faces=[3], difficulty=8)
    assert out["headline"] == (
        "Result 3 vs 8 — failure by 5: an extraordinary success for the opposition"
    )
    assert out["extraordinary"]["by"] == "opposition"


def test_ser5_a_botch_against_the_number_fails_and_keeps_its_complications():
    out = roll(FIGHTIN, VETERAN, faces=[1, 1], difficulty=0)
    assert out["headline"] == "Botch, result 0 vs 0 — failure: a tie fails, 2 complications"


def test_ser5_the_gms_opposition_pool_says_it_sets_the_number_to_beat():
    out = act("roll", {"pool": [THUGS], "gm": True, "opposes": True}, [6])
    assert out["headline"] == "Result 6, effect d4 — the number to beat"
    assert "success" not in out


def test_ser5_the_gm_sets_the_number_to_beat_or_clears_it():
    out = act("set_difficulty", {"difficulty": 11, "note": "alert guards"})
    assert out["difficulty"] == 11 and out["headline"] == "The GM sets the number to beat: 11"
    assert act("set_difficulty", {"clear": True})["difficulty"] is None
    with pytest.raises(RulesError):
        act("set_difficulty", {})


STYLIN_DICE = st.lists(st.sampled_from(["d4", "d6", "d8", "d10", "d12"]), min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(sizes=STYLIN_DICE, number=st.integers(0, 30), data=st.data())
def test_ser5_ser10_a_roll_against_a_number_is_the_same_roll_scored_and_strictly_greater_wins(
    sizes, number, data
):
    """Scoring changes nothing of the roll (result, effect, dice); success is strictly
    greater; SER-10 is a margin of 5 or more either way; the face says which."""
    pool = [FIGHTIN] + [{"die": s, "trait": f"Asset {i}", "group": "assets"} for i, s in
                        enumerate(sizes)]  # fmt: skip
    faces = [data.draw(st.integers(1, int(e["die"][1:]))) for e in pool]
    plain = roll(*pool, faces=faces)
    scored = roll(*pool, faces=faces, difficulty=number)
    for key in ("result", "effect", "dice", "complications", "botch"):
        assert scored[key] == plain[key]
    assert scored["success"] is (plain["result"] > number)
    assert scored["margin"] == plain["result"] - number
    assert (scored["extraordinary"] is not None) is (abs(scored["margin"]) >= 5)
    verdict = "success" if scored["success"] else "failure"
    assert f" vs {number} — " in scored["headline"] and verdict in scored["headline"]
