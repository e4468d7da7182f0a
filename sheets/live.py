"""Telling every open copy of a sheet that something on it changed.

What a viewer may do differs by role (the owner and the GM get inputs, the
others read-only text), so the broadcast carries no sheet data at all: it
appends a tiny element to the sheet page's sync box that makes each browser
re-fetch the changed piece through its own permission-checked GET. The page's
script (sheets/static/sheets/sheet.js) never replaces a row its viewer is
editing; it marks it as changed instead.

Changes to a hidden GM character go to the GMs' sockets only. The sockets are the
table's, above this app: the fragments go out through campaigns.signals, which the
table delivers.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import escape

from campaigns.signals import send_html_on_commit

from . import validation as v

SCORE_GROUPS = ("attributes", "skills")


def audience(sheet) -> str:
    return "gm" if sheet.hidden else "all"


def sync_element(sheet, target_id: str, url: str) -> str:
    """One re-fetch order: GET `url` and put the answer in place of #target_id."""
    box = f"sheet-sync-{sheet.pk}"
    return (
        f'<div hx-swap-oob="beforeend:#{box}">'
        f'<div data-sync="{escape(target_id)}" hx-get="{escape(url)}" hx-trigger="load" '
        f'hx-target="#{escape(target_id)}" hx-swap="outerHTML" hx-sync="#{box}:queue all"></div>'
        "</div>"
    )


def _send(sheet, parts: list[tuple[str, str]], *, to: str | None = None) -> None:
    if not parts:
        return
    html = "".join(sync_element(sheet, target, url) for target, url in parts)
    send_html_on_commit(sheet.campaign_id, html, to or audience(sheet))


def _args(sheet) -> list[int]:
    return [sheet.campaign_id, sheet.pk]


def group_part(sheet, group_key: str) -> tuple[str, str]:
    return f"group-{sheet.pk}-{group_key}", reverse("sheet_group", args=[*_args(sheet), group_key])


def scores_part(sheet) -> tuple[str, str]:
    return f"scores-{sheet.pk}", reverse("sheet_scores", args=_args(sheet))


def _extra_parts(sheet, group_key: str, *, structural: bool) -> list[tuple[str, str]]:
    parts = []
    if structural:
        template = v.template_for(sheet.campaign.system)
        parts += [group_part(sheet, g.key) for g in v.dependents_of(template, group_key)]
    if group_key in SCORE_GROUPS and v.has_scores(
        sheet.campaign.system, sheet.kind, sheet.npc_kind
    ):
        parts.append(scores_part(sheet))
    return parts


def trait_changed(sheet, trait, *, renamed: bool = False) -> None:
    row = (f"trait-{trait.pk}", reverse("trait", args=[*_args(sheet), trait.pk]))
    _send(sheet, [row, *_extra_parts(sheet, trait.group, structural=renamed)])


def group_changed(sheet, group_key: str) -> None:
    _send(sheet, [group_part(sheet, group_key), *_extra_parts(sheet, group_key, structural=True)])


def counter_changed(sheet, counter) -> None:
    target = f"counter-{sheet.pk}-{counter.key}"
    _send(sheet, [(target, reverse("sheet_counter", args=[*_args(sheet), counter.key]))])


def sheet_changed(sheet, *, also_players: bool = False) -> None:
    parts = [(f"sheet-head-{sheet.pk}", reverse("sheet_head", args=_args(sheet)))]
    parts.append(scores_part(sheet))
    _send(sheet, parts, to="all" if also_players else None)


def sheet_removed(sheet) -> None:
    html = (
        f'<p id="sheet-removed-{sheet.pk}" hx-swap-oob="true" class="removed-notice" role="alert">'
        "This sheet was deleted. Its page will not change any more.</p>"
    )
    send_html_on_commit(sheet.campaign_id, html, audience(sheet))
