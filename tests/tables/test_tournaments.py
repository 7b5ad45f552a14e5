"""Tournaments through the services (tables.tournaments): a whole Swiss tournament of 8 players over 3 rounds
and a short arena with house bots, played by bots at every seat through the worker, their standings checked
against the tables' results; joining, leaving, starting and their refusals."""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services, tournament_reads, tournaments, worker
from tables.models import Table, Tournament, TournamentBye, TournamentPlayer, TournamentTable

pytestmark = pytest.mark.django_db

GAME = "cosmic_crowns"


@pytest.fixture(autouse=True)
def no_pause(settings):
    settings.BOT_DELAY = 0


@pytest.fixture
def players(make_user):
    return [make_user(f"player{i}") for i in range(8)]


def new(user, **fields):
    data = {"game": GAME, "format": "swiss", "table_size": 2, "rounds": 3, "move_time": 3600, **fields}
    return tournaments.create(user, data)


def concede_everyone() -> None:
    """Persons concede each tournament table they sit at: a bot plays on, and its result counts."""
    for table in Table.objects.filter(tournament__isnull=False, status=Table.PLAYING):
        for seat in table.seats.filter(user__isnull=False, conceded=False):
            services.concede(table.pk, seat.user)


def play_out(now=None) -> None:
    """The worker's bots move until no table awaits one (its moves alone: a whole tick per move is slow)."""
    while True:
        due = worker.due_bot_tables(now or timezone.now())
        if not due:
            return
        for table_id in due:
            worker.play_bot_move(table_id)


def bots_play_everyone(now=None, limit=100):
    """Bots play every seat, and the worker ticks, until the tournaments have nothing more to do."""
    for _ in range(limit):
        concede_everyone()
        play_out(now)
        done = worker.tick(now)
        if not done["bot_moves"] and not any(done["tournaments"].values()):
            return
    raise AssertionError("the tournament did not settle")


def places_from_result(table: Table) -> list[int]:
    """Each seat's place, worked out here from the result alone: the winners first, then by score."""
    result = table.result
    low = table.engine.low_score_wins

    def key(seat):
        return (seat not in result["winners"], result["scores"][seat] if low else -result["scores"][seat])

    keys = sorted({key(s) for s in range(len(result["scores"]))})
    return [keys.index(key(s)) for s in range(len(result["scores"]))]


def expected_points(tournament: Tournament) -> tuple[dict, dict]:
    """(points, meetings) per entrant id, recomputed from every table's result and the byes."""
    points, games = defaultdict(float), defaultdict(int)
    for row in TournamentTable.objects.filter(tournament=tournament).select_related("table"):
        places = places_from_result(row.table)
        k = len(places)
        for seat, pk in enumerate(row.entrants):
            share = [k - 1 - p for p in range(k) if sorted(places)[p] == places[seat]]
            points[pk] += sum(share) / len(share)
            games[pk] += 1
    for bye in TournamentBye.objects.filter(tournament=tournament):
        points[bye.player_id] += tournament.table_size - 1
    return points, games


def test_a_swiss_tournament_of_eight_plays_its_three_rounds_to_the_end(alice, players):
    tournament = new(alice)
    for user in players:
        tournaments.join(tournament.pk, user)
    tournaments.start(tournament.pk, alice)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.RUNNING and tournament.round == 1
    first = [row.entrants for row in TournamentTable.objects.filter(tournament=tournament, round=1)]
    assert len(first) == 4 and sorted(itertools.chain(*first)) == sorted(
        TournamentPlayer.objects.values_list("pk", flat=True)
    )
    bots_play_everyone()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED and tournament.round == 3
    rows = list(TournamentTable.objects.filter(tournament=tournament))
    assert all(row.scored and row.table.status == Table.FINISHED for row in rows)
    assert all(row.table.tournament_id == tournament.pk for row in rows)
    met = set()
    for number in (1, 2, 3):
        seated = [pk for row in rows if row.round == number for pk in row.entrants]
        assert sorted(seated) == sorted(TournamentPlayer.objects.values_list("pk", flat=True))  # once a round
        for row in rows:
            if row.round == number:
                pair = frozenset(row.entrants)
                assert pair not in met  # no rematch: 8 players over 3 rounds can always avoid one
                met.add(pair)
    points, games = expected_points(tournament)
    entrants = {p.pk: p for p in TournamentPlayer.objects.filter(tournament=tournament)}
    for pk, player in entrants.items():
        assert player.points == points[pk] and player.games == games[pk] == 3
    # Round 2 pairs within score groups: the four winners of round 1 meet each other.
    winners = {pk for row in rows if row.round == 1 for pk in row.entrants if entrants_points(row, pk) == 1}
    for row in rows:
        if row.round == 2:
            assert (row.entrants[0] in winners) == (row.entrants[1] in winners)
    standing = tournament_reads.standings(tournament)
    assert [s["points"] for s in standing] == sorted((s["points"] for s in standing), reverse=True)
    assert sum(s["points"] for s in standing) == 12  # 4 tables x 1 point x 3 rounds
    by_name = {p.name: p.pk for p in entrants.values()}
    for s in standing:  # Buchholz: the points of every opponent met
        opponents = [o for row in rows for o in row.entrants if by_name[s["username"]] in row.entrants]
        opponents = [o for o in opponents if o != by_name[s["username"]]]
        assert s["tiebreak"] == sum(points[o] for o in opponents)
    for first_row, second_row in zip(standing, standing[1:], strict=False):
        if first_row["points"] == second_row["points"]:
            assert first_row["tiebreak"] >= second_row["tiebreak"]
    places = dict(TournamentPlayer.objects.filter(tournament=tournament).values_list("name", "place"))
    assert places == {s["username"]: s["rank"] for s in standing}  # kept at the end, for the player pages


def entrants_points(row: TournamentTable, pk: int) -> float:
    places = places_from_result(row.table)
    return 1.0 if places[row.entrants.index(pk)] == 0 and places.count(0) == 1 else 0.0


def test_an_odd_swiss_gives_one_bye_a_round_scored_as_a_win_and_never_twice(alice, players):
    tournament = new(alice, rounds=3)
    for user in players[:5]:
        tournaments.join(tournament.pk, user)
    tournaments.start(tournament.pk, alice)
    bots_play_everyone()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    byes = list(TournamentBye.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    assert len(byes) == 3 and len(set(byes)) == 3
    points, _ = expected_points(tournament)
    for player in TournamentPlayer.objects.filter(tournament=tournament):
        assert player.points == points[player.pk]


def test_house_bots_fill_places_and_make_the_tables_unrated(alice, bob):
    tournament = new(alice, bots={"count": 2, "level": "casual"}, rounds=1)
    tournaments.join(tournament.pk, alice)
    tournaments.join(tournament.pk, bob)
    tournaments.start(tournament.pk, alice)
    assert TournamentPlayer.objects.filter(tournament=tournament, user=None).count() == 2
    tables = Table.objects.filter(tournament=tournament)
    assert tables.count() == 2
    for table in tables:
        has_bot = table.seats.exclude(bot="").exists()
        assert table.rated is not has_bot


def test_a_short_arena_with_bots_seats_free_players_and_counts_games_started_before_the_end(
    alice, bob, charlie
):
    start = timezone.now()
    fields = {"format": "arena", "rounds": None, "minutes": 30, "move_time": 600, "bots": {"count": 1}}
    tournament = new(alice, **fields)
    for user in (alice, bob, charlie):
        tournaments.join(tournament.pk, user)
    tournaments.start(tournament.pk, alice, now=start)
    tournament.refresh_from_db()
    assert tournament.ends_at == start + timedelta(minutes=30)
    # Three persons and a bot: every free person seated at once, with the free players of closest points;
    # never a table of bots alone.
    assert Table.objects.filter(tournament=tournament, status=Table.PLAYING).count() == 2
    assert all(
        t.seats.filter(user__isnull=False).exists() for t in Table.objects.filter(tournament=tournament)
    )
    for _ in range(3):  # three waves of games, the players seated again as soon as they are free
        concede_everyone()
        play_out(start + timedelta(minutes=1))
        worker.tick(start + timedelta(minutes=1))
    under_way = list(Table.objects.filter(tournament=tournament, status=Table.PLAYING))
    assert under_way  # seated again after their last game
    bots_play_everyone(now=start + timedelta(minutes=31))  # the end passes while those games go on
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    rows = list(TournamentTable.objects.filter(tournament=tournament).select_related("table"))
    assert all(row.scored for row in rows) and len(rows) >= 8
    assert all(row.table.finished_at for row in rows if row.table in under_way)
    # The standings follow the tables: placing points, doubled for a first after two firsts in a row.
    expected, streak = defaultdict(float), defaultdict(int)
    for row in sorted(rows, key=lambda r: r.table.finished_at):
        places = places_from_result(row.table)
        for seat, pk in enumerate(row.entrants):
            won = places[seat] == 0 and places.count(0) == 1
            base = 1.0 if won else (0.5 if places[seat] == 0 else 0.0)
            expected[pk] += base * 2 if won and streak[pk] >= 2 else base
            streak[pk] = streak[pk] + 1 if won else 0
    for player in TournamentPlayer.objects.filter(tournament=tournament):
        assert player.points == expected[player.pk]
        assert player.playing_id is None


def test_joining_leaving_and_starting_are_refused_where_they_should_be(alice, bob, charlie):
    tournament = new(alice)
    tournaments.join(tournament.pk, bob)
    with pytest.raises(services.Conflict):
        tournaments.join(tournament.pk, bob)
    with pytest.raises(services.Forbidden):
        tournaments.start(tournament.pk, bob)
    with pytest.raises(services.Conflict, match="at least 2"):
        tournaments.start(tournament.pk, alice)
    tournaments.leave(tournament.pk, bob)
    assert not TournamentPlayer.objects.filter(tournament=tournament).exists()
    with pytest.raises(services.Conflict):
        tournaments.leave(tournament.pk, bob)
    tournaments.join(tournament.pk, bob)
    tournaments.join(tournament.pk, charlie)
    tournaments.start(tournament.pk, alice)
    with pytest.raises(services.Conflict):
        tournaments.start(tournament.pk, alice)
    with pytest.raises(services.Conflict):
        tournaments.join(tournament.pk, alice)
    tournaments.leave(tournament.pk, charlie)  # running: a withdrawal, the game under way conceded
    assert TournamentPlayer.objects.get(tournament=tournament, user=charlie).withdrawn
    table = Table.objects.get(tournament=tournament)
    assert table.seats.get(user=charlie).conceded


def test_a_scheduled_tournament_starts_itself_at_its_time(alice, bob):
    soon = timezone.now() + timedelta(minutes=5)
    tournament = new(alice, starts_at=soon.isoformat())
    tournaments.join(tournament.pk, alice)
    tournaments.join(tournament.pk, bob)
    assert tournaments.tick(soon - timedelta(seconds=1))["started"] == 0
    assert tournaments.tick(soon)["started"] == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.RUNNING and tournament.round == 1


def test_a_round_is_started_once_and_a_table_counted_once_when_ticks_repeat(alice, players):
    tournament = new(alice, rounds=2)
    for user in players[:4]:
        tournaments.join(tournament.pk, user)
    tournaments.start(tournament.pk, alice)
    assert tournaments._start_round(tournament, 0) is False  # round 1 is under way already
    row = TournamentTable.objects.filter(tournament=tournament).first()
    Table.objects.filter(pk=row.table_id).update(status=Table.ABORTED)
    assert tournaments._score(tournament, row) is True
    assert tournaments._score(tournament, row) is False
    assert TournamentTable.objects.filter(tournament=tournament).count() == 2
