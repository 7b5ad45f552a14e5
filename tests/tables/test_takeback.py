"""Taking back a move within one's own turn: the log stays append-only and exact (CONTRACTS §2 takeback)."""

import json

import pytest

from accounts.models import ApiToken
from tables import history, services, social
from tables.models import Move, Table
from tests.tables.tally import tally  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(tally, started_table, alice, bob):  # noqa: F811
    return started_table("tally", [alice, bob], seed=7)


def play(table, user, kind):
    table.refresh_from_db()
    return services.play_move(table.pk, user, {"type": kind}, table.seq).seq


def state_of(table):
    table.refresh_from_db()
    return table.engine.load(table.state)


def test_marks_walk_back_to_the_start_of_the_turn_and_never_further(game, alice, bob):
    play(game, alice, "mark")
    play(game, alice, "end")
    start_of_turn = state_of(game)
    play(game, bob, "mark")
    play(game, bob, "mark")
    assert state_of(game)["marks"] == [1, 2]
    seq = services.take_back(game.pk, bob, 4).seq
    assert seq == 5 and state_of(game)["marks"] == [1, 1]
    services.take_back(game.pk, bob, 5)
    assert state_of(game) == start_of_turn  # the state before the taken-back moves, exactly
    with pytest.raises(services.Conflict, match="no move of yours"):
        services.take_back(game.pk, bob, 6)  # alice's "end" is not his, and it passed the turn
    assert state_of(game) == services.rebuild_state(Table.objects.get(pk=game.pk))


def test_a_take_back_is_a_row_of_the_log_and_seq_keeps_counting(game, alice):
    play(game, alice, "mark")
    services.take_back(game.pk, alice, 1)
    rows = list(Move.objects.filter(table=game).order_by("seq"))
    assert [(r.seq, r.move, r.cancels) for r in rows] == [
        (0, {"type": "mark"}, None),
        (1, {"type": "take_back"}, 0),
    ]
    assert rows[0].undoable and not rows[1].undoable


def test_a_stale_seq_or_another_seat_is_refused(game, alice, bob, charlie):
    play(game, alice, "mark")
    with pytest.raises(services.Conflict, match="moved on"):
        services.take_back(game.pk, alice, 0)
    with pytest.raises(services.Conflict, match="no move of yours"):
        services.take_back(game.pk, bob, 1)
    with pytest.raises(services.Forbidden):
        services.take_back(game.pk, charlie, 1)
    with pytest.raises(services.BadRequest):
        services.take_back(game.pk, alice, "1")


def test_a_move_that_drew_at_random_stays_even_where_the_engine_would_allow_it(game, tally, alice):  # noqa: F811
    tally.permissive = True
    play(game, alice, "roll")
    assert not Move.objects.get(table=game, seq=0).undoable
    with pytest.raises(services.Conflict):
        services.take_back(game.pk, alice, 1)


def test_a_move_that_passed_the_turn_cannot_be_taken_back(game, alice):
    play(game, alice, "mark")
    play(game, alice, "end")
    assert not Move.objects.get(table=game, seq=1).undoable
    with pytest.raises(services.Conflict):
        services.take_back(game.pk, alice, 2)


def test_replays_exports_and_the_moves_api_tell_the_take_back(game, alice, bob, client):
    play(game, alice, "mark")
    play(game, alice, "mark")
    services.take_back(game.pk, alice, 2)
    play(game, alice, "end")
    for _ in range(3):
        play(game, bob if state_of(game)["turn"] == 1 else alice, "end")
    table = Table.objects.get(pk=game.pk)
    assert table.status == Table.FINISHED
    replay = history.Replay.of(table)
    states = list(replay.states())
    assert states[2]["marks"] == [2, 0] and states[3]["marks"] == [1, 0]  # the take-back, step by step
    assert states[-1] == services.rebuild_state(table)
    export = history.export(table)
    assert [m["move"]["type"] for m in export["moves"]] == ["mark", "end", "end", "end", "end"]
    assert history.check_export(export).reproduces
    token = ApiToken.issue(alice)[1]
    rows = client.get(f"/api/tables/{table.pk}/moves", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [r.get("taken_back", False) for r in rows[:3]] == [False, True, False]
    assert rows[2]["move"] == {"type": "take_back"}


def test_the_api_takes_back_and_refuses_as_the_contract_says(game, alice, bob, client):
    def post(user, body):
        token = ApiToken.issue(user)[1]
        r = client.post(
            f"/api/tables/{game.pk}/takeback",
            data=json.dumps(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        return r.status_code, r.json()

    play(game, alice, "mark")
    assert post(alice, {"seq": 0})[0] == 409  # stale
    assert post(bob, {"seq": 1})[0] == 409
    assert post(alice, {"seq": "x"})[0] == 400
    assert post(alice, {"seq": 1}) == (200, {"seq": 2})
    assert post(alice, {"seq": 2})[0] == 409  # nothing left to take back


def test_only_the_mover_is_offered_undo(game, alice, bob):
    from tables.rendering import Snapshot

    play(game, alice, "mark")
    table = Table.objects.get(pk=game.pk)
    assert Snapshot.read(table).context(alice, "en")["takeback_seq"] == 0
    assert Snapshot.read(table).context(bob, "en")["takeback_seq"] is None
    play(game, alice, "end")
    assert Snapshot.read(Table.objects.get(pk=game.pk)).context(alice, "en")["takeback_seq"] is None


def test_the_undo_view_answers_with_the_movers_frame(started_table, alice, bob, client_for, monkeypatch):
    """A real game (no board template is needed for the fake one): Five Crowns whose discard draw is made
    undoable for the test."""
    from rules.five_crowns.engine import FiveCrowns

    monkeypatch.setattr(FiveCrowns, "takeback_moves", frozenset({"draw"}))
    monkeypatch.setattr(
        FiveCrowns, "can_take_back", lambda self, b, s, m, a: m == {"type": "draw", "source": "discard"}
    )
    table = started_table("five_crowns", [alice, bob])
    users = [alice, bob]
    seat = table.to_act[0]
    before = table.engine.load(table.state)
    c = client_for(users[seat])
    page = c.get(f"/tables/{table.pk}/").content.decode()
    assert 'hx-confirm="This move' not in page  # nothing to undo yet: no move asks first
    assert "Moves that show nothing can be undone within your turn" in page  # said once, in the prompt
    services.play_move(table.pk, users[seat], {"type": "draw", "source": "discard"}, 0)
    page = c.get(f"/tables/{table.pk}/").content.decode()
    assert "/takeback/" in page and ">Undo<" in page
    # The discards would lock it in: the page asks first (static/js/site.js, from the page's list of the moves
    # that can be undone; tests/e2e/test_takeback_confirm.py), and the buttons read as they did before.
    assert 'data-takeback-moves="draw"' in page
    assert 'data-takeback-warning="This move cannot be taken back. Play it?"' in page
    assert "hx-confirm" not in page.split('class="board"')[1].split("</section>")[0]
    assert "/takeback/" not in client_for(users[1 - seat]).get(f"/tables/{table.pk}/").content.decode()
    r = c.post(f"/tables/{table.pk}/takeback/", {"seq": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and f'id="table-{table.pk}-board"' in r.content.decode()
    table.refresh_from_db()
    assert table.engine.load(table.state) == before and table.seq == 2
    r = c.post(f"/tables/{table.pk}/takeback/", {"seq": "2"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 409 and b"no move of yours" in r.content
    assert 'class="log-take_back"' in c.get(f"/tables/{table.pk}/").content.decode()


def test_a_cosmic_crowns_play_cannot_be_taken_back(started_table, alice, bob):
    table = started_table("cosmic_crowns", [alice, bob])
    users = [alice, bob]
    seat = table.to_act[0]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    services.play_move(table.pk, users[seat], move, 0)
    assert not Move.objects.get(table=table).undoable
    with pytest.raises(services.Conflict, match="no move of yours"):
        services.take_back(table.pk, users[seat], 1)


def test_may_take_back_needs_the_mover_still_awaited(tally):  # noqa: F811
    state = tally.setup(players=2, seed=1)
    after = tally.apply(state, 0, {"type": "end"})
    assert not social.may_take_back(tally, state, 0, {"type": "end"}, after)
    after = tally.apply(state, 0, {"type": "mark"})
    assert social.may_take_back(tally, state, 0, {"type": "mark"}, after)
