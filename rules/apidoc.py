"""Generate docs/rules-api.md and docs/rules-decisions.md from the registry.

The docs are written from the same Action schemas, examples and decisions the
app uses, and a test fails when the committed files fall behind the code.
Run `python -m rules.apidoc --write` after changing an action.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .kit.actions import resolve
from .registry import BY_ID, SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
API_PATH = ROOT / "docs" / "rules-api.md"
DECISIONS_PATH = ROOT / "docs" / "rules-decisions.md"


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)


def rules_api_markdown() -> str:
    lines = [
        "# Rules API: requests and outcomes",
        "",
        "Every action is a pure function `resolve(action, request, faces) -> outcome`",
        "(`rules.kit.actions`). `roll(action, request, rng)` draws the faces from the server's",
        "generator and records them, so any logged roll resolves again to the same outcome.",
        "Invalid requests raise `rules.kit.errors.RulesError` with a message for players.",
        "Every outcome has `headline` and `explanation`; rolls also list their `dice`.",
        "",
        "This file is generated from `rules.registry` by `python -m rules.apidoc --write`.",
        "Which control on the page reaches each rule, and the browser test that plays it:",
        "[rules at the table](rules-at-the-table.md).",
        "",
    ]
    for game in SYSTEMS.values():
        lines += [f"## {game.name} (`{game.slug}`)", ""]
        for action in game.actions.values():
            outcome = resolve(action, action.example, list(action.example_faces))
            lines += [
                f"### `{action.name}`: {action.title}",
                "",
                f"Rules: {', '.join(action.rules)}."
                + ("" if action.rolls else " No dice: pass no faces."),
                "",
                "Request fields:",
                "",
                "```json",
                _json(action.schema),
                "```",
                "",
                "Example request"
                + (f", with faces `{list(action.example_faces)}`:" if action.rolls else ":"),
                "",
                "```json",
                _json(action.example),
                "```",
                "",
                "Outcome:",
                "",
                "```json",
                _json(outcome),
                "```",
                "",
            ]
    return "\n".join(lines).rstrip() + "\n"


def decisions_markdown() -> str:
    lines = [
        "# Rules decisions",
        "",
        "Where the original texts are silent, ambiguous or contradict each other, Rollcall",
        "takes the decisions below. Those marked *rules digest* come from the project's rules",
        "digest; the others are Rollcall's own readings. The rules pages (`/rules/<system>/`)",
        "show the same list beside each mechanic.",
        "",
        "This file is generated from `rules.registry` by `python -m rules.apidoc --write`.",
        "",
    ]
    for game in SYSTEMS.values():
        lines += [f"## {game.name}", ""]
        digest = {(m.id, d) for m in game.mechanics for d in m.decisions}
        for mechanic_id, text in game.all_decisions():
            title = BY_ID[mechanic_id].title if mechanic_id in BY_ID else mechanic_id
            origin = " *(rules digest)*" if (mechanic_id, text) in digest else ""
            lines.append(f"- **{mechanic_id} {title}**{origin}: {text}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    outputs = {API_PATH: rules_api_markdown(), DECISIONS_PATH: decisions_markdown()}
    if "--write" in argv:
        for path, text in outputs.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")  # noqa: T201
        return 0
    stale = [p for p, t in outputs.items() if not p.exists() or p.read_text(encoding="utf-8") != t]
    for path in stale:
        print(f"{path.relative_to(ROOT)} is out of date: run python -m rules.apidoc --write")  # noqa: T201
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
