from django.urls import path

from tables import history_views, social_views, views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/<slug:slug>/new/", views.new_table, name="new"),
    path("games/<slug:slug>/rules/", views.game_rules, name="rules"),
    path("tables/<int:pk>/", views.table_page, name="table"),
    path("tables/<int:pk>/join/", views.join, name="join"),
    path("tables/<int:pk>/join-area/", views.join_area, name="join_area"),
    path("tables/<int:pk>/leave/", views.leave, name="leave"),
    path("tables/<int:pk>/start/", views.start, name="start"),
    path("tables/<int:pk>/move/", views.move, name="move"),
    path("tables/<int:pk>/preview/", views.move_preview, name="preview"),
    path("tables/<int:pk>/concede/", views.concede, name="concede"),
    path("tables/<int:pk>/abort/", views.abort, name="abort"),
    path("tables/<int:pk>/reclaim/", views.reclaim, name="reclaim"),
    path("tables/<int:pk>/rematch/", views.rematch, name="rematch"),
    path("tables/<int:pk>/chat/", social_views.chat, name="chat"),
    path("tables/<int:pk>/chat/mute/", social_views.chat_mute, name="chat_mute"),
    path("tables/<int:pk>/invite/", social_views.invite, name="invite"),
    path("tables/<int:pk>/takeback/", views.takeback, name="takeback"),
    path("games/<slug:slug>/play-now/", views.play_now, name="play_now"),
    path("your-turn/", views.dashboard, name="dashboard"),
    path("your-turn/next/", views.next_game, name="next_game"),
    path("tables/<int:pk>/abandon/", views.abandon, name="abandon"),
    path("history/", history_views.history_page, name="history"),
    path("tables/<int:pk>/replay/", history_views.replay, name="replay"),
    path("tables/<int:pk>/export/", history_views.export, name="export"),
    path("leaderboards/", history_views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:slug>/", history_views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", history_views.player, name="player"),
]
