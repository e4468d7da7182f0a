from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm

from .forms import DisplayNameChecks
from .models import User
from .text import ShownTextField


class UserAdminForm(DisplayNameChecks, UserChangeForm):
    """The admin sets a display name by the same rules as the profile page."""

    class Meta(UserChangeForm.Meta):
        model = User
        field_classes = {**UserChangeForm.Meta.field_classes, "display_name": ShownTextField}


@admin.register(User)
class RollcallUserAdmin(UserAdmin):
    form = UserAdminForm
    fieldsets = (*UserAdmin.fieldsets, ("Table", {"fields": ("display_name",)}))
