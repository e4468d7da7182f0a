"""Sheet pages and the htmx fragments that edit them in place.

Every view fetches the sheet through sheets.permissions first, full page or
fragment alike. POSTs answer htmx with the fragment to swap (200), the
fragment with its errors beside the fields (422), or the row as it is now
with the other person's values and a button to re-apply yours (409). Without
JavaScript the same forms post normally and come back to the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.permissions import get_campaign_for_player, get_campaign_for_user

from . import display, exchange, services
from . import validation as v
from .forms import ImportForm, SheetCreateForm
from .models import Counter, Sheet, Trait
from .permissions import (
    get_sheet_for_editor,
    get_sheet_for_user,
    login_required_htmx,
    visible_sheets,
)

TEMPLATE = "sheets/sheet.html"
FIELD_PARTIALS = {
    "name": "f_name",
    "die": "f_die",
    "rating": "f_rating",
    "notes": "f_notes",
    "parent": "f_ref",
    "link": "f_ref",
}
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


# --------------------------------------------------------------------------- helpers


def _urls(sheet: Sheet) -> dict[str, str]:
    args = [sheet.campaign_id, sheet.pk]
    return {
        "page": reverse("sheet_detail", args=args),
        "head": reverse("sheet_head", args=args),
        "scores": reverse("sheet_scores", args=args),
        "export": reverse("sheet_export", args=args),
        "delete": reverse("sheet_delete", args=args),
        "list": reverse("sheet_list", args=[sheet.campaign_id]),
    }


def _context(sheet: Sheet, membership, can_edit: bool, **extra) -> dict:
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
        "urls": _urls(sheet),
        "npc_kind_label": v.NPC_KIND_LABELS.get(sheet.npc_kind, ""),
        **extra,
    }


def _with_csrf(request: HttpRequest, context: dict) -> dict:
    # Rendered once per row: a ready-made safe string skips escaping it each time.
    context["csrf"] = SafeString(get_token(request))
    return context


def _fragment(
    request: HttpRequest,
    partial: str,
    context: dict,
    *,
    status: int = 200,
    extra: str = "",
) -> HttpResponse:
    html = render_to_string(f"{TEMPLATE}#{partial}", _with_csrf(request, context), request) + extra
    return HttpResponse(html, status=status)


def _status(text: str, *, problem: bool = False) -> str:
    """An out-of-band update of the page's polite live region; a problem (nothing was
    saved) is marked so the region does not look like a success."""
    kind = ' class="status-problem"' if problem else ""
    return f'<span hx-swap-oob="innerHTML:#sheet-status"><span{kind}>{escape(text)}</span></span>'


def _version_input(trait_pk: int, version: int) -> str:
    return (
        f'<input type="hidden" name="version" id="t{trait_pk}-version" value="{version}" '
        'hx-swap-oob="true">'
    )


def _back(request: HttpRequest, sheet: Sheet, anchor: str = "") -> HttpResponse:
    return redirect(sheet.get_absolute_url() + (f"#{anchor}" if anchor else ""))


def _first_error(errors: dict) -> str:
    return next(iter(errors.values()), "That was not saved.")


def _editor(request: HttpRequest, membership) -> services.Editor:
    return services.Editor(user=request.user, is_gm=membership.is_gm)


def _refused_at_the_table(
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
    message = _first_error(refusal.errors)
    if not request.htmx:
        messages.error(request, message)
        return _back(request, sheet, anchor)
    response = HttpResponse(fragment + _status(message, problem=True), status=403)
    response["X-Table-Owned"] = "1"  # sheet.js swaps it in like a 409 or 422
    if target:
        _retarget(response, target)
    return response


def _scores_oob(request: HttpRequest, sheet: Sheet, membership, can_edit: bool, group: str) -> str:
    if group not in ("attributes", "skills"):
        return ""
    if not v.has_scores(sheet.campaign.system, sheet.kind, sheet.npc_kind):
        return ""
    context = _context(sheet, membership, can_edit, scores=display.scores_for(sheet), oob=True)
    return render_to_string(f"{TEMPLATE}#scores", _with_csrf(request, context), request)


# --------------------------------------------------------------------------- pages


@login_required_htmx
@require_GET
def sheet_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    sheets = list(visible_sheets(campaign.pk, membership).order_by("kind", "name", "pk"))
    return render(
        request,
        "sheets/list.html",
        {
            "campaign": campaign,
            "membership": membership,
            "pcs": [s for s in sheets if s.kind == Sheet.Kind.PC],
            "npcs": [s for s in sheets if s.kind == Sheet.Kind.NPC],
            "kind_labels": v.NPC_KIND_LABELS,
        },
    )


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    form = SheetCreateForm(request.POST or None, campaign=campaign, membership=membership)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        owner = None
        if data["kind"] == v.KIND_PC:
            owner = get_user_model().objects.get(pk=data["owner"])
        sheet = services.create_sheet(
            campaign,
            name=data["name"],
            kind=data["kind"],
            owner=owner,
            npc_kind=data.get("npc_kind", ""),
            hidden=data.get("hidden", False),
        )
        messages.success(request, f"{sheet.name} is ready: fill in the sheet below.")
        return redirect(sheet)
    return render(
        request,
        "sheets/create.html",
        {"campaign": campaign, "membership": membership, "form": form},
    )


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_import(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    form = ImportForm(
        request.POST or None, request.FILES or None, campaign=campaign, membership=membership
    )
    if request.method == "POST" and form.is_valid():
        owner_id = form.cleaned_data.get("owner")
        owner = get_user_model().objects.filter(pk=owner_id).first() if owner_id else None
        sheet = exchange.import_sheet(campaign, form.checked, owner=owner)
        messages.success(request, f"{sheet.name} was imported.")
        for notice in form.checked.notices:
            messages.warning(request, str(notice))
        return redirect(sheet)
    return render(
        request,
        "sheets/import.html",
        {"campaign": campaign, "membership": membership, "form": form, "problems": form.problems},
        status=422 if form.problems else 200,
    )


@login_required_htmx
@require_GET
def sheet_detail(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
    page = display.sheet_page(sheet)
    context = _context(sheet, membership, can_edit, page=page, scores=page.scores)
    _head_extras(sheet, membership, context)
    return render(request, TEMPLATE, _with_csrf(request, context))


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
            "urls": _urls(sheet),
        },
    )


# --------------------------------------------------------------------------- header and scores


@login_required_htmx
@require_http_methods(["GET", "POST"])
def sheet_head(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    if request.method == "GET":
        sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
        context = _context(sheet, membership, can_edit)
        _head_extras(sheet, membership, context)
        return _fragment(request, "sheet_head", context)
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
        return _fragment(
            request,
            "scores",
            _context(sheet, membership, can_edit, scores=display.scores_for(sheet)),
        )
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    changes = {f"override_{k}": request.POST.get(f"override_{k}", "") for k in v.SCORE_KEYS}
    return _save_sheet(request, sheet, membership, changes, "scores", "Ability Score overrides")


def _save_sheet(request, sheet, membership, changes, partial, what) -> HttpResponse:
    def respond(current, status, *, notice: str, **extra):
        context = _context(current, membership, True, **extra)
        _head_extras(current, membership, context)
        if partial == "scores":
            context["scores"] = display.scores_for(current)
        return _fragment(
            request, partial, context, status=status, extra=_status(notice, problem=status >= 400)
        )

    try:
        saved = services.save_sheet(sheet, changes, request.POST.get("version"))
    except services.Gone:
        raise Http404("No such sheet") from None
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"Not saved: {_first_error(error.errors)}")
            return _back(request, sheet)
        return respond(
            sheet,
            422,
            errors=error.errors,
            values=changes,
            notice="Not saved: " + _first_error(error.errors),
        )
    except services.Conflict as conflict:
        current = conflict.current
        if not request.htmx:
            messages.error(
                request, "Someone else changed this sheet since you loaded it; nothing was saved."
            )
            return _back(request, sheet)
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
        return _back(request, saved)
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


# --------------------------------------------------------------------------- groups and traits


def _group_or_404(sheet: Sheet, key: str):
    try:
        return v.template_for(sheet.campaign.system).group(key)
    except KeyError:
        raise Http404("No such group") from None


@login_required_htmx
@require_GET
def sheet_group(request: HttpRequest, campaign_id: int, sheet_id: int, group: str) -> HttpResponse:
    sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
    _group_or_404(sheet, group)
    gv = display.groups_for(sheet, [group])[group]
    return _fragment(request, "group", _context(sheet, membership, can_edit, g=gv))


@login_required_htmx
@require_POST
def trait_add(request: HttpRequest, campaign_id: int, sheet_id: int, group: str) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    spec = _group_or_404(sheet, group)
    data = {
        k: request.POST.get(k, "") for k in ("name", "die", "rating", "notes", "parent", "link")
    }
    flags = {
        f: request.POST.get(f"flag_{f}", "")
        for f in v.flags_for(sheet.campaign.system, spec)
        if f"flag_{f}" in request.POST
    }
    try:
        trait = services.add_trait(sheet, group, data, flags, editor=_editor(request, membership))
    except services.TableOwned as refusal:
        gv = display.groups_for(sheet, [group])[group]
        html = render_to_string(
            f"{TEMPLATE}#group",
            _with_csrf(request, _context(sheet, membership, True, g=gv)),
            request,
        )
        return _refused_at_the_table(
            request, sheet, refusal, f"group-{sheet.pk}-{group}", html, f"#{gv.dom_id}"
        )
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"Not added: {_first_error(error.errors)}")
            return _back(request, sheet, f"group-{sheet.pk}-{group}")
        gv = display.groups_for(sheet, [group], add_values=data, add_errors=error.errors)[group]
        context = _context(sheet, membership, True, g=gv)
        return _fragment(
            request,
            "group",
            context,
            status=422,
            extra=_status(f"Not added: {_first_error(error.errors)}", problem=True),
        )
    if not request.htmx:
        messages.success(request, f"Added {trait.name}.")
        return _back(request, sheet, f"trait-{trait.pk}")
    gv = display.groups_for(sheet, [group])[group]
    context = _context(sheet, membership, True, g=gv, added=True)
    extra = _status(f"Added {v.singular(spec.label)} “{trait.name}”.")
    extra += _scores_oob(request, sheet, membership, True, group)
    return _fragment(request, "group", context, extra=extra)


def _trait_or_404(sheet: Sheet, trait_id: int) -> Trait:
    trait = Trait.objects.filter(pk=trait_id, sheet=sheet).first()
    if trait is None:
        raise Http404("No such trait")
    return trait


def _row_context(sheet, membership, can_edit, trait, **extra) -> dict:
    gv, row = display.single_row(sheet, trait)
    errors = extra.get("errors") or {}
    row.ref_error = errors.get("parent") or errors.get("link") or ""
    row.flag_error = next((m for k, m in errors.items() if k.startswith("flag_")), "")
    return _context(sheet, membership, can_edit, g=gv, t=row, **extra)


def _retarget(response: HttpResponse, selector: str) -> HttpResponse:
    response["HX-Retarget"] = selector
    response["HX-Reswap"] = "outerHTML"
    return response


def _field_target(trait_pk: int, field: str | None) -> str:
    part = _field_partial(field)
    if part == "trait_row":
        return f"#trait-{trait_pk}"
    suffix = {"f_ref": field, "f_flags": "flags"}.get(part, part[2:])
    return f"#t{trait_pk}-f-{suffix}"


def _gone(request: HttpRequest, sheet: Sheet, trait_id: int) -> HttpResponse:
    """The trait was removed meanwhile: say so, and take its row off the page."""
    if not request.htmx:
        messages.error(request, "That trait was removed by someone else.")
        return _back(request, sheet)
    response = HttpResponse(
        _status("That trait was removed by someone else.", problem=True), status=200
    )
    response["HX-Retarget"] = f"#trait-{trait_id}"
    response["HX-Reswap"] = "delete"
    return response


def _changes_from_post(post, sheet: Sheet, trait: Trait) -> tuple[str | None, dict]:
    """(field, changes): one field for an htmx field save, every posted field otherwise."""
    spec = v.template_for(sheet.campaign.system).group(trait.group)
    flags = v.flags_for(sheet.campaign.system, spec)
    field = post.get("field")
    if field:
        return field, {field: post.get(field, "")}
    changes = {name: post.get(name) for name in FIELD_PARTIALS if name in post}
    for flag in flags:
        if f"flag_{flag}" in post or "flags_present" in post:
            changes[f"flag_{flag}"] = post.get(f"flag_{flag}", "")
    return None, changes


@login_required_htmx
@require_http_methods(["GET", "POST"])
def trait(request: HttpRequest, campaign_id: int, sheet_id: int, trait_id: int) -> HttpResponse:
    if request.method == "GET":
        sheet, membership, can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
        current = _trait_or_404(sheet, trait_id)
        return _fragment(request, "trait_row", _row_context(sheet, membership, can_edit, current))
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    loaded = Trait.objects.filter(pk=trait_id, sheet=sheet).first()
    if loaded is None:
        return _gone(request, sheet, trait_id)
    field, changes = _changes_from_post(request.POST, sheet, loaded)
    whole_row = field is None or request.POST.get("reply") == "row"
    try:
        saved = services.save_trait(
            sheet,
            trait_id,
            changes,
            request.POST.get("version"),
            editor=_editor(request, membership),
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, loaded, refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"Not saved: {_first_error(error.errors)}")
            return _back(request, sheet, f"trait-{trait_id}")
        context = _row_context(sheet, membership, True, loaded, errors=error.errors, values=changes)
        partial = "trait_row" if whole_row or "version" in error.errors else _field_partial(field)
        response = _fragment(
            request,
            partial,
            context,
            status=422,
            extra=_status(f"Not saved: {_first_error(error.errors)}", problem=True),
        )
        target = f"#trait-{trait_id}" if partial == "trait_row" else _field_target(trait_id, field)
        return _retarget(response, target)
    except services.Conflict as conflict:
        return _conflict(request, sheet, membership, conflict.current, changes, "save")
    if not request.htmx:
        messages.success(request, f"Saved {saved.name}.")
        return _back(request, sheet, f"trait-{saved.pk}")
    context = _row_context(sheet, membership, True, saved)
    label = _field_label(field) if field else "changes"
    extra = _status(f"Saved {label} of “{saved.name}”.")
    extra += _scores_oob(request, sheet, membership, True, saved.group)
    if whole_row:
        return _retarget(
            _fragment(request, "trait_row", context, extra=extra), f"#trait-{saved.pk}"
        )
    extra += _version_input(saved.pk, saved.version)
    return _retarget(
        _fragment(request, _field_partial(field), context, extra=extra),
        _field_target(saved.pk, field),
    )


def _trait_refused(request, sheet, membership, trait: Trait, refusal) -> HttpResponse:
    html = render_to_string(
        f"{TEMPLATE}#trait_row",
        _with_csrf(request, _row_context(sheet, membership, True, trait)),
        request,
    )
    return _refused_at_the_table(
        request, sheet, refusal, f"trait-{trait.pk}", html, f"#trait-{trait.pk}"
    )


def _field_partial(field: str | None) -> str:
    if field and field.startswith("flag_"):
        return "f_flags"
    return FIELD_PARTIALS.get(field or "", "trait_row")


def _field_label(field: str) -> str:
    if field.startswith("flag_"):
        return v.FLAG_LABELS.get(field[5:], field[5:]) + " flag"
    return {"parent": "place", "link": "link"}.get(field, field)


def _display_value(gv, name: str, raw: object) -> str:
    if name in ("parent", "link"):
        return dict(gv.ref_choices).get(str(raw), str(raw))
    if name.startswith("flag_"):
        try:
            return "on" if v.clean_flag(raw) else "off"
        except v.FieldError:
            return str(raw)
    text = "" if raw is None else str(raw)
    return text if text else "(empty)"


def _current_value(row, name: str) -> str:
    if name == "die":
        return row.die_label or "no die"
    if name in ("parent", "link"):
        return row.ref_name
    if name.startswith("flag_"):
        return "on" if any(f == name[5:] and on for f, _, on in row.flags) else "off"
    value = getattr(row, name, "")
    text = "" if value is None else str(value)
    return text if text else "(empty)"


def _conflict(
    request, sheet, membership, current: Trait, changes: dict, action: str
) -> HttpResponse:
    """409: the row as it is now, their values beside yours, and a button to re-apply yours."""
    if not request.htmx:
        messages.error(
            request,
            f"Someone else changed “{current.name}” since you loaded it; your change was not saved.",
        )
        return _back(request, sheet, f"trait-{current.pk}")
    gv, row = display.single_row(sheet, current)
    fields = [
        (_field_label(name), _current_value(row, name), _display_value(gv, name, raw))
        for name, raw in changes.items()
    ]
    context = _context(
        sheet,
        membership,
        True,
        g=gv,
        t=row,
        conflict={"action": action, "fields": fields, "mine": list(changes.items())},
    )
    response = _fragment(
        request,
        "trait_row",
        context,
        status=409,
        extra=_status(
            f"Not saved: someone else changed “{current.name}” since you loaded it.", problem=True
        ),
    )
    response["HX-Retarget"] = f"#trait-{current.pk}"
    response["HX-Reswap"] = "outerHTML"
    return response


@login_required_htmx
@require_POST
def trait_step(
    request: HttpRequest, campaign_id: int, sheet_id: int, trait_id: int
) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    direction = request.POST.get("direction", "")
    try:
        stepped = services.step_trait(
            sheet,
            trait_id,
            direction,
            request.POST.get("version"),
            editor=_editor(request, membership),
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, _trait_or_404(sheet, trait_id), refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, _first_error(error.errors))
            return _back(request, sheet, f"trait-{trait_id}")
        current = Trait.objects.filter(pk=trait_id, sheet=sheet).first()
        if current is None:
            return _gone(request, sheet, trait_id)
        context = _row_context(sheet, membership, True, current, errors=error.errors)
        partial = "f_die" if "die" in error.errors else "trait_row"
        response = _fragment(
            request,
            partial,
            context,
            status=422,
            extra=_status(_first_error(error.errors), problem=True),
        )
        return _retarget(
            response, f"#t{trait_id}-f-die" if partial == "f_die" else f"#trait-{trait_id}"
        )
    except services.Conflict as conflict:
        changes = {}
        seen = request.POST.get("die", "")
        try:
            spec = v.template_for(sheet.campaign.system).group(conflict.current.group)
            die, plus = v.clean_die(spec, seen)
            wanted = v.step(spec, die, plus, direction)
            if not wanted.removed:
                changes["die"] = v.die_label(wanted.die, wanted.plus_die)
        except v.FieldError:
            pass
        return _conflict(request, sheet, membership, conflict.current, changes, "step")
    trait = stepped.trait
    if stepped.removed:
        message = f"Stepped down from d4: “{trait.name}” was removed."
        if not request.htmx:
            messages.success(request, message)
            return _back(request, sheet, f"group-{sheet.pk}-{trait.group}")
        response = HttpResponse(_status(message))
        response["HX-Retarget"] = f"#trait-{trait.pk}"
        response["HX-Reswap"] = "delete"
        response["HX-Trigger"] = f'{{"sheet:focus": "#group-{sheet.pk}-{trait.group}-h"}}'
        return response
    if not request.htmx:
        messages.success(request, f"{trait.name} is now {trait.die_label or 'without a die'}.")
        return _back(request, sheet, f"trait-{trait.pk}")
    context = _row_context(sheet, membership, True, trait)
    extra = _status(f"“{trait.name}” is now {trait.die_label or 'without a die'}.")
    extra += _version_input(trait.pk, trait.version)
    return _retarget(_fragment(request, "f_die", context, extra=extra), f"#t{trait.pk}-f-die")


@login_required_htmx
@require_POST
def trait_move(
    request: HttpRequest, campaign_id: int, sheet_id: int, trait_id: int
) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    direction = request.POST.get("direction", "")
    try:
        moved = services.move_trait(sheet, trait_id, direction, editor=_editor(request, membership))
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, _trait_or_404(sheet, trait_id), refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, _first_error(error.errors))
            return _back(request, sheet)
        return HttpResponse(_status(_first_error(error.errors), problem=True), status=422)
    if not request.htmx:
        return _back(request, sheet, f"trait-{moved.pk}")
    gv = display.groups_for(sheet, [moved.group])[moved.group]
    context = _context(sheet, membership, True, g=gv)
    response = _fragment(
        request, "group", context, extra=_status(f"Moved “{moved.name}” {direction}.")
    )
    response["HX-Retarget"] = f"#{gv.dom_id}"
    response["HX-Reswap"] = "outerHTML"
    return response


@login_required_htmx
@require_POST
def trait_delete(
    request: HttpRequest, campaign_id: int, sheet_id: int, trait_id: int
) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    try:
        removed = services.delete_trait(
            sheet, trait_id, request.POST.get("version"), editor=_editor(request, membership)
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, _trait_or_404(sheet, trait_id), refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, _first_error(error.errors))
            return _back(request, sheet, f"trait-{trait_id}")
        current = _trait_or_404(sheet, trait_id)
        context = _row_context(
            sheet, membership, True, current, errors={"row": _first_error(error.errors)}
        )
        response = _fragment(
            request,
            "trait_row",
            context,
            status=422,
            extra=_status(_first_error(error.errors), problem=True),
        )
        response["HX-Retarget"] = f"#trait-{trait_id}"
        response["HX-Reswap"] = "outerHTML"
        return response
    except services.Conflict as conflict:
        return _conflict(request, sheet, membership, conflict.current, {}, "delete")
    message = f"Removed “{removed.name}”."
    if not request.htmx:
        messages.success(request, message)
        return _back(request, sheet, f"group-{sheet.pk}-{removed.group}")
    response = HttpResponse(_status(message))
    response["HX-Retarget"] = f"#trait-{removed.pk}"
    response["HX-Reswap"] = "delete"
    response["HX-Trigger"] = f'{{"sheet:focus": "#group-{sheet.pk}-{removed.group}-h"}}'
    return response


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
        return _fragment(
            request,
            "counter",
            _context(sheet, membership, can_edit, c=cv, **extra),
            status=status,
            extra=_status(notice, problem=status >= 400) if notice else "",
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
            editor=_editor(request, membership),
        )
    except services.Gone:
        raise Http404("No such counter") from None
    except services.TableOwned as refusal:
        current = Counter.objects.filter(sheet=sheet, key=key).first()
        cv = display.counter_view(sheet, spec, current)
        html = render_to_string(
            f"{TEMPLATE}#counter",
            _with_csrf(request, _context(sheet, membership, can_edit, c=cv)),
            request,
        )
        return _refused_at_the_table(request, sheet, refusal, f"counter-{sheet.pk}-{key}", html)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"{spec.label}: {_first_error(error.errors)}")
            return _back(request, sheet, f"counter-{sheet.pk}-{key}")
        current = Counter.objects.filter(sheet=sheet, key=key).first()
        errors = {"value": error.errors.get("value") or _first_error(error.errors)}
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
            return _back(request, sheet, f"counter-{sheet.pk}-{key}")
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
        return _back(request, sheet, f"counter-{sheet.pk}-{key}")
    return respond(counter, notice=notice)
