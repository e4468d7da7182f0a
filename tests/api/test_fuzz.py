"""Schema-driven fuzzing of the API (schemathesis): requests generated from the OpenAPI
document, valid and invalid, with a GM's, a player's, a revoked, a made-up or no token,
sent to the app in-process (WSGI). Every answer must be one the document describes (its
status, content type, headers and body) and none a 5xx; data that breaks the schema is
refused with a 4xx, and data that fits it is taken."""

from __future__ import annotations

import re

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api import access
from api.models import ApiToken
from campaigns.models import Membership
from table.writing import actions

from .conftest import token_for

pytestmark = [
    # The stream gives its database connection back while it waits (api/stream.py): the
    # next request opens a new one, which a test's enclosing transaction would refuse on
    # PostgreSQL. Each test commits for real instead.
    pytest.mark.django_db(transaction=True),
    # the stream's answer is async; the WSGI app reads it to its end (it ends at once here)
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous"),
]

SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
ROLL = {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]}
FUZZ = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
REFUSED = settings(FUZZ, max_examples=5)  # a write is refused before anything is read


@pytest.fixture
def table(table_for, settings):
    """A campaign with a public and a secret roll, and every kind of token."""
    settings.API_STREAM_SECONDS = 0  # a stream sends what the log has, then ends
    settings.API_TOKEN_RATE = 0  # the fuzzer's many requests are not a flood
    t = table_for("serenity")
    t.start_scene()
    actions.perform(t.campaign, t.gm, "roll", ROLL)
    actions.perform(t.campaign, t.gm, "roll", ROLL, visibility="gm")
    revoked = token_for(t.campaign, t.player, "old")
    member = Membership.objects.get(campaign=t.campaign, user=t.player)
    access.revoke_token(member, ApiToken.objects.get(name="old").pk)
    return t, {
        "gm": token_for(t.campaign, t.gm),
        "player": token_for(t.campaign, t.player),
        "revoked": revoked,
        "made up": "rc_0123456789ab_" + "x" * 43,
        "none": None,  # schemathesis then sends a bearer of its own making, or none
    }


def path_names(operation) -> list[str]:
    return re.findall(r"{(\w+)}", operation.path)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_every_answer_is_one_the_schema_describes(table, operation, mode):
    t, tokens = table
    readable = {"campaign_id": t.campaign.pk, "seq": 1}

    @(FUZZ if operation.method.upper() == "GET" else REFUSED)
    @given(data=st.data())
    def fuzz(data):
        who = data.draw(st.sampled_from(sorted(tokens)), label="token")
        # most requests name the token's own campaign (and a seq it has), the rest anything
        fixed = {
            name: readable[name]
            for name in path_names(operation)
            if data.draw(st.integers(0, 3), label=f"fix {name}") > 0
        }
        headers = {"Authorization": f"Bearer {tokens[who]}"} if tokens[who] else None
        case = data.draw(
            operation.as_strategy(generation_mode=mode, path_parameters=fixed, headers=headers)
        )
        response = case.call()
        case.validate_response(response, checks=CHECKS)
        if mode.is_positive and who in ("gm", "player") and operation.method.upper() == "GET":
            # data that fits the schema is taken: only a seq may be missing (or hidden)
            allowed = {200, 404} if "seq" in path_names(operation) else {200}
            if fixed.keys() == set(path_names(operation)) or not path_names(operation):
                assert response.status_code in allowed, (case.path_parameters, case.query)

    fuzz()
