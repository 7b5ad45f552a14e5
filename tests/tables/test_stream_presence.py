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
    api_events.turn_began(Table.objects.get(pk=table.pk), [alice, bob])
    assert [g for g, m in layer.sent] == [f"user-{bob.pk}-api"]  # (alice has no event stream anywhere)


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
