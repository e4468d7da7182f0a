from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    """Discord webhooks per campaign (docs/integrations.md). The table never names this
    app: it sends table.signals.event_appended, and this app queues its messages there."""

    name = "integrations"

    def ready(self) -> None:
        # The receivers read models, which exist only once the app registry is ready.
        from . import receivers

        receivers.connect()
