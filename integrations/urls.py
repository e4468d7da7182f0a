from django.urls import path

from . import views

urlpatterns = [
    path("c/<id:campaign_id>/integrations/", views.discord_settings, name="discord_settings"),
    path("c/<id:campaign_id>/integrations/test/", views.discord_test, name="discord_test"),
]
