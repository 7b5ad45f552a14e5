from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.throttle import hashes_passwords

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", hashes_passwords(views.PasswordChangeView.as_view()), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_done"),
    path("profile/", views.profile, name="profile"),
    path("email/resend/", views.resend_verification, name="resend_verification"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
]
