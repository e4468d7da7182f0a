from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign_list"),
    path("campaigns/new/", views.campaign_create, name="campaign_create"),
    path("c/<id:campaign_id>/", views.campaign_home, name="campaign_home"),
    path("c/<id:campaign_id>/edit/", views.campaign_edit, name="campaign_edit"),
    path("c/<id:campaign_id>/members/", views.members, name="members"),
    path(
        "c/<id:campaign_id>/members/<id:membership_id>/role/",
        views.member_role,
        name="member_role",
    ),
    path(
        "c/<id:campaign_id>/members/<id:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("c/<id:campaign_id>/leave/", views.leave, name="leave"),
    path("c/<id:campaign_id>/invites/", views.invite_create, name="invite_create"),
    path(
        "c/<id:campaign_id>/invites/<id:invite_id>/revoke/",
        views.invite_revoke,
        name="invite_revoke",
    ),
    path(
        "c/<id:campaign_id>/invites/<id:invite_id>/regenerate/",
        views.invite_regenerate,
        name="invite_regenerate",
    ),
    path("join/<str:token>/", views.join, name="join"),
    path("c/<id:campaign_id>/scenes/", views.scenes, name="scenes"),
    path("c/<id:campaign_id>/scenes/<id:scene_id>/start/", views.scene_start, name="scene_start"),
    path("c/<id:campaign_id>/scenes/<id:scene_id>/end/", views.scene_end, name="scene_end"),
]
