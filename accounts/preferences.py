"""A person's preferences, read where no request is at hand (frames, e-mails, the worker)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from accounts.models import Preference


def chosen_language(user) -> str:
    """The language ``user`` kept on their account, or "" when they never chose (or are anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    try:
        return user.preference.language
    except Preference.DoesNotExist:
        return ""


def language_of_id(user_id: int) -> str:
    """The language of the person with this id (one query), for pushes that know only the id."""
    chosen = Preference.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE


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
