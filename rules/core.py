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


class IllegalMove(Exception):
    """A move the rules refuse. Its message is written for the player."""


class Game(Protocol):
    """The interface of CONTRACTS §1, plus the few extras the platform uses.

    ``options`` describes the table options as JSON (shown by ``GET /api/games``)::

        {"mode": {"type": "choice", "choices": ["easy", "hard"], "default": "easy", "label": "Mode"},
         "reverse": {"type": "bool", "default": False, "label": "Reverse variant"}}
    """

    slug: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, dict[str, Any]]
    low_score_wins: bool  # the result's scores are penalties: the lowest total wins
    play_now_players: int | None  # seats of a "Play now" table (None: min_players)
    players_bring_decks: bool  # each player brings a deck of their own (options["decks"])
    preview_on_demand: bool  # ``preview`` is costly: pages ask for it one move at a time

    def setup(self, players: int, seed: int, options: dict | None = None) -> State: ...
    def to_act(self, state: State) -> list[int]: ...
    def legal_moves(self, state: State, seat: int) -> list[Move]: ...
    def apply(self, state: State, seat: int, move: Move) -> State: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def is_over(self, state: State) -> bool: ...
    def result(self, state: State) -> dict: ...
    def dump(self, state: State) -> dict: ...
    def load(self, data: dict) -> State: ...

    def narrate(
        self, before: State, seat: int, move: Move, after: State, names: list[str], viewer: int | None
    ) -> list[str]:
        """Readable lines for the move log, as ``viewer`` may read them (never a hidden card)."""
        ...

    def public_move(self, move: Move, seat: int, viewer: int | None) -> Move:
        """The move as ``viewer`` may see it in the move log while the game is on."""
        ...


def validate_options(schema: dict[str, dict[str, Any]], options: dict | None) -> dict[str, Any]:
    """Fill defaults and check every option against ``schema``; ValueError on anything unknown or bad.

    Types: ``choice`` (one of ``choices``), ``bool``, ``int`` (``min``/``max``), and ``any``
    (passed through for the engine to check itself, such as Chronica's decks).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("options must be an object")
    unknown = sorted(set(options) - set(schema))
    if unknown:
        raise ValueError(f"unknown option: {', '.join(unknown)}")
    out: dict[str, Any] = {}
    for name, spec in schema.items():
        value = options.get(name, spec.get("default"))
        kind = spec["type"]
        if kind == "choice" and value not in spec["choices"]:
            raise ValueError(f"option {name} must be one of {', '.join(map(str, spec['choices']))}")
        if kind == "bool" and not isinstance(value, bool):
            raise ValueError(f"option {name} must be true or false")
        if kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"option {name} must be a whole number")
            if not spec.get("min", value) <= value <= spec.get("max", value):
                raise ValueError(f"option {name} must be from {spec['min']} to {spec['max']}")
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
        raise ValueError("seed must be a whole number")
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
    min_players = 2
    max_players = 2
    options: dict[str, dict[str, Any]] = {}
    low_score_wins = False  # True where the scores are penalties (Five Crowns)
    play_now_players: int | None = None  # seats of a "Play now" table (None: the fewest the game allows)
    players_bring_decks = False  # each player brings a deck of their own to the table (Chronica)
    preview_on_demand = False  # True where ``preview`` is costly: pages ask for it one move at a time

    def setup(self, players: int, seed: int, options: dict | None = None) -> State:
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("players must be a whole number")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} takes {self.min_players} to {self.max_players} players")
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

    def public_move(self, move: Move, seat: int, viewer: int | None) -> Move:
        return move

    def narrate(
        self, before: State, seat: int, move: Move, after: State, names: list[str], viewer: int | None
    ) -> list[str]:
        return [f"{names[seat]}: {move['type']}"]


def require(condition: object, message: str) -> None:
    """Raise IllegalMove(message) unless ``condition`` holds."""
    if not condition:
        raise IllegalMove(message)
