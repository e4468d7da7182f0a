"""What a signed-in member is answered stays off the device: every page, htmx fragment,
export and API answer says `Cache-Control: private, no-store`, and logging out tells the
browser to forget what it kept. Public pages seen signed out keep their caching."""

from __future__ import annotations

from django.conf import settings
from django.test import Client
from django.urls import reverse

from table.talk import chat

from .expectations import ALL_ROWS, row_url
from .world import MEMBER_ROLES, request


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


def test_every_signed_in_answer_is_private_and_never_stored(world, figures):
    """Every GET of the URL matrix, as a page and as htmx, for every member: whatever the
    status (a page, a fragment, a refusal, a redirect), nothing of it is stored."""
    clients = {role: world.client(role) for role in MEMBER_ROLES}
    problems = []
    for row in (r for r in ALL_ROWS if r.method == "GET"):
        url = row_url(world, row)
        for htmx, wants in ((False, row.page), (True, row.htmx)):
            if wants is None:
                continue
            for role in MEMBER_ROLES:
                token = world.api_auth(role) if row.api else {}
                response = request(world, clients[role], role, "GET", url, htmx=htmx, **token)
                figures["cache-control requests"] += 1
                if not {"private", "no-store"} <= directives(response.response):
                    got = response.response.get("Cache-Control")
                    problems.append(f"{url} as {role} (htmx={htmx}): {got!r}")
    assert not problems, "\n" + "\n".join(problems)


def test_a_whisper_in_the_log_is_never_stored(campaign, player, client_for):
    chat.say(campaign.pk, player, "whisper", "The key is under the mat")
    client = client_for(player)
    for url in (
        reverse("table", args=[campaign.pk]),
        reverse("table_events", args=[campaign.pk]) + "?before=99",
    ):
        answer = client.get(url, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
        assert b"under the mat" in answer.content
        assert {"private", "no-store"} <= directives(answer), url


def test_public_pages_signed_out_keep_their_caching(db):
    visitor = Client()
    for url in (reverse("rules_index"), reverse("pwa_offline"), reverse("pwa_worker")):
        answer = visitor.get(url)
        assert answer.status_code == 200, url
        assert "no-store" not in directives(answer), url
    assert "no-cache" in directives(visitor.get(reverse("pwa_worker")))


def test_logging_out_clears_the_browsers_cache_and_storage_but_not_the_next_login(player, campaign):
    browser = Client(enforce_csrf_checks=True)
    login = browser.get(reverse("login"))
    token = login.context["csrf_token"]
    answer = browser.post(
        reverse("login"),
        {"username": "pete", "password": "correct horse battery", "csrfmiddlewaretoken": token},
    )
    assert answer.status_code == 302
    page = browser.get(reverse("table", args=[campaign.pk]))
    assert page.status_code == 200
    token = browser.cookies[settings.CSRF_COOKIE_NAME].value
    out = browser.post(reverse("logout"), {"csrfmiddlewaretoken": token})
    assert out.status_code == 302
    assert out["Clear-Site-Data"] == '"cache", "storage"'
    assert "cookies" not in out["Clear-Site-Data"]
    assert {"private", "no-store"} <= directives(out)
    assert browser.get(reverse("table", args=[campaign.pk])).status_code == 302
    # the next log-in, in the same browser, goes through its CSRF check as before
    login = browser.get(reverse("login"))
    again = browser.post(
        reverse("login"),
        {
            "username": "pete",
            "password": "correct horse battery",
            "csrfmiddlewaretoken": login.context["csrf_token"],
        },
    )
    assert again.status_code == 302
    assert browser.get(reverse("table", args=[campaign.pk])).status_code == 200
