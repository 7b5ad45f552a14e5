from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import push_views, views
from accounts.throttle import hashes_passwords

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", hashes_passwords(views.PasswordChangeView.as_view()), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        hashes_passwords(views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"),
        name="password_reset_complete",
    ),
    path("profile/", views.profile, name="profile"),
    path("email/resend/", views.resend_verification, name="resend_verification"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
    path("notifications/", views.notification_settings, name="notifications"),
    path("push/subscriptions/", push_views.subscriptions, name="push_subscriptions"),
    path("push/subscriptions/<str:pk>/", push_views.subscription, name="push_subscription"),
    path("push/devices/<str:pk>/remove/", push_views.remove_device, name="push_remove"),
    path("push/viewing/", push_views.viewing, name="push_viewing"),
]
