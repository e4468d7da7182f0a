"""The API speaks JSON to the end: every refusal on every path is an RFC 9457 problem
(`application/problem+json`) the schema documents, a write meets a 405 and never
Django's CSRF page, HEAD answers as GET without a body, and every number is taken up to
the bound the schema gives it."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from jsonschema import Draft202012Validator

from api import openapi, reading
from api.models import ApiToken
from rules.kit.table import MAX_ID
from table.models import TableEvent
from table.writing import actions

from .conftest import api_url, bearer, get, token_for

pytestmark = pytest.mark.django_db

ROLL = {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]}
PATHS = ("", "events/", "events/1/", "scene/", "session/", "sheets/", "stream/")
WRITES = ("post", "put", "patch", "delete", "options", "trace")


@pytest.fixture
def serenity(table_for, settings):
    settings.API_STREAM_SECONDS = 0  # a stream answers what it has, then ends
    t = table_for("serenity")
    t.start_scene()
    actions.perform(t.campaign, t.gm, "roll", ROLL)
    return t


def document() -> dict:
    return json.loads(Client().get("/api/v1/openapi.json").content)


def validator(document: dict, name: str) -> Draft202012Validator:
    """A validator for one component, its $refs resolved in the whole document."""
    return Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    )


PROBLEM = validator(openapi.document(), "Problem")


def assert_problem(answer, status: int) -> dict:
    assert answer.status_code == status
    assert answer["Content-Type"] == "application/problem+json"
    body = json.loads(answer.content)
    PROBLEM.validate(body)
    assert body["status"] == status and body["type"] == "about:blank"
    assert body["detail"]
    return body


def test_writes_with_a_valid_token_get_a_405_problem_not_the_csrf_page(serenity, client_for):
    """A bot's POST with its token (and a browser's, cookies and all) is refused as the
    schema says, with Allow, and changes nothing."""
    t = serenity
    token = token_for(t.campaign, t.gm)
    logged_in = client_for(t.gm)
    logged_in.handler.enforce_csrf_checks = True
    events, tokens = TableEvent.objects.count(), ApiToken.objects.count()
    for rest in PATHS:
        url = api_url(t.campaign.pk, rest)
        for method in WRITES:
            for client in (Client(enforce_csrf_checks=True), logged_in):
                answer = getattr(client, method)(url, {"name": "x"}, **bearer(token))
                assert_problem(answer, 405)
                assert answer["Allow"] == "GET, HEAD", (method, rest)
    for url in ("/api/v1/openapi.json", "/api/v1/"):
        assert_problem(Client(enforce_csrf_checks=True).post(url), 405)
    assert (TableEvent.objects.count(), ApiToken.objects.count()) == (events, tokens)


def test_a_browser_session_opens_nothing_without_a_token(serenity, client_for):
    answer = client_for(serenity.gm).get(api_url(serenity.campaign.pk))
    assert_problem(answer, 401)


def test_every_path_answers_its_refusals_as_problems(serenity, table_for):
    t = serenity
    token = token_for(t.campaign, t.player)
    other = table_for("smallville").campaign
    for rest in PATHS:
        assert_problem(get(api_url(t.campaign.pk, rest), None), 401)
        assert_problem(get(api_url(other.pk, rest), token), 404)
        nul = assert_problem(get(api_url(t.campaign.pk, rest), token, q="a\x00b"), 400)
        assert "NUL" in nul["detail"]
        crowd = {f"p{i}": "1" for i in range(1100)}  # past DATA_UPLOAD_MAX_NUMBER_FIELDS
        assert_problem(get(api_url(t.campaign.pk, rest), token, **crowd), 400)
    bad = assert_problem(get(api_url(t.campaign.pk, "events/"), token, limit="many"), 400)
    assert bad["errors"][0]["loc"] == ["query", "limit"]


def test_a_token_past_its_rate_gets_a_429_problem(serenity, settings):
    settings.API_TOKEN_RATE = 1
    token = token_for(serenity.campaign, serenity.player)
    assert get(api_url(serenity.campaign.pk), token).status_code == 200
    answer = get(api_url(serenity.campaign.pk), token)
    assert_problem(answer, 429)
    assert int(answer["Retry-After"]) >= 1


def test_a_failure_inside_the_api_is_a_500_problem(serenity, monkeypatch):
    token = token_for(serenity.campaign, serenity.player)

    def broken(campaign_id):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(reading, "head", broken)
    body = assert_problem(get(api_url(serenity.campaign.pk), token), 500)
    assert "database" not in body["detail"]  # nothing of the inside shows


def test_head_answers_as_get_with_the_same_headers_and_no_body(serenity):
    t = serenity
    token = token_for(t.campaign, t.player)
    urls = [api_url(t.campaign.pk, rest) for rest in PATHS]
    urls += ["/api/v1/openapi.json", "/api/v1/"]
    for url in urls:
        full = Client().get(url, **bearer(token))
        head = Client().head(url, **bearer(token))
        assert head.status_code == full.status_code == 200, url
        assert head.content == b"" if not head.streaming else b"".join(head) == b""
        for name in ("Content-Type", "Content-Length", "Cache-Control", "X-Accel-Buffering"):
            assert head.get(name) == full.get(name), (url, name)
    refused = Client().head(api_url(t.campaign.pk))
    assert refused.status_code == 401 and refused["Content-Type"] == "application/problem+json"
    assert refused.content == b""


def stream_ids(url: str, token: str, last_event_id: str) -> tuple[int, list[int]]:
    answer = Client().get(url, HTTP_LAST_EVENT_ID=last_event_id, **bearer(token))
    if answer.status_code != 200:
        return answer.status_code, []
    text = b"".join(answer).decode()
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    return 200, ids


# The stream gives its connection back while it waits: a real commit, not a test
# transaction the next request could not open a connection inside (PostgreSQL).
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous")
def test_last_event_id_takes_every_seq_the_schema_allows_and_refuses_past_it(serenity):
    t = serenity
    token = token_for(t.campaign, t.player)
    url = api_url(t.campaign.pk, "stream/")
    head = reading.head(t.campaign.pk)
    assert head == 2
    assert stream_ids(url, token, "0" * 19 + "1") == (200, [2])  # 20 digits: seq 1
    assert stream_ids(url, token, str(MAX_ID)) == (200, [])
    for refused in (str(MAX_ID + 1), "1" * 17, "9" * 5000, "-1", "1.0", "one"):
        answer = Client().get(url, HTTP_LAST_EVENT_ID=refused, **bearer(token))
        assert "Last-Event-ID" in assert_problem(answer, 400)["detail"], refused
    for rest, query in (("events/", {"after": MAX_ID + 1}), ("stream/", {"after": -1})):
        assert_problem(get(api_url(t.campaign.pk, rest), token, **query), 400)
    assert get(api_url(t.campaign.pk, "events/"), token, after=MAX_ID).status_code == 200
    assert_problem(get(api_url(t.campaign.pk, f"events/{MAX_ID + 1}/"), token), 400)
    assert_problem(get(api_url(int("9" * 23), "scene/"), token), 400)
    assert_problem(get(api_url("9" * 5000), token), 400)
    assert_problem(get(api_url(t.campaign.pk, f"events/{MAX_ID}/"), token), 404)


# The stream gives its connection back while it waits: a real commit, not a test
# transaction the next request could not open a connection inside (PostgreSQL).
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous")
def test_each_stream_message_is_one_the_schema_describes(serenity):
    t = serenity
    actions.perform(t.campaign, t.gm, "roll", ROLL, visibility="gm")  # sealed for players
    described = document()
    messages = validator(described, "StreamMessage")
    for member in (t.gm, t.player):
        answer = Client().get(
            api_url(t.campaign.pk, "stream/"), {"after": 0}, **bearer(token_for(t.campaign, member))
        )
        kinds = []
        for block in b"".join(answer).decode().split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "data" not in fields:
                continue  # `retry:` and keep-alive comments carry no message
            message = {"event": "message", **fields}
            messages.validate(message)
            shape = "StreamEndMessage" if message["event"] == "end" else "StreamEventMessage"
            data_schema = described["components"]["schemas"][shape]["properties"]["data"]
            Draft202012Validator(
                {**data_schema["contentSchema"], "components": described["components"]}
            ).validate(json.loads(message["data"]))
            kinds.append(json.loads(message["data"]).get("kind", message["event"]))
        assert kinds[-1] == "end" and len(kinds) == 4, kinds
        assert ("sealed" in kinds) == (member == t.player)


def test_a_failure_beside_the_api_is_a_500_problem_too(monkeypatch):
    """The schema and its page are served outside django-ninja: their failure is JSON too."""

    def broken():
        raise RuntimeError("the schema went away")

    monkeypatch.setattr(openapi, "document", broken)
    for url in ("/api/v1/openapi.json", "/api/v1/"):
        body = assert_problem(Client().get(url), 500)
        assert "schema" not in body["detail"]
