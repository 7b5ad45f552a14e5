"""What a viewer sees of a table: one context, used by the page, the move response and the socket frame."""

from __future__ import annotations

from django.template.loader import render_to_string

from accounts import decks
from tables.models import Move, Seat, Table
from tables.services import names_of, seat_of

RECENT_MOVES = 12


def table_context(table: Table, user, *, seats: list[Seat] | None = None) -> dict:
    if seats is None:
        seats = list(table.seats.select_related("user").order_by("index"))
    engine = table.engine
    viewer = seat_of(seats, user)
    names = names_of(seats)
    ctx = {
        "table": table,
        "seats": seats,
        "viewer": viewer,
        "names": names,
        "game": engine,
        "board_template": f"games/{table.game}/board.html",
        "view": None,
        "legal_moves": [],
        "to_act": list(table.to_act or []),
        "my_turn": False,
        "is_creator": user is not None and user.is_authenticated and table.created_by_id == user.pk,
        "can_join": (
            table.status == Table.OPEN
            and user is not None
            and user.is_authenticated
            and viewer is None
            and any(not seat.taken for seat in seats)
        ),
        "full": all(seat.taken for seat in seats),
        "options_shown": [
            (spec.get("label", name), table.options.get(name))
            for name, spec in engine.options.items()
            if spec["type"] in ("choice", "bool") and name in table.options
        ],
    }
    if ctx["can_join"]:
        # The join form's deck choice must survive the socket frames too (they re-render the status).
        ctx["deck_choices"] = decks.deck_choices(user, table.game)
    if table.state is not None:
        state = engine.load(table.state)
        ctx["view"] = engine.view(state, viewer)
        if table.status == Table.PLAYING and viewer is not None and viewer in ctx["to_act"]:
            ctx["legal_moves"] = engine.legal_moves(state, viewer)
            ctx["my_turn"] = True
            # Each legal move with what it would do, where the engine tells it cheaply (Five Crowns' go-out
            # melds). A preview that plays the move on a copy (Chronica's honour) is asked for one move
            # at a time when the player picks it (views.move_preview), not drawn into every frame.
            preview = None if table.game == "chronica" else getattr(engine, "preview", None)
            ctx["choices"] = [
                {"move": m, "preview": preview(state, viewer, m) if preview else None}
                for m in ctx["legal_moves"]
            ]
        if table.result:
            ctx["ranking"] = ranking(table, names)
    moves = table.moves.order_by("-seq")
    if table.status != Table.FINISHED:  # a finished game shows its whole log
        moves = moves[:RECENT_MOVES]
    ctx["log"] = [
        {"seq": m.seq, "seat": m.seat, "name": names[m.seat], "lines": m.lines_for(viewer), "at": m.at}
        for m in reversed(list(moves))
    ]
    return ctx


def ranking(table: Table, names: list[str]) -> list[dict]:
    """Seats from best to worst, by the result's scores (lowest first where the game counts penalties)."""
    result = table.result or {}
    scores = result.get("scores", [])
    winners = set(result.get("winners", []))
    lowest_wins = getattr(table.engine, "low_score_wins", False)
    order = sorted(
        range(len(scores)), key=lambda s: (s not in winners, scores[s] if lowest_wins else -scores[s])
    )
    return [{"seat": s, "name": names[s], "score": scores[s], "winner": s in winners} for s in order]


def render_frame(table: Table, user) -> str:
    """One frame of out-of-band swaps for this viewer: status, board and log."""
    ctx = table_context(table, user)
    ctx["oob"] = True
    return render_to_string("tables/table.html#frame", ctx)


def render_frame_for(table_id: int, user) -> str | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    return render_frame(table, user)


def recent_moves(table: Table) -> list[Move]:
    return list(table.moves.order_by("-seq")[:RECENT_MOVES])
