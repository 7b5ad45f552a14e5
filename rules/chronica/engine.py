"""Chronica Universalis: the engine (the base game, and the special powers with the option ``powers``).

State (a plain JSON dict, besides BaseGame's seed/draws/players/options):

- ``shared``: bool, the shared-deck variant; ``decks`` (per seat, top = last) or ``pile`` + ``river``
- ``hands``, ``discards`` (per seat lists of codes), ``honour`` (per seat)
- ``provinces``: per seat 8 slots, each null or ``{"building", "character", "guest"}`` where ``guest``
  is the owner seat of a welcomed opponent character (null for the province owner's own card)
- ``phase``: ``mulligan`` | ``play`` | ``fervour`` | ``draw`` | ``over``; ``current`` (whose turn once
  play began), ``first``, ``turn`` (the turn counter, from 1; the mulligans belong to turn 1)
- ``mulligan_turn`` (how many players have decided), ``mulligans`` (who took one)
- ``pending_draws`` (shared variant: draws still to choose), ``end_reason``
- ``more_plays`` (only while owed, with the powers): extra plays granted beyond the one the ``fervour``
  phase is for (each grant of an extra play gives one: Ferveur populaire and a Zeal in one move give two)

With ``options["powers"]`` (absent from the state when off, so a game without powers is the base game
byte for byte) the cards' powers (powers.py) restrict placements and Action targets through the same
rules in board.py/powers.py for legal_moves and the checks, and fire here (``_fire``), told by
``power_*`` events.

The state holds no words: what a move did is told by ``events`` (structured, see rules/core.py), put
into words by ``view.MESSAGES``. ``rules/chronica/sampling.py`` builds states of this shape from a view.
"""

from __future__ import annotations

from typing import Any

from rules.chronica import board as B
from rules.chronica import cards as C
from rules.chronica import powers as P
from rules.chronica import view as V
from rules.core import (
    BaseGame,
    Event,
    IllegalMove,
    InvalidSetup,
    Move,
    State,
    below,
    each_language,
    require,
    shuffle,
)

SLOTS = B.SLOTS
HAND_SIZE = 5
MAX_HONOUR = B.MAX_HONOUR
RIVER_SIZE = 5
REINFORCE_SOURCES = ("hand", "province")
CARD_MOVES = ("build", "replace", "place", "action", "pass")  # the moves that play or discard a card

Log = list[Event] | None  # where a move tells what it did; None: nobody listens (plain apply)


def _emit(log: Log, kind: str, **fields: Any) -> None:
    if log is not None:
        log.append({"kind": kind, **fields})


def _private(log: Log, state: State, seat: int, public: Event, secret: Event) -> None:
    """``secret`` for ``seat`` alone, ``public`` (its twin without the cards) for everyone else."""
    if log is not None:
        others = [s for s in range(state["players"]) if s != seat]
        log.append({**public, "to": [*others, None]})
        log.append({**secret, "to": [seat]})


class Chronica(BaseGame):
    slug = "chronica"
    title = "Chronica Universalis"
    score_name = {"en": "Victory points", "fr": "Points de victoire"}  # what the result's scores count
    blurb = {
        "en": (
            "Bring your own deck of 30 historical characters and buildings, build your province "
            "and spend your Honour on Actions against your opponents."
        ),
        "fr": (
            "Venez avec votre deck de 30 Personnages et Édifices historiques, bâtissez votre province "
            "et mettez votre Honneur en jeu dans des Actions contre vos adversaires."
        ),
    }
    min_players = 2
    max_players = 4
    options = {
        "decks": {"type": "any", "default": None, "label": "Decks (one list of 30 card codes per seat)"},
        "shared_deck": {"type": "bool", "default": False, "label": "Shared deck and river"},
        "powers": {"type": "bool", "default": False, "label": "Special powers"},
    }
    players_bring_decks = True  # a 30-card deck each (options["decks"])
    preview_on_demand = True  # ``preview`` plays the move on a copy: asked for one move at a time
    # Card placements and a pass are the player's own, take-back-able while the turn is still theirs and
    # nothing was drawn (the shared variant's draw step); an Action hits an opponent's cards.
    takeback_moves = frozenset({"build", "replace", "place", "pass"})
    messages = V.MESSAGES

    # --- set-up ------------------------------------------------------------------------

    def _setup(self, state: State) -> State:
        n = state["players"]
        opts = state["options"]
        if not opts.get("powers"):
            opts.pop("powers", None)  # the base game's state, unchanged byte for byte
        decks = opts.get("decks")
        shared = opts.get("shared_deck", False)
        if decks is not None and shared:
            raise InvalidSetup("Choose either per-seat decks or the shared deck, not both.")
        if decks is not None:
            if not isinstance(decks, list) or len(decks) != n:
                raise InvalidSetup("decks must be a list of {n} decks, one per seat.", n=n)
            for s, deck in enumerate(decks):
                problems = C.validate_deck(deck)
                if problems:
                    raise InvalidSetup(
                        "Seat {seat}'s deck: {problems}",
                        seat=s + 1,
                        problems=each_language(C.problems_words, problems),
                    )
        else:
            decks = [C.STARTER_DECKS[s % len(C.STARTER_DECKS)]["cards"] for s in range(n)]
        state.update(
            shared=shared,
            hands=[[] for _ in range(n)],
            discards=[[] for _ in range(n)],
            honour=[MAX_HONOUR] * n,
            provinces=[[None] * SLOTS for _ in range(n)],
            phase="mulligan",
            first=0,
            current=0,
            turn=1,
            mulligan_turn=0,
            mulligans=[False] * n,
            pending_draws=0,
            end_reason=None,
        )
        if shared:
            state["pile"] = shuffle(state, [row[0] for row in C.CARDS])
            state["river"] = []
        else:
            state["decks"] = [shuffle(state, list(deck)) for deck in decks]
        for s in range(n):
            for _ in range(HAND_SIZE):
                self._take_top(state, s)
        first = below(state, n)
        state["first"] = state["current"] = first
        for k in range(1, n):
            self._take_top(state, (first + k) % n)
        if shared:
            state["river"] = [state["pile"].pop() for _ in range(RIVER_SIZE)]
        return state

    def setup_events(self, state: State) -> list[Event]:
        """The deal of a state ``setup`` returned: who plays first, each seat's hand (to that seat), the river."""
        out: list[Event] = [{"kind": "first_player", "seat": state["first"]}]
        out += [
            {"kind": "dealt", "seat": s, "cards": list(h), "to": [s]} for s, h in enumerate(state["hands"])
        ]
        if state["shared"]:
            out.append({"kind": "river", "cards": list(state["river"])})
        return out

    @staticmethod
    def _source(state: State, seat: int) -> list[str]:
        return state["pile"] if state["shared"] else state["decks"][seat]

    def _take_top(self, state: State, seat: int) -> str:
        code = self._source(state, seat).pop()
        state["hands"][seat].append(code)
        return code

    # --- queries -------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return B.to_act(state)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict:
        return B.result(state)

    @staticmethod
    def victory_points(state: State) -> list[int]:
        return B.victory_points(state)

    def view(self, state: State, seat: int | None) -> dict:
        return V.view(state, seat)

    def card_name(self, code: str, lang: str) -> str:
        return V.card_name(code, lang)

    # --- legal moves (from the rules in board.py, the same ones the checks ask) ----------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "mulligan":
            return [{"type": "mulligan"}, {"type": "keep"}]
        if phase == "draw":
            moves = [{"type": "draw", "source": "pile"}]
            moves += [{"type": "draw", "source": "river", "card": c} for c in state["river"]]
            return moves
        moves = self._play_moves(state, seat)
        if phase == "fervour":
            moves.append({"type": "end_turn"})
        else:
            hand = state["hands"][seat]
            moves += [{"type": "pass", "discard": c} for c in hand] or [{"type": "pass", "discard": None}]
        return self._with_choices(state, seat, moves) if P.enabled(state) else moves

    def _play_moves(self, state: State, seat: int) -> list[Move]:
        prov = state["provinces"][seat]
        # Free slots first, then the slots holding a card (a newly occupied building costs someone honour).
        free = [i for i in range(SLOTS) if not B.occupies(prov[i])]
        taken = [i for i in range(SLOTS) if B.occupies(prov[i])]
        build_free = [i for i in free if B.can_build(prov[i])]
        build_under = [i for i in taken if B.can_build(prov[i])]
        replace = [i for i in taken if B.can_replace(prov[i])]
        place_free = [i for i in free if B.can_place(prov[i])]
        place_in = [i for i in taken if B.can_place(prov[i])]
        losers = [{} if o is None else {"target": o} for o in B.honour_losers(state, seat)]
        hand = B.playable_hand(state, seat)
        hand_chars = [c for c in hand if C.CARD_BY_CODE[c]["kind"] == C.CHAR]
        welcomes = B.welcome_sources(state, seat) if len(hand_chars) < len(hand) else []
        targets = B.action_targets(state, seat) if hand_chars else []
        own_chars = B.own_characters(state, seat)
        moves: list[Move] = []
        for code in hand:
            if C.CARD_BY_CODE[code]["kind"] == C.BUILD:
                for i in build_free:
                    moves.append({"type": "build", "card": code, "slot": i})
                    moves += [
                        {"type": "build", "card": code, "slot": i, "welcome": {"seat": o, "slot": j}}
                        for o, j in welcomes
                    ]
                moves += [
                    {"type": "build", "card": code, "slot": i, **opt} for i in build_under for opt in losers
                ]
                moves += [{"type": "replace", "card": code, "slot": i} for i in replace]
                continue
            moves += [{"type": "place", "card": code, "slot": i} for i in place_free]
            moves += [{"type": "place", "card": code, "slot": i, **opt} for i in place_in for opt in losers]
            helpers: list[dict | None] = [None]
            helpers += [{"from": "hand", "card": other} for other in hand_chars if other != code]
            helpers += [{"from": "province", "slot": k} for k in own_chars]
            moves += [
                {
                    "type": "action",
                    "card": code,
                    "target": {"seat": o, "slot": j, "part": part},
                    "reinforce": helper,
                }
                for o, j, part in targets
                for helper in helpers
            ]
        if P.enabled(state):  # placement conditions (checked again, by the same rule, in _placeable)
            moves = [
                m for m in moves if m["type"] == "action" or P.may_place(state, seat, m["card"], m["slot"])
            ]
        return moves

    def _with_choices(self, state: State, seat: int, moves: list[Move]) -> list[Move]:
        """Each move once per choice its powers ask of the player (the opponent a Disgrace hits, the
        wandering character an Exile sends home), by the rule the checks use (``_power_choices``)."""
        out: list[Move] = []
        for move in moves:
            if not self._may_ask(state, seat, move):
                out.append(move)
                continue
            plan = getattr(self, "_check_" + move["type"])(state, seat, move)
            disgrace, exile = self._power_choices(state, seat, plan)
            variants = [move]  # a choice of one is implied (the opponent with two players)
            if len(disgrace) > 1:
                variants = [{**m, "disgrace": o} for m in variants for o in disgrace]
            if len(exile) > 1:
                variants = [{**m, "exile": {"seat": o, "slot": j}} for m in variants for o, j in exile]
            out += variants
        return out

    @staticmethod
    def _may_ask(state: State, seat: int, move: Move) -> bool:
        """Whether a card ``move`` plays, discards or destroys has a power that asks a choice (a cheap
        test before the exact one)."""
        codes = [move.get("card"), move.get("discard")]
        if move["type"] == "replace":
            codes.append(state["provinces"][seat][move["slot"]]["building"])
        if move["type"] == "action":
            t = state["provinces"][move["target"]["seat"]][move["target"]["slot"]]
            codes += [t["building"], t["character"]]
            helper = move["reinforce"] or {}
            codes.append(helper.get("card"))
            if helper.get("from") == "province":
                codes.append(state["provinces"][seat][helper["slot"]]["character"])
        return any(code and P.chooses(code) for code in codes)

    # --- checks: one per move type; each returns a normalised plan for its ``_do_`` ---------------

    def _check(self, state: State, seat: int, move: Move) -> dict:
        """Validate ``move`` for ``seat``; return a normalised plan for ``_do_<type>``. IllegalMove otherwise."""
        kind = move["type"]
        self._check_phase(state["phase"], kind)
        plan = getattr(self, "_check_" + kind)(state, seat, move)
        if kind in CARD_MOVES:
            self._check_power_choices(state, seat, move, plan)
        return plan

    # --- the choices a power asks of the player (the rulings of 2026-11-26) ----------------------

    def _fired_by_mover(self, state: State, seat: int, plan: dict) -> list[tuple[str, str]]:
        """``(card, trigger)`` of the mover's own cards whose powers ``plan`` fires (powers on), from the
        move's shape: what is placed, welcomed, discarded, and the Action's outcome. (A move that brings
        someone to 0 honour stops before some of them: the choice is asked all the same.)"""
        kind = plan["type"]
        if kind == "pass":
            return [(plan["discard"], "discarded")] if plan["discard"] else []
        if kind in ("build", "place", "replace"):
            out = [(plan["card"], "placed")]
            if kind == "build" and plan["welcome"]:
                out.append((plan["card"], "welcomed"))
            if kind == "replace":
                out.append((state["provinces"][seat][plan["slot"]]["building"], "discarded"))
            return out
        if kind != "action":
            return []
        attack, defence, shares = self._action_cards(state, seat, plan)
        bonus = {}
        for _code, domain, n in P.defence_bonus(state, plan["seat"], plan["slot"]):
            bonus[domain] = bonus.get(domain, 0) + n
        delta = B.clash(attack, defence, shares, bonus)["delta"]
        out = [(attack[0], "won" if delta > 0 else "lost")] if delta else []
        out += [(c, "discarded") for c in attack]
        out += [
            (c, "discarded") for owner, c in self._fallen(state, plan["seat"], plan["slot"]) if owner == seat
        ]
        return out

    def _power_choices(self, state: State, seat: int, plan: dict) -> tuple[list[int], list[tuple[int, int]]]:
        """The choices ``plan``'s powers ask of the mover: the opponents a Disgrace may hit ([] when none
        fires), and the wandering characters an Exile may send home ([] when none fires or none is
        reachable)."""
        if not P.enabled(state):
            return [], []
        disgrace: list[int] = []
        exile: list[tuple[int, int]] = []
        for code, when in self._fired_by_mover(state, seat, plan):
            pw = P.POWERS.get(code)
            if pw is None or pw["when"] != when:
                continue
            if pw["do"] == "sap":
                disgrace = B.opponents(state, seat)
            elif pw["do"] == "rout":
                welcome = plan.get("welcome")
                gone = (welcome["seat"], welcome["slot"]) if welcome else None
                exile = P.rout_targets(state, seat, gone)
        return disgrace, exile

    def _check_power_choices(self, state: State, seat: int, move: Move, plan: dict) -> None:
        """Check the move's ``disgrace`` (the opponent a Disgrace hits; implied with two players) and
        ``exile`` ({seat, slot}: the wandering character an Exile sends home; implied when there is one)
        against what its powers ask; put them into ``plan``."""
        disgrace, exile = self._power_choices(state, seat, plan)
        named = move.get("disgrace")
        if not disgrace:
            require(
                named is None, "No power of this move makes an opponent lose honour: name none (disgrace)."
            )
            plan["disgrace"] = None
        elif named is None and len(disgrace) == 1:
            plan["disgrace"] = disgrace[0]
        else:
            require(named is not None, "Name the opponent who loses honour by the power (disgrace).")
            plan["disgrace"] = self._seat_in(named, disgrace, "The target must be an opponent's seat.")
        wanted = move.get("exile")
        if not exile:
            require(
                wanted is None, "No power of this move sends a wandering character home: name none (exile)."
            )
            plan["exile"] = None
        elif wanted is None and len(exile) == 1:
            plan["exile"] = exile[0]
        else:
            require(
                wanted is not None,
                "Name the wandering character the power sends home (exile: {{seat, slot}}).",
            )
            require(isinstance(wanted, dict), "exile must be {{seat, slot}}.")
            spot = (wanted.get("seat"), wanted.get("slot"))
            require(
                all(isinstance(v, int) and not isinstance(v, bool) for v in spot) and spot in exile,
                "The power can only send home an opponent's unprotected wandering character.",
            )
            plan["exile"] = spot

    @staticmethod
    def _check_phase(phase: str, kind: str) -> None:
        if kind in B.PHASE_MOVES[phase]:
            return
        if kind in ("mulligan", "keep"):
            raise IllegalMove("The mulligan is only offered before the first turn.")
        if kind == "draw":
            raise IllegalMove("You draw only at the end of your turn.")
        if phase == "mulligan":
            raise IllegalMove("Before the first turn, choose to keep your hand or take a mulligan.")
        if phase == "draw":
            raise IllegalMove("Draw a card first (from the pile or the river).")
        if kind == "end_turn":
            raise IllegalMove(
                "You can only end your turn early after Popular fervour; otherwise play or pass."
            )
        if kind == "pass":
            raise IllegalMove("Popular fervour lets you play a card or end your turn, not pass.")
        raise IllegalMove("Unknown move type {kind}.", kind=repr(kind))

    @staticmethod
    def _int(value: Any, lo: int, hi: int, what: str) -> int:
        """``value`` as a whole number from ``lo`` to ``hi``; ``what``: which slot (a key of ``V.SLOT_WORDS``)."""
        what_words = V.SLOT_WORDS[what]
        require(
            isinstance(value, int) and not isinstance(value, bool),
            "{what} must be a whole number.",
            what=what_words,
        )
        require(lo <= value <= hi, "{what} must be from {low} to {high}.", what=what_words, low=lo, high=hi)
        return value

    @staticmethod
    def _seat_in(value: Any, seats: list[int], message: str) -> int:
        require(isinstance(value, int) and not isinstance(value, bool) and value in seats, message)
        return value

    def _hand_card(self, state: State, seat: int, code: Any, kind: str, what: str) -> str:
        """``code`` if it names a card of ``kind`` ``seat`` may play from hand; ``what``: the card's role (a
        key of ``V.CARD_ROLES``)."""
        require(isinstance(code, str), "Name the {what} to play by its code.", what=V.CARD_ROLES[what])
        require(code in C.CARD_BY_CODE, "There is no card {code}.", code=repr(code))
        card = C.name(code)
        require(code in state["hands"][seat], "{card} is not in your hand.", card=card)
        require(
            C.CARD_BY_CODE[code]["kind"] == kind, "{card} is not a {kind}.", card=card, kind=V.KINDS[kind]
        )
        require(
            code in B.playable_hand(state, seat, kind),
            "{card} is already in play; its twin cannot be played until that one is discarded.",
            card=card,
        )
        return code

    def _honour_loser(self, state: State, seat: int, move: Move) -> int:
        """The opponent named to lose 1 honour for a newly occupied building (implied with 2 players)."""
        target = move.get("target")
        if target is None and B.honour_losers(state, seat) == [None]:
            return B.opponents(state, seat)[0]
        require(target is not None, "Name the opponent who loses 1 honour (target).")
        return self._seat_in(target, B.opponents(state, seat), "The target must be an opponent's seat.")

    def _check_mulligan(self, state: State, seat: int, move: Move) -> dict:
        return {"type": "mulligan"}

    def _check_keep(self, state: State, seat: int, move: Move) -> dict:
        return {"type": "keep"}

    def _check_draw(self, state: State, seat: int, move: Move) -> dict:
        source = move.get("source")
        require(source in ("pile", "river"), "Draw from the pile or the river.")
        if source == "pile":
            return {"type": "draw", "source": "pile"}
        code = move.get("card")
        require(isinstance(code, str) and code in state["river"], "That card is not in the river.")
        return {"type": "draw", "source": "river", "card": code}

    def _check_end_turn(self, state: State, seat: int, move: Move) -> dict:
        return {"type": "end_turn"}

    def _check_pass(self, state: State, seat: int, move: Move) -> dict:
        hand = state["hands"][seat]
        code = move.get("discard")
        if not hand:
            require(code is None, "Your hand is empty: there is nothing to discard.")
            return {"type": "pass", "discard": None}
        require(isinstance(code, str), "Name the card to discard when you pass.")
        require(code in hand, "You can only discard a card from your hand.")
        return {"type": "pass", "discard": code}

    @staticmethod
    def _placeable(state: State, seat: int, code: str, i: int) -> None:
        """With the powers, a card goes only where its placement condition holds (when it is placed)."""
        if P.enabled(state) and not P.may_place(state, seat, code, i):
            needs = P.POWERS[code]["needs"]
            raise IllegalMove(
                "{card} is placed only {condition}.",
                card=C.name(code),
                condition=each_language(P.condition_text, needs),
            )

    def _check_build(self, state: State, seat: int, move: Move) -> dict:
        code = self._hand_card(state, seat, move.get("card"), C.BUILD, C.BUILD)
        i = self._int(move.get("slot"), 0, SLOTS - 1, "slot")
        self._placeable(state, seat, code, i)
        slot = state["provinces"][seat][i]
        plan = {"type": "build", "card": code, "slot": i, "welcome": None, "loser": None}
        welcome = move.get("welcome")
        require(
            B.can_build(slot),
            "That slot already holds a building: replace it instead, or build on a free slot.",
        )
        if B.occupies(slot):
            require(welcome is None, "You can only welcome a character when building on a free slot.")
            plan["loser"] = self._honour_loser(state, seat, move)
            return plan
        require(move.get("target") is None, "Building on a free slot names no target.")
        if welcome is not None:
            require(isinstance(welcome, dict), "welcome must be {{seat, slot}}.")
            ws = self._seat_in(
                welcome.get("seat"),
                B.opponents(state, seat),
                "You can only welcome an opponent's wandering character.",
            )
            j = self._int(welcome.get("slot"), 0, SLOTS - 1, "welcomed")
            require(
                (ws, j) in B.welcome_sources(state, seat), "There is no wandering character in that slot."
            )
            plan["welcome"] = {"seat": ws, "slot": j}
        return plan

    def _check_replace(self, state: State, seat: int, move: Move) -> dict:
        code = self._hand_card(state, seat, move.get("card"), C.BUILD, C.BUILD)
        i = self._int(move.get("slot"), 0, SLOTS - 1, "slot")
        require(B.can_replace(state["provinces"][seat][i]), "There is no building of yours to replace there.")
        self._placeable(state, seat, code, i)
        return {"type": "replace", "card": code, "slot": i}

    def _check_place(self, state: State, seat: int, move: Move) -> dict:
        code = self._hand_card(state, seat, move.get("card"), C.CHAR, C.CHAR)
        i = self._int(move.get("slot"), 0, SLOTS - 1, "slot")
        slot = state["provinces"][seat][i]
        require(B.can_place(slot), "That slot already holds a character.")
        self._placeable(state, seat, code, i)
        if not B.occupies(slot):
            require(move.get("target") is None, "A wandering character names no target.")
            return {"type": "place", "card": code, "slot": i, "loser": None}
        return {"type": "place", "card": code, "slot": i, "loser": self._honour_loser(state, seat, move)}

    def _check_action(self, state: State, seat: int, move: Move) -> dict:
        code = self._hand_card(state, seat, move.get("card"), C.CHAR, C.CHAR)
        target = move.get("target")
        require(isinstance(target, dict), "An Action needs a target {{seat, slot}}.")
        ts = self._seat_in(
            target.get("seat"), B.opponents(state, seat), "An Action targets an opponent's province."
        )
        j = self._int(target.get("slot"), 0, SLOTS - 1, "target")
        require(state["provinces"][ts][j] is not None, "There is nothing to target in that slot.")
        if P.enabled(state) and (guard := P.shielded(state, ts, j)):
            raise IllegalMove(
                "{card}'s power ({power}) keeps that slot from being targeted.",
                card=C.name(guard),
                power=V.keyword(P.POWERS[guard]["do"]),
            )
        part = B.action_part(state, seat, ts, j)
        require(part is not None, "That card is protected by the frontier card in front of it.")
        require(
            target.get("part") in (None, part),
            "An occupied building is targeted as a whole (part: building); a wandering character as part: character.",
        )
        return {
            "type": "action",
            "card": code,
            "seat": ts,
            "slot": j,
            "reinforce": self._check_reinforcement(state, seat, code, move.get("reinforce")),
        }

    def _check_reinforcement(self, state: State, seat: int, code: str, helper: Any) -> dict | None:
        if helper is None:
            return None
        require(
            isinstance(helper, dict), "reinforce must be {{from: hand, card}} or {{from: province, slot}}."
        )
        source = helper.get("from")
        require(source in REINFORCE_SOURCES, "Reinforcements come from your hand or your province.")
        if source == "hand":
            extra = self._hand_card(state, seat, helper.get("card"), C.CHAR, "reinforcement")
            require(extra != code, "The reinforcement must be a second character.")
            return {"from": "hand", "card": extra}
        k = self._int(helper.get("slot"), 0, SLOTS - 1, "reinforcement")
        require(
            k in B.own_characters(state, seat),
            "There is no character of yours in that slot of your province.",
        )
        return {"from": "province", "slot": k}

    # --- apply ---------------------------------------------------------------------------

    def mutable_copy(self, state: State) -> State:
        """Copy-on-write: the piles, hands, discards, honour, mulligans and the provinces' slots
        (``_apply`` changes them in place) are copied; ``options`` is shared."""
        new = dict(state)
        for key in ("hands", "discards", "decks"):
            if key in state:
                new[key] = [list(cards) for cards in state[key]]
        for key in ("pile", "river", "honour", "mulligans"):
            if key in state:
                new[key] = list(state[key])
        new["provinces"] = [
            [None if slot is None else dict(slot) for slot in province] for province in state["provinces"]
        ]
        return new

    def _apply(self, state: State, seat: int, move: Move, log: Log = None) -> None:
        plan = self._check(state, seat, move)
        getattr(self, "_do_" + plan["type"])(state, seat, plan, log)

    def _played(self, before: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The move played again on a copy of ``before``, telling what it did."""
        log: list[Event] = []
        after = self.mutable_copy(before)
        self._guard(after, seat, move)
        self._apply(after, seat, move, log)
        return after, log

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Event]:
        """What ``move`` did (``after`` is what it led to): the same move replayed on a copy of ``before``,
        which replays exactly (the randomness is in the state)."""
        return self._played(before, seat, move)[1]

    @staticmethod
    def _honour(state: State, seat: int, delta: int, gain: bool = True) -> int:
        """Change ``seat``'s honour by ``delta`` (capped at 10, floored at 0); the real change."""
        if not gain:
            delta = min(delta, 0)
        old = state["honour"][seat]
        state["honour"][seat] = max(0, min(MAX_HONOUR, old + delta))
        return state["honour"][seat] - old

    def _lose_one(self, state: State, loser: int, reason: str, log: Log) -> None:
        if self._stopped(state):  # someone is at 0 honour: the rest of the move is not applied
            return
        change = self._honour(state, loser, -1)
        _emit(log, "honour_lost", seat=loser, amount=-change, reason=reason)

    def _resolve(
        self,
        state: State,
        seat: int,
        attack: list[str],
        defence: list[str],
        shares: bool,
        log: Log,
        gain=True,
        bonus: dict[str, int] | None = None,
    ) -> dict:
        res = B.clash(attack, defence, shares, bonus)
        change = self._honour(state, seat, res["delta"], gain)
        # why the honour moved less than the comparison says: "replace" (no gain), "cap" (10), "floor" (0)
        limit = None
        if change != res["delta"]:
            limit = "replace" if not gain and res["delta"] > 0 else "cap" if res["delta"] > 0 else "floor"
        _emit(
            log,
            "clash",
            seat=seat,
            attack_cards=attack,
            defence_cards=defence,
            **res,
            change=change,
            limit=limit,
        )
        return res

    def _do_mulligan(self, state: State, seat: int, plan: dict, log: Log) -> None:
        hand = state["hands"][seat]
        size = len(hand) - 1
        if state["shared"]:
            state["pile"] = shuffle(state, state["pile"] + hand)
        else:
            state["decks"][seat] = shuffle(state, state["decks"][seat] + hand)
        state["hands"][seat] = []
        for _ in range(size):
            self._take_top(state, seat)
        state["mulligans"][seat] = True
        _private(
            log,
            state,
            seat,
            {"kind": "mulligan", "seat": seat, "count": size},
            {"kind": "mulligan_hand", "seat": seat, "cards": list(state["hands"][seat])},
        )
        self._next_mulligan(state, log)

    def _do_keep(self, state: State, seat: int, plan: dict, log: Log) -> None:
        _emit(log, "kept", seat=seat)
        self._next_mulligan(state, log)

    def _next_mulligan(self, state: State, log: Log) -> None:
        state["mulligan_turn"] += 1
        if state["mulligan_turn"] >= state["players"]:
            state["phase"] = "play"
            state["current"] = state["first"]
            _emit(log, "plays_first", seat=state["first"])

    def _do_build(self, state: State, seat: int, plan: dict, log: Log) -> None:
        code, i = plan["card"], plan["slot"]
        state["hands"][seat].remove(code)
        prov = state["provinces"][seat]
        if prov[i] is None:
            prov[i] = {"building": code, "character": None, "guest": None}
            _emit(log, "built", seat=seat, card=code, slot=i)
            grants = 0
            welcome = plan["welcome"]
            if welcome:
                ws, j = welcome["seat"], welcome["slot"]
                char = state["provinces"][ws][j]["character"]
                _emit(log, "welcomed", seat=seat, owner_seat=ws, card=char)
                # the character moves in whatever the comparison costs; at 0 honour nothing else follows
                self._resolve(state, seat, [code], [char], False, log)
                state["provinces"][ws][j] = None
                prov[i]["character"] = char
                prov[i]["guest"] = ws
                self._lose_one(state, ws, "occupied", log)
                grants = self._fire(state, seat, code, "welcomed", log, plan)
            grants += self._fire(state, seat, code, "placed", log, plan)  # once the welcome is done
        else:
            prov[i]["building"] = code
            _emit(log, "built_under", seat=seat, card=code, character_card=prov[i]["character"], slot=i)
            self._lose_one(state, plan["loser"], "occupied", log)
            grants = self._fire(state, seat, code, "placed", log, plan)
        self._after_play(state, seat, grants, log)

    def _do_replace(self, state: State, seat: int, plan: dict, log: Log) -> None:
        code, i = plan["card"], plan["slot"]
        state["hands"][seat].remove(code)
        slot = state["provinces"][seat][i]
        old = slot["building"]
        _emit(log, "replaced", seat=seat, card=code, old_card=old, slot=i)
        # « comme une Action du nouvel Édifice contre l'ancien »: the old building defends, its Renown too
        bonus = self._defence_bonus(state, seat, i, log, codes=[old])
        self._resolve(state, seat, [code], [old], False, log, gain=False, bonus=bonus)
        slot["building"] = code
        state["discards"][seat].append(old)
        grants = self._fire(state, seat, code, "placed", log, plan)
        self._fire(state, seat, old, "discarded", log, plan)
        self._after_play(state, seat, grants, log)

    def _do_place(self, state: State, seat: int, plan: dict, log: Log) -> None:
        code, i = plan["card"], plan["slot"]
        state["hands"][seat].remove(code)
        prov = state["provinces"][seat]
        if prov[i] is None:
            prov[i] = {"building": None, "character": code, "guest": None}
            _emit(log, "placed", seat=seat, card=code, slot=i)
        else:
            prov[i]["character"] = code
            _emit(log, "placed_in", seat=seat, card=code, building_card=prov[i]["building"], slot=i)
            self._lose_one(state, plan["loser"], "occupied", log)
        self._after_play(state, seat, self._fire(state, seat, code, "placed", log, plan), log)

    def _action_cards(self, state: State, seat: int, plan: dict) -> tuple[list[str], list[str], bool]:
        """An Action's attacking cards (the performer first, then its reinforcement), the defending cards,
        and whether the performer shares the occupied building's category."""
        attack = [plan["card"]]
        helper = plan["reinforce"]
        if helper is not None:
            if helper["from"] == "hand":
                attack.append(helper["card"])
            else:
                attack.append(state["provinces"][seat][helper["slot"]]["character"])
        slot = state["provinces"][plan["seat"]][plan["slot"]]
        defence = [c for c in (slot["building"], slot["character"]) if c]
        shares = (
            len(defence) == 2
            and C.CARD_BY_CODE[plan["card"]]["category"] == C.CARD_BY_CODE[slot["building"]]["category"]
        )
        return attack, defence, shares

    @staticmethod
    def _fallen(state: State, ts: int, j: int) -> list[tuple[int, str]]:
        """``(owner, card)`` of the cards an Action against slot ``j`` of ``ts`` discards (a welcomed
        character goes to its own owner's discard)."""
        slot = state["provinces"][ts][j]
        fallen = [(ts, slot["building"]), (ts if slot["guest"] is None else slot["guest"], slot["character"])]
        return [(owner, c) for owner, c in fallen if c]

    def _do_action(self, state: State, seat: int, plan: dict, log: Log) -> None:
        ts, j = plan["seat"], plan["slot"]
        attack, defence, shares = self._action_cards(state, seat, plan)
        fallen = self._fallen(state, ts, j)
        hand = state["hands"][seat]
        hand.remove(plan["card"])
        helper = plan["reinforce"]
        if helper is not None:
            if helper["from"] == "hand":
                hand.remove(helper["card"])
            else:
                own = state["provinces"][seat][helper["slot"]]
                if own["building"]:
                    own["character"] = None
                else:
                    state["provinces"][seat][helper["slot"]] = None
        occupied = len(defence) == 2
        _emit(log, "action", seat=seat, attack_cards=attack, target_seat=ts, defence_cards=defence, slot=j)
        bonus = self._defence_bonus(state, ts, j, log)
        res = self._resolve(state, seat, attack, defence, shares, log, bonus=bonus)
        # every card involved goes to its owner's discard, whatever the comparison cost; then, unless it
        # brought someone to 0 honour (the game stops there), the rest of the Action
        state["discards"][seat].extend(attack)
        for owner, c in fallen:
            state["discards"][owner].append(c)
        state["provinces"][ts][j] = None
        grants = 0
        if occupied:
            self._lose_one(state, ts, "action", log)
            grants = 0 if self._stopped(state) else 1  # Ferveur populaire
        if P.enabled(state):
            # « la carte venant en Renfort n'est pas considérée comme réalisant l'Action »
            outcome = "won" if res["delta"] > 0 else "lost" if res["delta"] < 0 else None
            if outcome:
                grants += self._fire(state, seat, attack[0], outcome, log, plan)
            for c in attack:
                self._fire(state, seat, c, "discarded", log, plan)
            for owner, c in fallen:
                # a defender's own Disgrace hits the Action's author; the mover's own card, their choice
                self._fire(state, owner, c, "discarded", log, plan if owner == seat else {"disgrace": seat})
        self._after_play(state, seat, grants, log)

    def _after_play(self, state: State, seat: int, grants: int, log: Log) -> None:
        """After a card is played: the end, or the extra plays owed (this one used one if it was one), or
        the draw."""
        owed = grants + (state.pop("more_plays", 0) if state["phase"] == "fervour" else 0)
        if self._check_end(state, log):
            return
        if owed:
            state["phase"] = "fervour"
            if owed > 1:
                state["more_plays"] = owed - 1
            # told as this play's Popular fervour when it granted one; else as the extra plays still owed
            told = {"plays": owed} if owed > 1 else {}
            _emit(log, "fervour", seat=seat, **told, **({} if grants else {"left": True}))
            return
        self._start_draws(state, seat, 1, log)

    def _do_end_turn(self, state: State, seat: int, plan: dict, log: Log) -> None:
        state.pop("more_plays", None)  # the extra plays left are given up
        _emit(log, "ended_turn", seat=seat)
        self._start_draws(state, seat, 1, log)

    def _do_pass(self, state: State, seat: int, plan: dict, log: Log) -> None:
        code = plan["discard"]
        if code is not None:
            state["hands"][seat].remove(code)
            state["discards"][seat].append(code)
        _emit(log, "passed", seat=seat, card=code)
        if code is not None:
            self._fire(state, seat, code, "discarded", log, plan)
        self._start_draws(state, seat, 2, log)

    def _drew(self, state: State, seat: int, codes: list[str], log: Log) -> None:
        _private(
            log,
            state,
            seat,
            {"kind": "drew", "seat": seat, "count": len(codes)},
            {"kind": "drew_cards", "seat": seat, "cards": codes},
        )

    def _start_draws(self, state: State, seat: int, count: int, log: Log) -> None:
        if self._check_end(state, log):  # a power drew the last card, or took the last honour
            return
        if P.enabled(state):
            for code in P.owned_in_province(state, seat):
                self._fire(state, seat, code, "end_of_turn", log)
            if self._check_end(state, log):
                return
        if state["shared"]:
            state["phase"] = "draw"
            state["pending_draws"] = count
            return
        drawn = []
        for _ in range(count):
            if not state["decks"][seat]:
                break
            drawn.append(self._take_top(state, seat))
            if not state["decks"][seat]:
                self._drew(state, seat, drawn, log)
                self._finish(state, "deck", seat, log)
                return
        if drawn:
            self._drew(state, seat, drawn, log)
        self._next_turn(state)

    def _do_draw(self, state: State, seat: int, plan: dict, log: Log) -> None:
        if plan["source"] == "pile":
            self._drew(state, seat, [self._take_top(state, seat)], log)
        else:
            code = plan["card"]
            river = state["river"]
            k = river.index(code)
            state["hands"][seat].append(code)
            _emit(log, "took_from_river", seat=seat, card=code)
            if state["pile"]:
                river[k] = state["pile"].pop()
                _emit(log, "river_refilled", card=river[k])
            else:
                river.pop(k)
        state["pending_draws"] -= 1
        if not state["pile"]:
            self._finish(state, "deck", seat, log)
            return
        if state["pending_draws"] <= 0:
            state["pending_draws"] = 0
            self._next_turn(state)

    def _next_turn(self, state: State) -> None:
        state["current"] = (state["current"] + 1) % state["players"]
        state["phase"] = "play"
        state["pending_draws"] = 0
        state["turn"] += 1

    def _check_end(self, state: State, log: Log) -> bool:
        if state["phase"] == "over":  # ended already, mid-move (a power drew the last card)
            return True
        zero = [s for s in range(state["players"]) if state["honour"][s] <= 0]
        if zero:
            self._finish(state, "honour", zero[0], log)
            return True
        for s, prov in enumerate(state["provinces"]):
            if all(slot is not None for slot in prov):
                self._finish(state, "province", s, log)
                return True
        return False

    @staticmethod
    def _stopped(state: State) -> bool:
        """Whether the move in progress must stop: a player reached 0 honour (the game stops at that moment:
        nothing after it is applied) or the game ended (a power drew the last card)."""
        return state["phase"] == "over" or min(state["honour"]) <= 0

    def _finish(self, state: State, reason: str, seat: int, log: Log) -> None:
        state.pop("more_plays", None)
        state["phase"] = "over"
        state["pending_draws"] = 0
        state["end_reason"] = reason
        res = self.result(state)
        _emit(log, "game_over", seat=seat, reason=reason, scores=res["scores"], winner_seats=res["winners"])

    # --- the special powers (option ``powers``) ----------------------------------------------------

    def _defence_bonus(
        self, state: State, ts: int, j: int, log: Log, codes: list[str] | None = None
    ) -> dict[str, int] | None:
        """The Renown bonuses of the cards defending slot ``j`` of ``ts`` ({domain: n}; ``codes``: the
        defending cards when not the whole slot), told."""
        if not P.enabled(state):
            return None
        bonus: dict[str, int] = {}
        for code, domain, n in P.defence_bonus(state, ts, j, codes):
            bonus[domain] = bonus.get(domain, 0) + n
            _emit(log, "power_bonus", seat=ts, card=code, domain=domain, n=n)
        return bonus

    def _fire(self, state: State, seat: int, code: str, when: str, log: Log, plan: dict | None = None) -> int:
        """Fire ``code``'s power for its owner ``seat`` if it triggers on ``when`` (powers on, and the move not
        stopped: 0 honour or the last card drawn ends the game at once). ``plan``: the move's choices
        (``disgrace``, ``exile``). Returns the extra plays it grants (0 or 1)."""
        pw = P.POWERS.get(code)
        if pw is None or pw["when"] != when or not P.enabled(state) or self._stopped(state):
            return 0
        do, n = pw["do"], pw["n"]
        plan = plan or {}
        if do == "draw":
            source = self._source(state, seat)
            drawn = [self._take_top(state, seat) for _ in range(min(n, len(source)))]
            if drawn:
                _private(
                    log,
                    state,
                    seat,
                    {"kind": "power_drew", "seat": seat, "card": code, "count": len(drawn)},
                    {"kind": "power_drew_cards", "seat": seat, "card": code, "drawn_cards": drawn},
                )
            if not source:  # the last card drawn: the game ends at once
                self._finish(state, "deck", seat, log)
        elif do in ("gain", "sap"):
            s = seat if do == "gain" else plan.get("disgrace")
            if s is None:
                raise RuntimeError(f"{code}'s Disgrace fired with no opponent named")
            change = self._honour(state, s, n if do == "gain" else -n)
            _emit(log, "power_honour", seat=s, card=code, change=change)
        elif do == "recover":
            if state["discards"][seat]:
                back = state["discards"][seat].pop()
                state["hands"][seat].append(back)
                _emit(log, "power_recovered", seat=seat, card=code, recovered_card=back)
        elif do == "rout":
            found = plan.get("exile")
            if found:
                o, j = found
                char = state["provinces"][o][j]["character"]
                state["provinces"][o][j] = None
                state["hands"][o].append(char)
                _emit(log, "power_routed", seat=seat, card=code, owner_seat=o, routed_card=char)
        elif do == "fervour":
            _emit(log, "power_fervour", seat=seat, card=code)
            return 1
        return 0

    # --- what a move would do, and taking one back ---------------------------------------------

    def preview(self, state: State, seat: int, move: Move) -> dict | None:
        """What a legal play-phase ``move`` would do to honour, without playing it: ``honour_delta`` (the
        mover's), ``opponent_honour_delta`` ({seat: change}), ``events`` (the comparisons, honour lost,
        fervour and the end: nothing drawn) and ``explanation`` ({lang: words}). None for a mulligan or a
        draw (nothing to show) or an illegal move; it never raises."""
        if not isinstance(move, dict) or move.get("type") in ("mulligan", "keep", "draw"):
            return None
        try:
            after, log = self._played(state, seat, move)
        except IllegalMove:
            return None
        deltas = [after["honour"][s] - state["honour"][s] for s in range(state["players"])]
        told = [e for e in log if e["kind"] in V.PREVIEWED]
        return {
            "honour_delta": deltas[seat],
            "opponent_honour_delta": {s: deltas[s] for s in B.opponents(state, seat)},
            "events": told,
            "explanation": {lang: V.explain(told, lang, seat) for lang in V.MESSAGES},
        }

    def can_take_back(self, before: State, seat: int, move: Move, after: State) -> bool:
        """A card placed (build, replace, place) or a pass, while the turn is still ``seat``'s own and nothing
        was drawn: only the shared variant's draw step leaves such a moment (otherwise the draw follows at
        once). No Action (it hits an opponent's cards), no draw, no mulligan, nothing that ended the game."""
        if P.enabled(before) and any(
            not set(after["hands"][s]) <= set(before["hands"][s]) for s in range(before["players"])
        ):
            return False  # a power drew or handed back a card
        return (
            isinstance(move, dict)
            and move.get("type") in self.takeback_moves
            and after["phase"] == "draw"
            and B.to_act(after) == [seat]
            and after["draws"] == before["draws"]
            and before["phase"] in ("play", "fervour")
        )


GAME = Chronica()
