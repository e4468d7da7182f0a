"""What every table view shares: the action budget, refusals in words, and reading
whole numbers from a form.

Views only read the form, check who is asking, and call `table.actions`: no view ever
draws a face or changes state itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from campaigns.models import Campaign

from . import limits
from .actions import ActionError

WHOLE_NUMBER = re.compile(r"-?[0-9]{1,%d}")


def spend(campaign: Campaign, user) -> None:
    """One action from the user's budget at this table, which their sockets spend from
    too (table.limits); over it, the socket's "Slow down" refusal, raised as an
    ActionError so each view shows it where it shows any refusal: nothing is done."""
    refusal = limits.spend(campaign.pk, user.pk)
    if refusal:
        raise ActionError(refusal)


def error_text(error: Exception) -> str:
    message = str(error) or "That is not allowed."
    return message[:1].upper() + message[1:]


def whole_number(value: object, digits: int = 9) -> int | None:
    """An ASCII whole number of at most `digits` digits, or None ("²".isdigit() is True)."""
    raw = str(value if value is not None else "").strip()
    return int(raw) if re.fullmatch(WHOLE_NUMBER.pattern % digits, raw) else None


def small_int(value: object) -> int | None:
    return whole_number(value, digits=5)


def sheet_id_of(data: Mapping) -> int | None:
    """The form's "sheet": a character's id, or None."""
    sheet_id = whole_number(data.get("sheet"), digits=18)
    return sheet_id if sheet_id is not None and sheet_id >= 0 else None
