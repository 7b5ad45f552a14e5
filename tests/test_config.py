"""Settings from the environment: the database options, whichever way the database is named."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.test_deploy import ROOT, run_check


def shell(env: dict, script: str, marker: str) -> str:
    """Run a script with `manage.py shell` in that environment; what it printed after `marker`."""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return next(x for x in out.stdout.splitlines() if x.startswith(marker)).removeprefix(marker).strip()


def settings_in(**environ) -> dict:
    """config.settings' database as a fresh process builds it from this environment (and SYNC_THREADS)."""
    env = {k: v for k, v in os.environ.items() if k != "SYNC_THREADS"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **environ)
    code = (
        "import json; from config import settings as s; "
        "print(json.dumps({**s.DATABASES['default'], 'SYNC_THREADS': s.SYNC_THREADS}, default=str))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_sqlite_named_by_database_url_gets_the_same_options_as_the_default(tmp_path):
    default = settings_in(DATABASE_URL="", SQLITE_PATH=str(tmp_path / "a.sqlite3"))
    by_url = settings_in(DATABASE_URL=f"sqlite:///{tmp_path / 'b.sqlite3'}")
    assert by_url["ENGINE"] == default["ENGINE"] == "django.db.backends.sqlite3"
    assert by_url["NAME"] == str(tmp_path / "b.sqlite3")
    assert by_url["OPTIONS"] == default["OPTIONS"]
    assert by_url["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in by_url["OPTIONS"]["init_command"]
    assert by_url["OPTIONS"]["timeout"] >= 20
    # One long-lived thread serves the requests (config.handlers) and keeps its connection.
    assert by_url["SYNC_THREADS"] == default["SYNC_THREADS"] == 1
    assert by_url["CONN_MAX_AGE"] is default["CONN_MAX_AGE"] is None


def test_postgresql_goes_through_a_bounded_pool():
    db = settings_in(DATABASE_URL="postgres://u@db:5432/cards", DATABASE_POOL_MAX="7")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert db["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections
    assert db["CONN_HEALTH_CHECKS"] is True  # a connection is checked before the pool lends it
    assert db["OPTIONS"]["pool"]["max_size"] == 7
    assert db["OPTIONS"]["pool"]["timeout"] > 0
    assert settings_in(DATABASE_URL="postgres://u@db:5432/cards")["OPTIONS"]["pool"]["max_size"] == 10
    # Requests side by side on a few long-lived threads, each borrowing a pooled connection.
    assert db["SYNC_THREADS"] == 4
    assert settings_in(DATABASE_URL="postgres://u@db:5432/cards", SYNC_THREADS="2")["SYNC_THREADS"] == 2


RACE = """
import threading
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from tables import services
alice = User.objects.create_user("alice")
bob = User.objects.create_user("bob")
table = services.create_table(alice, "cosmic_crowns", 2)
services.join_table(table.pk, bob)
table = services.start_table(table.pk, alice, seed=7)
outcomes = []
for _ in range(ROUNDS):
    seat = table.to_act[0]
    user = [alice, bob][seat]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    barrier = threading.Barrier(THREADS)
    results = []
    def race(seq=table.seq, move=move, user=user, barrier=barrier, results=results):
        barrier.wait()
        try:
            services.play_move(table.pk, user, move, seq)
            results.append("ok")
        except services.Conflict:
            results.append("conflict")
        except OperationalError as exc:
            results.append("OperationalError: " + str(exc))
        finally:
            connection.close()
    threads = [threading.Thread(target=race) for _ in range(THREADS)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    outcomes.append(sorted(results))
    table.refresh_from_db()
    if table.status != "playing":
        break
print("OUTCOMES", json.dumps(outcomes))
"""


@pytest.mark.slow
def test_racing_moves_on_sqlite_named_by_database_url_never_fail_with_locked(tmp_path):
    """One move of a racing batch lands, the others get 409 (Conflict); none gets "database is locked"."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'race.sqlite3'}",
        "WORKER_IN_PROCESS": "false",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    threads = 6
    script = f"import json\nROUNDS, THREADS = 12, {threads}\n" + RACE
    outcomes = json.loads(shell(env, script, "OUTCOMES"))
    assert len(outcomes) == 12
    for results in outcomes:
        assert results == ["conflict"] * (threads - 1) + ["ok"], results


# --- Production: the static files manifest, the CSP and the Permissions-Policy -------------------

PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "a-production-key-for-the-tests-" + "k" * 30,
    "DJANGO_ALLOWED_HOSTS": "cards.example.com",
}


def test_check_deploy_fails_without_collectstatic(tmp_path):
    out = run_check(**PRODUCTION, DJANGO_STATIC_ROOT=str(tmp_path))
    assert out.returncode != 0
    assert "cardclub.E001" in out.stderr and "collectstatic" in out.stderr


def test_the_site_refuses_to_start_without_collectstatic(tmp_path):
    env = {**os.environ, **PRODUCTION, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env["DJANGO_STATIC_ROOT"] = str(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", "import config.asgi"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode != 0 and "collectstatic" in out.stderr


HEADERS = """
import json
from django.test import Client
r = Client(HTTP_HOST="cards.example.com").get("/accounts/login/", secure=True)
print("HEADERS", json.dumps({"status": r.status_code, **dict(r.headers)}))
"""


@pytest.mark.slow
def test_production_pages_carry_a_csp_without_unsafe_inline_scripts_and_a_permissions_policy(
    collected_static, tmp_path
):
    env = {**os.environ, **PRODUCTION, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.update(DJANGO_STATIC_ROOT=str(collected_static), SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    env.pop("DATABASE_URL", None)
    headers = json.loads(shell(env, HEADERS, "HEADERS"))
    assert headers["status"] == 200
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"
    assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'self'"
    assert "unsafe-eval" not in headers["Content-Security-Policy"]
    permissions = headers["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in permissions


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"""<[^>]*\s(on[a-z]+|hx-on[:\w-]*)\s*=""", re.IGNORECASE)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", re.IGNORECASE)


def test_no_template_has_an_inline_script_or_handler():
    offenders = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER, JS_URL):
            offenders += [f"{path.relative_to(ROOT)}: {m.group(0)[:80]}" for m in pattern.finditer(text)]
    assert offenders == []


def test_the_inline_checks_would_catch_one():
    assert INLINE_SCRIPT.search("<script>alert(1)</script>") and not INLINE_SCRIPT.search(
        '<script src="a.js">'
    )
    assert INLINE_HANDLER.search('<input onclick="x()">') and INLINE_HANDLER.search('<div hx-on:click="x">')
    assert not INLINE_HANDLER.search('<input data-select-on-click value="x">')
    assert JS_URL.search('<a href="javascript:void(0)">')


def test_every_page_in_development_carries_the_csp_too(client):
    r = client.get("/accounts/login/")
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert "camera=()" in r.headers["Permissions-Policy"]


def test_the_served_static_storage_works_each_url_out_once_and_never_keeps_a_missing_one(tmp_path):
    """config.storage.StaticStorage (the storage when not in DEBUG): a name's URL is the manifest's, kept for the
    process; a name the manifest lacks raises as whitenoise's storage does, every time it is asked for."""
    from config.storage import StaticStorage

    manifest = {"version": "1.1", "paths": {"img/sprite.svg": "img/sprite.ab12.svg"}}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    storage = StaticStorage(location=tmp_path, base_url="/static/")
    assert storage.url("img/sprite.svg") == "/static/img/sprite.ab12.svg"
    storage.hashed_files["img/sprite.svg"] = "img/sprite.cd34.svg"  # (the manifest is not read again)
    assert storage.url("img/sprite.svg") == "/static/img/sprite.ab12.svg"
    assert storage.url("img/sprite.svg", force=True) == "/static/img/sprite.cd34.svg"
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("img/none.svg")
    storage.hashed_files["img/none.svg"] = "img/none.ef56.svg"
    assert storage.url("img/none.svg") == "/static/img/none.ef56.svg"
