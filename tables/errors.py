"""The refusals of the table services, each with the HTTP status pages, the API and sockets answer it with.

In a module of their own so that whatever checks access or judges a change can raise them without
importing the services (which import most of ``tables``).
"""

from __future__ import annotations

from django.http import JsonResponse


def json_error(message: str, status: int) -> JsonResponse:
    """A JSON answer's refusal, as every JSON call of the site words it (CONTRACTS §2): ``{"error": ...}``."""
    return JsonResponse({"error": message}, status=status)


class TableError(Exception):
    """A refusal; its message is for the person (in the language active when it is raised)."""

    status = 400

    def __init__(self, message: str):
        message = str(message)  # (a lazy translation is put into words now)
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
