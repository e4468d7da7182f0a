"""Pages of the api app: the token page (tokens and overlay links), the overlay itself,
the API's schema and its documentation page, and what makes the site installable (the
web app manifest, the service worker and the offline shell it keeps)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import confirm
from campaigns.links import site_url
from campaigns.permissions import get_campaign_for_gm, get_campaign_for_user

from . import access, endpoints, openapi, reading, stream
from .problems import api_view, headless, problem

OVERLAY_DEFAULT = 5
OVERLAY_MOST = 20


def private(response: HttpResponse) -> HttpResponse:
    """Never kept by a cache: what a key opens, to someone who is not signed in (pages
    answered to a signed-in member are made private by rollcall.middleware)."""
    patch_cache_control(response, private=True, no_store=True)
    return response


# --------------------------------------------------------------------------- the token page


def _tokens_page(
    request: HttpRequest, campaign, membership, *, token_text="", overlay_text="", problem=""
) -> HttpResponse:
    overlay_url = ""
    if overlay_text:
        overlay_url = site_url(request, reverse("overlay", args=[overlay_text]))
    context = {
        "campaign": campaign,
        "membership": membership,
        "tokens": access.active_tokens(membership),
        "overlays": access.active_overlays(campaign) if membership.is_gm else (),
        "token_text": token_text,
        "overlay_url": overlay_url,
        "problem": problem,
        "api_base": request.build_absolute_uri(endpoints.PREFIX),
        "rate": access.token_limit(),
    }
    return render(request, "api/tokens.html", context)  # shows a secret once: never stored


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every member's own tokens for this campaign; a POST makes one, shown once."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if request.method == "GET":
        return _tokens_page(request, campaign, membership)
    try:
        _, text = access.create_token(membership, request.POST.get("name", ""))
    except access.Refused as refusal:
        return _tokens_page(request, campaign, membership, problem=str(refusal))
    return _tokens_page(request, campaign, membership, token_text=text)


@login_required
@require_POST
def token_revoke(request: HttpRequest, campaign_id: int, token_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not confirm.confirmed(request):
        token = access.active_tokens(membership).filter(pk=token_id).first()
        if token is None:
            raise Http404("No such token")
        return confirm.ask(
            request,
            campaign=campaign,
            membership=membership,
            question=f"Revoke the token “{token.name}”?",
            consequence="Whatever uses it (a bot, a script, a stream) is refused from now on; "
            "it cannot be turned back on.",
            button="Revoke token",
            cancel_url=reverse("api_tokens", args=[campaign.pk]),
        )
    token = access.revoke_token(membership, token_id)
    if token is None:
        raise Http404("No such token")
    messages.success(request, f"Token “{token.name}” revoked: it no longer opens anything.")
    return redirect("api_tokens", campaign.pk)


@login_required
@require_POST
def overlay_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_gm(request.user, campaign_id)
    try:
        _, text = access.create_overlay(campaign, request.user, request.POST.get("name", ""))
    except access.Refused as refusal:
        return _tokens_page(request, campaign, membership, problem=str(refusal))
    return _tokens_page(request, campaign, membership, overlay_text=text)


@login_required
@require_POST
def overlay_revoke(request: HttpRequest, campaign_id: int, link_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_gm(request.user, campaign_id)
    if not confirm.confirmed(request):
        link = access.active_overlays(campaign).filter(pk=link_id).first()
        if link is None:
            raise Http404("No such overlay link")
        return confirm.ask(
            request,
            campaign=campaign,
            membership=membership,
            question=f"Revoke the overlay link “{link.name}”?",
            consequence="A stream showing it goes blank; it cannot be turned back on.",
            button="Revoke link",
            cancel_url=reverse("api_tokens", args=[campaign.pk]),
        )
    link = access.revoke_overlay(campaign, link_id)
    if link is None:
        raise Http404("No such overlay link")
    messages.success(request, f"Overlay link “{link.name}” revoked: it shows nothing now.")
    return redirect("api_tokens", campaign.pk)


# --------------------------------------------------------------------------- the overlay


def _count(request: HttpRequest) -> int:
    raw = request.GET.get("n", "")
    if raw.isascii() and raw.isdigit() and len(raw) <= 3:
        return max(1, min(int(raw), OVERLAY_MOST))
    return OVERLAY_DEFAULT


def _slow_down(wait: int) -> HttpResponse:
    response = HttpResponse(f"Too many requests: try again in {wait} s.", status=429)
    response["Retry-After"] = str(wait)
    response["Content-Type"] = "text/plain; charset=utf-8"
    return response


@require_GET
def overlay(request: HttpRequest, key: str) -> HttpResponse:
    """The last few events of the campaign as players see them, on a transparent page
    for a streaming program's browser source; the link is its only key."""
    link = access.find_overlay(key)
    if link is None:
        raise Http404("No such overlay")
    wait = access.spend_overlay(link)
    if wait:
        return _slow_down(wait)
    count = _count(request)
    context = {
        # rendered by table.reading.rendering (autoescaped Jinja), as the table page shows them
        "cards": [mark_safe(c) for c in reading.overlay_cards(link.campaign_id, count)],  # noqa: S308
        "stream_url": reverse("overlay_stream", args=[key]) + f"?n={count}",
    }
    response = private(render(request, "api/overlay.html", context))
    response["Referrer-Policy"] = "no-referrer"  # the URL is the key
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
async def overlay_stream(request: HttpRequest, key: str) -> HttpResponse:
    """The overlay's cards, sent again each time they change (api/stream.py)."""
    link = await sync_to_async(access.find_overlay)(key)
    if link is None:
        raise Http404("No such overlay")
    wait = await sync_to_async(access.spend_overlay)(link)
    if wait:
        return _slow_down(wait)
    return stream.response(stream.overlay_stream(link.pk, link.campaign_id, _count(request)))


# --------------------------------------------------------------------------- API documents


def openapi_schema() -> dict:
    return openapi.document()


@api_view
def api_schema(request: HttpRequest) -> JsonResponse:
    """The OpenAPI 3.1 schema of the read-only API."""
    return JsonResponse(openapi_schema(), json_dumps_params={"indent": 2})


@api_view
def api_docs(request: HttpRequest) -> HttpResponse:
    """The API's reference as a plain page, from the same schema: no script needed."""
    schema = openapi_schema()
    operations = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            if method not in ("get", "head"):
                continue  # the 405 of every other method: said once, on the page
            operations.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": op.get("summary", ""),
                    "description": op.get("description", ""),
                    "parameters": op.get("parameters", []),
                    "responses": sorted(
                        op.get("responses", {}).items(), key=lambda item: str(item[0])
                    ),
                }
            )
    components = schema.get("components", {}).get("schemas", {})
    context = {
        "schema": schema,
        "operations": operations,
        "components": [(name, json.dumps(body, indent=2)) for name, body in components.items()],
        "schema_url": reverse("api_schema"),
        "base": request.build_absolute_uri(endpoints.PREFIX),
    }
    return render(request, "api/docs.html", context)


@csrf_exempt
def api_not_found(request: HttpRequest) -> HttpResponse:
    """Any other address under /api/, whatever the method: a 404 problem, like the API's
    own (and a word about the trailing slash every endpoint has, since this view answers
    before Django would redirect to it). It changes nothing, so no CSRF check."""
    detail = "No such API endpoint: see /api/v1/."
    try:
        match = resolve(request.path + "/")
    except Resolver404:
        match = None
    if match is not None and match.url_name != "api_not_found":
        detail = f"No such API endpoint: every address ends with a slash, {request.path}/"
    answer = problem(404, detail)
    return headless(answer) if request.method == "HEAD" else answer


# --------------------------------------------------------------------------- installable

THEME = "#2f4f7f"
BACKGROUND = "#fbfaf7"
ICONS = [
    ("img/icons/icon-192.png", "192x192", "any"),
    ("img/icons/icon-512.png", "512x512", "any"),
    ("img/icons/maskable-512.png", "512x512", "maskable"),
]
# What the service worker keeps for offline use: the shell's page and files, nothing
# of any campaign. Table data, forms and every other request go to the network only.
SHELL_FILES = ["css/app.css", "js/offline.js", "img/favicon.svg"] + [i[0] for i in ICONS]


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: a phone installs Rollcall to its home screen with it."""
    data = {
        "id": "/",
        "name": "Rollcall",
        "short_name": "Rollcall",
        "description": "Character sheets, one live roll log and exact odds for your table.",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = HttpResponse(json.dumps(data, indent=2), content_type="application/manifest+json")
    patch_cache_control(response, no_cache=True)
    return response


def worker_source() -> str:
    """static/js/sw.js behind the shell it caches (hashed static names): any change of
    either changes the worker's text, and browsers install the new one."""
    path = finders.find("js/sw.js")
    source = Path(path).read_text(encoding="utf-8")
    shell = {
        "offline": reverse("pwa_offline"),
        "files": [static(name) for name in SHELL_FILES],
    }
    shell["version"] = hashlib.sha256(
        (json.dumps(shell, sort_keys=True) + source).encode()
    ).hexdigest()[:12]
    return f"self.ROLLCALL_SHELL = {json.dumps(shell)};\n{source}"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the root, so its scope is the whole site."""
    response = HttpResponse(worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    patch_cache_control(response, no_cache=True)
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The shell the service worker shows when the server cannot be reached: the same
    for everyone (no name, no campaign), so it can be kept."""
    response = render(request, "api/offline.html")
    patch_cache_control(response, no_cache=True)
    return response
