"""A move takes the seats its table's last move drew (rendering.seats_now) instead of reading them: the
same seats, and never once a person's data changed (their language, their address, the person saved)."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import api_tokens
from accounts.preferences import set_language
from tables import live, services
from tables.models import Table
from tests.tables.positions import listening

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_user, started_table, django_capture_on_commit_callbacks):
    users = [make_user(f"p{i}") for i in range(3)]
    table = started_table("cosmic_crowns", users)

    def play():
        """One move, its frames drawn (every seat listens in English); the seat queries it made."""
        table = Table.objects.get(pk=table_id)
        seat = table.to_act[0]
        move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
        with CaptureQueriesContext(connection) as queries:
            with django_capture_on_commit_callbacks(execute=True):
                result = services.play_move(table_id, users[seat], move, table.seq)
        reads = sum('FROM "tables_seat"' in q["sql"] for q in queries.captured_queries)
        return reads, result.publication

    table_id = table.pk
    with listening(table_id, (0, 1, 2)):
        yield users, play


def test_a_move_after_a_move_reads_no_seats_and_sees_the_same_ones(game):
    users, play = game
    play()
    for _ in range(5):
        reads, publication = play()
        assert reads == 0
        table = Table.objects.get(pk=publication.table.pk)
        fresh = [(s.index, s.user_id, s.bot, s.awaited) for s in table.seats.order_by("index")]
        assert [(s.index, s.user_id, s.bot, s.awaited) for s in publication.seats] == fresh


def test_a_language_chosen_between_two_moves_is_the_next_frames(game):
    users, play = game
    play()
    set_language(users[1], "fr")
    with listening(Table.objects.get().pk, (1,), "fr"):  # (their page, reloaded in French)
        reads, publication = play()
        assert reads == 1  # read again: the person changed
        assert (live.viewer_key(1), "fr") in publication.frames  # their frame drawn in French, as chosen
        assert (live.viewer_key(1), "en") not in publication.frames
        assert play()[0] == 0


def test_a_change_in_another_process_is_seen_through_the_shared_stamp(game):
    _users, play = game
    play()
    cache.set(api_tokens.STAMP_KEY, "renewed by another process", None)
    assert play()[0] == 1
