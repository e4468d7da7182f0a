"""The API documents itself: an OpenAPI 3.1 schema that validates, naming every endpoint
the app serves, and a reference page built from it (no script, under the policy)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db


def schema() -> dict:
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return json.loads(response.content)


def api_routes() -> set[str]:
    """The routes django-ninja serves, as the resolver knows them."""
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLResolver) and pattern.namespace == "api":
            return {str(p.pattern) for p in pattern.url_patterns}
        if isinstance(pattern, URLResolver):
            for inner in pattern.url_patterns:
                if isinstance(inner, URLResolver) and inner.namespace == "api":
                    return {str(p.pattern) for p in inner.url_patterns}
    raise AssertionError("no api namespace")


def test_the_schema_validates_and_names_every_endpoint():
    document = schema()
    validate(document)  # raises on any error
    assert document["openapi"].startswith("3.1")
    paths = set(document["paths"])
    served = {"/api/v1/" + re.sub(r"<\w+:", "{", r).replace(">", "}") for r in api_routes()}
    assert paths == served
    for path, methods in document["paths"].items():
        assert set(methods) == {"get", "put", "post", "delete", "options", "patch", "trace"}
        op = methods["get"]
        assert op["security"] == [{"TokenAuth": []}], path
        assert op.get("description"), path
    assert document["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    stream = document["paths"]["/api/v1/campaigns/{campaign_id}/stream/"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]


def test_the_reference_page_lists_every_endpoint_without_script():
    page = Client().get("/api/v1/")
    assert page.status_code == 200
    html = page.content.decode()
    for path in schema()["paths"]:
        assert f"GET {path}" in html
    assert "<script>" not in html and "style=" not in html
    assert "/api/v1/openapi.json" in html


def test_unknown_api_addresses_answer_a_problem_whatever_the_method():
    client = Client(enforce_csrf_checks=True)
    missing = client.get("/api/v1/no/such/thing/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/problem+json"
    assert missing.json()["title"] == "Not Found" and missing.json()["status"] == 404
    slash = client.get("/api/v1/campaigns/1/events")
    assert slash.status_code == 404
    assert slash.json()["detail"].endswith("ends with a slash, /api/v1/campaigns/1/events/")
    posted = client.post("/api/v1/nothing/")  # no CSRF page in the way
    assert posted.status_code == 404 and posted.json()["detail"].startswith("No such API")
    huge = client.get("/api/v1/campaigns/99999999999999999999999/")  # an address, past its bound
    assert huge.status_code == 401 and huge.json()["status"] == 401  # the token comes first
    assert client.head("/api/v1/nothing/").status_code == 404


GET_ANSWERS = {"200", "400", "401", "404", "429", "500"}


def resolve(document: dict, ref: str) -> dict:
    node = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def test_every_error_in_the_schema_is_a_problem_and_every_method_is_answered():
    """Walks the schema: each GET documents every status the API can answer, each other
    method its 405 with Allow, and every error's body is the Problem (RFC 9457)."""
    document = schema()
    problem = document["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail"} <= set(problem["properties"])
    assert {"title", "status", "detail"} <= set(problem["required"])
    for path, methods in document["paths"].items():
        for method, op in methods.items():
            answers = op["responses"]
            expected = GET_ANSWERS if method == "get" else {"404", "405"}
            assert set(answers) == expected, (method, path)
            for code, answer in answers.items():
                if int(code) < 400:
                    continue
                assert answer["content"] == {
                    "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
                }, (method, path, code)
            if method != "get":
                assert answers["405"]["headers"]["Allow"]["schema"]["const"] == "GET, HEAD"
                assert op["security"] == []  # refused before the token is read
            else:
                assert answers["429"]["headers"]["Retry-After"]["required"] is True
                assert answers["401"]["headers"]["WWW-Authenticate"]["required"] is True


def test_every_number_a_client_sends_has_the_range_the_code_takes():
    """Path ids, `after`, `limit` and Last-Event-ID: each with its bounds in the schema
    (the code refuses what is out of them with a 400, tests/api/test_problems.py)."""
    document = schema()
    for path, methods in document["paths"].items():
        for param in methods["get"].get("parameters", []):
            body = param["schema"]
            if "anyOf" in body:  # optional: an integer or nothing
                (body,) = [b for b in body["anyOf"] if b.get("type") == "integer"]
            assert body["type"] == "integer", (path, param["name"])
            most = 200 if param["name"] == "limit" else 2**53
            assert "minimum" in body and body["maximum"] == most, (path, param["name"])
    stream = document["paths"]["/api/v1/campaigns/{campaign_id}/stream/"]["get"]
    header = {p["name"]: p for p in stream["parameters"]}["Last-Event-ID"]
    assert header["in"] == "header" and header["schema"]["maximum"] == 2**53


def test_the_stream_describes_each_message_it_sends():
    document = schema()
    stream = document["paths"]["/api/v1/campaigns/{campaign_id}/stream/"]["get"]
    content = stream["responses"]["200"]["content"]["text/event-stream"]
    message = resolve(document, content["schema"]["$ref"])
    shapes = {}
    for ref in message["oneOf"]:
        shape = resolve(document, ref["$ref"])
        data = shape["properties"]["data"]
        assert data["contentMediaType"] == "application/json"
        shapes[shape["properties"]["event"]["const"]] = data["contentSchema"]
    assert set(shapes) == {"message", "end"}
    events = [resolve(document, r["$ref"]) for r in shapes["message"]["oneOf"]]
    assert {e["title"] for e in events} == {"SealedEvent", "LogEvent"}
    end = resolve(document, shapes["end"]["$ref"])
    assert end["required"] == ["detail"]
