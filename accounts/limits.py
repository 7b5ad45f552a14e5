"""What one account may own (API tokens, decks), and input that may not reach the database: control
characters (PostgreSQL refuses NUL in text) and ids that are not plain ASCII numbers in range."""

from __future__ import annotations

import re
import unicodedata
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _


class LimitReached(Exception):
    """The account already owns as many of a thing as it may; the message is for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@contextmanager
def room_for(user, owned, limit: int, message: str):
    """Inside one transaction, with the owner's row locked so racing creations count each other: raise
    LimitReached(message) if ``owned`` (a queryset of what the user owns) already holds ``limit``."""
    with transaction.atomic():
        list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))
        if owned.count() >= limit:
            raise LimitReached(message)
        yield


def has_control_characters(text: str) -> bool:
    """NUL (which PostgreSQL refuses in text) and every other control character."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)


CONTROL_CHARACTERS_MESSAGE = _("Control characters (such as NUL) are not allowed here.")


def refuse_control_characters(value) -> None:
    """A form-field validator."""
    if isinstance(value, str) and has_control_characters(value):
        raise ValidationError(CONTROL_CHARACTERS_MESSAGE, code="control_characters")


ID_MAX = 2**63 - 1  # the largest primary key a database row can have


def parse_id(raw) -> int | None:
    """A row id from client input: ASCII digits only (str.isdigit also takes "²") and within range."""
    if not isinstance(raw, str) or not re.fullmatch(r"[0-9]{1,19}", raw):
        return None
    value = int(raw)
    return value if 0 < value <= ID_MAX else None
