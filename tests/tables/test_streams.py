"""``GET /api/stream/tables/<id>`` (issue #32, point 2): a full line, a state line after every change, a finish
line, and the end; keep-alive lines; never a card the caller may not see; and the stream ends when the client
goes, when its token is revoked, and when the server stops."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import ApplicationCommunicator

from accounts.models import ApiToken
from config.asgi import application
from rules import bots
from tables import services
from tables.models import Table
from tests.tables.history_games import finished_game
from tests.tables.test_consumers import setup_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Stream:
    """One streamed answer, read line by line."""

    def __init__(self, path: str, token: str | None):
        headers = [(b"host", b"127.0.0.1")]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": "GET",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
        }
        self.comm = ApplicationCommunicator(application, scope)
        self.buffer = b""
        self.ended = False

    async def open(self) -> int:
        await self.comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.comm.receive_output(timeout=30)
        self.headers = dict(start["headers"])
        return start["status"]

    async def chunk(self, timeout: float = 30) -> None:
        message = await self.comm.receive_output(timeout=timeout)
        self.buffer += message.get("body", b"")
        if not message.get("more_body", False):
            self.ended = True

    async def line(self, timeout: float = 30) -> str | None:
        """The next line ("" for a keep-alive), or None once the answer has ended."""
        while b"\n" not in self.buffer:
            if self.ended:
                return None
            await self.chunk(timeout)
        text, _, self.buffer = self.buffer.partition(b"\n")
        return text.decode()

    async def data(self, timeout: float = 30) -> dict | None:
        """The next line that is not a keep-alive, within ``timeout`` seconds in all (keep-alive lines keep
        coming while nothing happens: a line that never comes fails the test instead of holding it)."""
        async with asyncio.timeout(timeout):
            while True:
                text = await self.line(timeout)
                if text != "":
                    return None if text is None else json.loads(text)

    async def leave(self) -> None:
        await self.comm.send_input({"type": "http.disconnect"})
        await self.comm.wait(timeout=10)


@sync_to_async
def token_of(user) -> str:
    return ApiToken.issue(user, "stream")[1]


async def new_game(alice, bob) -> Table:
    return await setup_game(alice, bob)  # (a sync_to_async function)


@sync_to_async
def play_one(table_id: int, users) -> dict:
    """The move the casual bot picks for the seat awaited, played through the services as its person."""
    table = Table.objects.get(pk=table_id)
    engine = table.engine
    state = engine.load(table.state)
    seat = table.to_act[0]
    move = bots.choose(
        table.game, engine.view(state, seat), engine.legal_moves(state, seat), "casual", table.seq
    )
    services.play_move(table_id, users[seat], move, table.seq)
    return Table.objects.get(pk=table_id)


@sync_to_async
def other_hand(table_id: int, seat: int) -> list[str]:
    table = Table.objects.get(pk=table_id)
    return table.engine.view(table.engine.load(table.state), seat)["hand"]


def listeners(group_prefix: str) -> int:
    layer = get_channel_layer()
    return sum(len(members) for name, members in layer.groups.items() if name.startswith(group_prefix))


async def test_a_player_gets_the_full_table_then_every_change_then_the_finish(alice, bob):
    table = await new_game(alice, bob)
    stream = Stream(f"/api/stream/tables/{table.pk}", await token_of(alice))
    assert await stream.open() == 200
    assert stream.headers[b"Content-Type"] == b"application/x-ndjson"
    full = await stream.data()
    assert full["type"] == "full" and full["seq"] == 0 and full["status"] == "playing"
    assert full["view"]["seat"] == 0 and full["view"]["hand"] == await other_hand(table.pk, 0)
    assert [s["user"] for s in full["seats"]] == ["alice", "bob"]
    assert full["to_act"] == table.to_act and bool(full["legal_moves"]) == (0 in table.to_act)
    for expected_seq in range(1, 7):
        played = await play_one(table.pk, [alice, bob])
        state = await stream.data()
        assert state["type"] == "state" and state["seq"] == expected_seq == played.seq
        assert set(state) == {"type", "seq", "status", "seats", "view", "legal_moves", "to_act"}
        assert state["view"]["hand"] == await other_hand(table.pk, 0)  # alice's own hand, never bob's
        assert state["to_act"] == played.to_act
        assert bool(state["legal_moves"]) == (0 in played.to_act)
    await sync_to_async(services.vote_abort)(table.pk, bob)
    offered = await stream.data()
    assert offered["type"] == "state" and offered["status"] == "playing"
    await sync_to_async(services.vote_abort)(table.pk, alice)
    last = await stream.data()
    assert last["type"] == "state" and last["status"] == "aborted"
    assert await stream.data() == {"type": "finish", "result": None}
    assert await stream.line() is None and stream.ended  # the answer ends with the game
    assert listeners(f"table-{table.pk}-") == 0


async def test_a_stream_whose_last_line_was_lost_is_sent_the_table_within_two_checks(alice, bob, monkeypatch):
    """On Redis a change's line can be lost with no line after it (tables.catch_up): a bot following its
    stream would wait for good. The process's check of its streams' revisions sends a stream still behind a
    ``state`` line of the table as it is; a stream that is not behind is sent nothing but keep-alives."""
    from tables import catch_up, live

    monkeypatch.setattr(catch_up, "CHECK_EVERY", 0.2)
    monkeypatch.setattr(catch_up, "may_lose_frames", lambda layer: True)  # (as on Redis)
    table = await new_game(alice, bob)
    stream = Stream(f"/api/stream/tables/{table.pk}", await token_of(alice))
    assert await stream.open() == 200
    assert (await stream.data())["seq"] == 0
    with pytest.raises(TimeoutError):  # (up to date: checked about five times, sent no line)
        await stream.data(timeout=1)
    monkeypatch.setattr(live.Publication, "run", lambda self: None)  # the move's lines are lost
    played = await play_one(table.pk, [alice, bob])
    state = await stream.data(timeout=5)
    assert state["type"] == "state" and state["seq"] == 1 == played.seq
    assert set(state) == {"type", "seq", "status", "seats", "view", "legal_moves", "to_act"}
    assert state["view"]["hand"] == await other_hand(table.pk, 0) and state["to_act"] == played.to_act
    with pytest.raises(TimeoutError):  # (caught up: nothing more)
        await stream.data(timeout=1)
    await stream.leave()
    assert not any(catch_up.checks.watched.values())


async def test_a_spectator_gets_the_spectators_view_and_no_hidden_card(alice, bob, charlie):
    table = await new_game(alice, bob)
    stream = Stream(f"/api/stream/tables/{table.pk}", await token_of(charlie))
    assert await stream.open() == 200
    full = await stream.data()
    assert full["view"]["seat"] is None and not full["view"].get("hand") and full["legal_moves"] == []
    for expected_seq in (1, 2, 3):
        await play_one(table.pk, [alice, bob])
        state = await stream.data()
        assert (
            state["seq"] == expected_seq and state["view"]["seat"] is None and not state["view"].get("hand")
        )
        text = json.dumps(state)
        for seat in (0, 1):
            for card in await other_hand(table.pk, seat):  # (a card in a hand now: seen by its seat alone)
                assert f'"{card}"' not in text
    await stream.leave()


async def test_an_idle_stream_sends_keep_alive_lines(alice, bob, settings):
    settings.STREAM_KEEPALIVE_SECONDS = 0.2
    table = await new_game(alice, bob)
    stream = Stream(f"/api/stream/tables/{table.pk}", await token_of(alice))
    assert await stream.open() == 200
    assert (await stream.data())["type"] == "full"
    assert [await stream.line(timeout=5) for _ in range(3)] == ["", "", ""]
    await stream.leave()


async def test_the_stream_ends_when_the_client_goes(alice, bob):
    table = await new_game(alice, bob)
    stream = Stream(f"/api/stream/tables/{table.pk}", await token_of(alice))
    assert await stream.open() == 200
    await stream.data()
    assert listeners(f"table-{table.pk}-s0-api") == 1
    await stream.leave()
    assert listeners(f"table-{table.pk}-s0-api") == 0


async def test_the_stream_ends_within_seconds_of_its_tokens_revocation(alice, bob, settings):
    settings.STREAM_KEEPALIVE_SECONDS = 0.2
    table = await new_game(alice, bob)
    token = await token_of(alice)
    stream = Stream(f"/api/stream/tables/{table.pk}", token)
    assert await stream.open() == 200
    await stream.data()
    assert await stream.line(timeout=5) == ""  # alive
    await sync_to_async(lambda: ApiToken.objects.get(user=alice).delete())()
    while (text := await stream.line(timeout=5)) is not None:
        assert text == ""
    assert stream.ended and listeners(f"table-{table.pk}-") == 0


async def test_a_finished_game_streams_its_end_at_once(alice, bob):
    table = await sync_to_async(finished_game)("five_crowns", [alice, bob])
    stream = Stream(f"/api/stream/tables/{table.pk}", await token_of(bob))
    assert await stream.open() == 200
    full = await stream.data()
    assert full["status"] == "finished" and full["to_act"] == [] and full["legal_moves"] == []
    finish = await stream.data()
    assert finish["type"] == "finish" and finish["result"]["winners"] == table.result["winners"]
    assert finish["result"]["scores"] == table.result["scores"]
    assert await stream.line() is None


async def test_refusals_are_json_errors_before_any_streaming(alice, bob, charlie):
    table = await new_game(alice, bob)
    for path, token, status in [
        (f"/api/stream/tables/{table.pk}", None, 401),
        ("/api/stream/tables/999999", await token_of(alice), 404),
    ]:
        stream = Stream(path, token)
        assert await stream.open() == status
        await stream.chunk()
        assert json.loads(stream.buffer)["error"]


async def test_forwarding_a_change_costs_no_query(alice, bob, charlie, monkeypatch):
    """Each open stream forwards the lines the change drew once (for its viewer): no query, in any thread,
    between the change's commit and every stream's line."""
    from django.db.backends import utils

    counted = []
    original = utils.CursorWrapper._execute_with_wrappers

    def counting(self, sql, *args, **kwargs):
        counted.append(sql)
        return original(self, sql, *args, **kwargs)

    monkeypatch.setattr(utils.CursorWrapper, "_execute_with_wrappers", counting)
    table = await new_game(alice, bob)
    streams = [Stream(f"/api/stream/tables/{table.pk}", await token_of(u)) for u in (alice, bob, charlie)]
    for stream in streams:
        assert await stream.open() == 200
        await stream.data()
    for seq in (1, 2, 3):
        await play_one(table.pk, [alice, bob])  # (its lines are sent before it returns)
        counted.clear()
        for stream in streams:
            assert (await stream.data())["seq"] == seq
        assert counted == []
    for stream in streams:
        await stream.leave()
