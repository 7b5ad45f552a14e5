"""Usernames left behind: a deleted account's name is kept only as a hash of its normalised form, with the
date, so nobody registers it again for DELETED_NAME_DAYS days (someone else would inherit its history)."""

from __future__ import annotations

import hashlib
import unicodedata
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import DeletedName


def normalised(username: str) -> str:
    return unicodedata.normalize("NFKC", username).casefold().strip()


def name_hash(username: str) -> str:
    return hashlib.sha256(normalised(username).encode()).hexdigest()


def name_free(username: str, now=None) -> bool:
    """Whether ``username`` may be registered: not the name of an account deleted in the last days."""
    now = now or timezone.now()
    since = now - timedelta(days=settings.DELETED_NAME_DAYS)
    return not DeletedName.objects.filter(name_hash=name_hash(username), deleted_at__gt=since).exists()


def leave_behind(username: str, now=None) -> None:
    DeletedName.objects.update_or_create(
        name_hash=name_hash(username), defaults={"deleted_at": now or timezone.now()}
    )
