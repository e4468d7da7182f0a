"""The registry and the rules pages' source. That every mechanic is implemented and tested
beside its code is checked by test_layout.py."""

import pytest

from rules import apidoc
from rules.kit.actions import resolve
from rules.registry import BY_ID, SYSTEMS, get_system


def test_registry_has_the_five_systems_with_their_mechanics():
    assert list(SYSTEMS) == ["serenity", "cortex_slots", "smallville", "personae", "unisystem"]
    counts = {slug: len(game.mechanics) for slug, game in SYSTEMS.items()}
    assert counts == {
        "serenity": 11,
        "cortex_slots": 9,
        "smallville": 10,
        "personae": 9,
        "unisystem": 14,
    }
    assert {slug: game.name for slug, game in SYSTEMS.items()} == {
        "serenity": "Serenity Plus",
        "cortex_slots": "Cortex (Total & Effect)",
        "smallville": "Smallville",
        "personae": "Personae",
        "unisystem": "Unisystem",
    }
    for slug, game in SYSTEMS.items():
        assert game.sheet_template.groups, slug
        assert game.actions, slug


@pytest.mark.parametrize(
    "action", [a for g in SYSTEMS.values() for a in g.actions.values()], ids=lambda a: a.name
)
def test_every_action_documents_a_working_example(action):
    outcome = resolve(action, action.example, list(action.example_faces))
    assert outcome["headline"] and outcome["explanation"]
    assert action.rules and all(r in BY_ID for r in action.rules)
    assert isinstance(action.schema, dict) and action.schema


def test_unknown_system_and_action_are_player_readable_errors():
    from rules.kit.errors import RulesError

    with pytest.raises(RulesError, match="not a game system"):
        get_system("d20")
    with pytest.raises(RulesError, match="has no action"):
        get_system("serenity").action("fireball")


def test_generated_docs_are_up_to_date():
    """docs/rules-api.md and docs/rules-decisions.md come from the registry."""
    assert apidoc.main([]) == 0, "run: .venv/bin/python -m rules.apidoc --write"


def test_decisions_include_the_digest_and_the_apps_own():
    text = apidoc.decisions_markdown()
    assert "UNI-8" in text and "averages round down" in text
    for game in SYSTEMS.values():
        for mechanic_id in game.decisions:
            assert mechanic_id in BY_ID, f"{game.slug} decides on unknown {mechanic_id}"
