"""Oversized requests get a clear 4xx from a real daphne, never a dropped connection or a 5xx (issue #29,
finding 6): a head over 16 KiB 431 (config.protocol), a body over DATA_UPLOAD_MAX_MEMORY_SIZE 413 with a
JSON error (config.handlers), a socket message too big a close with 1009."""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from tests.processes import daphnes, migrate, shell, sqlite_env

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def daphne(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("oversized")
    env = sqlite_env(
        tmp / "db.sqlite3", DJANGO_DEBUG="true", WORKER_IN_PROCESS="false", SOCKET_MESSAGE_MAX="1000"
    )
    migrate(env)
    script = (
        "from django.contrib.auth.models import User\n"
        "from tables import services\n"
        "alice = User.objects.create_user('alice', password='oversized-pass-1')\n"
        "print(services.create_table(alice, 'cosmic_crowns', 2).pk)\n"
    )
    table = int(shell(env, script).split()[-1])
    with daphnes(env, tmp) as (port,):
        yield port, table


def request(port, method, path, headers=None, body=None, chunked=False):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.mark.parametrize("size", [20_000, 17_000, 300_000])
def test_it_answers_431_to_an_authorization_header_too_large(daphne, size):
    status, headers, body = request(daphne[0], "GET", "/api/games", {"Authorization": "Bearer " + "x" * size})
    assert status == 431 and headers["Content-Type"] == "application/json"
    assert "headers are too large" in json.loads(body)["error"]


def test_it_answers_431_to_many_headers_too_large_together(daphne):
    status, _, body = request(daphne[0], "GET", "/", {f"X-Filler-{i}": "y" * 1000 for i in range(20)})
    assert status == 431 and json.loads(body)["error"]


def test_a_head_within_the_bound_is_served(daphne):
    status, _, _ = request(daphne[0], "GET", "/api/games", {"X-Filler": "y" * 12_000})
    assert status == 200


def test_it_answers_413_with_json_to_a_body_too_large(daphne):
    body = b'{"game": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    for path in ("/api/tables", "/api/token", "/accounts/login/"):
        status, headers, answer = request(daphne[0], "POST", path, {"Content-Type": "application/json"}, body)
        assert status == 413 and "body is too large" in json.loads(answer)["error"], path


def test_it_says_why_in_the_language_asked_for(daphne):
    body = b"x" * (3 * 1024 * 1024)
    headers = {"Content-Type": "application/json", "Accept-Language": "fr-FR,fr;q=0.9"}
    status, _, answer = request(daphne[0], "POST", "/api/tables", headers, body)
    assert status == 413 and "trop grand" in json.loads(answer)["error"]


def test_it_answers_413_to_a_chunked_body_that_grows_too_large(daphne):
    chunks = (b"x" * 65536 for _ in range(48))  # 3 MiB, its length not said in advance
    status, _, answer = request(
        daphne[0], "POST", "/api/tables", {"Content-Type": "application/json"}, chunks, True
    )
    assert status == 413 and json.loads(answer)["error"]


@pytest.mark.parametrize("size", [2_000, 2_000_000])
def test_it_closes_a_socket_whose_message_is_too_large_with_1009(daphne, size):
    """Over SOCKET_MESSAGE_MAX (1000 here) the consumer closes it; over daphne's own bound (1 MiB) daphne
    refuses it as it arrives. Either way the client reads 1009 (message too big)."""
    port, table = daphne

    async def oversized():
        url, origin = f"ws://127.0.0.1:{port}/ws/tables/{table}/", f"http://127.0.0.1:{port}"
        async with ws_connect(url, origin=origin, proxy=None, max_size=None) as ws:
            assert "table-" in await asyncio.wait_for(ws.recv(), 20)  # the first frame: accepted
            await ws.send("x" * size)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 20)
            return closed.value.rcvd.code if closed.value.rcvd else None

    assert asyncio.run(oversized()) == 1009
