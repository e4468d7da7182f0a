"""The read-only API (django-ninja): a campaign's log, scene, session and sheets as
JSON, and a stream of new events, for one member's token, as that member may see them.

Every answer is read through the one visibility gate (api/reading.py). Errors are RFC
9457 problems (api/problems.py) with a `detail` sentence; an event hidden from the
token's member and one that does not exist get the same 404. The schema
(api/openapi.py) is served at /api/v1/openapi.json and read as a page at /api/v1/
(api/views.py).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import register_converter
from ninja import Field, NinjaAPI, Path, Query, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer

from rules.kit.table import MAX_ID

from . import access, problems, reading, stream

log = logging.getLogger(__name__)

PREFIX = "/api/v1/"
LIMIT = reading.PAGE_LIMIT


# --------------------------------------------------------------------------- errors


class ApiError(HttpError):
    """A refusal with a sentence for whoever wrote the client, and headers to add."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status, detail)
        self.headers = headers or {}


NO_CAMPAIGN = "No such campaign (or this token is for another one)."
NO_EVENT = "No such event."
BAD_TOKEN = (
    "Send a token of this campaign in the Authorization header: `Bearer rc_…`. "
    "None was sent, or it is unknown or revoked."
)
BAD_LAST_EVENT_ID = (
    f"Last-Event-ID: must be the seq of an event, a whole number from 0 to {MAX_ID}."
)


class ParameterError(Schema):
    loc: list[str | int] = Field(
        ..., description="Where: `query`, `path` or `header`, and its name."
    )
    msg: str
    type: str


class Problem(Schema):
    """Every error the API answers, in the shape of RFC 9457 (`application/problem+json`)."""

    type: str = Field("about:blank", description="Always about:blank: `title` says it all.")
    title: str = Field(..., description="The HTTP status's name, e.g. `Not Found`.")
    status: int = Field(..., description="The HTTP status code, as answered.")
    detail: str = Field(..., description="What went wrong, in a sentence.")
    errors: list[ParameterError] | None = Field(
        None, description="For a bad parameter (400): each problem, with where it is."
    )


PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}


def problem_answer(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    """An OpenAPI response whose body is a Problem."""
    answer: dict[str, Any] = {
        "description": description,
        "content": {problems.PROBLEM_JSON: {"schema": PROBLEM_REF}},
    }
    if headers:
        answer["headers"] = headers
    return answer


# Every error a GET of the API can answer (405 is documented on the other methods, by
# api/openapi.py): declared here rather than in `response=`, which would say
# application/json.
ERRORS = {
    "400": problem_answer(
        "A parameter out of its range or not a number (`errors` says which), a bad "
        "`Last-Event-ID`, a NUL character in the query, or too many query parameters."
    ),
    "401": problem_answer(
        "No token, or an unknown or revoked one.",
        {"WWW-Authenticate": {"schema": {"type": "string"}, "required": True}},
    ),
    "404": problem_answer(
        "Not this token's campaign (whether it exists or not), or no such event, or one "
        "hidden from the token's member."
    ),
    "429": problem_answer(
        "Too many requests with this token: wait `Retry-After` seconds.",
        {
            "Retry-After": {
                "schema": {"type": "integer", "minimum": 1},
                "required": True,
                "description": "Seconds until the token's window closes.",
            }
        },
    ),
    "500": problem_answer("The server failed to answer: try again later."),
}


# --------------------------------------------------------------------------- the token


class TokenAuth(HttpBearer):
    """A member's personal token (`rc_…`), made on the campaign's "API tokens" page."""

    def authenticate(self, request: HttpRequest, token: str) -> access.Access | None:
        found = access.authenticate(token)
        if found is None:
            return None
        wait = access.spend(found.token)
        if wait:
            rate, window = settings.API_TOKEN_RATE, settings.API_TOKEN_WINDOW
            raise ApiError(
                429,
                f"Slow down: this token may make {rate} requests every {window} seconds. "
                f"Try again in {wait} s.",
                {"Retry-After": str(wait)},
            )
        access.touch(found.token)
        return found


api = NinjaAPI(
    title="Rollcall API",
    version="1",
    description=(
        "Read a campaign as one member sees it: its log, scene, session and sheets, and a "
        "stream of new events. Send the member's token: `Authorization: Bearer rc_…`. "
        "Read-only: HEAD answers wherever GET does, any other method 405. Every error is "
        "an RFC 9457 problem (`application/problem+json`)."
    ),
    auth=TokenAuth(),
    urls_namespace="api",
    openapi_url=None,  # served by api/views.py, with a page of its own (no inline script)
    docs_url=None,
)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return problems.problem(exc.status_code, exc.message, headers=exc.headers)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return problems.problem(exc.status_code, str(exc.message))


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return problems.problem(401, BAD_TOKEN, headers={"WWW-Authenticate": 'Bearer realm="rollcall"'})


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return problems.problem(404, "Not found.")


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    details = []
    for error in exc.errors:
        where = ".".join(str(part) for part in error.get("loc", ())[1:]) or "request"
        details.append(f"{where}: {error.get('msg', 'invalid')}")
    errors = [
        {
            "loc": [p if isinstance(p, int) else str(p) for p in e.get("loc", ())],
            "msg": str(e.get("msg", "invalid")),
            "type": str(e.get("type", "invalid")),
        }
        for e in exc.errors
    ]
    return problems.problem(400, "; ".join(details) or "Invalid request.", errors=errors)


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    return problems.failed(exc)


def _access(request: HttpRequest, campaign_id: int) -> access.Access:
    """The token's access, for its own campaign only: another campaign's URL is 404,
    whether or not it exists."""
    found: access.Access = request.auth
    if found.membership.campaign_id != campaign_id:
        raise ApiError(404, NO_CAMPAIGN)
    return found


# --------------------------------------------------------------------------- schemas


class Seal(Schema):
    commitment: str
    salt: str
    text: str = Field(..., description="The committed text: its SHA-256 is the commitment.")


class Target(Schema):
    seq: int
    action: str
    character: str | None
    faces: list[Any]
    outcome: dict[str, Any]


class SealedEvent(Schema):
    """An event hidden from this member (a secret or blind roll not yet revealed, or
    another member's whisper to the GM): that it happened, when, and the commitment to
    its dice (none for a whisper, which is never revealed); nothing else."""

    seq: int
    kind: Literal["sealed"]
    headline: str
    created_at: str
    commitment: str | None


class LogEvent(Schema):
    """An event this member may see in full (docs/protocol.md)."""

    seq: int
    kind: str = Field(..., description="action, chat, reveal, void, scene_start, …")
    action: str = Field(..., description="The rules action, for kind `action`.")
    actor: str | None
    character: str | None
    scene: str | None
    visibility: Literal["public", "gm", "blind", "whisper"] = Field(
        ...,
        description=(
            "whisper: a chat line to the GM or to one player, read by the GMs, its author "
            "and its recipient only."
        ),
    )
    created_at: str
    request: dict[str, Any]
    faces: list[Any]
    outcome: dict[str, Any] = Field(..., description="headline, dice, explanation, …")
    effects: Any
    hash: str = Field(..., description="The log's hash chain: SHA-256 over this event.")
    voided: bool
    revealed: bool | None = Field(None, description="GMs only.")
    secret_difficulty: Any = Field(None, description="GMs only.")
    seal: Seal | None = Field(None, description="For a revealed roll: its opened seal.")
    target_seq: int | None = Field(None, description="The event a reveal or void is about.")
    target: Target | None = Field(None, description="That event, when this member sees it.")


Event = SealedEvent | LogEvent


class LogPage(Schema):
    events: list[Event]
    last_seq: int = Field(..., description="The newest seq of the log.")
    next_after: int | None = Field(
        ..., description="Pass as `after` for the next page; null once this page is the last."
    )


class TokenInfo(Schema):
    name: str
    id: str = Field(..., description="The token's public part: rc_<id>_…")


class CampaignInfo(Schema):
    id: int
    name: str
    system: str
    role: Literal["gm", "player", "observer"] = Field(..., description="The member's role now.")
    audience: Literal["gm", "players"] = Field(
        ..., description="What the member reads: everything (gm), or sealed hidden rolls."
    )
    last_seq: int
    token: TokenInfo


class SceneOut(Schema):
    scene: dict[str, Any] | None = Field(..., description="id, title, description; or null")
    state: dict[str, Any] = Field(..., description="What the table keeps for the scene.")
    version: int


class SessionOut(Schema):
    session: int = Field(..., description="The session's number (0 before the first mark).")
    state: dict[str, Any]
    version: int


class SheetOut(Schema):
    id: int
    player: str | None
    sheet: dict[str, Any] = Field(..., description="The sheet's export (docs/sheet-format.md).")


# --------------------------------------------------------------------------- endpoints


class Digits:
    """Any run of digits in the path, handed on as text: django-ninja reads it as the
    parameter's integer and answers one past the schema's bounds with a 400, as it does
    for the query (the project's `id` converter would make a long number no address at
    all, a 404)."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(Digits, "digits")

CAMPAIGN = "/campaigns/{digits:campaign_id}"


def campaign_path():
    return Path(..., ge=1, le=MAX_ID, description="The campaign the token was made for.")


@api.get(
    f"{CAMPAIGN}/",
    response={200: CampaignInfo},
    openapi_extra={"responses": dict(ERRORS)},
    url_name="campaign",
    summary="The campaign, and who the token reads as",
)
def campaign(request: HttpRequest, campaign_id: int = campaign_path()):
    """The campaign, and the token's member as they read it now."""
    found = _access(request, campaign_id)
    c = found.campaign
    return {
        "id": c.pk,
        "name": c.name,
        "system": c.system,
        "role": found.membership.role,
        "audience": found.audience,
        "last_seq": reading.head(c.pk),
        "token": {"name": found.token.name, "id": found.token.shown},
    }


@api.get(
    f"{CAMPAIGN}/events/",
    response={200: LogPage},
    openapi_extra={"responses": dict(ERRORS)},
    url_name="events",
    exclude_unset=True,
    summary="The log, paged by seq",
)
def events(
    request: HttpRequest,
    campaign_id: int = campaign_path(),
    after: int = Query(0, ge=0, le=MAX_ID, description="Events after this seq."),
    limit: int = Query(50, ge=1, le=LIMIT, description=f"At most this many (1–{LIMIT})."),
):
    """The log, oldest first, paged by seq. Every seq is listed: an event hidden from
    this member is its sealed card, which opens once the GM reveals it, and another
    member's whisper to the GM its sealed line. The page ends at `last_seq`, read first,
    so `next_after` is null once the page reaches it."""
    found = _access(request, campaign_id)
    head = reading.head(campaign_id)
    viewer = found.membership.user_id
    page = reading.events_after(campaign_id, found.audience, after, limit, viewer, upto=head)
    last = page[-1]["seq"] if page else after
    more = len(page) == limit and last < head
    return {"events": page, "last_seq": head, "next_after": last if more else None}


@api.get(
    f"{CAMPAIGN}/events/{{digits:seq}}/",
    response={200: Event},
    openapi_extra={"responses": dict(ERRORS)},
    url_name="event",
    exclude_unset=True,
    summary="One event",
)
def event(
    request: HttpRequest,
    campaign_id: int = campaign_path(),
    seq: int = Path(..., ge=1, le=MAX_ID, description="The event's number in the campaign's log."),
):
    """One event this member may see in full. One hidden from them (a sealed card in the
    log) answers 404 exactly as a seq that does not exist."""
    found = _access(request, campaign_id)
    data = reading.one_event(campaign_id, found.audience, seq, found.membership.user_id)
    if data is None:
        raise ApiError(404, NO_EVENT)
    return data


@api.get(
    f"{CAMPAIGN}/scene/",
    response={200: SceneOut},
    openapi_extra={"responses": dict(ERRORS)},
    url_name="scene",
    summary="The active scene and its state",
)
def scene(request: HttpRequest, campaign_id: int = campaign_path()):
    """The active scene and its state (Trouble Pool, complications, assets, contests,
    difficulty, …) as this member sees it: what a hidden roll changed shows as it was
    before, until the roll is revealed."""
    found = _access(request, campaign_id)
    return reading.scene(found.campaign, found.membership)


@api.get(
    f"{CAMPAIGN}/session/",
    response={200: SessionOut},
    openapi_extra={"responses": dict(ERRORS)},
    url_name="session",
    summary="The play session's state",
)
def session(request: HttpRequest, campaign_id: int = campaign_path()):
    """What lasts the play session (SER-10 session Assets)."""
    found = _access(request, campaign_id)
    return reading.session(found.campaign, found.membership)


@api.get(
    f"{CAMPAIGN}/sheets/",
    response={200: list[SheetOut]},
    openapi_extra={"responses": dict(ERRORS)},
    url_name="sheets",
    summary="The character sheets",
)
def sheets(request: HttpRequest, campaign_id: int = campaign_path()):
    """Every character sheet this member may open: hidden GM characters only for GMs."""
    found = _access(request, campaign_id)
    return reading.sheets(found.campaign, found.membership)


STREAM_DOC = {
    "responses": {
        "200": {
            "description": (
                "Server-Sent Events. The `schema` describes one message of the stream (as "
                "OpenAPI 3.2's `itemSchema` would): a new event, whose `id` is its seq and "
                "whose `data` is the event as the log gives it, or `event: end` (with a "
                "`detail`), which closes the stream: reconnect, resuming with "
                "`Last-Event-ID`. The stream opens with `retry: 3000` and sends a "
                "`: keep-alive` comment when it has had nothing to send for a while."
            ),
            "content": {
                "text/event-stream": {"schema": {"$ref": "#/components/schemas/StreamMessage"}}
            },
            "headers": {
                "Cache-Control": {"schema": {"type": "string", "const": "private, no-store"}},
                "X-Accel-Buffering": {"schema": {"type": "string", "const": "no"}},
            },
        },
        **ERRORS,
    },
    "parameters": [
        {
            "name": "Last-Event-ID",
            "in": "header",
            "required": False,
            "description": (
                "Resume after this seq (EventSource sends it by itself); it wins over `after`."
            ),
            "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID},
        }
    ],
}


def resume_after(header: str) -> int | None:
    """The seq a `Last-Event-ID` names, None when it is empty; ApiError when it is not a
    whole number from 0 to MAX_ID, as the schema says."""
    text = header.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise ApiError(400, BAD_LAST_EVENT_ID)
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(MAX_ID)) or int(digits) > MAX_ID:
        raise ApiError(400, BAD_LAST_EVENT_ID)
    return int(digits)


@api.get(
    f"{CAMPAIGN}/stream/",
    response={200: None},
    url_name="stream",
    openapi_extra=STREAM_DOC,
    summary="New events, as they are logged (Server-Sent Events)",
)
async def stream_events(
    request: HttpRequest,
    campaign_id: int = campaign_path(),
    after: int | None = Query(
        None, ge=0, le=MAX_ID, description="Start after this seq (default: from now)."
    ),
):
    """New events as they are logged, each as this member may see it (the log's JSON).
    Starts after `Last-Event-ID`, else `after`, else the newest event."""
    found = _access(request, campaign_id)
    resumed = resume_after(request.headers.get("Last-Event-ID", ""))
    if resumed is not None:
        after = resumed
    if after is None:
        after = await reading_head(campaign_id)
    return stream.response(stream.log_stream(found, after))


async def reading_head(campaign_id: int) -> int:
    return await sync_to_async(reading.head)(campaign_id)
