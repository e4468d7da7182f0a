"""The shape of the apps: imports point down, close no cycle and wait in no function,
and no module outgrows 800 lines.

    rollcall (settings, urls, asgi, the rules pages)
      -> api, integrations -> table -> sheets -> campaigns -> rules
                                                           -> accounts

Inside table/ too, each concern is a subpackage and imports point down (TABLE_LAYERS):

    urls, routing, apps -> pages -> talk -> pools -> writing -> live -> reading
      -> acting -> log -> models, signals

These read the source with `ast` (nothing is imported), so they name the module, line
or cycle at fault. Run as a script, this file prints the whole picture:

    .venv/bin/python tests/test_structure.py
"""

from __future__ import annotations

import ast
import os
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 800
# The project's packages whose imports are checked (tests/ is not one of them).
PACKAGES = (
    "accounts",
    "campaigns",
    "sheets",
    "table",
    "integrations",
    "api",
    "rollcall",
    "rules",
    "bench",
)
# App code: no import of anything waits in a function here, but for LAZY_IMPORTS.
APP_CODE = (
    "accounts",
    "campaigns",
    "sheets",
    "table",
    "integrations",
    "api",
    "rollcall",
    "rules",
)
# Which packages each may import (besides itself): downward only. rules is pure Python
# (no app, no Django: tests/rules/test_layout.py holds it to the standard library).
MAY_IMPORT = {
    "rules": set(),
    "accounts": set(),
    "campaigns": {"rules", "accounts"},
    "sheets": {"campaigns", "rules", "accounts"},
    "table": {"sheets", "campaigns", "rules", "accounts"},
    "integrations": {"table", "sheets", "campaigns", "rules", "accounts"},
    "api": {"table", "sheets", "campaigns", "rules", "accounts"},
    "rollcall": {"api", "integrations", "table", "sheets", "campaigns", "rules", "accounts"},
    "bench": {
        "api",
        "integrations",
        "table",
        "sheets",
        "campaigns",
        "rules",
        "accounts",
        "rollcall",
    },
}
# The only imports app code makes inside a function: (file, what it imports) -> why.
LAZY_IMPORTS = {
    ("table/apps.py", "table.writing.receivers"): (
        "AppConfig.ready(): the receivers read models, which exist only once the app "
        "registry is ready (Django's documented place for connecting signals)"
    ),
    ("integrations/apps.py", "integrations.receivers"): (
        "AppConfig.ready(): the receivers read models, which exist only once the app "
        "registry is ready (Django's documented place for connecting signals)"
    ),
    ("rollcall/reach.py", "fcntl"): (
        "Unix only: elsewhere the interfaces are not read; the routed and host name's addresses serve"
    ),
    ("rollcall/wslimits.py", "twisted.internet.reactor"): (
        "importing twisted's reactor installs one when none is: only daphne may choose it"
    ),
}


@dataclass(frozen=True)
class Import:
    path: str  # the importing file, relative to ROOT
    line: int
    name: str  # what it imports, in full: "table.writing.receivers", "django.conf.settings"
    target: str  # the module that is loaded: a project module's name, or name's module
    nested: bool  # inside a function (or a class)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def _python_files() -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".py")]
    return found


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


FILES = _python_files()
MODULES = {
    _module_name(p): p
    for p in FILES
    if _relative(p).split("/")[0] in PACKAGES and "migrations" not in p.parts
}


def _imports(name: str, path: Path) -> list[Import]:
    """Every import statement of a module, relative ones resolved, nested ones marked."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
            )
            if isinstance(child, ast.Import):
                for alias in child.names:
                    module = next((m for m in _prefixes(alias.name) if m in MODULES), alias.name)
                    found.append(Import(_relative(path), child.lineno, alias.name, module, inner))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    anchor = parts[: len(parts) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    module = full if full in MODULES else base
                    found.append(Import(_relative(path), child.lineno, full, module, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _prefixes(dotted: str) -> list[str]:
    """ "a.b.c" -> ["a.b.c", "a.b", "a"]: the longest project module wins."""
    parts = dotted.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 0, -1)]


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}


def _package(module: str) -> str:
    return module.split(".")[0]


# --------------------------------------------------------------------------- cycles


def _graph() -> dict[str, dict[str, Import]]:
    """module -> {module it imports: the first such import}, nested imports counted:
    a cycle is a cycle, whether or not a function hides one of its imports."""
    graph: dict[str, dict[str, Import]] = {}
    for name, imports in IMPORTS.items():
        edges: dict[str, Import] = {}
        for imp in imports:
            if imp.target in MODULES and imp.target != name:
                edges.setdefault(imp.target, imp)
        graph[name] = edges
    return graph


def _strongly_connected(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Tarjan's components of more than one module (each holds at least one cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return components


def _shortest_cycle(graph: dict[str, dict[str, Import]], component: list[str]) -> str:
    """One cycle of the component, shortest from its first module, with the lines."""
    members = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node]):
            if target not in members:
                continue
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                path.reverse()
                steps = [*path, start]
                return (
                    " -> ".join(steps)
                    + "  ("
                    + ", ".join(
                        f"{graph[a][b].where}{' in a function' if graph[a][b].nested else ''}"
                        for a, b in zip(steps, steps[1:], strict=False)
                    )
                    + ")"
                )
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    return " <-> ".join(component)


def import_cycles() -> list[str]:
    graph = _graph()
    return [_shortest_cycle(graph, c) for c in _strongly_connected(graph)]


# --------------------------------------------------------------------------- nested imports


def nested_imports() -> list[Import]:
    """Imports inside functions: in app code, any but LAZY_IMPORTS; in bench (whose
    scripts configure Django before they import it or the apps), those of bench."""
    found = []
    for name, imports in IMPORTS.items():
        for imp in imports:
            if not imp.nested:
                continue
            if _package(name) in APP_CODE and (imp.path, imp.name) not in LAZY_IMPORTS:
                found.append(imp)
            elif _package(name) == "bench" and _package(imp.target) == "bench":
                found.append(imp)
    return found


# --------------------------------------------------------------------------- layers


def upward_imports() -> list[str]:
    found = []
    for name, imports in IMPORTS.items():
        package = _package(name)
        for imp in imports:
            other = _package(imp.name)
            if other == package:
                continue
            if other in PACKAGES or other == "tests":
                if other not in MAY_IMPORT[package]:
                    found.append(f"{imp.where}: {package} imports {imp.name}")
            elif package == "rules" and other == "django":
                found.append(f"{imp.where}: rules imports {imp.name}")
    return found


# --------------------------------------------------------------------------- inside table/


# table/'s concerns, lowest first: a module imports from its own layer or the ones below.
# Django's own places (models, signals; apps, urls, routing; templatetags, management)
# keep the names Django looks for, and sit where what they import puts them.
TABLE_LAYERS = (
    ("table.models", "table.signals"),  # the log's rows and the signal sent for apps above
    ("table.log",),  # the rows on the hot path, undo, and the gate (visibility)
    ("table.acting",),  # one action's view of the table: state, targets, whispers
    ("table.reading", "table.templatetags"),  # cards, the log as a member reads it, exports
    ("table.live",),  # delivery to the sockets, the database thread, the limits
    ("table.writing",),  # perform: validate, resolve, log, broadcast; the receivers
    ("table.pools",),  # the builders, the pool in the open, the one roll of a built pool
    ("table.talk",),  # chat and the socket
    ("table.pages",),  # the views and their forms
    ("table.apps", "table.urls", "table.routing", "table.management"),
)


def table_layer(module: str) -> int | None:
    """The index of the module's layer in TABLE_LAYERS, or None if it has none."""
    for index, prefixes in enumerate(TABLE_LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return index
    return None


def table_modules_without_a_layer() -> list[str]:
    return sorted(
        name
        for name in MODULES
        if _package(name) == "table" and name != "table" and table_layer(name) is None
    )


def upward_imports_in_table() -> list[str]:
    found = []
    for name, imports in IMPORTS.items():
        here = table_layer(name) if _package(name) == "table" else None
        if here is None:
            continue
        for imp in imports:
            there = table_layer(imp.target) if imp.target in MODULES else None
            if there is not None and there > here:
                found.append(
                    f"{imp.where}: {name} ({TABLE_LAYERS[here][0]}) imports {imp.target} "
                    f"({TABLE_LAYERS[there][0]}), a layer above it"
                )
    return found


# --------------------------------------------------------------------------- size


def _game_package(path: Path) -> bool:
    """rules/<slug>/: a game's own package (rules/kit/ is shared, not a game's)."""
    parts = path.relative_to(ROOT).parts
    return len(parts) > 2 and parts[0] == "rules" and parts[1] != "kit"


def long_modules() -> dict[str, int]:
    found = {}
    for path in FILES:
        relative = _relative(path)
        if relative.startswith("tests/") or _game_package(path):
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            found[relative] = lines
    return found


# --------------------------------------------------------------------------- the guards


def test_no_import_cycle_between_the_projects_modules():
    cycles = import_cycles()
    assert cycles == [], (
        "Import cycles (break each; hiding an import in a function does not):\n"
        + ("\n".join(cycles))
    )


def test_app_code_imports_at_the_top_level_only():
    nested = [f"{imp.where} imports {imp.name} inside a function" for imp in nested_imports()]
    assert nested == [], (
        "Imports hidden in functions (move them to the top; a cycle they dodge is to be "
        "broken, see docs/architecture.md#layers):\n" + "\n".join(nested)
    )


def test_every_lazy_import_is_still_there_and_says_why():
    present = {
        (imp.path, imp.name) for imports in IMPORTS.values() for imp in imports if imp.nested
    }
    stale = sorted(f"{path}: {name}" for path, name in LAZY_IMPORTS if (path, name) not in present)
    assert stale == [], "LAZY_IMPORTS names imports that are gone:\n" + "\n".join(stale)
    assert all(len(why) > 20 for why in LAZY_IMPORTS.values())


def test_apps_import_downward_only():
    upward = upward_imports()
    assert upward == [], (
        "Imports against the layers (table -> sheets -> campaigns -> rules, accounts; "
        "reach up through a signal instead, see docs/architecture.md#layers):\n" + "\n".join(upward)
    )


def test_every_table_module_sits_in_one_layer_of_table():
    loose = table_modules_without_a_layer()
    assert loose == [], (
        "Modules of table/ outside its subpackages (put each in the concern it serves, "
        "TABLE_LAYERS):\n" + "\n".join(loose)
    )


def test_table_imports_downward_only_inside_table():
    upward = upward_imports_in_table()
    assert upward == [], (
        "Imports against table/'s layers (the roll, chat and the socket sit below the pages; "
        "move what they share down beside them):\n" + "\n".join(upward)
    )


def test_no_module_over_800_lines_outside_the_game_packages_and_tests():
    long = long_modules()
    assert long == {}, f"Modules over {MAX_LINES} lines (split them by what they do):\n" + (
        "\n".join(f"{path}: {lines} lines" for path, lines in sorted(long.items()))
    )


def report() -> str:
    """The whole picture."""
    lines = ["Import cycles:"]
    lines += [f"  {cycle}" for cycle in import_cycles()] or ["  none"]
    lines.append("Imports inside functions (app code; bench importing bench):")
    lines += [f"  {imp.where}: {imp.name}" for imp in nested_imports()] or ["  none"]
    lines.append("Lazy imports allowed:")
    lines += [f"  {path}: {name} ({why})" for (path, name), why in LAZY_IMPORTS.items()]
    lines.append("Imports against the layers:")
    lines += [f"  {line}" for line in upward_imports()] or ["  none"]
    lines.append("table/ modules outside its layers:")
    lines += [f"  {name}" for name in table_modules_without_a_layer()] or ["  none"]
    lines.append("Imports against table/'s layers:")
    lines += [f"  {line}" for line in upward_imports_in_table()] or ["  none"]
    lines.append(f"Modules over {MAX_LINES} lines outside rules/<slug>/ and tests/:")
    long = sorted(long_modules().items())
    lines += [f"  {path}: {count}" for path, count in long] or ["  none"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(report())
