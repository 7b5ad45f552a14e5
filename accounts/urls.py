from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from accounts.forms import ThrottledAuthenticationForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            authentication_form=ThrottledAuthenticationForm, redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(success_url=reverse_lazy("accounts:password_done")),
        name="password_change",
    ),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_done"),
    path("profile/", views.profile, name="profile"),
    path("email/resend/", views.resend_verification, name="resend_verification"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
]
