"""The admin lists hooks with their URL masked; the encrypted URL is never shown, and a
hook is set only by the GM's page (which checks the URL)."""

from django.contrib import admin

from .models import Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ("campaign", "audience", "url_hint", "status", "last_sent_at", "problem")
    list_filter = ("status", "audience")
    fields = (
        "campaign", "audience", "url_hint", "status", "problem", "problem_at", "retry_at",
        "failures", "refusals", "last_error", "last_sent_at", "lease_owner", "lease_until",
    )  # fmt: skip
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
