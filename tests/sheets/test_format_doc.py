"""docs/sheet-format.md stays true: its examples import cleanly and its group lists match the templates."""

import json
import re
from pathlib import Path

import pytest

from rules.registry import SYSTEMS
from sheets import exchange

DOC = (Path(__file__).resolve().parents[2] / "docs" / "sheet-format.md").read_text()


def examples():
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, flags=re.S)]


def test_there_is_an_example_per_system():
    assert {doc["system"] for doc in examples()} == set(SYSTEMS)


@pytest.mark.parametrize("index", range(len(examples())))
def test_every_example_imports(index):
    doc = examples()[index]
    exchange.check_document(doc, doc["system"], may_import_npc=True)


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_group_table_matches_the_template(slug):
    section = DOC.split(f"(`{slug}`)\n", 1)[1].split("\n### ", 1)[0]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.M)
    assert listed == [g.key for g in SYSTEMS[slug].sheet_template.groups]
