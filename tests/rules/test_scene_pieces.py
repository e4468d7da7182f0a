"""What the games keep for the scene, as they declare it (rules.kit.scene): one cut per key
across the games, words that name a piece without its value, and refusals for a
declaration the table could not use."""

from __future__ import annotations

from types import ModuleType

import pytest

from rules import registry
from rules.kit.errors import RulesError
from rules.kit.scene import (
    BY_KIND_AND_NAME,
    BY_NAME,
    BY_SEQ,
    ONE,
    ScenePiece,
    cuts,
    expired_word,
    piece_at,
)
from tests.test_game_defaults import bare_package


def test_the_games_keys_are_each_cut_one_way():
    """SMV-9, SMV-6, CTX-4, UNI-11, SER-7: each key as its game keeps it; the contests'
    pieces are Serenity's and Smallville's alike."""
    cut = registry.scene_cuts()
    assert cut["trouble_pool"] == ONE and cut["useful_details"] == BY_NAME
    assert cut["held_hitches"] == BY_SEQ and cut["taken_out"] == BY_SEQ
    assert cut["trackers"] == BY_KIND_AND_NAME
    serenity, smallville = registry.get_system("serenity"), registry.get_system("smallville")
    assert set(serenity.scene) <= set(smallville.scene)


def test_a_piece_is_named_by_what_tells_it_apart_never_by_its_value():
    pieces = registry.get_system("unisystem").scene
    assert (
        piece_at(pieces, ["trackers", "chase", "Alley"]).described(["trackers", "chase", "Alley"])
        == "the chase “Alley”"
    )
    assert piece_at(pieces, ["trackers", "lengthy", "Ritual"]).label == "Lengthy tasks"
    assert piece_at(pieces, ["trackers", "heist", "Vault"]) is None
    hitches = piece_at(registry.get_system("cortex_slots").scene, ["held_hitches", 12])
    assert hitches.described(["held_hitches", 12]) == "the hitch bought in #12"
    kept = piece_at(registry.get_system("cortex_slots").scene, ["rolls", "7"])
    assert kept.described(["rolls", "7"]) == "the kept roll"  # a blind roll's seq: not named
    assert expired_word(registry.get_system("smallville").scene, "trouble_pool") == "trouble pool"
    assert expired_word((), "next_thing") == "next thing"


def test_a_declaration_the_table_could_not_use_is_refused():
    with pytest.raises(RulesError, match="no such cut"):
        ScenePiece(key="omens", cut="by_colour")
    with pytest.raises(RulesError, match="cut by kind"):
        ScenePiece(key="omens", kind="dark")
    with pytest.raises(RulesError, match="needs its label"):
        ScenePiece(key="omens", cut=BY_NAME, named_by="omen")
    with pytest.raises(RulesError, match="cut two ways"):
        cuts([ScenePiece(key="omens"), ScenePiece(key="omens", cut=BY_SEQ)])


def test_a_game_cutting_a_key_otherwise_than_another_game_is_not_registered():
    package: ModuleType = bare_package()
    package.SCENE = (ScenePiece(key="taken_out", cut=BY_NAME),)
    with pytest.raises(RulesError, match="cut two ways"):
        registry.register(package)
    assert "toy" not in registry.SYSTEMS
