from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.forms import EmailForm, SignupForm, TokenForm
from accounts.models import ApiToken


def signup(request):
    if request.user.is_authenticated:
        return redirect("tables:lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}!")
        return redirect(request.GET.get("next") or "tables:lobby")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request):
    new_token = None
    token_form = TokenForm()
    email_form = EmailForm(instance=request.user)
    if request.method == "POST":
        if "create_token" in request.POST:
            token_form = TokenForm(request.POST)
            if token_form.is_valid():
                _, new_token = ApiToken.issue(request.user, token_form.cleaned_data["name"])
                token_form = TokenForm()
        elif "save_email" in request.POST:
            email_form = EmailForm(request.POST, instance=request.user)
            if email_form.is_valid():
                email_form.save()
                messages.success(request, "E-mail saved.")
                return redirect("accounts:profile")
    return render(
        request,
        "accounts/profile.html",
        {
            "tokens": request.user.api_tokens.all(),
            "token_form": token_form,
            "email_form": email_form,
            "new_token": new_token,
        },
    )


@require_POST
@login_required
def revoke_token(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.delete()
    messages.success(request, "Token revoked.")
    return redirect("accounts:profile")
