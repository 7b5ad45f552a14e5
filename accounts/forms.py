from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts.limits import refuse_control_characters
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


class TokenForm(RefusesControlCharacters, forms.Form):
    name = forms.CharField(max_length=60, required=False, label=_("Token name"))


class EmailForm(RefusesControlCharacters, forms.ModelForm):
    class Meta:
        model = User
        fields = ("email",)
        labels = {"email": _("E-mail")}
