"""Getting back into an account (issue #26, point 1): a reset link to the verified address only, through the
outbox, the same answer whether or not the address exists, throttled, single use, expiring, and a new password
signs the account out everywhere (sessions, API tokens)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.test import Client

from accounts import mail
from accounts.models import ApiToken, OutgoingMail, VerifiedEmail
from accounts.preferences import set_language
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase-42"


def ask(client, email):
    return client.post(
        "/api/password-reset", data=json.dumps({"email": email}), content_type="application/json"
    )


def link_in_sent_mail() -> str:
    """The reset link, read from the mail the worker sent (Django's test outbox)."""
    mail.drain()
    assert len(django_mail.outbox) == 1
    match = re.search(r"https?://\S+/accounts/password/reset/\S+/\S+/", django_mail.outbox[0].body)
    assert match, django_mail.outbox[0].body
    return match.group(0)


def set_new_password(client, link: str, password: str = NEW_PASSWORD):
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path, follow=True)  # Django puts the token in the session, then redirects
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else "/" + path
    return client.post(form_url, {"new_password1": password, "new_password2": password}), page


def test_it_sends_a_working_link_to_the_verified_address_through_the_outbox(client, alice):
    response = ask(client, "alice@example.com")
    assert response.status_code == 202
    assert OutgoingMail.objects.filter(to="alice@example.com").count() == 1
    assert django_mail.outbox == []  # nothing sent on the request's path
    link = link_in_sent_mail()
    assert django_mail.outbox[0].to == ["alice@example.com"]
    answer, _page = set_new_password(Client(), link)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/password/reset/complete/"
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert Client().login(username="alice", password=NEW_PASSWORD)


def test_it_answers_the_same_whether_or_not_the_address_exists(client, alice, charlie):
    known = ask(client, "alice@example.com")
    unknown = ask(client, "nobody@example.com")
    # charlie's address is set but never verified: no link goes to an address nobody proved.
    charlie.email = "charlie@example.com"
    charlie.save()
    unverified = ask(client, "charlie@example.com")
    assert known.status_code == unknown.status_code == unverified.status_code == 202
    assert known.content == unknown.content == unverified.content
    assert OutgoingMail.objects.count() == 1 and OutgoingMail.objects.get().to == "alice@example.com"


def test_the_page_form_answers_the_same_whether_or_not_the_address_exists(client, alice):
    page = client.get("/accounts/login/")
    assert b'href="/accounts/password/reset/"' in page.content
    known = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    unknown = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/accounts/password/reset/sent/"
    assert OutgoingMail.objects.count() == 1


def test_it_refuses_a_malformed_request_and_sends_nothing(client, alice):
    for body in ({}, {"email": 3}, {"email": "not an address"}, {"email": ""}):
        response = (
            ask(client, body.get("email"))
            if "email" in body
            else client.post("/api/password-reset", data="{}", content_type="application/json")
        )
        assert response.status_code == 400 and "error" in response.json()
    assert client.post("/api/password-reset", data="[", content_type="application/json").status_code == 400
    assert OutgoingMail.objects.count() == 0


def test_it_sends_the_link_in_the_accounts_language(client, alice):
    set_language(alice, "fr")
    ask(client, "alice@example.com")
    assert "mot de passe" in OutgoingMail.objects.get().subject


def test_it_throttles_per_address_and_per_account_with_the_same_answer(client, alice, settings):
    settings.PASSWORD_RESET_LIMIT = 2
    answers = {ask(client, "alice@example.com").content for _ in range(5)}
    assert len(answers) == 1  # the fifth answer is the first's: the limit tells nothing either
    assert OutgoingMail.objects.count() == 2
    # Another spelling of the same address counts for the account too.
    ask(client, "ALICE@example.com")
    assert OutgoingMail.objects.count() == 2
    # Per account: a new (verified) address does not reset the account's count.
    from django.core.cache import cache

    cache.clear()
    for _ in range(2):
        ask(client, "alice@example.com")
    alice.email = "alice@elsewhere.example"
    alice.save()
    VerifiedEmail.objects.filter(user=alice).update(email=alice.email)
    ask(client, "alice@elsewhere.example")
    assert OutgoingMail.objects.count() == 4
    # An unknown address is limited alike (and sends nothing in any case).
    assert {ask(client, "nobody@example.com").status_code for _ in range(5)} == {202}


def test_a_link_works_once(client, alice):
    ask(client, "alice@example.com")
    link = link_in_sent_mail()
    first, _page = set_new_password(Client(), link)
    assert first.status_code == 302
    again, page = set_new_password(Client(), link, "yet-another-passphrase-7")
    assert page.context["validlink"] is False
    assert again.status_code == 200 and b"invalid" in again.content
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD) and not alice.check_password("yet-another-passphrase-7")


def test_a_link_expires(client, alice, settings, monkeypatch):
    from django.contrib.auth.tokens import default_token_generator

    ask(client, "alice@example.com")
    link = link_in_sent_mail()
    later = default_token_generator._now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 1)
    monkeypatch.setattr(default_token_generator, "_now", lambda: later)
    _answer, page = set_new_password(Client(), link)
    assert page.context["validlink"] is False
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_reset_revokes_the_accounts_tokens_and_sessions(client, alice, bob, api_token_user):
    laptop = Client()
    laptop.force_login(alice)
    raw = ApiToken.issue(alice)[1]
    bobs = ApiToken.issue(bob)[1]
    assert laptop.get("/accounts/profile/").status_code == 200
    assert api_token_user(raw).status_code == 200

    ask(client, "alice@example.com")
    set_new_password(Client(), link_in_sent_mail())

    assert not ApiToken.objects.filter(user=alice).exists()
    assert api_token_user(raw).status_code == 401
    assert api_token_user(bobs).status_code == 200  # another account's token stands
    page = laptop.get("/accounts/profile/")
    assert page.status_code == 302 and page["Location"].startswith("/accounts/login/")


@pytest.fixture
def api_token_user(client):
    def call(raw):
        return Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raw}")

    return call


@pytest.fixture
def closed(monkeypatch):
    """The accounts whose sockets were told to close, as they are told."""
    from accounts import passwords

    told = []
    monkeypatch.setattr(passwords, "close_account_sockets", lambda user_id, keep=None: told.append(user_id))
    return told


def test_a_new_password_closes_the_sockets_only_once_it_commits(
    alice, closed, django_capture_on_commit_callbacks
):
    from django.db import transaction

    from accounts import passwords

    ApiToken.issue(alice)
    with pytest.raises(RuntimeError), transaction.atomic():
        passwords.revoke_access(alice)
        raise RuntimeError("the password change fails")
    assert closed == [] and ApiToken.objects.filter(user=alice).exists()  # nothing ended
    with django_capture_on_commit_callbacks(execute=True):
        assert passwords.revoke_access(alice) == 1
        assert closed == []  # not before the commit
    assert closed == [alice.pk] and not ApiToken.objects.filter(user=alice).exists()


@pytest.mark.parametrize("way", ["change", "reset"])
def test_the_password_pages_close_the_sockets_after_the_change_commits(
    client, alice, closed, django_capture_on_commit_callbacks, way
):
    ApiToken.issue(alice)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        if way == "change":
            client.force_login(alice)
            answer = client.post(
                "/accounts/password/",
                {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
            )
            assert answer.status_code == 302
        else:
            ask(client, "alice@example.com")
            link = link_in_sent_mail()
            assert set_new_password(Client(), link)[0].status_code == 302
        assert closed == []
    for callback in callbacks:
        callback()
    assert closed == [alice.pk] and not ApiToken.objects.filter(user=alice).exists()
