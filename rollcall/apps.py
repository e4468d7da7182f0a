from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """Django's admin, served by a site whose log-in is throttled like the site's own."""

    default_site = "rollcall.admin.RollcallAdminSite"
