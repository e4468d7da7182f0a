from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class RollcallUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Table", {"fields": ("display_name",)}))
