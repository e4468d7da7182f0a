"""What this app hears from the table: each event appended to a log queues its Discord
messages, in the event's own transaction (the table never names this app)."""

from __future__ import annotations

from table.models import TableEvent
from table.signals import event_appended

from .outbox import queue_event


def connect() -> None:
    event_appended.connect(queue_event, sender=TableEvent, dispatch_uid="integrations-outbox")
