"""The registry, the rules pages' source, and the promise that every mechanic is implemented."""

import ast
import re
from pathlib import Path

import pytest

from rules import apidoc
from rules.kit.actions import resolve
from rules.registry import BY_ID, MECHANICS, SYSTEMS, get_system

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "rules"
TESTS_DIR = ROOT / "tests"


def _docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            doc = ast.get_docstring(node)
            if doc:
                texts.append(doc)
    return "\n".join(texts)


def _test_names_and_docstrings() -> str:
    texts = []
    for path in TESTS_DIR.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                texts.append(node.name.upper().replace("_", "-"))
                texts.append(node.name)
                doc = ast.get_docstring(node)
                if doc:
                    texts.append(doc)
    return "\n".join(texts)


def _mentions(text: str, mechanic_id: str) -> bool:
    prefix, number = mechanic_id.split("-")
    # "SER-4" in prose, or "SER4" / "ser4" in a test name (SER4-EFFECT after upper/replace).
    pattern = rf"(?<![A-Za-z0-9]){prefix}-?{number}(?![0-9])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def test_rules_package_never_imports_django():
    """rules/ is pure Python: no Django (or any third-party) import anywhere in it."""
    offenders = []
    for path in RULES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "django"]
    assert offenders == []


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.id)
def test_every_mechanic_is_named_by_the_code_that_implements_it(mechanic):
    code_docs = "\n".join(
        _docstrings(p) for p in RULES_DIR.rglob("*.py") if p.name != "mechanics.py"
    )
    assert _mentions(code_docs, mechanic.id), f"no docstring in rules/ names {mechanic.id}"


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.id)
def test_every_mechanic_is_named_by_a_test(mechanic):
    assert _mentions(_test_names_and_docstrings(), mechanic.id), f"no test names {mechanic.id}"


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
