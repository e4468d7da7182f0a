"""The dice core every system builds on: sizes, steps, parsing, faces and replay."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.kit.actions import Action, resolve, roll
from rules.kit.dice import (
    MAX_POOL,
    SIZES,
    Die,
    parse_die,
    parse_die_spec,
    parse_pool,
    parse_size,
    step_down,
    step_up,
)
from rules.kit.errors import FaceError, InvalidDie, InvalidRequest, RulesError
from rules.kit.faces import DrawnFaces, RecordedFaces
from rules.kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping


class TestSizes:
    def test_the_five_sizes(self):
        assert SIZES == (4, 6, 8, 10, 12)

    @pytest.mark.parametrize("value", [8, "8", "d8", "D8", " d8 "])
    def test_parse_size_accepts_the_usual_spellings(self, value):
        assert parse_size(value) == 8

    @pytest.mark.parametrize("value", ["d14", 14, "14", 0, -6, "d0", "d100"])
    def test_parse_size_refuses_sizes_that_are_not_dice(self, value):
        with pytest.raises(InvalidDie, match="is not a die size"):
            parse_size(value)

    def test_parse_size_message_reads_for_a_player(self):
        with pytest.raises(InvalidDie) as error:
            parse_size("d14")
        assert str(error.value).startswith("d14 is not a die size")

    @pytest.mark.parametrize("value", [True, False, None, 8.0, [8], {"die": 8}, "", "eight", "d"])
    def test_parse_size_refuses_other_types(self, value):
        with pytest.raises(InvalidDie):
            parse_size(value)


class TestSteps:
    def test_step_up_moves_one_size(self):
        assert [step_up(s) for s in (4, 6, 8, 10)] == [6, 8, 10, 12]

    def test_d12_cannot_step_up(self):
        with pytest.raises(RulesError, match="a d12 cannot step up"):
            step_up(12)

    def test_step_down_moves_one_size(self):
        assert [step_down(s) for s in (6, 8, 10, 12)] == [4, 6, 8, 10]

    def test_d4_stepped_down_is_removed(self):
        assert step_down(4) is None

    def test_steps_refuse_non_dice(self):
        with pytest.raises(InvalidDie):
            step_up(5)
        with pytest.raises(InvalidDie):
            step_down(True)

    @given(st.sampled_from(SIZES[:-1]))
    def test_stepping_up_then_down_returns_the_same_die(self, size):
        assert step_down(step_up(size)) == size

    @given(st.sampled_from(SIZES[1:]))
    def test_stepping_down_then_up_returns_the_same_die(self, size):
        assert step_up(step_down(size)) == size


class TestParsing:
    def test_compound_die_parses_where_allowed(self):
        assert parse_die_spec("d12+d6", allow_compound=True) == (12, 6)
        assert parse_die_spec(" D12 + D4 ", allow_compound=True) == (12, 4)

    def test_compound_die_refused_where_not_allowed(self):
        with pytest.raises(InvalidDie, match="not a die size here"):
            parse_die_spec("d12+d6")

    def test_only_a_d12_carries_a_plus_die(self):
        with pytest.raises(InvalidDie, match="only a d12"):
            parse_die_spec("d8+d6", allow_compound=True)

    def test_plus_die_must_be_a_die(self):
        with pytest.raises(InvalidDie, match="d14 is not a die size"):
            parse_die_spec("d12+d14", allow_compound=True)

    def test_compound_entry_rolls_two_faces(self):
        die = parse_die({"die": "d12+d8", "trait": "Strong"}, allow_compound=True)
        assert (die.size, die.plus, die.name, die.face_count) == (12, 8, "d12+d8", 2)

    def test_parse_die_from_mapping_keeps_trait_and_group(self):
        die = parse_die({"die": "d8", "trait": "Shoot", "group": "refinements"})
        assert die == Die(size=8, trait="Shoot", group="refinements")
        assert die.label == "Shoot d8"
        assert die.face_count == 1

    def test_parse_die_plain_size_uses_default_group(self):
        assert parse_die("d6", default_group="assets") == Die(size=6, group="assets")

    def test_parse_die_needs_a_size(self):
        with pytest.raises(InvalidDie, match="needs a size"):
            parse_die({"trait": "Shoot"})

    @pytest.mark.parametrize(
        "entry",
        [
            {"die": "d8", "trait": 3},
            {"die": "d8", "group": None},
            {"die": "d8", "trait": "x" * 81},
        ],
    )
    def test_parse_die_refuses_bad_names(self, entry):
        with pytest.raises(InvalidDie):
            parse_die(entry)

    def test_parse_pool_reads_every_entry(self):
        pool = parse_pool(["d4", {"die": 10, "trait": "Fly"}])
        assert [d.size for d in pool] == [4, 10]

    def test_parse_pool_must_be_a_list(self):
        with pytest.raises(InvalidDie, match="must be a list"):
            parse_pool({"die": "d8"})

    def test_parse_pool_is_capped(self):
        with pytest.raises(InvalidDie, match=f"at most {MAX_POOL}"):
            parse_pool(["d6"] * (MAX_POOL + 1))


class TestFaces:
    def test_recorded_faces_replay_in_order(self):
        faces = RecordedFaces([3, 8])
        assert faces.draw(6) == 3
        assert faces.draw(8) == 8
        faces.finish()

    def test_too_few_faces(self):
        faces = RecordedFaces([3])
        faces.draw(6)
        with pytest.raises(FaceError, match="not enough faces"):
            faces.draw(6)

    @pytest.mark.parametrize("face", [7, 0, -1, True, "3", None, 2.0])
    def test_a_face_that_cannot_come_up(self, face):
        with pytest.raises(FaceError, match="cannot come up on a d6"):
            RecordedFaces([face]).draw(6)

    def test_left_over_faces(self):
        faces = RecordedFaces([1, 2, 3])
        faces.draw(4)
        with pytest.raises(FaceError, match="2 recorded face"):
            faces.finish()

    def test_faces_must_be_a_list(self):
        with pytest.raises(FaceError):
            RecordedFaces("123")

    def test_drawn_faces_record_what_they_draw(self):
        faces = DrawnFaces(Random(7))
        drawn = faces.draw_many([4, 6, 8, 10, 12])
        assert faces.faces == drawn
        assert all(1 <= f <= s for f, s in zip(drawn, (4, 6, 8, 10, 12), strict=True))

    def test_same_seed_same_faces(self):
        assert DrawnFaces(Random(3)).draw_many([12] * 20) == DrawnFaces(Random(3)).draw_many(
            [12] * 20
        )


def _sum_of_pool(req, faces):
    dice = parse_pool(req.get("pool"))
    total = sum(faces.draw(d.size) for d in dice)
    return {"headline": f"Total {total}", "explanation": f"The dice add up to {total}."}


SUM = Action(name="sum", title="Sum", resolver=_sum_of_pool, rules=())
NO_DICE = Action(
    name="note",
    title="Note",
    resolver=lambda req, faces: {"headline": "ok", "explanation": "nothing rolled"},
    rules=(),
    rolls=False,
)


class TestActions:
    def test_roll_then_resolve_gives_the_same_outcome(self):
        rolled = roll(SUM, {"pool": ["d6", "d8", "d12"]}, Random(11))
        assert resolve(SUM, {"pool": ["d6", "d8", "d12"]}, rolled.faces) == rolled.outcome

    def test_resolve_refuses_left_over_faces(self):
        with pytest.raises(FaceError):
            resolve(SUM, {"pool": ["d6"]}, [1, 2])

    def test_actions_without_dice_take_no_faces(self):
        assert resolve(NO_DICE, {})["headline"] == "ok"
        with pytest.raises(FaceError, match="does not roll dice"):
            resolve(NO_DICE, {}, [3])

    def test_request_must_be_an_object(self):
        with pytest.raises(InvalidRequest, match="must be an object"):
            resolve(SUM, ["d6"], [1])

    def test_outcome_without_explanation_is_a_bug(self):
        broken = Action(name="x", title="X", resolver=lambda req, faces: {}, rules=())
        with pytest.raises(TypeError):
            resolve(broken, {})


class TestRequestHelpers:
    def test_get_int_refuses_bool_and_out_of_range(self):
        with pytest.raises(InvalidRequest, match="whole number"):
            get_int({"n": True}, "n")
        with pytest.raises(InvalidRequest, match="between 0 and 3"):
            get_int({"n": 4}, "n", lo=0, hi=3)
        assert get_int({}, "n", default=2) == 2
        with pytest.raises(InvalidRequest, match="required"):
            get_int({}, "n")

    def test_other_helpers(self):
        assert get_bool({"b": True}, "b") is True
        with pytest.raises(InvalidRequest):
            get_bool({"b": 1}, "b")
        with pytest.raises(InvalidRequest, match="at most 3"):
            get_str({"s": "long"}, "s", max_len=3)
        with pytest.raises(InvalidRequest, match="one of: a, b"):
            get_choice({"c": "z"}, "c", ("a", "b"))
        with pytest.raises(InvalidRequest, match="more than 1"):
            get_list({"l": [1, 2]}, "l", max_len=1)
        with pytest.raises(InvalidRequest):
            require_mapping([], "thing")
