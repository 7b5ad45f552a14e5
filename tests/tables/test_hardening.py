"""What a client sends never costs a 500, a traceback or the server's memory (issue #17, 2, 4 and 10)."""

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from accounts.models import ApiToken
from config.asgi import application
from tables import services
from tables.models import Table
from tables.texts import MOVE_TIMES

pytestmark = pytest.mark.django_db

POST_ENDPOINTS = ["token", "tables", "tables/{pk}/join", "tables/{pk}/start", "tables/{pk}/moves"] + [
    f"tables/{{pk}}/{action}" for action in ("concede", "reclaim", "abort")
]


@pytest.fixture
def token(alice):
    return ApiToken.issue(alice)[1]


def post(client, path, body, token=None, content_type="application/json"):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    if not isinstance(body, (str, bytes)):
        body = json.dumps(body)
    return client.post(path, data=body, content_type=content_type, **headers)


# --- Counts and clocks (2 and 4) -----------------------------------------------------------


@pytest.mark.parametrize("bots", ["10000000000000", "200000000", "-1", "6", "two"])
def test_the_form_refuses_an_absurd_number_of_bots_before_building_anything(client_for, alice, bots):
    r = client_for(alice).post("/games/cosmic_crowns/new/", {"players": "3", "bots": bots})
    assert r.status_code == 200 and 'role="alert"' in r.content.decode()
    assert not Table.objects.exists()


def test_the_api_refuses_more_bots_than_free_seats(client, token):
    r = post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2, "bots": [{}] * 200_000}, token)
    assert r.status_code == 400 and "more bots than free seats" in r.json()["error"]
    assert not Table.objects.exists()


@pytest.mark.parametrize("move_time", [59, 7 * 24 * 3600 + 1, 10**12, 2**62, 2**63, 2**80, -(2**63)])
def test_the_clock_stays_within_the_offered_range(client, client_for, alice, token, move_time):
    r = post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2, "move_time": move_time}, token)
    assert r.status_code == 400 and "seconds per move" in r.json()["error"]
    page = client_for(alice).post("/games/cosmic_crowns/new/", {"players": "2", "move_time": str(move_time)})
    assert page.status_code == 200 and "seconds per move" in page.content.decode()
    assert not Table.objects.exists()


def test_every_clock_the_form_offers_and_a_week_are_accepted_and_start(client, alice, bob, token):
    for move_time in [t for t in MOVE_TIMES if t] + [services.MOVE_TIME_MAX]:
        r = post(
            client, "/api/tables", {"game": "cosmic_crowns", "players": 2, "move_time": move_time}, token
        )
        assert r.status_code == 201
        services.join_table(r.json()["id"], bob)
        assert services.start_table(r.json()["id"], alice).deadline is not None
        Table.objects.filter(pk=r.json()["id"]).update(status=Table.FINISHED)


# --- Bodies the API cannot read (4) --------------------------------------------------------


@pytest.fixture
def game_pk(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    return services.start_table(table.pk, alice).pk


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS)
def test_deeply_nested_json_is_a_400_on_every_post_endpoint(client, token, game_pk, endpoint):
    r = post(client, f"/api/{endpoint.format(pk=game_pk)}", "[" * 50_000 + "]" * 50_000, token)
    assert r.status_code == 400 and r.json() == {"error": "The body is nested too deeply."}


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS)
def test_a_body_over_the_upload_limit_is_a_json_413(client, token, game_pk, endpoint, settings):
    body = json.dumps({"text": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)})
    r = post(client, f"/api/{endpoint.format(pk=game_pk)}", body, token)
    assert r.status_code == 413 and r.json() == {"error": "The body is too large."}


@pytest.mark.parametrize("username", ["al\x00ice", "\ud800", "x\udfff"])
def test_a_token_request_with_an_unstorable_username_is_a_400(client, alice, username):
    r = post(client, "/api/token", json.dumps({"username": username, "password": "p"}))
    assert r.status_code == 400 and r.json()["error"]


def test_a_nul_in_a_query_parameter_is_a_400(client, token):
    r = client.get("/api/history?user=al%00ice", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert r.status_code == 400 and "NUL" in r.json()["error"]


# --- Sockets on paths that lead nowhere (4) ------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "path", ["/ws/tables/abc/", "/ws/tables/1", "/ws/", "/", "/ws/tables/-1/", "/ws/x/%00/"]
)
async def test_a_socket_on_an_unknown_path_is_closed_without_a_traceback(path, caplog):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    comm = WebsocketCommunicator(application, path, headers=headers)
    assert await comm.connect(timeout=10) == (False, 4404)
    assert not [r for r in caplog.records if r.exc_info]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_on_a_table_id_out_of_range_is_closed_as_no_such_table():
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    comm = WebsocketCommunicator(application, f"/ws/tables/{10**30}/", headers=headers)
    assert await comm.connect(timeout=10) == (False, 4404)


# --- How many tables one account opens (10) ------------------------------------------------


def test_creating_tables_is_rate_limited_per_account(client, client_for, alice, bob, token):
    for _ in range(services.CREATE_LIMIT):
        assert post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2}, token).status_code == 201
    r = post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2}, token)
    assert r.status_code == 429 and "in the last minute" in r.json()["error"]
    page = client_for(alice).post("/games/cosmic_crowns/new/", {"players": "2"})
    assert page.status_code == 200 and "in the last minute" in page.content.decode()
    r = client_for(alice).post("/games/five_crowns/play-now/", follow=True)
    assert "in the last minute" in r.content.decode()
    assert Table.objects.filter(created_by=alice).count() == services.CREATE_LIMIT
    # Another account is not held back, and the limit lifts with the next window.
    assert services.create_table(bob, "cosmic_crowns", 2)
    cache.clear()
    assert post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2}, token).status_code == 201


def test_invalid_requests_do_not_use_up_the_rate_limit(client, token):
    for _ in range(services.CREATE_LIMIT + 5):
        assert post(client, "/api/tables", {"game": "cosmic_crowns", "players": 99}, token).status_code == 400
    assert post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2}, token).status_code == 201


def test_an_account_keeps_a_bounded_number_of_unfinished_tables(client, alice, token, monkeypatch):
    monkeypatch.setattr(services, "CREATE_LIMIT", 10**6)
    for _ in range(services.MAX_UNFINISHED_TABLES):
        services.create_table(alice, "cosmic_crowns", 2)
    r = post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2}, token)
    assert r.status_code == 429 and "finish or cancel some" in r.json()["error"]
    Table.objects.filter(pk=Table.objects.filter(created_by=alice).first().pk).update(status=Table.FINISHED)
    assert post(client, "/api/tables", {"game": "cosmic_crowns", "players": 2}, token).status_code == 201
