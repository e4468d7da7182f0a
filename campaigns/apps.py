from importlib import import_module

from django.apps import AppConfig
from django.conf import settings

from rules.registry import register


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self) -> None:
        """Register the games the settings name beside the built-in ones (EXTRA_GAMES)."""
        for path in settings.EXTRA_GAMES:
            register(import_module(path))
