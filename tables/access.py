"""Who may reach a table (healthchecks' permission-checked getters).

A public table is open to anyone (CONTRACTS §3). A private one is reachable only by its players,
its creator, the players of the game it is a rematch of, the people invited by username, and whoever
holds its invite token
(``/tables/<id>/?invite=<token>``; a page visit remembers the grant in the session). Anyone else is
told there is no such table: a 404, never a 403, so that walking the sequential ids learns nothing.
"""

from __future__ import annotations

import secrets
from contextlib import contextmanager

from django.utils.translation import gettext

from tables.errors import NotFound, TableError
from tables.models import Invitation, Seat, Table

SESSION_KEY = "table_invites"  # {str(table id): token} of the invite links this browser has opened
SESSION_GRANTS_KEPT = 200


def invite_matches(table: Table, invite) -> bool:
    if not isinstance(invite, str) or not invite:
        return False
    return secrets.compare_digest(invite.encode("utf-8", "replace"), table.invite_token.encode())


def may_watch(table: Table, user, *invites) -> bool:
    """True if ``user`` (or whoever holds one of ``invites``) may see ``table``."""
    if not table.private or any(invite_matches(table, invite) for invite in invites):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        table.created_by_id == user.pk
        or Seat.objects.filter(table=table, user=user).exists()
        or Invitation.objects.filter(table=table, user=user).exists()
        or Table.objects.filter(rematch=table, seats__user=user).exists()
    )


def table_for(pk, user, *invites) -> Table:
    """The table if ``user`` may see it, else NotFound (as for a table that does not exist)."""
    try:
        table = Table.objects.get(pk=pk)  # (no ORDER BY, unlike .first())
    except (Table.DoesNotExist, ValueError, TypeError):
        table = None
    if table is None or not may_watch(table, user, *invites):
        raise NotFound(gettext("No such table."))
    return table


@contextmanager
def hidden_unless_visible(pk, user, *invites):
    """Turn a refusal about a private table the caller may not see into NotFound.

    For actions a stranger can never succeed in (start, leave, concede, ...): the check costs nothing
    on success and hides whether the table exists when the action is refused.
    """
    try:
        yield
    except TableError as exc:
        if not isinstance(exc, NotFound):
            table_for(pk, user, *invites)
        raise


# --- The browser's grants, kept in its session ---------------------------------------------


def session_invite(session, pk):
    """The invite token this browser opened for table ``pk``, if any."""
    if session is None:
        return None
    grants = session.get(SESSION_KEY)
    return grants.get(str(pk)) if isinstance(grants, dict) else None


def remember_invite(session, table: Table) -> None:
    grants = session.get(SESSION_KEY)
    grants = dict(grants) if isinstance(grants, dict) else {}
    grants.pop(str(table.pk), None)
    grants[str(table.pk)] = table.invite_token
    session[SESSION_KEY] = dict(list(grants.items())[-SESSION_GRANTS_KEPT:])


def may_connect(table_id, user, session) -> bool:
    """May this socket (its user, its session's grants) watch table ``table_id``? False if there is none."""
    table = Table.objects.filter(pk=table_id).first()
    return table is not None and may_watch(table, user, session_invite(session, table_id))
