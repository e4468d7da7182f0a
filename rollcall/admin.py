"""The admin site: Django's, with its log-in page counted and refused like the site's
(accounts/ratelimit.py). Failures at either page count towards the same limits, so an
attacker gains no guesses by switching between them."""

from django.contrib.admin import AdminSite

from accounts.forms import AdminLoginForm
from accounts.views import refuse_when_locked


class RollcallAdminSite(AdminSite):
    login_form = AdminLoginForm

    def login(self, request, extra_context=None):
        return refuse_when_locked(super().login(request, extra_context))
