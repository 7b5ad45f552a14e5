"""A log-in flood against a real daphne on PostgreSQL + Redis (issue #29, finding 1): answered 429 once an
address has spent its tries, and the site goes on answering other calls while the hashes are under way."""

from __future__ import annotations

import json
import secrets
import threading
import urllib.error
import urllib.request

import pytest

from tests.processes import daphnes, shell
from tests.services.test_scale_out import fresh_site

pytestmark = pytest.mark.services


def post_token(port: int, address: str, username: str, password: str) -> tuple[int, dict, dict]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/token",
        method="POST",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read() or b"null")


def fresh_address() -> str:
    """An address of its own (documentation range): the throttle's counts live in the shared Redis."""
    return f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"


def get(port: int, path: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
        return r.status


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    settings = {"DJANGO_TRUSTED_PROXY_COUNT": "1", "LOGIN_ADDRESS_FAILURE_LIMIT": "5"}
    with fresh_site(tmp_path_factory, "loginflood", **settings) as (env, _, tmp):
        shell(
            env,
            "from django.contrib.auth.models import User; User.objects.create_user('alice', password='flood-pass-1')",
        )
        with daphnes(env, tmp) as (port,):
            yield port


def test_a_flood_from_one_address_is_answered_429_with_retry_after(site):
    address = fresh_address()
    answers = [post_token(site, address, "u" + secrets.token_hex(6), "guess")[:2] for _ in range(8)]
    statuses = [status for status, _ in answers]
    assert statuses == [400] * 5 + [429] * 3
    for _, headers in answers[5:]:
        assert 0 < int(headers["Retry-After"]) <= 900
    assert post_token(site, address, "alice", "flood-pass-1")[0] == 429  # never logged in from there
    assert post_token(site, fresh_address(), "alice", "flood-pass-1")[0] == 201


def test_a_flood_of_hashes_does_not_hold_up_other_calls(site):
    """Twenty attackers from twenty addresses, two tries each: forty hashes, one at a time on the password
    thread. Reads and pages are answered while most of the flood is still waiting for its hash."""
    pending, lock = [40], threading.Lock()
    statuses = []

    def attacker(n: int) -> None:
        address = fresh_address()
        for _ in range(2):
            status = post_token(site, address, "u" + secrets.token_hex(6), secrets.token_urlsafe(10))[0]
            with lock:
                statuses.append(status)
                pending[0] -= 1

    threads = [threading.Thread(target=attacker, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    try:
        answered = []
        for path in ("/api/games", "/", "/accounts/login/", "/api/games"):
            answered.append(get(site, path))
            with lock:
                left = pending[0]
            assert left > 10, "the reads waited for the flood"
        assert answered == [200, 200, 200, 200]
    finally:
        for thread in threads:
            thread.join(timeout=120)
    assert sorted(set(statuses)) == [400] and len(statuses) == 40
