"""The whole JSON API (CONTRACTS §2) declared with django-ninja: every call is a ninja operation with its
request and answer schemas, served as OpenAPI 3.1 at ``GET /api/openapi.json`` and read as a page at
``GET /api/docs``.

Each operation runs the call's own view (``tables.api`` and its neighbours), which judges the request as
before and in the same order (the token, then the body, then the services: CONTRACTS §2's order for a move):
ninja routes, and the declarations describe. Nothing a client sends is checked by ninja first, so no answer
changes shape (no 422, no ``{"detail"}``): errors stay ``{"error": "..."}``. A method a path does not take
reaches the view too, which answers 405 ``{"error"}`` as it always did.

The document is checked against the running site by schemathesis (tests/tables/test_openapi.py).
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import Http404, JsonResponse
from django.utils.translation import gettext_noop
from ninja import NinjaAPI, Schema
from pydantic import Field

from tables import account_api, api, club_api, history_api, streams, tournament_api

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE")
BEARER = [{"bearer": []}]


class CardClubAPI(NinjaAPI):
    """NinjaAPI with the request bodies (declared, judged by the views) and the bearer token in its document."""

    def get_openapi_schema(self, *args, **kwargs):
        schema = super().get_openapi_schema(*args, **kwargs)
        components = schema.setdefault("components", {})
        found = components.setdefault("schemas", {})
        for model in DECLARED:
            shape = model.model_json_schema(ref_template="#/components/schemas/{model}")
            found.update(shape.pop("$defs", {}))
            found[model.__name__] = shape
        components["securitySchemes"] = {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "A token from POST /api/token or the profile page.",
            }
        }
        return schema


ninja_api = CardClubAPI(
    title="Card Club API",
    version="2",
    description=(
        "Bots and scripts play the four games of the club. Send `Authorization: Bearer <token>` "
        "(from `POST /api/token` or the profile page) to every call but `POST /api/token`, `GET /api/games`, "
        '`GET /api/push/key` and `POST /api/password-reset`. Every error is `{"error": "..."}`.'
    ),
    openapi_url="/openapi.json",
    docs_url=None,  # (the page of our own: tables.api_docs)
    urls_namespace="api",
)


@ninja_api.exception_handler(Http404)
def _not_found(request, exc):
    return JsonResponse({"error": "Not found."}, status=404)


@ninja_api.exception_handler(Exception)
def _unexpected(request, exc):
    raise exc  # Django's handler500 answers {"error"}, and logs it


# --- Schemas -------------------------------------------------------------------------------------------


class Error(Schema):
    error: str


class TokenIn(Schema):
    username: str
    password: str
    name: str | None = Field(
        None,
        min_length=1,
        max_length=60,
        description=gettext_noop("Replaces the account's token of this name instead of adding one."),
    )


class TokenOut(Schema):
    token: str


class TokenRow(Schema):
    id: int
    name: str
    prefix: str
    created_at: str
    last_used_at: str | None = Field(
        description=gettext_noop("Written at most once a minute; null: never used.")
    )
    expires_at: str | None = Field(description=gettext_noop("When the token expires if unused until then."))


class GameOut(Schema):
    slug: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Any]


class SeatOut(Schema):
    seat: int
    user: str | None
    bot: str | None


class TableOut(Schema):
    id: int
    game: str
    status: Literal["open", "playing", "finished", "aborted"]
    players: int
    options: dict[str, Any]
    seats: list[SeatOut]
    move_time: int | None
    spectator_chat: bool
    deadline: str | None
    seq: int
    to_act: list[int]
    view: dict[str, Any] | None
    legal_moves: list[dict[str, Any]]
    result: dict[str, Any] | None
    invite: str | None = Field(
        None, description=gettext_noop("Only on a private table, for whoever may see it.")
    )


class BotSeat(Schema):
    seat: int | None = None
    level: str | None = None


class TableIn(Schema):
    game: str
    players: int | None = None
    options: dict[str, Any] | None = None
    bots: list[BotSeat] | None = None
    private: bool | None = None
    rated: bool | None = None
    spectator_chat: bool | None = None
    move_time: int | None = None


class JoinIn(Schema):
    deck: list[str] | None = None
    invite: str | None = None


class SeatNumber(Schema):
    seat: int


class MoveIn(Schema):
    move: dict[str, Any]
    seq: int


class Seq(Schema):
    seq: int


class SeqIn(Schema):
    seq: int


class MoveRow(Schema):
    seq: int
    seat: int | None
    move: dict[str, Any]
    at: str
    taken_back: bool | None = None


class YourTurnRow(Schema):
    table: int
    game: str
    waiting_since: str
    deadline: str | None
    opponents: list[str | None]
    seat: int
    seq: int
    url: str
    bots_only: bool


class ChatIn(Schema):
    text: str | None = None
    phrase: str | None = None


class ChatOut(Schema):
    id: int
    user: str | None
    text: str
    phrase: str | None
    at: str


class InviteIn(Schema):
    username: str


class Invited(Schema):
    user: str


class ExportMove(Schema):
    seq: int
    seat: int | None
    move: dict[str, Any]


class ExportOut(Schema):
    game: str
    options: dict[str, Any]
    players: list[str | None]
    seed: int
    moves: list[ExportMove]
    result: dict[str, Any] | None


class ReplayIn(Schema):
    game: str
    options: dict[str, Any]
    players: list[str | None]
    seed: int
    moves: list[ExportMove]
    result: dict[str, Any] | None


class ReplayOut(Schema):
    reproduces: bool
    message: str
    result: Any = None


class LeaderRow(Schema):
    rank: int
    username: str
    rating: float | None
    display_rating: int | None
    provisional: bool
    games: int


class Leaderboard(Schema):
    game: str
    bots: bool
    players: list[LeaderRow]


class GameRecord(Schema):
    played: int
    won: int
    rating: float | None
    display_rating: int | None
    provisional: bool


class PlayerOut(Schema):
    username: str
    games: dict[str, GameRecord]
    online: bool
    playing: list[int]
    followed: bool


class Followed(Schema):
    username: str
    online: bool


class ChallengeIn(Schema):
    username: str
    game: str
    players: int | None = None
    options: dict[str, Any] | None = None
    move_time: int | None = None
    rated: bool | None = None
    others: Literal["casual", "strong", "open"] | None = None
    expires_in: int | None = None


class Created(Schema):
    id: int


class ChallengeOut(Schema):
    id: int
    from_: str = Field(alias="from")
    to: str
    game: str
    players: int
    others: str
    options: dict[str, Any]
    move_time: int | None
    rated: bool
    status: str
    created_at: str
    expires_at: str
    table: int | None


class Challenges(Schema):
    received: list[ChallengeOut]
    sent: list[ChallengeOut]


class LivePlayer(Schema):
    username: str | None
    rating: float | None


class LiveRow(Schema):
    id: int
    game: str
    players: list[LivePlayer]
    spectators: int
    move: int
    round: int | None


class PasswordIn(Schema):
    password: str


class BotAccountOut(Schema):
    username: str
    bot: bool


class HistoryRow(Schema):
    id: int
    game: str
    players: list[str | None]
    scores: list[Any]
    winners: list[int]
    finished_at: str


class HistoryPage(Schema):
    games: list[HistoryRow]
    next: str | None = Field(
        description=gettext_noop("The cursor of the following page (?after=), null on the last.")
    )


class EmailIn(Schema):
    email: str


class Detail(Schema):
    detail: str


class PublicKey(Schema):
    public_key: str


class PushKeys(Schema):
    p256dh: str
    auth: str


class SubscriptionIn(Schema):
    endpoint: str
    keys: PushKeys


class SubscriptionId(Schema):
    id: int


class EventLine(Schema):
    type: Literal[
        "gameStart", "gameFinish", "yourTurn", "challenge", "challengeCanceled", "challengeDeclined"
    ]
    table: int | None = Field(None, description=gettext_noop("The table of a game's events."))
    game: str | None = None
    status: Literal["finished", "aborted"] | None = Field(None, description=gettext_noop("On gameFinish."))
    seq: int | None = Field(None, description=gettext_noop("On yourTurn: the seq to play at."))
    challenge: ChallengeOut | int | None = Field(
        None, description=gettext_noop("The challenge (its id once canceled or declined).")
    )


class TableStreamLine(Schema):
    type: Literal["full", "state", "finish"]
    seq: int | None = Field(
        None, description=gettext_noop("On full and state lines, as GET /api/tables/<id> shows.")
    )
    status: Literal["open", "playing", "finished", "aborted"] | None = None
    seats: list[SeatOut] | None = None
    view: dict[str, Any] | None = None
    legal_moves: list[dict[str, Any]] | None = None
    to_act: list[int] | None = None
    result: dict[str, Any] | None = Field(
        None, description=gettext_noop("On the finish line (null: aborted).")
    )


class TournamentBots(Schema):
    count: int
    level: str | None = None


class TournamentIn(Schema):
    game: str
    format: Literal["swiss", "arena"]
    table_size: int
    move_time: int
    rounds: int | None = Field(None, description=gettext_noop("A Swiss tournament's rounds."))
    minutes: int | None = Field(None, description=gettext_noop("An arena's length."))
    options: dict[str, Any] | None = None
    rated: bool | None = None
    private: bool | None = None
    max_players: int | None = None
    starts_at: str | None = Field(None, description=gettext_noop("ISO 8601; null: started by its creator."))
    bots: TournamentBots | None = None
    description: str | None = None


class TournamentInviteIn(Schema):
    invite: str | None = None


class PauseIn(Schema):
    paused: bool | None = Field(
        None, description=gettext_noop("true (the default) to pause, false to come back.")
    )


class StandingRow(Schema):
    rank: int
    username: str
    points: float
    tiebreak: float
    games: int


class TournamentRow(Schema):
    id: int
    game: str
    format: Literal["swiss", "arena"]
    status: Literal["open", "running", "finished"]
    table_size: int
    rounds: int | None
    minutes: int | None
    move_time: int | None
    rated: bool
    max_players: int | None
    starts_at: str | None
    created_by: str | None
    players: int


class TournamentOut(Schema):
    id: int
    game: str
    format: Literal["swiss", "arena"]
    status: Literal["open", "running", "finished"]
    table_size: int
    move_time: int | None
    options: dict[str, Any]
    rated: bool
    max_players: int | None
    starts_at: str | None
    started_at: str | None
    finished_at: str | None
    created_by: str | None
    description: str
    bots: TournamentBots
    private: bool
    players: list[str]
    standings: list[StandingRow]
    invite: str | None = Field(
        None, description=gettext_noop("Only on a private tournament, for its creator and players.")
    )
    round: int | None = Field(
        None, description=gettext_noop("Swiss: the round in play (0 before the first).")
    )
    round_count: int | None = Field(None, description=gettext_noop("Swiss: the rounds it has."))
    rounds: list[list[int]] | None = Field(None, description=gettext_noop("Swiss: each round's tables."))
    minutes: int | None = Field(None, description=gettext_noop("Arena: its length."))
    ends_at: str | None = Field(None, description=gettext_noop("Arena: when it ends."))
    tables: list[int] | None = Field(None, description=gettext_noop("Arena: its tables."))


DECLARED = [  # the request bodies, and the lines of the streams (declare)
    TokenIn,
    TableIn,
    JoinIn,
    MoveIn,
    SeqIn,
    ChatIn,
    InviteIn,
    ReplayIn,
    ChallengeIn,
    PasswordIn,
    EmailIn,
    SubscriptionIn,
    TournamentIn,
    TournamentInviteIn,
    PauseIn,
]


# --- Operations ----------------------------------------------------------------------------------------


def query(name: str, description: str, schema: dict | None = None) -> dict:
    return {
        "in": "query",
        "name": name,
        "required": False,
        "description": description,
        "schema": schema or {"type": "string"},
    }


def body(model, required: bool = True) -> dict:
    return {
        "required": required,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}},
    }


def errors(*codes: int) -> dict:
    return dict.fromkeys(codes, Error)


HISTORY_FILTERS = [
    query("user", gettext_noop("whose history (the caller's when absent)")),
    query("game", gettext_noop("a game's slug")),
    query("opponent", gettext_noop("a username")),
    query(
        "result", gettext_noop("won, lost or shared"), {"type": "string", "enum": ["won", "lost", "shared"]}
    ),
    query("rated", gettext_noop("yes or no"), {"type": "string", "enum": ["yes", "no"]}),
    query("from", gettext_noop("finished on or after (YYYY-MM-DD)"), {"type": "string", "format": "date"}),
    query("to", gettext_noop("finished on or before (YYYY-MM-DD)"), {"type": "string", "format": "date"}),
]


def declare(path: str, view, operations: dict[str, dict], params: tuple[tuple[str, type], ...] = ()):
    """One path: its documented operations, each running ``view``; every other method runs it too (405)."""
    run = _runner(view, params)
    for method, spec in operations.items():
        spec = dict(spec)
        extra = {}
        if "body" in spec:
            extra["requestBody"] = spec.pop("body")
        if "query" in spec:
            extra["parameters"] = spec.pop("query")
        if "stream" in spec:  # a 200 of NDJSON lines, each one of the model's shape
            model = spec.pop("stream")
            DECLARED.append(model)
            extra["responses"] = {
                200: {
                    "description": "NDJSON: one JSON object a line; an empty line to keep the connection alive.",
                    "content": {
                        "application/x-ndjson": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}
                    },
                }
            }
        if spec.pop("auth", True):
            extra["security"] = BEARER
        ninja_api.api_operation(
            [method],
            path,
            response=spec.pop("response"),
            summary=spec.pop("summary"),
            description=spec.pop("description", ""),
            operation_id=spec.pop("id"),
            deprecated=spec.pop("deprecated", False),
            openapi_extra=extra or None,
        )(run)
    others = [m for m in METHODS if m not in operations]
    ninja_api.api_operation(others, path, include_in_schema=False)(run)
    if getattr(view, "hashes_passwords", False):
        HASHING.add(path.strip("/"))


HASHING: set[str] = set()  # the routes whose views hash a password (accounts.throttle.hashes_passwords)


def url_patterns() -> list:
    """The API's URL patterns; those of a view that hashes a password keep its mark (config.handlers reads it
    on the view a path resolves to, and here that is ninja's)."""
    patterns, _app, _namespace = ninja_api.urls
    for pattern in patterns:
        if str(pattern.pattern) in HASHING:
            pattern.callback.hashes_passwords = True
    return patterns


def _runner(view, params):
    """A function whose signature names the path's parameters (so ninja declares them) and calls ``view``."""
    if not params:

        def run(request):
            return view(request)

    elif params == (("pk", int),):

        def run(request, pk: int):
            return view(request, pk=pk)

    elif params == (("pk", str),):

        def run(request, pk: str):
            return view(request, pk=pk)

    elif params == (("username", str),):

        def run(request, username: str):
            return view(request, username=username)

    elif params == (("slug", str),):

        def run(request, slug: str):
            return view(request, slug=slug)

    else:  # pragma: no cover
        raise ValueError(params)
    run.__name__ = run.__qualname__ = view.__name__
    run.__module__ = view.__module__
    return run


PK = (("pk", int),)
TABLE_ERRORS = errors(400, 401, 403, 404, 409, 413)
INVITE = [query("invite", gettext_noop("the invite token of a private table"))]

declare(
    "/token",
    api.token,
    {
        "POST": {
            "id": "token_create",
            "summary": gettext_noop("Get a token"),
            "description": gettext_noop(
                "With a name, the new token replaces the account's token of that name (a script that logs "
                "in on each start keeps one token); without one, it is added (at most API_TOKEN_LIMIT)."
            ),
            "auth": False,
            "body": body(TokenIn),
            "response": {201: TokenOut, **errors(400, 413, 429)},
        }
    },
)
declare(
    "/tokens",
    account_api.tokens,
    {
        "GET": {
            "id": "token_list",
            "summary": gettext_noop("Your tokens and their last use"),
            "response": {200: list[TokenRow], **errors(401)},
        }
    },
)
declare(
    "/games",
    api.games,
    {
        "GET": {
            "id": "game_list",
            "summary": gettext_noop("The games"),
            "auth": False,
            "response": {200: list[GameOut]},
        }
    },
)
declare(
    "/tables",
    api.tables,
    {
        "POST": {
            "id": "table_create",
            "summary": gettext_noop("Open a table"),
            "description": gettext_noop(
                "The creator takes seat 0; bots filling every other seat start the table at once."
            ),
            "body": body(TableIn),
            "response": {201: TableOut, **TABLE_ERRORS, **errors(429)},
        }
    },
)
declare(
    "/tables/{int:pk}",
    api.table_detail,
    {
        "GET": {
            "id": "table_read",
            "summary": gettext_noop("A table as the caller sees it"),
            "query": INVITE,
            "response": {200: TableOut, **errors(400, 401, 403, 404)},
        }
    },
    PK,
)
declare(
    "/tables/{int:pk}/join",
    api.join,
    {
        "POST": {
            "id": "table_join",
            "summary": gettext_noop("Take the lowest free seat"),
            "query": INVITE,
            "body": body(JoinIn, required=False),
            "response": {200: SeatNumber, **TABLE_ERRORS, **errors(429)},
        }
    },
    PK,
)
for _name, _view, _summary in [
    ("start", api.start, gettext_noop("Start a full table (its creator)")),
    ("concede", api.concede, gettext_noop("Concede the game")),
    ("reclaim", api.reclaim, gettext_noop("Take back a seat a bot kept for you")),
    ("abort", api.abort, gettext_noop("Vote to abort the game")),
    ("abandon", api.abandon, gettext_noop("Walk away from a game against bots alone")),
]:
    declare(
        f"/tables/{{int:pk}}/{_name}",
        _view,
        {
            "POST": {
                "id": f"table_{_name}",
                "summary": _summary,
                "query": INVITE,
                "response": {200: TableOut, **TABLE_ERRORS},
            }
        },
        PK,
    )
declare(
    "/tables/{int:pk}/moves",
    api.moves,
    {
        "GET": {
            "id": "move_list",
            "summary": gettext_noop("The moves, as the caller may see them"),
            "query": INVITE,
            "response": {200: list[MoveRow], **errors(400, 401, 403, 404)},
        },
        "POST": {
            "id": "move_play",
            "summary": gettext_noop("Play a move"),
            "description": gettext_noop(
                "Judged in this order: 404 no such table; 403 no seat there; 400 a malformed body; 409 the "
                "table is not playing or seq is not its current seq; 403 not your turn; 400 an illegal move."
            ),
            "query": INVITE,
            "body": body(MoveIn),
            "response": {200: Seq, **TABLE_ERRORS},
        },
    },
    PK,
)
declare(
    "/tables/{int:pk}/takeback",
    api.takeback,
    {
        "POST": {
            "id": "move_take_back",
            "summary": gettext_noop("Take back your latest move of this turn"),
            "query": INVITE,
            "body": body(SeqIn),
            "response": {200: Seq, **TABLE_ERRORS},
        }
    },
    PK,
)
declare(
    "/tables/{int:pk}/chat",
    api.chat,
    {
        "GET": {
            "id": "chat_list",
            "summary": gettext_noop("The table's chat, oldest first"),
            "query": INVITE,
            "response": {200: list[ChatOut], **errors(400, 401, 403, 404)},
        },
        "POST": {
            "id": "chat_post",
            "summary": gettext_noop("Say something at the table"),
            "query": INVITE,
            "body": body(ChatIn),
            "response": {201: ChatOut, **TABLE_ERRORS, **errors(429)},
        },
    },
    PK,
)
declare(
    "/tables/{int:pk}/invite",
    api.invite,
    {
        "POST": {
            "id": "table_invite",
            "summary": gettext_noop("Invite a person to an open table"),
            "query": INVITE,
            "body": body(InviteIn),
            "response": {201: Invited, **TABLE_ERRORS, **errors(429)},
        }
    },
    PK,
)
declare(
    "/tables/{int:pk}/export",
    history_api.export,
    {
        "GET": {
            "id": "table_export",
            "summary": gettext_noop("A finished game, to replay anywhere"),
            "response": {200: ExportOut, **errors(400, 401, 404, 409)},
        }
    },
    PK,
)
declare(
    "/your-turn",
    api.your_turn_list,
    {
        "GET": {
            "id": "your_turn",
            "summary": gettext_noop("The tables waiting for your move, most urgent first"),
            "response": {200: list[YourTurnRow], **errors(400, 401)},
        }
    },
)
declare(
    "/replay",
    history_api.check,
    {
        "POST": {
            "id": "replay_check",
            "summary": gettext_noop("Check that an export replays to its result"),
            "body": body(ReplayIn),
            "response": {200: ReplayOut, **errors(400, 401, 413)},
        }
    },
)
declare(
    "/leaderboard/{slug:slug}",
    history_api.leaderboard,
    {
        "GET": {
            "id": "leaderboard",
            "summary": gettext_noop("A game's leaderboard, best first"),
            "description": gettext_noop("People's leaderboard, or with bots=1 the bot accounts' own."),
            "query": [
                query("page", gettext_noop("from 1"), {"type": "integer", "minimum": 1}),
                query(
                    "bots",
                    gettext_noop("1: the bot accounts' leaderboard; 0 (the default): people's"),
                    {"type": "integer", "enum": [0, 1]},
                ),
            ],
            "response": {200: Leaderboard, **errors(400, 401, 404)},
        }
    },
    (("slug", str),),
)
declare(
    "/players/{username}",
    history_api.player,
    {
        "GET": {
            "id": "player_read",
            "summary": gettext_noop("A player's record, presence and games in play"),
            "response": {200: PlayerOut, **errors(400, 401, 404)},
        }
    },
    (("username", str),),
)
for _name, _view, _what, _undo in [
    ("follow", club_api.follow, gettext_noop("Follow a player"), gettext_noop("Stop following a player")),
    ("block", club_api.block, gettext_noop("Block a player"), gettext_noop("Unblock a player")),
]:
    declare(
        f"/players/{{username}}/{_name}",
        _view,
        {
            "POST": {
                "id": f"player_{_name}",
                "summary": _what,
                "response": {204: None, **errors(400, 401, 403, 404, 429)},
            },
            "DELETE": {
                "id": f"player_un{_name}",
                "summary": _undo,
                "response": {204: None, **errors(400, 401, 403, 404)},
            },
        },
        (("username", str),),
    )
declare(
    "/following",
    club_api.following,
    {
        "GET": {
            "id": "following",
            "summary": gettext_noop("The players you follow"),
            "response": {200: list[Followed], **errors(400, 401)},
        }
    },
)
declare(
    "/challenges",
    club_api.challenge_list,
    {
        "GET": {
            "id": "challenge_list",
            "summary": gettext_noop("Your challenges, received and sent"),
            "response": {200: Challenges, **errors(400, 401)},
        },
        "POST": {
            "id": "challenge_create",
            "summary": gettext_noop("Challenge a player"),
            "body": body(ChallengeIn),
            "response": {201: Created, **errors(400, 401, 403, 404, 409, 413, 429)},
        },
    },
)
for _name, _view, _what, _answer in [
    ("accept", club_api.challenge_accept, gettext_noop("Accept a challenge: the table starts"), TableOut),
    ("decline", club_api.challenge_decline, gettext_noop("Decline a challenge"), None),
    ("cancel", club_api.challenge_cancel, gettext_noop("Withdraw your challenge"), None),
]:
    declare(
        f"/challenges/{{pk}}/{_name}",
        _view,
        {
            "POST": {
                "id": f"challenge_{_name}",
                "summary": _what,
                "response": {
                    (200 if _answer else 204): _answer,
                    **errors(400, 401, 403, 404, 409, 429),
                },
            }
        },
        (("pk", str),),
    )
declare(
    "/live",
    club_api.live,
    {
        "GET": {
            "id": "live",
            "summary": gettext_noop("Public tables in play, to watch"),
            "query": [
                query("game", gettext_noop("a game's slug")),
                query(
                    "sort", gettext_noop("recent or rating"), {"type": "string", "enum": ["recent", "rating"]}
                ),
            ],
            "response": {200: list[LiveRow], **errors(400, 401, 404)},
        }
    },
)
declare(
    "/account/export",
    club_api.account_export,
    {
        "GET": {
            "id": "account_export",
            "summary": gettext_noop("Your account's data (a JSON download)"),
            "response": {200: dict[str, Any], **errors(400, 401)},
        }
    },
)
declare(
    "/account/delete",
    club_api.account_delete,
    {
        "POST": {
            "id": "account_delete",
            "summary": gettext_noop("Delete your account (your password)"),
            "body": body(PasswordIn),
            "response": {204: None, **errors(400, 401, 403, 413, 429)},
        }
    },
)
declare(
    "/account/bot",
    account_api.account_bot,
    {
        "POST": {
            "id": "account_bot",
            "summary": gettext_noop("Make your account a bot account (none of its games rated yet)"),
            "description": gettext_noop(
                "For good. Refused (409) once the account has played a rated game. A table with bot accounts "
                "and people both is rated only when a person chose so (made it rated, or accepted a rated "
                "challenge)."
            ),
            "response": {200: BotAccountOut, **errors(401, 409)},
        }
    },
)
declare(
    "/history",
    history_api.history_list,
    {
        "GET": {
            "id": "history_list",
            "summary": gettext_noop("Finished games, newest first (at most 200)"),
            "description": gettext_noop("Deprecated: GET /api/v2/history pages through every game."),
            "deprecated": True,
            "query": HISTORY_FILTERS,
            "response": {200: list[HistoryRow], **errors(400, 401)},
        }
    },
)
declare(
    "/v2/history",
    history_api.history_pages,
    {
        "GET": {
            "id": "history_pages",
            "summary": gettext_noop("Finished games, newest first, page by page"),
            "description": gettext_noop(
                "Pass the answer's next as ?after= for the following page; next is null on the last."
            ),
            "query": [
                *HISTORY_FILTERS,
                query("after", gettext_noop("the cursor of the previous page's next")),
                query(
                    "limit",
                    gettext_noop("games a page, 1 to 200 (50)"),
                    {"type": "integer", "minimum": 1, "maximum": 200},
                ),
            ],
            "response": {200: HistoryPage, **errors(400, 401)},
        }
    },
)
declare(
    "/password-reset",
    account_api.password_reset,
    {
        "POST": {
            "id": "password_reset",
            "summary": gettext_noop("Mail a link to choose a new password"),
            "description": gettext_noop("The same answer whether or not the address is an account's."),
            "auth": False,
            "body": body(EmailIn),
            "response": {202: Detail, **errors(400, 413, 429)},
        }
    },
)
declare(
    "/push/key",
    account_api.push_key,
    {
        "GET": {
            "id": "push_key",
            "summary": gettext_noop("The Web Push (VAPID) public key"),
            "auth": False,
            "response": {200: PublicKey, **errors(400)},
        }
    },
)
declare(
    "/push/subscriptions",
    account_api.push_subscriptions,
    {
        "POST": {
            "id": "push_subscribe",
            "summary": gettext_noop("Send notifications to a device"),
            "body": body(SubscriptionIn),
            "response": {201: SubscriptionId, **errors(400, 401, 413, 429)},
        }
    },
)
declare(
    "/push/subscriptions/{pk}",
    account_api.push_subscription,
    {
        "DELETE": {
            "id": "push_unsubscribe",
            "summary": gettext_noop("Stop notifications to a device"),
            "response": {204: None, **errors(400, 401, 404)},
        }
    },
    (("pk", str),),
)
declare(
    "/stream/tables/{int:pk}",
    streams.table_stream,
    {
        "GET": {
            "id": "stream_table",
            "summary": gettext_noop("Follow a table as it changes (NDJSON)"),
            "description": gettext_noop(
                "First a full line as the caller sees the table, then a state line after every change, then a "
                "finish line when the game is over, and the answer ends. An empty line every few seconds "
                "keeps the connection alive."
            ),
            "query": INVITE,
            "stream": TableStreamLine,
            "response": errors(400, 401, 404, 503),
        }
    },
    PK,
)
declare(
    "/stream/events",
    streams.event_stream,
    {
        "GET": {
            "id": "stream_events",
            "summary": gettext_noop("Follow your events (NDJSON)"),
            "description": gettext_noop(
                "First one gameStart per game you play in now and one challenge per challenge awaiting your "
                "answer, then gameStart, gameFinish, yourTurn, challenge, challengeCanceled and "
                "challengeDeclined as they happen. An empty line every few seconds keeps the connection alive."
            ),
            "stream": EventLine,
            "response": errors(400, 401, 503),
        }
    },
)
TOURNAMENT_ERRORS = errors(400, 401, 403, 404, 409, 413)
TOURNAMENT_INVITE = [query("invite", gettext_noop("the invite token of a private tournament"))]
declare(
    "/tournaments",
    tournament_api.tournament_list,
    {
        "GET": {
            "id": "tournament_list",
            "summary": gettext_noop("Tournaments you may see, newest first (at most 100)"),
            "query": [
                query(
                    "status",
                    gettext_noop("open, running or finished"),
                    {"type": "string", "enum": ["open", "running", "finished"]},
                ),
                query("game", gettext_noop("a game's slug")),
            ],
            "response": {200: list[TournamentRow], **errors(400, 401, 404)},
        },
        "POST": {
            "id": "tournament_create",
            "summary": gettext_noop("Open a tournament"),
            "description": gettext_noop(
                "A Swiss tournament gives rounds, an arena minutes. Its creator starts it (or starts_at does)."
            ),
            "body": body(TournamentIn),
            "response": {201: TournamentOut, **TOURNAMENT_ERRORS, **errors(429)},
        },
    },
)
declare(
    "/tournaments/{int:pk}",
    tournament_api.tournament_detail,
    {
        "GET": {
            "id": "tournament_read",
            "summary": gettext_noop("A tournament, its standings and its rounds or tables"),
            "query": TOURNAMENT_INVITE,
            "response": {200: TournamentOut, **errors(400, 401, 403, 404)},
        }
    },
    PK,
)
for _name, _view, _summary, _body in [
    ("join", tournament_api.join, gettext_noop("Enter an open tournament"), TournamentInviteIn),
    ("leave", tournament_api.leave, gettext_noop("Leave an open tournament, or withdraw from it"), None),
    ("start", tournament_api.start, gettext_noop("Start a tournament (its creator)"), None),
    ("pause", tournament_api.pause, gettext_noop("Pause in an arena, or come back"), PauseIn),
]:
    declare(
        f"/tournaments/{{int:pk}}/{_name}",
        _view,
        {
            "POST": {
                "id": f"tournament_{_name}",
                "summary": _summary,
                "query": TOURNAMENT_INVITE,
                **({"body": body(_body, required=False)} if _body else {}),
                "response": {200: TournamentOut, **TOURNAMENT_ERRORS},
            }
        },
        PK,
    )
