"""Inviting people: the full link with a copy button, invitations by username (dashboard, badge, mail),
private tables reached only through an invitation or the link; and one behaviour through web and API."""

import json

import pytest
from django.core.cache import cache

from accounts.models import ApiToken, OutgoingMail
from tables import services
from tables.context_processors import waiting_for
from tables.models import Invitation, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _hosts(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "cards.example.org"]


def test_the_page_shows_the_full_invite_link_with_a_copy_button(alice, client_for):
    table = services.create_table(alice, "cosmic_crowns", 2)
    page = client_for(alice).get(f"/tables/{table.pk}/", HTTP_HOST="cards.example.org").content.decode()
    assert f'value="http://cards.example.org/tables/{table.pk}/"' in page
    assert f'data-copy="#table-{table.pk}-invite-url"' in page


def test_the_link_honours_the_proxys_scheme_where_settings_trust_it(alice, client_for, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    table = services.create_table(alice, "cosmic_crowns", 2, private=True)
    page = client_for(alice).get(
        f"/tables/{table.pk}/", HTTP_HOST="cards.example.org", HTTP_X_FORWARDED_PROTO="https"
    )
    assert (
        f'value="https://cards.example.org/tables/{table.pk}/?invite={table.invite_token}"'
        in page.content.decode()
    )


def test_log_in_or_sign_up_is_only_for_anonymous_visitors(alice, bob, client, client_for):
    table = services.create_table(alice, "cosmic_crowns", 2)
    assert "sign up</a> to join" in client.get(f"/tables/{table.pk}/").content.decode()
    for user in (alice, bob):
        assert "sign up</a> to join" not in client_for(user).get(f"/tables/{table.pk}/").content.decode()
    assert "Join this table" in client_for(bob).get(f"/tables/{table.pk}/").content.decode()


def test_an_invitation_by_username_reaches_dashboard_badge_and_mail(alice, bob, client_for):
    table = services.create_table(alice, "cosmic_crowns", 2)
    r = client_for(alice).post(f"/tables/{table.pk}/invite/", {"username": "Bob"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "bob is invited" in r.content.decode()
    assert Invitation.objects.filter(table=table, user=bob, invited_by=alice).exists()
    assert waiting_for(bob).count == 1
    dashboard = client_for(bob).get("/your-turn/").content.decode()
    assert f'href="/tables/{table.pk}/"' in dashboard and "invited by alice" in dashboard
    mail = OutgoingMail.objects.get(to="bob@example.com")
    assert "alice invites you" in mail.subject and f"http://127.0.0.1:8000/tables/{table.pk}/" in mail.body
    services.join_table(table.pk, bob)
    assert waiting_for(bob).count == 0  # seated: the invitation is done
    assert "invited by alice" not in client_for(bob).get("/your-turn/").content.decode()


def test_no_mail_without_a_verified_address_and_none_twice(alice, charlie):
    table = services.create_table(alice, "cosmic_crowns", 3)
    services.invite(table.pk, alice, "charlie")
    services.invite(table.pk, alice, "charlie")
    assert not OutgoingMail.objects.exists()
    assert Invitation.objects.filter(user=charlie).count() == 1


def test_mail_links_follow_site_url(alice, bob, settings):
    settings.SITE_URL = "http://127.0.0.1:8123/"
    table = services.create_table(alice, "cosmic_crowns", 2, private=True)
    services.invite(table.pk, alice, "bob")
    body = OutgoingMail.objects.get().body
    assert f"http://127.0.0.1:8123/tables/{table.pk}/?invite={table.invite_token}" in body


@pytest.mark.parametrize(
    "username, error",
    [("nobody", "No player is called"), ("alice", "already"), ("", "username"), (None, "username")],
)
def test_bad_invitations_are_refused_with_a_message(alice, username, error):
    table = services.create_table(alice, "cosmic_crowns", 2)
    with pytest.raises(services.TableError, match=error):
        services.invite(table.pk, alice, username)


def test_only_a_player_invites_and_only_to_an_open_table(started_table, alice, bob, charlie):
    table = services.create_table(alice, "cosmic_crowns", 3)
    with pytest.raises(services.Forbidden):
        services.invite(table.pk, charlie, "bob")
    playing = started_table("cosmic_crowns", [alice, bob])
    with pytest.raises(services.Conflict, match="open"):
        services.invite(playing.pk, alice, "charlie")


def test_a_private_table_lets_in_the_invited_and_nobody_else(alice, bob, charlie, client_for):
    table = services.create_table(alice, "cosmic_crowns", 3, private=True)
    assert client_for(bob).get(f"/tables/{table.pk}/").status_code == 404
    services.invite(table.pk, alice, "bob")
    assert client_for(bob).get(f"/tables/{table.pk}/").status_code == 200
    assert services.join_table(table.pk, bob) == 1
    assert client_for(charlie).get(f"/tables/{table.pk}/").status_code == 404
    with pytest.raises(services.NotFound):
        services.join_table(table.pk, charlie)


def test_recent_opponents_are_offered_most_recent_first(started_table, alice, bob, charlie, client_for):
    started_table("cosmic_crowns", [alice, charlie])
    started_table("cosmic_crowns", [alice, bob])
    assert services.recent_opponents(alice) == ["bob", "charlie"]
    table = services.create_table(alice, "cosmic_crowns", 3)
    cache.clear()
    page = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert '{"username": "bob"}' in page and '{"username": "charlie"}' in page


def test_the_api_invites_by_username(alice, bob, client):
    table = services.create_table(alice, "cosmic_crowns", 2)
    r = client.post(
        f"/api/tables/{table.pk}/invite",
        data=json.dumps({"username": "bob"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(alice)[1]}",
    )
    assert r.status_code == 201 and r.json() == {"user": "bob"}


def test_an_api_table_with_bots_in_every_other_seat_starts_at_once_and_is_not_listed(alice, client):
    r = client.post(
        "/api/tables",
        data=json.dumps({"game": "cosmic_crowns", "players": 3, "bots": [{}, {}]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(alice)[1]}",
    )
    assert r.status_code == 201 and r.json()["status"] == "playing"
    assert f"/tables/{r.json()['id']}/" not in client.get("/").content.decode()


def test_the_lobby_never_lists_a_full_table_as_open(alice, bob, client):
    table = services.create_table(alice, "cosmic_crowns", 2)
    assert f"/tables/{table.pk}/" in client.get("/").content.decode()
    services.join_table(table.pk, bob)  # full, waiting for alice's Start
    assert Table.objects.get(pk=table.pk).status == Table.OPEN
    assert f"/tables/{table.pk}/" not in client.get("/").content.decode()
