"""The one place sheet values are checked: sheets.validation (used by the forms and the importer)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import get_system
from sheets import validation as v

SERENITY = get_system("serenity").sheet_template
STYLINS = SERENITY.group("stylins")
STRESS = SERENITY.group("stress")
SKILLS = get_system("cortex_slots").sheet_template.group("skills")


@pytest.mark.parametrize("value", ["d4", "D6", " d8 ", 10, "12"])
def test_real_die_sizes(value):
    assert v.clean_die(STYLINS, value)[0] in (4, 6, 8, 10, 12)


@pytest.mark.parametrize("value", ["d3", "d20", "d0", "8.0", "six", True, None, "", [8], "d12+d6"])
def test_everything_else_is_refused(value):
    with pytest.raises(v.FieldError):
        v.clean_die(STYLINS, value)


def test_compound_dice_only_where_the_template_allows_them():
    """CTX-8: "d12+dN" in a die_or_compound group; only a d12 carries a plus die."""
    assert v.clean_die(SKILLS, "d12+d6") == (12, 6)
    with pytest.raises(v.FieldError, match="only a d12"):
        v.clean_die(SKILLS, "d10+d6")
    with pytest.raises(v.FieldError):
        v.clean_die(SKILLS, "d12+d20")


def test_fixed_groups_may_hold_no_die():
    assert v.clean_die(STRESS, "") == (None, None)


@pytest.mark.parametrize(
    "die,plus,direction,expected",
    [
        (6, None, "up", v.Step(8, None)),
        (12, None, "down", v.Step(10, None)),
        (4, None, "down", v.Step(None, None, removed=True)),
    ],
)
def test_steps(die, plus, direction, expected):
    assert v.step(STYLINS, die, plus, direction) == expected


def test_step_edges():
    with pytest.raises(v.FieldError, match="A d12 cannot step up"):
        v.step(STYLINS, 12, None, "up")
    assert v.step(STRESS, 4, None, "down") == v.Step(None, None, removed=False)
    assert v.step(STRESS, None, None, "up") == v.Step(4, None)
    assert v.step(SKILLS, 12, None, "up") == v.Step(12, 4)
    assert v.step(SKILLS, 12, 4, "down") == v.Step(12, None)
    with pytest.raises(v.FieldError):
        v.step(SKILLS, 12, 12, "up")


@pytest.mark.parametrize(
    "name,ok",
    [
        ("A", True),
        ("x" * 80, True),
        ("x" * 81, False),
        ("", False),
        ("   ", False),
        ("a\x00b", False),
        (5, False),
    ],
)
def test_names_are_1_to_80_characters(name, ok):
    if ok:
        assert v.clean_name(name) == name
    else:
        with pytest.raises(v.FieldError):
            v.clean_name(name)


def test_whitespace_in_names_is_tidied():
    assert v.clean_name("  Mr.   Fix-It\n") == "Mr. Fix-It"


@pytest.mark.parametrize(
    "text,words",
    [
        ("Stylin's", "Stylin'"),
        ("Abilities", "Ability"),
        ("Stress", "Stress"),
        ("Big Hero Die", "Big Hero Die"),
    ],
)
def test_singular(text, words):
    assert v.singular(text) == words


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(st.text(max_size=20), st.integers(), st.none(), st.booleans(), st.floats()))
def test_cleaners_raise_only_field_errors(value):
    """Junk never escapes as anything but a FieldError a person can read."""
    for clean in (
        lambda x: v.clean_die(STYLINS, x),
        lambda x: v.clean_die(SKILLS, x),
        lambda x: v.clean_rating(get_system("personae").sheet_template.group("skills"), x),
        v.clean_name,
        v.clean_notes,
        v.clean_flag,
        v.clean_score_override,
    ):
        try:
            clean(value)
        except v.FieldError as error:
            assert str(error)
