import pytest
from django.contrib.auth.models import User

from accounts.models import ApiToken
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in(client):
    r = client.post(
        "/accounts/signup/",
        {"username": "dora", "password1": "a-long-passphrase-1", "password2": "a-long-passphrase-1"},
    )
    assert r.status_code == 302
    assert client.get("/").context["user"].username == "dora"


def test_log_in_and_out(client, alice):
    r = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert r.status_code == 302
    assert client.post("/accounts/logout/").status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_failed_log_ins_are_throttled(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for _ in range(3):
        r = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert r.status_code == 200
    r = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert r.status_code == 429 and "Too many failed log-ins" in r.content.decode()
    assert 0 < int(r["Retry-After"]) <= settings.LOGIN_FAILURE_WINDOW


def test_change_password(client, alice):
    client.force_login(alice)
    r = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-passphrase-9",
            "new_password2": "another-passphrase-9",
        },
    )
    assert r.status_code == 302
    assert User.objects.get(username="alice").check_password("another-passphrase-9")


def test_tokens_are_created_shown_once_and_revoked(client, alice):
    client.force_login(alice)
    r = client.post("/accounts/profile/", {"create_token": "1", "name": "my bot"})
    token = ApiToken.objects.get()
    html = r.content.decode()
    assert token.prefix in html and token.key_hash not in html
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert not ApiToken.objects.exists()


def test_forms_carry_csrf_protection(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 403
    assert 'name="csrfmiddlewaretoken"' in client.get("/accounts/signup/").content.decode()
