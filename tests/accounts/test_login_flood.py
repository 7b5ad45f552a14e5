"""Log-in floods (issue #29, finding 1): failed log-ins are limited per client address across every
account, answered 429 with Retry-After, and a person who logged in from that address or browser before
still gets in; password hashing runs on threads of its own, apart from those that serve moves and pages."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.backends import ModelBackend
from django.test import Client

from accounts.throttle import DEVICE_COOKIE
from config.handlers import PooledASGIHandler
from tests.conftest import PASSWORD

ATTACKER = {"REMOTE_ADDR": "203.0.113.66"}


def log_in(client, username, password, **meta):
    return client.post("/accounts/login/", {"username": username, "password": password}, **meta)


def api_token(client, username, password, **meta):
    body = json.dumps({"username": username, "password": password})
    return client.post("/api/token", data=body, content_type="application/json", **meta)


@pytest.fixture
def three_per_address(settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3


def random_name() -> str:
    return "nobody-" + secrets.token_hex(4)


@pytest.mark.django_db
def test_it_refuses_an_address_that_tries_random_usernames_with_429_and_retry_after(
    three_per_address, settings
):
    for _ in range(3):
        assert log_in(Client(), random_name(), "guess", **ATTACKER).status_code == 200
    r = log_in(Client(), random_name(), "guess", **ATTACKER)
    assert r.status_code == 429 and "Too many failed log-ins" in r.content.decode()
    assert 0 < int(r["Retry-After"]) <= settings.LOGIN_FAILURE_WINDOW
    r = api_token(Client(), random_name(), "guess", **ATTACKER)
    assert r.status_code == 429 and r.json()["error"]
    assert 0 < int(r["Retry-After"]) <= settings.LOGIN_FAILURE_WINDOW
    # Another address is not concerned.
    assert log_in(Client(), random_name(), "guess", REMOTE_ADDR="198.51.100.7").status_code == 200


@pytest.mark.django_db
def test_it_refuses_a_password_sprayed_over_many_accounts(three_per_address, make_user):
    people = [make_user(f"player{i}") for i in range(5)]
    statuses = [api_token(Client(), p.username, "Summer2026!", **ATTACKER).status_code for p in people]
    assert statuses == [400, 400, 400, 429, 429]


@pytest.mark.django_db
def test_a_person_who_logged_in_from_a_hammered_address_before_still_gets_in(
    three_per_address, alice, bob, charlie
):
    assert api_token(Client(), "alice", PASSWORD, **ATTACKER).status_code == 201  # (not charged: a success)
    browser = Client()
    assert log_in(browser, "bob", PASSWORD, REMOTE_ADDR="198.51.100.7").status_code == 302
    assert browser.cookies[DEVICE_COOKIE].value
    for _ in range(6):
        log_in(Client(), random_name(), "guess", **ATTACKER)
    assert log_in(Client(), random_name(), "guess", **ATTACKER).status_code == 429
    # alice succeeded from this address; bob's browser carries his device cookie from elsewhere.
    assert api_token(Client(), "alice", PASSWORD, **ATTACKER).status_code == 201
    assert log_in(Client(), "alice", PASSWORD, **ATTACKER).status_code == 302
    browser.post("/accounts/logout/")
    assert log_in(browser, "bob", PASSWORD, **ATTACKER).status_code == 302
    # Someone who never logged in from here, nor from that browser, waits out the window.
    assert log_in(Client(), "charlie", PASSWORD, **ATTACKER).status_code == 429


@pytest.mark.django_db
def test_a_device_cookie_passes_the_address_limit_only_for_its_own_account(three_per_address, alice, bob):
    browser = Client()
    assert log_in(browser, "bob", PASSWORD, REMOTE_ADDR="198.51.100.7").status_code == 302
    for _ in range(4):
        log_in(Client(), random_name(), "guess", **ATTACKER)
    browser.post("/accounts/logout/")
    assert log_in(browser, "alice", PASSWORD, **ATTACKER).status_code == 429
    browser.cookies[DEVICE_COOKIE] = "bob-forged"
    assert log_in(browser, "bob", PASSWORD, **ATTACKER).status_code == 429


@pytest.mark.django_db
def test_a_known_person_still_meets_their_own_accounts_limit(three_per_address, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    assert api_token(Client(), "alice", PASSWORD, **ATTACKER).status_code == 201
    for _ in range(2):
        assert api_token(Client(), "alice", "wrong", **ATTACKER).status_code == 400
    assert api_token(Client(), "alice", PASSWORD, **ATTACKER).status_code == 429


@pytest.mark.django_db
def test_successes_are_not_counted_against_the_address(three_per_address, make_user):
    people = [make_user(f"player{i}") for i in range(6)]
    for person in people:  # six people behind one address log in: none is a failure
        assert api_token(Client(), person.username, PASSWORD, **ATTACKER).status_code == 201
    for _ in range(3):
        assert api_token(Client(), random_name(), "guess", **ATTACKER).status_code == 400
    assert api_token(Client(), random_name(), "guess", **ATTACKER).status_code == 429


async def call(app, method, path, body=None):
    from channels.testing import HttpCommunicator

    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
    payload = json.dumps(body).encode() if body is not None else b""
    response = await HttpCommunicator(app, method, path, body=payload, headers=headers).get_response(
        timeout=30
    )
    return response["status"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_hash_in_progress_holds_up_no_page_nor_move_thread(monkeypatch, alice):
    """A log-in whose hash never ends (held here) runs on the password thread: a page and the API are served
    meanwhile on the request thread, and a second log-in queues behind the first, not on the request thread."""
    handler = PooledASGIHandler(threads=1)
    hashing, release = threading.Event(), threading.Event()
    threads = []
    original = ModelBackend.authenticate  # (where the password is hashed and compared)

    def held_authenticate(self, *args, **kwargs):
        threads.append(threading.current_thread().name)
        hashing.set()
        release.wait(timeout=60)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", held_authenticate)
    try:
        first = asyncio.create_task(
            call(handler, "POST", "/api/token", {"username": "alice", "password": "x"})
        )
        second = asyncio.create_task(call(handler, "POST", "/accounts/login/", {}))
        await sync_to_async(hashing.wait, thread_sensitive=False)(30)
        assert await call(handler, "GET", "/api/games") == 200
        assert await call(handler, "GET", "/accounts/login/") == 200  # a GET of the form hashes nothing
        assert not first.done() and not second.done()
        assert handler.password_busy == [2]
    finally:
        release.set()
    assert await first == 400
    assert await second in (200, 403)  # (the form without its CSRF token: refused, but on its own thread)
    assert threads and set(threads) == {"django-password-0_0"}
    for executor in handler.executors + handler.password_executors:
        executor.shutdown()
