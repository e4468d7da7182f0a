from django.urls import path

from . import views

SHEET = "c/<id:campaign_id>/sheets/<id:sheet_id>/"

urlpatterns = [
    path("c/<id:campaign_id>/sheets/", views.sheet_list, name="sheet_list"),
    path("c/<id:campaign_id>/sheets/new/", views.sheet_create, name="sheet_create"),
    path("c/<id:campaign_id>/sheets/import/", views.sheet_import, name="sheet_import"),
    path(SHEET, views.sheet_detail, name="sheet_detail"),
    path(SHEET + "head/", views.sheet_head, name="sheet_head"),
    path(SHEET + "scores/", views.sheet_scores, name="sheet_scores"),
    path(SHEET + "export/", views.sheet_export, name="sheet_export"),
    path(SHEET + "delete/", views.sheet_delete, name="sheet_delete"),
    path(SHEET + "counters/<slug:key>/", views.sheet_counter, name="sheet_counter"),
    path(SHEET + "groups/<slug:group>/", views.sheet_group, name="sheet_group"),
    path(SHEET + "groups/<slug:group>/add/", views.trait_add, name="trait_add"),
    path(SHEET + "traits/<id:trait_id>/", views.trait, name="trait"),
    path(SHEET + "traits/<id:trait_id>/step/", views.trait_step, name="trait_step"),
    path(SHEET + "traits/<id:trait_id>/move/", views.trait_move, name="trait_move"),
    path(SHEET + "traits/<id:trait_id>/delete/", views.trait_delete, name="trait_delete"),
]
