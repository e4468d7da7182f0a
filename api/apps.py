from django.apps import AppConfig


class ApiConfig(AppConfig):
    """Reading a campaign from outside the table: personal API tokens and the read-only
    API, the stream overlay, and what makes the site installable (docs/integrations.md)."""

    name = "api"
    verbose_name = "API, overlay and app install"
