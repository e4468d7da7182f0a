"""The Cortex Plus core both games share: result and effect, stress, contests.

Also the family-wide guarantees: every action of Serenity Plus and Smallville
either answers or refuses with a RulesError, whatever it is sent, and every
roll resolves again from its recorded faces to the same outcome.
"""

from __future__ import annotations

import ast
import itertools
import json
import re
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import serenity, smallville
from rules.kit import cortex
from rules.kit.actions import resolve, roll
from rules.kit.cortex import Contest, ContestRoll, ContestSide, contest_json, result_and_effect
from rules.kit.dice import SIZES, Die
from rules.kit.errors import RulesError
from rules.smallville import sheet as smallville_sheet

SYSTEMS = {"serenity": serenity, "smallville": smallville}
FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


# ---------------------------------------------------------------------------
# Result and effect


def test_ser4_worked_example_result_17_effect_d6():
    rolled = result_and_effect([10, 8, 6, 12], [9, 8, 6, 2])
    assert rolled.result == 17
    assert rolled.effect_size == 6
    assert rolled.result_dice == (0, 1)
    assert rolled.effect_die == 2


def test_ser2_equal_faces_leave_the_larger_die_for_the_effect():
    rolled = result_and_effect([12, 6, 8], [5, 5, 5])
    assert rolled.result == 10
    assert sorted(rolled.result_dice) == [1, 2]
    assert rolled.effect_size == 12


def test_ser4_equal_unused_faces_give_the_larger_effect_die():
    rolled = result_and_effect([10, 8, 4, 10, 6], [9, 8, 3, 3, 3])
    assert rolled.effect_size == 10


def test_ser4_effect_is_the_highest_face_not_the_largest_die():
    rolled = result_and_effect([6, 6, 4, 12], [6, 5, 4, 3])
    assert rolled.effect_size == 4


def test_ser2_one_die_above_one_is_the_result_and_effect_is_d4():
    rolled = result_and_effect([8, 6], [7, 1])
    assert (rolled.result, rolled.effect_size, rolled.botch) == (7, 4, False)


def test_ser2_no_die_above_one_is_a_botch_with_result_0():
    rolled = result_and_effect([8, 6, 12], [1, 1, 1])
    assert (rolled.result, rolled.botch, rolled.effect_size) == (0, True, 4)


def test_ser3_every_die_showing_one_is_a_complication():
    rolled = result_and_effect([8, 6, 12, 4], [1, 5, 1, 3])
    assert rolled.complications == (0, 2)
    assert rolled.roles() == ["complication", "result", "complication", "result"]


def test_ser8_plot_points_add_dice_to_the_result_never_the_effect():
    rolled = result_and_effect([10, 8, 6, 12], [9, 8, 6, 2], plot_points=1)
    assert rolled.result == 23
    assert rolled.bought_dice == (2,)
    assert rolled.effect_size == 12
    assert rolled.plot_points_spent == 1


def test_ser8_plot_points_without_dice_left_are_not_spent():
    rolled = result_and_effect([10, 8, 6], [9, 1, 6], plot_points=3)
    assert (rolled.result, rolled.plot_points_spent, rolled.effect_size) == (15, 0, 4)


@st.composite
def rolled_pools(draw, max_dice=7):
    sizes = draw(st.lists(st.sampled_from(SIZES), min_size=1, max_size=max_dice))
    faces = [draw(st.integers(1, s)) for s in sizes]
    return sizes, faces, draw(st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(rolled_pools())
def test_ser2_ser4_ser8_invariants(pool):
    """A result never counts a 1; the effect die is never in the result, never a 1,
    and is the best unused die; the result is the best sum the dice allow."""
    sizes, faces, plot_points = pool
    rolled = result_and_effect(sizes, faces, plot_points)
    counted = set(rolled.result_dice)
    assert all(faces[i] != 1 for i in counted)
    assert rolled.result == sum(faces[i] for i in counted)
    non_ones = [i for i in range(len(faces)) if faces[i] != 1]
    assert len(counted) == min(len(non_ones), 2 + plot_points)
    unused = [i for i in non_ones if i not in counted]
    if rolled.effect_die is None:
        assert not unused and rolled.effect_size == 4
    else:
        assert rolled.effect_die not in counted and faces[rolled.effect_die] != 1
        assert rolled.effect_size == sizes[rolled.effect_die]
    # The best sum, and among the best sums the best effect (highest face, then size).
    best = max(
        (sum(faces[i] for i in chosen), _effect_key(sizes, faces, non_ones, chosen))
        for chosen in itertools.combinations(non_ones, len(counted))
    )
    assert (rolled.result, _effect_key(sizes, faces, non_ones, counted)) == best
    assert set(rolled.complications) == {i for i in range(len(faces)) if faces[i] == 1}


def _effect_key(sizes, faces, non_ones, chosen):
    rest = [(faces[i], sizes[i]) for i in non_ones if i not in set(chosen)]
    return max(rest, default=(0, 4))


# ---------------------------------------------------------------------------
# Stress


@pytest.mark.parametrize(
    ("held", "new", "now", "taken_out"),
    [
        (None, 6, 6, False),
        (6, 8, 8, False),
        (8, 6, 10, False),
        (8, 8, 10, False),
        (10, 12, 12, False),
        (12, 4, 12, True),
        (12, 12, 12, True),
    ],
)
def test_ser7_stress_rule(held, new, now, taken_out):
    assert cortex.add_stress(held, new) == (now, taken_out)


def test_ser7_stress_action_updates_the_track():
    action = serenity.ACTIONS["stress"]
    out = resolve(
        action, {"stress": {"Injured": "d10", "Afraid": None}, "type": "Injured", "die": "d6"}
    )
    assert out["stress"]["Injured"] == "d12"
    assert out["stress"]["Angry"] is None
    assert out["taken_out"] is False
    out = resolve(action, {"stress": out["stress"], "type": "Injured", "die": "d4"})
    assert out["taken_out"] is True
    assert "taken out" in out["headline"]


def test_ser7_stress_refuses_unknown_types():
    with pytest.raises(RulesError, match="not a stress type"):
        resolve(
            serenity.ACTIONS["stress"], {"stress": {"Bored": "d6"}, "type": "Injured", "die": "d6"}
        )


# ---------------------------------------------------------------------------
# Contests (with Serenity's pools; Smallville's are checked in its own tests)

MAL = {"name": "Mal", "goal": "keep the cargo", "gm": False}
THUG = {"name": "Thug", "goal": "take the cargo", "gm": True}
FIGHT = {
    "pool": [
        {"die": "d8", "trait": "Fightin'", "group": "stylins"},
        {"die": "d6", "trait": "Knife", "group": "assets"},
        {"die": "d4", "trait": "Drunk", "group": "aspects"},
    ]
}
GOONS = {
    "pool": [
        {"die": "d10", "trait": "Goons", "group": "situation"},
        {"die": "d6", "trait": "Injured", "group": "stress"},
    ]
}


def _act(name, request, faces=()):
    return resolve(serenity.ACTIONS[name], request, list(faces))


def _started(first=0):
    return _act("contest_start", {"sides": [MAL, THUG], "first": first})["contest"]


def test_ser6_start_needs_two_sides_with_telegraphed_goals():
    contest = _started()
    assert contest["status"] == "open" and contest["turn"] == 0 and contest["standing"] is None
    with pytest.raises(RulesError, match="telegraph a goal"):
        _act("contest_start", {"sides": [MAL, {**THUG, "goal": " "}]})
    with pytest.raises(RulesError, match="exactly two sides"):
        _act("contest_start", {"sides": [MAL]})


def test_ser6_each_roll_must_strictly_beat_the_last_result():
    contest = _started()
    out = _act("contest_roll", {"contest": contest, **FIGHT}, [6, 4, 2])
    assert out["beaten"] and out["contest"]["standing"]["result"] == 10
    assert out["contest"]["turn"] == 1
    # The thugs tie 10: a tie does not beat, so they lose and take Mal's effect (d4).
    out = _act("contest_roll", {"contest": out["contest"], **GOONS}, [6, 4])
    assert not out["beaten"]
    assert out["winner"] == 0
    assert out["contest"]["status"] == "stress_pending"
    assert out["contest"]["stress_die"] == "d4"


def test_ser7_stress_is_the_effect_die_of_the_result_that_stood():
    contest = _act("contest_roll", {"contest": _started(1), **GOONS}, [6, 3])["contest"]
    assert (contest["standing"]["result"], contest["standing"]["effect"]) == (9, "d4")
    # Mal: Fightin' 7 + Drunk 4 = 11, and the Knife's 3 is the effect: d6.
    contest = _act("contest_roll", {"contest": contest, **FIGHT}, [7, 3, 4])["contest"]
    assert (contest["standing"]["result"], contest["standing"]["effect"]) == (11, "d6")
    out = _act("contest_roll", {"contest": contest, **GOONS}, [5, 4])
    assert (out["beaten"], out["winner"], out["contest"]["stress_die"]) == (False, 0, "d6")
    settled = _act(
        "contest_stress",
        {"contest": out["contest"], "type": "Injured", "stress": {"Injured": "d6"}},
    )
    assert settled["stress"]["Injured"] == "d8"
    assert settled["contest"]["status"] == "over"
    assert settled["benefit"] is None


def test_ser6_only_the_side_whose_turn_it_is_acts():
    contest = _started()
    with pytest.raises(RulesError, match="Mal's turn"):
        _act("contest_roll", {"contest": contest, "side": 1, **GOONS}, [3, 3])
    with pytest.raises(RulesError, match="Mal's turn"):
        _act("contest_give_in", {"contest": contest, "side": 1})


def test_ser6_giving_in_grants_the_other_goal_without_stress():
    contest = _act("contest_roll", {"contest": _started(), **FIGHT}, [6, 4, 2])["contest"]
    out = _act("contest_give_in", {"contest": contest, "side": 1})
    assert out["winner"] == 0
    assert out["goal_granted"] == "keep the cargo"
    assert out["contest"]["status"] == "given_in"
    with pytest.raises(RulesError, match="not waiting for stress"):
        _act("contest_stress", {"contest": out["contest"], "type": "Angry"})
    with pytest.raises(RulesError, match="already decided"):
        _act("contest_roll", {"contest": out["contest"], **GOONS}, [3, 3])


def test_ser10_contest_extraordinary_when_the_failed_roll_falls_5_short():
    contest = _act("contest_roll", {"contest": _started(), **FIGHT}, [8, 6, 3])["contest"]
    assert contest["standing"]["effect"] == "d4"
    out = _act("contest_roll", {"contest": contest, **GOONS}, [5, 4])  # 9: short by 5
    assert out["contest"]["extraordinary"] is True
    keys = {o["benefit"] for o in out["benefit_options"]}
    assert keys == {"step_up_stress", "promote_asset", "step_up_asset", "step_down_stress"}
    settled = _act(
        "contest_stress", {"contest": out["contest"], "type": "Angry", "benefit": "step_up_stress"}
    )
    assert settled["stress"]["Angry"] == "d6"
    assert settled["benefit"]["to"] == "d6"
    with pytest.raises(RulesError, match="benefit is required"):
        _act("contest_stress", {"contest": out["contest"], "type": "Angry"})


def test_ser10_contest_not_extraordinary_when_short_by_4():
    contest = _act("contest_roll", {"contest": _started(), **FIGHT}, [8, 6, 3])["contest"]
    out = _act("contest_roll", {"contest": contest, **GOONS}, [5, 5])
    assert out["contest"]["extraordinary"] is False
    assert "benefit_options" not in out
    with pytest.raises(RulesError, match="no extraordinary"):
        _act(
            "contest_stress",
            {"contest": out["contest"], "type": "Angry", "benefit": "promote_asset"},
        )


def test_ser6_inconsistent_contest_states_are_refused():
    contest = _started()
    for broken in (
        {**contest, "winner": 1},
        {**contest, "status": "stress_pending", "winner": 0},
        {**contest, "sides": [MAL]},
        {**contest, "turn": 2},
        {**contest, "standing": {"side": 0, "result": 5, "effect": "d6", "pool": []}},
    ):
        with pytest.raises(RulesError):
            _act("contest_roll", {"contest": broken, **FIGHT}, [2, 2, 2])


def test_ser10_benefit_menus_for_players_and_gm_characters():
    asset, complication = Die(8, "Mule", "assets"), Die(10, "Sprained", "complications")
    player = cortex.benefit_options(
        gm=False,
        winner_pool=[asset, Die(12, "Big gun", "assets")],
        loser_pool=[complication, Die(6, "Winded", "complications"), Die(4, "Afraid", "stress")],
        stress_die=12,
    )
    by_key = {(o["benefit"], o["trait"]): o for o in player}
    assert "step_up_stress" not in {key for key, _ in by_key}  # a d12 cannot step up
    assert by_key[("step_up_asset", "Mule")]["to"] == "d10"
    assert ("step_up_asset", "Big gun") not in by_key
    assert by_key[("remove_complication", "Winded")]["to"] is None
    assert by_key[("step_down_complication", "Sprained")]["to"] == "d8"
    assert by_key[("step_down_stress", "Afraid")]["to"] is None
    gm = cortex.benefit_options(
        gm=True, winner_pool=[complication], loser_pool=[asset], stress_die=6
    )
    assert {(o["benefit"], o["to"]) for o in gm} == {
        ("step_up_stress", "d8"),
        ("step_up_complication", "d12"),
    }


# ---------------------------------------------------------------------------
# Valid requests, for the fuzz and replay tests

DIE_NAMES = [f"d{s}" for s in SIZES]
STYLINS = ("Fightin'", "Fixin'", "Finaglin'", "Flyin'")


def serenity_pool(rng: Random, *, gm: bool = False) -> dict:
    def die():
        return rng.choice(DIE_NAMES)

    pool = []
    if gm:
        pool += [
            {"die": die(), "trait": f"Threat {i}", "group": "situation"}
            for i in range(rng.randint(1, 4))
        ]
    else:
        stylin = rng.choice(STYLINS)
        pool.append({"die": die(), "trait": stylin, "group": "stylins"})
        pool += [
            {"die": die(), "trait": f"Knack {i}", "group": "refinements", "parent": stylin}
            for i in range(rng.randint(0, 2))
        ]
        if rng.random() < 0.7:
            pool.append(
                {
                    "die": die(),
                    "trait": "Loyalty",
                    "group": "values",
                    "challenged": rng.random() < 0.3,
                }
            )
    for group in ("aspects", "resources", "assets", "complications"):
        pool += [
            {"die": die(), "trait": f"{group} {i}", "group": group}
            for i in range(rng.randint(0, 1))
        ]
    if rng.random() < 0.3:
        pool.append({"die": die(), "trait": rng.choice(cortex.STRESS_TYPES), "group": "stress"})
    rng.shuffle(pool)
    return {"pool": pool, "plot_points": rng.choice((0, 0, 0, 1, 2, 5))}


def smallville_pool(rng: Random, *, watchtower: bool = False) -> dict:
    def die():
        return rng.choice(DIE_NAMES)

    req: dict = {"pool": [], "plot_points": rng.choice((0, 0, 0, 1, 3))}
    pool = req["pool"]
    if not watchtower or rng.random() < 0.5:
        pool.append(
            {
                "die": die(),
                "trait": rng.choice(smallville_sheet.VALUES),
                "group": "values",
                "challenged": rng.random() < 0.2,
            }
        )
        for i in range(rng.randint(1, 2)):
            pool.append(
                {
                    "die": die(),
                    "trait": f"Friend {i}",
                    "group": "relationships",
                    "challenged": i == 0 and rng.random() < 0.2,
                }
            )
    else:
        pool += [
            {"die": die(), "trait": f"Danger {i}", "group": "situation"}
            for i in range(rng.randint(1, 3))
        ]
    for i in range(rng.randint(0, 2)):
        heritage = rng.random() < 0.2
        group = "distinctions" if heritage or rng.random() < 0.5 else "abilities"
        entry = {"die": die(), "trait": f"Trait {i}", "group": group}
        if heritage:
            entry["heritage"] = True
            req["heritage_roll"] = True
        pool.append(entry)
    pool += [
        {"die": die(), "trait": rng.choice(cortex.STRESS_TYPES), "group": "stress"}
        for _ in range(rng.randint(0, 1))
    ]
    if rng.random() < 0.3:
        pool.append({"die": die(), "trait": "Kryptonite", "group": "limits", "ability": "Flight"})
    pool += [
        {
            "die": "d6",
            "trait": f"Detail {i}",
            "group": "useful_details",
            "reused": rng.random() < 0.5,
        }
        for i in range(rng.randint(0, 1))
    ]
    if watchtower and rng.random() < 0.5:
        req["trouble_pool"] = [die() for _ in range(rng.randint(1, 4))]
        taken = rng.choice(req["trouble_pool"])
        pool.append(
            {"die": taken, "trait": "Trouble", "group": "useful_details", "from_trouble": True}
        )
    req["side_pool"] = [
        {
            "die": die(),
            "trait": f"Place {i}",
            "group": rng.choice(("locations", "extras")),
            "on_sheet": rng.random() < 0.8,
            "used": rng.random() < 0.3,
        }
        for i in range(rng.randint(0, 2))
    ]
    return req


POOLS = {"serenity": serenity_pool, "smallville": smallville_pool}


def open_contest(rng: Random) -> dict:
    gm_side = rng.randint(0, 1)
    sides = tuple(ContestSide(f"Side {i}", f"goal {i}", gm=i == gm_side) for i in (0, 1))
    turn = rng.randint(0, 1)
    standing = None
    if rng.random() < 0.8:
        standing = ContestRoll(1 - turn, rng.randint(0, 30), rng.choice(SIZES), ())
    return contest_json(Contest(sides=sides, turn=turn, standing=standing, rolls=1))


def valid_request(system: str, action: str, rng: Random) -> dict:
    """A random valid request for one of a system's rolling actions."""
    pool = POOLS[system]
    flag = "gm" if system == "serenity" else "watchtower"
    if action == "roll":
        gm = rng.random() < 0.3
        return {**pool(rng, **{flag: gm}), flag: gm}
    if action == "test":
        return {"player": pool(rng), "opposition": pool(rng, **{flag: True})}
    contest = open_contest(rng)
    gm = contest["sides"][contest["turn"]]["gm"]
    return {"contest": contest, **pool(rng, **{flag: gm})}


ROLLING = ("roll", "test", "contest_roll")
ROLLING_MIX = (70, 15, 15)


@pytest.mark.parametrize("system", SYSTEMS)
def test_replay_10000_rolls_resolve_to_the_same_outcome(system):
    actions = SYSTEMS[system].ACTIONS
    rng = Random(f"replay-{system}")
    for name in rng.choices(ROLLING, weights=ROLLING_MIX, k=10_000):
        action = actions[name]
        request = valid_request(system, name, rng)
        rolled = roll(action, request, rng)
        assert resolve(action, request, rolled.faces) == rolled.outcome


# ---------------------------------------------------------------------------
# Fuzz: anything in, an outcome or a RulesError out

REQUEST_KEYS = sorted(
    {
        key
        for module in SYSTEMS.values()
        for action in module.ACTIONS.values()
        for key in action.schema
    }
    | {
        "die",
        "trait",
        "group",
        "parent",
        "challenged",
        "heritage",
        "ability",
        "reused",
        "from_trouble",
        "on_sheet",
        "used",
        "name",
        "goal",
        "gm",
        "status",
        "standing",
        "failed",
        "winner",
        "stress_die",
        "extraordinary",
        "rolls",
        "turn",
        "result",
        "effect",
    }
)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 14)
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=6)
    | st.sampled_from(
        DIE_NAMES + ["d14", "d12+d6", "D8", "", "stylins", "values", "Injured", "open", "add"]
    )
)
JSON = st.recursive(
    LEAVES,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(REQUEST_KEYS) | st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw, node):
    """A valid request with one field somewhere replaced, removed or duplicated."""
    if isinstance(node, dict) and node and draw(st.integers(0, 3)):
        key = draw(st.sampled_from(sorted(node)))
        copy = dict(node)
        how = draw(st.sampled_from(("descend", "drop", "replace")))
        if how == "drop":
            del copy[key]
        else:
            copy[key] = draw(mutated(node[key])) if how == "descend" else draw(JSON)
        return copy
    if isinstance(node, list) and node and draw(st.integers(0, 3)):
        index = draw(st.integers(0, len(node) - 1))
        copy = list(node)
        how = draw(st.sampled_from(("descend", "drop", "duplicate")))
        if how == "drop":
            del copy[index]
        elif how == "duplicate":
            copy.insert(index, copy[index])
        else:
            copy[index] = draw(mutated(node[index]))
        return copy
    return draw(JSON)


def _bases(system: str, action) -> list[dict]:
    rng = Random(action.name)
    bases = [dict(action.example)]
    if action.name in ROLLING:
        bases += [valid_request(system, action.name, rng) for _ in range(5)]
    return bases


FACES = st.lists(st.integers(-1, 13) | st.booleans() | st.none(), max_size=40)

EVERY_ACTION = [(s, name) for s, module in SYSTEMS.items() for name in module.ACTIONS]


@pytest.mark.parametrize(("system", "name"), EVERY_ACTION)
def test_fuzz_every_action_answers_or_refuses(system, name):
    action = SYSTEMS[system].ACTIONS[name]
    bases = st.sampled_from(_bases(system, action))
    requests = JSON | bases | bases.flatmap(mutated)

    @FAST
    @given(request=requests, faces=FACES | st.just(list(action.example_faces)), seed=st.integers())
    def check(request, faces, seed):
        try:
            _assert_outcome_shape(resolve(action, request, faces), action)
        except RulesError as error:
            assert str(error)
        try:
            rolled = roll(action, request, Random(seed))
        except RulesError as error:
            assert str(error)
        else:
            _assert_outcome_shape(rolled.outcome, action)
            assert resolve(action, request, rolled.faces) == rolled.outcome

    check()


def _assert_outcome_shape(outcome: dict, action) -> None:
    assert isinstance(outcome["headline"], str) and outcome["headline"]
    assert isinstance(outcome["explanation"], str) and outcome["explanation"]
    assert json.loads(json.dumps(outcome)) == outcome
    if action.rolls:
        assert all({"die", "trait", "group", "face", "role"} <= set(d) for d in outcome["dice"])


@pytest.mark.parametrize(("system", "name"), EVERY_ACTION)
def test_every_example_resolves_to_plain_json(system, name):
    action = SYSTEMS[system].ACTIONS[name]
    outcome = resolve(action, action.example, list(action.example_faces))
    _assert_outcome_shape(outcome, action)
    assert action.schema
    assert set(action.example) <= set(action.schema) | {"pool"}


# ---------------------------------------------------------------------------
# Every mechanic ID is named by the code that implements it and a test that checks it

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
TEST_FILES = [
    Path(__file__).with_name(f"test_{n}.py") for n in ("cortex", "serenity", "smallville")
]


def _docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text())
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    return "\n".join(ast.get_docstring(n) or "" for n in nodes)


def _tested_ids() -> set[str]:
    found = set()
    for path in TEST_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name + " " + (ast.get_docstring(node) or "")
                for prefix, number in re.findall(r"(ser|smv)-?(\d+)(?!\d)", text, re.I):
                    found.add(f"{prefix.upper()}-{number}")
    return found


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_mechanic_id_is_implemented_and_tested(system):
    ids = {m.id for m in SYSTEMS[system].MECHANICS}
    own = (RULES_DIR / system).glob("*.py")
    files = [*(RULES_DIR / "kit").glob("cortex*.py"), *(p for p in own if p.name != "mechanics.py")]
    code = "".join(_docstrings(path) for path in files)
    assert {i for i in ids if not re.search(rf"{i}(?!\d)", code)} == set()
    assert ids - _tested_ids() == set()
    assert set(SYSTEMS[system].DECISIONS) <= ids
