"""What every table view shares: the action budget, refusals in words, and reading
whole numbers from a form.

Views only read the form, check who is asking, and call `table.writing.actions`: no view ever
draws a face or changes state itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from campaigns.models import Campaign
from rules.kit.ui import small_int, whole_number
from table.live import limits
from table.writing.actions import ActionError

__all__ = ["error_text", "sheet_id_of", "small_int", "spend", "whole_number"]


def spend(campaign: Campaign, user) -> None:
    """One action from the user's budget at this table, which their sockets spend from
    too (table.live.limits); over it, the socket's "Slow down" refusal, raised as an
    ActionError so each view shows it where it shows any refusal: nothing is done."""
    refusal = limits.spend(campaign.pk, user.pk)
    if refusal:
        raise ActionError(refusal)


def error_text(error: Exception) -> str:
    message = str(error) or "That is not allowed."
    return message[:1].upper() + message[1:]


def sheet_id_of(data: Mapping) -> int | None:
    """The form's "sheet": a character's id, or None."""
    sheet_id = whole_number(data.get("sheet"), digits=18)
    return sheet_id if sheet_id is not None and sheet_id >= 0 else None
