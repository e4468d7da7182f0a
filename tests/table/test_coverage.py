"""Every action of every system in the registry is run through table.writing.actions.perform
by this folder's tests (a new action without a table test fails here)."""

import re
from pathlib import Path

import pytest

from rules.registry import SYSTEMS

HERE = Path(__file__).parent
FILES = {
    "serenity": "test_serenity.py",
    "cortex_slots": "test_cortex_slots.py",
    "smallville": "test_smallville.py",
    "personae": "test_personae.py",
    "unisystem": "test_unisystem.py",
}


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_every_action_is_performed(slug):
    text = (HERE / FILES[slug]).read_text(encoding="utf-8")
    performed = set(re.findall(r'\.perform\(\s*t\.\w+,\s*"(\w+)"', text))
    assert sorted(set(SYSTEMS[slug].actions) - performed) == []
