"""Hand-built positions for board tests: read a started table's state, or give it one."""

from tables.models import Table


def state_of(table: Table) -> dict:
    table.refresh_from_db()
    return table.engine.load(table.state)


def put_state(table: Table, state: dict) -> Table:
    """Give a started table a hand-built position."""
    engine = table.engine
    table.state = engine.dump(state)
    table.to_act = engine.to_act(state)
    table.save(update_fields=["state", "to_act"])
    return table
