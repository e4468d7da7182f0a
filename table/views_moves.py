"""The common moves of a game from a roll card: one tap, or two with a pick (a die of
the roll), never a form.

A game declares them in its UI (`card_moves`: action name -> what the button's values
ask for) and its card partial (`card_moves.jinja`) lays them out; the card shows them
to those who may take them, and this view is thin: the member names the roll, the
character and the choice, `table.actions.perform` fills the values from the table and
the action's transition decides who may take it. A move on a roll the member may not
see is refused as one on a roll that does not exist. The answer is the page's notice
line (`#table-notice`, polite, never moving focus); the move's card comes by the socket.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaigns.permissions import get_campaign_for_player
from rules.kit.errors import RulesError

from . import actions, visibility
from .rendering import notice_html
from .view_support import error_text, sheet_id_of, spend


@login_required
@require_POST
def card_move(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """One move from a roll card, as the game declares it: one table.actions.perform call."""
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
