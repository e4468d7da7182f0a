"""Project middleware.

RejectUnknownHostMiddleware: see its docstring.

RejectNulCharactersMiddleware refuses NUL characters in request parameters before
any view sees them: forms already refuse them, but views that read a parameter
directly would pass one to PostgreSQL, which rejects it with an error instead of a
clear message. The API under /api/ refuses them itself, as the JSON problem its
clients read (api/problems.py), and never reads a request body.

PrivateAnswersMiddleware: see its docstring.
"""

import logging
from urllib.parse import urlparse

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import resolve_url

from . import views

host_log = logging.getLogger("django.security.DisallowedHost")

API_ROOT = "/api/"


class RejectUnknownHostMiddleware:
    """A request for a host not in ALLOWED_HOSTS gets a plain 400, even with DEBUG on.

    Django would answer it with its debug page when DEBUG is on, settings and code
    included: on a server bound to every address (HOST=0.0.0.0) anyone on the network
    could ask for it just by sending a Host header of their choosing. First in
    MIDDLEWARE, so nothing reads the host before this."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            request.get_host()
        except DisallowedHost as error:
            host_log.warning("%s", error)
            return HttpResponseBadRequest("Bad request: unknown host.", content_type="text/plain")
        return self.get_response(request)


NUL_REASON = (
    "Nothing was saved: what you sent holds a NUL character, which text cannot contain "
    "(it comes with pasting from a binary file or some programs). Go back, remove it or "
    "paste again from a plain text editor, and send it again."
)


class RejectNulCharactersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(API_ROOT):
            return self.get_response(request)
        sources = [request.GET, request.POST] if request.method == "POST" else [request.GET]
        for params in sources:
            for key, values in params.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    return views.bad_request(request, None, NUL_REASON)
        return self.get_response(request)


class HtmxLoginRedirectMiddleware:
    """A signed-out htmx request gets 401 with HX-Redirect instead of the login redirect.

    htmx follows a 302 inside the fragment, so the login page would be swapped into
    a widget; HX-Redirect sends the whole browser page to log in and, afterwards,
    back to the page it was on (not the fragment's URL)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 302 or not getattr(request, "htmx", False):
            return response
        login_url = resolve_url(settings.LOGIN_URL)
        if urlparse(response.get("Location", "")).path != login_url:
            return response
        page = urlparse(request.htmx.current_url or "")
        next_path = page.path or request.get_full_path()
        if page.query:
            next_path += "?" + page.query
        redirect = HttpResponse(status=401)
        redirect["HX-Redirect"] = redirect_to_login(next_path, login_url)["Location"]
        return redirect


PRIVATE = "private, no-store"


class PrivateAnswersMiddleware:
    """Whatever is answered to someone signed in (or to an API token) is never stored:
    not by a shared cache, not on the device's disk, where a whisper or a secret roll
    would outlive the log-out. One place for every page, htmx fragment, export and API
    answer; a view's own caching (a portrait's ETag) still works by revalidation.

    Static files never get here (WhiteNoise answers them first), and public pages seen
    signed out keep the caching they had. After AuthenticationMiddleware: "signed in" is
    checked before the view (a log-out's answer too) and after it (a log-in's)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        named = _names_someone(request)
        response = self.get_response(request)
        if named or _names_someone(request):
            response["Cache-Control"] = PRIVATE
            if "Expires" in response:
                del response["Expires"]
        return response


def _names_someone(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    signed_in = user is not None and user.is_authenticated
    return signed_in or bool(request.headers.get("Authorization"))  # an API token
