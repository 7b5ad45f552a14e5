"""Finished games for the history, replay and export tests: persons and bots played to the end."""

from datetime import UTC, datetime

from rules import bots, registry
from tables import history, services
from tables.models import Seat, Table

GAMES = tuple(registry.games())


def play_out(table: Table, users_by_seat: dict, level: str = "casual", limit: int = 5000) -> Table:
    """Play every awaited seat with the casual bot's choice (persons through their own seat) to the end."""
    for _ in range(limit):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            return table
        engine = table.engine
        state = engine.load(table.state)
        seat = table.to_act[0]
        legal = engine.legal_moves(state, seat)
        move = bots.choose(table.game, engine.view(state, seat), legal, level, table.seq, seat=seat)
        user = users_by_seat.get(seat)
        services.play_move(table.pk, user, move, table.seq, bot_seat=None if user else seat)
    raise AssertionError(f"table {table.pk} did not finish in {limit} moves")


def finished_game(game: str, users: list, seed: int = 7) -> Table:
    """A game between ``users`` (seat by seat), dealt from ``seed`` and played to the end."""
    table = services.create_table(users[0], game, len(users), {})
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, users[0], seed=seed)
    return play_out(table, dict(enumerate(users)))


def finished(game, users, winners, scores=None, *, day=1, private=False, replaced=(), rated=True):
    """A finished table as the services leave one, rated as a finishing move rates it (None: a bot seat).

    For what reads only a table's seats and result: filters, records, ratings."""
    table = Table.objects.create(
        game=game,
        players=len(users),
        status=Table.FINISHED,
        private=private,
        rated=rated,
        seed=1,
        result={"scores": scores or [0] * len(users), "winners": winners, "replaced": list(replaced)},
        finished_at=datetime(2026, 3, day, 12, tzinfo=UTC),
    )
    seats = Seat.objects.bulk_create(
        [
            Seat(table=table, index=i, user=u, bot="" if u else "casual", replaced=i in replaced)
            for i, u in enumerate(users)
        ]
    )
    history.record_finished(table, seats)
    return table
