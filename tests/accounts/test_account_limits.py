"""Sign-up's `next` and usernames, API tokens (cap, last use, revoked by a password change), and control
characters in account forms (issue #17, findings 4, 6, 8 and 10)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-long-passphrase-1"


def sign_up(username, next_url=None, client=None):
    url = "/accounts/signup/" + (f"?next={next_url}" if next_url else "")
    data = {"username": username, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    return (client or Client()).post(url, data)


@pytest.mark.parametrize(
    "target", ["https://evil.example/phish", "//evil.example/phish", "/\\evil.example", "javascript:alert(1)"]
)
def test_sign_up_does_not_redirect_off_site(target):
    r = sign_up("dora", target)
    assert r.status_code == 302 and r["Location"] == "/"


def test_sign_up_follows_a_next_on_this_site():
    r = sign_up("dora", "/tables/42/")
    assert r.status_code == 302 and r["Location"] == "/tables/42/"


def test_sign_up_limits_usernames_to_30_characters():
    r = sign_up("d" * 31)
    page = r.content.decode()
    assert r.status_code == 200 and "A username has at most 30 characters (this one has 31)." in page
    assert not User.objects.exists()
    assert 'maxlength="30"' in Client().get("/accounts/signup/").content.decode()
    assert sign_up("d" * 30).status_code == 302


def test_an_existing_longer_username_still_logs_in(make_user):
    make_user("l" * 40)
    r = Client().post("/accounts/login/", {"username": "l" * 40, "password": PASSWORD})
    assert r.status_code == 302


@pytest.mark.parametrize("bad", ["\x00", "\x01", "\x7f", "\x9b"])
def test_account_forms_refuse_control_characters(client_for, alice, bad):
    c = client_for(alice)
    r = c.post("/accounts/profile/", {"create_token": "1", "name": f"my{bad}bot"})
    assert (
        r.status_code == 200
        and "Control characters (such as NUL) are not allowed here." in r.content.decode()
    )
    assert not ApiToken.objects.exists()
    r = Client().post("/accounts/login/", {"username": f"alice{bad}", "password": PASSWORD})
    assert r.status_code == 200 and "not allowed here" in r.content.decode()
    r = sign_up(f"dora{bad}")
    assert r.status_code == 200 and not User.objects.filter(username__startswith="dora").exists()
    r = c.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": f"x{bad}" + NEW_PASSWORD,
            "new_password2": f"x{bad}" + NEW_PASSWORD,
        },
    )
    assert r.status_code == 200 and "not allowed here" in r.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_an_account_holds_at_most_20_tokens(client_for, alice):
    for n in range(20):
        ApiToken.issue(alice, f"bot {n}")
    r = client_for(alice).post("/accounts/profile/", {"create_token": "1", "name": "one more"})
    assert (
        "An account may hold at most 20 API tokens: revoke one on your profile page first."
        in r.content.decode()
    )
    body = json.dumps({"username": "alice", "password": PASSWORD})
    r = Client().post("/api/token", data=body, content_type="application/json")
    assert r.status_code == 429 and "at most 20 API tokens" in r.json()["error"]
    assert ApiToken.objects.filter(user=alice).count() == 20
    ApiToken.objects.filter(user=alice).first().delete()
    assert Client().post("/api/token", data=body, content_type="application/json").status_code == 201


def test_the_profile_shows_each_tokens_last_use(client_for, alice):
    used, _ = ApiToken.issue(alice, "used one")
    ApiToken.issue(alice, "idle one")
    ApiToken.objects.filter(pk=used.pk).update(
        last_used_at=timezone.make_aware(timezone.datetime(2026, 3, 4, 5, 6))
    )
    page = client_for(alice).get("/accounts/profile/").content.decode()
    idle_row = page[page.index("idle one") :].split("</li>")[0]
    used_row = page[page.index("used one") :].split("</li>")[0]
    assert "never used" in idle_row
    assert "last used" in used_row and "4 Mar 2026 05:06" in used_row


def test_a_password_change_revokes_the_accounts_api_tokens(client_for, alice, bob):
    ApiToken.issue(alice, "old bot")
    ApiToken.issue(bob, "bob's bot")
    c = client_for(alice)
    assert "also revokes every API token" in c.get("/accounts/password/").content.decode()
    r = c.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert r.status_code == 302
    assert not ApiToken.objects.filter(user=alice).exists()
    assert ApiToken.objects.filter(user=bob).count() == 1
    assert "API tokens revoked: 1" in c.get(r["Location"]).content.decode()
