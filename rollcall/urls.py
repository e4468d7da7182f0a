from django.contrib import admin
from django.urls import include, path, register_converter

from campaigns import views as campaign_views

from . import views
from .converters import IdConverter

register_converter(IdConverter, "id")

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<str:system>/", views.rules_system, name="rules_system"),
    path("rules/<str:system>/start/", views.rules_start, name="rules_start"),
    path("", include("campaigns.urls")),
    path("", include("sheets.urls")),
    path("", include("table.urls")),
    path("", include("integrations.urls")),
    path("", include("api.urls")),
    path("admin/", admin.site.urls),
]

# 403 and 404 are Django's own views with templates/403.html and 404.html (the CSRF
# failure page: 403_csrf.html); 400 and 500 render without the request (rollcall/views.py).
handler400 = "rollcall.views.bad_request"
handler500 = "rollcall.views.server_error"
