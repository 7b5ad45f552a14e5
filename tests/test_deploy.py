"""Production settings pass Django's deployment checklist."""

import os
import pathlib
import secrets
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_check(**extra):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **extra}
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_in_production(collected_static):
    out = run_check(
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="cards.example.com",
        DJANGO_STATIC_ROOT=str(collected_static),
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_production_refuses_to_start_without_a_secret_key():
    out = run_check(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="", DJANGO_ALLOWED_HOSTS="cards.example.com")
    assert out.returncode != 0 and "DJANGO_SECRET_KEY" in out.stderr
