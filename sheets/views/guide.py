"""Step by step: a sheet filled one group of traits per page (Back / Next), ending on the
ready-to-roll check. Made for a phone, where the whole sheet is a long scroll; every step
edits in place like the sheet page, and each page works by keyboard and without scripts.
The groups that change at the table (stress, plot points, ...) are not steps: nobody
fills them in to start."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from .. import display
from .. import validation as v
from ..permissions import get_sheet_for_editor, login_required_htmx
from ..ready import readiness
from .common import sheet_context, sheet_urls, with_csrf


def guide_steps(system: str) -> list:
    return [g for g in v.template_for(system).groups if not g.table_owned]


def guide_url(sheet, step: int) -> str:
    return reverse("sheet_guide", args=[sheet.campaign_id, sheet.pk, step])


@login_required_htmx
@require_GET
def sheet_guide(request: HttpRequest, campaign_id: int, sheet_id: int, step: int) -> HttpResponse:
    sheet, membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    steps = guide_steps(sheet.campaign.system)
    last = len(steps) + 1  # the ready check
    if not 1 <= step <= last:
        raise Http404("No such step")
    group = steps[step - 1] if step <= len(steps) else None
    extra: dict = {"ready": readiness(sheet)}
    if group is not None:
        extra["g"] = display.groups_for(sheet, [group.key])[group.key]
    following = steps[step].label if step < len(steps) else "Check the sheet"
    context = sheet_context(
        sheet,
        membership,
        True,
        step=step,
        total=last,
        group=group,
        back=guide_url(sheet, step - 1) if step > 1 else sheet_urls(sheet)["page"],
        back_label="Back" if step > 1 else "Back to the whole sheet",
        next=guide_url(sheet, step + 1) if step < last else "",
        next_label=f"Next: {following}",
        **extra,
    )
    return render(request, "sheets/guide.html", with_csrf(request, context))
