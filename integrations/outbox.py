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

Most campaigns have no hook, and every roll asks: that a campaign has none is kept in
the cache (`campaign_hooks`); a campaign with hooks reads them from the database, so a
message never names a hook that is gone. Adding or removing a hook moves the campaign's
generation on (before and after its commit), and "none" read under an older generation
is never used, so a hook made between two events gets the second.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction

from table.log import visibility as gate
from table.models import TableEvent

from .models import Audience, Message, Webhook
from .wakeup import wake_workers


def holds_gm_detail(event: TableEvent) -> bool:
    """The GM's card says more than the players' one: hidden, or scored in secret."""
    return gate.is_hidden(event) or bool(event.params.get("secret_difficulty"))


HOOKS_TTL = 10 * 60
log = logging.getLogger(__name__)


def _keys(campaign_id: int) -> tuple[str, str]:
    return f"integrations.hooks.gen.{campaign_id}", f"integrations.hooks.none.{campaign_id}"


def stored_hooks(campaign_id: int) -> list[tuple[int, str]]:
    return list(Webhook.objects.filter(campaign_id=campaign_id).values_list("pk", "audience"))


def campaign_hooks(campaign_id: int) -> list[tuple[int, str]]:
    """The campaign's hooks as (pk, audience); none without a query while the cache
    says so under the campaign's current generation."""
    generation_key, none_key = _keys(campaign_id)
    try:
        found = cache.get_many([generation_key, none_key])
    except Exception:  # noqa: BLE001 - the cache down costs a query, never a roll
        log.exception("discord hooks: cache unavailable")
        found = None
    if found is None:
        return stored_hooks(campaign_id)
    generation = found.get(generation_key, 0)
    if none_key in found and found[none_key] == generation:
        return []
    hooks = stored_hooks(campaign_id)
    if not hooks:
        try:
            cache.set(none_key, generation, HOOKS_TTL)
        except Exception:  # noqa: BLE001 - the next roll asks the database again
            log.exception("discord hooks: cache unavailable")
    return hooks


def forget_hooks(campaign_id: int) -> None:
    """A hook was added or removed: lists read before now are stale, now and at commit
    (a list read meanwhile, before the commit, is stale too)."""
    generation_key, _ = _keys(campaign_id)

    def move_on() -> None:
        try:
            if cache.add(generation_key, 1, None):
                return
            try:
                cache.incr(generation_key)
            except ValueError:  # evicted in between
                cache.add(generation_key, 1, None)
        except Exception:  # noqa: BLE001 - "none" then lapses by HOOKS_TTL at the latest
            log.exception("discord hooks: cache unavailable")

    move_on()
    transaction.on_commit(move_on)


def queue_event(sender, event: TableEvent, **kwargs) -> None:
    """Queue the event for each of its campaign's hooks that should post it."""
    hooks = campaign_hooks(event.campaign_id)
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
