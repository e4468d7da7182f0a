"""The common moves of a game from a roll card: one tap, or two with a pick (a die of
the roll), never a form.

A game declares them in its UI (`card_moves`: action name -> what the button's values
ask for) and its card partial (`card_moves.jinja`) lays them out; the card shows them
to those who may take them, and this view is thin: the member names the roll, the
character and the choice, `table.writing.actions.perform` fills the values from the table and
the action's transition decides who may take it. A move on a roll the member may not
see is refused as one on a roll that does not exist. The answer is the page's notice
line (`#table-notice`, polite, never moving focus); the move's card comes by the socket.

A move taken with one of the member's own characters against someone else's roll (its
UI's `card_move_picks`) has its second tap loaded when it is opened (`card_move_pick`):
the card is the same for every player, the choices are the member's own characters'.
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaigns.permissions import get_campaign_for_player
from rules.kit.errors import RulesError
from sheets.models import Sheet
from table.log import visibility
from table.pages.support import error_text, sheet_id_of, spend, whole_number
from table.reading.rendering import notice_html
from table.writing import actions


@login_required
@require_POST
def card_move(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """One move from a roll card, as the game declares it: one table.writing.actions.perform call."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    game = campaign.game
    read = game.ui.card_moves.get(action_name)
    if read is None or action_name not in game.actions:
        raise Http404("No such move")
    req = read(request.POST)
    try:
        spend(campaign, request.user)
        event = actions.perform(
            campaign, request.user, action_name, req, sheet_id=sheet_id_of(request.POST)
        )
        audience = visibility.audience_of(membership)
        notice = notice_html("ok", visibility.acknowledgement(event, audience, "Done."))
    except (actions.ActionError, RulesError) as exc:
        notice = notice_html("error", error_text(exc))
    if not request.htmx:
        return redirect("table", campaign.pk)
    return HttpResponse(notice)


@login_required
@require_GET
def card_move_pick(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """The second tap of a move against the roll `seq`: each character the member acts
    for (a player's own, the GM's GM characters), but the roll's, with the game's choices.
    A roll the member may not see is answered as one that does not exist."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    game = campaign.game
    pick = game.ui.card_move_picks.get(action_name)
    if pick is None or action_name not in game.ui.card_moves:
        raise Http404("No such move")
    audience = visibility.audience_of(membership)
    seq = whole_number(request.GET.get("seq"), digits=9)
    event = visibility.referenced_event(campaign.pk, seq, audience, request.user.pk, voided=False)
    if event is None:
        raise Http404("No such roll")
    sheets = Sheet.objects.filter(campaign=campaign).exclude(pk=event.character_id)
    if audience == visibility.GM:
        sheets = sheets.exclude(kind=Sheet.Kind.PC)
    else:
        sheets = sheets.filter(kind=Sheet.Kind.PC, owner=request.user)
    characters = []
    for sheet in sheets.order_by("name").prefetch_related("traits"):
        traits = tuple(
            (t.group, t.name, t.rating) for t in sorted(sheet.traits.all(), key=_position)
        )
        choices = [
            (words, json.dumps({"sheet": str(sheet.pk), "seq": str(event.seq), **values}))
            for words, values in pick(
                event.action, event.request or {}, event.outcome or {}, traits
            )
        ]
        if choices:
            characters.append({"sheet": sheet, "choices": choices})
    context = {
        "characters": characters,
        "campaign": campaign,
        "action": action_name,
        "seq": event.seq,
    }
    return render(request, "table/_move_pick.html", context)


def _position(trait) -> tuple[int, int]:
    return (trait.position, trait.pk)
