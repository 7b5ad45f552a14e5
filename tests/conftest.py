"""Personas and table helpers (healthchecks' alice, bob and charlie)."""

from __future__ import annotations

import os

import pytest

PASSWORD = "correct-horse-battery-staple"


def pytest_configure(config):
    """Before any test module imports config.asgi: the suite drives ``worker.tick()`` itself, so no worker
    thread starts in this process (settings.WORKER_IN_PROCESS, read by config.asgi). And its pages run on
    the threads of the changes (settings.PAGE_THREADS = 0): the suite's database is SQLite in memory with a
    shared cache, where a read beside a write fails at once ("table is locked") instead of reading beside
    it as on the site's WAL file; tests/test_handlers.py builds handlers with page threads of their own."""
    from django.conf import settings

    settings.WORKER_IN_PROCESS = False
    settings.PAGE_THREADS = 0


def require_or_skip(flag: str, reason: str):
    """Fail when the environment demands the thing (CI), skip otherwise."""
    if os.environ.get(flag) == "1":
        pytest.fail(f"{reason} ({flag}=1)")
    pytest.skip(reason)


@pytest.fixture
def make_user(db, django_user_model):
    def make(username, **extra):
        """A player; an address given here counts as already verified (see accounts.mail)."""
        from accounts.models import VerifiedEmail

        user = django_user_model.objects.create_user(username=username, password=PASSWORD, **extra)
        if user.email:
            VerifiedEmail.objects.create(user=user, email=user.email)
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def bob(make_user):
    return make_user("bob", email="bob@example.com")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


@pytest.fixture
def client_for(client):
    from django.test import Client

    def make(user):
        c = Client()
        c.force_login(user)
        return c

    return make


@pytest.fixture
def started_table(db):
    """A started table of `game` with `users` seated in order, dealt from a fixed seed (reproducible)."""
    from tables import services

    def make(game, users, options=None, seed=20261122):
        table = services.create_table(users[0], game, len(users), options or {})
        for user in users[1:]:
            services.join_table(table.pk, user)
        return services.start_table(table.pk, users[0], seed=seed)

    return make


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """A STATIC_ROOT filled by `collectstatic` as production settings build it (hashed names, manifest)."""
    import pathlib
    import subprocess
    import sys

    root = tmp_path_factory.mktemp("staticfiles")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "collectstatic-only-" + "x" * 40,
        "DJANGO_STATIC_ROOT": str(root),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=pathlib.Path(__file__).resolve().parent.parent,
        env=env,
        check=True,
    )
    return root


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """PBKDF2 is slow on purpose; the suite's personas need no such cost (production keeps Django's hashers)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The log-in throttle counts in the cache: every test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _default_language():
    """A request leaves its language active in the thread (LocaleMiddleware activates, nothing deactivates), so
    a test that asked for French would make the next test's messages French: every test starts in the default."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def handed(monkeypatch):
    """The groups whose sends were handed to the event loop (tests of where moves send from); a thread that waits
    for the sends fails the test."""
    from tables import loops

    groups = []
    start = loops._start_sending

    def watched(loop, layer, messages):
        groups.extend(group for group, _ in messages)
        start(loop, layer, messages)

    monkeypatch.setattr(loops, "_start_sending", watched)
    monkeypatch.setattr(loops, "async_to_sync", lambda f: pytest.fail("a thread waited for the sends"))
    return groups
