"""Loose edges, through real requests: the Content-Security-Policy on every page and the
pages it would break, the log export (escaped Markdown, never cached), bad dates and
junk in every URL parameter (400/404, never a 500), and an unknown Host with DEBUG on."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from .expectations import ALL_ROWS, PATTERNS, allowed, best_role, row_url
from .urls import build_url
from .world import request

pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------------- Host


def test_an_unknown_host_never_gets_the_debug_page_even_with_debug_on(settings):
    """DEBUG=1 asked for on a server bound to every address: a Host header of the
    sender's choosing still gets a plain 400, not Django's debug page with its settings."""
    settings.DEBUG = True
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    client = Client(raise_request_exception=False)
    for path in ("/", "/accounts/login/", "/admin/", "/no/such/page/"):
        response = client.get(path, HTTP_HOST="evil.example")
        assert response.status_code == 400
        assert response["Content-Type"].startswith("text/plain")
        body = response.content.decode()
        assert "DisallowedHost" not in body and "Traceback" not in body
        assert "SECRET_KEY" not in body and "settings" not in body.lower()
    assert client.get("/accounts/login/", HTTP_HOST="localhost").status_code == 200


# ---------------------------------------------------------------------- CSP

INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
JS_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.I)
EVAL_TRIGGER = re.compile(r"""hx-trigger\s*=\s*["'][^"']*\[""", re.I)  # htmx filters eval
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "frame-ancestors": "'none'",
}


def policy_of(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    parts = (p.strip().split(None, 1) for p in header.split(";") if p.strip())
    return {p[0]: (p[1] if len(p) > 1 else "") for p in parts}


def html_pages(world):
    """Every GET row's page, as a role it lets in: (url, role, response)."""
    seen = set()
    for row in ALL_ROWS:
        if row.method != "GET":
            continue
        role = best_role(row)
        if not allowed(row.page[role]):
            continue
        url = row_url(world, row)
        if url in seen:
            continue
        seen.add(url)
        for htmx in (False, True) if row.htmx is not None else (False,):
            outcome = request(world, world.client(role), role, "GET", url, htmx=htmx)
            yield url, role, outcome.response


def test_every_page_has_the_policy_and_nothing_it_would_block(world, figures):
    """No inline script, event handler, style attribute or element, javascript: URL or
    htmx filter (eval) on any page or fragment of the app: under the policy the browser
    would refuse each of them and the page would stop working."""
    problems = []
    for url, role, response in html_pages(world):
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        figures["pages checked against the CSP"] += 1
        policy = policy_of(response)
        for directive, value in POLICY.items():
            if policy.get(directive) != value:
                problems.append(f"{url}: {directive} is {policy.get(directive)!r}")
        if url.startswith("/admin/"):
            continue  # Django's own templates, checked in the browser (tests/e2e)
        page = response.content.decode()
        for name, pattern in [
            ("inline script", INLINE_SCRIPT), ("event handler", HANDLER),
            ("style attribute", STYLE_ATTRIBUTE), ("style element", STYLE_ELEMENT),
            ("javascript: URL", JS_URL), ("htmx filter", EVAL_TRIGGER),
        ]:  # fmt: skip
            for found in pattern.findall(page):
                problems.append(f"{url} as {role}: {name} {found[:80]!r}")
    assert figures["pages checked against the CSP"] > 30
    assert not problems, "\n".join(problems)


def test_the_policy_is_on_refusals_and_redirects_too(client, db):
    for response in (client.get("/no/such/page/"), client.get("/campaigns/")):
        assert policy_of(response)["script-src"] == "'self'"


def test_htmx_is_told_not_to_add_its_own_style(client, db):
    """htmx 2 inserts a <style> for its indicators, and carries an element's style
    attribute across a swap (setAttribute, which the policy refuses), unless told not to."""
    import json

    page = client.get(reverse("login")).content.decode()
    config = json.loads(re.search(r"""<meta name="htmx-config" content='([^']*)'>""", page)[1])
    assert config["includeIndicatorStyles"] is False
    assert "style" not in config["attributesToSettle"]


# ---------------------------------------------------------------------- exports

# Names hold at most 80 characters (PostgreSQL enforces it; SQLite would not).
NASTY = "<img src=x onerror=alert(1)> [click](javascript:alert(2))"
SCRIPT = "<script>alert(3)</script>"


def export(world, role: str, day: str, fmt: str = "md"):
    url = reverse("table_export_session", args=[world.ours.campaign.pk, day, fmt])
    return world.client(role, raise_request_exception=False).get(url)


@pytest.mark.parametrize("role", ["gm", "owner"])
def test_the_markdown_export_carries_no_html_or_links_from_user_text(world, role):
    """A player names their character with HTML and a Markdown link and rolls: the export
    a member opens in a Markdown viewer shows that text, and runs or links nothing."""
    from campaigns.models import Campaign
    from sheets.models import Sheet

    ours = world.ours
    Campaign.objects.filter(pk=ours.campaign.pk).update(name=f"# Heist {SCRIPT}")
    Sheet.objects.filter(pk=ours.sheet.pk).update(name=f"Mal {NASTY} | **bold**")
    roll = reverse("table_pool_roll", args=[ours.campaign.pk, ours.sheet.pk])
    rolled = world.client("owner").post(roll, {"trait": [str(ours.trait.pk)], "clicked": ""})
    assert rolled.status_code in (200, 302)
    response = export(world, role, "current")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Mal &lt;img src=x onerror=alert(1)&gt;" in text  # shown as text, not an image
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in text
    assert "\\[click\\](javascript:alert(2))" in text
    assert "\\| \\*\\*bold\\*\\*" in text
    for raw in ("<img", "<script", "[click]", "**bold**"):
        assert raw not in text
    assert not re.search(r"(?<!\\)\]\(javascript:", text)  # no link a viewer would follow
    assert text.startswith("# \\# Heist")  # the name cannot make a heading of its own


def test_exports_are_never_cached(world):
    """An export holds what this member may see; a shared cache must not keep it for the
    next person, nor the browser on disk."""
    for role, day, fmt in [
        ("gm", "current", "md"),
        ("owner", "current", "json"),
        ("gm", "0", "md"),
    ]:
        response = export(world, role, day, fmt)
        if response.status_code != 200:
            continue
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-store"} <= directives, response["Cache-Control"]
    scene = reverse("table_export_scene", args=[world.ours.campaign.pk, world.ours.active.pk, "md"])
    response = world.client("gm").get(scene)
    assert response.status_code == 200
    assert {"private", "no-store"} <= {d.strip() for d in response["Cache-Control"].split(",")}
    verify = world.client("gm").get(reverse("table_verify", args=[world.ours.campaign.pk]))
    assert "no-store" in verify["Cache-Control"]


@pytest.mark.parametrize(
    "day",
    ["9999-12-31", "9999-12-30", "0001-01-01", "2024-02-30", "2024-13-01", "99999999",
     "20241301", "٢٠٢٤-٠١-٠١", "2024-W01-1", "1" * 7, "-1"],
)  # fmt: skip
def test_a_bad_or_far_date_is_not_found_never_a_server_error(world, day):
    """9999-12-31 was a 500: its day ends past the last date Python holds."""
    response = export(world, "gm", day)
    assert response.status_code in (200, 404), response.status_code


def test_the_last_day_is_not_found_with_sessions_marked_too(world):
    from table.models import Kind, TableEvent

    assert export(world, "gm", "9999-12-31").status_code == 404
    marked = world.client("gm").post(
        reverse("table_gm_scene", args=[world.ours.campaign.pk]), {"op": "session"}
    )
    assert marked.status_code == 302
    assert TableEvent.objects.filter(campaign=world.ours.campaign, kind=Kind.SESSION_START)
    assert export(world, "gm", "9999-12-31").status_code == 404
    assert export(world, "gm", dt.date.today().isoformat()).status_code in (200, 404)


# ---------------------------------------------------------------------- every URL parameter

JUNK_TEXT = [
    "9999-12-31", "0001-01-01", "2024-02-30", "0", "-1", "99999999999999999999", "²", "٣",
    "x" * 300, "..", "%00", "%2F", "a b", "md.json", "current", "None", "null", "<b>",
    "😀", "1e309", "nan", "json", "md", "html", " ", "_",
]  # fmt: skip
JUNK_IDS = [0, 1, 2**31, 2**63 - 1, 10**17, 999_999_999_999_999_999]


def test_no_url_parameter_makes_a_server_error(world, figures):
    """Every URL pattern, each parameter in turn set to junk (text, dates, numbers past
    every column), GET and POST, as the GM and as a visitor: 4xx or success, never 500."""
    problems = []
    for pattern in PATTERNS:
        for name in pattern.params:
            if name == "url":
                continue
            values = JUNK_IDS if name.endswith("_id") or name == "id" else JUNK_TEXT
            for value in values:
                try:
                    url = build_url(world, pattern, {name: value})
                except Exception:  # noqa: BLE001 - the converter refused it: no such URL
                    continue
                for method, role in (("GET", "gm"), ("POST", "gm"), ("GET", "anonymous")):
                    client = world.client(role, raise_request_exception=False)
                    outcome = request(world, client, role, method, url)
                    figures["junk URL parameters"] += 1
                    status = outcome.response.status_code
                    if status >= 500:
                        problems.append(f"{method} {url} as {role}: {status}")
    assert figures["junk URL parameters"] > 500
    assert not problems, "\n".join(problems[:40])
