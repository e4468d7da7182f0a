"""CSRF holds everywhere: no view is exempt, a POST without the token is refused (403)
and changes nothing at every URL, and with the token taken from the page (a hidden
input for forms, <body hx-headers> for htmx) the same forms work. The one exception is
the read-only API under /api/: it reads a bearer token, never a session, and refuses
every write with a 405 problem before any view runs (api/problems.py), so the CSRF
check, whose answer is an HTML page, stands aside there; a POST to it changes nothing.

Uses django.test.Client(enforce_csrf_checks=True), which checks like a browser would.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from .expectations import ALL_ROWS, PATTERNS, Row, allowed, best_role, row_url
from .urls import build_url
from .world import ROLES, World, request

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------- reading tokens


class Forms(HTMLParser):
    """Every <form method=post>, whether it carries csrfmiddlewaretoken, and <body hx-headers>."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.stack: list[dict] = []
        self.hx_headers: dict = {}
        self.hx_posts = 0
        self.full_page = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if any(k in a for k in ("hx-post", "hx-put", "hx-patch", "hx-delete")):
            self.hx_posts += 1
        if tag == "body":
            self.full_page = True
            self.hx_headers = json.loads(a.get("hx-headers") or "{}")
        if tag == "form":
            form = {
                "method": (a.get("method") or "get").lower(),
                "action": a.get("action") or "",
                "htmx": any(k in a for k in ("hx-post", "hx-put", "hx-patch", "hx-delete")),
                "token": None,
            }
            self.forms.append(form)
            self.stack.append(form)
        if tag == "input" and a.get("name") == "csrfmiddlewaretoken" and self.stack:
            self.stack[-1]["token"] = a.get("value")

    def handle_endtag(self, tag):
        if tag == "form" and self.stack:
            self.stack.pop()


def parse(response) -> Forms:
    parser = Forms()
    parser.feed(response.content.decode("utf-8", "replace"))
    return parser


def token_from(response, htmx: bool) -> str:
    page = parse(response)
    if htmx:
        return page.hx_headers.get("X-CSRFToken", "")
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())
    return match.group(1) if match else ""


# ---------------------------------------------------------------------- the rules


def under_api(pattern) -> bool:
    return pattern.route.lstrip("^").startswith("api/")


def test_no_view_is_csrf_exempt_but_the_read_only_apis():
    exempt = [p.key for p in PATTERNS if getattr(p.callback, "csrf_exempt", False)]
    assert exempt == [p.key for p in PATTERNS if under_api(p)]
    assert "api:events" in exempt
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE


def test_a_post_without_the_token_is_refused_everywhere(world: World, figures):
    """Every URL the resolver knows, as a role that may use it, as a form post and as an
    htmx post, with no token, a forged one and the cookie's secret alone: 403, no change
    (under /api/: the API's 405 problem, or its 404 for an address it does not have)."""
    rows = {r.key: r for r in ALL_ROWS if r.method == "POST"}
    clients = {role: world.client(role, enforce_csrf_checks=True) for role in ROLES}
    problems = []
    for pattern in PATTERNS:
        row = rows.get(pattern.key)
        role = best_role(row) if row else "gm"
        overrides = row.url(world.ours) if row and row.url else {}
        url = build_url(world, pattern, overrides) + (row.query if row else "")
        data = row.data(world) if row else {}
        client = clients[role]
        attempts = [
            ("no token", data, {}),
            ("no token, htmx", data, {"htmx": True}),
            ("forged token", {**data, "csrfmiddlewaretoken": "x" * 64}, {}),
            ("forged header", data, {"htmx": True, "HTTP_X_CSRFTOKEN": "A" * 32}),
        ]
        for what, body, extra in attempts:
            outcome = request(world, client, role, "POST", url, body, **extra)
            figures["csrf refusals checked"] += 1
            status = outcome.response.status_code
            if under_api(pattern):
                kind = outcome.response["Content-Type"]
                if status not in (404, 405) or kind != "application/problem+json":
                    problems.append(f"POST {url} as {role} ({what}): {status} {kind}")
                if outcome.changes:
                    problems.append(f"POST {url} as {role} ({what}): {outcome.changes}")
                continue
            if status != 403 or outcome.changes or b"CSRF" not in outcome.response.content:
                problems.append(f"POST {url} as {role} ({what}): {status} {outcome.changes}")
    assert not problems, "\n" + "\n".join(problems)


HOST_PAGES = {
    # the page that shows each form, for the rows whose own URL does not
    "logout": "home_for_user",
    "member_role": "members",
    "member_remove": "members",
    "invite_create": "members",
    "invite_revoke": "members",
    "invite_regenerate": "members",
    "leave": "campaign_home",
    "scene_start": "scenes",
    "scene_end": "scenes",
    "discord_test": "discord_settings",
    "api_token_revoke": "api_tokens",
    "overlay_create": "api_tokens",
    "overlay_revoke": "api_tokens",
}


def host_url(world: World, row: Row) -> str:
    pattern = next(p for p in PATTERNS if p.key == row.key)
    name = HOST_PAGES.get(row.key)
    if name == "home_for_user":
        return reverse("campaign_list")
    if pattern.namespace == "admin":
        return reverse("admin:login")
    if name:
        return reverse(name, args=[world.ours.campaign.pk])
    app = pattern.view.split(".")[0]
    if app == "sheets" and "sheet_id" in pattern.params:
        return reverse("sheet_detail", args=[world.ours.campaign.pk, world.ours.sheet.pk])
    if app == "table":
        return reverse("table", args=[world.ours.campaign.pk])
    return row_url(world, row)  # the form posts back to its own page


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_with_the_token_from_the_page_the_forms_work(world: World, figures, htmx):
    """Each POST row as a role it lets in: the token read from the page the form is on,
    then the post answers as the matrix expects (and changes what it should)."""
    problems = []
    for row in ALL_ROWS:
        wants = row.htmx if htmx else row.page
        if row.method != "POST" or wants is None:
            continue
        role = best_role(row)
        if not allowed(wants[role]):
            continue
        client = world.client(role, enforce_csrf_checks=True)
        world.reset(client, role)
        page = request(world, client, role, "GET", host_url(world, row), keep_cookies=True)
        if role == "anonymous" and page.response.status_code == 302:
            continue  # a signed-in-only page
        token = token_from(page.response, htmx)
        if not token:
            problems.append(f"{row.key}: no token on {host_url(world, row)} for {role}")
            continue
        data = dict(row.data(world))
        extra = {"HTTP_X_CSRFTOKEN": token} if htmx else {}
        if not htmx:
            data["csrfmiddlewaretoken"] = token
        outcome = request(
            world,
            client,
            role,
            "POST",
            row_url(world, row),
            data,
            htmx=htmx,
            keep_cookies=True,
            **extra,
        )
        figures["csrf token posts"] += 1
        want = wants[role]
        status = outcome.response.status_code
        if status != want.status or bool(outcome.changes) != want.changes:
            problems.append(
                f"POST {row.key} as {role}: expected {want!r}, got {status} {outcome.changes}"
            )
    assert not problems, "\n" + "\n".join(problems)


def test_every_post_form_on_every_page_carries_the_token(world: World, figures):
    """Every <form method=post> of every page and fragment a member can open carries
    csrfmiddlewaretoken (so it works without JavaScript), and any page with htmx posts
    has the token in <body hx-headers> (fragments get it from the page they land in)."""
    problems = []
    for row in ALL_ROWS:
        if row.method != "GET":
            continue
        for htmx, wants in ((False, row.page), (True, row.htmx)):
            if wants is None:
                continue
            for role in ("gm", "owner", "anonymous"):
                if wants[role].status != 200:
                    continue
                client = world.client(role)
                outcome = request(world, client, role, "GET", row_url(world, row), htmx=htmx)
                if outcome.response.status_code != 200:
                    continue
                if not outcome.response["Content-Type"].startswith("text/html"):
                    continue
                figures["pages checked for tokens"] += 1
                page = parse(outcome.response)
                for form in page.forms:
                    if form["method"] == "post" and not form["token"]:
                        problems.append(
                            f"{row.key} as {role} ({'htmx' if htmx else 'page'}): "
                            f"form posting to {form['action'] or '(itself)'} has no csrfmiddlewaretoken"
                        )
                if page.hx_posts and page.full_page and not page.hx_headers.get("X-CSRFToken"):
                    problems.append(f"{row.key} as {role}: htmx posts but no hx-headers token")
    assert not problems, "\n" + "\n".join(sorted(set(problems)))
