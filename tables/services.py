"""Every change to a table goes through here (Zulip's do_* actions).

A move locks the table, is judged by the rules engine, is appended to the log with the new
seq, and is announced only once the transaction has committed.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from accounts import decks
from accounts.throttle import charge
from rules import IllegalMove, registry
from tables import history
from tables.live import Publication
from tables.models import Move, Seat, Table
from tables.selectors import seat_of


class TableError(Exception):
    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadRequest(TableError):
    status = 400


class Forbidden(TableError):
    status = 403


class NotFound(TableError):
    status = 404


class Conflict(TableError):
    status = 409


class TooMany(TableError):
    status = 429


def get_game(slug):
    try:
        return registry.get(slug)
    except (KeyError, TypeError):
        raise BadRequest(f"Unknown game: {slug!r}.") from None


def _locked_table(table_id) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise NotFound("No such table.") from None


def _seats(table: Table) -> list[Seat]:
    return list(
        Seat.objects.filter(table=table)
        .select_related("user", "user__verified_email", "user__preference")
        .order_by("index")
    )


# --- Creating, joining, leaving, starting ---------------------------------------------


BOT_LEVELS = ("casual", "strong")
MOVE_TIMES = {  # the clock choices offered when creating a table (seconds per move)
    None: "No limit",
    120: "2 minutes per move",
    600: "10 minutes per move",
    3600: "1 hour per move",
    12 * 3600: "12 hours per move",
    24 * 3600: "1 day per move",
    3 * 24 * 3600: "3 days per move",
}
MOVE_TIME_MIN, MOVE_TIME_MAX = 60, 7 * 24 * 3600  # the API may ask for any clock in between
# What one account may create: tables not yet over, and new tables per window of seconds.
MAX_UNFINISHED_TABLES = settings.MAX_UNFINISHED_TABLES
CREATE_LIMIT, CREATE_WINDOW = settings.TABLE_CREATE_LIMIT, 60


def _bot_seats(bots, players: int) -> dict[int, str]:
    """{seat: level} from the API's "bots": [{"seat"?, "level"?}]; a bot without a seat takes the lowest free one."""
    if bots is None:
        return {}
    if not isinstance(bots, list):
        raise BadRequest('bots must be a list of objects like {"seat": 1, "level": "casual"}.')
    if len(bots) > players - 1:  # (before looking at each one: the list may be huge)
        raise BadRequest(f"There are more bots than free seats ({players - 1} at most).")
    if not all(isinstance(b, dict) for b in bots):
        raise BadRequest('bots must be a list of objects like {"seat": 1, "level": "casual"}.')
    chosen: dict[int, str] = {}
    for bot in bots:
        level = bot.get("level", "casual")
        if level not in BOT_LEVELS:
            raise BadRequest(f"A bot's level is one of {', '.join(BOT_LEVELS)}.")
        seat = bot.get("seat")
        if seat is None:
            seat = next(
                i for i in range(1, players) if i not in chosen
            )  # (there is one: len(bots) < players)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat < players:
            raise BadRequest(f"A bot's seat is from 1 to {players - 1} (the creator takes seat 0).")
        if seat in chosen:
            raise BadRequest(f"Seat {seat} is given two bots.")
        chosen[seat] = level
    return chosen


@transaction.atomic
def create_table(
    user, game: str, players, options=None, private: bool = False, bots=None, move_time=None, rated=True
) -> Table:
    engine = get_game(game)
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadRequest("players must be a whole number.")
    if not engine.min_players <= players <= engine.max_players:
        raise BadRequest(f"{engine.title} takes {engine.min_players} to {engine.max_players} players.")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRequest("options must be an object.")
    try:
        engine.setup(players=players, seed=0, options=options)  # validates the options
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    if move_time is not None and (
        not isinstance(move_time, int)
        or isinstance(move_time, bool)
        or not MOVE_TIME_MIN <= move_time <= MOVE_TIME_MAX
    ):
        raise BadRequest(
            f"The clock is a number of seconds per move, from {MOVE_TIME_MIN} to {MOVE_TIME_MAX} (7 days)."
        )
    bot_seats = _bot_seats(bots, players)
    _check_creation_quota(user)
    table = Table.objects.create(
        game=game,
        players=players,
        options=options,
        private=private,
        created_by=user,
        move_time=move_time,
        rated=bool(rated) and not bot_seats,  # never rated with a bot seat
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, index=i, user=user if i == 0 else None, bot=bot_seats.get(i, ""))
            for i in range(players)
        ]
    )
    return table


def _check_creation_quota(user) -> None:
    """Refuse a new table past MAX_UNFINISHED_TABLES or CREATE_LIMIT per CREATE_WINDOW seconds (TooMany)."""
    unfinished = Table.objects.filter(created_by=user, status__in=[Table.OPEN, Table.PLAYING]).count()
    if unfinished >= MAX_UNFINISHED_TABLES:
        raise TooMany(
            f"You have {unfinished} tables open or being played: finish or cancel some before opening another."
        )
    if charge(f"tables-created:{user.pk}", CREATE_WINDOW) > CREATE_LIMIT:  # (atomic, in the cache)
        raise TooMany(f"You opened {CREATE_LIMIT} tables in the last minute: wait a little before the next.")


def play_now(user, game: str, level: str = "casual") -> Table:
    """A table at once: the player in seat 0, bots in the others, started."""
    engine = get_game(game)
    players = engine.play_now_players or engine.min_players
    table = create_table(user, game, players, {}, private=True, bots=[{"level": level}] * (players - 1))
    return start_table(table.pk, user)


def start_if_full(table: Table, user) -> Table:
    """Start a new table at once when bots fill every seat but its creator's: nobody else to wait for
    (the web form and the API alike)."""
    if table.players > 1 and table.seats.filter(bot="").count() == 1:
        return start_table(table.pk, user)
    return table


@transaction.atomic
def join_table(table_id, user, deck=None, invite=None) -> int:
    """Take the lowest free seat. A private table is joined only through its invite (else: no such table)."""
    from tables.access import may_watch

    table = _locked_table(table_id)
    if not may_watch(table, user, invite):
        raise NotFound("No such table.")
    if table.status != Table.OPEN:
        raise Conflict("This table is no longer open.")
    seats = _seats(table)
    if seat_of(seats, user) is not None:
        raise Conflict("You already have a seat at this table.")
    free = [seat for seat in seats if not seat.taken]
    if not free:
        raise Conflict("This table is full.")
    if deck is not None:
        try:
            decks.check_deck(table.game, deck)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
    seat = free[0]
    seat.user = user
    seat.deck = deck
    seat.save(update_fields=["user", "deck"])
    _announce(table)
    return seat.index


@transaction.atomic
def leave_table(table_id, user) -> None:
    table, _, index = _my_seat(
        table_id,
        user,
        status=Table.OPEN,
        wrong_status="The game has started: you can no longer leave this table.",
        no_seat=Conflict("You have no seat at this table."),
    )
    if table.created_by_id == user.pk:
        table.status = Table.ABORTED
        table.save(update_fields=["status"])
    Seat.objects.filter(table=table, index=index).update(user=None, deck=None)
    _announce(table)


@transaction.atomic
def set_deck(table_id, user, cards) -> None:
    """The deck ``user`` brings to an open table where they hold a seat (validated by the game's rules)."""
    table, _, index = _my_seat(
        table_id,
        user,
        status=Table.OPEN,
        wrong_status="The game has started: decks can no longer change.",
        no_seat=Conflict("You have no seat at this table."),
    )
    try:
        decks.check_deck(table.game, cards)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    Seat.objects.filter(table=table, index=index).update(deck=list(cards) if cards is not None else None)


@transaction.atomic
def start_table(table_id, user, seed: int | None = None) -> Table:
    """Deal: the seed is drawn here (tests may fix it) and never leaves the server."""
    table = _locked_table(table_id)
    if table.created_by_id != user.pk:
        raise Forbidden("Only the table's creator can start it.")
    if table.status != Table.OPEN:
        raise Conflict("This table is not open.")
    seats = _seats(table)
    if not all(seat.taken for seat in seats):
        raise Conflict("Every seat must be taken before the start.")
    engine = table.engine
    options = dict(table.options)
    if decks.needs_deck(table.game) and not options.get("shared_deck"):
        options["decks"] = decks.complete_decks(table.game, [seat.deck for seat in seats])
    table.seed = secrets.randbits(62) if seed is None else seed
    try:
        state = engine.setup(players=table.players, seed=table.seed, options=options)
    except ValueError as exc:
        raise Conflict(f"The game cannot start: {exc}") from None
    table.options = options
    table.state = engine.dump(state)
    table.status = Table.PLAYING
    table.started_at = timezone.now()
    table.seq = 0
    _store_progress(table, engine, state, seats, previously_awaited=set())
    return table


# --- Moves ------------------------------------------------------------------------------


@dataclass
class MoveResult:
    seq: int
    table: Table
    publication: Publication

    def frame_for(self, user, lang: str) -> str:
        """The mover's own frame in ``lang``: the one sent to their seat's sockets (rendered once for both)."""
        return self.publication.frame_for(user, lang)


def play_move(table_id, user, move, seq, bot_seat: int | None = None) -> MoveResult:
    """Judge and apply one move, in the order of CONTRACTS §2.

    ``bot_seat`` is given only by the bot runner, which moves for a bot's seat.
    """
    with transaction.atomic():
        table = _locked_table(table_id)
        seats = _seats(table)
        seat = bot_seat if bot_seat is not None else seat_of(seats, user)
        if seat is None:
            raise Forbidden("You have no seat at this table.")
        if bot_seat is None and seats[seat].is_bot:
            raise Forbidden("A bot is playing your seat: reclaim it first.")
        if not isinstance(move, dict):
            raise BadRequest("The move must be an object.")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise BadRequest("seq must be a whole number.")
        if table.status != Table.PLAYING:
            raise Conflict("This table is not being played.")
        if seq != table.seq:
            raise Conflict(f"The table has moved on (seq is {table.seq}, not {seq}). Reload and try again.")
        engine = table.engine
        state = engine.load(table.state)
        awaited = engine.to_act(state)
        if seat not in awaited:
            raise Forbidden("It is not your turn.")
        try:
            after = engine.apply(state, seat, move)
        except IllegalMove as exc:
            raise BadRequest(str(exc)) from None
        events = engine.events(state, seat, move, after)
        Move.objects.create(table=table, seq=table.seq, seat=seat, move=move, events=events)
        table.seq += 1
        table.state = engine.dump(after)
        publication = _store_progress(table, engine, after, seats, previously_awaited=set(awaited))
        return MoveResult(seq=table.seq, table=table, publication=publication)


def _store_progress(
    table: Table, engine, state, seats: list[Seat], previously_awaited: set[int]
) -> Publication:
    """Save the table after a start or a move, and schedule the announcements for after commit."""
    table.to_act = engine.to_act(state)
    table.revision += 1
    fields = ["seq", "state", "to_act", "status", "started_at", "seed", "options", "revision"]
    if engine.is_over(state):
        table.status = Table.FINISHED
        table.finished_at = timezone.now()
        # The result records seats a bot finished for a person, so that ratings can skip them.
        table.result = {**engine.result(state), "replaced": [s.index for s in seats if s.replaced]}
        table.to_act = []
        fields += ["finished_at", "result"]
        history.record_finished(table, seats)
    now = timezone.now()
    table.last_move_at = now
    humans_awaited = [i for i in table.to_act if not seats[i].is_bot]
    table.deadline = now + timedelta(seconds=table.move_time) if table.move_time and humans_awaited else None
    table.reminded = False
    table.abort_votes = []
    fields += ["last_move_at", "deadline", "reminded", "abort_votes"]
    table.save(update_fields=fields)
    if any(seats[i].is_bot for i in table.to_act):
        transaction.on_commit(wake_worker)
    Seat.objects.filter(table=table).update(
        awaited=Case(When(index__in=table.to_act, then=Value(True)), default=Value(False))
    )
    for seat in seats:
        seat.awaited = seat.index in table.to_act
    publication = _announce(table, seats=seats, state=state, saved=True)
    now_awaited = set(table.to_act)
    changed = [seats[i] for i in sorted(now_awaited ^ previously_awaited) if seats[i].user_id]
    if changed:
        from tables import notifications

        newly = [seat.user for seat in changed if seat.index in now_awaited]
        others = [seat.user for seat in changed if seat.index not in now_awaited]
        notifications.turns_changed(table, newly, others)  # queues mail now, badges after commit
    return publication


def _announce(
    table: Table, *, seats: list[Seat] | None = None, state=None, saved: bool = False
) -> Publication:
    """Bump the table's revision (unless the caller saved it bumped) and, after commit, send every viewer
    its new frame. ``seats`` and ``state``, when the caller has them as saved, spare reading them again."""
    if not saved:
        table.revision += 1
        table.save(update_fields=["revision"])
    publication = Publication(table, seats=seats, state=state)
    transaction.on_commit(publication.run)
    return publication


# --- Bots, clocks, conceding, aborting, rematches ------------------------------------------

worker_wakeup = threading.Event()


def wake_worker() -> None:
    """Tell an in-process worker that a bot may move now (a separate worker polls anyway)."""
    worker_wakeup.set()


def time_out(table_id, now=None) -> list[int]:
    """Replace every awaited person by a bot once their deadline has passed. Exactly once, even in a race."""
    now = now or timezone.now()
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.PLAYING or table.deadline is None or table.deadline > now:
            return []
        seats = _seats(table)
        replaced = []
        for i in table.to_act:
            seat = seats[i]
            if seat.user_id and not seat.is_bot:
                seat.bot, seat.replaced = "casual", True
                seat.save(update_fields=["bot", "replaced"])
                replaced.append(i)
        table.deadline = None
        table.save(update_fields=["deadline"])
        _announce(table)
        transaction.on_commit(wake_worker)
        return replaced


def _my_seat(
    table_id,
    user,
    status=Table.PLAYING,
    wrong_status="This game is not being played.",
    no_seat: TableError | None = None,
):
    """Lock the table, check its status, and find the caller's seat: (table, seats, index)."""
    table = _locked_table(table_id)
    if table.status != status:
        raise Conflict(wrong_status)
    seats = _seats(table)
    index = seat_of(seats, user)
    if index is None:
        raise no_seat or Forbidden("You have no seat at this table.")
    return table, seats, index


@transaction.atomic
def reclaim_seat(table_id, user) -> int:
    table, seats, index = _my_seat(table_id, user)
    seat = seats[index]
    if not seat.replaced:
        raise Conflict("Your seat is yours already.")
    if seat.conceded:
        raise Conflict("You conceded this game: the seat stays with the bot.")
    seat.bot, seat.replaced = "", False
    seat.save(update_fields=["bot", "replaced"])
    if index in table.to_act and table.move_time:
        table.deadline = timezone.now() + timedelta(seconds=table.move_time)
        table.save(update_fields=["deadline"])
    _announce(table)
    return index


@transaction.atomic
def concede(table_id, user) -> None:
    """A bot takes the seat for good and the game goes on for the others."""
    table, seats, index = _my_seat(table_id, user)
    seat = seats[index]
    if seat.conceded:
        raise Conflict("You have conceded already.")
    seat.bot, seat.replaced, seat.conceded = seat.bot or "casual", True, True
    seat.save(update_fields=["bot", "replaced", "conceded"])
    if index in table.to_act:
        table.deadline = None
        table.save(update_fields=["deadline"])
        transaction.on_commit(wake_worker)
    _announce(table)


@transaction.atomic
def vote_abort(table_id, user) -> bool:
    """Offer (or accept) to abort: once every person still playing agrees, the game is aborted."""
    refusal = Forbidden("Only a player at the table can offer to abort.")
    table, seats, index = _my_seat(table_id, user, no_seat=refusal)
    if seats[index].is_bot:
        raise refusal
    votes = sorted(set(table.abort_votes) | {index})
    humans = [s.index for s in seats if s.user_id and not s.is_bot]
    table.abort_votes = votes
    aborted = set(humans) <= set(votes)
    if aborted:
        table.status = Table.ABORTED
        table.to_act = []
        table.deadline = None
        Seat.objects.filter(table=table).update(awaited=False)
    table.save(update_fields=["abort_votes", "status", "to_act", "deadline"])
    _announce(table)
    return aborted


@transaction.atomic
def offer_rematch(table_id, user) -> Table:
    """A new open table with the same game, options, clock and seats (people and bots); joined through its page."""
    table, seats, _ = _my_seat(
        table_id,
        user,
        status=Table.FINISHED,
        wrong_status="A rematch is offered once the game is over.",
        no_seat=Forbidden("Only a player at the table can offer a rematch."),
    )
    if table.rematch_id:
        return table.rematch
    options = {k: v for k, v in table.options.items() if k != "decks"}
    new = Table.objects.create(
        game=table.game,
        players=table.players,
        options=options,
        private=True,
        created_by=user,
        move_time=table.move_time,
    )
    Seat.objects.bulk_create(
        [
            Seat(
                table=new,
                index=s.index,
                user=s.user if s.user_id and not s.conceded else None,
                bot=s.bot if not s.user_id else "",
                deck=s.deck,
            )
            for s in seats
        ]
    )
    table.rematch = new
    table.save(update_fields=["rematch"])
    _announce(table)
    return new
