import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.limits import room_for


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def _idle_cutoff(self):
        days = settings.API_TOKEN_IDLE_DAYS
        return timezone.now() - timedelta(days=days) if days > 0 else None

    def live(self):
        """Tokens used (or, never used, created) within ``API_TOKEN_IDLE_DAYS``: the others have expired."""
        cutoff = self._idle_cutoff()
        if cutoff is None:
            return self
        return self.alias(used=Coalesce("last_used_at", "created_at")).filter(used__gte=cutoff)

    def idle(self):
        """The tokens that expired for want of use."""
        cutoff = self._idle_cutoff()
        if cutoff is None:
            return self.none()
        return self.alias(used=Coalesce("last_used_at", "created_at")).filter(used__lt=cutoff)


class ApiToken(models.Model):
    """A bearer token for the JSON API. Only its hash is stored; the raw token is shown once.

    A token unused for ``API_TOKEN_IDLE_DAYS`` expires: it is refused, shown as expired on the profile, and
    deleted when its owner next makes a token (so it no longer counts towards ``API_TOKEN_LIMIT``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.user} · {self.prefix}…"

    @property
    def expires_at(self):
        """When the token expires if it stays unused (None: tokens never expire here)."""
        days = settings.API_TOKEN_IDLE_DAYS
        return (self.last_used_at or self.created_at) + timedelta(days=days) if days > 0 else None

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @classmethod
    def issue(cls, user, name: str = "", replace: bool = False) -> tuple["ApiToken", str]:
        """A new token and its raw value; LimitReached when the account holds API_TOKEN_LIMIT already.

        ``replace``: the account's tokens of the same name are revoked in the same transaction, so a script
        that logs in on each start holds one token, never reaching the limit."""
        limit = settings.API_TOKEN_LIMIT
        message = _(
            "An account may hold at most %(limit)d API tokens: revoke one on your profile page first."
        ) % {"limit": limit}
        raw = new_raw_token()
        name = name[:60]
        mine = cls.objects.filter(user=user)
        with transaction.atomic():
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # (racing issues wait)
            revoked = list(mine.idle().values_list("pk", flat=True))
            if replace:
                revoked += mine.filter(name=name).values_list("pk", flat=True)
            if revoked:  # (one post_delete each: every process forgets the revoked tokens)
                cls.objects.filter(pk__in=revoked).delete()
            with room_for(user, mine, limit, message):
                token = cls.objects.create(user=user, name=name, key_hash=hash_token(raw), prefix=raw[:8])
        return token, raw


def new_raw_token() -> str:
    """43 URL-safe characters (256 random bits) that never begin with '-': pasted after an option on a command
    line (``play_bot --token T``, ``curl -H``), a token must not read as an option itself."""
    while (raw := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return raw


def first_deck_game() -> str:
    """The slug of the registry's first deck-building game: the game of a deck made without naming one (the
    decks saved before a deck named its game were all that game's)."""
    from tables import games

    return next((entry.slug for entry in games.plugins() if entry.decks is not None), "")


class Deck(models.Model):
    """A player's saved deck for one deck-building game (card codes, judged by that game's rules)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    game = models.CharField(max_length=40, default=first_deck_game)
    name = models.CharField(max_length=80)
    cards = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name

    @classmethod
    def create_for(cls, owner, name: str, cards: list[str], game: str | None = None) -> "Deck":
        """A new deck of ``game`` (else the first deck-building game's); LimitReached when the owner has
        DECK_LIMIT decks already (of every game)."""
        limit = settings.DECK_LIMIT
        message = _("You may keep at most %(limit)d decks: delete one first.") % {"limit": limit}
        with room_for(owner, cls.objects.filter(owner=owner), limit, message):
            return cls.objects.create(owner=owner, name=name, cards=cards, game=game or first_deck_game())


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
    bot_account = models.BooleanField(default=False)  # a bot account (tables.bot_accounts), for good

    def __str__(self):
        return f"{self.user_id}: {self.language or 'browser'}"


class NotificationChoice(models.Model):
    """How a person wants to be told that a game waits for them: per channel on or off, e-mail as a daily
    digest instead of a mail per turn, and quiet hours in their own time zone (nothing is mailed or pushed
    then; what was held goes out when they end). No row: the defaults (mail and push on, sound off)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_choice"
    )
    email = models.BooleanField(default=True)
    email_digest = models.BooleanField(default=False)
    push = models.BooleanField(default=True)
    sound = models.BooleanField(default=False)
    time_zone = models.CharField(max_length=64, default="UTC")
    quiet_from = models.TimeField(null=True, blank=True)
    quiet_until = models.TimeField(null=True, blank=True)
    digest_sent_on = models.DateField(null=True, blank=True)  # the person's local date of the last digest

    def __str__(self):
        return f"{self.user_id}: mail {self.email}, push {self.push}, sound {self.sound}"


class PushSubscription(models.Model):
    """One device's Web Push subscription (the browser's PushSubscription): where to send and the keys a
    push is encrypted to (RFC 8291). Deleted when the push service answers 404 or 410."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=100, blank=True)  # a label: "Firefox on Android"
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.user_id} · {self.user_agent or self.endpoint[:40]}"


class OutgoingPush(models.Model):
    """The push outbox, like OutgoingMail: a change only writes rows; the worker encrypts and sends them,
    retrying with backoff, and records each outcome. The payload holds only what the recipient may read."""

    PENDING, SENT, FAILED, GONE, SKIPPED = "pending", "sent", "failed", "gone", "skipped"
    STATUSES = [
        (PENDING, "Pending"),
        (SENT, "Sent"),
        (FAILED, "Failed"),
        (GONE, "Gone"),
        (SKIPPED, "Skipped"),
    ]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    subscription = models.ForeignKey(PushSubscription, on_delete=models.SET_NULL, null=True, related_name="+")
    payload = models.JSONField()  # {"title", "body", "url", "tag"}
    table_id = models.BigIntegerField(null=True, blank=True)  # not pushed while the person has it in view
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)  # the push service's HTTP answer
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="push_outbox_due")]

    def __str__(self):
        return f"{self.status} · {self.user_id} · {self.payload.get('title', '')}"


class VapidKeys(models.Model):
    """The site's VAPID key pair when the settings give none: generated once (one row) and kept."""

    private_key = models.CharField(max_length=100)  # base64url of the raw 32-byte P-256 private value
    public_key = models.CharField(max_length=100)  # base64url of the uncompressed point
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.public_key[:16] + "…"


# --- The club: follows, blocks, challenge settings, faces, names left behind -----------------------


class Follow(models.Model):
    """``follower`` follows ``followed``: their presence and public tables show on the follower's pages."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair")]

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` keeps ``blocked`` away: no invitation, challenge or seat at the blocker's tables from them,
    and the blocker does not read their chat. Neither is told more than "not possible"."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"


class ClubSetting(models.Model):
    """Who may challenge a person (no row: everyone), their face (an uploaded picture, re-encoded as PNG;
    none: the avatar drawn from their id)."""

    EVERYONE, FOLLOWED, NOBODY = "everyone", "followed", "nobody"
    CHALLENGES = [(EVERYONE, "Everyone"), (FOLLOWED, "People I follow"), (NOBODY, "Nobody")]

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club")
    challenges = models.CharField(max_length=10, choices=CHALLENGES, default=EVERYONE)
    picture = models.BinaryField(null=True, blank=True)  # PNG bytes, metadata stripped
    picture_version = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.user_id}: challenges from {self.challenges}"


class DeletedName(models.Model):
    """A username whose account was deleted: kept (hashed, normalised) so nobody takes it for 30 days."""

    name_hash = models.CharField(max_length=64, unique=True)
    deleted_at = models.DateTimeField()

    def __str__(self):
        return f"{self.name_hash[:12]}… {self.deleted_at:%Y-%m-%d}"
