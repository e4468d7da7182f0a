"""Queueing messages for a campaign's webhooks, in the transaction that logs the event.

`queue_event` is connected to table.signals.event_appended (integrations.apps): it runs
inside the table's transaction, so it only reads the campaign's hooks and inserts rows,
and it never touches the network. Who gets what:

| event | public hook | GM-only hook |
|---|---|---|
| public | the card as players see it | nothing (unless it holds GM-only detail*) |
| secret or blind, not revealed | the sealed card | the full card |
| a reveal (public) | the opened card | nothing |
| a void | as players see it: the card, or sealed when the voided roll was hidden | the full card, when it is sealed for players |
| a whisper to the GM | nothing, not even sealed | the full line |

(*) a player's roll against a difficulty set behind the screen is public, but scored on
the GM's card only: the GM-only hook gets that card.
"""

from __future__ import annotations

from django.db import transaction

from table import visibility as gate
from table.models import TableEvent

from .models import Audience, Message, Webhook
from .wakeup import wake_workers


def holds_gm_detail(event: TableEvent) -> bool:
    """The GM's card says more than the players' one: hidden, or scored in secret."""
    return gate.is_hidden(event) or bool(event.params.get("secret_difficulty"))


def queue_event(sender, event: TableEvent, **kwargs) -> None:
    """Queue the event for each of its campaign's hooks that should post it."""
    hooks = list(
        Webhook.objects.filter(campaign_id=event.campaign_id).values_list("pk", "audience")
    )
    if not hooks:
        return
    hidden = gate.is_hidden(event)
    rows = []
    for pk, audience in hooks:
        if audience == Audience.PUBLIC:
            if not gate.reaches(event, gate.PLAYERS):
                continue  # a whisper: the GMs' and its author's only
            rows.append(Message(webhook_id=pk, event=event, audience=gate.PLAYERS, sealed=hidden))
        elif holds_gm_detail(event):
            rows.append(Message(webhook_id=pk, event=event, audience=gate.GM))
    if rows:
        Message.objects.bulk_create(rows)
        transaction.on_commit(wake_workers)


def queue_test(hook: Webhook, text: str) -> Message:
    """A plain test message, queued behind whatever the hook is still to post."""
    with transaction.atomic():
        message = Message.objects.create(
            webhook=hook, kind=Message.Kind.TEST, audience="", text=text
        )
        transaction.on_commit(wake_workers)
    return message
