import zoneinfo
from functools import cache

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.limits import refuse_control_characters
from accounts.models import NotificationChoice
from accounts.throttle import LoginThrottle

USERNAME_MAX = 30  # for new accounts; older, longer names keep working


class RefusesControlCharacters:
    """Every text field of the form refuses NUL and the other control characters, with a clear message."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                field.validators.append(refuse_control_characters)


class SignupForm(RefusesControlCharacters, auth_forms.UserCreationForm):
    email = forms.EmailField(
        required=False, label=_("E-mail"), help_text=_("Optional: we write only to say it is your turn.")
    )

    class Meta(auth_forms.UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.widget.attrs["maxlength"] = str(USERNAME_MAX)
        username.help_text = _("Up to %(max)d characters: letters, digits and @/./+/-/_ only.") % {
            "max": USERNAME_MAX
        }

    def clean_username(self):
        username = super().clean_username()
        if len(username) > USERNAME_MAX:
            raise forms.ValidationError(
                _("A username has at most %(max)d characters (this one has %(length)d)."),
                code="username_too_long",
                params={"max": USERNAME_MAX, "length": len(username)},
            )
        if not names.name_free(username):
            raise forms.ValidationError(
                _(
                    "This username belonged to an account deleted less than %(days)d days ago: choose another."
                ),
                code="username_resting",
                params={"days": settings.DELETED_NAME_DAYS},
            )
        return username


class ThrottledAuthenticationForm(RefusesControlCharacters, auth_forms.AuthenticationForm):
    """Django's log-in form, refusing further tries for an account from an address after too many."""

    error_messages = {
        **auth_forms.AuthenticationForm.error_messages,
        "throttled": _("Too many failed log-ins. Wait a few minutes and try again."),
    }

    def clean(self):
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if not username or not password:
            return super().clean()
        throttle = self.throttle = LoginThrottle(username, self.request)
        if not throttle.attempt():
            raise forms.ValidationError(self.error_messages["throttled"], code="throttled")
        cleaned = super().clean()
        throttle.succeeded()
        return cleaned


class PasswordChangeForm(RefusesControlCharacters, auth_forms.PasswordChangeForm):
    pass


class PasswordResetForm(RefusesControlCharacters, auth_forms.PasswordResetForm):
    """Django's form; the link goes to a verified address only, through the outbox (accounts.passwords)."""

    def save(self, **kwargs):
        from accounts import passwords

        passwords.request_reset(self.cleaned_data["email"])


class SetPasswordForm(RefusesControlCharacters, auth_forms.SetPasswordForm):
    pass


class TokenForm(RefusesControlCharacters, forms.Form):
    name = forms.CharField(max_length=60, required=False, label=_("Token name"))


class EmailForm(RefusesControlCharacters, forms.ModelForm):
    class Meta:
        model = User
        fields = ("email",)
        labels = {"email": _("E-mail")}


@cache
def time_zones() -> list[tuple[str, str]]:
    return [
        (name, name.replace("_", " "))
        for name in sorted(zoneinfo.available_timezones())
        if "/" in name or name == "UTC"
    ]


class NotificationForm(forms.ModelForm):
    """The profile's "Notifications" section: channels, the daily digest, quiet hours in one's own zone."""

    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zones)

    class Meta:
        model = NotificationChoice
        fields = ("email", "email_digest", "push", "sound", "time_zone", "quiet_from", "quiet_until")
        labels = {
            "email": _("E-mail when it is my turn, a clock runs low or someone invites me"),
            "email_digest": _("One daily digest instead of a mail per turn"),
            "push": _("Push notifications to the devices below"),
            "sound": _("A sound on the site's pages when it becomes my turn"),
            "quiet_from": _("Quiet from"),
            "quiet_until": _("until"),
        }
        help_texts = {
            "quiet_from": _("Nothing is mailed or pushed during quiet hours; it goes out when they end."),
        }
        widgets = {
            "quiet_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_until": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("quiet_from"), cleaned.get("quiet_until")
        if (start is None) != (end is None):
            raise forms.ValidationError(
                _("Give both ends of the quiet hours, or neither."), code="quiet_hours"
            )
        return cleaned
