"""Whatever a browser sends, pages and sockets answer without a server error (Hypothesis).

Forms: the new-table form, joining with a deck, the move form, and the deck builder's forms (posted to
through the client only). Sockets: connections to random paths, and random text frames sent on a
table's socket (the consumer ignores what a client writes). With tests/tables/test_api_fuzz.py this
sends well over 10,000 generated inputs per run.
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest
from asgiref.sync import async_to_sync
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.test import Client
from hypothesis import example, given
from hypothesis import strategies as st

from config.asgi import application
from rules import registry
from rules.chronica import starter_decks
from tables import services
from tests.tables.fuzzing import form_text, fuzz_settings, json_values

pytestmark = [pytest.mark.django_db]

GAMES = sorted(registry.games())
ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def numberish(values):
    return st.sampled_from(values) | st.integers(-3, 10).map(str) | form_text | st.integers().map(str)


@pytest.fixture
def unlimited(monkeypatch):
    """Hundreds of tables are created here on purpose: lift the per-account limits (tested on their own)."""
    monkeypatch.setattr(services, "CREATE_LIMIT", 10**9)
    monkeypatch.setattr(services, "MAX_UNFINISHED_TABLES", 10**9)


def assert_no_server_error(r):
    # The test client re-raises any exception a view lets escape; a 5xx answer is as bad.
    assert r.status_code < 500, (r.status_code, r.content[:300])


def login(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def browsers(alice, bob, charlie):
    """One logged-in client per persona, shared by a test's examples (logging in per example is slow)."""
    return {"alice": login(alice), "bob": login(bob), "charlie": login(charlie), "anonymous": Client()}


# --- Forms ----------------------------------------------------------------------------------


new_table_forms = st.fixed_dictionaries(
    {},
    optional={
        "players": numberish(["2", "3", "4", "6", "7", "0", "-1", "200000000", "1e3", " 3 "]),
        "bots": numberish(["0", "1", "2", "5", "200000000", "10000000000000", "-5"]),
        "bot_level": st.sampled_from(["casual", "strong", "", "god"]) | form_text,
        "move_time": numberish(["", "60", "120", "86400", "604800", "604801", "1000000000000", str(2**63)]),
        "private": st.sampled_from(["on", "off", ""]) | form_text,
        "mode": st.sampled_from(["easy", "hard"]) | form_text,
        "reverse": st.sampled_from(["on"]) | form_text,
        "keep_taken": st.sampled_from(["on"]) | form_text,
        "powers": st.sampled_from(["on"]) | form_text,
        "shared_deck": st.sampled_from(["on"]) | form_text,
        "deck": st.sampled_from(["starter:x", "deck:1", "deck:²", "deck:" + "9" * 30]) | form_text,
    },
)


@pytest.mark.slow
@fuzz_settings(200)
@given(game=st.sampled_from(GAMES) | st.from_regex(r"[a-z_]{1,12}", fullmatch=True), form=new_table_forms)
def test_the_new_table_form_never_fails(browsers, unlimited, game, form):
    r = browsers["alice"].post(f"/games/{game}/new/", form)
    assert_no_server_error(r)


@pytest.fixture
def chronica_table(alice):
    return services.create_table(alice, "chronica", 2)


@fuzz_settings(100)
@given(
    deck=st.sampled_from([f"starter:{d['code']}" for d in starter_decks()] + ["deck:1", "deck:", "starter:"])
    | form_text,
    htmx=st.booleans(),
)
def test_joining_with_any_deck_never_fails(bob, browsers, chronica_table, deck, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = browsers["bob"].post(f"/tables/{chronica_table.pk}/join/", {"deck": deck}, **headers)
    assert_no_server_error(r)
    if chronica_table.seats.filter(user=bob).exists():  # joined: leave again for the next example
        services.leave_table(chronica_table.pk, bob)


@pytest.fixture
def cosmic_game(alice, bob, started_table):
    return started_table("cosmic_crowns", [alice, bob])


# Deep nesting is left out: views.move (the lead's) does not catch RecursionError yet, see below.
move_fields = st.fixed_dictionaries(
    {},
    optional={
        "move": json_values.map(json.dumps)
        | st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "bid", "x"])},
            optional={"card": json_values, "tricks": json_values},
        ).map(json.dumps)
        | form_text,
        "seq": numberish(["0", "1", "-1", "", str(2**64)]),
    },
)


@fuzz_settings(200)
@given(form=move_fields, who=st.sampled_from(["alice", "charlie", "anonymous"]), htmx=st.booleans())
def test_the_move_form_never_fails(browsers, cosmic_game, form, who, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = browsers[who].post(f"/tables/{cosmic_game.pk}/move/", form, **headers)
    assert_no_server_error(r)


def test_the_move_form_answers_deeply_nested_json_with_a_400(alice, cosmic_game):
    r = login(alice).post(
        f"/tables/{cosmic_game.pk}/move/", {"move": "[" * 50_000 + "]" * 50_000, "seq": "0"}
    )
    assert r.status_code == 400


deck_forms = st.fixed_dictionaries(
    {},
    optional={
        "name": form_text,
        "op": st.sampled_from(["add", "remove", "import", "clear", "save", ""]) | form_text,
        "card": form_text,
        "code": form_text,
        "deck": st.sampled_from(["1", "9" * 30, "", "-1", "x", "²", "١٢"]) | st.integers().map(str),
        "cards": st.lists(form_text, max_size=40),
    },
)


def test_the_deck_draft_form_answers_a_superscript_deck_id_without_a_500(browsers):
    assert_no_server_error(browsers["alice"].post("/decks/draft/", {"deck": "²", "op": "clear"}))


@fuzz_settings(100)
@given(form=deck_forms, htmx=st.booleans())
def test_the_deck_forms_never_fail(browsers, form, htmx):
    """The deck builder belongs to accounts: posted to through the client only."""
    client = browsers["alice"]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for path in ("/decks/new/", "/decks/draft/"):
        assert_no_server_error(client.post(path, form, **headers))


# --- Sockets --------------------------------------------------------------------------------

ws_paths = (
    st.from_regex(r"/ws/tables/-?[0-9]{1,40}/?", fullmatch=True)
    | st.from_regex(r"/ws/(tables|notifications|x)?/?[a-z0-9%/._-]{0,20}", fullmatch=True)
    | st.text(st.characters(exclude_categories=("Cs",), exclude_characters="?#"), max_size=30).map(
        lambda t: "/" + t
    )
)


class RawPathCommunicator(WebsocketCommunicator):
    """A socket whose scope holds the path as a server reads it from the request line. (Channels' own
    communicator reads its path as a URL, so ``//x`` would be a host, and ``//[`` no URL at all.)"""

    def __init__(self, application, path: str, headers):
        self.scope = {"type": "websocket", "path": unquote(path), "query_string": b"", "headers": headers}
        self.scope["subprotocols"] = []
        ApplicationCommunicator.__init__(self, application, self.scope)
        self.response_headers = None


@fuzz_settings(300)
@given(path=ws_paths)
@example(path="//[")  # (a path Channels' own communicator could not even build: a search found it once)
def test_a_socket_on_any_path_connects_or_is_closed_cleanly(cosmic_game, path):
    async def attempt():
        comm = RawPathCommunicator(application, path, headers=ORIGIN)
        connected, _ = await comm.connect(timeout=20)
        if connected:
            await comm.receive_from(timeout=20)
            await comm.disconnect()

    async_to_sync(attempt)()


@pytest.mark.slow
@fuzz_settings(150)
@given(
    frames=st.lists(
        st.text(st.characters(exclude_categories=("Cs",)), max_size=200), min_size=30, max_size=80
    ),
    binary=st.lists(st.binary(max_size=64), max_size=3),
    seated=st.booleans(),
)
def test_random_frames_on_a_table_socket_are_refused_and_change_nothing(
    browsers, cosmic_game, frames, binary, seated
):
    """A table socket judges what it is sent as a move (CONTRACTS §3): each random message is answered with a
    refusal for that socket alone (400 not a move, 403 no seat), nothing raises, the socket stays open and
    the table does not change."""
    headers = list(ORIGIN)
    if seated:
        headers.append((b"cookie", f"sessionid={browsers['alice'].cookies['sessionid'].value}".encode()))

    async def chatter():
        comm = WebsocketCommunicator(application, f"/ws/tables/{cosmic_game.pk}/", headers=headers)
        connected, _ = await comm.connect(timeout=20)
        assert connected
        await comm.receive_from(timeout=20)  # the first frame
        for text in frames:  # send_input, not send_to: an empty frame is a frame too
            await comm.send_input({"type": "websocket.receive", "text": text})
        for data in binary:
            await comm.send_input({"type": "websocket.receive", "bytes": data})
        for _ in range(len(frames) + len(binary)):
            answer = await comm.receive_output(timeout=20)
            assert answer["type"] == "websocket.send", answer  # (not a close)
            assert re.search(r'data-refused="(400|403)"', answer["text"]), answer["text"][:300]
        assert await comm.receive_nothing(timeout=0.01)
        await comm.disconnect()

    seq = cosmic_game.seq
    async_to_sync(chatter)()
    cosmic_game.refresh_from_db()
    assert cosmic_game.seq == seq
