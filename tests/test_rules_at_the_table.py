"""docs/rules-at-the-table.md names, for every rule ID of the registry, the control on the
page that reaches it and the browser tests (tests/e2e) that play it from the page.

The doc misses no ID and names none the registry lacks; every browser test a row names
exists and says that rule ID in its name or docstring. The IDs no browser test plays
yet are listed in NOT_YET, so the gap is visible and can only shrink: an ID in NOT_YET
whose row names a browser test fails until it is taken out of the set."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules.registry import BY_ID

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules-at-the-table.md"
ROW = re.compile(r"^\|\s*([A-Z]{3}-\d+)\s*\|(.*)\|\s*$")
TEST_REF = re.compile(r"`(tests/e2e/test_\w+\.py)::(test_\w+)`")

# Rules no browser test plays from the page yet: an ID goes in only with a reason, and
# comes out when a test in tests/e2e plays it and its row in the doc names that test.
# Every rule ID has one now.
NOT_YET: set[str] = set()


def rows() -> dict[str, list[str]]:
    """Rule ID -> the cells after it (rule, control, who, browser tests)."""
    found: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            assert match.group(1) not in found, f"{match.group(1)} has two rows"
            found[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return found


def browser_tests() -> dict[tuple[str, str], str]:
    """(file, test function) -> its name and docstring, for every test in tests/e2e."""
    tests = {}
    for path in sorted((ROOT / "tests" / "e2e").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            ):
                said = f"{node.name}\n{ast.get_docstring(node) or ''}"
                tests[(path.relative_to(ROOT).as_posix(), node.name)] = said
    return tests


def test_the_doc_lists_every_rule_id_and_no_other():
    listed = set(rows())
    assert len(BY_ID) == 53
    assert sorted(set(BY_ID) - listed) == [], "rule IDs the doc misses"
    assert sorted(listed - set(BY_ID)) == [], "IDs the doc names that the registry lacks"


def test_every_row_names_its_rule_and_a_control_and_who():
    for rule_id, cells in rows().items():
        assert len(cells) == 4, (rule_id, cells)
        title, control, who, _tests = cells
        assert title == BY_ID[rule_id].title, (rule_id, title)
        assert control, f"{rule_id}: no control named"
        assert set(re.split(r",\s*", who)) <= {"player", "GM"}, (rule_id, who)


def test_not_yet_names_registry_ids_only():
    assert sorted(NOT_YET - set(BY_ID)) == []


def test_every_row_names_browser_tests_that_exist_and_say_its_id():
    tests = browser_tests()
    for rule_id, (_title, _control, _who, cell) in rows().items():
        named = TEST_REF.findall(cell)
        if rule_id in NOT_YET:
            assert not named, f"{rule_id} has a browser test now: take it out of NOT_YET"
            assert cell == "none yet", (rule_id, cell)
            continue
        assert named, f"{rule_id}: no browser test named (or add it to NOT_YET)"
        for ref in named:
            assert ref in tests, f"{rule_id}: {'::'.join(ref)} does not exist"
            assert re.search(rf"\b{re.escape(rule_id)}\b", tests[ref]), (
                f"{rule_id}: {'::'.join(ref)} does not name {rule_id} in its name or docstring"
            )


def test_the_doc_is_listed_where_docs_are():
    assert "docs/rules-at-the-table.md" in (ROOT / "README.md").read_text(encoding="utf-8")
