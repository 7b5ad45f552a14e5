"""HTTP through config.handlers.PooledASGIHandler: a request's sync work on a long-lived thread, the
connection kept, moves committed exactly once however the posts race."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.testing import HttpCommunicator
from django.core.signals import request_finished, request_started
from django.db.backends.signals import connection_created
from django.http import JsonResponse
from django.urls import include, path

from accounts.models import ApiToken
from config.asgi import application
from config.handlers import PooledASGIHandler
from tables import services
from tables.models import Move, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def call(app, method, path, token=None, body=None):
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    payload = json.dumps(body).encode() if body is not None else b""
    response = await HttpCommunicator(app, method, path, body=payload, headers=headers).get_response(
        timeout=30
    )
    return response["status"], json.loads(response["body"] or b"null")


@sync_to_async
def new_game(users, seed=20261124):
    table = services.create_table(users[0], "cosmic_crowns", len(users))
    for user in users[1:]:
        services.join_table(table.pk, user)
    return services.start_table(table.pk, users[0], seed=seed)


@sync_to_async
def tokens_of(users):
    return [ApiToken.issue(user, name="test")[1] for user in users]


@sync_to_async
def moves_of(table_id):
    return list(Move.objects.filter(table_id=table_id).order_by("seq").values_list("seq", flat=True))


@sync_to_async
def table_now(table_id):
    return Table.objects.get(pk=table_id)


class Watch:
    """The threads requests start on and the database connections opened, while in effect."""

    def __init__(self):
        self.threads, self.connections = [], []

    def started(self, **kwargs):
        self.threads.append(threading.current_thread().name)

    def connected(self, **kwargs):
        self.connections.append(threading.current_thread().name)

    def __enter__(self):
        request_started.connect(self.started)
        connection_created.connect(self.connected)
        return self

    def __exit__(self, *exc):
        request_started.disconnect(self.started)
        connection_created.disconnect(self.connected)


async def test_requests_run_on_one_long_lived_thread_with_one_connection(alice, bob):
    table = await new_game([alice, bob])
    (token, _) = await tokens_of([alice, bob])
    await call(application, "GET", f"/api/tables/{table.pk}", token)  # the thread's connection, if new
    with Watch() as watch:
        for _ in range(5):
            status, data = await call(application, "GET", f"/api/tables/{table.pk}", token)
            assert status == 200 and data["id"] == table.pk
    assert len(watch.threads) == 5
    # settings.SYNC_THREADS is 1 on SQLite (and the suite serves pages there too: tests/conftest.py)
    assert set(watch.threads) == {"django-sync-0_0"}
    assert watch.connections == []  # the connection opened by the first request served the next five


async def test_a_move_posted_through_the_handler_commits(alice, bob):
    table = await new_game([alice, bob])
    tokens = await tokens_of([alice, bob])
    seat = table.to_act[0]
    status, mine = await call(application, "GET", f"/api/tables/{table.pk}", tokens[seat])
    assert status == 200
    status, answer = await call(
        application,
        "POST",
        f"/api/tables/{table.pk}/moves",
        tokens[seat],
        {"move": mine["legal_moves"][0], "seq": mine["seq"]},
    )
    assert (status, answer) == (200, {"seq": 1})
    assert (await table_now(table.pk)).seq == 1
    assert await moves_of(table.pk) == [0]


async def test_racing_posts_of_one_move_apply_it_once_and_answer_409_to_the_rest(alice, bob):
    """On SQLite's one thread the racing posts queue; several threads racing on PostgreSQL: tests/services
    (and play_move's threads racing on an SQLite file: tests/test_config.py)."""
    app = application
    table = await new_game([alice, bob])
    tokens = await tokens_of([alice, bob])
    for seq in range(6):
        now = await table_now(table.pk)
        seat = now.to_act[0]
        _, mine = await call(app, "GET", f"/api/tables/{table.pk}", tokens[seat])
        body = {"move": mine["legal_moves"][0], "seq": seq}
        path = f"/api/tables/{table.pk}/moves"
        answers = await asyncio.gather(*(call(app, "POST", path, tokens[seat], body) for _ in range(5)))
        assert sorted(status for status, _ in answers) == [200, 409, 409, 409, 409]
        assert [answer for status, answer in answers if status == 200] == [{"seq": seq + 1}]
    assert await moves_of(table.pk) == list(range(6))  # none lost, none applied twice
    assert (await table_now(table.pk)).seq == 6


async def test_moves_at_many_tables_at_once_all_land(alice, bob):
    tables = [await new_game([alice, bob], seed=seed) for seed in range(4)]
    tokens = await tokens_of([alice, bob])

    async def play(table, moves=5):
        for seq in range(moves):  # (only HTTP while the tables play: the test's own reads would race them)
            _, seen = await call(application, "GET", f"/api/tables/{table.pk}", tokens[0])
            seat = seen["to_act"][0]
            _, mine = await call(application, "GET", f"/api/tables/{table.pk}", tokens[seat])
            body = {"move": mine["legal_moves"][0], "seq": seq}
            status, _ = await call(application, "POST", f"/api/tables/{table.pk}/moves", tokens[seat], body)
            assert status == 200

    await asyncio.gather(*(play(table) for table in tables))
    for table in tables:
        assert await moves_of(table.pk) == list(range(5))


class CountingExecutor(ThreadPoolExecutor):
    """A one-thread executor that counts the calls handed to it (each one a trip from the loop)."""

    def __init__(self):
        super().__init__(max_workers=1, thread_name_prefix="counted")
        self.trips = 0

    def submit(self, *args, **kwargs):
        self.trips += 1
        return super().submit(*args, **kwargs)


async def test_a_request_is_one_trip_to_its_thread_and_a_streamed_file_three(alice, bob):
    """request_started, the middleware and view, and request_finished in one trip (Django's own handler
    makes three); a streamed answer (a static file) also has its iterator read by Django (a trip) and is
    closed after it is sent (another), as in Django's handler."""
    handler = PooledASGIHandler(threads=1)
    executor = handler.executors[0] = CountingExecutor()
    table = await new_game([alice, bob])
    (token, _) = await tokens_of([alice, bob])
    finished = []

    def on_finished(**kwargs):
        finished.append(threading.current_thread().name)

    request_finished.connect(on_finished)
    try:
        status, data = await call(handler, "GET", f"/api/tables/{table.pk}", token)
        assert status == 200 and data["id"] == table.pk
        assert executor.trips == 1
        assert finished == ["counted_0"]  # (the connection checked on the request's own thread)
        status, _ = await call(handler, "GET", "/api/tables/999999", token)
        assert status == 404 and executor.trips == 2 and len(finished) == 2
        css = await streamed("/static/css/site.css", handler)
        assert css["status"] == 200 and b"{" in css["body"]
        assert executor.trips == 5 and finished[2:] == ["counted_0"]
    finally:
        request_finished.disconnect(on_finished)
        executor.shutdown()


async def test_the_pool_sends_a_request_to_its_least_busy_thread():
    handler = PooledASGIHandler(threads=2)
    handler.busy = [3, 1]
    seen = []
    release = asyncio.Event()

    async def fake_handle(scope, receive, send):
        seen.append(list(handler.busy))
        await release.wait()

    handler.handle = fake_handle
    task = asyncio.create_task(handler({"type": "http"}, None, None))
    await asyncio.sleep(0)
    release.set()
    await task
    assert seen == [[3, 2]]  # counted on the thread that had 1 request in flight
    assert handler.busy == [3, 1]


async def test_a_move_posted_through_the_handler_hands_its_frames_to_the_loop_and_they_arrive(
    alice, bob, monkeypatch
):
    """The thread that served the move does not wait for its frames to be sent (tables.live.send): the event
    loop sends them, and every seat's socket gets its own."""
    from tables import live, loops
    from tests.tables.test_consumers import connect, session_cookie

    handed = []
    start = loops._start_sending

    def watched(loop, layer, messages):
        handed.append([group for group, _ in messages])
        start(loop, layer, messages)

    monkeypatch.setattr(loops, "_start_sending", watched)
    table = await new_game([alice, bob])
    tokens = await tokens_of([alice, bob])
    sockets = []
    for user in (alice, bob):
        comm, ok = await connect(table.pk, await session_cookie(user))
        assert ok
        await comm.receive_from(timeout=20)
        sockets.append(comm)
    seat = table.to_act[0]
    _, mine = await call(application, "GET", f"/api/tables/{table.pk}", tokens[seat])
    body = {"move": mine["legal_moves"][0], "seq": 0}
    assert (await call(application, "POST", f"/api/tables/{table.pk}/moves", tokens[seat], body))[0] == 200
    for comm in sockets:
        assert 'data-seq="1"' in await comm.receive_from(timeout=20)
        await comm.disconnect()
    assert handed == [[live.table_group(table.pk, f"s{i}", "en") for i in (0, 1)]]


async def test_a_service_called_off_the_pool_sends_its_frames_before_returning(alice, bob, monkeypatch):
    from tables import loops
    from tables.loops import serving_loop

    monkeypatch.setattr(loops, "_start_sending", lambda *args: pytest.fail("handed to a loop"))
    table = await new_game([alice, bob])
    assert await sync_to_async(serving_loop)() is None
    mover = [alice, bob][table.to_act[0]]

    @sync_to_async
    def play():
        state = table.engine.load(table.state)
        move = table.engine.legal_moves(state, table.to_act[0])[0]
        return services.play_move(table.pk, mover, move, 0)

    assert (await play()).seq == 1


async def test_the_site_lets_the_event_loop_take_the_interpreter_within_a_millisecond():
    import sys

    from config import asgi

    assert sys.getswitchinterval() == asgi.SWITCH_INTERVAL <= 0.001


async def streamed(path, app=application) -> dict:
    """A GET answered in several body messages (HttpCommunicator wants a body in each)."""
    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": path, "raw_path": path.encode()}
    scope.update(query_string=b"", root_path="", scheme="http", headers=[(b"host", b"127.0.0.1")])
    comm = ApplicationCommunicator(app, scope)
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await comm.receive_output(timeout=30)
    body, more = b"", True
    while more:
        message = await comm.receive_output(timeout=30)
        body, more = body + message.get("body", b""), message.get("more_body", False)
    await comm.wait(timeout=30)  # (the app closes a streamed response after its last message)
    return {"status": start["status"], "body": body}


async def test_pages_and_static_files_go_through_the_whole_middleware_chain(alice):
    """The pooled handler runs the middleware in Django's sync mode: a page still gets its session, CSRF
    cookie, CSP and Permissions-Policy headers, and a static file is still served."""

    async def get(path, cookie=None):
        headers = [(b"host", b"127.0.0.1")] + ([(b"cookie", cookie.encode())] if cookie else [])
        return await HttpCommunicator(application, "GET", path, headers=headers).get_response(timeout=30)

    page = await get("/accounts/login/")
    headers = {name.lower(): value for name, value in page["headers"]}
    assert page["status"] == 200 and b"<form" in page["body"]
    assert b"script-src 'self'" in headers[b"content-security-policy"]
    assert b"camera=()" in headers[b"permissions-policy"]
    assert any(name.lower() == b"set-cookie" and b"csrftoken=" in value for name, value in page["headers"])
    css = await streamed("/static/css/site.css")  # (a file: streamed, its last message with no body)
    assert css["status"] == 200 and b"{" in css["body"]
    from tests.tables.test_consumers import session_cookie

    signed_in = await get("/", await session_cookie(alice))
    assert signed_in["status"] == 200 and b"alice" in signed_in["body"]


# A page that takes as long as the test wants (the test's URLconf: this module's ``urlpatterns``).
slow_page_started, slow_page_released = threading.Event(), threading.Event()


def slow_page(request):
    slow_page_started.set()
    slow_page_released.wait(60)
    return JsonResponse({"slow": True})


urlpatterns = [path("test-slow-page/", slow_page), path("", include("config.urls"))]


@pytest.mark.parametrize("page_threads", [2, 0])
async def test_a_slow_page_holds_up_no_move_posted_meanwhile(alice, bob, settings, page_threads):
    """On SQLite every change runs on one thread (settings.SYNC_THREADS); pages run on threads of their own
    (settings.PAGE_THREADS), so moves posted while a page takes its time are answered before it ends. With
    no page threads (0), the moves wait behind the page: what the page threads are for."""
    settings.ROOT_URLCONF = __name__
    settings.PAGE_THREADS = page_threads
    handler = PooledASGIHandler()
    slow_page_started.clear()
    slow_page_released.clear()
    table = await new_game([alice, bob])
    tokens = await tokens_of([alice, bob])
    try:
        page = asyncio.create_task(call(handler, "GET", "/test-slow-page/"))
        assert await asyncio.to_thread(slow_page_started.wait, 30)
        if page_threads == 0:
            now = await table_now(table.pk)
            state = now.engine.load(now.state)
            move = now.engine.legal_moves(state, now.to_act[0])[0]
            body = {"move": move, "seq": 0}
            posted = asyncio.create_task(
                call(handler, "POST", f"/api/tables/{table.pk}/moves", tokens[now.to_act[0]], body)
            )
            done, _ = await asyncio.wait([posted], timeout=2)
            assert not done  # queued behind the page on the one thread
            slow_page_released.set()
            assert (await posted) == (200, {"seq": 1}) and (await page)[0] == 200
            return
        with Watch() as watch:
            for seq in range(4):
                now = await table_now(table.pk)
                seat = now.to_act[0]
                _, mine = await call(handler, "GET", f"/api/tables/{table.pk}", tokens[seat])  # (a read, too)
                body = {"move": mine["legal_moves"][0], "seq": seq}
                answer = await asyncio.wait_for(
                    call(handler, "POST", f"/api/tables/{table.pk}/moves", tokens[seat], body), 30
                )
                assert answer == (200, {"seq": seq + 1})
        assert not page.done()  # every move answered while the page was still being served
        assert {name for name in watch.threads if name.startswith("django-sync")} == {"django-sync-0_0"}
        assert "django-page-1_0" in watch.threads  # the reads beside the slow page (on django-page-0)
        slow_page_released.set()
        assert (await page) == (200, {"slow": True})
        assert await moves_of(table.pk) == [0, 1, 2, 3]
    finally:
        slow_page_released.set()
        for executor in (*handler.executors, *handler.page_executors, *handler.password_executors):
            executor.shutdown(wait=False)
