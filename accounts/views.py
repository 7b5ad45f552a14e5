from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import mail, passwords, preferences
from accounts.forms import (
    EmailForm,
    NotificationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    SignupForm,
    ThrottledAuthenticationForm,
    TokenForm,
)
from accounts.limits import LimitReached
from accounts.models import ApiToken, Block, ClubSetting
from accounts.preferences import notification_choice
from accounts.throttle import DEVICE_COOKIE, SignupThrottle, device_cookie, hashes_passwords


def _safe_next(request) -> str | None:
    """The ``next`` address if it stays on this site (as log-in checks it), else None."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


class LoginView(auth_views.LoginView):
    """Django's log-in, answering 429 with Retry-After once the throttle refuses (accounts.throttle), and
    leaving this browser's device cookie for the account on a success (it passes the address's limit)."""

    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True
    template_name = "accounts/login.html"

    def form_valid(self, form):
        response = super().form_valid(form)
        response.set_cookie(
            DEVICE_COOKIE,
            device_cookie(form.get_user().get_username()),
            max_age=settings.LOGIN_KNOWN_SECONDS,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        throttle = getattr(form, "throttle", None)
        if throttle is not None and throttle.retry_after:
            response.status_code = 429
            response["Retry-After"] = str(throttle.retry_after)
        return response


login_view = hashes_passwords(LoginView.as_view())


@hashes_passwords
def signup(request):
    if request.user.is_authenticated:
        return redirect("tables:lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not SignupThrottle(request).attempt():
            form.add_error(None, SignupThrottle.message())
            return render(request, "accounts/signup.html", {"form": form}, status=429)
        user = form.save()
        # The language the person signed up in is theirs until they switch: e-mails follow it.
        preferences.set_language(user, request.LANGUAGE_CODE)
        mail.send_verification(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.username})
        return redirect(_safe_next(request) or "tables:lobby")
    return render(request, "accounts/signup.html", {"form": form})


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, with the account's API tokens revoked (whoever held one held it under the old password) and
    its other sessions' sockets closed (Django refuses their next request already)."""

    form_class = PasswordChangeForm
    template_name = "accounts/password_change_form.html"
    success_url = reverse_lazy("accounts:password_done")

    def form_valid(self, form):
        this_session = self.request.session.session_key  # (its sockets joined under it; the key is cycled)
        with transaction.atomic():  # (the new password and the revoked tokens together; sockets after)
            response = super().form_valid(form)
            revoked = passwords.revoke_access(form.user, keep_session_key=this_session)
        if revoked:
            messages.info(
                self.request,
                _("API tokens revoked: %(count)d. Create new ones for your bots.") % {"count": revoked},
            )
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """ "Forgot your password?": the same answer whether or not the address is an account's."""

    form_class = PasswordResetForm
    template_name = "accounts/password_reset_form.html"
    success_url = reverse_lazy("accounts:password_reset_done")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's (the token is checked, then kept in the session for the form); a new password signs the
    account out everywhere: its sessions no longer verify, its tokens and sockets are revoked."""

    form_class = SetPasswordForm
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):
        with transaction.atomic():  # (the new password and the revoked tokens together; sockets after)
            response = super().form_valid(form)
            passwords.revoke_access(form.user)
        return response


@login_required
def profile(request):
    new_token = None
    token_form = TokenForm()
    email_form = EmailForm(instance=request.user)
    if request.method == "POST":
        if "create_token" in request.POST:
            token_form = TokenForm(request.POST)
            if token_form.is_valid():
                try:
                    _token, new_token = ApiToken.issue(request.user, token_form.cleaned_data["name"])
                    token_form = TokenForm()
                except LimitReached as exc:
                    token_form.add_error(None, exc.message)
        elif "save_email" in request.POST:
            email_form = EmailForm(request.POST, instance=request.user)
            if email_form.is_valid():
                email_form.save()
                messages.success(request, _("E-mail saved."))
                _ask_to_verify(request)
                return redirect("accounts:profile")
    return render(
        request,
        "accounts/profile.html",
        {
            "tokens": request.user.api_tokens.all(),
            "idle_days": settings.API_TOKEN_IDLE_DAYS,
            "token_form": token_form,
            "email_form": email_form,
            "new_token": new_token,
            "email_verified": mail.is_verified(request.user),
            "notification_form": NotificationForm(instance=notification_choice(request.user)),
            "devices": request.user.push_devices.all(),
            "blocked": Block.objects.filter(blocker=request.user).select_related("blocked"),
            "club": ClubSetting.objects.filter(user=request.user).first() or ClubSetting(user=request.user),
            "bot_account": preferences.is_bot_account(request.user),
        },
    )


@require_POST
@login_required
def notification_settings(request):
    """The profile's "Notifications" section, saved."""
    form = NotificationForm(request.POST, instance=notification_choice(request.user))
    if form.is_valid():
        form.save()
        messages.success(request, _("Notification settings saved."))
    else:
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, message)
    return redirect(reverse("accounts:profile") + "#notifications")


@require_POST
@login_required
def revoke_token(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.delete()
    messages.success(request, _("Token revoked."))
    return redirect("accounts:profile")


def _ask_to_verify(request) -> bool:
    """Queue a verification link for the player's unverified address, and say so."""
    user = request.user
    if not user.email or mail.is_verified(user) or not mail.send_verification(user):
        return False
    messages.info(
        request,
        _("We sent a link to %(email)s: open it to receive turn e-mails there.") % {"email": user.email},
    )
    return True


@require_POST
@login_required
def resend_verification(request):
    if request.user.email and not mail.is_verified(request.user) and not _ask_to_verify(request):
        messages.error(request, _("A link went out less than a minute ago: please wait a little."))
    return redirect("accounts:profile")


def verify_email(request, token):
    user = mail.confirm(token)
    if user is None:
        messages.error(request, _("This link is invalid, expired, or for an address you have since changed."))
    else:
        messages.success(
            request, _("%(email)s is verified: turn e-mails will go there.") % {"email": user.email}
        )
    return redirect("accounts:profile" if request.user.is_authenticated else "tables:lobby")


@require_POST
def switch_language(request):
    """The header's language switcher: Django's set_language (the cookie, then back to ``next``), and for
    a signed-in person the choice kept on their account, so it follows them to other browsers and mail."""
    response = set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        preferences.set_language(request.user, language)
    return response
