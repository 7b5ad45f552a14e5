"""The Five Crowns engine: 11 rounds of draw-and-discard rummy (rulebook 004, RULINGS.md).

State (plain JSON)::

    {"seed", "draws", "players", "options": {"keep_taken": bool},
     "round": 1..11, "dealer": seat, "turn": seat (whose turn it is; None once over),
     "turns": turns begun in the game (from 1: the view's ``turn``),
     "phase": "draw" | "discard" | "over",
     "hands": [[codes] per seat], "stock": [codes, top last], "discard": [codes, top last],
     "taken": code or None,        # the card the player to act took from the discard this turn
     "drawn": code or None,        # the card the player to act drew this turn (either pile)
     "went_out": seat or None,     # who went out this round
     "final_turns": [seats],       # after someone went out: who still plays a last turn, in order
     "log": [public events of this round, in order: {"act": "turn_up" | "draw" | "take" |
             "discard" | "go_out" | "rebuild", "seat": seat (not for turn_up, rebuild),
             "card": code (turn_up, take, discard, go_out)}] (so in a dump; a state may hold it
             as a shared chain, see ``log.record``: read it with ``log.round_log(state)``),
     "scores": [running totals], "sheet": [[penalty per seat] per finished round],
     "last_round": None or {"round", "wild_rank", "went_out", "laid": [per seat arrangement]}}

The turn: « prendre une carte du dessus de la pioche ou du dessus de la défausse, puis rejette une
sur la défausse » (rulebook 004), with no restriction: the card just taken from the discard (or
its twin) may be thrown back, also to go out. The house rule ``{"keep_taken": true}`` forbids
that, unless every card in hand has that code.

No move can be taken back (``takeback_moves`` is empty): a draw from the stock shows the drawer a
card, taking the discard shows everyone the card in that hand, and a discard ends the turn.

Readings chosen where the rulebook and RULINGS are silent (also on the rules page):
- The stock is rebuilt from the discard (all but its top card, shuffled) as soon as it is
  empty. If a player must draw and neither pile has a card, the round ends at once and every
  hand is scored as it stands (the app lays the best melds). With 116 cards and at most 8
  players this cannot happen; it only keeps the engine from ever being stuck.
- A player who can lay all but one card may go out in their last turn after someone else
  went out too: it scores 0 like laying everything, and does not change who went out.
"""

from __future__ import annotations

import json

from rules.core import BaseGame, Event, IllegalMove, each_language, require, shuffle
from rules.five_crowns import view as views
from rules.five_crowns.cards import ROUNDS, full_deck, is_card, sort_key, wild_rank
from rules.five_crowns.log import record, round_log
from rules.five_crowns.melds import arrange, go_out_cards

SOURCES = ("stock", "discard")
KEPT = "House rule: you may not throw back the card you just took from the discard ({card})."

__all__ = ["GAME", "FiveCrowns", "round_log", "wild_rank"]


class FiveCrowns(BaseGame):
    slug = "five_crowns"
    title = "Five Crowns"
    score_name = {"en": "Penalty points", "fr": "Points de pénalité"}  # what the result's scores count
    blurb = {
        "en": (
            "Rummy in eleven rounds with five suits and a wild rank that changes every round: "
            "go out first and keep your penalty low."
        ),
        "fr": (
            "Un rami en onze donnes, à cinq couleurs, dont le Bonus change à chaque donne : "
            "exposez le premier et gardez vos pénalités au plus bas."
        ),
    }
    low_score_wins = True  # penalty totals: the lowest wins
    min_players = 2
    max_players = 8
    options = {
        "keep_taken": {
            "type": "bool",
            "default": False,
            "house_rule": True,
            "label": "House rule: a card taken from the discard may not be thrown back that turn",
        },
    }

    # --- set-up and rounds ------------------------------------------------------------

    def _setup(self, state: dict) -> dict:
        n = state["players"]
        state.update(
            {
                "round": 0,
                "dealer": n - 1,
                "turn": 0,
                "turns": 0,
                "phase": "draw",
                "hands": [[] for _ in range(n)],
                "stock": [],
                "discard": [],
                "taken": None,
                "drawn": None,
                "went_out": None,
                "final_turns": [],
                "log": [],
                "scores": [0] * n,
                "sheet": [],
                "last_round": None,
            }
        )
        self._deal(state)
        return state

    def _deal(self, state: dict) -> None:
        """Start the next round: the dealer moves left, all 116 cards are shuffled and dealt."""
        n = state["players"]
        state["round"] += 1
        state["dealer"] = (state["dealer"] + 1) % n
        size = state["round"] + 2
        cards = shuffle(state, full_deck())
        hands = [[] for _ in range(n)]
        for _ in range(size):
            for offset in range(1, n + 1):
                hands[(state["dealer"] + offset) % n].append(cards.pop())
        state["hands"] = [sorted(hand, key=sort_key) for hand in hands]
        state["discard"] = [cards.pop()]
        state["log"] = [{"act": "turn_up", "card": state["discard"][0]}]
        state["stock"] = cards
        state["turn"] = (state["dealer"] + 1) % n
        state["turns"] += 1
        state["phase"] = "draw"
        state["taken"] = None
        state["drawn"] = None
        state["went_out"] = None
        state["final_turns"] = []

    def _refill(self, state: dict) -> bool:
        """Rebuild an empty stock from the discard, keeping its top card. True if it did."""
        if state["stock"] or len(state["discard"]) < 2:
            return False
        top = state["discard"].pop()
        state["stock"] = shuffle(state, state["discard"])
        state["discard"] = [top]
        record(state, {"act": "rebuild"})
        return True

    def _score_round(self, state: dict) -> None:
        """Lay every hand's best melds, add the penalties, then deal the next round or end."""
        wild = wild_rank(state["round"])
        laid = [arrange(hand, wild) for hand in state["hands"]]
        penalties = [arrangement["penalty"] for arrangement in laid]
        state["scores"] = [total + p for total, p in zip(state["scores"], penalties, strict=True)]
        state["sheet"].append(penalties)
        state["last_round"] = {
            "round": state["round"],
            "wild_rank": wild,
            "went_out": state["went_out"],
            "laid": laid,
        }
        if state["round"] >= ROUNDS:
            state["phase"] = "over"
            state["turn"] = None
            state["taken"] = None
            state["drawn"] = None
            state["final_turns"] = []
        else:
            self._deal(state)

    # --- whose turn, which moves --------------------------------------------------------

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def to_act(self, state: dict) -> list[int]:
        return [] if self.is_over(state) else [state["turn"]]

    def discardable(self, state: dict, hand: list[str]) -> list[str]:
        """Distinct codes the player may discard: any, but with the house rule ``keep_taken`` not
        the card just taken from the discard (unless the hand holds nothing else)."""
        codes = list(dict.fromkeys(hand))
        taken = state["taken"]
        if state["options"]["keep_taken"] and taken is not None and any(code != taken for code in codes):
            codes.remove(taken)
        return codes

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "draw":
            moves = []
            if state["stock"]:
                moves.append({"type": "draw", "source": "stock"})
            if state["discard"]:
                moves.append({"type": "draw", "source": "discard"})
            if not moves:
                moves.append({"type": "end_round"})
            return moves
        hand = state["hands"][seat]
        codes = self.discardable(state, hand)
        out = set(go_out_cards(hand, wild_rank(state["round"])))
        moves = [{"type": "discard", "card": code} for code in codes]
        moves += [{"type": "go_out", "card": code} for code in codes if code in out]
        return moves

    def mutable_copy(self, state: dict) -> dict:
        """Copy-on-write: the hands, the piles, ``final_turns`` and ``sheet`` are copied (``_apply``
        changes them in place); the log (see ``_record``), ``scores``, ``last_round`` and ``options``
        (only ever replaced) are shared."""
        new = dict(state)
        new["hands"] = [list(hand) for hand in state["hands"]]
        for key in ("stock", "discard", "final_turns", "sheet"):
            new[key] = list(state[key])
        return new

    def dump(self, state: dict) -> dict:
        """The state as JSON data of its own, the log as a list (as before the chain; key order kept).
        A JSON round trip: several times faster than a deep copy once the round's log is long."""
        return json.loads(json.dumps({**state, "log": round_log(state)} if "log" in state else state))

    def _check(self, state: dict, seat: int, move: dict) -> None:
        """The one validator: raises IllegalMove unless ``move`` is legal for ``seat``."""
        kind = move.get("type")
        if state["phase"] == "draw":
            if kind == "end_round":
                require(not state["stock"] and not state["discard"], "There are still cards to draw.")
                return
            require(kind == "draw", "Draw a card first, from the stock or the discard.")
            source = move.get("source")
            require(source in SOURCES, 'Draw from "stock" or "discard".')
            if not state[source]:  # (a refusal's words are worked out only when it is raised)
                raise IllegalMove("The {pile} is empty.", pile=each_language(views.pile_name, source))
            return
        require(kind in ("discard", "go_out"), "You have drawn: now discard a card (or go out).")
        card = move.get("card")
        require(is_card(card), "Name a card to discard.")
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalMove("{card} is not in your hand.", card=each_language(views.card_name, card))
        if card not in self.discardable(state, hand):
            raise IllegalMove(KEPT, card=each_language(views.card_name, card))
        if kind == "go_out":
            require(
                card in go_out_cards(hand, wild_rank(state["round"])),
                "You cannot go out: the other cards do not all form melds.",
            )

    def _apply(self, state: dict, seat: int, move: dict) -> None:
        self._check(state, seat, move)
        kind = move["type"]
        if kind == "end_round":
            self._score_round(state)
            return
        if kind == "draw":
            card = state[move["source"]].pop()
            hand = state["hands"][seat]
            hand.append(card)
            hand.sort(key=sort_key)
            state["taken"] = card if move["source"] == "discard" else None
            state["drawn"] = card
            record(
                state,
                {"act": "take", "seat": seat, "card": card}
                if state["taken"]
                else {"act": "draw", "seat": seat},
            )
            state["phase"] = "discard"
            self._refill(state)
            return
        card = move["card"]
        state["hands"][seat].remove(card)
        state["discard"].append(card)
        record(state, {"act": kind, "seat": seat, "card": card})
        state["taken"] = None
        state["drawn"] = None
        n = state["players"]
        if kind == "go_out" and state["went_out"] is None:
            state["went_out"] = seat
            state["final_turns"] = [(seat + offset) % n for offset in range(1, n)]
        elif state["went_out"] is not None:
            state["final_turns"].remove(seat)
        if state["went_out"] is not None and not state["final_turns"]:
            self._score_round(state)
            return
        state["turn"] = state["final_turns"][0] if state["went_out"] is not None else (seat + 1) % n
        state["turns"] += 1
        state["phase"] = "draw"
        self._refill(state)

    # --- what each seat sees ----------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """What ``seat`` may know (None: a spectator). Keys:

        - the shared ``seat``, ``players``, ``to_act``, ``turn`` (turns begun in the game, from 1;
          a turn is one seat's draw and discard), ``over`` (bool), ``result`` (null until over),
          ``hand_sizes`` (per seat), and ``hand`` (own codes, sorted by suit then rank; not for a
          spectator)
        - ``drawn`` (the card the viewer drew this turn, else null; not for a spectator),
          ``go_out`` (null, or a way for the viewer to go out now: ``{"discard": code,
          "melds": [{"kind": "run" | "book", "cards": [codes]}]}``; not for a spectator)
        - ``round`` (1..11), ``rounds`` (11), ``wild_rank`` (3..13), ``wild_label`` ("3".."10",
          "J", "Q", "K"), ``dealer``, ``phase`` ("draw" | "discard" | "over")
        - ``stock_size``, ``discard_size``, ``discard_top`` (code or null), ``taken_from_discard``
          (the code the player to act took from the discard this turn, public, else null),
          ``keep_taken`` (the house rule is on)
        - ``round_log``: this round's public events in order, each ``{"act", "seat", "card"}``:
          ``turn_up`` (the card turned up at the deal; no seat), ``draw`` (a seat drew from the
          stock; no card), ``take`` (a seat took ``card`` from the discard), ``discard`` and
          ``go_out`` (a seat discarded ``card``), ``rebuild`` (the discard under its top card was
          shuffled into a new stock; no seat, no card). Everyone at the table saw all of it.
        - ``went_out`` (seat or null), ``final_turns`` (seats still to play their last
          turn, in order)
        - ``scores`` (running totals), ``sheet`` (per finished round, the penalties per seat)
        - ``last_round``: null, or ``{"round", "wild_rank", "went_out", "laid": [per seat
          {"melds": [{"kind", "cards"}], "leftover": [codes], "penalty": n}]}``
        - ``winners`` (seats; [] until over)
        """
        return views.build_view(self, state, seat)

    def preview(self, state: dict, seat: int, move: dict) -> dict | None:
        """What a legal ``go_out`` move would lay: ``{"discard": code, "melds": [{"kind",
        "cards"}]}`` (the best melds of the rest of the hand); None for any other move, or
        anything that is not a legal move now."""
        if not isinstance(move, dict) or move.get("type") != "go_out" or seat not in self.to_act(state):
            return None
        if state["phase"] != "discard":
            return None
        try:
            self._check(state, seat, move)
        except IllegalMove:
            return None
        rest = list(state["hands"][seat])
        rest.remove(move["card"])
        return {"discard": move["card"], "melds": arrange(rest, wild_rank(state["round"]))["melds"]}

    def result(self, state: dict) -> dict:
        scores = list(state["scores"])
        low = min(scores)
        return {"scores": scores, "winners": [s for s, total in enumerate(scores) if total == low]}

    def load(self, data: dict) -> dict:
        """A state from ``dump``; one saved before the turn counter and the house rule existed
        counts the turns begun in its round (from its log) and plays by the rulebook."""
        state = super().load(data)
        state["options"].setdefault("keep_taken", False)
        if "turns" not in state:
            taken = sum(event["act"] in ("draw", "take") for event in round_log(state))
            state["turns"] = taken + (state["phase"] == "draw")
        return state

    # --- the move log -------------------------------------------------------------------

    messages = views.MESSAGES

    def card_name(self, code: str, lang: str) -> str:
        return views.card_name(code, lang)

    def events(self, before: dict, seat: int, move: dict, after: dict) -> list[Event]:
        return views.move_events(self, before, seat, move, after)

    def setup_events(self, state: dict) -> list[Event]:
        """The first deal: the round's size and wild rank, the dealer, the card turned up."""
        return [views.deal_event(state)]


GAME = FiveCrowns()
