import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _

from accounts.limits import room_for


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiToken(models.Model):
    """A bearer token for the JSON API. Only its hash is stored; the raw token is shown once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.user} · {self.prefix}…"

    @classmethod
    def issue(cls, user, name: str = "") -> tuple["ApiToken", str]:
        """A new token and its raw value; LimitReached when the account holds API_TOKEN_LIMIT already."""
        limit = settings.API_TOKEN_LIMIT
        message = _(
            "An account may hold at most %(limit)d API tokens: revoke one on your profile page first."
        ) % {"limit": limit}
        raw = secrets.token_urlsafe(32)
        with room_for(user, cls.objects.filter(user=user), limit, message):
            token = cls.objects.create(user=user, name=name[:60], key_hash=hash_token(raw), prefix=raw[:8])
        return token, raw


class Deck(models.Model):
    """A player's saved Chronica Universalis deck (card codes, validated by rules.chronica)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=80)
    cards = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name

    @classmethod
    def create_for(cls, owner, name: str, cards: list[str]) -> "Deck":
        """A new deck; LimitReached when the owner has DECK_LIMIT decks already."""
        limit = settings.DECK_LIMIT
        message = _("You may keep at most %(limit)d decks: delete one first.") % {"limit": limit}
        with room_for(owner, cls.objects.filter(owner=owner), limit, message):
            return cls.objects.create(owner=owner, name=name, cards=cards)


class VerifiedEmail(models.Model):
    """The address a player proved they read (by opening a signed link sent to it). Changing
    ``user.email`` leaves it unverified until the new address is proved too."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verified_email"
    )
    email = models.EmailField()
    verified_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.user} · {self.email}"


class OutgoingMail(models.Model):
    """The outbox: a request only writes a row (in its own transaction); the worker sends it, retrying
    with backoff, so a slow or dead mail server never holds up a request or a bot."""

    PENDING, SENT, FAILED = "pending", "sent", "failed"
    STATUSES = [(PENDING, "Pending"), (SENT, "Sent"), (FAILED, "Failed")]

    to = models.EmailField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]

    def __str__(self):
        return f"{self.status} · {self.to} · {self.subject}"


class Preference(models.Model):
    """What a person chose for the site: the language it speaks to them in ("" until chosen:
    the browser's Accept-Language decides). Frames, e-mails and the move log follow it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference")
    language = models.CharField(max_length=8, blank=True, choices=settings.LANGUAGES)

    def __str__(self):
        return f"{self.user_id}: {self.language or 'browser'}"
