from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User

from accounts.throttle import LoginThrottle


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional: we write only to say it is your turn.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's log-in form, refusing further tries after too many failures."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": "Too many failed log-ins. Wait a few minutes and try again.",
    }

    def clean(self):
        throttle = LoginThrottle(self.data.get("username", ""), self.request)
        if throttle.blocked():
            raise forms.ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            throttle.failed()
            raise
        throttle.succeeded()
        return cleaned


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, required=False, label="Token name")


class EmailForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email",)
