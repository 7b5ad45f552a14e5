"""Moves sent over a table's socket (CONTRACTS §3): ``{"move": {...}, "seq": n}`` as a text message.

A message is judged as ``POST /api/tables/<id>/moves`` judges its body, by the same service
(``services.play_move``: the same checks in the same order) and with the same refusals: 400 for a message
that is not a JSON object or a malformed or illegal move, 403 for a socket without a seat or out of turn,
409 for a stale ``seq``. Keys other than ``move`` and ``seq`` (htmx sends ``HEADERS``) are ignored. A move
played sends every socket its frame as any other change does; a refusal is told to the sending socket
only, as a frame whose error element carries ``data-refused="<status>"`` and the message, in the socket's
language.
"""

from __future__ import annotations

import json

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from tables import loops, services


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def parsed(text_data: str | None) -> tuple[object, object]:
    """(move, seq) of a socket's message, as the API reads them from a body; Refused(400) if it is no object."""
    if text_data is None:
        raise Refused(400, gettext("Send the move as a text message."))
    try:
        body = json.loads(text_data)
    except ValueError:
        raise Refused(400, gettext("The body is not valid JSON.")) from None
    except RecursionError:
        raise Refused(400, gettext("The body is nested too deeply.")) from None
    if not isinstance(body, dict):
        raise Refused(400, gettext("The body must be a JSON object."))
    return body.get("move"), body.get("seq")


def play(table_id: int, user, text_data: str | None, lang: str, loop=None) -> str | None:
    """Play the move a socket sent for ``user``; None once played, else the refusal's frame (in ``lang``).

    On a thread lent by the socket's event loop ``loop``: the move's frames and badges are handed to that
    loop to send (``tables.loops``), and the thread is given back at once."""
    with translation.override(lang), loops.serving(loop):
        try:
            if user is None or not user.is_authenticated:
                raise Refused(403, gettext("Sign in to play."))
            move, seq = parsed(text_data)
            services.play_move(table_id, user, move, seq)
        except Refused as exc:
            return refusal_frame(table_id, exc.status, exc.message)
        except services.TableError as exc:
            return refusal_frame(table_id, exc.status, exc.message)
    return None


def refusal_frame(table_id: int, status: int, message: str) -> str:
    return render_to_string(
        "tables/_error.html", {"table_id": table_id, "message": message, "status": status}
    )
