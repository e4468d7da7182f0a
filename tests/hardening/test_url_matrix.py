"""Every URL of the project × every role, as full pages and as htmx requests.

The URLs come from the resolver (tests/hardening/urls.py), the answers each role
must get from tests/hardening/expectations.py. A URL without a row fails
`test_every_url_has_a_row`, so a new view cannot ship without someone deciding who
may use it. Each request runs in a rolled-back savepoint: every role starts from the
same data, and a refused request is checked to have changed nothing.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from .expectations import (
    ADMIN_LOGIN,
    ALL_ROWS,
    LOGIN,
    LOGIN_HX,
    PATTERNS,
    REFUSED,
    Row,
    Want,
    row_url,
)
from .urls import _param_values, build_url
from .world import MEMBER_ROLES, ROLES, World, request


def check(row: Row, role: str, htmx: bool, want: Want, outcome) -> str | None:
    """None when the answer is the expected one, else what went wrong."""
    response, changes = outcome.response, outcome.changes
    status = response.status_code
    got = f"{status}"
    if status in (301, 302):
        got += f" -> {response['Location']}"
    ok = True
    if want.status == LOGIN:
        ok = status == 302 and response["Location"].startswith(reverse("login") + "?next=")
    elif want.status == LOGIN_HX:
        ok = status == 401 and response.get("HX-Redirect", "").startswith(
            reverse("login") + "?next="
        )
    elif want.status == ADMIN_LOGIN:
        ok = status == 302 and response["Location"].startswith(reverse("admin:login"))
    else:
        ok = status == want.status
    allowed = want.status not in REFUSED
    if want.changes and not changes:
        ok = False
        got += " but changed nothing"
    if not want.changes and changes:
        ok = False
        got += f" and changed {', '.join(changes[:4])}"
    if ok:
        return None
    mode = "htmx" if htmx else "page"
    kind = "allowed" if allowed else "refused"
    return f"{row.method} {row.key} as {role} ({mode}): expected {want!r} ({kind}), got {got}"


def run_rows(world: World, rows: list[Row], figures) -> list[str]:
    clients = {role: world.client(role) for role in ROLES}
    problems = []
    for row in rows:
        url = row_url(world, row)
        data = row.data(world)
        for htmx, wants in ((False, row.page), (True, row.htmx)):
            if wants is None:
                continue
            for role in ROLES:
                token = world.api_auth(role) if row.api else {}
                outcome = request(
                    world, clients[role], role, row.method, url, data, htmx=htmx, **token
                )
                figures["matrix requests"] += 1
                problem = check(row, role, htmx, wants[role], outcome)
                if problem:
                    problems.append(f"{problem}  [{url}]")
    return problems


# ---------------------------------------------------------------------- the table itself


def test_every_url_has_a_row():
    """A URL added anywhere without a row here fails: decide who may use it, then add it."""
    keys = {p.key for p in PATTERNS}
    covered = {r.key for r in ALL_ROWS}
    missing = sorted(keys - covered)
    stale = sorted(covered - keys)
    assert not missing, f"URLs with no row in tests/hardening/expectations.py: {missing}"
    assert not stale, f"rows for URLs that no longer exist: {stale}"


def test_every_row_can_build_its_url(world):
    for row in ALL_ROWS:
        url = row_url(world, row)
        assert url.startswith("/"), row.key


def test_the_table_keeps_the_rules():
    """Outsiders 404 on campaign URLs, anonymous visitors to log in, observers never
    succeed at a state-changing POST, every role listed for every row."""
    for row in ALL_ROWS:
        for wants in (row.page, row.htmx):
            if wants is None:
                continue
            assert set(wants) == set(ROLES), row.key
            if row.campaign:
                assert wants["outsider"].status in (404, ADMIN_LOGIN), row.key
            assert (
                wants["anonymous"].status in (LOGIN, LOGIN_HX, ADMIN_LOGIN)
                or not row.campaign
                or (row.api and wants["anonymous"].status == 401)
            ), row.key
            if row.state_changing and not row.self_service:
                assert wants["observer"].status in (403, 404), row.key
            if row.method == "POST" and row.campaign and not row.self_service:
                assert not wants["observer"].changes, row.key


def test_only_post_get_rows():
    assert {r.method for r in ALL_ROWS} <= {"GET", "POST"}


# ---------------------------------------------------------------------- the requests


GROUPS = ("accounts+public", "campaigns", "sheets", "table", "api", "admin")


def group_of(row: Row) -> str:
    """Which test runs a row: by the app of its view; anything else with the public pages."""
    pattern = next(p for p in PATTERNS if p.key == row.key)
    if pattern.namespace == "admin":
        return "admin"
    app = pattern.view.split(".")[0]
    if app in GROUPS and (row.campaign or app != "campaigns"):
        return app
    return "accounts+public"


@pytest.mark.parametrize("group", GROUPS)
def test_every_url_for_every_role(group, world, figures):
    rows = [r for r in ALL_ROWS if group_of(r) == group]
    assert rows
    problems = run_rows(world, rows, figures)
    assert not problems, "\n" + "\n".join(problems)


def test_members_reach_nothing_through_another_campaigns_ids(world, figures):
    """Every campaign URL with the other campaign's object ids in our campaign's URL:
    a page or fragment is 404 for every member (nothing is disclosed), and no POST
    changes anything, here or there."""
    clients = {role: world.client(role) for role in MEMBER_ROLES}
    theirs = _param_values(world, world.theirs)
    problems = []
    for pattern in PATTERNS:
        foreign = {p: theirs[p] for p in pattern.params if p.endswith("_id") and p != "campaign_id"}
        if "campaign_id" not in pattern.params or not foreign:
            continue
        url = build_url(world, pattern, foreign)
        for role in MEMBER_ROLES:
            for method in ("GET", "POST"):
                outcome = request(world, clients[role], role, method, url, {})
                figures["cross-campaign requests"] += 1
                status = outcome.response.status_code
                refused = status in (403, 404, 405) if method == "GET" else status < 500
                if not refused or outcome.changes:
                    problems.append(f"{method} {url} as {role}: {status} {outcome.changes}")
    assert not problems, "\n" + "\n".join(problems)
