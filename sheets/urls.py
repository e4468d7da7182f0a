from django.urls import path

from .views import guide, portrait, sheet, traits

SHEET = "c/<id:campaign_id>/sheets/<id:sheet_id>/"

urlpatterns = [
    path("c/<id:campaign_id>/sheets/", sheet.sheet_list, name="sheet_list"),
    path("c/<id:campaign_id>/sheets/new/", sheet.sheet_create, name="sheet_create"),
    path("c/<id:campaign_id>/sheets/import/", sheet.sheet_import, name="sheet_import"),
    path(SHEET, sheet.sheet_detail, name="sheet_detail"),
    path(SHEET + "imported/", sheet.sheet_imported, name="sheet_imported"),
    path(SHEET + "head/", sheet.sheet_head, name="sheet_head"),
    path(SHEET + "guide/<int:step>/", guide.sheet_guide, name="sheet_guide"),
    path(SHEET + "portrait/", portrait.portrait, name="sheet_portrait"),
    path(SHEET + "portrait/upload/", portrait.portrait_upload, name="sheet_portrait_upload"),
    path(SHEET + "portrait/remove/", portrait.portrait_remove, name="sheet_portrait_remove"),
    path(SHEET + "scores/", sheet.sheet_scores, name="sheet_scores"),
    path(SHEET + "export/", sheet.sheet_export, name="sheet_export"),
    path(SHEET + "delete/", sheet.sheet_delete, name="sheet_delete"),
    path(SHEET + "counters/<slug:key>/", sheet.sheet_counter, name="sheet_counter"),
    path(SHEET + "groups/<slug:group>/", traits.sheet_group, name="sheet_group"),
    path(SHEET + "groups/<slug:group>/add/", traits.trait_add, name="trait_add"),
    path(SHEET + "traits/<id:trait_id>/", traits.trait, name="trait"),
    path(SHEET + "traits/<id:trait_id>/step/", traits.trait_step, name="trait_step"),
    path(SHEET + "traits/<id:trait_id>/move/", traits.trait_move, name="trait_move"),
    path(SHEET + "traits/<id:trait_id>/delete/", traits.trait_delete, name="trait_delete"),
]
