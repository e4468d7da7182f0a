"""The shape of rules/: a pure kit, one package per game, one registry built from them.

These read the source with `ast`, so they fail the moment a module imports Django, an
import closes a cycle, a kit module outgrows 800 lines, a game is left out of the
registry, or a rules ID loses the test beside the code that implements it.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from rules.registry import GAMES, SYSTEMS

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "rules"
KIT_DIR = RULES_DIR / "kit"
TESTS_DIR = Path(__file__).parent
MAX_KIT_LINES = 800
GAME_INTERFACE = (
    "SLUG",
    "NAME",
    "PREFIX",
    "SOURCE",
    "MECHANICS",
    "SHEET_TEMPLATE",
    "ACTIONS",
    "DECISIONS",
    "ODDS_DECISIONS",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(RULES_DIR.rglob("*.py"))}
GAME_DIRS = sorted(p.parent for p in RULES_DIR.glob("*/__init__.py") if p.parent != KIT_DIR)


def _imports(name: str, path: Path) -> list[tuple[ast.stmt, str]]:
    """(statement, absolute module) for every import in a module, relative ones resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.append((node, submodule if submodule in MODULES else base))
    return found


def _import_graph() -> dict[str, set[str]]:
    return {
        name: {target for _, target in _imports(name, path) if target in MODULES} - {name}
        for name, path in MODULES.items()
    }


def _docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    return "\n".join(ast.get_docstring(n) or "" for n in nodes)


def _test_names_and_docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return "\n".join(
        f"{node.name}\n{ast.get_docstring(node) or ''}"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    )


def _names(text: str, mechanic_id: str) -> bool:
    """ "SER-4" in prose, or "ser4" in a test name."""
    prefix, number = mechanic_id.split("-")
    return re.search(rf"(?<![A-Za-z0-9]){prefix}-?{number}(?![0-9])", text, re.I) is not None


def test_rules_imports_no_django_nor_anything_outside_the_standard_library():
    """rules/ is pure Python: every import is rules' own or the standard library's."""
    outside = [
        f"{name}: {target}"
        for name, path in MODULES.items()
        for _, target in _imports(name, path)
        if target.split(".")[0] not in {"rules", *sys.stdlib_module_names}
    ]
    assert outside == []


def test_rules_modules_import_at_the_top_level_only():
    """No import hidden in a function to dodge a cycle."""
    nested = [
        f"{name}:{node.lineno}"
        for name, path in MODULES.items()
        for node, _ in _imports(name, path)
        if node.col_offset
    ]
    assert nested == []


def test_no_import_cycle_among_rules_modules():
    graph = _import_graph()
    state: dict[str, str] = {}
    cycles = []

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                cycles.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_kit_knows_no_game():
    """The kit is what games share: it imports no game package and names no game's slug."""
    games = {package.__name__ for package in GAMES}
    offenders = []
    for name, path in MODULES.items():
        if not name.startswith("rules.kit"):
            continue
        targets = {t for _, t in _imports(name, path)}
        offenders += [f"{name} imports {t}" for t in targets if t.rpartition(".")[0] in games]
        offenders += [f"{name} imports {t}" for t in targets if t in games]
        text = path.read_text(encoding="utf-8")
        offenders += [f"{name} names {s!r}" for s in SYSTEMS if f'"{s}"' in text]
    assert offenders == []


def test_no_kit_module_is_over_800_lines():
    long = {
        name: lines
        for name, path in MODULES.items()
        if name.startswith("rules.kit")
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_KIT_LINES
    }
    assert long == {}


def test_rules_holds_the_kit_the_registry_and_one_package_per_game_only():
    """No module left at the old flat paths (rules/serenity.py, rules/odds.py, ...)."""
    top = sorted(p.name for p in RULES_DIR.glob("*.py"))
    assert top == ["__init__.py", "apidoc.py", "registry.py"]


def test_the_registry_is_built_from_every_game_package():
    assert [d.name for d in GAME_DIRS] == sorted(SYSTEMS)
    for slug, game in SYSTEMS.items():
        assert game.module.__name__ == f"rules.{slug}"
        assert game.module.SLUG == slug
        assert set(GAME_INTERFACE) <= set(game.module.__all__), slug


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_every_rules_id_is_named_by_its_game_and_by_the_test_beside_it(slug):
    """Each mechanic of a game is named in a docstring of its package (or of the kit, whose
    Cortex core serves the Cortex Plus games), and by a test in tests/rules/test_<slug>.py
    (or tests/rules/test_cortex.py for that shared core). SMV-4 included."""
    game = SYSTEMS[slug]
    package = RULES_DIR / slug
    code = "\n".join(
        _docstrings(p)
        for p in [*package.glob("*.py"), *KIT_DIR.glob("*.py")]
        if p.name != "mechanics.py"
    )
    uses = {
        t for n, p in MODULES.items() if n.startswith(f"rules.{slug}.") for _, t in _imports(n, p)
    }
    test_files = [TESTS_DIR / f"test_{slug}.py"]
    if "rules.kit.cortex" in uses:
        test_files.append(TESTS_DIR / "test_cortex.py")
    tests = "\n".join(_test_names_and_docstrings(p) for p in test_files)
    assert all(m.prefix == game.module.PREFIX for m in game.mechanics)
    assert [m.id for m in game.mechanics if not _names(code, m.id)] == []
    assert [m.id for m in game.mechanics if not _names(tests, m.id)] == []
