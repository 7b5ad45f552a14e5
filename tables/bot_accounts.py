"""Bot accounts (issue #32, point 3): a person may turn an account that has played no rated game into a bot
account, for good. Its seats and its player page say BOT; it has a leaderboard of its own
(``ratings.leaderboard(..., bots=True)``); it answers challenges through the API like anyone.

Which tables are rated: a table with bot accounts and people both is rated only when a person chose so: the
person who made the table with "rated" ticked, or a person who accepted a rated challenge (from a bot
account or to one). A bot account that makes a rated table plays it unrated when people sit there; a table
of people alone or of bot accounts alone keeps the choice of its maker. (Seats played by the site's own
bots are never rated: ``services.create_table``.)
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import Preference
from accounts.preferences import is_bot_account
from tables.errors import Conflict
from tables.models import Rating, RatingChange, Seat, Table


def has_rated_games(user) -> bool:
    """Whether ``user`` has played a rated game, or sits at a rated table in play."""
    return (
        RatingChange.objects.filter(user=user).exists()
        or Rating.objects.filter(user=user).exists()
        or Seat.objects.filter(user=user, table__rated=True, table__status=Table.PLAYING).exists()
    )


@transaction.atomic
def become_bot(user) -> None:
    """Make ``user``'s account a bot account; refused once it has played a rated game."""
    if is_bot_account(user):
        return
    if has_rated_games(user):
        raise Conflict(gettext("Only an account that has played no rated game can become a bot account."))
    Preference.objects.update_or_create(user=user, defaults={"bot_account": True})
    user.__dict__.pop("_preference_cache", None)
    if hasattr(user, "_state"):
        user._state.fields_cache.pop("preference", None)


def stays_rated(creator, seats, person_chose: bool = False) -> bool:
    """Whether a table ``creator`` asked to be rated is rated as it starts (see the module)."""
    accounts = [s.user for s in seats if s.user_id and not s.bot]
    bots = [is_bot_account(u) for u in accounts]
    if all(bots) or not any(bots):
        return True
    return person_chose or (creator is not None and not is_bot_account(creator))
