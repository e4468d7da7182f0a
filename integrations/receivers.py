"""What this app hears from the table: each event appended to a log queues its Discord
messages, in the event's own transaction (the table never names this app); a hook
added or removed makes the campaign's cached list of hooks stale."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from table.models import TableEvent
from table.signals import event_appended

from .models import Webhook
from .outbox import forget_hooks, queue_event


def hooks_changed(sender, instance: Webhook, **kwargs) -> None:
    """A hook saved or deleted: the campaign's list of hooks is read afresh."""
    forget_hooks(instance.campaign_id)


def connect() -> None:
    event_appended.connect(queue_event, sender=TableEvent, dispatch_uid="integrations-outbox")
    post_save.connect(hooks_changed, sender=Webhook, dispatch_uid="integrations-hooks-saved")
    post_delete.connect(hooks_changed, sender=Webhook, dispatch_uid="integrations-hooks-gone")
