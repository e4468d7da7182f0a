from django.urls import path

from . import (
    odds_views,
    order_views,
    scene_panel,
    views,
    views_chat,
    views_export,
    views_gm,
    views_live_pool,
    views_moves,
)

urlpatterns = [
    path("c/<id:campaign_id>/table/", views.table_page, name="table"),
    path("c/<id:campaign_id>/table/events/", views.older_events, name="table_events"),
    path("c/<id:campaign_id>/table/scene/", scene_panel.scene_panel, name="table_scene"),
    path("c/<id:campaign_id>/table/pool/<id:sheet_id>/", views.pool_builder, name="table_pool"),
    path(
        "c/<id:campaign_id>/table/pool/<id:sheet_id>/roll/",
        views.pool_roll,
        name="table_pool_roll",
    ),
    path("c/<id:campaign_id>/table/act/<str:action_name>/", views.act, name="table_act"),
    path(
        "c/<id:campaign_id>/table/act/<str:action_name>/form/",
        views.act_form,
        name="table_act_form",
    ),
    path(
        "c/<id:campaign_id>/table/quick/<str:action_name>/",
        views_gm.quick_action,
        name="table_quick",
    ),
    path(
        "c/<id:campaign_id>/table/move/<str:action_name>/",
        views_moves.card_move,
        name="table_move",
    ),
    path(
        "c/<id:campaign_id>/table/move/<str:action_name>/pick/",
        views_moves.card_move_pick,
        name="table_move_pick",
    ),
    path(
        "c/<id:campaign_id>/table/events/<id:event_id>/reveal/",
        views_gm.event_reveal,
        name="table_reveal",
    ),
    path(
        "c/<id:campaign_id>/table/events/<id:event_id>/void/",
        views_gm.event_void,
        name="table_void",
    ),
    path("c/<id:campaign_id>/table/gm/roll/", views_gm.gm_roll, name="table_gm_roll"),
    path("c/<id:campaign_id>/table/gm/scene/", views_gm.gm_scene, name="table_gm_scene"),
    path("c/<id:campaign_id>/table/gm/points/", views_gm.gm_plot_points, name="table_gm_points"),
    path(
        "c/<id:campaign_id>/table/gm/points/each/",
        views_gm.gm_plot_points_each,
        name="table_gm_points_each",
    ),
    path("c/<id:campaign_id>/table/order/", order_views.order_move, name="table_order"),
    path(
        "c/<id:campaign_id>/table/live/<id:sheet_id>/",
        views_live_pool.live_pool_change,
        name="table_live_pool",
    ),
    path("c/<id:campaign_id>/odds/", odds_views.odds_fragment, name="odds"),
    path("c/<id:campaign_id>/table/say/", views_chat.say, name="table_say"),
    # --- A game's GM tools and panel box (rules.kit.tools), at the addresses it declares,
    # after every fixed address above: a declared one cannot take theirs. The contests'
    # keep the names they had before the games declared them.
    path(
        "c/<id:campaign_id>/table/gm/contest/",
        views_gm.gm_tool,
        {"address": "contest"},
        name="table_gm_contest",
    ),
    path("c/<id:campaign_id>/table/gm/<slug:address>/", views_gm.gm_tool, name="table_gm_tool"),
    path(
        "c/<id:campaign_id>/table/contest/",
        scene_panel.panel_move,
        {"address": "contest"},
        name="table_contest",
    ),
    # --- Log export and verification (table/views_export.py) ---------------------------
    path(
        "c/<id:campaign_id>/table/export/scene/<id:scene_id>.<str:fmt>",
        views_export.export_scene,
        name="table_export_scene",
    ),
    path(
        "c/<id:campaign_id>/table/export/session/<str:day>.<str:fmt>",
        views_export.export_session,
        name="table_export_session",
    ),
    path("c/<id:campaign_id>/table/verify/", views_export.verify_view, name="table_verify"),
    # --- end of log export and verification -------------------------------------------
    # A game's panel box takes its moves at its address: last, after every fixed one.
    path(
        "c/<id:campaign_id>/table/<slug:address>/",
        scene_panel.panel_move,
        name="table_panel_move",
    ),
]
