from django.urls import path

from table.pages import chat, export, gm, live_pool, moves, odds, order, scene_panel
from table.pages import table as page

urlpatterns = [
    path("c/<id:campaign_id>/table/", page.table_page, name="table"),
    path("c/<id:campaign_id>/table/events/", page.older_events, name="table_events"),
    path("c/<id:campaign_id>/table/scene/", scene_panel.scene_panel, name="table_scene"),
    path("c/<id:campaign_id>/table/pool/<id:sheet_id>/", page.pool_builder, name="table_pool"),
    path(
        "c/<id:campaign_id>/table/pool/<id:sheet_id>/roll/",
        page.pool_roll,
        name="table_pool_roll",
    ),
    path("c/<id:campaign_id>/table/act/<str:action_name>/", page.act, name="table_act"),
    path(
        "c/<id:campaign_id>/table/act/<str:action_name>/form/",
        page.act_form,
        name="table_act_form",
    ),
    path(
        "c/<id:campaign_id>/table/quick/<str:action_name>/",
        gm.quick_action,
        name="table_quick",
    ),
    path(
        "c/<id:campaign_id>/table/move/<str:action_name>/",
        moves.card_move,
        name="table_move",
    ),
    path(
        "c/<id:campaign_id>/table/move/<str:action_name>/pick/",
        moves.card_move_pick,
        name="table_move_pick",
    ),
    path(
        "c/<id:campaign_id>/table/events/<id:event_id>/reveal/",
        gm.event_reveal,
        name="table_reveal",
    ),
    path(
        "c/<id:campaign_id>/table/events/<id:event_id>/void/",
        gm.event_void,
        name="table_void",
    ),
    path("c/<id:campaign_id>/table/gm/roll/", gm.gm_roll, name="table_gm_roll"),
    path("c/<id:campaign_id>/table/gm/scene/", gm.gm_scene, name="table_gm_scene"),
    path("c/<id:campaign_id>/table/gm/points/", gm.gm_plot_points, name="table_gm_points"),
    path(
        "c/<id:campaign_id>/table/gm/points/each/",
        gm.gm_plot_points_each,
        name="table_gm_points_each",
    ),
    path("c/<id:campaign_id>/table/order/", order.order_move, name="table_order"),
    path(
        "c/<id:campaign_id>/table/live/<id:sheet_id>/",
        live_pool.live_pool_change,
        name="table_live_pool",
    ),
    path("c/<id:campaign_id>/odds/", odds.odds_fragment, name="odds"),
    path("c/<id:campaign_id>/table/say/", chat.say, name="table_say"),
    # --- A game's GM tools and panel box (rules.kit.tools), at the addresses it declares,
    # after every fixed address above: a declared one cannot take theirs. The contests'
    # keep the names they had before the games declared them.
    path(
        "c/<id:campaign_id>/table/gm/contest/",
        gm.gm_tool,
        {"address": "contest"},
        name="table_gm_contest",
    ),
    path("c/<id:campaign_id>/table/gm/<slug:address>/", gm.gm_tool, name="table_gm_tool"),
    path(
        "c/<id:campaign_id>/table/contest/",
        scene_panel.panel_move,
        {"address": "contest"},
        name="table_contest",
    ),
    # --- Log export and verification (table/pages/export.py) ---------------------------
    path(
        "c/<id:campaign_id>/table/export/scene/<id:scene_id>.<str:fmt>",
        export.export_scene,
        name="table_export_scene",
    ),
    path(
        "c/<id:campaign_id>/table/export/session/<str:day>.<str:fmt>",
        export.export_session,
        name="table_export_session",
    ),
    path("c/<id:campaign_id>/table/verify/", export.verify_view, name="table_verify"),
    # --- end of log export and verification -------------------------------------------
    # A game's panel box takes its moves at its address: last, after every fixed one.
    path(
        "c/<id:campaign_id>/table/<slug:address>/",
        scene_panel.panel_move,
        name="table_panel_move",
    ),
]
