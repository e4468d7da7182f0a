"""A sheet's groups and traits, edited in place: a group, adding a trait, saving a field or
a whole row, stepping a die, moving and deleting a trait."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import display, services
from .. import validation as v
from ..models import Sheet, Trait
from ..permissions import (
    get_sheet_for_editor,
    get_sheet_for_user,
    login_required_htmx,
)
from .common import (
    TEMPLATE,
    back_to_sheet,
    editor_for,
    first_error,
    partial_response,
    refused_at_the_table,
    retarget,
    sheet_context,
    status_line,
    with_csrf,
)

FIELD_PARTIALS = {
    "name": "f_name",
    "die": "f_die",
    "rating": "f_rating",
    "notes": "f_notes",
    "parent": "f_ref",
    "link": "f_ref",
}


def _version_input(trait_pk: int, version: int) -> str:
    return (
        f'<input type="hidden" name="version" id="t{trait_pk}-version" value="{version}" '
        'hx-swap-oob="true">'
    )


def _scores_oob(request: HttpRequest, sheet: Sheet, membership, can_edit: bool, group: str) -> str:
    if group not in ("attributes", "skills"):
        return ""
    if not v.has_scores(sheet.campaign.system, sheet.kind, sheet.npc_kind):
        return ""
    context = sheet_context(sheet, membership, can_edit, scores=display.scores_for(sheet), oob=True)
    return render_to_string(f"{TEMPLATE}#scores", with_csrf(request, context), request)


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
    return partial_response(request, "group", sheet_context(sheet, membership, can_edit, g=gv))


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
        trait = services.add_trait(
            sheet, group, data, flags, editor=editor_for(request, membership)
        )
    except services.TableOwned as refusal:
        gv = display.groups_for(sheet, [group])[group]
        html = render_to_string(
            f"{TEMPLATE}#group",
            with_csrf(request, sheet_context(sheet, membership, True, g=gv)),
            request,
        )
        return refused_at_the_table(
            request, sheet, refusal, f"group-{sheet.pk}-{group}", html, f"#{gv.dom_id}"
        )
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"Not added: {first_error(error.errors)}")
            return back_to_sheet(request, sheet, f"group-{sheet.pk}-{group}")
        gv = display.groups_for(sheet, [group], add_values=data, add_errors=error.errors)[group]
        context = sheet_context(sheet, membership, True, g=gv)
        return partial_response(
            request,
            "group",
            context,
            status=422,
            extra=status_line(f"Not added: {first_error(error.errors)}", problem=True),
        )
    if not request.htmx:
        messages.success(request, f"Added {trait.name}.")
        return back_to_sheet(request, sheet, f"trait-{trait.pk}")
    gv = display.groups_for(sheet, [group])[group]
    context = sheet_context(sheet, membership, True, g=gv, added=True)
    extra = status_line(f"Added {v.singular(spec.label)} “{trait.name}”.")
    extra += _scores_oob(request, sheet, membership, True, group)
    return partial_response(request, "group", context, extra=extra)


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
    return sheet_context(sheet, membership, can_edit, g=gv, t=row, **extra)


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
        return back_to_sheet(request, sheet)
    response = HttpResponse(
        status_line("That trait was removed by someone else.", problem=True), status=200
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
        return partial_response(
            request, "trait_row", _row_context(sheet, membership, can_edit, current)
        )
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
            editor=editor_for(request, membership),
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, loaded, refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, f"Not saved: {first_error(error.errors)}")
            return back_to_sheet(request, sheet, f"trait-{trait_id}")
        context = _row_context(sheet, membership, True, loaded, errors=error.errors, values=changes)
        partial = "trait_row" if whole_row or "version" in error.errors else _field_partial(field)
        response = partial_response(
            request,
            partial,
            context,
            status=422,
            extra=status_line(f"Not saved: {first_error(error.errors)}", problem=True),
        )
        target = f"#trait-{trait_id}" if partial == "trait_row" else _field_target(trait_id, field)
        return retarget(response, target)
    except services.Conflict as conflict:
        return _conflict(request, sheet, membership, conflict.current, changes, "save")
    if not request.htmx:
        messages.success(request, f"Saved {saved.name}.")
        return back_to_sheet(request, sheet, f"trait-{saved.pk}")
    context = _row_context(sheet, membership, True, saved)
    label = _field_label(field) if field else "changes"
    extra = status_line(f"Saved {label} of “{saved.name}”.")
    extra += _scores_oob(request, sheet, membership, True, saved.group)
    if whole_row:
        return retarget(
            partial_response(request, "trait_row", context, extra=extra), f"#trait-{saved.pk}"
        )
    extra += _version_input(saved.pk, saved.version)
    return retarget(
        partial_response(request, _field_partial(field), context, extra=extra),
        _field_target(saved.pk, field),
    )


def _trait_refused(request, sheet, membership, trait: Trait, refusal) -> HttpResponse:
    html = render_to_string(
        f"{TEMPLATE}#trait_row",
        with_csrf(request, _row_context(sheet, membership, True, trait)),
        request,
    )
    return refused_at_the_table(
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
        return back_to_sheet(request, sheet, f"trait-{current.pk}")
    gv, row = display.single_row(sheet, current)
    fields = [
        (_field_label(name), _current_value(row, name), _display_value(gv, name, raw))
        for name, raw in changes.items()
    ]
    context = sheet_context(
        sheet,
        membership,
        True,
        g=gv,
        t=row,
        conflict={"action": action, "fields": fields, "mine": list(changes.items())},
    )
    response = partial_response(
        request,
        "trait_row",
        context,
        status=409,
        extra=status_line(
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
            editor=editor_for(request, membership),
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, _trait_or_404(sheet, trait_id), refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, first_error(error.errors))
            return back_to_sheet(request, sheet, f"trait-{trait_id}")
        current = Trait.objects.filter(pk=trait_id, sheet=sheet).first()
        if current is None:
            return _gone(request, sheet, trait_id)
        context = _row_context(sheet, membership, True, current, errors=error.errors)
        partial = "f_die" if "die" in error.errors else "trait_row"
        response = partial_response(
            request,
            partial,
            context,
            status=422,
            extra=status_line(first_error(error.errors), problem=True),
        )
        return retarget(
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
            return back_to_sheet(request, sheet, f"group-{sheet.pk}-{trait.group}")
        response = HttpResponse(status_line(message))
        response["HX-Retarget"] = f"#trait-{trait.pk}"
        response["HX-Reswap"] = "delete"
        response["HX-Trigger"] = f'{{"sheet:focus": "#group-{sheet.pk}-{trait.group}-h"}}'
        return response
    if not request.htmx:
        messages.success(request, f"{trait.name} is now {trait.die_label or 'without a die'}.")
        return back_to_sheet(request, sheet, f"trait-{trait.pk}")
    context = _row_context(sheet, membership, True, trait)
    extra = status_line(f"“{trait.name}” is now {trait.die_label or 'without a die'}.")
    extra += _version_input(trait.pk, trait.version)
    return retarget(partial_response(request, "f_die", context, extra=extra), f"#t{trait.pk}-f-die")


@login_required_htmx
@require_POST
def trait_move(
    request: HttpRequest, campaign_id: int, sheet_id: int, trait_id: int
) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    direction = request.POST.get("direction", "")
    try:
        moved = services.move_trait(
            sheet, trait_id, direction, editor=editor_for(request, membership)
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, _trait_or_404(sheet, trait_id), refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, first_error(error.errors))
            return back_to_sheet(request, sheet)
        return HttpResponse(status_line(first_error(error.errors), problem=True), status=422)
    if not request.htmx:
        return back_to_sheet(request, sheet, f"trait-{moved.pk}")
    gv = display.groups_for(sheet, [moved.group])[moved.group]
    context = sheet_context(sheet, membership, True, g=gv)
    response = partial_response(
        request, "group", context, extra=status_line(f"Moved “{moved.name}” {direction}.")
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
            sheet, trait_id, request.POST.get("version"), editor=editor_for(request, membership)
        )
    except services.Gone:
        return _gone(request, sheet, trait_id)
    except services.TableOwned as refusal:
        return _trait_refused(request, sheet, membership, _trait_or_404(sheet, trait_id), refusal)
    except services.SheetError as error:
        if not request.htmx:
            messages.error(request, first_error(error.errors))
            return back_to_sheet(request, sheet, f"trait-{trait_id}")
        current = _trait_or_404(sheet, trait_id)
        context = _row_context(
            sheet, membership, True, current, errors={"row": first_error(error.errors)}
        )
        response = partial_response(
            request,
            "trait_row",
            context,
            status=422,
            extra=status_line(first_error(error.errors), problem=True),
        )
        response["HX-Retarget"] = f"#trait-{trait_id}"
        response["HX-Reswap"] = "outerHTML"
        return response
    except services.Conflict as conflict:
        return _conflict(request, sheet, membership, conflict.current, {}, "delete")
    message = f"Removed “{removed.name}”."
    if not request.htmx:
        messages.success(request, message)
        return back_to_sheet(request, sheet, f"group-{sheet.pk}-{removed.group}")
    response = HttpResponse(status_line(message))
    response["HX-Retarget"] = f"#trait-{removed.pk}"
    response["HX-Reswap"] = "delete"
    response["HX-Trigger"] = f'{{"sheet:focus": "#group-{sheet.pk}-{removed.group}-h"}}'
    return response
