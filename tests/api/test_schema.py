"""The API documents itself: an OpenAPI 3.1 schema that validates, naming every endpoint
the app serves, and a reference page built from it (no script, under the policy)."""

from __future__ import annotations

import json

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
    served = {"/api/v1/" + r.replace("<id:", "{").replace(">", "}") for r in api_routes()}
    assert paths == served
    for path, methods in document["paths"].items():
        assert set(methods) == {"get"}, path  # read-only
        op = methods["get"]
        assert op["security"] == [{"TokenAuth": []}], path
        assert {"401", "404", "429"} <= {str(code) for code in op["responses"]}, path
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


def test_unknown_api_addresses_and_methods_answer_json():
    client = Client(enforce_csrf_checks=False)
    missing = client.get("/api/v1/no/such/thing/")
    assert missing.status_code == 404 and "detail" in missing.json()
    slash = client.get("/api/v1/campaigns/1/events")
    assert slash.status_code == 404
    assert slash.json()["detail"].endswith("ends with a slash, /api/v1/campaigns/1/events/")
    assert client.post("/api/v1/nothing/").json()["detail"].startswith("No such API endpoint")
    huge = client.get("/api/v1/campaigns/99999999999999999999999/")
    assert huge.status_code == 404 and "detail" in huge.json()
    wrong = client.delete("/api/v1/campaigns/1/events/")
    assert wrong.status_code == 405 and wrong["Allow"] == "GET"
    assert wrong.json() == {"detail": "This API is read-only: use GET."}


def test_no_api_view_is_exempt_from_the_csrf_check():
    """A browser's cross-site POST to the API meets Django's CSRF check like any form."""
    answer = Client(enforce_csrf_checks=True).post("/api/v1/campaigns/1/events/")
    assert answer.status_code == 403 and b"CSRF" in answer.content
