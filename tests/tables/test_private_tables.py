"""A private table is reachable only by its players, its creator and through its invite link (issue #17, 5).

Anyone else is told there is no such table (404, socket closed 4404), so walking the sequential ids
learns nothing; public tables stay open to every spectator (CONTRACTS §3).
"""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.apps import apps as django_apps
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from config.asgi import application
from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db


def api(client, method, path, user=None, body=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(user)[1]}"} if user else {}
    if method == "GET":
        r = client.get(path, **headers)
    else:
        r = client.post(path, data=json.dumps(body or {}), content_type="application/json", **headers)
    return r.status_code, r.json()


@pytest.fixture
def private(alice):
    return services.create_table(alice, "cosmic_crowns", 2, private=True)


@pytest.fixture
def private_game(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2, private=True)
    services.join_table(table.pk, bob, invite=table.invite_token)
    return services.start_table(table.pk, alice, seed=7)


def finish(table, scores=(3, 1)):
    Table.objects.filter(pk=table.pk).update(
        status=Table.FINISHED,
        to_act=[],
        result={"scores": list(scores), "winners": [0], "replaced": []},
        finished_at=timezone.now(),
    )


def test_each_table_has_its_own_unguessable_invite_token(alice):
    tokens = {services.create_table(alice, "cosmic_crowns", 2, private=True).invite_token for _ in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 20 for t in tokens)


def test_the_migration_gives_existing_tables_distinct_tokens(alice):
    from importlib import import_module

    migration = import_module("tables.migrations.0003_table_invite_token")
    for _ in range(3):
        services.create_table(alice, "cosmic_crowns", 2)
    Table.objects.update(invite_token="same")
    migration.give_each_table_its_own_token(django_apps, None)
    assert len(set(Table.objects.values_list("invite_token", flat=True))) == 3


# --- The API -------------------------------------------------------------------------------


def test_a_stranger_cannot_join_a_private_table_by_its_id(client, private, charlie):
    assert api(client, "POST", f"/api/tables/{private.pk}/join", charlie) == (
        404,
        {"error": "No such table."},
    )
    assert private.seats.filter(user=charlie).count() == 0


@pytest.mark.parametrize("where", ["query", "body"])
def test_the_invite_token_lets_anyone_join_through_the_api(client, private, charlie, where):
    path, body = f"/api/tables/{private.pk}/join", {}
    if where == "query":
        path += f"?invite={private.invite_token}"
    else:
        body = {"invite": private.invite_token}
    assert api(client, "POST", path, charlie, body) == (200, {"seat": 1})


def test_a_wrong_invite_token_is_no_invite(client, private, charlie):
    for token in ("", "x", private.invite_token[:-1], "é" * 22, private.invite_token + "x"):
        status, _ = api(client, "POST", f"/api/tables/{private.pk}/join", charlie, {"invite": token})
        assert status == 404, token


def test_a_stranger_reads_nothing_of_a_private_table(client, private_game, charlie):
    pk = private_game.pk
    for path in (f"/api/tables/{pk}", f"/api/tables/{pk}/moves"):
        assert api(client, "GET", path, charlie) == (404, {"error": "No such table."})
    for action in ("start", "concede", "reclaim", "abort", "join"):
        assert api(client, "POST", f"/api/tables/{pk}/{action}", charlie)[0] == 404, action
    status, _ = api(client, "POST", f"/api/tables/{pk}/moves", charlie, {"move": {}, "seq": 0})
    assert status == 404
    # The same answers as for a table that does not exist: nothing tells the two apart.
    assert api(client, "GET", "/api/tables/999999", charlie) == (404, {"error": "No such table."})


def test_players_creator_and_invite_holders_read_a_private_table(client, private_game, alice, bob, charlie):
    pk = private_game.pk
    for user in (alice, bob):
        status, body = api(client, "GET", f"/api/tables/{pk}", user)
        assert status == 200 and body["invite"] == private_game.invite_token
        assert api(client, "GET", f"/api/tables/{pk}/moves", user)[0] == 200
    status, body = api(client, "GET", f"/api/tables/{pk}?invite={private_game.invite_token}", charlie)
    assert status == 200 and body["view"]["seat"] is None and "hand" not in body["view"]
    assert api(client, "GET", f"/api/tables/{pk}/moves?invite={private_game.invite_token}", charlie)[0] == 200


def test_refusals_to_players_of_a_private_table_stay_as_they_were(client, private_game, bob):
    assert api(client, "POST", f"/api/tables/{private_game.pk}/start", bob)[0] == 403  # not the creator
    assert api(client, "POST", f"/api/tables/{private_game.pk}/join", bob)[0] == 409  # not open


def test_a_public_table_is_still_open_to_everyone(client, alice, charlie):
    table = services.create_table(alice, "cosmic_crowns", 2)
    assert api(client, "GET", f"/api/tables/{table.pk}", charlie)[0] == 200
    assert "invite" not in api(client, "GET", f"/api/tables/{table.pk}", charlie)[1]
    assert client.get(f"/tables/{table.pk}/").status_code == 200
    assert api(client, "POST", f"/api/tables/{table.pk}/join", charlie) == (200, {"seat": 1})


def test_private_games_show_in_history_only_to_their_players(client, private_game, alice, bob, charlie):
    finish(private_game)
    public = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(public.pk, charlie)
    finish(services.start_table(public.pk, alice, seed=1))
    for user in (alice, bob):
        _, rows = api(client, "GET", "/api/history?user=alice", user)
        assert {r["id"] for r in rows} == {private_game.pk, public.pk}
    _, rows = api(client, "GET", "/api/history?user=alice", charlie)
    assert [r["id"] for r in rows] == [public.pk]
    _, rows = api(client, "GET", "/api/history?user=bob", charlie)
    assert rows == []


# --- Pages ---------------------------------------------------------------------------------


def test_a_stranger_gets_a_404_page_for_a_private_table(client, client_for, private_game, charlie):
    pk = private_game.pk
    assert client.get(f"/tables/{pk}/").status_code == 404
    stranger = client_for(charlie)
    assert stranger.get(f"/tables/{pk}/").status_code == 404
    for action in ("join", "leave", "start", "concede", "abort", "reclaim", "rematch"):
        assert stranger.post(f"/tables/{pk}/{action}/").status_code == 404, action


def test_the_creator_sees_the_full_invite_link_and_the_link_remembers_the_grant(
    client_for, private, alice, charlie
):
    page = client_for(alice).get(f"/tables/{private.pk}/").content.decode()
    link = f"/tables/{private.pk}/?invite={private.invite_token}"
    assert f"http://testserver{link}" in page
    guest = client_for(charlie)
    assert guest.get(link).status_code == 200
    assert guest.get(f"/tables/{private.pk}/").status_code == 200  # the session remembers the link
    guest.post(f"/tables/{private.pk}/join/")
    assert private.seats.get(index=1).user == charlie


def test_an_anonymous_visitor_with_the_link_may_watch(client, private):
    assert client.get(f"/tables/{private.pk}/?invite=wrong").status_code == 404
    assert client.get(f"/tables/{private.pk}/?invite={private.invite_token}").status_code == 200
    assert client.get(f"/tables/{private.pk}/").status_code == 200


def test_play_now_and_rematch_tables_are_private_and_fully_open_to_their_players(
    client, client_for, alice, bob, charlie, private_game
):
    mine = services.play_now(alice, "five_crowns")
    assert mine.private
    assert client_for(alice).get(f"/tables/{mine.pk}/").status_code == 200
    assert api(client, "GET", f"/api/tables/{mine.pk}", alice)[0] == 200
    assert client_for(charlie).get(f"/tables/{mine.pk}/").status_code == 404

    finish(private_game)
    rematch = services.offer_rematch(private_game.pk, alice)
    assert rematch.private
    for user in (alice, bob):
        assert client_for(user).get(f"/tables/{rematch.pk}/").status_code == 200
        assert api(client, "GET", f"/api/tables/{rematch.pk}", user)[0] == 200
    assert client_for(charlie).get(f"/tables/{rematch.pk}/").status_code == 404


def test_a_player_who_conceded_still_reaches_the_rematch(client_for, alice, bob, private_game):
    services.concede(private_game.pk, bob)
    finish(private_game)
    rematch = services.offer_rematch(private_game.pk, alice)
    assert not rematch.seats.filter(user=bob).exists()
    assert client_for(bob).get(f"/tables/{rematch.pk}/").status_code == 200


# --- The socket ----------------------------------------------------------------------------


async def open_socket(table_id, client=None):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, code = await comm.connect(timeout=20)
    if connected:
        await comm.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_private_table_refuses_strangers_with_4404(alice, bob, charlie):
    table = await sync_to_async(services.create_table)(alice, "cosmic_crowns", 2, private=True)

    @sync_to_async
    def logged_in(user):
        c = Client()
        c.force_login(user)
        return c

    assert await open_socket(table.pk) == (False, 4404)
    assert await open_socket(table.pk, await logged_in(charlie)) == (False, 4404)
    assert (await open_socket(table.pk, await logged_in(alice)))[0]

    guest = await logged_in(bob)
    await sync_to_async(guest.get)(f"/tables/{table.pk}/?invite={table.invite_token}")
    assert (await open_socket(table.pk, guest))[0]  # the page's grant reaches the socket's session

    anonymous = Client()
    await sync_to_async(anonymous.get)(f"/tables/{table.pk}/?invite={table.invite_token}")
    assert (await open_socket(table.pk, anonymous))[0]


def test_a_strangers_move_on_a_private_table_is_told_there_is_no_such_table(private_game, charlie):
    client = Client()
    client.force_login(charlie)
    move = {"move": json.dumps({"type": "play", "card": "eagle-2"}), "seq": "0"}
    answer = client.post(f"/tables/{private_game.pk}/move/", move, HTTP_HX_REQUEST="true")
    assert answer.status_code == 404
    assert Table.objects.get(pk=private_game.pk).seq == 0
