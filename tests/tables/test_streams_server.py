"""An API stream ends when the server stops (issue #32, point 2): daphne asked to stop closes it."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from tests.processes import free_port, migrate, shell, sqlite_env, start_daphne, stop

pytestmark = pytest.mark.slow


def test_the_stream_ends_when_the_server_stops(tmp_path):
    """daphne asked to stop (SIGTERM) ends an open stream: the client sees the answer end, not a hang."""
    env = sqlite_env(tmp_path / "db.sqlite3", DJANGO_DEBUG="true", WORKER_IN_PROCESS="false")
    migrate(env)
    script = (
        "from django.contrib.auth.models import User\n"
        "from accounts.models import ApiToken\n"
        "from tables import services\n"
        "alice = User.objects.create_user('alice', password='stream-pass-1')\n"
        "bob = User.objects.create_user('bob', password='stream-pass-2')\n"
        "table = services.create_table(alice, 'cosmic_crowns', 2)\n"
        "services.join_table(table.pk, bob)\n"
        "services.start_table(table.pk, alice)\n"
        "print(table.pk, ApiToken.issue(alice, 'stream')[1])\n"
    )
    table, token = shell(env, script).split()[-2:]
    port = free_port()
    proc = start_daphne(env, port, tmp_path / "daphne.log")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("GET", f"/api/stream/tables/{table}", headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        assert response.status == 200
        assert json.loads(response.readline())["type"] == "full"
        asked = time.monotonic()
        proc.terminate()
        rest = b""
        try:
            while chunk := response.read1(1024):
                rest += chunk
        except (ConnectionError, http.client.IncompleteRead):
            pass
        assert time.monotonic() - asked < 15
        assert rest.strip() == b""  # (keep-alive lines at most, then the end)
    finally:
        stop(proc)
