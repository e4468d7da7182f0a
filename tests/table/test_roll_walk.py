"""docs/architecture.md's "The life of one roll" stays true: each file it names exists
and imports, the walk is at most eight files, and a real roll from the builder's Roll
button runs through every one of them in every game: the table's files themselves, and
the game's transition and rules where its TABLE and ACTIONS declare them (a game may
take a transition from the kit, or keep a resolver in a module beside actions.py)."""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import threading
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from rules.registry import SYSTEMS, get_system
from table.models import Kind, TableEvent

from .test_roll_paths import GAMES, builder_fields, set_up

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
MAX_FILES = 8
HX = {"HTTP_HX_REQUEST": "true"}


def walk() -> list[str]:
    """The files in the first column of the walk's block, in order."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The life of one roll", 1)[1]
    block = section.split("```", 2)[1]
    return [m.group(1) for m in re.finditer(r"^(\S+\.py)\s", block, re.M)]


def in_game(path: str, slug: str) -> str:
    return path.replace("<slug>", slug)


def module_of(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_the_walk_names_at_most_eight_files_and_each_imports():
    files = walk()
    assert 5 <= len(files) <= MAX_FILES, files
    assert len(set(files)) == len(files), files
    for slug in SYSTEMS:
        for path in files:
            assert (ROOT / in_game(path, slug)).is_file(), in_game(path, slug)
            module = importlib.import_module(module_of(in_game(path, slug)))
            if path in DECLARES:
                assert isinstance(getattr(module, DECLARES[path]), dict), (path, slug)


# The game's rows of the walk, by what the file declares for the engine.
DECLARES = {"rules/<slug>/table.py": "TABLE", "rules/<slug>/actions.py": "ACTIONS"}


def relative(function) -> str:
    return Path(inspect.getsourcefile(function)).resolve().relative_to(ROOT).as_posix()


def traced(run) -> list[str]:
    """The project's files in the order a call first entered each, in every thread."""
    entered: dict[str, None] = {}
    root = str(ROOT) + "/"

    def profile(frame, event, arg):
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(root) and name not in entered:
                entered[name] = None
        return None

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return [name[len(root) :] for name in entered]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("system", sorted(GAMES))
def test_a_roll_from_the_builder_runs_through_the_walk_in_its_order(table_for, system):
    t = table_for(system)
    line, names, _ = GAMES[system]
    set_up(t, system)
    goal = {"goal": line.partition(":")[2].strip()} if ":" in line else {}
    fields = builder_fields(t, names, **goal)
    client = Client()
    client.force_login(t.player)
    url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    answers = []

    def roll():
        answers.append(client.post(url, {**fields, "visibility": "public"}, **HX))

    entered = traced(roll)
    assert "Rolled:" in answers[0].content.decode()
    action = TableEvent.objects.filter(kind=Kind.ACTION, actor=t.player).latest("seq").action
    game = get_system(system)
    where = {
        "TABLE": relative(type(game.table[action])),
        "ACTIONS": relative(game.actions[action].resolver),
    }
    expected = [where[DECLARES[path]] if path in DECLARES else path for path in walk()]
    missing = [path for path in expected if path not in entered]
    assert missing == [], f"the roll never entered {missing}"
