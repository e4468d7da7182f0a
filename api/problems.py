"""How everything under /api/ answers, before and around django-ninja: errors as RFC 9457
problem details (`application/problem+json`), and the one gate every API view stands
behind (read-only, HEAD answered as GET, no NUL characters, no CSRF check).

The API reads a campaign with a bearer token and changes nothing: no view under /api/
looks at a session cookie or a request body, and any method but GET and HEAD is refused
here before anything else runs. So Django's CSRF check, whose answer is an HTML page,
has nothing to protect on these paths and stands aside (csrf_exempt).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
ALLOW = "GET, HEAD"
READ_ONLY = "This API is read-only: use GET (or HEAD)."
NUL = "A parameter holds a NUL character, which no name or number has."
TOO_MANY = "Too many query parameters."
FAILED = "The server failed to answer; try again later."


def problem(
    status: int, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
) -> JsonResponse:
    """An error answer in RFC 9457's shape: no `type` of its own (about:blank), so its
    `title` is the status's name and `detail` says what went wrong."""
    body = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        **extra,
    }
    response = JsonResponse(body, status=status, content_type=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer to a request no API view should see, or None. The method first, so a
    write is refused without its body or query ever being read."""
    if request.method not in ("GET", "HEAD"):
        return problem(405, READ_ONLY, headers={"Allow": ALLOW})
    try:
        params = list(request.GET.lists())
    except SuspiciousOperation:  # more than DATA_UPLOAD_MAX_NUMBER_FIELDS
        return problem(400, TOO_MANY)
    for key, values in params:
        if "\x00" in key or any("\x00" in value for value in values):
            return problem(400, NUL)
    return None


async def _no_chunks():
    return
    yield  # an async generator that yields nothing


def headless(response: HttpResponse) -> HttpResponse:
    """GET's answer as HEAD's: the same status and headers (Content-Length too), no
    body. A stream is never started, so HEAD on it answers at once."""
    if isinstance(response, StreamingHttpResponse):
        response.streaming_content = _no_chunks() if response.is_async else iter(())
    else:
        response["Content-Length"] = str(len(response.content))
        response.content = b""
    return response


def failed(exc: Exception) -> HttpResponse:
    log.exception("API request failed", exc_info=exc)
    return problem(500, FAILED)


def api_view(view: Callable) -> Callable:
    """Put a view behind the API's gate: `refusal` first, HEAD answered by the view as a
    GET without its body, a failure as a 500 problem rather than Django's error page,
    and no CSRF check (see the module's docstring)."""

    if inspect.iscoroutinefunction(view):

        async def gated(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            refused = refusal(request)
            if refused is not None:
                return refused
            head = request.method == "HEAD"
            request.method = "GET"
            try:
                response = await view(request, *args, **kwargs)
            except Exception as exc:
                response = failed(exc)
            finally:
                request.method = "HEAD" if head else "GET"
            return headless(response) if head else response

    else:

        def gated(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            refused = refusal(request)
            if refused is not None:
                return refused
            head = request.method == "HEAD"
            request.method = "GET"
            try:
                response = view(request, *args, **kwargs)
            except Exception as exc:
                response = failed(exc)
            finally:
                request.method = "HEAD" if head else "GET"
            return headless(response) if head else response

    gated.__name__ = getattr(view, "__name__", "api_view")
    gated.__doc__ = view.__doc__
    return csrf_exempt(gated)
