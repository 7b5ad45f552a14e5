"""Tokens for scripts (issue #32, point 5): a named token replaces its namesake, each token's last use is
shown, and a token unused for API_TOKEN_IDLE_DAYS expires."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import api_tokens
from accounts.models import ApiToken
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(name=None, username="alice", password=PASSWORD):
    body = {"username": username, "password": password}
    if name is not None:
        body["name"] = name
    return Client().post("/api/token", data=json.dumps(body), content_type="application/json")


def status(raw: str) -> int:
    return Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code


def test_a_script_logging_in_on_each_start_holds_one_token_and_is_never_locked_out(alice, bob):
    ApiToken.issue(bob, "my bot")
    raws = []
    for _start in range(25):  # past API_TOKEN_LIMIT (20)
        r = log_in("my bot")
        assert r.status_code == 201, r.content
        raws.append(r.json()["token"])
    assert list(ApiToken.objects.filter(user=alice).values_list("name", flat=True)) == ["my bot"]
    assert status(raws[-1]) == 200
    assert status(raws[0]) == 401 and status(raws[-2]) == 401  # replaced: revoked at once
    assert ApiToken.objects.filter(user=bob, name="my bot").count() == 1  # another person's namesake stays


def test_a_named_token_leaves_the_accounts_other_tokens_alone(alice):
    _kept, kept_raw = ApiToken.issue(alice, "profile token")
    first = log_in().json()["token"]
    second = log_in().json()["token"]  # no name: added, as before
    named = log_in("ci").json()["token"]
    assert sorted(ApiToken.objects.filter(user=alice).values_list("name", flat=True)) == [
        "API",
        "API",
        "ci",
        "profile token",
    ]
    assert all(status(raw) == 200 for raw in (kept_raw, first, second, named))


def test_the_limit_still_holds_for_tokens_without_a_name(alice):
    for n in range(20):
        ApiToken.issue(alice, f"bot {n}")
    assert log_in().status_code == 429
    assert log_in("bot 3").status_code == 201  # replacing one of them needs no room
    assert log_in("bot 20").status_code == 429
    assert ApiToken.objects.filter(user=alice).count() == 20


@pytest.mark.parametrize("name", [123, "", "   ", "x" * 61, "bad\x00name", "tab\tname", ["list"]])
def test_a_bad_name_is_refused_and_changes_nothing(alice, name):
    ApiToken.issue(alice, "API")
    r = log_in(name)
    assert r.status_code == 400 and r.json()["error"]
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_a_wrong_password_replaces_nothing(alice):
    _token, raw = ApiToken.issue(alice, "my bot")
    assert log_in("my bot", password="wrong").status_code == 400
    assert status(raw) == 200


def test_the_api_lists_the_callers_tokens_with_their_last_use(alice, bob):
    used, raw = ApiToken.issue(alice, "used")
    ApiToken.issue(alice, "idle")
    ApiToken.issue(bob, "bob's")
    r = Client().get("/api/tokens", HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert r.status_code == 200
    rows = {row["name"]: row for row in r.json()}
    assert set(rows) == {"used", "idle"}
    used.refresh_from_db()
    assert used.last_used_at is not None
    assert rows["used"]["last_used_at"] == used.last_used_at.isoformat()
    assert rows["idle"]["last_used_at"] is None
    assert rows["used"]["prefix"] == raw[:8] and rows["used"]["id"] == used.pk
    expires = timezone.datetime.fromisoformat(rows["used"]["expires_at"])
    assert expires == used.last_used_at + timedelta(days=90)
    assert Client().get("/api/tokens").status_code == 401


def test_the_last_use_is_written_at_most_once_a_minute(alice, settings):
    settings.API_TOKEN_CACHE_SECONDS = 0  # (looked up each call: the write is still held back)
    token, raw = ApiToken.issue(alice, "bot")
    assert status(raw) == 200
    token.refresh_from_db()
    first = token.last_used_at
    assert first is not None
    assert status(raw) == 200
    token.refresh_from_db()
    assert token.last_used_at == first
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(seconds=61))
    assert status(raw) == 200
    token.refresh_from_db()
    assert token.last_used_at > first - timedelta(seconds=61)


def age(token, days, used=True):
    moment = timezone.now() - timedelta(days=days)
    ApiToken.objects.filter(pk=token.pk).update(created_at=moment, last_used_at=moment if used else None)
    api_tokens.forget(token.user_id)  # (a bulk update sends no signal)


def test_a_token_unused_for_90_days_expires(alice):
    stale, stale_raw = ApiToken.issue(alice, "stale")
    never, never_raw = ApiToken.issue(alice, "never used")
    recent, recent_raw = ApiToken.issue(alice, "recent")
    age(stale, 91)
    age(never, 91, used=False)
    age(recent, 89)
    assert status(stale_raw) == 401
    assert status(never_raw) == 401
    assert status(recent_raw) == 200


def test_the_idle_days_are_a_setting(alice, settings):
    token, raw = ApiToken.issue(alice, "bot")
    age(token, 10)
    settings.API_TOKEN_IDLE_DAYS = 7
    assert status(raw) == 401
    settings.API_TOKEN_IDLE_DAYS = 0  # never expire
    api_tokens.forget(alice.pk)
    assert status(raw) == 200


def test_expired_tokens_make_room_for_new_ones(alice):
    for n in range(20):
        token, _raw = ApiToken.issue(alice, f"bot {n}")
        if n < 2:
            age(token, 100)
    assert log_in().status_code == 201
    names = set(ApiToken.objects.filter(user=alice).values_list("name", flat=True))
    assert "bot 0" not in names and "bot 1" not in names and len(names) == 19  # 18 bots and "API"


def test_the_profile_says_which_tokens_expired(client_for, alice):
    old, _raw = ApiToken.issue(alice, "old one")
    ApiToken.issue(alice, "fresh one")
    age(old, 120)
    page = client_for(alice).get("/accounts/profile/").content.decode()
    assert "A token unused for 90 days expires." in page
    old_row = page[page.index("old one") :].split("</li>")[0]
    fresh_row = page[page.index("fresh one") :].split("</li>")[0]
    assert "expired" in old_row and "expired" not in fresh_row
