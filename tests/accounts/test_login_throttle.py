"""The log-in and sign-up throttles (issue #17, finding 3): per account and client address, atomic."""

from __future__ import annotations

import json
import threading
import time

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.db import connection
from django.test import Client

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(client, username, password, **meta):
    return client.post("/accounts/login/", {"username": username, "password": password}, **meta)


def logged_in(response) -> bool:
    return response.status_code == 302


def api_token(client, username, password, **meta):
    body = json.dumps({"username": username, "password": password})
    return client.post("/api/token", data=body, content_type="application/json", **meta)


def spend_tries(client, username, **meta):
    for _ in range(3):
        assert log_in(client, username, "wrong", **meta).status_code == 200


@pytest.fixture(autouse=True)
def _three_tries(settings):
    settings.LOGIN_FAILURE_LIMIT = 3


def test_failed_tries_on_one_account_leave_other_accounts_open_from_that_address(client, alice, bob):
    spend_tries(client, "alice")
    assert "Too many failed log-ins" in log_in(client, "alice", PASSWORD).content.decode()
    assert logged_in(log_in(Client(), "bob", PASSWORD))
    assert api_token(Client(), "bob", PASSWORD).status_code == 201


def test_an_attacker_hammering_an_account_does_not_lock_its_owner_elsewhere(client, alice):
    spend_tries(client, "alice", REMOTE_ADDR="203.0.113.66")
    assert api_token(client, "alice", PASSWORD, REMOTE_ADDR="203.0.113.66").status_code == 429
    assert logged_in(log_in(Client(), "alice", PASSWORD, REMOTE_ADDR="198.51.100.7"))
    assert api_token(Client(), "alice", PASSWORD, REMOTE_ADDR="198.51.100.7").status_code == 201


def test_behind_a_trusted_proxy_clients_are_told_apart_by_x_forwarded_for(client, alice, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    attacker = {**proxy, "HTTP_X_FORWARDED_FOR": "203.0.113.66"}
    spend_tries(client, "alice", **attacker)
    assert not logged_in(log_in(client, "alice", PASSWORD, **attacker))
    # What the client itself writes in the header is to the left of what the proxy appends: ignored.
    spoofed = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.7, 203.0.113.66"}
    assert not logged_in(log_in(Client(), "alice", PASSWORD, **spoofed))
    owner = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert logged_in(log_in(Client(), "alice", PASSWORD, **owner))


def test_without_trusted_proxies_x_forwarded_for_is_ignored(client, alice):
    spend_tries(client, "alice", HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert not logged_in(log_in(Client(), "alice", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.2"))


def test_two_trusted_proxies_read_the_second_address_from_the_right(rf, settings):
    from accounts.throttle import client_address

    settings.TRUSTED_PROXY_COUNT = 2
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9, 10.0.0.1")
    assert client_address(request) == "203.0.113.9"
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-address, 10.0.0.1")
    assert client_address(request) == "10.0.0.2"


def test_a_success_clears_the_count(client, alice):
    for _ in range(2):
        log_in(client, "alice", "wrong")
    assert logged_in(log_in(client, "alice", PASSWORD))
    for _ in range(2):
        log_in(Client(), "alice", "wrong")
    assert logged_in(log_in(Client(), "alice", PASSWORD))


@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_passwords_are_checked_no_more_than_the_limit(alice, monkeypatch):
    """Forty tries at once: each is charged before its password is checked, so three get checked."""
    from django.contrib.auth.backends import ModelBackend

    checked = []
    original = ModelBackend.authenticate

    def slow_authenticate(self, *args, **kwargs):
        time.sleep(0.2)  # the window in which a check-then-count throttle lets every racer through
        return original(self, *args, **kwargs)

    def count(**kwargs):
        checked.append(1)

    monkeypatch.setattr(ModelBackend, "authenticate", slow_authenticate)
    user_login_failed.connect(count, dispatch_uid="test-count")
    start = threading.Barrier(40)
    statuses = []

    def one_try(i):
        start.wait()
        try:
            kind = log_in if i % 2 else api_token
            statuses.append(kind(Client(), "alice", f"wrong-{i}").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=one_try, args=(i,)) for i in range(40)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        user_login_failed.disconnect(dispatch_uid="test-count")
    assert len(statuses) == 40 and 500 not in statuses
    assert len(checked) == 3


def sign_up(client, username, next_url=None, **meta):
    url = "/accounts/signup/" + (f"?next={next_url}" if next_url else "")
    data = {"username": username, "password1": "a-long-passphrase-1", "password2": "a-long-passphrase-1"}
    return client.post(url, data, **meta)


def test_sign_ups_are_throttled_per_address_with_a_clear_message(settings):
    settings.SIGNUP_LIMIT = 3
    for n in range(3):
        assert sign_up(Client(), f"player{n}", REMOTE_ADDR="203.0.113.5").status_code == 302
    r = sign_up(Client(), "player3", REMOTE_ADDR="203.0.113.5")
    assert r.status_code == 429 and "Too many new accounts from your address" in r.content.decode()
    assert not User.objects.filter(username="player3").exists()
    assert sign_up(Client(), "player3", REMOTE_ADDR="198.51.100.7").status_code == 302


def test_a_mistyped_sign_up_is_not_counted(settings):
    settings.SIGNUP_LIMIT = 1
    bad = {"username": "dora", "password1": "a-long-passphrase-1", "password2": "another-one-2"}
    assert Client().post("/accounts/signup/", bad).status_code == 200
    assert sign_up(Client(), "dora").status_code == 302
