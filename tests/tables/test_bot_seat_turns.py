"""A bot playing a person's seat (after a timeout, a concession) plays its turns, not the person's: they are
not on the person's Your turn list, badge or API, no mail or push tells them, and their table page does not
say "Your turn"."""

from datetime import timedelta

import pytest

from accounts.models import ApiToken
from tables import notifications, services, worker, your_turn
from tables.context_processors import waiting_for
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def timed_out(alice, bob) -> tuple[Table, object]:
    """A two-player table with a clock whose awaited person timed out: a bot plays their seat now."""
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=3600)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    late = [alice, bob][table.to_act[0]]
    assert services.time_out(table.pk, now=table.deadline + timedelta(seconds=1))
    return Table.objects.get(pk=table.pk), late


def own_turn(alice, bob) -> Table:
    """A two-player table whose awaited person plays their own seat."""
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    return services.start_table(table.pk, alice)


def test_a_seat_a_bot_plays_is_not_the_persons_turn_anywhere(client_for, alice, bob):
    table, late = timed_out(alice, bob)
    assert Seat.objects.get(table=table, user=late).awaited  # the bot's move is awaited there
    assert your_turn.waiting_tables(late) == [] and your_turn.waiting_ids(late) == []
    assert waiting_for(late).turns == 0
    token = ApiToken.issue(late)[1]
    client = client_for(late)
    assert client.get("/api/your-turn", HTTP_AUTHORIZATION=f"Bearer {token}").json() == []
    assert f'data-table="{table.pk}"' not in client.get("/your-turn/").content.decode()
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-my-turn" not in page and 'class="your-turn"' not in page
    assert ">Your turn</span>" not in page  # (the seat bar's flag: "to play", the bot's turn)
    played = own_turn(alice, bob)
    who = [alice, bob][played.to_act[0]]
    assert ">Your turn</span>" in client_for(who).get(f"/tables/{played.pk}/").content.decode()


def test_the_turn_of_a_seat_a_bot_plays_tells_nobody(monkeypatch, alice, bob):
    table, late = timed_out(alice, bob)
    other = bob if late == alice else alice
    told = []
    monkeypatch.setattr(
        notifications,
        "turns_changed",
        lambda table, newly, others, stamps=None, publication=None: told.append((newly, others)),
    )
    for _ in range(12):  # the bot and the other person take turns
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            break
        if worker.play_bot_move(table.pk):
            continue
        state = table.engine.load(table.state)
        services.play_move(table.pk, other, table.engine.legal_moves(state, table.to_act[0])[0], table.seq)
    assert told, "the other person's turns are told"
    assert all(late not in newly and late not in others for newly, others in told)
