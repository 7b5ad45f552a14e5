"""A person's preferences, read where no request is at hand (frames, e-mails, the worker)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils import translation

from accounts.models import NotificationChoice, Preference


def chosen_language(user) -> str:
    """The language ``user`` kept on their account, or "" when they never chose (or are anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    try:
        return user.preference.language
    except Preference.DoesNotExist:
        return ""


def is_bot_account(user) -> bool:
    """Whether ``user`` is a bot account (tables.bot_accounts); False for anonymous visitors."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    try:
        return user.preference.bot_account
    except Preference.DoesNotExist:
        return False


def language_of_id(user_id: int) -> str:
    """The language of the person with this id (one query), for pushes that know only the id."""
    chosen = Preference.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE


def languages_of_ids(user_ids) -> dict[int, str]:
    """``language_of_id`` of each of ``user_ids``, in one query."""
    ids = list(user_ids)
    chosen = dict(Preference.objects.filter(user_id__in=ids).values_list("user_id", "language"))
    return {pk: chosen.get(pk) or settings.LANGUAGE_CODE for pk in ids}


def language_of(user) -> str:
    """The language ``user`` chose, or the site's default (also for anonymous visitors and bots)."""
    return chosen_language(user) or settings.LANGUAGE_CODE


def set_language(user, language: str) -> None:
    """Keep ``language`` (one of settings.LANGUAGES) on ``user``'s account."""
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language: {language}")
    Preference.objects.update_or_create(user=user, defaults={"language": language})


def in_words(message) -> str:
    """A sentence of the rules (a ``rules.core.Text``, or a refusal carrying one) in the active language;
    anything else as it is."""
    words = getattr(message, "words", None)
    if words is None:
        return str(message)
    return words((translation.get_language() or settings.LANGUAGE_CODE).split("-")[0])


def notification_choice(user) -> NotificationChoice:
    """What ``user`` chose for being told (read fresh: a worker may hold an old copy of the person); the
    defaults, unsaved, when they never chose."""
    user_id = getattr(user, "pk", user)
    return NotificationChoice.objects.filter(user_id=user_id).first() or NotificationChoice(user_id=user_id)


def zone_of(choice: NotificationChoice) -> ZoneInfo:
    try:
        return ZoneInfo(choice.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_end(choice: NotificationChoice, now: datetime) -> datetime | None:
    """When the person's quiet hours end, if ``now`` falls in them (None otherwise). Hours are read in their
    own time zone; a span such as 22:00-07:00 runs over midnight."""
    start, end = choice.quiet_from, choice.quiet_until
    if start is None or end is None or start == end:
        return None
    zone = zone_of(choice)
    local = now.astimezone(zone)
    moment = local.time().replace(tzinfo=None)
    if start < end:
        quiet = start <= moment < end
        day = local.date()
    else:  # over midnight
        quiet = moment >= start or moment < end
        day = local.date() + timedelta(days=1) if moment >= start else local.date()
    if not quiet:
        return None
    return datetime.combine(day, end, tzinfo=zone)


def not_before(choice: NotificationChoice, now: datetime) -> datetime:
    """The earliest a mail or push to this person may go: now, or when their quiet hours end."""
    return quiet_end(choice, now) or now
