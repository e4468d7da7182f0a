"""Another tool's character, read into this campaign's game where the game says how.

A Foundry VTT actor of the Cortex Prime system is read by the game's FOUNDRY
declaration (`rules.kit.foundry`): the result, in the import format's terms, goes
through `exchange.check_document` like any sheet, and a trait the checks refuse is left
out with their reason rather than refusing the whole character. What was taken and what
was left out (and why) is the import's report, shown on the page after the import.
Anything else another tool exports is named and refused (`import_shape.foreign_format`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.kit import foundry
from rules.registry import SYSTEMS

from . import exchange
from . import import_shape as shape
from . import validation as v

ROW = re.compile(r"^traits\.(?P<group>[a-z_]+)\[(?P<index>\d+)\]")
MAX_ROUNDS = 64  # each round leaves out at least one trait; a sheet holds fewer


@dataclass
class Report:
    """What an import from another tool took and what it left out, in words."""

    source: str
    taken: list[str] = field(default_factory=list)
    left: list[tuple[str, str]] = field(default_factory=list)

    def as_data(self) -> dict:
        return {"source": self.source, "taken": self.taken, "left": [list(x) for x in self.left]}

    @classmethod
    def from_data(cls, data: object) -> Report | None:
        if not isinstance(data, dict):
            return None
        return cls(
            source=str(data.get("source", "")),
            taken=[str(x) for x in data.get("taken", [])],
            left=[(str(x[0]), str(x[1])) for x in data.get("left", []) if len(x) == 2],
        )


def read_foreign(
    doc: object, system: str, *, may_import_npc: bool, keep_table_values: bool
) -> tuple[exchange.CleanSheet, Report] | None:
    """The sheet and its report when `doc` is another tool's character this game reads;
    None when it is not another tool's (the importer reads it as Rollcall's own).
    SheetProblems when it is, and nothing of it can be taken."""
    if isinstance(doc, dict) and doc.get("format") == exchange.FORMAT:
        return None
    made_by = foundry.system_id(doc)
    if not made_by:  # not Foundry's, or not saying whose: named by the importer's checks
        return None
    game = SYSTEMS[system]
    if made_by != foundry.SYSTEM_ID:
        said = f"the “{shape.shown(made_by)}” system"
        raise v.SheetProblems(
            [
                v.Problem(
                    "",
                    f"This is a Foundry VTT actor of {said}. Rollcall reads Foundry actors of "
                    "the Cortex Prime system (“cortexprime”) into Cortex games; create this "
                    "character here with New sheet and copy the traits over.",
                )
            ]
        )
    if game.foundry is None:
        raise v.SheetProblems(
            [
                v.Problem(
                    "",
                    f"This is {foundry.SOURCE}, and this campaign plays {game.name}, whose "
                    "sheets Rollcall does not fill from one: create the character here with "
                    "New sheet and copy the traits over.",
                )
            ]
        )
    reading = foundry.read_actor(doc, game.foundry, game.sheet_template)
    report = Report(source=foundry.SOURCE, taken=list(reading.taken), left=list(reading.left))
    document = {
        "format": exchange.FORMAT,
        "version": exchange.VERSION,
        "system": system,
        **reading.body(),
    }
    clean = _check_leaving_out(document, system, report, may_import_npc, keep_table_values)
    if not clean.traits:
        raise v.SheetProblems(
            [
                v.Problem(
                    "",
                    f"This is {foundry.SOURCE}, but none of its traits fit a {game.name} "
                    "sheet, so nothing was imported. What was left out, and why:",
                ),
                *(v.Problem(what, why) for what, why in report.left[: exchange.MAX_PROBLEMS]),
            ]
        )
    for notice in clean.notices:
        report.left.append(("At the table", notice.message))
    return clean, report


def _check_leaving_out(
    document: dict, system: str, report: Report, may_import_npc: bool, keep_table_values: bool
) -> exchange.CleanSheet:
    """check_document, leaving out each trait it refuses (with its reason) until the rest
    passes. A refusal that is not one trait's is the whole import's."""
    for _ in range(MAX_ROUNDS):
        try:
            return exchange.check_document(
                document,
                system,
                may_import_npc=may_import_npc,
                keep_table_values=keep_table_values,
            )
        except v.SheetProblems as refusal:
            dropped: dict[str, set[int]] = {}
            others = []
            for problem in refusal.problems:
                match = ROW.match(problem.where)
                if match is None:
                    if not _leave_out_field(document, problem, report):
                        others.append(problem)
                    else:
                        dropped.setdefault("", set())
                    continue
                group, index = match["group"], int(match["index"])
                rows = document["traits"].get(group, [])
                if index < len(rows) and index not in dropped.setdefault(group, set()):
                    dropped[group].add(index)
                    row = rows[index]
                    label = v.template_for(system).group(group).label
                    report.left.append(
                        (f"{label} “{shape.shown(row.get('name', ''))}”", problem.message)
                    )
                    report.taken = [t for t in report.taken if not _names(t, label, row)]
            if others or not dropped:
                raise v.SheetProblems(others or refusal.problems) from None
            for group, indexes in dropped.items():
                if not group:
                    continue
                rows = document["traits"][group]
                document["traits"][group] = [r for i, r in enumerate(rows) if i not in indexes]
    raise v.SheetProblems([v.Problem("", "This character could not be read.")])


def _leave_out_field(document: dict, problem: v.Problem, report: Report) -> bool:
    """A refused counter or the sheet's notes: left out with the reason. False for what
    a sheet cannot do without (its name)."""
    where = problem.where
    if where == "notes" and document.get("notes"):
        document["notes"] = ""
        report.left.append(("The notes", problem.message))
        report.taken = [t for t in report.taken if t != "Notes"]
        return True
    if where.startswith("counters.") and where[9:] in document.get("counters", {}):
        document["counters"].pop(where[9:])
        report.left.append((where[9:].replace("_", " ").capitalize(), problem.message))
        report.taken = [t for t in report.taken if not t.startswith("Plot points:")]
        return True
    return False


def _names(line: str, label: str, row: dict) -> bool:
    """Whether a taken line is the one for this row (to take it back off the list)."""
    return f"“{foundry.shown(row.get('name', ''))}” → {label}," in line
