"""NUL and other control characters in account and deck input, against the real PostgreSQL (issue #17,
finding 4): PostgreSQL refuses NUL in text, so such input must be refused with a message before it
reaches the database, never answered with a 500."""

from __future__ import annotations

import json
import os

import pytest

from tests.conftest import require_or_skip
from tests.processes import PG, fresh_database, migrate, shell

pytestmark = pytest.mark.services

SCRIPT = r"""
import json
from django.contrib.auth.models import User
from django.test import Client
from accounts.models import ApiToken, Deck
from rules.chronica import starter_decks

cards = starter_decks()[0]["cards"]
alice = User.objects.create_user("alice")
deck = Deck.objects.create(owner=alice, name="Clean", cards=cards)
c = Client(raise_request_exception=False)
c.force_login(alice)
anon = Client(raise_request_exception=False)
answers = {
    "new deck, NUL name": c.post("/decks/new/", {"name": "My\x00deck", "cards": cards}).status_code,
    "new deck, NUL card": c.post("/decks/new/", {"name": "Mine", "cards": [*cards[:29], "rol\x00and"]}).status_code,
    "edit deck, NUL name": c.post(f"/decks/{deck.pk}/", {"name": "Re\x00named", "cards": cards}).status_code,
    "edit deck, NUL card": c.post(f"/decks/{deck.pk}/", {"name": "Clean", "cards": ["\x00"]}).status_code,
    "draft, NUL card": c.post("/decks/draft/", {"cards": ["a\x00"], "op": "add", "card": "ro\x00"}).status_code,
    "token, NUL name": c.post("/accounts/profile/", {"create_token": "1", "name": "b\x00t"}).status_code,
    "e-mail, NUL": c.post("/accounts/profile/", {"save_email": "1", "email": "a\x00@example.com"}).status_code,
    "sign-up, NUL username": anon.post(
        "/accounts/signup/", {"username": "d\x00ra", "password1": "a-long-pass-1", "password2": "a-long-pass-1"}
    ).status_code,
    "log-in, NUL username": anon.post("/accounts/login/", {"username": "al\x00ce", "password": "x"}).status_code,
    "api token, NUL username": anon.post(
        "/api/token", json.dumps({"username": "al\x00ce", "password": "x"}), content_type="application/json"
    ).status_code,
}
deck.refresh_from_db()
print(json.dumps({
    "answers": answers,
    "decks": Deck.objects.count(),
    "deck": [deck.name, deck.cards == cards],
    "tokens": ApiToken.objects.count(),
    "users": User.objects.count(),
}))
"""


@pytest.fixture(scope="module")
def postgres_env():
    try:
        import psycopg

        psycopg.connect(PG.format("test"), connect_timeout=3).close()
    except Exception:
        require_or_skip("REQUIRE_SERVICES", "PostgreSQL on 127.0.0.1:5432 is needed")
    with fresh_database("input") as name:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": PG.format(name)}
        env.pop("REDIS_URL", None)
        migrate(env)
        yield env


def test_nul_input_is_refused_with_a_message_on_postgresql(postgres_env):
    out = shell(postgres_env, SCRIPT)
    result = json.loads(out.strip().splitlines()[-1])
    answers = result["answers"]
    assert {what: status for what, status in answers.items() if status >= 500} == {}
    assert answers["new deck, NUL name"] == answers["new deck, NUL card"] == 400
    assert answers["edit deck, NUL name"] == answers["edit deck, NUL card"] == 400
    assert answers["api token, NUL username"] == 400
    assert result["decks"] == 1 and result["deck"] == ["Clean", True]
    assert result["tokens"] == 0 and result["users"] == 1
