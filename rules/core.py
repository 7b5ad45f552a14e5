"""What every game engine shares: the error, the Game protocol, options, seeded randomness.

Pure Python: no Django, no I/O, no clock, no global random. An engine's state is a
plain JSON-serialisable dict; ``apply`` never touches the caller's state: it works on a
copy-on-write copy (``mutable_copy``: the top-level dict and the nested structures a move
may change are copied, everything else is shared), so a move costs the same early and late.
"""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any, Protocol

State = dict[str, Any]
Move = dict[str, Any]
Event = dict[str, Any]

LANGUAGES = ("en", "fr")  # the languages every game's narration formats are written in


# --- Sentences for people: what the rules refuse, worded in every language ----------------
# The rules write a refusal once, as an English ``str.format`` template over named fields:
# ``require(ok, "{card} is still face down.", card=each_language(card_name, code))``. A field is a
# value shown as it is (a number, a printed name) or a dict of its words per language (built with
# ``each_language``). A game registers its sentences' other languages with ``add_wordings`` (its
# ``view.py`` keeps them beside its narration ``MESSAGES``), keyed by the English template, so a
# refusal reads the same way in the engine and in every language; tests/rules/test_wordings.py
# checks that every template in ``rules/`` has one, with the same fields.

WORDINGS: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES if lang != "en"}


def add_wordings(wordings: dict[str, dict[str, str]]) -> None:
    """Register translations ``{lang: {english template: template in lang}}``. The table is shared by
    the games: a sentence two games write reads the same in both, so two wordings of it are a bug."""
    for lang, table in wordings.items():
        for template, words in table.items():
            if WORDINGS[lang].setdefault(template, words) != words:
                raise ValueError(
                    f"two {lang} wordings of {template!r}: {WORDINGS[lang][template]!r}, {words!r}"
                )


def each_language(words: Any, *args: Any) -> dict[str, str]:
    """A field in words per language: ``each_language(card_name, code)`` -> ``{"en": ..., "fr": ...}``
    (``words`` is called with ``*args`` and then the language)."""
    return {lang: words(*args, lang) for lang in LANGUAGES}


class Text(str):
    """A sentence for a person. As a ``str`` it is the English sentence; ``words(lang)`` gives it in
    another language (English where the language has no wording for it)."""

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, /, **fields: Any) -> Text:
        text = super().__new__(cls, _worded(template, fields, "en"))
        text.template, text.fields = template, fields
        return text

    def words(self, lang: str) -> str:
        return _worded(WORDINGS.get(lang, {}).get(self.template, self.template), self.fields, lang)


def _worded(template: str, fields: dict[str, Any], lang: str) -> str:
    """``template`` filled in ``lang`` (a literal brace is written twice, as in any format string)."""
    return template.format(
        **{k: v.get(lang, v["en"]) if isinstance(v, dict) else v for k, v in fields.items()}
    )


class Refusal(Exception):
    """What the rules refuse, with a ``Text`` for the person: ``str(exc)`` in English, ``exc.words(lang)``."""

    def __init__(self, template: str, /, **fields: Any):
        self.text = Text(template, **fields)
        super().__init__(str(self.text))

    def words(self, lang: str) -> str:
        return self.text.words(lang)


class IllegalMove(Refusal):
    """A move the rules refuse. Its message is written for the player."""


class InvalidSetup(Refusal, ValueError):
    """A table the rules cannot set up as asked (players, options, decks): a ``ValueError`` (CONTRACTS §1)."""


add_wordings(
    {
        "fr": {
            "A move is an object with a type.": "Un coup est un objet qui a un type.",
            "The game is over.": "La partie est terminée.",
            "It is not your turn.": "Ce n’est pas votre tour.",
            "The options must be an object.": "Les options doivent être un objet.",
            "Unknown option: {names}.": "Option inconnue : {names}.",
            "The option {name} must be one of {choices}.": "L’option {name} doit valoir l’une de ces valeurs : {choices}.",
            "The option {name} must be true or false.": "L’option {name} doit valoir vrai ou faux.",
            "The option {name} must be a whole number.": "L’option {name} doit être un nombre entier.",
            "The option {name} must be from {low} to {high}.": "L’option {name} doit être comprise entre {low} et {high}.",
            "The number of players must be a whole number.": "Le nombre de joueurs doit être un nombre entier.",
            "{game} takes {low} to {high} players.": "{game} se joue de {low} à {high} joueurs.",
            "The seed must be a whole number.": "La graine doit être un nombre entier.",
        }
    }
)


class Game(Protocol):
    """The interface of CONTRACTS §1, plus the few extras the platform uses.

    ``options`` describes the table options as JSON (shown by ``GET /api/games``)::

        {"mode": {"type": "choice", "choices": ["easy", "hard"], "default": "easy", "label": "Mode"},
         "reverse": {"type": "bool", "default": False, "label": "Reverse variant"}}

    A ``bool`` option with ``"house_rule": true`` departs from the rulebook; the site tags tables that play one.
    """

    slug: str
    title: str
    blurb: dict[str, str]  # a short description of the game per language (``LANGUAGES``), for the lobby
    score_name: dict[str, str]  # what the scores count, per language ("Crowns"): the result panel
    min_players: int
    max_players: int
    options: dict[str, dict[str, Any]]
    low_score_wins: bool  # the result's scores are penalties: the lowest total wins
    play_now_players: int | None  # seats of a "Play now" table (None: min_players)
    players_bring_decks: bool  # each player brings a deck of their own (options["decks"])
    preview_on_demand: bool  # ``preview`` is costly: pages ask for it one move at a time
    takeback_moves: frozenset[str]  # move types ``can_take_back`` may allow; pages warn before the others

    def setup(self, players: int, seed: int, options: dict | None = None) -> State: ...
    def to_act(self, state: State) -> list[int]: ...
    def legal_moves(self, state: State, seat: int) -> list[Move]: ...
    def apply(self, state: State, seat: int, move: Move) -> State: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def is_over(self, state: State) -> bool: ...
    def result(self, state: State) -> dict: ...
    def dump(self, state: State) -> dict: ...
    def load(self, data: dict) -> State: ...

    # The move log is stored as events and put into words when shown (see ``narrate`` below).
    messages: dict[str, dict[str, Any]]  # {lang: {event kind: format string or function}}

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Event]:
        """What ``move`` did, as structured events (see ``Event`` in this module's docs)."""
        ...

    def setup_events(self, state: State) -> list[Event]:
        """What happened at ``setup`` before any move (a deal, a card turned up); often []."""
        ...

    def card_name(self, code: str, lang: str) -> str:
        """A card's name in words, in ``lang`` ("Eagle General 2★", "Aigle Général 2★")."""
        ...

    def can_take_back(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Whether ``seat`` may take ``move`` back within its turn: it revealed nothing (no card
        drawn, turned up or dealt, no random outcome) and passed no decision to another seat."""
        ...

    def preview(self, state: State, seat: int, move: Move) -> dict | None:
        """What a legal ``move`` would lead to, for the page to show before it is played
        (Chronica's honour change, Five Crowns' melds); None for a move with nothing to show
        or one that is not legal now."""
        ...

    def private_move_fields(self, move: Move) -> frozenset[str]:
        """The fields of ``move`` only its mover may read while the game goes on (what the move's
        events tell the others without: Cosplay's Drama payment, say). Every reader sees them once the
        game is over. See ``move_as_seen``."""
        ...


def validate_options(schema: dict[str, dict[str, Any]], options: dict | None) -> dict[str, Any]:
    """Fill defaults and check every option against ``schema``; ValueError on anything unknown or bad.

    Types: ``choice`` (one of ``choices``), ``bool``, ``int`` (``min``/``max``), and ``any``
    (passed through for the engine to check itself, such as Chronica's decks).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidSetup("The options must be an object.")
    unknown = sorted(set(options) - set(schema))
    if unknown:
        raise InvalidSetup("Unknown option: {names}.", names=", ".join(unknown))
    out: dict[str, Any] = {}
    for name, spec in schema.items():
        value = options.get(name, spec.get("default"))
        kind = spec["type"]
        if kind == "choice" and value not in spec["choices"]:
            raise InvalidSetup(
                "The option {name} must be one of {choices}.",
                name=name,
                choices=", ".join(map(str, spec["choices"])),
            )
        if kind == "bool" and not isinstance(value, bool):
            raise InvalidSetup("The option {name} must be true or false.", name=name)
        if kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidSetup("The option {name} must be a whole number.", name=name)
            if not spec.get("min", value) <= value <= spec.get("max", value):
                raise InvalidSetup(
                    "The option {name} must be from {low} to {high}.",
                    name=name,
                    low=spec["min"],
                    high=spec["max"],
                )
        out[name] = copy.deepcopy(value)
    return out


# --- Seeded randomness ---------------------------------------------------------------
# The state holds "seed" and "draws" (how many random draws were made so far). Each draw
# builds its own random.Random from (seed, draws), and only Random.random() is used, which
# is stable across Python versions. Replaying the same moves gives the same draws.


def _generator(state: State) -> random.Random:
    digest = hashlib.sha256(f"{state['seed']}:{state['draws']}".encode()).digest()
    state["draws"] += 1
    return random.Random(int.from_bytes(digest[:8], "big"))


def shuffle(state: State, items: list) -> list:
    """A new list with ``items`` in a random order (Fisher–Yates); advances the state's draws."""
    rnd = _generator(state)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def below(state: State, n: int) -> int:
    """A random whole number in 0..n-1; advances the state's draws."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    return min(int(_generator(state).random() * n), n - 1)


def new_state(seed: int, players: int, options: dict) -> State:
    """The fields every engine's state starts with."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidSetup("The seed must be a whole number.")
    return {"seed": seed, "draws": 0, "players": players, "options": options}


class BaseGame:
    """Shared plumbing for engines whose state is a plain dict.

    Subclasses set the class attributes and write ``_setup``, ``to_act``, ``legal_moves``,
    ``_apply`` (changes the state it is given), ``view``, ``is_over`` and ``result``, and
    ``mutable_copy`` (copies what ``_apply`` changes in place; the default deep copy is slow).
    ``legal_moves`` and ``_apply`` must share one set of checks.
    """

    slug = ""
    title = ""
    blurb: dict[str, str] = {}
    score_name: dict[str, str] = {"en": "Points", "fr": "Points"}
    min_players = 2
    max_players = 2
    options: dict[str, dict[str, Any]] = {}
    low_score_wins = False  # True where the scores are penalties (Five Crowns)
    play_now_players: int | None = None  # seats of a "Play now" table (None: the fewest the game allows)
    players_bring_decks = False  # each player brings a deck of their own to the table (Chronica)
    preview_on_demand = False  # True where ``preview`` is costly: pages ask for it one move at a time
    takeback_moves: frozenset[str] = frozenset()  # move types ``can_take_back`` may allow (none here)

    def setup(self, players: int, seed: int, options: dict | None = None) -> State:
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidSetup("The number of players must be a whole number.")
        if not self.min_players <= players <= self.max_players:
            raise InvalidSetup(
                "{game} takes {low} to {high} players.",
                game=self.title,
                low=self.min_players,
                high=self.max_players,
            )
        opts = validate_options(self.options, options)
        return self._setup(new_state(seed, players, opts))

    def _setup(self, state: State) -> State:
        raise NotImplementedError

    def apply(self, state: State, seat: int, move: Move) -> State:
        self._guard(state, seat, move)
        new = self.mutable_copy(state)
        self._apply(new, seat, move)
        return new

    def apply_in_place(self, state: State, seat: int, move: Move) -> None:
        """``apply`` without the copy: change ``state`` itself (the bots' simulations use it).

        Only for a state the caller owns, such as one returned by ``mutable_copy``, ``apply`` or
        ``load``: structures it shares with other states are never changed, but ``state`` is, and
        on an IllegalMove it may be left half-changed (``apply`` drops its copy then).
        """
        self._guard(state, seat, move)
        self._apply(state, seat, move)

    def _guard(self, state: State, seat: int, move: Move) -> None:
        """What every move must pass before the engine's own checks."""
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("A move is an object with a type.")
        if self.is_over(state):
            raise IllegalMove("The game is over.")
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn.")

    def mutable_copy(self, state: State) -> State:
        """A copy of ``state`` that ``apply_in_place`` may change without touching ``state``.

        Copy-on-write: the top-level dict, and every nested structure the engine's ``_apply``
        changes in place, are copied; what ``_apply`` only ever replaces, or never changes, is
        shared. Each engine lists those structures; this default deep-copies everything.
        """
        return copy.deepcopy(state)

    def _apply(self, state: State, seat: int, move: Move) -> None:
        raise NotImplementedError

    def dump(self, state: State) -> dict:
        return copy.deepcopy(state)

    def load(self, data: dict) -> State:
        return copy.deepcopy(data)

    messages: dict[str, dict[str, Any]] = {}

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Event]:
        raise NotImplementedError

    def setup_events(self, state: State) -> list[Event]:
        return []

    def card_name(self, code: str, lang: str) -> str:
        return code

    def can_take_back(self, before: State, seat: int, move: Move, after: State) -> bool:
        return False

    def preview(self, state: State, seat: int, move: Move) -> dict | None:
        return None

    def private_move_fields(self, move: Move) -> frozenset[str]:
        return frozenset()  # every field of a move is public (what it did is told by its events)

    def narrate(
        self,
        before: State,
        seat: int,
        move: Move,
        after: State,
        names: list[str],
        viewer: int | None,
        lang: str = "en",
    ) -> list[str]:
        """The move's log lines for ``viewer`` in ``lang``: its events, put into words."""
        return narrate(self, self.events(before, seat, move, after), names, viewer, lang)


# --- Events: the move log as data --------------------------------------------------------
# An event is a JSON dict: ``{"kind": "played", "seat": 1, "card": "eagle-5", ...}``.
# - ``kind`` names a message in the game's ``messages[lang]``.
# - ``to`` (optional): the seats that may read the event, ``None`` in it standing for the
#   spectators; without it, everyone may. A card only its owner may see goes in an event ``"to": [owner]``, and the others
#   get a twin event without the card: ``{"kind": "drew", "seat": 1}`` +
#   ``{"kind": "drew_card", "seat": 1, "card": "K-star", "to": [1]}``.
# - Fields are named by what they hold, so words can be put in by one formatter:
#   ``seat`` / ``*_seat`` a seat, ``seats`` / ``*_seats`` a list of seats, ``card`` / ``*_card``
#   a card code, ``cards`` / ``*_cards`` a list of codes; anything else (numbers, clans, ...)
#   is passed as it is, and a message that needs it in words is a function.
# A message is a ``str.format`` template over those fields in words (``"{seat} played {card}"``)
# or a function ``(event, words) -> str | None`` (None: nothing to say for this viewer).


class Words:
    """How an event's fields read in one language: seats as names, cards by their names."""

    AND = {"en": "and", "fr": "et"}

    def __init__(self, game: Any, names: list[str], lang: str):
        self.game, self.names, self.lang = game, names, lang

    def seat(self, seat: int | None) -> str:
        return "" if seat is None else self.names[seat]

    def card(self, code: str | None) -> str:
        return "" if code is None else self.game.card_name(code, self.lang)

    def join(self, items: list[str]) -> str:
        """``a, b and c`` in the language."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {self.AND.get(self.lang, 'and')} {items[-1]}"

    def seats(self, seats: list[int]) -> str:
        return self.join([self.seat(s) for s in seats])

    def cards(self, codes: list[str]) -> str:
        return self.join([self.card(c) for c in codes])

    def fields(self, event: Event) -> dict[str, Any]:
        """The event's fields in words, for a format template."""
        out: dict[str, Any] = {}
        for key, value in event.items():
            if key == "seat" or key.endswith("_seat"):
                out[key] = self.seat(value)
            elif key == "seats" or key.endswith("_seats"):
                out[key] = self.seats(value)
            elif key == "card" or key.endswith("_card"):
                out[key] = self.card(value)
            elif key == "cards" or key.endswith("_cards"):
                out[key] = self.cards(value)
            else:
                out[key] = value
        return out


def move_as_seen(game: Any, move: Move, mover: int, reader: int | None, over: bool) -> Move:
    """``move`` as ``reader`` (a seat, ``None``: a spectator) may read it: without the fields private to
    its mover (``Game.private_move_fields``) unless ``reader`` is the mover or the game is over."""
    if over or reader == mover or not isinstance(move, dict):
        return move
    hidden = game.private_move_fields(move)
    return {k: v for k, v in move.items() if k not in hidden} if hidden else move


def visible(events: list[Event], viewer: int | None) -> list[Event]:
    """The events ``viewer`` may read (``None``: a spectator)."""
    return [e for e in events if "to" not in e or viewer in e["to"]]


def narrate(
    game: Any, events: list[Event], names: list[str], viewer: int | None, lang: str = "en"
) -> list[str]:
    """The lines ``viewer`` reads for ``events``, in ``lang`` (English where ``lang`` is unknown).

    An event kind with no message in the language is a bug: KeyError, so tests catch it.
    """
    table = game.messages.get(lang) or game.messages.get("en", {})
    words = Words(game, names, lang if lang in game.messages else "en")
    lines = []
    for event in visible(events, viewer):
        message = table[event["kind"]]
        line = message(event, words) if callable(message) else message.format(**words.fields(event))
        if line:
            lines.append(line)
    return lines


def require(condition: object, message: str, /, **fields: Any) -> None:
    """Raise IllegalMove(message, **fields) unless ``condition`` holds (the sentence is built only then)."""
    if not condition:
        raise IllegalMove(message, **fields)
