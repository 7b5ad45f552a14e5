"""Every change to a table goes through here (Zulip's do_* actions).

A move locks the table, is judged by the rules engine, is appended to the log with the new
seq, and is announced only once the transaction has committed.
"""

from __future__ import annotations

import secrets
import threading
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts import blocks, decks
from accounts.preferences import in_words
from accounts.throttle import charge
from rules import IllegalMove, registry
from tables import api_events, bot_accounts, history, rendering, rooms, selectors, social
from tables.errors import BadRequest, Conflict, Forbidden, NotFound, TableError, TooMany
from tables.live import Publication
from tables.models import ChatMessage, Invitation, Move, Seat, Table, TableEvent
from tables.selectors import bots_only, seat_of


def get_game(slug):
    try:
        return registry.get(slug)
    except (KeyError, TypeError):
        raise BadRequest(gettext("Unknown game: %(slug)r.") % {"slug": slug}) from None


def _locked_table(table_id) -> Table:
    """The table, locked until the caller's transaction ends (``select_for_update``; on SQLite the transaction
    holds the database's write lock from its start), or NotFound.

    Every change begins here, every move among them: the row is read with one raw statement, as the ORM's
    ``select_for_update().get(pk=...)`` would read it (its ``pk`` taken the same way), without building and
    compiling that query each time (several times what the query itself costs)."""
    try:
        pk = Table._meta.pk.get_prep_value(table_id)
    except (ValueError, TypeError):
        raise NotFound(gettext("No such table.")) from None
    if pk is None or not -(2**63) <= pk < 2**63:  # (the ORM finds no row past a column's range: nor here)
        raise NotFound(gettext("No such table."))
    found = list(Table.objects.raw(_lock_statement(), [pk]))
    if not found:
        raise NotFound(gettext("No such table."))
    return found[0]


def _lock_statement() -> str:
    meta, quote = Table._meta, connection.ops.quote_name
    statement = f"SELECT * FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s"
    return statement + (" FOR UPDATE" if connection.features.has_select_for_update else "")


def _check_seq(table: Table, seq) -> None:
    """A change of the game names the move it follows: 400 unless ``seq`` is a whole number, 409 unless the
    table is being played and is at that move (a change that lost a race is refused, never applied twice)."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise BadRequest(gettext("seq must be a whole number."))
    if table.status != Table.PLAYING:
        raise Conflict(gettext("This table is not being played."))
    if seq != table.seq:
        raise Conflict(
            gettext("The table has moved on (seq is %(seq)d, not %(given)d). Reload and try again.")
            % {"seq": table.seq, "given": seq}
        )


# --- Creating, joining, leaving, starting ---------------------------------------------


BOT_LEVELS = ("casual", "strong")
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
        raise BadRequest(
            gettext("There are more bots than free seats (%(most)d at most).") % {"most": players - 1}
        )
    if not all(isinstance(b, dict) for b in bots):
        raise BadRequest('bots must be a list of objects like {"seat": 1, "level": "casual"}.')
    chosen: dict[int, str] = {}
    for bot in bots:
        level = bot.get("level", "casual")
        if level not in BOT_LEVELS:
            raise BadRequest(
                gettext("A bot's level is one of %(levels)s.") % {"levels": ", ".join(BOT_LEVELS)}
            )
        seat = bot.get("seat")
        if seat is None:
            seat = next(
                i for i in range(1, players) if i not in chosen
            )  # (there is one: len(bots) < players)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat < players:
            raise BadRequest(
                gettext("A bot's seat is from 1 to %(last)d (the creator takes seat 0).")
                % {"last": players - 1}
            )
        if seat in chosen:
            raise BadRequest(gettext("Seat %(seat)d is given two bots.") % {"seat": seat})
        chosen[seat] = level
    return chosen


def checked_settings(engine, players: int, options, move_time) -> dict:
    """A new game's settings checked (a table's or a challenge's; ``players`` a whole number): the number of
    players the game takes, options it accepts, a clock within bounds. The options (``{}`` for None)."""
    if not engine.min_players <= players <= engine.max_players:
        raise BadRequest(
            gettext("%(game)s takes %(min)d to %(max)d players.")
            % {"game": engine.title, "min": engine.min_players, "max": engine.max_players}
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRequest(gettext("options must be an object."))
    try:
        engine.setup(players=players, seed=0, options=options)  # validates the options
    except ValueError as exc:
        raise BadRequest(in_words(exc)) from None
    if move_time is not None and (
        not isinstance(move_time, int)
        or isinstance(move_time, bool)
        or not MOVE_TIME_MIN <= move_time <= MOVE_TIME_MAX
    ):
        raise BadRequest(
            gettext("The clock is a number of seconds per move, from %(min)d to %(max)d (7 days).")
            % {"min": MOVE_TIME_MIN, "max": MOVE_TIME_MAX}
        )
    return options


@transaction.atomic
def create_table(
    user,
    game: str,
    players,
    options=None,
    private: bool = False,
    bots=None,
    move_time=None,
    rated=True,
    spectator_chat: bool = False,
) -> Table:
    engine = get_game(game)
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadRequest(gettext("players must be a whole number."))
    options = checked_settings(engine, players, options, move_time)
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
        spectator_chat=bool(spectator_chat),
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
            gettext(
                "You have %(count)d tables open or being played: finish or cancel some before opening another."
            )
            % {"count": unfinished}
        )
    if charge(f"tables-created:{user.pk}", CREATE_WINDOW) > CREATE_LIMIT:  # (atomic, in the cache)
        raise TooMany(
            gettext("You opened %(count)d tables in the last minute: wait a little before the next.")
            % {"count": CREATE_LIMIT}
        )


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
        raise NotFound(gettext("No such table."))
    if table.created_by_id and blocks.blocks(table.created_by_id, user.pk):
        raise Forbidden(blocks.not_possible())  # (the creator keeps them away; nothing more is said)
    index = take_seat(table, user, deck)
    _announce(table)
    return index


def take_seat(table: Table, user, deck=None) -> int:
    """Seat ``user`` in the lowest free seat of the open ``table`` (locked by the caller), with ``deck``, and
    say so in its log: the lobby's join and an accepted challenge's. The caller announces the change."""
    if table.status != Table.OPEN:
        raise Conflict(gettext("This table is no longer open."))
    seats = selectors.read_seats(table)
    if seat_of(seats, user) is not None:
        raise Conflict(gettext("You already have a seat at this table."))
    free = [seat for seat in seats if not seat.taken]
    if not free:
        raise Conflict(gettext("This table is full."))
    if deck is not None:
        try:
            decks.check_deck(table.game, deck)
        except ValueError as exc:
            raise BadRequest(in_words(exc)) from None
    seat = free[0]
    seat.user = user
    seat.deck = deck
    seat.save(update_fields=["user", "deck"])
    tell(table, "join", user, seat.index)
    return seat.index


@transaction.atomic
def leave_table(table_id, user) -> None:
    table, _, index = _my_seat(
        table_id,
        user,
        status=Table.OPEN,
        wrong_status=gettext("The game has started: you can no longer leave this table."),
        no_seat=Conflict(gettext("You have no seat at this table.")),
    )
    if table.created_by_id == user.pk:
        table.status = Table.ABORTED
        table.save(update_fields=["status"])
    Seat.objects.filter(table=table, index=index).update(user=None, deck=None, chat_muted=False)
    tell(table, "cancel" if table.status == Table.ABORTED else "leave", user, index)
    _announce(table)


@transaction.atomic
def set_deck(table_id, user, cards) -> None:
    """The deck ``user`` brings to an open table where they hold a seat (validated by the game's rules)."""
    table, _, index = _my_seat(
        table_id,
        user,
        status=Table.OPEN,
        wrong_status=gettext("The game has started: decks can no longer change."),
        no_seat=Conflict(gettext("You have no seat at this table.")),
    )
    try:
        decks.check_deck(table.game, cards)
    except ValueError as exc:
        raise BadRequest(in_words(exc)) from None
    Seat.objects.filter(table=table, index=index).update(deck=list(cards) if cards is not None else None)


@transaction.atomic
def start_table(table_id, user, seed: int | None = None, person_chose: bool = False) -> Table:
    """Deal: the seed is drawn here (tests may fix it) and never leaves the server. ``person_chose``: a
    person at the table chose it rated (a rated challenge accepted): see ``tables.bot_accounts``."""
    table = _locked_table(table_id)
    if table.created_by_id != user.pk:
        raise Forbidden(gettext("Only the table's creator can start it."))
    if table.status != Table.OPEN:
        raise Conflict(gettext("This table is not open."))
    seats = selectors.read_seats(table)
    if not all(seat.taken for seat in seats):
        raise Conflict(gettext("Every seat must be taken before the start."))
    return deal(table, seats, seed, creator=user, person_chose=person_chose)


def deal(
    table: Table, seats: list[Seat], seed: int | None = None, *, creator=None, person_chose: bool = False
) -> Table:
    """Start a table whose seats are all taken (inside the caller's transaction, the table locked or new):
    the options completed, the seed drawn, the first player awaited. ``creator``: the person who started it
    (None: the site, as for a tournament's tables, which are rated only with no bot and no bot account mixed
    with people: ``tables.bot_accounts``)."""
    engine = table.engine
    options = dict(table.options)
    if decks.needs_deck(table.game) and not options.get("shared_deck"):
        options["decks"] = decks.complete_decks(table.game, [seat.deck for seat in seats])
    table.seed = secrets.randbits(62) if seed is None else seed
    try:
        state = engine.setup(players=table.players, seed=table.seed, options=options)
    except ValueError as exc:
        raise Conflict(gettext("The game cannot start: %(reason)s") % {"reason": in_words(exc)}) from None
    table.options = options
    if table.rated:
        table.rated = bot_accounts.stays_rated(creator, seats, person_chose)
    table.state = engine.dump(state)
    table.status = Table.PLAYING
    table.started_at = timezone.now()
    table.seq = 0
    api_events.game_started(table, seats)  # (before the first turn's event)
    _store_progress(table, engine, state, seats, previously_awaited=set(), dealt=True)
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
        held = rooms.for_change(table)  # (the room's seats, state and log at this revision: no query)
        seats, people = held.seats, held.people
        seat = bot_seat if bot_seat is not None else seat_of(seats, user)
        if seat is None:
            raise Forbidden(gettext("You have no seat at this table."))
        if bot_seat is None and seats[seat].is_bot:
            raise Forbidden(gettext("A bot is playing your seat: reclaim it first."))
        if not isinstance(move, dict):
            raise BadRequest(gettext("The move must be an object."))
        _check_seq(table, seq)
        engine = table.engine
        state = held.state if held.state is not None else engine.load(table.state)
        awaited = engine.to_act(state)
        if seat not in awaited:
            raise Forbidden(gettext("It is not your turn."))
        try:
            after = engine.apply(state, seat, move)
        except IllegalMove as exc:
            raise BadRequest(in_words(exc)) from None
        row = Move.objects.create(
            table=table,
            seq=table.seq,
            seat=seat,
            move=move,
            events=engine.events(state, seat, move, after),
            undoable=bot_seat is None and social.may_take_back(engine, state, seat, move, after),
        )
        table.seq += 1
        table.state = engine.dump(after)
        publication = _store_progress(table, engine, after, seats, set(awaited), people=people)
        publication.log = rendering.extended_log(table, held.log, row)
        return MoveResult(seq=table.seq, table=table, publication=publication)


def _store_progress(
    table: Table,
    engine,
    state,
    seats: list[Seat],
    previously_awaited: set[int],
    people: dict | None = None,
    *,
    dealt: bool = False,
) -> Publication:
    """Save the table after a start (``dealt``) or a move, and schedule the announcements for after commit.
    ``people``: the stamps of the seated people the seats were read under (tables.rooms), if the caller has
    them. ``table`` is as read under its lock (or new): only the columns that change are written."""
    to_act = engine.to_act(state)
    table.revision += 1
    fields = ["seq", "state", "revision", "last_move_at"]
    if dealt:
        fields += ["status", "started_at", "seed", "options", "rated"]
    if engine.is_over(state):
        table.status = Table.FINISHED
        table.finished_at = timezone.now()
        # The result records seats a bot finished for a person, so that ratings can skip them.
        table.result = {**engine.result(state), "replaced": [s.index for s in seats if s.replaced]}
        to_act = []
        fields += ["status", "finished_at", "result"]
        history.record_finished(table, seats)
        api_events.game_ended(table, seats)
    now = timezone.now()
    table.last_move_at = now
    humans_awaited = [i for i in to_act if not seats[i].is_bot]
    deadline = now + timedelta(seconds=table.move_time) if table.move_time and humans_awaited else None
    # (unchanged columns are left out: a move of a game without a clock writes no deadline, no reminder)
    for name, value in (("to_act", to_act), ("deadline", deadline), ("reminded", False), ("abort_votes", [])):
        if dealt or getattr(table, name) != value:
            setattr(table, name, value)
            fields.append(name)
    _write_columns(table, fields)
    if any(seats[i].is_bot for i in table.to_act):
        transaction.on_commit(wake_worker)
    _store_awaited(table, seats, previously_awaited, now)
    publication = _announce(table, seats=seats, state=state, saved=True, people=people)
    # Whose turn it is, for a person: a seat a bot plays for its person waits for the bot, not for them.
    persons = {s.index for s in seats if s.user_id and not s.is_bot}
    now_awaited = set(table.to_act) & persons
    changed = [seats[i] for i in sorted(now_awaited ^ (previously_awaited & persons))]
    if changed:
        from tables import notifications

        newly = [seat.user for seat in changed if seat.index in now_awaited]
        others = [seat.user for seat in changed if seat.index not in now_awaited]
        # (mail and pushes queued now; the badges and the API's events sent with the frames after commit)
        notifications.turns_changed(table, newly, others, people, publication=publication)
        api_events.turn_began(
            table,
            [seat.user for seat in changed if seat.index in now_awaited and not seat.is_bot],
            publication=publication,
        )
    return publication


def _store_awaited(table: Table, seats: list[Seat], previously_awaited: set[int], now) -> None:
    """Mark the seats awaited now (``table.to_act``), in the database and on ``seats``: a seat whose turn
    begins is awaited since ``now``; one no longer awaited, not at all; one still awaited keeps its start.
    Only the seats that change are written (none, in one query at most, when the same seats are awaited)."""
    awaited = set(table.to_act)
    begun = awaited - previously_awaited  # (its wait starts now: Your turn)
    changed = begun | {s.index for s in seats if s.awaited != (s.index in awaited)}
    changed |= previously_awaited - awaited
    if changed:
        _write_awaited(table.pk, changed, awaited, begun, now)
    for seat in seats:
        seat.awaited = seat.index in awaited
        if seat.index in begun:
            seat.awaited_since = now
        elif not seat.awaited:
            seat.awaited_since = None


def _write_columns(table: Table, fields: list[str]) -> None:
    """``table.save(update_fields=fields)`` as one plain ``UPDATE`` (each value prepared by its field, as
    ``save`` prepares it): a move's save, without the ORM building that query anew each time. (No model
    signal is sent: nothing listens to a table's.)"""
    meta, quote = Table._meta, connection.ops.quote_name
    columns = [meta.get_field(name) for name in dict.fromkeys(fields)]
    values = [field.get_db_prep_save(field.pre_save(table, False), connection) for field in columns]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    statement = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    with connection.cursor() as cursor:
        cursor.execute(statement, [*values, table.pk])


def _write_awaited(table_id: int, changed: set[int], awaited: set[int], begun: set[int], now) -> None:
    """``UPDATE`` the ``changed`` seats of a table: ``awaited`` if among ``awaited``, since ``now`` if among
    ``begun``, else since nothing. One raw statement: the ORM's ``update()`` with these conditions
    (``Q``, ``Case``, ``When``) costs twenty times the statement itself to build, on every move."""
    meta, quote = Seat._meta, connection.ops.quote_name

    def among(seats: set[int]) -> tuple[str, list[int]]:
        return f"{quote(meta.get_field('index').column)} IN ({', '.join(['%s'] * len(seats))})", sorted(seats)

    where, where_params = among(changed)
    is_awaited, awaited_params = among(awaited) if awaited else ("%s", [False])
    since, since_params = "NULL", []
    if begun:
        condition, since_params = among(begun)
        since = f"CASE WHEN {condition} THEN %s ELSE NULL END"
        since_params = [*since_params, meta.get_field("awaited_since").get_db_prep_save(now, connection)]
    statement = (
        f"UPDATE {quote(meta.db_table)} SET {quote(meta.get_field('awaited').column)} = ({is_awaited}), "
        f"{quote(meta.get_field('awaited_since').column)} = {since} "
        f"WHERE {quote(meta.get_field('table').column)} = %s AND {where}"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, [*awaited_params, *since_params, table_id, *where_params])


def _announce(
    table: Table, *, seats: list[Seat] | None = None, state=None, saved: bool = False, people=None
) -> Publication:
    """Bump the table's revision (unless the caller saved it bumped) and, after commit, send every viewer
    its new frame. ``seats`` and ``state``, when the caller has them as saved, spare reading them again."""
    if not saved:
        table.revision += 1
        table.save(update_fields=["revision"])
    publication = Publication(table, seats=seats, state=state, people=people)
    transaction.on_commit(publication.run, robust=True)  # (a failure to send is logged: the change stands)
    return publication


def rebuild_state(table: Table, moves: list[Move] | None = None):
    """The table's state from its seed and its move log alone (the snapshot is only a cache): the moves
    that stand, without the take-back rows and the moves they cancelled. ``moves``: the log's rows, in
    order (read from the database when not given)."""
    engine = table.engine
    state = engine.setup(players=table.players, seed=table.seed, options=table.options)
    for move in social.effective(moves if moves is not None else list(table.moves.order_by("seq"))):
        state = engine.apply(state, move.seat, move.move)
    return state


# --- Bots, clocks, conceding, aborting, rematches ------------------------------------------

worker_wakeup = threading.Event()


def wake_worker() -> None:
    """Tell an in-process worker that a bot may move now (a separate worker polls anyway)."""
    worker_wakeup.set()


def _badges_after_commit(table_id: int, user_ids: list[int]) -> None:
    """After commit, refresh the badge of each person whose waiting count changed (as a move does); a
    failure to send is logged, the change stands."""
    if user_ids:
        from tables import notifications

        transaction.on_commit(lambda: notifications.refresh_badges(table_id, list(user_ids)), robust=True)


def time_out(table_id, now=None) -> list[int]:
    """Replace every awaited person by a bot once their deadline has passed. Exactly once, even in a race."""
    now = now or timezone.now()
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.PLAYING or table.deadline is None or table.deadline > now:
            return []
        seats = selectors.read_seats(table)
        replaced = []
        for i in table.to_act:
            seat = seats[i]
            if seat.user_id and not seat.is_bot:
                seat.bot, seat.replaced = "casual", True
                seat.save(update_fields=["bot", "replaced"])
                replaced.append(i)
                tell(table, "timeout", seat.user, i)
        table.deadline = None
        table.save(update_fields=["deadline"])
        _announce(table)
        _badges_after_commit(table.pk, [seats[i].user_id for i in replaced])  # (the bot's turn now)
        transaction.on_commit(wake_worker)
        return replaced


def _my_seat(
    table_id,
    user,
    status=Table.PLAYING,
    wrong_status=None,
    no_seat: TableError | None = None,
):
    """Lock the table, check its status, and find the caller's seat: (table, seats, index)."""
    table = _locked_table(table_id)
    if table.status != status:
        raise Conflict(wrong_status or gettext("This game is not being played."))
    seats = selectors.read_seats(table)
    index = seat_of(seats, user)
    if index is None:
        raise no_seat or Forbidden(gettext("You have no seat at this table."))
    return table, seats, index


@transaction.atomic
def reclaim_seat(table_id, user) -> int:
    table, seats, index = _my_seat(table_id, user)
    seat = seats[index]
    if not seat.replaced:
        raise Conflict(gettext("Your seat is yours already."))
    if seat.conceded:
        raise Conflict(gettext("You conceded this game: the seat stays with the bot."))
    seat.bot, seat.replaced = "", False
    seat.save(update_fields=["bot", "replaced"])
    tell(table, "reclaim", user, index)
    if index in table.to_act and table.move_time:
        table.deadline = timezone.now() + timedelta(seconds=table.move_time)
        table.save(update_fields=["deadline"])
    _announce(table)
    if index in table.to_act:
        _badges_after_commit(table.pk, [user.pk])  # (their turn again)
    return index


@transaction.atomic
def concede(table_id, user) -> None:
    """A bot takes the seat for good and the game goes on for the others."""
    table, seats, index = _my_seat(table_id, user)
    seat = seats[index]
    if seat.conceded:
        raise Conflict(gettext("You have conceded already."))
    was_theirs = not seat.is_bot
    seat.bot, seat.replaced, seat.conceded = seat.bot or "casual", True, True
    seat.save(update_fields=["bot", "replaced", "conceded"])
    tell(table, "concede", user, index)
    if index in table.to_act:
        table.deadline = None
        table.save(update_fields=["deadline"])
        transaction.on_commit(wake_worker)
        if was_theirs:
            _badges_after_commit(table.pk, [user.pk])  # (the bot's turn now)
    _announce(table)


@transaction.atomic
def vote_abort(table_id, user) -> bool:
    """Offer (or accept) to abort: once every person still playing agrees, the game is aborted."""
    refusal = Forbidden(gettext("Only a player at the table can offer to abort."))
    table, seats, index = _my_seat(table_id, user, no_seat=refusal)
    if seats[index].is_bot:
        raise refusal
    previous_votes = set(table.abort_votes)
    votes = sorted(previous_votes | {index})
    humans = [s.index for s in seats if s.user_id and not s.is_bot]
    table.abort_votes = votes
    aborted = set(humans) <= set(votes)
    if aborted:
        _badges_after_commit(table.pk, [s.user_id for s in seats if s.awaited and s.index in humans])
        table.status = Table.ABORTED
        table.to_act = []
        table.deadline = None
        Seat.objects.filter(table=table).update(awaited=False)
        api_events.game_ended(table, seats)
    table.save(update_fields=["abort_votes", "status", "to_act", "deadline"])
    kind = "aborted" if aborted else ("abort_accept" if len(votes) > 1 else "abort_offer")
    if index not in previous_votes:
        tell(table, kind, user, index)
    _announce(table)
    return aborted


def _close(table: Table) -> None:
    """End a game with no result (aborted, unrated): nobody is awaited there any more."""
    table.status = Table.ABORTED
    table.to_act = []
    table.deadline = None
    table.save(update_fields=["status", "to_act", "deadline"])
    Seat.objects.filter(table=table).update(awaited=False, awaited_since=None)
    api_events.game_ended(table, list(table.seats.all()))


@transaction.atomic
def abandon(table_id, user) -> None:
    """Walk away from a table played against bots only: it is aborted (unrated), and its log says so."""
    table, seats, index = _my_seat(table_id, user)
    if not bots_only(seats):
        raise Conflict(
            gettext("Only a game against bots alone can be abandoned: offer to abort it, or concede.")
        )
    was_awaited = seats[index].awaited and not seats[index].is_bot
    _close(table)
    tell(table, "abandon", user, index)
    _announce(table)
    if was_awaited:
        _badges_after_commit(table.pk, [user.pk])


IDLE_BOT_TABLE_DAYS = 7  # a table against bots alone that nobody touched for this long is closed


def close_idle_bot_tables(now=None) -> int:
    """Close (abort, unrated) every table against bots alone untouched for IDLE_BOT_TABLE_DAYS, saying so
    in its log. Safe to run in several workers at once: each table is locked and looked at again."""

    now = now or timezone.now()
    cutoff = now - timedelta(days=IDLE_BOT_TABLE_DAYS)
    candidates = Table.objects.filter(status=Table.PLAYING).filter(
        Q(last_move_at__lt=cutoff) | Q(last_move_at__isnull=True, started_at__lt=cutoff)
    )
    closed = 0
    for table_id in candidates.values_list("pk", flat=True):
        with transaction.atomic():
            table = _locked_table(table_id)
            touched = table.last_move_at or table.started_at
            if table.status != Table.PLAYING or touched is None or touched >= cutoff:
                continue
            seats = selectors.read_seats(table)
            if not bots_only(seats):
                continue
            person = next(s for s in seats if s.user_id)
            _close(table)
            tell(table, "idle_closed", None, person.index, days=IDLE_BOT_TABLE_DAYS)
            _announce(table)
            _badges_after_commit(table.pk, [person.user_id])
            closed += 1
    return closed


@transaction.atomic
def offer_rematch(table_id, user) -> Table:
    """A new open table with the same game, options, clock and seats (people and bots); joined through its page."""
    table, seats, _ = _my_seat(
        table_id,
        user,
        status=Table.FINISHED,
        wrong_status=gettext("A rematch is offered once the game is over."),
        no_seat=Forbidden(gettext("Only a player at the table can offer a rematch.")),
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
    tell(table, "rematch", user, seat_of(seats, user), rematch=new.pk)
    _announce(table)
    # Against bots only, nobody else to wait for: the rematch starts at once, as "Play now" does.
    if all(
        (seat.bot and not seat.user_id) or (seat.user_id == user.pk and not seat.conceded) for seat in seats
    ):
        return start_table(new.pk, user)
    return new


# --- The social table: seat events, chat, invitations, take-backs --------------------------------


def tell(table: Table, kind: str, actor, seat: int | None, **data) -> TableEvent:
    """Record a change of seat in the table's log (inside the change's transaction; its frame tells it)."""
    return TableEvent.objects.create(
        table=table, kind=kind, actor=actor, seat=seat, data=data, position=table.seq
    )


def _clean_chat(text) -> str:
    """The text of a chat message: a string, control characters (but line breaks) turned to spaces,
    trimmed, 1 to CHAT_MAX characters."""
    if not isinstance(text, str):
        raise BadRequest(gettext("Write the message as text."))
    try:
        text.encode()
    except UnicodeEncodeError:
        raise BadRequest(gettext("The message holds characters that are not text.")) from None
    text = "".join(" " if unicodedata.category(ch) == "Cc" and ch != "\n" else ch for ch in text).strip()
    if not text:
        raise BadRequest(gettext("The message is empty."))
    if len(text) > social.CHAT_MAX:
        raise BadRequest(
            gettext("A message is at most %(max)d characters (this one has %(n)d).")
            % {"max": social.CHAT_MAX, "n": len(text)}
        )
    return text


def post_chat(table_id, user, text=None, phrase=None, invite=None) -> ChatMessage:
    """Say something at a table: a text, or a quick phrase (kept as its key). Players write; spectators
    only where the creator allowed it; at most CHAT_LIMIT messages per CHAT_WINDOW seconds per person."""
    from tables import chat_frames
    from tables.access import may_watch

    with transaction.atomic():
        table = _locked_table(table_id)
        if not may_watch(table, user, invite):
            raise NotFound(gettext("No such table."))
        seats = selectors.read_seats(table)
        if not social.may_write(table, seats, user):
            if user is None or not user.is_authenticated:
                raise Forbidden(gettext("Sign in to write in the chat."))
            raise Forbidden(gettext("Only the players write in this table's chat."))
        if phrase is not None:
            if phrase not in social.QUICK_PHRASES:
                raise BadRequest(
                    gettext("The quick phrases are %(keys)s.") % {"keys": ", ".join(social.QUICK_PHRASES)}
                )
            text = ""
        else:
            text = _clean_chat(text)
        if charge(f"chat:{user.pk}", social.CHAT_WINDOW) > social.CHAT_LIMIT:
            raise TooMany(
                gettext("You are writing fast: at most %(n)d messages in %(s)d seconds. Wait a moment.")
                % {"n": social.CHAT_LIMIT, "s": social.CHAT_WINDOW}
            )
        message = ChatMessage.objects.create(
            table=table, user=user, text=text, phrase=phrase or "", position=table.seq
        )
        transaction.on_commit(chat_frames.ChatPublication(table, message, seats).run, robust=True)
        return message


@transaction.atomic
def mute_chat(table_id, user, muted: bool) -> bool:
    """A player hides (or shows again) the table's chat for themselves."""
    table = _locked_table(table_id)
    index = seat_of(selectors.read_seats(table), user)
    if index is None:
        raise Forbidden(gettext("Only a player at the table can mute its chat."))
    Seat.objects.filter(table=table, index=index).update(chat_muted=bool(muted))
    return bool(muted)


RECENT_OPPONENTS = 8


def recent_opponents(user, limit: int = RECENT_OPPONENTS) -> list[str]:
    """The usernames of the people ``user`` last sat at a table with, most recent first."""
    rows = (
        Seat.objects.filter(table__seats__user=user, user__isnull=False)
        .exclude(user=user)
        .order_by("-table__created_at")
        .values_list("user__username", flat=True)[: limit * 8]
    )
    names: list[str] = []
    for name in rows:
        if name not in names:
            names.append(name)
    return names[:limit]


@transaction.atomic
def invite(table_id, user, username) -> Invitation:
    """Invite a person by username to an open table where ``user`` sits (or which they created): it shows
    on their dashboard and badge, lets them into a private table, and e-mails a verified address."""
    from django.contrib.auth import get_user_model

    from tables import notifications

    table = _locked_table(table_id)
    seats = selectors.read_seats(table)
    if seat_of(seats, user) is None and table.created_by_id != user.pk:
        raise Forbidden(gettext("Only a player at the table can invite."))
    if table.status != Table.OPEN:
        raise Conflict(gettext("Invitations are for tables still open."))
    if not isinstance(username, str) or not username.strip():
        raise BadRequest(gettext("Give the username of the player to invite."))
    invitee = (
        get_user_model()
        .objects.select_related("verified_email")
        .filter(username__iexact=username.strip()[:150], is_active=True)
        .first()
    )
    if invitee is None:
        raise BadRequest(gettext("No player is called %(name)s.") % {"name": repr(username.strip()[:150])})
    if invitee.pk == user.pk:
        raise BadRequest(gettext("You are at this table already."))
    if blocks.between(user.pk, invitee.pk):
        raise Forbidden(blocks.not_possible())
    if seat_of(seats, invitee) is not None:
        raise Conflict(gettext("%(name)s already has a seat at this table.") % {"name": invitee.username})
    invitation, created = Invitation.objects.get_or_create(
        table=table, user=invitee, defaults={"invited_by": user}
    )
    if created:
        notifications.invited(table, user, invitee)
        transaction.on_commit(lambda: notifications.refresh_badges(table.pk, [invitee.pk]), robust=True)
    return invitation


def take_back(table_id, user, seq) -> MoveResult:
    """Cancel the caller's latest move, where it was recorded as one that may be taken back (within their
    own turn, nothing revealed). The take-back is itself a row of the log; the state is rebuilt by replaying
    the moves that stand from the seed. Judged like a move: 404, 403, 400, 409 stale seq, 409 nothing."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seats = selectors.read_seats(table)
        seat = seat_of(seats, user)
        if seat is None:
            raise Forbidden(gettext("You have no seat at this table."))
        _check_seq(table, seq)
        if seats[seat].is_bot:
            raise Forbidden(gettext("A bot is playing your seat: reclaim it first."))
        moves = list(Move.objects.filter(table=table).defer("events").order_by("seq"))
        target = social.takeback_target(moves)
        if target is None or target.seat != seat:
            raise Conflict(
                gettext(
                    "There is no move of yours to take back: only moves of this turn that showed nothing."
                )
            )
        engine = table.engine
        awaited = set(table.to_act)
        state = rebuild_state(table, [m for m in moves if m.seq != target.seq])
        Move.objects.create(
            table=table,
            seq=table.seq,
            seat=seat,
            move={"type": social.TAKE_BACK},
            cancels=target.seq,
        )
        table.seq += 1
        table.state = engine.dump(state)
        publication = _store_progress(table, engine, state, seats, previously_awaited=awaited)
        return MoveResult(seq=table.seq, table=table, publication=publication)
