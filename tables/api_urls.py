from django.urls import path

from tables import account_api, api, history_api

urlpatterns = [
    path("token", api.token),
    path("games", api.games),
    path("tables", api.tables),
    path("tables/<int:pk>", api.table_detail),
    path("tables/<int:pk>/join", api.join),
    path("tables/<int:pk>/start", api.start),
    path("tables/<int:pk>/moves", api.moves),
    path("tables/<int:pk>/concede", api.concede),
    path("tables/<int:pk>/reclaim", api.reclaim),
    path("tables/<int:pk>/abort", api.abort),
    path("tables/<int:pk>/abandon", api.abandon),
    path("your-turn", api.your_turn_list),
    path("tables/<int:pk>/takeback", api.takeback),
    path("tables/<int:pk>/chat", api.chat),
    path("tables/<int:pk>/invite", api.invite),
    path("tables/<int:pk>/export", history_api.export),
    path("replay", history_api.check),
    path("leaderboard/<slug:slug>", history_api.leaderboard),
    path("players/<str:username>", history_api.player),
    path("history", history_api.history_list),
    path("password-reset", account_api.password_reset),
    path("push/key", account_api.push_key),
    path("push/subscriptions", account_api.push_subscriptions),
    path("push/subscriptions/<str:pk>", account_api.push_subscription),
]
