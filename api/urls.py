"""The api app's addresses: the API under /api/v1/, the token page beside each campaign,
the overlay at its secret link, and the web app manifest and service worker at the root."""

from __future__ import annotations

from django.urls import URLPattern, include, path, re_path

from . import views
from .endpoints import api
from .problems import api_view


def _api_patterns() -> list[URLPattern]:
    patterns, _app, _namespace = api.urls
    return [
        URLPattern(p.pattern, api_view(p.callback), p.default_args, p.name)
        for p in patterns
        if p.name != "api-root"  # /api/v1/ is the documentation page
    ]


urlpatterns = [
    path("api/v1/", views.api_docs, name="api_docs"),
    path("api/v1/openapi.json", views.api_schema, name="api_schema"),
    path("api/v1/", include((_api_patterns(), "api"), namespace="api")),
    re_path(r"^api/", views.api_not_found, name="api_not_found"),
    path("c/<id:campaign_id>/api-tokens/", views.tokens, name="api_tokens"),
    path(
        "c/<id:campaign_id>/api-tokens/<id:token_id>/revoke/",
        views.token_revoke,
        name="api_token_revoke",
    ),
    path("c/<id:campaign_id>/overlay-links/", views.overlay_create, name="overlay_create"),
    path(
        "c/<id:campaign_id>/overlay-links/<id:link_id>/revoke/",
        views.overlay_revoke,
        name="overlay_revoke",
    ),
    path("overlay/<str:key>/", views.overlay, name="overlay"),
    path("overlay/<str:key>/stream/", views.overlay_stream, name="overlay_stream"),
    path("manifest.webmanifest", views.manifest, name="pwa_manifest"),
    path("sw.js", views.service_worker, name="pwa_worker"),
    path("offline/", views.offline, name="pwa_offline"),
]
