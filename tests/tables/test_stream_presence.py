"""On Redis a change cannot see another process's groups: it skips the API stream work unless a stream is
counted open for the table or person in the cache (tables.stream_presence), in this process or another."""

from __future__ import annotations

import pytest
from channels.layers import InMemoryChannelLayer
from django.core.cache import cache

from tables import api_events, live, services, stream_presence
from tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


class RedisLike:
    """A layer that is not the in-memory one (so groups are unknown, as on Redis) and records each send."""

    def __init__(self):
        self.inner = InMemoryChannelLayer()
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        self.sent.append((group, message))

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def layer(monkeypatch):
    fake = RedisLike()
    monkeypatch.setattr(live, "get_channel_layer", lambda: fake)
    monkeypatch.setattr(api_events, "get_channel_layer", lambda: fake)
    cache.clear()
    yield fake
    cache.clear()


def a_move(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice, seed=20261123)
    return table


def play(table_id, users):
    from rules import bots

    table = Table.objects.get(pk=table_id)
    engine = table.engine
    state = engine.load(table.state)
    seat = table.to_act[0]
    move = bots.choose(table.game, engine.view(state, seat), engine.legal_moves(state, seat), "casual", 1)
    services.play_move(table_id, users[seat], move, table.seq)


def test_a_move_with_no_stream_open_sends_no_stream_message(alice, bob, layer):
    table = a_move(alice, bob)
    stream_presence.sockets.opened(f"table-{table.pk}-s1-en")  # (bob's page, in some process)
    layer.sent.clear()
    play(table.pk, {0: alice, 1: bob})
    assert [g for g, m in layer.sent if m["type"] == "table.frame"] == [f"table-{table.pk}-s1-en"]
    assert [g for g, m in layer.sent if m["type"] in ("table.stream", "api.event")] == []


def test_a_stream_open_in_another_process_still_gets_its_lines(alice, bob, layer):
    table = a_move(alice, bob)
    # What another process's open table stream and bob's event stream leave in the cache:
    cache.set(stream_presence.count_key(stream_presence.table_scope(table.pk)), 1, 60)
    cache.set(stream_presence.count_key(stream_presence.user_scope(bob.pk)), 1, 60)
    layer.sent.clear()
    play(table.pk, {0: alice, 1: bob})
    streams = {g for g, m in layer.sent if m["type"] == "table.stream"}
    assert streams == {f"table-{table.pk}-s0-api", f"table-{table.pk}-s1-api", f"table-{table.pk}-watch-api"}
    layer.sent.clear()
    api_events.tell([alice.pk, bob.pk], {"type": "yourTurn", "table": table.pk, "game": table.game, "seq": 1})
    assert [g for g, m in layer.sent] == [f"user-{bob.pk}-api"]  # (alice has no event stream anywhere)


def test_a_move_reads_who_listens_once_and_sends_its_frames_badges_and_events_in_one_batch(
    alice, bob, layer, monkeypatch
):
    """A move whose turn changes tells the two people's badges, and the API event stream of the one whose turn
    began if they have one open: who listens to all of it is read with the frames' listeners in one read of
    the counts, and it all leaves in one batch (tables.live.Also), the frames first. A person's badge socket
    is not their event stream (both are counted under ``user-<id>``, one among sockets, one among streams)."""
    from tables import loops

    table = a_move(alice, bob)
    for group in (f"table-{table.pk}-s0-en", f"table-{table.pk}-s1-en", f"user-{alice.pk}", f"user-{bob.pk}"):
        stream_presence.sockets.opened(group)  # (their pages and badges, in some process)
    cache.set(stream_presence.count_key(stream_presence.user_scope(alice.pk)), 1, 60)  # (alice's alone)
    batches, reads = [], []
    monkeypatch.setattr(
        loops, "send", lambda _layer, messages: batches.append([(g, m["type"]) for g, m in messages])
    )
    get_many = cache.get_many

    def counted_get_many(keys, *args, **kwargs):
        keys = list(keys)
        if any(key.startswith(("listening:", "streams:")) for key in keys):
            reads.append(keys)
        return get_many(keys, *args, **kwargs)

    monkeypatch.setattr(cache, "get_many", counted_get_many)
    began = []
    for _ in range(20):  # (until the turn has passed to each of them: two badges change each time)
        batches.clear()
        reads.clear()
        mover = Table.objects.get(pk=table.pk).to_act[0]
        play(table.pk, {0: alice, 1: bob})
        now = Table.objects.get(pk=table.pk).to_act[0]
        if now == mover:
            continue
        person = (alice, bob)[now]
        began.append(person)
        assert len(reads) == 1
        assert len(batches) == 1
        batch = batches[0]
        assert batch[:2] == [
            (f"table-{table.pk}-s0-en", "table.frame"),
            (f"table-{table.pk}-s1-en", "table.frame"),
        ]
        assert sorted(batch[2:4]) == sorted(
            [(f"user-{alice.pk}", "turn.changed"), (f"user-{bob.pk}", "turn.changed")]
        )
        assert batch[4:] == ([(f"user-{alice.pk}-api", "api.event")] if person == alice else [])
        if {alice, bob} <= set(began):
            break
    assert {alice, bob} <= set(began)


def test_a_stream_counts_while_open_and_stops_counting_when_it_ends(layer):
    scope = stream_presence.table_scope(99)
    assert stream_presence.open_scopes([scope]) == set()
    stream_presence.opened(scope)
    stream_presence.opened(scope)
    assert stream_presence.open_scopes([scope]) == {scope}
    stream_presence.closed(scope)
    assert stream_presence.open_scopes([scope]) == {scope}
    stream_presence.closed(scope)
    assert stream_presence.open_scopes([scope]) == set()


def test_sockets_count_per_group_and_a_change_draws_only_for_counted_groups(alice, bob, layer):
    """On Redis a page's socket counts itself in its group (tables.consumers): a change draws and sends the
    frames of those groups only, in one read of the counts; groups nobody counts (tournaments' pages, the
    API's streams) are not left out."""
    table = a_move(alice, bob)
    seat = f"table-{table.pk}-s0-en"
    assert live.listened(layer, [seat, f"table-{table.pk}-watch-fr", "tournament-3-en"]) == {
        "tournament-3-en"
    }
    stream_presence.sockets.opened(seat)
    assert live.has_listeners(layer, seat)
    assert not live.has_listeners(layer, f"table-{table.pk}-s0-fr")
    assert live.has_listeners(layer, f"table-{table.pk}-s0-api")  # (the streams count per table instead)
    stream_presence.sockets.closed(seat)
    assert not live.has_listeners(layer, seat)


def test_while_redis_is_out_of_reach_every_group_is_drawn(layer, monkeypatch):
    """The counts then are this process's own (config.cache answers from its memory): a socket of another
    process would be missed, so every viewer is drawn, as before any count."""
    from django.core import cache as caches

    class Degraded:
        degraded = True

        def __getattr__(self, name):
            return getattr(caches.cache, name)

    monkeypatch.setattr(caches, "cache", Degraded())
    assert live.listened(layer, ["table-1-s0-en", "user-4"]) == {"table-1-s0-en", "user-4"}
