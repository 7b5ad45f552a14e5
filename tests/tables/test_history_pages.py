"""``GET /api/v2/history`` pages through a whole history with a cursor (issue #32, point 6); the old
``GET /api/history`` keeps its shape."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from accounts.models import ApiToken
from tables.models import Seat, Table
from tests.tables.history_games import finished

pytestmark = pytest.mark.django_db


def many_finished(users, count: int, moments: int) -> list[int]:
    """``count`` finished tables of ``users`` over only ``moments`` distinct finishing times (many ties)."""
    start = datetime(2026, 1, 1, 12, tzinfo=UTC)
    tables = Table.objects.bulk_create(
        [
            Table(
                game="cosmic_crowns",
                players=len(users),
                status=Table.FINISHED,
                seed=1,
                result={"scores": [1, 0], "winners": [0]},
                finished_at=start + timedelta(minutes=n % moments),
            )
            for n in range(count)
        ]
    )
    Seat.objects.bulk_create([Seat(table=t, index=i, user=u) for t in tables for i, u in enumerate(users)])
    return [t.pk for t in tables]


@pytest.fixture
def api(alice):
    token = ApiToken.issue(alice, "pages")[1]
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def walk(api, query: str = "") -> tuple[list[dict], int]:
    rows, pages, cursor = [], 0, None
    while True:
        url = "/api/v2/history?" + query + (f"&after={cursor}" if cursor else "")
        r = api.get(url)
        assert r.status_code == 200, r.content
        body = r.json()
        assert set(body) == {"games", "next"}
        rows += body["games"]
        pages += 1
        cursor = body["next"]
        if cursor is None:
            return rows, pages
        assert pages < 100


def test_paging_through_more_than_200_games_has_no_duplicate_and_no_gap(api, alice, bob):
    ids = many_finished([alice, bob], 257, moments=7)  # ties: about 37 games finished at each moment
    rows, pages = walk(api, "limit=20")
    assert pages == 13
    assert len(rows) == 257 and len({r["id"] for r in rows}) == 257
    assert {r["id"] for r in rows} == set(ids)
    keys = [(r["finished_at"], r["id"]) for r in rows]
    assert keys == sorted(keys, reverse=True)  # newest first, then the higher id first
    default, default_pages = walk(api)
    assert [r["id"] for r in default] == [r["id"] for r in rows] and default_pages == 6  # 50 a page


def test_the_rows_have_the_old_calls_shape_and_the_old_call_stays(api, alice, bob):
    table = finished("cosmic_crowns", [alice, bob], [0], [10, 3], day=1)
    body = api.get("/api/v2/history").json()
    assert body == {
        "games": [
            {
                "id": table.pk,
                "game": "cosmic_crowns",
                "players": ["alice", "bob"],
                "scores": [10, 3],
                "winners": [0],
                "finished_at": "2026-03-01T12:00:00+00:00",
            }
        ],
        "next": None,
    }
    assert api.get("/api/history").json() == body["games"]
    many_finished([alice, bob], 210, moments=3)
    assert len(api.get("/api/history").json()) == 200  # the old call still stops at 200 rows


def test_the_filters_apply_on_every_page(api, alice, bob, charlie):
    many_finished([alice, bob], 30, moments=4)
    against_charlie = many_finished([alice, charlie], 25, moments=4)
    rows, _pages = walk(api, "opponent=charlie&limit=7")
    assert sorted(r["id"] for r in rows) == sorted(against_charlie)
    none, _pages = walk(api, "user=nobody")
    assert none == []


def test_a_page_ends_exactly_at_the_last_game(api, alice, bob):
    many_finished([alice, bob], 10, moments=2)
    first = api.get("/api/v2/history?limit=5").json()
    second = api.get(f"/api/v2/history?limit=5&after={first['next']}").json()
    assert len(second["games"]) == 5 and second["next"] is None
    assert api.get("/api/v2/history?limit=10").json()["next"] is None


def test_a_game_finished_while_paging_does_not_shift_the_pages(api, alice, bob):
    ids = many_finished([alice, bob], 12, moments=3)
    first = api.get("/api/v2/history?limit=6").json()
    finished("five_crowns", [alice, bob], [1], day=20)  # newer than them all: not in a later page
    second = api.get(f"/api/v2/history?limit=6&after={first['next']}").json()
    seen = [r["id"] for r in first["games"] + second["games"]]
    assert sorted(seen) == sorted(ids)


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "nonsense",
        "%%%",
        "a",
        b64("2026-01-01T12:00:00+00:00"),
        b64("2026-01-01T12:00:00+00:00|x"),
        b64("2026-01-01T12:00:00|5"),  # no time zone
        b64("yesterday|5"),
        b64("2026-01-01T12:00:00+00:00|99999999999999999999999"),
        b64("2026-01-01T12:00:00+00:00|-3"),
        base64.urlsafe_b64encode(b"\xff\xfe|1").decode(),
    ],
)
def test_a_bad_cursor_is_a_400_with_an_error(api, alice, bob, cursor):
    many_finished([alice, bob], 3, moments=1)
    r = api.get("/api/v2/history", {"after": cursor})
    assert r.status_code == 400 and "cursor" in r.json()["error"]


@pytest.mark.parametrize("limit", ["0", "201", "-1", "ten", "1.5"])
def test_a_bad_limit_is_a_400_with_an_error(api, limit):
    r = api.get("/api/v2/history", {"limit": limit})
    assert r.status_code == 400 and "limit" in r.json()["error"]


def test_it_needs_a_token():
    r = Client().get("/api/v2/history")
    assert r.status_code == 401 and r.json()["error"]
