"""An address gets turn mail only once its owner opened the signed link sent to it."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from accounts import mail as outbox
from accounts.models import OutgoingMail

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana(django_user_model):
    return django_user_model.objects.create_user("dana", password="dana-pass-1234")


def link_in_last_mail() -> str:
    outbox.drain()
    return re.search(r"https?://\S+/accounts/email/verify/\S+/", mail.outbox[-1].body).group(0)


def set_email(client, address):
    return client.post("/accounts/profile/", {"email": address, "save_email": ""}, follow=True)


def test_saving_an_address_sends_a_link_that_verifies_it(client_for, dana):
    c = client_for(dana)
    page = set_email(c, "dana@example.com").content.decode()
    assert "is not verified yet" in page and "We sent a link to dana@example.com" in page
    dana.refresh_from_db()
    assert not outbox.is_verified(dana)
    assert OutgoingMail.objects.filter(to="dana@example.com", status=OutgoingMail.PENDING).count() == 1
    link = link_in_last_mail()
    assert mail.outbox[-1].to == ["dana@example.com"]
    page = c.get(link.split("127.0.0.1:8000", 1)[-1], follow=True).content.decode()
    assert "dana@example.com is verified" in page
    dana.refresh_from_db()
    assert outbox.is_verified(dana)


def test_changing_the_address_needs_a_new_verification(client_for, dana):
    c = client_for(dana)
    set_email(c, "dana@example.com")
    c.get(link_in_last_mail().split("127.0.0.1:8000", 1)[-1])
    dana.refresh_from_db()
    assert outbox.is_verified(dana)
    old_link = link_in_last_mail()
    outbox.cache.clear()  # past the one-link-a-minute limit
    set_email(c, "dana@example.org")
    dana.refresh_from_db()
    assert not outbox.is_verified(dana)
    page = c.get(old_link.split("127.0.0.1:8000", 1)[-1], follow=True).content.decode()
    assert "invalid, expired" in page  # the old link proves the old address only
    dana.refresh_from_db()
    assert not outbox.is_verified(dana)


def test_a_forged_link_verifies_nothing(client_for, dana):
    c = client_for(dana)
    set_email(c, "dana@example.com")
    link = link_in_last_mail().split("127.0.0.1:8000", 1)[-1]
    forged = link[:-6] + ("AAAAA/" if not link.endswith("AAAAA/") else "BBBBB/")
    r = c.get(forged, follow=True)
    assert r.status_code == 200 and "invalid, expired" in r.content.decode()
    assert not outbox.is_verified(dana)
    assert c.get("/accounts/email/verify/not-a-token/").status_code == 302


def test_the_profile_offers_to_resend_at_most_once_a_minute(client_for, dana):
    c = client_for(dana)
    set_email(c, "dana@example.com")
    page = c.post("/accounts/email/resend/", follow=True).content.decode()
    assert "please wait" in page and "Send the link again" in page
    assert OutgoingMail.objects.count() == 1
    outbox.cache.clear()
    page = c.post("/accounts/email/resend/", follow=True).content.decode()
    assert "We sent a link" in page
    assert OutgoingMail.objects.count() == 2
    assert c.get("/accounts/email/resend/").status_code == 405


def test_signing_up_with_an_address_sends_the_link(client):
    r = client.post(
        "/accounts/signup/",
        {
            "username": "erin",
            "email": "erin@example.com",
            "password1": "erin-pass-9876",
            "password2": "erin-pass-9876",
        },
    )
    assert r.status_code == 302
    assert OutgoingMail.objects.filter(to="erin@example.com", subject__contains="Confirm").exists()


def test_a_verified_address_shows_as_verified(client_for, alice):
    page = client_for(alice).get("/accounts/profile/").content.decode()
    assert "alice@example.com is verified" in page and "Send the link again" not in page
