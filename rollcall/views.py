"""The rules pages, rendered from rules.registry so they cannot drift from the code; and
the 400 and 500 pages, which must render whatever else has failed."""

import logging

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseServerError,
)
from django.shortcuts import render
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme

from rules.kit import mechanics
from rules.kit.starting import default_start_here
from rules.registry import SYSTEMS


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rules/index.html",
        {
            "systems": SYSTEMS.values(),
            "common_ground": mechanics.COMMON_GROUND,
        },
    )


def rules_system(request: HttpRequest, system: str) -> HttpResponse:
    game = SYSTEMS.get(system)
    if game is None:
        raise Http404("No such game system")
    decisions: dict[str, list[str]] = {}
    for mechanic_id, text in game.all_decisions():
        decisions.setdefault(mechanic_id, []).append(text)
    rows = [(m, decisions.get(m.id, [])) for m in game.mechanics]
    actions = [a for a in game.actions.values()]
    return render(
        request,
        "rules/system.html",
        {"game": game, "rows": rows, "actions": actions, "systems": SYSTEMS.values()},
    )


def rules_start(request: HttpRequest, system: str) -> HttpResponse:
    """A game's Start here page, from its START_HERE declaration. `back` is the page the
    reader came from (an empty state's link), offered as the way back when it is ours."""
    game = SYSTEMS.get(system)
    if game is None:
        raise Http404("No such game system")
    back = request.GET.get("back", "")
    if not (
        back.startswith("/")
        and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
    ):
        back = ""
    titles = {m.id: m.title for m in game.mechanics}
    start = game.start_here or default_start_here(game.sheet_template)
    return render(
        request,
        "rules/start.html",
        {
            "game": game,
            "start": start,
            "rules": [(rule_id, titles.get(rule_id, "")) for rule_id in start.rules],
            "back": back,
            "systems": SYSTEMS.values(),
        },
    )


# --------------------------------------------------------------------------- error pages

logger = logging.getLogger(__name__)

# The last resort, should even the plain template fail (a missing static manifest, a
# broken template): no template, no stylesheet, still the way back.
FALLBACK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Rollcall</title></head>
<body><main><h1>{title}</h1><p>{text}</p>
<p>Use your browser's Back button to return to the page you came from, and try again;
if it keeps happening, tell your GM or whoever runs this Rollcall.</p>
<p><a href="/">Rollcall's front page</a></p></main></body></html>
"""


def _plain_page(template: str, title: str, text: str, context: dict | None = None) -> str:
    """The page from its template, without the request: the database, the session and the
    user may be what failed. Falls back to FALLBACK_PAGE if the template cannot render."""
    try:
        return loader.get_template(template).render(context)
    except Exception:  # noqa: BLE001 - an error page must not fail in its turn
        logger.exception("The %s page could not be rendered; sent the fallback", template)
        return FALLBACK_PAGE.format(title=title, text=text)


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponseServerError(
        _plain_page(
            "500.html",
            "Something went wrong on Rollcall's side",
            "Nothing you did caused this. What you were doing may not have been saved.",
        )
    )


def bad_request(
    request: HttpRequest, exception: Exception | None, reason: str = ""
) -> HttpResponse:
    """The 400 page; `reason` says what was wrong when it is known (a NUL character)."""
    return HttpResponseBadRequest(
        _plain_page(
            "400.html",
            "That request could not be read",
            reason or "Nothing was saved: what the page sent was not what Rollcall expects.",
            {"reason": reason},
        )
    )
