from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    """Discord webhooks per campaign (docs/integrations.md). The table never names this
    app: it sends table.signals.event_appended, and this app queues its messages there."""

    name = "integrations"

    def ready(self) -> None:
        from table.models import TableEvent
        from table.signals import event_appended

        from .outbox import queue_event

        event_appended.connect(queue_event, sender=TableEvent, dispatch_uid="integrations-outbox")
