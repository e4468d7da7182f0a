"""Websocket routes for the live table."""

websocket_urlpatterns: list = []
