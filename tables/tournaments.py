"""Tournaments: Swiss over days and arenas tonight (issue 33). Creating, joining, leaving, starting, and the
worker's step (``tick``): counting finished tables, starting Swiss rounds, seating arena players, finishing.

A tournament's tables are ordinary tables (``Table.tournament``), dealt here with the tournament's game,
options, clock and rating, played and timed out as any other (a seat that runs out of time is played by a
bot, so every round ends). The arithmetic (pairing, points, tie-breaks) is tables.pairing's.

Race safety, on SQLite and PostgreSQL alike: every change the worker makes to a tournament begins with a
write to its row (``revision + 1``), which PostgreSQL locks until commit and which SQLite (immediate
transactions) serialises, and is read afterwards; a round starts only by a conditional update of the round
number, a table is counted only by a conditional update of its ``scored`` flag, and an arena player is
seated only by a conditional update of their free ``playing`` slot. Two workers never start a round twice,
count a table twice or seat a player twice.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from rules.core import IllegalMove
from tables import pairing, ratings, services, tournament_reads
from tables.errors import BadRequest, Conflict, Forbidden, NotFound, TooMany
from tables.models import (
    BOT_NAMES,
    Seat,
    Table,
    Tournament,
    TournamentBye,
    TournamentPlayer,
    TournamentTable,
)

log = logging.getLogger(__name__)

MAX_ROUNDS = 30
MINUTES_MIN, MINUTES_MAX = 1, 14 * 24 * 60  # an arena: a minute to two weeks
MAX_PLAYERS_CAP = 1000
MAX_BOTS = 64
MAX_UNFINISHED = 10  # tournaments one account has open or running
DESCRIPTION_MAX = 2000


# --- Creating ----------------------------------------------------------------------------------------


def _whole(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(
            gettext("%(name)s is a whole number from %(low)d to %(high)d.")
            % {"name": name, "low": low, "high": high}
        )
    return value


def legal_sizes(engine, size: int, options: dict) -> list[int]:
    """The table sizes the game allows up to ``size`` with these options (the smaller ones fill the gaps)."""
    sizes = []
    for players in range(engine.min_players, size + 1):
        try:
            engine.setup(players=players, seed=0, options=options)
        except (ValueError, IllegalMove):
            continue
        sizes.append(players)
    return sizes


def _starts_at(value):
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise BadRequest(gettext("starts_at is a date and time in ISO 8601, or null."))
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise BadRequest(gettext("starts_at is a date and time in ISO 8601, or null.")) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if when < timezone.now() - timedelta(minutes=1):
        raise BadRequest(gettext("starts_at is in the past."))
    return when


def _bots(value) -> tuple[int, str]:
    if value is None:
        return 0, "casual"
    if not isinstance(value, dict):
        raise BadRequest(gettext('bots is an object like {"count": 2, "level": "casual"}.'))
    count = _whole(value.get("count", 0), "bots.count", 0, MAX_BOTS)
    level = value.get("level", "casual")
    if level not in services.BOT_LEVELS:
        raise BadRequest(
            gettext("A bot's level is one of %(levels)s.") % {"levels": ", ".join(services.BOT_LEVELS)}
        )
    return count, level


def create(user, data) -> Tournament:
    """A new open tournament from the API's fields (see the README's API section); BadRequest on bad input."""
    if not isinstance(data, dict):
        raise BadRequest(gettext("The body must be a JSON object."))
    engine = services.get_game(data.get("game"))
    form = data.get("format")
    if form not in (Tournament.SWISS, Tournament.ARENA):
        raise BadRequest(gettext('format is "swiss" or "arena".'))
    size = data.get("table_size")
    if not isinstance(size, int) or isinstance(size, bool):
        raise BadRequest(gettext("table_size must be a whole number."))
    move_time = data.get("move_time")
    if move_time is None:
        raise BadRequest(gettext("Give the clock: move_time, in seconds per move."))
    options = services.checked_settings(engine, size, data.get("options"), move_time)
    rounds = minutes = None
    if form == Tournament.SWISS:
        rounds = _whole(data.get("rounds"), "rounds", 1, MAX_ROUNDS)
        if data.get("minutes") is not None:
            raise BadRequest(gettext("minutes is for an arena; a Swiss tournament has rounds."))
    else:
        minutes = _whole(data.get("minutes"), "minutes", MINUTES_MIN, MINUTES_MAX)
        if data.get("rounds") is not None:
            raise BadRequest(gettext("rounds is for a Swiss tournament; an arena has minutes."))
    rated = data.get("rated", True)
    if not isinstance(rated, bool):
        raise BadRequest(gettext("rated must be true or false."))
    private = data.get("private", False)
    if not isinstance(private, bool):
        raise BadRequest(gettext("private must be true or false."))
    max_players = data.get("max_players")
    if max_players is not None:
        max_players = _whole(max_players, "max_players", engine.min_players, MAX_PLAYERS_CAP)
    bot_count, bot_level = _bots(data.get("bots"))
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > DESCRIPTION_MAX:
        raise BadRequest(
            gettext("The description is text of at most %(max)d characters.") % {"max": DESCRIPTION_MAX}
        )
    if "\x00" in description or not _encodable(description):
        raise BadRequest(gettext("The description holds characters that are not text."))
    starts_at = _starts_at(data.get("starts_at"))
    with transaction.atomic():
        unfinished = Tournament.objects.filter(
            created_by=user, status__in=[Tournament.OPEN, Tournament.RUNNING]
        ).count()
        if unfinished >= MAX_UNFINISHED:
            raise TooMany(
                gettext("You have %(count)d tournaments open or running: let some finish first.")
                % {"count": unfinished}
            )
        return Tournament.objects.create(
            game=engine.slug,
            format=form,
            table_size=size,
            rounds=rounds,
            minutes=minutes,
            move_time=move_time,
            options=options,
            rated=rated,
            max_players=max_players,
            starts_at=starts_at,
            bot_count=bot_count,
            bot_level=bot_level,
            description=description.strip(),
            private=private,
            created_by=user,
        )


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


# --- Joining, leaving, starting ----------------------------------------------------------------------


def _claimed(pk) -> Tournament:
    """The tournament, after a first write to its row (see the module's docstring): changes take turns."""
    try:
        claimed = Tournament.objects.filter(pk=pk).update(revision=F("revision") + 1)
    except (ValueError, TypeError):
        claimed = 0
    if not claimed:
        raise NotFound(gettext("No such tournament."))
    return Tournament.objects.get(pk=pk)


@transaction.atomic
def join(pk, user, invite=None) -> TournamentPlayer:
    """A private tournament is joined only through its invite (else: no such tournament)."""
    tournament = _claimed(pk)
    if not tournament_reads.may_see(tournament, user, invite):
        raise NotFound(gettext("No such tournament."))
    if tournament.status != Tournament.OPEN:
        raise Conflict(gettext("This tournament is no longer open."))
    if tournament.entrants.filter(user=user).exists():
        raise Conflict(gettext("You are in this tournament already."))
    if tournament.max_players and tournament.entrants.count() >= tournament.max_players:
        raise Conflict(gettext("This tournament is full."))
    player = TournamentPlayer.objects.create(tournament=tournament, user=user, name=user.username)
    _announce(tournament)
    return player


@transaction.atomic
def leave(pk, user) -> None:
    """Before the start: leave the list. Once running: withdraw (no more tables; a game under way is
    conceded to a bot, whose result still counts). 409 once finished."""
    tournament = _claimed(pk)
    player = tournament.entrants.filter(user=user).first()
    if player is None:
        raise Conflict(gettext("You are not in this tournament."))
    if tournament.status == Tournament.OPEN:
        player.delete()
    elif tournament.status == Tournament.RUNNING:
        if player.withdrawn:
            raise Conflict(gettext("You have withdrawn already."))
        player.withdrawn = True
        player.save(update_fields=["withdrawn"])
        for table_id in _tables_under_way(tournament, user):
            try:
                services.concede(table_id, user)
            except services.TableError:
                pass  # conceded already, or finished meanwhile
    else:
        raise Conflict(gettext("This tournament is over."))
    _announce(tournament)


def _tables_under_way(tournament: Tournament, user) -> list[int]:
    return list(
        Table.objects.filter(tournament=tournament, status=Table.PLAYING, seats__user=user).values_list(
            "pk", flat=True
        )
    )


@transaction.atomic
def pause(pk, user, paused: bool) -> bool:
    """An arena player stops being seated at new tables (or comes back)."""
    tournament = _claimed(pk)
    if tournament.format != Tournament.ARENA:
        raise Conflict(gettext("Only an arena has pauses; in a Swiss tournament, withdraw instead."))
    if tournament.status == Tournament.FINISHED:
        raise Conflict(gettext("This tournament is over."))
    updated = tournament.entrants.filter(user=user, withdrawn=False).update(paused=bool(paused))
    if not updated:
        raise Conflict(gettext("You are not playing in this tournament."))
    _announce(tournament)
    return bool(paused)


@transaction.atomic
def start(pk, user, now=None) -> Tournament:
    tournament = _claimed(pk)
    if user is None or tournament.created_by_id != user.pk:
        raise Forbidden(gettext("Only the tournament's creator can start it."))
    if tournament.status != Tournament.OPEN:
        raise Conflict(gettext("This tournament is not open."))
    _begin(tournament, now or timezone.now())
    return tournament


def _begin(tournament: Tournament, now) -> None:
    """House bots take their places, then the first round is paired (Swiss) or the arena opens."""
    _add_bots(tournament)
    engine = tournament.engine
    smallest = min(legal_sizes(engine, tournament.table_size, tournament.options))
    count = tournament.entrants.count()
    if count < smallest:
        raise Conflict(
            gettext("A tournament needs at least %(n)d players to start (it has %(count)d).")
            % {"n": smallest, "count": count}
        )
    tournament.status = Tournament.RUNNING
    tournament.started_at = now
    if tournament.format == Tournament.ARENA:
        tournament.ends_at = now + timedelta(minutes=tournament.minutes)
    tournament.save(update_fields=["status", "started_at", "ends_at"])
    if tournament.format == Tournament.SWISS:
        _start_round(tournament, 0)
    else:
        _seat_arena(tournament)
    _announce(tournament)


def _add_bots(tournament: Tournament) -> None:
    wanted = tournament.bot_count
    if tournament.max_players:
        wanted = min(wanted, max(0, tournament.max_players - tournament.entrants.count()))
    taken = set(tournament.entrants.values_list("name", flat=True))
    n = 0
    while wanted > 0:
        name = BOT_NAMES[n % len(BOT_NAMES)] + ("" if n < len(BOT_NAMES) else f" {n // len(BOT_NAMES) + 1}")
        name = f"{name} (bot)"
        n += 1
        if name in taken:
            continue
        TournamentPlayer.objects.create(tournament=tournament, bot=tournament.bot_level, name=name)
        wanted -= 1


# --- Tables -----------------------------------------------------------------------------------------


def _deal(tournament: Tournament, players: list[TournamentPlayer], round_number: int) -> Table:
    """A started table of the tournament, seat by seat in the order given."""
    table = Table.objects.create(
        game=tournament.game,
        players=len(players),
        options=dict(tournament.options),
        private=tournament.private,
        created_by=None,
        move_time=tournament.move_time,
        rated=tournament.rated and not any(p.bot for p in players),
        tournament=tournament,
    )
    Seat.objects.bulk_create(
        [Seat(table=table, index=i, user_id=p.user_id, bot=p.bot) for i, p in enumerate(players)]
    )
    TournamentTable.objects.create(
        tournament=tournament, table=table, round=round_number, entrants=[p.pk for p in players]
    )
    services.deal(table, list(table.seats.select_related("user").order_by("index")))
    return table


def _opponents(tournament: Tournament) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for seated in TournamentTable.objects.filter(tournament=tournament).values_list("entrants", flat=True):
        for pk in seated:
            met.setdefault(pk, set()).update(other for other in seated if other != pk)
    return met


def _start_round(tournament: Tournament, previous: int) -> bool:
    """Pair and deal round ``previous + 1``, once: the round number moves by a conditional update."""
    if not Tournament.objects.filter(pk=tournament.pk, round=previous).update(round=previous + 1):
        return False
    tournament.round = previous + 1
    players = list(tournament.entrants.filter(withdrawn=False))
    rating = tournament_reads.ratings_of(tournament, players)
    met = _opponents(tournament)
    entrants = [
        pairing.Entrant(
            key=p.pk,
            points=p.points,
            rating=rating[p.pk],
            opponents=frozenset(met.get(p.pk, ())),
            byes=p.byes,
        )
        for p in players
    ]
    sizes = legal_sizes(tournament.engine, tournament.table_size, tournament.options)
    if len(entrants) < min(sizes):  # everybody withdrew: nothing left to play
        _finish(tournament)
        return True
    paired = pairing.pair_round(entrants, tournament.table_size, sizes)
    by_pk = {p.pk: p for p in players}
    for keys in paired.tables:
        _deal(tournament, [by_pk[k] for k in keys], tournament.round)
    for key in paired.byes:
        TournamentBye.objects.create(tournament=tournament, player_id=key, round=tournament.round)
        TournamentPlayer.objects.filter(pk=key).update(
            points=F("points") + pairing.bye_points(tournament.table_size), byes=F("byes") + 1
        )
    return True


def _seat_arena(tournament: Tournament) -> int:
    """Seat free players at new tables, each free person with the free players of the closest points."""
    sizes = legal_sizes(tournament.engine, tournament.table_size, tournament.options)
    free = list(
        tournament.entrants.filter(withdrawn=False, paused=False, playing__isnull=True).order_by(
            "-points", "pk"
        )
    )
    seated = 0
    size = tournament.table_size
    while len(free) >= size and any(p.user_id for p in free):
        head = next(p for p in free if p.user_id)
        others = sorted((p for p in free if p is not head), key=lambda p: (abs(p.points - head.points), p.pk))
        group = [head, *others[: size - 1]]
        if size not in sizes:
            break
        with transaction.atomic():  # (a savepoint: a player seated meanwhile undoes this table alone)
            table = _deal(tournament, group, 0)
            claimed = TournamentPlayer.objects.filter(
                pk__in=[p.pk for p in group], playing__isnull=True
            ).update(playing=table)
            if claimed != len(group):
                transaction.set_rollback(True)
                break
        seated += 1
        free = [p for p in free if p not in group]
    return seated


# --- Counting results ----------------------------------------------------------------------------------


def _score(tournament: Tournament, pairing_row: TournamentTable) -> bool:
    """Count a finished (or aborted) table once: points by placing, the arena's streaks."""
    if not TournamentTable.objects.filter(pk=pairing_row.pk, scored=False).update(scored=True):
        return False
    table = pairing_row.table
    ids = pairing_row.entrants
    players = {p.pk: p for p in TournamentPlayer.objects.filter(pk__in=ids)}
    if table.status == Table.FINISHED and table.result:
        places = ratings.ranks(table)
        points = pairing.placing_points(places)
        firsts = pairing.sole_firsts(places)
    else:  # aborted: nobody scores
        points, firsts = [0.0] * len(ids), [False] * len(ids)
    for seat, pk in enumerate(ids):
        player = players.get(pk)
        if player is None:
            continue
        scored = points[seat]
        if tournament.format == Tournament.ARENA:
            scored, player.streak = pairing.arena_points(scored, firsts[seat], player.streak)
        player.points += scored
        player.games += 1
        if player.playing_id == table.pk:
            player.playing = None
        player.save(update_fields=["points", "games", "streak", "playing"])
    return True


def _finish(tournament: Tournament) -> None:
    """The end: each player's final place is kept (the player pages list it without working it out)."""
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.FINISHED, finished_at=timezone.now())
    tournament.status = Tournament.FINISHED
    players = {p.pk: p for p in TournamentPlayer.objects.filter(tournament=tournament)}
    for row in tournament_reads.standings(tournament):
        players[row["pk"]].place = row["rank"]
    for player in players.values():
        player.playing = None
    TournamentPlayer.objects.bulk_update(players.values(), ["place", "playing"])


# --- The worker's step ------------------------------------------------------------------------------


def tick(now=None) -> dict:
    """Everything due in every tournament: scheduled starts, finished tables counted, Swiss rounds started,
    arena players seated, tournaments finished. Safe in several workers at once (the module's docstring)."""
    now = now or timezone.now()
    done = {"started": 0, "scored": 0, "rounds": 0, "seated": 0, "finished": 0}
    due = Tournament.objects.filter(status=Tournament.OPEN, starts_at__lte=now).values_list("pk", flat=True)
    for pk in due:
        try:
            with transaction.atomic():
                tournament = _claimed(pk)
                if tournament.status == Tournament.OPEN:
                    _begin(tournament, now)
                    done["started"] += 1
        except Conflict as exc:  # too few players: it stays open, its creator may start it later
            log.info("tournament %s not started at its time: %s", pk, exc.message)
    for tournament in Tournament.objects.filter(status=Tournament.RUNNING).only("pk", "format", "round"):
        if tournament.format == Tournament.SWISS and not _swiss_due(tournament):
            continue  # (a cheap read first: most ticks find every table still being played)
        with transaction.atomic():
            tournament = _claimed(tournament.pk)
            if tournament.status != Tournament.RUNNING:
                continue
            if _step(tournament, now, done):
                _announce(tournament)
    return done


def _swiss_due(tournament: Tournament) -> bool:
    """A table of the round has ended uncounted, or none is left: something to do."""
    pending = TournamentTable.objects.filter(tournament=tournament, scored=False)
    return not pending.exists() or pending.filter(table__status__in=[Table.FINISHED, Table.ABORTED]).exists()


def _step(tournament: Tournament, now, done: dict) -> bool:
    changed = False
    rows = TournamentTable.objects.filter(tournament=tournament, scored=False).select_related("table")
    for row in rows:
        if row.table.status in (Table.FINISHED, Table.ABORTED) and _score(tournament, row):
            done["scored"] += 1
            changed = True
    under_way = TournamentTable.objects.filter(tournament=tournament, scored=False).exists()
    if tournament.format == Tournament.SWISS:
        if not under_way:
            if tournament.round >= tournament.rounds:
                _finish(tournament)
                done["finished"] += 1
            elif _start_round(tournament, tournament.round):
                done["rounds"] += 1
                if tournament.status == Tournament.FINISHED:
                    done["finished"] += 1
            changed = True
    elif now >= tournament.ends_at:
        if not under_way:
            _finish(tournament)
            done["finished"] += 1
            changed = True
    else:
        seated = _seat_arena(tournament)
        done["seated"] += seated
        changed = changed or bool(seated)
    return changed


# --- Live ------------------------------------------------------------------------------------------------


def _announce(tournament: Tournament) -> None:
    """After commit, the tournament's open pages get their new live part (tables.tournament_live)."""
    from tables import tournament_live

    pk = tournament.pk
    transaction.on_commit(lambda: tournament_live.changed(pk), robust=True)
