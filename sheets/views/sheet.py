"""The sheet as a whole: the campaign's list of sheets, creating, importing, showing,
exporting and deleting one, its header and Ability Scores, and its counters."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.permissions import get_campaign_for_player, get_campaign_for_user

from .. import display, exchange, foreign, limits, services
from .. import validation as v
from ..forms import ImportForm, SheetCreateForm
from ..models import Counter, Sheet, SheetPortrait
from ..permissions import (
    get_sheet_for_editor,
    get_sheet_for_user,
    login_required_htmx,
    visible_sheets,
)
from ..ready import readiness_of
from ..starters import create_from_starter, starters_for
from .common import (
    TEMPLATE,
    back_to_sheet,
    editor_for,
    first_error,
    partial_response,
    refused_at_the_table,
    sheet_context,
    sheet_urls,
    status_line,
    with_csrf,
)

HEAD_FIELDS = ("name", "notes")
GM_HEAD_FIELDS = ("hidden", "npc_kind", "owner")
HEAD_LABELS = {
    "name": "Name",
    "notes": "Notes",
    "hidden": "Hidden",
    "npc_kind": "Kind",
    "owner": "Played by",
    **{f"override_{k}": f"{k.title()} override" for k in v.SCORE_KEYS},
}


# --------------------------------------------------------------------------- pages


@login_required_htmx
@require_GET
def sheet_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    sheets = list(visible_sheets(campaign.pk, membership).order_by("kind", "name", "pk"))
    ready = readiness_of(sheets, campaign.system)
    for s in sheets:
        s.ready = ready[s.pk]
    return render(
        request,
        "sheets/list.html",
        {
            "campaign": campaign,
            "membership": membership,
            "pcs": [s for s in sheets if s.kind == Sheet.Kind.PC],
            "npcs": [s for s in sheets if s.kind == Sheet.Kind.NPC],
            "kind_labels": v.NPC_KIND_LABELS,
            "at_cap": limits.why_not(membership) if membership.can_play else "",
        },
    )


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    form = SheetCreateForm(request.POST or None, campaign=campaign, membership=membership)
    at_cap = limits.why_not(membership)
    offered = starters_for(campaign.system)
    picked = request.POST.get("starter", "")
    starter = next((s for s in offered if s.key == picked), None)
    starter_error = ""
    if picked and starter is None:
        starter_error = "Choose one of the starting characters, or a blank sheet."
    if request.method == "POST" and form.is_valid() and not at_cap and not starter_error:
        data = form.cleaned_data
        owner = None
        if data["kind"] == v.KIND_PC:
            owner = get_user_model().objects.get(pk=data["owner"])
        details = {
            "name": data["name"],
            "kind": data["kind"],
            "owner": owner,
            "npc_kind": data.get("npc_kind", ""),
            "hidden": data.get("hidden", False),
            "creator": membership,
        }
        try:
            if starter is not None:
                sheet = create_from_starter(campaign, starter, **details)
            else:
                sheet = services.create_sheet(campaign, **details)
        except limits.AtSheetCap as refusal:
            at_cap = str(refusal)
        else:
            if starter is not None:
                messages.success(
                    request, f"{sheet.name} starts as {starter.name}: change anything below."
                )
            else:
                messages.success(request, f"{sheet.name} is ready: fill in the sheet below.")
            return redirect(sheet)
    return render(
        request,
        "sheets/create.html",
        {
            "campaign": campaign,
            "membership": membership,
            "form": form,
            "at_cap": at_cap,
            "starters": offered,
            "picked": picked if starter is not None else "",
            "starter_error": starter_error,
        },
        status=422 if request.method == "POST" and (at_cap or starter_error) else 200,
    )


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_import(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    form = ImportForm(
        request.POST or None, request.FILES or None, campaign=campaign, membership=membership
    )
    at_cap = limits.why_not(membership)
    if request.method == "POST" and form.is_valid() and not at_cap:
        owner_id = form.cleaned_data.get("owner")
        owner = get_user_model().objects.filter(pk=owner_id).first() if owner_id else None
        try:
            sheet = exchange.import_sheet(campaign, form.checked, owner=owner, creator=membership)
        except limits.AtSheetCap as refusal:
            at_cap = str(refusal)
        else:
            if form.report is not None:
                request.session[_report_key(sheet)] = form.report.as_data()
                return redirect("sheet_imported", campaign.pk, sheet.pk)
            messages.success(request, f"{sheet.name} was imported.")
            for notice in form.checked.notices:
                messages.warning(request, str(notice))
            return redirect(sheet)
    return render(
        request,
        "sheets/import.html",
        {
            "campaign": campaign,
            "membership": membership,
            "form": form,
            "problems": form.problems,
            "at_cap": at_cap,
        },
        status=422 if form.problems or (request.method == "POST" and at_cap) else 200,
    )


def _report_key(sheet: Sheet) -> str:
    return f"import-report-{sheet.pk}"


@login_required_htmx
@require_GET
def sheet_imported(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    """What an import from another tool took and left out; kept for the session, so a
    reload shows it again. A sheet without a report goes to the sheet itself."""
    sheet, membership, _ = get_sheet_for_user(request.user, campaign_id, sheet_id)
    report = foreign.Report.from_data(request.session.get(_report_key(sheet)))
    if report is None:
        return redirect(sheet)
    return render(
        request,
        "sheets/imported.html",
        {
            "campaign": sheet.campaign,
            "membership": membership,
            "sheet": sheet,
            "report": report,
            "ready": readiness_of([sheet], sheet.campaign.system)[sheet.pk],
        },
    )


@login_required_htmx
@require_GET
def sheet_detail(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
    page = display.sheet_page(sheet)
    context = sheet_context(
        sheet, membership, can_edit, page=page, scores=page.scores, ready=page.ready
    )
    _head_extras(sheet, membership, context)
    # The Remove button needs to know; a sheet that never had a portrait asks nothing.
    context["has_portrait"] = bool(sheet.portrait_version) and (
        SheetPortrait.objects.filter(sheet=sheet).exists()
    )
    return render(request, TEMPLATE, with_csrf(request, context))


def _head_extras(sheet: Sheet, membership, context: dict) -> None:
    values = context.get("values") or {}
    context["head"] = {
        "name": values.get("name", sheet.name),
        "notes": values.get("notes", sheet.notes),
    }
    if sheet.owner_id:
        owner = (
            get_user_model()
            .objects.filter(pk=sheet.owner_id)
            .only("username", "display_name")
            .first()
        )
        context["owner_name"] = owner.shown_name if owner else ""
    if membership.is_gm:
        template = v.template_for(sheet.campaign.system)
        context["npc_kinds"] = [(k, v.NPC_KIND_LABELS.get(k, k)) for k in template.npc_kinds]
        if sheet.kind == Sheet.Kind.PC:
            context["owner_choices"] = services.member_choices(sheet.campaign)


@login_required_htmx
@require_GET
def sheet_export(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, _, _ = get_sheet_for_user(request.user, campaign_id, sheet_id)
    response = HttpResponse(
        exchange.export_json(sheet), content_type="application/json; charset=utf-8"
    )
    filename = f"{slugify(sheet.name) or 'sheet'}.rollcall.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_delete(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    if request.method == "POST":
        name = sheet.name
        services.delete_sheet(sheet)
        messages.success(request, f"{name} was deleted.")
        return redirect("sheet_list", campaign_id)
    return render(
        request,
        "sheets/delete.html",
        {
            "campaign": sheet.campaign,
            "membership": membership,
            "sheet": sheet,
            "urls": sheet_urls(sheet),
        },
    )


# --------------------------------------------------------------------------- header and scores


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_head(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    if request.method == "GET":
        sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
        context = sheet_context(sheet, membership, can_edit)
        _head_extras(sheet, membership, context)
        return partial_response(request, "sheet_head", context)
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    allowed = HEAD_FIELDS + (GM_HEAD_FIELDS if membership.is_gm else ())
    changes = {name: request.POST.get(name, "") for name in allowed if name in request.POST}
    if membership.is_gm and sheet.kind == Sheet.Kind.NPC and "hidden_present" in request.POST:
        changes["hidden"] = request.POST.get("hidden", "")
    return _save_sheet(request, sheet, membership, changes, "sheet_head", "details")


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_scores(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    if request.method == "GET":
        sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
        return partial_response(
            request,
            "scores",
            sheet_context(sheet, membership, can_edit, scores=display.scores_for(sheet)),
        )
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    changes = {f"override_{k}": request.POST.get(f"override_{k}", "") for k in v.SCORE_KEYS}
    return _save_sheet(request, sheet, membership, changes, "scores", "Ability Score overrides")


def _save_sheet(request, sheet, membership, changes, partial, what) -> HttpResponse:
    def respond(current, status, *, notice: str, **extra):
        context = sheet_context(current, membership, True, **extra)
        _head_extras(current, membership, context)
        if partial == "scores":
            context["scores"] = display.scores_for(current)
        return partial_response(
            request,
            partial,
            context,
            status=status,
            extra=status_line(notice, problem=status >= 400),
        )

    try:
        saved = services.save_sheet(sheet, changes, request.POST.get("version"))
    except services.Gone:
        raise Http404("No such sheet") from None
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"Not saved: {first_error(error.errors)}")
            return back_to_sheet(request, sheet)
        return respond(
            sheet,
            422,
            errors=error.errors,
            values=changes,
            notice="Not saved: " + first_error(error.errors),
        )
    except services.Conflict as conflict:
        current = conflict.current
        if not request.htmx:
            messages.error(
                request, "Someone else changed this sheet since you loaded it; nothing was saved."
            )
            return back_to_sheet(request, sheet)
        theirs = [(HEAD_LABELS.get(name, name), _sheet_value(current, name)) for name in changes]
        return respond(
            current,
            409,
            conflict={"theirs": theirs},
            values=changes,
            notice="Not saved: someone else changed this sheet since you loaded it.",
        )
    if not request.htmx:
        messages.success(request, f"Saved the {what}.")
        return back_to_sheet(request, saved)
    return respond(saved, 200, notice=f"Saved the {what}.")


def _sheet_value(sheet: Sheet, name: str) -> str:
    if name.startswith("override_"):
        value = (sheet.overrides or {}).get(name[9:])
        return "" if value is None else str(value)
    if name == "hidden":
        return "hidden" if sheet.hidden else "visible"
    if name == "npc_kind":
        return v.NPC_KIND_LABELS.get(sheet.npc_kind, sheet.npc_kind)
    if name == "owner":
        return sheet.owner.shown_name if sheet.owner_id else "nobody"
    return str(getattr(sheet, name, ""))


# --------------------------------------------------------------------------- counters


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_counter(request: HttpRequest, campaign_id: int, sheet_id: int, key: str) -> HttpResponse:
    if request.method == "GET":
        sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
    else:
        sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
        can_edit = True
    template = v.template_for(sheet.campaign.system)
    try:
        spec = template.counter(key)
    except KeyError:
        raise Http404("No such counter") from None

    def respond(counter, status=200, *, notice: str = "", **extra):
        cv = display.counter_view(sheet, spec, counter)
        return partial_response(
            request,
            "counter",
            sheet_context(sheet, membership, can_edit, c=cv, **extra),
            status=status,
            extra=status_line(notice, problem=status >= 400) if notice else "",
        )

    if request.method == "GET":
        return respond(Counter.objects.filter(sheet=sheet, key=key).first())
    delta_raw = request.POST.get("delta", "")
    delta = 0
    if delta_raw:
        try:
            delta = max(-1000, min(1000, int(delta_raw)))
        except ValueError:
            delta = 0
    raw = request.POST.get("value", "")
    try:
        counter = services.save_counter(
            sheet,
            key,
            raw,
            request.POST.get("version"),
            delta=delta,
            editor=editor_for(request, membership),
        )
    except services.Gone:
        raise Http404("No such counter") from None
    except services.TableOwned as refusal:
        current = Counter.objects.filter(sheet=sheet, key=key).first()
        cv = display.counter_view(sheet, spec, current)
        html = render_to_string(
            f"{TEMPLATE}#counter",
            with_csrf(request, sheet_context(sheet, membership, can_edit, c=cv)),
            request,
        )
        return refused_at_the_table(request, sheet, refusal, f"counter-{sheet.pk}-{key}", html)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"{spec.label}: {first_error(error.errors)}")
            return back_to_sheet(request, sheet, f"counter-{sheet.pk}-{key}")
        current = Counter.objects.filter(sheet=sheet, key=key).first()
        errors = {"value": error.errors.get("value") or first_error(error.errors)}
        return respond(
            current,
            422,
            errors=errors,
            values={"value": raw},
            notice=f"{spec.label} not saved: {errors['value']}",
        )
    except services.Conflict as conflict:
        if not request.htmx:
            messages.error(
                request,
                f"Someone else changed {spec.label} since you loaded it; nothing was saved.",
            )
            return back_to_sheet(request, sheet, f"counter-{sheet.pk}-{key}")
        mine = raw if not delta else ""
        return respond(
            conflict.current,
            409,
            conflict={"mine": mine, "delta": delta},
            notice=f"{spec.label} not saved: someone else changed it to {conflict.current.value}.",
        )
    notice = f"{spec.label}: {counter.value}."
    if spec.table_owned:
        notice = f"{spec.label}: {counter.value} (changes are logged at the table)."
    if not request.htmx:
        messages.success(request, notice)
        return back_to_sheet(request, sheet, f"counter-{sheet.pk}-{key}")
    return respond(counter, notice=notice)
