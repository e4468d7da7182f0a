"""Django templates: a `{# ... #}` comment ends on its own line; one spread over lines is
not a comment to Django and would be shown on the page (Jinja2 templates, under
`jinja2/` folders, may spread theirs)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", "node_modules", "jinja2", "staticfiles", ".git"}


def django_templates() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("templates/**/*.html")
        if not SKIP.intersection(path.relative_to(ROOT).parts)
    ]


def test_no_django_comment_spans_lines():
    found = django_templates()
    assert len(found) > 20  # the walk found the templates
    broken = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in found
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert broken == [], "use {% comment %} for comments over several lines: " + ", ".join(broken)
