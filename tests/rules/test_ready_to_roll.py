"""Each game's ready check says, in its own words, what a sheet still needs for a legal
pool (CTX-1, SER-1, SMV-1, PER-1, UNI-1); a game that declares none gets the default."""

from __future__ import annotations

from rules.kit.game import game_from_package
from rules.kit.starting import Line
from rules.registry import get_system
from tests.test_game_defaults import bare_package


def missing(system: str, *lines: Line) -> tuple[str, ...]:
    return get_system(system).missing_to_roll(list(lines))


def test_cortex_needs_an_attribute_a_distinction_and_a_skill():
    assert missing("cortex_slots") == ("an Attribute", "a Distinction", "a Skill")
    assert missing(
        "cortex_slots", Line("attributes", "Agility", die=8), Line("skills", "Fight", die=6)
    ) == ("a Distinction",)
    assert (
        missing(
            "cortex_slots",
            Line("attributes", "Agility", die=8),
            Line("distinctions", "Ex-soldier", die=8),
            Line("skills", "Fight", die=6),
        )
        == ()
    )


def test_serenity_needs_a_stylin_with_a_die():
    assert "a Stylin' with a die" in missing("serenity")[0]
    assert missing("serenity", Line("values", "Freedom", die=8))[0].startswith("a Stylin'")
    assert missing("serenity", Line("stylins", "Fightin'", die=6)) == ()


def test_smallville_needs_a_value_and_a_relationship():
    assert missing("smallville") == ("a Value with a die", "a Relationship")
    # A fixed Value stepped below d4 has no die and does not count.
    assert missing(
        "smallville", Line("values", "Duty", die=None), Line("relationships", "Lana", die=8)
    ) == ("a Value with a die",)
    assert (
        missing("smallville", Line("values", "Truth", die=4), Line("relationships", "Lana", die=8))
        == ()
    )


def test_personae_needs_a_rated_attribute_and_a_skill_linked_to_it():
    assert missing("personae") == (
        "an attribute with a rating (added to your highest die)",
        "a skill rated 1 or more (how many d10s you roll)",
    )
    might = Line("attributes", "Might", rating=3, id=1)
    assert missing("personae", might, Line("skills", "Brawl", rating=0, link_id=1)) == (
        "a skill rated 1 or more (how many d10s you roll)",
    )
    assert missing("personae", might, Line("skills", "Brawl", rating=2)) == (
        "a skill linked to one of your attributes",
    )
    assert missing("personae", might, Line("skills", "Brawl", rating=2, link_id=1)) == ()


def test_unisystem_needs_an_attribute():
    assert missing("unisystem") == ("an attribute rated 1 or more",)
    assert missing("unisystem", Line("attributes", "Strength", rating=2)) == ()


def test_a_game_that_declares_no_check_needs_one_trait_to_roll():
    game = game_from_package(bare_package())
    assert game.missing_to_roll([]) == (
        "a trait to roll: one of your Knacks with a die or a rating",
    )
    assert game.missing_to_roll([Line("knacks", "Juggle", die=6)]) == ()
