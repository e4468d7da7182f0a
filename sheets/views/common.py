"""What the sheet views share: the page's context, rendered partials, the status line,
and the answers to a refused or failed save."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString

from .. import display, services
from .. import validation as v
from ..models import Sheet
from ..ready import readiness

TEMPLATE = "sheets/sheet.html"


def sheet_urls(sheet: Sheet) -> dict[str, str]:
    args = [sheet.campaign_id, sheet.pk]
    return {
        "page": reverse("sheet_detail", args=args),
        "head": reverse("sheet_head", args=args),
        "scores": reverse("sheet_scores", args=args),
        "export": reverse("sheet_export", args=args),
        "delete": reverse("sheet_delete", args=args),
        "list": reverse("sheet_list", args=[sheet.campaign_id]),
    }


def sheet_context(sheet: Sheet, membership, can_edit: bool, **extra) -> dict:
    # Every name the templates test is present, so no lookup takes Django's slow "missing" path.
    extra["errors"] = display.Blank(extra.get("errors") or {})
    extra["values"] = display.Blank(extra.get("values") or {})
    return {
        "conflict": None,
        "added": False,
        "oob": False,
        "sheet": sheet,
        "campaign": sheet.campaign,
        "membership": membership,
        "can_edit": can_edit,
        "is_gm": membership.is_gm,
        "urls": sheet_urls(sheet),
        "npc_kind_label": v.NPC_KIND_LABELS.get(sheet.npc_kind, ""),
        **extra,
    }


def with_csrf(request: HttpRequest, context: dict) -> dict:
    # Rendered once per row: a ready-made safe string skips escaping it each time.
    context["csrf"] = SafeString(get_token(request))
    return context


def partial_response(
    request: HttpRequest,
    partial: str,
    context: dict,
    *,
    status: int = 200,
    extra: str = "",
) -> HttpResponse:
    html = render_to_string(f"{TEMPLATE}#{partial}", with_csrf(request, context), request) + extra
    if request.method == "POST" and status < 300 and context.get("g") is not None:
        html += ready_oob(request, context)
    return HttpResponse(html, status=status)


def ready_oob(request: HttpRequest, context: dict) -> str:
    """A saved trait may make the sheet ready to roll (or not): the check follows it."""
    ready_context = {**context, "ready": readiness(context["sheet"]), "ready_oob": True}
    return render_to_string(f"{TEMPLATE}#ready", ready_context, request)


def status_line(text: str, *, problem: bool = False) -> str:
    """An out-of-band update of the page's polite live region; a problem (nothing was
    saved) is marked so the region does not look like a success."""
    kind = ' class="status-problem"' if problem else ""
    return f'<span hx-swap-oob="innerHTML:#sheet-status"><span{kind}>{escape(text)}</span></span>'


def back_to_sheet(request: HttpRequest, sheet: Sheet, anchor: str = "") -> HttpResponse:
    return redirect(sheet.get_absolute_url() + (f"#{anchor}" if anchor else ""))


def first_error(errors: dict) -> str:
    return next(iter(errors.values()), "That was not saved.")


def editor_for(request: HttpRequest, membership) -> services.Editor:
    return services.Editor(user=request.user, is_gm=membership.is_gm)


def refused_at_the_table(
    request: HttpRequest,
    sheet: Sheet,
    refusal: services.TableOwned,
    anchor: str,
    fragment: str = "",
    target: str = "",
) -> HttpResponse:
    """A player's change of something that changes at the table: nothing was saved.
    Without JavaScript the page comes back with the reason; htmx gets 403 with the part
    as it is (read-only) and the reason in the status line."""
    message = first_error(refusal.errors)
    if not request.htmx:
        messages.error(request, message)
        return back_to_sheet(request, sheet, anchor)
    response = HttpResponse(fragment + status_line(message, problem=True), status=403)
    response["X-Table-Owned"] = "1"  # sheet.js swaps it in like a 409 or 422
    if target:
        retarget(response, target)
    return response


def retarget(response: HttpResponse, selector: str) -> HttpResponse:
    response["HX-Retarget"] = selector
    response["HX-Reswap"] = "outerHTML"
    return response
