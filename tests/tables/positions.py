"""Hand-built positions for board tests: read a started table's state, or give it one; sockets listening."""

from contextlib import contextmanager

from tables.models import Table


def state_of(table: Table) -> dict:
    table.refresh_from_db()
    return table.engine.load(table.state)


def put_state(table: Table, state: dict) -> Table:
    """Give a started table a hand-built position (a change like any other: its revision moves on, so that
    no process's room of the table holds the position before it)."""
    engine = table.engine
    table.state = engine.dump(state)
    table.to_act = engine.to_act(state)
    table.revision += 1
    table.save(update_fields=["state", "to_act", "revision"])
    return table


@contextmanager
def listening(table_id: int, seats, lang: str = "en"):
    """A socket in each given seat's group of the in-memory layer (``tables.live`` draws a frame only where
    one listens), taken away after."""
    from channels.layers import get_channel_layer

    from tables import live

    layer = get_channel_layer()
    groups = [live.table_group(table_id, live.viewer_key(seat), lang) for seat in seats]
    for group in groups:
        layer.groups.setdefault(group, {})[f"test.{group}"] = 10**12
    try:
        yield
    finally:
        for group in groups:
            layer.groups.pop(group, None)
