"""The engines name no game: campaigns, sheets, table, accounts, rollcall, the templates
and the scripts ask the registry about a game instead of naming it.

A game's slug ("serenity", "cortex_slots", ...) quoted in their code or templates is a
per-game branch or table, and so is an import of a game package: both belong in the
game's package (rules/<slug>/) or its template partials (templates/games/<slug>/),
which these tests leave out, as they leave out migrations (a migration records the
choices of its day).
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.registry import SYSTEMS

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("campaigns", "sheets", "table", "accounts", "rollcall", "templates", "static/js")
LEFT_OUT = ("templates/games/",)
SUFFIXES = {".py", ".html", ".js", ".jinja"}

SLUG = {slug: re.compile(rf"""(["']){re.escape(slug)}\1""") for slug in SYSTEMS}
GAME_IMPORT = re.compile(
    r"^\s*(?:from\s+rules\.(?P<a>\w+)|import\s+rules\.(?P<b>\w+)|"
    r"from\s+rules\s+import\s+(?P<c>[\w, ()]+))",
    re.MULTILINE,
)


def _engine_files() -> list[tuple[str, Path]]:
    found = []
    for top in ENGINES:
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and "/migrations/" not in relative
                and not relative.startswith(LEFT_OUT)
            ):
                found.append((relative, path))
    return found


FILES = _engine_files()


def _imported_games(text: str) -> set[str]:
    games = set()
    for match in GAME_IMPORT.finditer(text):
        names = match["a"] or match["b"] or match["c"] or ""
        games |= {n for n in re.split(r"[\s,()]+", names) if n in SYSTEMS}
    return games


def test_the_engines_are_read_and_every_game_is_checked():
    assert len(FILES) > 50 and len(SYSTEMS) >= 5
    names = {relative for relative, _ in FILES}
    assert {"table/pages/table.py", "table/templates/table/page.html"} <= names
    assert "table/jinja2/table/event.html" in names  # app template dirs, Jinja2's included
    assert not any(name.startswith("templates/games/") for name in names)


def test_no_game_slug_is_quoted_in_the_engines():
    offenders = [
        f"{relative}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}"
        for relative, path in FILES
        for text in [path.read_text(encoding="utf-8")]
        for pattern in SLUG.values()
        for match in pattern.finditer(text)
    ]
    assert offenders == [], "ask rules.registry.get_system(slug) instead"


def test_no_engine_module_imports_a_game_package():
    offenders = [
        f"{relative} imports rules.{game}"
        for relative, path in FILES
        if path.suffix == ".py"
        for game in sorted(_imported_games(path.read_text(encoding="utf-8")))
    ]
    assert offenders == [], "read the game through rules.registry"


def test_the_guard_sees_what_it_looks_for():
    """The patterns catch a quoted slug and each way of importing a game package."""
    slug = next(iter(SYSTEMS))
    assert SLUG[slug].search(f'if system == "{slug}":')
    assert SLUG[slug].search(f"{{% if campaign.system == '{slug}' %}}")
    assert not SLUG[slug].search(f'"{slug}x"')
    assert _imported_games(f"from rules.{slug} import odds\n") == {slug}
    assert _imported_games(f"import rules.{slug}.odds\n") == {slug}
    assert _imported_games(f"from rules import kit, {slug}\n") == {slug}
    assert _imported_games("from rules.registry import get_system\n") == set()


# Game vocabulary the table must not speak (issue #29): each game declares its scene
# state, its dice's roles and its card's facts, and its GM tools in its own package, and
# table/ renders them generically. A word here in table/ is a game's knowledge in the
# engine, whatever the name it hides under.
GAME_WORDS = re.compile(
    r"trouble_pool|useful_details|held_hitches|taken_out|shut_down|side_stress|chase|lengthy"
    r"|big_hero|nat_ten|from_bank|effect_level|criticals|botch"
    r"|contest_|set_difficulty|grant_bonus_dice",
    re.IGNORECASE,
)


def test_the_table_speaks_no_game_vocabulary():
    offenders = [
        f"{relative}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}"
        for relative, path in FILES
        if relative.startswith("table/")
        for text in [path.read_text(encoding="utf-8")]
        for match in GAME_WORDS.finditer(text)
    ]
    assert offenders == [], "declare it in the game's package and render it generically"


def test_the_vocabulary_guard_sees_what_it_looks_for():
    for word in ("state.trouble_pool", "die.get('nat_ten')", '"contest_roll"', "Lengthy tasks"):
        assert GAME_WORDS.search(word)
    assert not GAME_WORDS.search("the scene's difficulty and the pool's dice")
