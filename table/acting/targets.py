"""The earlier event a GM's reveal or void names, and what may be revealed.

A player may never reveal or void, so table.writing.actions refuses them by role before an
event is looked up: the refusal is the same whatever they name (an event they see, a
sealed one, someone's whisper, or a seq that does not exist). A whisper to the GM is
never revealed, not even by a GM: it stays between its author and the GMs.
"""

from __future__ import annotations

from campaigns.models import Campaign
from rules.kit.table import MAX_ID
from table.acting.context import ActionError
from table.log import visibility as gate
from table.models import TableEvent, Visibility

NO_SUCH_EVENT = "No such event in this campaign's log."
WHISPER_STAYS = "A whisper stays between its author and the GM: it is never revealed."


def named_event(campaign: Campaign, event_id: object = None, seq: object = None) -> TableEvent:
    """The event named by its primary key (a card's data-event-id) or its seq, locked."""
    named, field = (event_id, "pk") if event_id is not None else (seq, "seq")
    if isinstance(named, bool) or not isinstance(named, int):
        raise ActionError("Say which event (its number).")
    if not 0 < named <= MAX_ID:
        raise ActionError(NO_SUCH_EVENT)
    rows = TableEvent.objects.select_for_update().filter(campaign=campaign, **{field: named})
    event = rows.first()
    if event is None:
        raise ActionError(NO_SUCH_EVENT)
    return event


def refuse_reveal(target: TableEvent) -> None:
    """Raise ActionError unless the GM may reveal `target` now."""
    if gate.is_whisper(target):
        raise ActionError(WHISPER_STAYS)
    if target.visibility == Visibility.PUBLIC:
        raise ActionError("Everyone can already see that event.")
    if target.revealed:
        raise ActionError("That event has already been revealed.")
    if target.voided:
        raise ActionError("That event was voided; there is nothing to reveal.")
