import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext

from rules import registry


def new_invite_token() -> str:
    """The secret part of a private table's invite link (unguessable, unlike the sequential id)."""
    return secrets.token_urlsafe(16)


class OfAGame:
    """For a model with a ``game`` field (a slug of rules.registry): its engine and its title."""

    @property
    def engine(self):
        return registry.get(self.game)

    @property
    def title(self) -> str:
        return self.engine.title


class Table(OfAGame, models.Model):
    """A game table. Its seed and its move log reproduce its state exactly; ``state`` caches it."""

    OPEN, PLAYING, FINISHED, ABORTED = "open", "playing", "finished", "aborted"
    STATUSES = [(OPEN, "Open"), (PLAYING, "Playing"), (FINISHED, "Finished"), (ABORTED, "Aborted")]

    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    private = models.BooleanField(
        default=False,
        help_text="Reachable only by its players, its creator and through its invite link (invite_token).",
    )
    invite_token = models.CharField(max_length=32, default=new_invite_token, editable=False)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    rated = models.BooleanField(default=False, help_text="Counts for ratings: every seat a person.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    # Never shown to anyone: the seed decides every shuffle.
    seed = models.BigIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    # Bumped by every change under the table's lock: live frames carry it, so a socket keeps the newest.
    revision = models.PositiveBigIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)  # game.dump() after `seq` moves: a cache of seed + log
    to_act = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)

    # Turn clock: seconds per move (None: no limit); the awaited players time out at `deadline`.
    move_time = models.PositiveIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    reminded = models.BooleanField(default=False)
    abort_votes = models.JSONField(default=list, blank=True)  # seats agreeing to abort the game
    rematch = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    spectator_chat = models.BooleanField(default=False, help_text="Spectators may write in the chat.")
    guided = models.BooleanField(
        default=False, help_text="A guided first game (Learn to play): steps point at the board; never rated."
    )
    tournament = models.ForeignKey(
        "Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="tables"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.title} #{self.pk}"

    def get_absolute_url(self):
        return reverse("tables:table", args=[self.pk])

    @property
    def invite_path(self) -> str:
        """The link to share: a private table's carries its invite token."""
        url = self.get_absolute_url()
        return f"{url}?invite={self.invite_token}" if self.private else url

    @property
    def plays_a_house_rule(self) -> bool:
        """Whether an option the engine marks ``house_rule`` (a departure from the rulebook) is on."""
        return any(
            spec.get("house_rule") and self.options.get(name) for name, spec in self.engine.options.items()
        )


BOT_NAMES = ("Ada", "Babbage", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper")


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    bot = models.CharField(max_length=16, blank=True, default="")  # bot level, "" for a person
    # A bot took over from `user` (timeout, concession, leaving); `conceded` seats cannot be reclaimed.
    replaced = models.BooleanField(default=False)
    conceded = models.BooleanField(default=False)
    deck = models.JSONField(null=True, blank=True)  # what the player brings (Chronica: 30 card codes)
    awaited = models.BooleanField(default=False, db_index=True)  # its move is awaited now
    awaited_since = models.DateTimeField(null=True, blank=True)  # when it last became awaited (Your turn)
    chat_muted = models.BooleanField(default=False)  # its player hides the table's chat
    # Its player deleted their account: the seat stays (the game stays whole), shown as "deleted player".
    departed = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index"),
        ]

    def __str__(self):
        return f"{self.table} seat {self.index}"

    @property
    def taken(self) -> bool:
        return self.user_id is not None or bool(self.bot) or self.departed

    @property
    def is_bot(self) -> bool:
        """A bot plays this seat now (a bot seat, or a person's seat a bot took over)."""
        return bool(self.bot)

    @property
    def display_name(self) -> str:
        # (in the active language: the reader's, where frames and pages render)
        if self.departed:
            return gettext("deleted player")
        if self.user_id and self.replaced:
            return gettext("%(name)s (bot)") % {"name": self.user.username}
        if self.user_id:
            return self.user.username
        if self.bot:
            name = BOT_NAMES[self.index % len(BOT_NAMES)]
            if self.bot == "strong":
                return gettext("%(name)s (strong bot)") % {"name": name}
            if self.bot == "casual":
                return gettext("%(name)s (casual bot)") % {"name": name}
            return f"{name} ({self.bot} bot)"
        return gettext("Empty seat")


class Move(models.Model):
    """One applied move. ``seq`` is the table's seq before it (0 for the first move)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    # What the move did, as the engine's events (rules.core): put into words for each viewer, in their
    # language, when the log is shown (tables.selectors.log_entries). An event with "to" is only for those seats.
    events = models.JSONField(default=list)
    at = models.DateTimeField(auto_now_add=True)
    # Whether its mover may take it back (decided when it was applied: the engine allows it, nothing was
    # drawn, the mover is still awaited). A take-back is itself a row: ``cancels`` is the seq it cancels.
    undoable = models.BooleanField(default=False)
    cancels = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="one_move_per_seq")]

    def __str__(self):
        return f"{self.table_id}#{self.seq}"


class Standing(models.Model):
    """How one person's finished game ended for them (written once, when it finishes): what the history's
    result filter, the players' records and the rivals' records count, without reading the result JSON."""

    WON, SHARED, LOST = "won", "shared", "lost"
    OUTCOMES = [(WON, "Won"), (SHARED, "Shared win"), (LOST, "Lost")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standings")
    game = models.CharField(max_length=32)
    outcome = models.CharField(max_length=6, choices=OUTCOMES)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="one_standing_per_player")]
        indexes = [models.Index(fields=["user", "game", "outcome"], name="standing_by_player")]

    def __str__(self):
        return f"{self.user_id} {self.outcome} #{self.table_id}"


class Rating(models.Model):
    """A person's current rating at one game (openskill's Plackett–Luce): ``ordinal`` is mu - 3 sigma."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-ordinal", "id"], name="leaderboard")]

    def __str__(self):
        return f"{self.user_id} {self.game} {self.ordinal:.1f}"


class RatingChange(models.Model):
    """A rating after one rated game (the chart on a player's page)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "game", "at"], name="rating_history")]

    def __str__(self):
        return f"{self.user_id} {self.game} #{self.table_id}: {self.ordinal:.1f}"


# --- The social table: chat, seat events, invitations ---------------------------------------------


class ChatMessage(models.Model):
    """A line of chat at a table: plain text, or one of the quick phrases (kept as a key, put into words in
    each reader's language). ``position`` is the table's seq when it was sent (where the replay shows it)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    text = models.CharField(max_length=500, blank=True, default="")
    phrase = models.CharField(max_length=16, blank=True, default="")
    position = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["table", "id"], name="chat_by_table")]

    def __str__(self):
        return f"{self.table_id} chat {self.pk}"


class TableEvent(models.Model):
    """A change of seat told in the table's log (concede, timeout, reclaim, leave, abort, rematch): stored as
    a kind and data, put into words for each reader. ``position`` is the table's seq when it happened: the
    log shows it after the moves before that seq."""

    KINDS = (
        "join",
        "leave",
        "cancel",
        "concede",
        "timeout",
        "reclaim",
        "abort_offer",
        "abort_accept",
        "aborted",
        "rematch",
        "abandon",
        "idle_closed",
    )

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=16)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    position = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "id"]
        indexes = [models.Index(fields=["table", "position"], name="event_by_position")]

    def __str__(self):
        return f"{self.table_id} {self.kind} @{self.position}"


class Invitation(models.Model):
    """One person invited to a table by another (seen on the invitee's dashboard; a way into a private table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="one_invitation_per_person")]

    def __str__(self):
        return f"{self.user_id} invited to {self.table_id}"


class Challenge(OfAGame, models.Model):
    """One person challenges another to a game: accepted, it becomes a started table (the challenger in seat
    0, the challenged in seat 1, other seats bots or open); declined, the challenger is told; past
    ``expires_at`` the worker expires it."""

    PENDING, ACCEPTED, DECLINED, EXPIRED, CANCELLED = (
        "pending",
        "accepted",
        "declined",
        "expired",
        "cancelled",
    )
    STATUSES = [
        (PENDING, "Pending"),
        (ACCEPTED, "Accepted"),
        (DECLINED, "Declined"),
        (EXPIRED, "Expired"),
        (CANCELLED, "Cancelled"),
    ]

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField(default=2)
    others = models.CharField(max_length=10, default="casual")  # the other seats: a bot level, or "open"
    options = models.JSONField(default=dict, blank=True)
    move_time = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.challenger_id} challenges {self.challenged_id} to {self.game} ({self.status})"


# --- Tournaments (the services: tables.tournaments; the arithmetic: tables.pairing) ----------------


class Tournament(OfAGame, models.Model):
    """A Swiss tournament (a fixed number of rounds) or an arena (a fixed duration) of one game."""

    SWISS, ARENA = "swiss", "arena"
    FORMATS = [(SWISS, "Swiss"), (ARENA, "Arena")]
    OPEN, RUNNING, FINISHED = "open", "running", "finished"
    STATUSES = [(OPEN, "Open"), (RUNNING, "Running"), (FINISHED, "Finished")]

    game = models.CharField(max_length=32, db_index=True)
    format = models.CharField(max_length=5, choices=FORMATS)
    table_size = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss
    minutes = models.PositiveIntegerField(null=True, blank=True)  # arena
    move_time = models.PositiveIntegerField()
    options = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=False)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)  # None: when its creator starts it
    bot_count = models.PositiveSmallIntegerField(default=0)  # house bots added at the start
    bot_level = models.CharField(max_length=16, blank=True, default="casual")
    description = models.TextField(blank=True, default="", max_length=2000)
    # By invitation: seen and joined only through its invite link (invite_token), by its creator and players.
    private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_invite_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(max_length=8, choices=STATUSES, default=OPEN, db_index=True)
    round = models.PositiveSmallIntegerField(default=0)  # Swiss: the round being played (0 before the start)
    # Bumped by every change a worker makes: the first write of a change, so that two workers take turns.
    revision = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)  # arena: no game starts after it
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.format} {self.game} #{self.pk}"

    def get_absolute_url(self):
        return reverse("tables:tournament", args=[self.pk])

    @property
    def invite_path(self) -> str:
        """The link to share: a private tournament's carries its invite token."""
        url = self.get_absolute_url()
        return f"{url}?invite={self.invite_token}" if self.private else url


class TournamentPlayer(models.Model):
    """One entrant: a person, or a house bot (``user`` None, ``bot`` its level, ``name`` its name)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    bot = models.CharField(max_length=16, blank=True, default="")
    name = models.CharField(max_length=150)  # the username, or the bot's name
    points = models.FloatField(default=0)
    games = models.PositiveIntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)  # arena: first places in a row
    withdrawn = models.BooleanField(default=False)
    paused = models.BooleanField(default=False)  # arena: not seated until resumed
    place = models.PositiveIntegerField(null=True, blank=True)  # the final rank, once the tournament is over
    # Arena: the table it plays now (None when free): seating claims it with a conditional update.
    playing = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="one_entry_per_person",
            ),
            models.UniqueConstraint(fields=["tournament", "name"], name="one_name_per_tournament"),
        ]

    def __str__(self):
        return f"{self.name} in {self.tournament_id}"


class TournamentTable(models.Model):
    """A table of a tournament: its round (Swiss; 0 in an arena), who sits at each seat (entrant ids), and
    whether its result has been counted (set once, by a conditional update)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="pairing")
    round = models.PositiveSmallIntegerField(default=0)
    entrants = models.JSONField(default=list)  # TournamentPlayer ids, by seat
    scored = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "table_id"]

    def __str__(self):
        return f"{self.tournament_id} round {self.round}: {self.table_id}"


class TournamentBye(models.Model):
    """A Swiss round a player sat out, scored as a win."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(TournamentPlayer, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "round"], name="one_bye_per_round")]

    def __str__(self):
        return f"{self.player_id} bye in round {self.round}"
