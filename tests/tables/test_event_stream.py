"""``GET /api/stream/events`` (issue #32, point 2): the games under way and the challenges waiting first,
then gameStart, yourTurn, gameFinish, challenge, challengeCanceled and challengeDeclined as they happen; and
the stream ends when the client goes and when its token is revoked."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.models import ApiToken
from tables import challenges, services
from tables.models import Table
from tests.tables.test_consumers import setup_game
from tests.tables.test_streams import Stream, listeners, play_one, token_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def challenge(challenger, username):
    return challenges.create(challenger, username, "cosmic_crowns").pk


@pytest.fixture(autouse=True)
def quick_keep_alive(settings):
    settings.STREAM_KEEPALIVE_SECONDS = 0.2


async def events_of(user) -> Stream:
    """An event stream with nothing to open with, once it is open (its first keep-alive line read)."""
    stream = Stream("/api/stream/events", await token_of(user))
    assert await stream.open() == 200
    assert stream.headers[b"Content-Type"] == b"application/x-ndjson"
    assert await stream.line(timeout=10) == ""
    return stream


async def test_it_opens_with_the_games_under_way_and_the_challenges_waiting(alice, bob, charlie):
    table = await setup_game(alice, bob)
    waiting = await challenge(charlie, "alice")
    await challenge(alice, "charlie")  # (sent by alice: not one waiting for her answer)
    stream = Stream("/api/stream/events", await token_of(alice))
    assert await stream.open() == 200
    assert await stream.data() == {"type": "gameStart", "table": table.pk, "game": "cosmic_crowns"}
    opened = await stream.data()
    assert opened["type"] == "challenge" and opened["challenge"]["id"] == waiting
    assert opened["challenge"]["from"] == "charlie" and opened["challenge"]["to"] == "alice"
    assert await stream.line(timeout=10) == ""  # nothing more: a keep-alive line
    await stream.leave()


async def test_a_challenge_accepted_starts_a_game_that_is_followed_to_its_end(alice, bob):
    mine, theirs = await events_of(alice), await events_of(bob)
    pk = await challenge(bob, "alice")
    for stream in (mine, theirs):  # both people hear of it
        told = await stream.data()
        assert told["type"] == "challenge" and told["challenge"]["id"] == pk
    table = await sync_to_async(challenges.accept)(pk, alice)
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    for stream in (mine, theirs):
        assert await stream.data() == {"type": "gameStart", "table": table.pk, "game": "cosmic_crowns"}
    users = [(await sync_to_async(lambda i: table.seats.get(index=i).user)(i)) for i in (0, 1)]
    stream_of = {alice.pk: mine, bob.pk: theirs}
    turn = await stream_of[users[table.to_act[0]].pk].data()
    assert turn == {"type": "yourTurn", "table": table.pk, "game": "cosmic_crowns", "seq": 0}
    # The game is dealt at random: a move may leave the same person to act (a trick won with the round's
    # last card), and then nobody's turn begins. Play until the turn passes to the other person.
    awaited = users[table.to_act[0]]
    for _ in range(20):
        played = await play_one(table.pk, users)
        if users[played.to_act[0]] != awaited:
            break
    waiting = users[played.to_act[0]]
    assert waiting != awaited, "the turn never passed in 20 moves"
    turn = await stream_of[waiting.pk].data()
    assert turn == {"type": "yourTurn", "table": table.pk, "game": "cosmic_crowns", "seq": played.seq}
    await sync_to_async(services.vote_abort)(table.pk, alice)
    await sync_to_async(services.vote_abort)(table.pk, bob)
    for stream in (mine, theirs):
        event = await stream.data()
        assert event == {
            "type": "gameFinish",
            "table": table.pk,
            "game": "cosmic_crowns",
            "status": "aborted",
        }
    for stream in (mine, theirs):
        await stream.leave()


async def test_a_challenge_taken_back_or_declined_is_told(alice, bob):
    mine, theirs = await events_of(alice), await events_of(bob)
    taken_back = await challenge(bob, "alice")
    assert (await mine.data())["type"] == "challenge" and (await theirs.data())["type"] == "challenge"
    await sync_to_async(challenges.cancel)(taken_back, bob)
    assert await mine.data() == {"type": "challengeCanceled", "challenge": taken_back}
    declined = await challenge(bob, "alice")
    assert (await mine.data())["challenge"]["id"] == declined == (await theirs.data())["challenge"]["id"]
    await sync_to_async(challenges.decline)(declined, alice)
    assert await theirs.data() == {"type": "challengeDeclined", "challenge": declined}
    for stream in (mine, theirs):
        await stream.leave()


async def test_nobody_else_hears_of_it(alice, bob, charlie):
    outsider = await events_of(charlie)
    table = await setup_game(alice, bob)
    await play_one(table.pk, [alice, bob])
    await challenge(bob, "alice")
    assert [await outsider.line(timeout=5) for _ in range(2)] == ["", ""]  # keep-alive lines only
    await outsider.leave()


async def test_the_stream_ends_when_the_client_goes_or_the_token_is_revoked(alice):
    stream = await events_of(alice)
    assert listeners(f"user-{alice.pk}-api") == 1
    await stream.leave()
    assert listeners(f"user-{alice.pk}-api") == 0
    stream = await events_of(alice)
    await sync_to_async(lambda: ApiToken.objects.filter(user=alice).delete())()
    while (text := await stream.line(timeout=5)) is not None:
        assert text == ""
    assert listeners(f"user-{alice.pk}-api") == 0


async def test_it_needs_a_token():
    stream = Stream("/api/stream/events", None)
    assert await stream.open() == 401
