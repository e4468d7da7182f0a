"""Websocket routes for the live table."""

from django.urls import path

from table.talk.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/campaign/<int:campaign_id>/", TableConsumer.as_asgi()),
]
