"""A person's preferences, read where no request is at hand (frames, e-mails, the worker)."""

from __future__ import annotations

import copy
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from accounts import api_tokens
from accounts.models import NotificationChoice, Preference, PushSubscription

KEPT_PEOPLE = 4096  # people whose telling a process keeps (``telling``)
KEEP_SECONDS = 600  # at most this long, even under an unchanged stamp


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


@dataclass(frozen=True)
class Telling:
    """How a person is told their turn began: their notification choice, and whether they have a push
    device (the push itself goes to the devices they have as it is queued: ``accounts.push.notify``)."""

    choice: NotificationChoice
    devices: bool


@dataclass
class _Kept:
    stamp: str
    expires: float  # time.monotonic()
    telling: Telling


_told: dict[int, _Kept] = {}
_told_lock = threading.Lock()


def telling(user_ids, stamps: dict[int, str] | None = None) -> dict[int, Telling]:
    """{person id: how they are told their turn began}, as the database has it: a move's path, where the
    same few people's turns come back every minute. The process keeps each person's under their stamp
    (``accounts.api_tokens``: renewed in the shared cache when their notification choice or one of their
    push devices is saved or deleted, in whichever process), so a person read once costs no query until it
    changes, and what changed anywhere is read again at the next move. ``stamps``: those of some of them
    read already in this change, before anything of theirs was read (a move's seated people:
    ``tables.rooms``); the others' are read here, in one cache read. Two queries for all those read afresh
    (none when none is); while the cache is out of reach (``config.cache``), every one of them."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return {}
    degraded = getattr(cache, "degraded", False)
    known = {pk: stamp for pk, stamp in (stamps or {}).items() if stamp} if not degraded else {}
    missing = [pk for pk in ids if pk not in known]
    if missing and not degraded:
        known.update(api_tokens.stamps(missing))  # (read before the rows: a change after renews it)
    now = time.monotonic()
    found: dict[int, Telling] = {}
    for pk in ids:
        kept = _told.get(pk)
        if kept is not None and kept.stamp and kept.stamp == known.get(pk) and kept.expires > now:
            found[pk] = kept.telling
    unread = [pk for pk in ids if pk not in found]
    if unread:
        choices = {c.user_id: c for c in NotificationChoice.objects.filter(user_id__in=unread)}
        devices = set(
            PushSubscription.objects.filter(user_id__in=unread).values_list("user_id", flat=True).distinct()
        )
        with _told_lock:
            for pk in unread:
                found[pk] = Telling(choices.get(pk) or NotificationChoice(user_id=pk), pk in devices)
                if known.get(pk) and not degraded:
                    _told.pop(pk, None)
                    _told[pk] = _Kept(known[pk], now + KEEP_SECONDS, found[pk])
            while len(_told) > KEPT_PEOPLE:
                _told.pop(next(iter(_told)))
    # (each caller its own copy of the choice: nothing one sets on it reaches another)
    return {pk: Telling(copy.copy(found[pk].choice), found[pk].devices) for pk in ids}


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
