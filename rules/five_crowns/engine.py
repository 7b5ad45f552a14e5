"""The Five Crowns engine: 11 rounds of draw-and-discard rummy (rulebook 004, RULINGS.md).

State (plain JSON)::

    {"seed", "draws", "players", "options",
     "round": 1..11, "dealer": seat, "turn": seat, "phase": "draw" | "discard" | "over",
     "hands": [[codes] per seat], "stock": [codes, top last], "discard": [codes, top last],
     "taken": code or None,        # the card the player to act took from the discard this turn
     "drawn": code or None,        # the card the player to act drew this turn (either pile)
     "went_out": seat or None,     # who went out this round
     "final_turns": [seats],       # after someone went out: who still plays a last turn, in order
     "log": [public events of this round, in order: {"act": "turn_up" | "draw" | "take" |
             "discard" | "go_out" | "rebuild", "seat": seat (not for turn_up, rebuild),
             "card": code (turn_up, take, discard, go_out)}] (so in a dump; a state may hold it
             as a shared chain, see ``_record``: read it with ``round_log(state)``),
     "scores": [running totals], "sheet": [[penalty per seat] per finished round],
     "last_round": None or {"round", "wild_rank", "went_out", "laid": [per seat arrangement]}}

Readings chosen where the rulebook and RULINGS are silent (also on the rules page):
- A card taken from the discard may not be discarded again in the same turn (as at most
  tables: it would be a pass), unless every card in hand has that code.
- The stock is rebuilt from the discard (all but its top card, shuffled) as soon as it is
  empty. If a player must draw and neither pile has a card, the round ends at once and every
  hand is scored as it stands (the app lays the best melds). With 116 cards and at most 8
  players this cannot happen; it only keeps the engine from ever being stuck.
- A player who can lay all but one card may go out in their last turn after someone else
  went out too: it scores 0 like laying everything, and does not change who went out.
"""

from __future__ import annotations

import copy
import json

from rules.core import BaseGame, IllegalMove, require, shuffle
from rules.five_crowns import cards as deck
from rules.five_crowns.cards import card_name, full_deck, is_card, rank_name, sort_key
from rules.five_crowns.melds import arrange, go_out_arrangement, go_out_cards

ROUNDS = 11
SOURCES = ("stock", "discard")


# The round's log only grows, and a long round holds a thousand events: a move must neither copy
# nor change it (the state it was applied to keeps its own log). In a state the log is a list of
# events (as ``dump`` writes it and ``load`` or a test may leave it), or, once a move has added to it,
# a persistent chain ``(older, chunk)``: ``chunk`` a tuple of up to LOG_CHUNK events, ``older`` the
# chain before it (None, or a list of events). An event is added by copying ``chunk`` only, so
# states share their history; ``round_log`` reads it back as a list.
LOG_CHUNK = 32


def _record(state: dict, event: dict) -> None:
    """Add a public event to the round's log (states saved before the log existed start one)."""
    log = state.get("log")
    if isinstance(log, tuple) and len(log[1]) < LOG_CHUNK:
        state["log"] = (log[0], (*log[1], event))
    else:
        state["log"] = (log or None, (event,))


def round_log(state: dict) -> list[dict]:
    """The round's public events in order (the log of any state: a list or a chain)."""
    chunks = []
    log = state.get("log")
    while isinstance(log, tuple):
        log, chunk = log
        chunks.append(chunk)
    events = list(log or [])
    for chunk in reversed(chunks):
        events.extend(chunk)
    return events


def wild_rank(round_number: int) -> int:
    """Round r deals r + 2 cards and the wild rank is that number (3 ... K=13)."""
    return round_number + 2


class FiveCrowns(BaseGame):
    slug = "five_crowns"
    title = "Five Crowns"
    low_score_wins = True  # penalty totals: the lowest wins
    min_players = 2
    max_players = 8
    options: dict = {}

    # --- set-up and rounds ------------------------------------------------------------

    def _setup(self, state: dict) -> dict:
        n = state["players"]
        state.update(
            {
                "round": 0,
                "dealer": n - 1,
                "turn": 0,
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
        _record(state, {"act": "rebuild"})
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

    def _discardable(self, state: dict, hand: list[str]) -> list[str]:
        """Distinct codes the player may discard (not the card just taken from the discard)."""
        codes = list(dict.fromkeys(hand))
        taken = state["taken"]
        if taken is not None and any(code != taken for code in codes):
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
        codes = self._discardable(state, hand)
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
            require(state[source], f"The {source} is empty.")
            return
        require(kind in ("discard", "go_out"), "You have drawn: now discard a card (or go out).")
        card = move.get("card")
        require(is_card(card), "Name a card to discard.")
        hand = state["hands"][seat]
        require(card in hand, "That card is not in your hand.")
        require(
            card in self._discardable(state, hand),
            "You may not discard the card you just took from the discard.",
        )
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
            _record(
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
        _record(state, {"act": kind, "seat": seat, "card": card})
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
        state["phase"] = "draw"
        self._refill(state)

    # --- what each seat sees ----------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """What ``seat`` may know (None: a spectator). Keys:

        - ``hand`` (own codes, sorted by suit then rank; not for a spectator),
          ``drawn`` (the card the viewer drew this turn, else null; not for a spectator),
          ``go_out`` (null, or a way for the viewer to go out now: ``{"discard": code,
          "melds": [{"kind": "run" | "book", "cards": [codes]}]}``; not for a spectator)
        - ``players``, ``round`` (1..11), ``rounds`` (11), ``wild_rank`` (3..13),
          ``wild_label`` ("3".."10", "J", "Q", "K"), ``dealer``, ``turn`` (seat or null),
          ``phase`` ("draw" | "discard" | "over")
        - ``hand_sizes`` (per seat), ``stock_size``, ``discard_size``, ``discard_top``
          (code or null), ``taken_from_discard`` (the code the player to act took from the
          discard this turn, public, else null)
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
        - ``over`` (bool), ``winners`` (seats; [] until over)
        """
        wild = wild_rank(state["round"])
        over = self.is_over(state)
        out = {
            "players": state["players"],
            "round": state["round"],
            "rounds": ROUNDS,
            "wild_rank": wild,
            "wild_label": deck.RANK_LABEL[wild],
            "dealer": state["dealer"],
            "turn": None if over else state["turn"],
            "phase": state["phase"],
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "stock_size": len(state["stock"]),
            "discard_size": len(state["discard"]),
            "discard_top": state["discard"][-1] if state["discard"] else None,
            "taken_from_discard": state["taken"],
            "round_log": [dict(event) for event in round_log(state)],
            "went_out": state["went_out"],
            "final_turns": list(state["final_turns"]),
            "scores": list(state["scores"]),
            "sheet": [list(row) for row in state["sheet"]],
            "last_round": copy.deepcopy(state["last_round"]),
            "over": over,
            "winners": self.result(state)["winners"] if over else [],
        }
        if seat is not None and 0 <= seat < state["players"]:
            mine = seat == state["turn"] and not over
            out["hand"] = list(state["hands"][seat])
            out["drawn"] = state["drawn"] if mine else None
            out["go_out"] = None
            if mine and state["phase"] == "discard":
                hand = state["hands"][seat]
                out["go_out"] = go_out_arrangement(hand, wild, self._discardable(state, hand))
        return out

    def preview(self, state: dict, seat: int, move: dict) -> dict | None:
        """What a legal ``go_out`` move would lay: ``{"discard": code, "melds": [{"kind",
        "cards"}]}`` (the best melds of the rest of the hand); None for any other move."""
        if move.get("type") != "go_out" or seat not in self.to_act(state) or state["phase"] != "discard":
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

    # --- the move log -------------------------------------------------------------------

    def narrate(
        self, before: dict, seat: int, move: dict, after: dict, names: list[str], viewer: int | None
    ) -> list[str]:
        who = names[seat]
        kind = move.get("type")
        lines = []
        if kind == "draw" and move.get("source") == "stock":
            card = after["drawn"]
            lines.append(
                f"{who} drew {card_name(card)} from the stock"
                if viewer == seat
                else f"{who} drew from the stock"
            )
        elif kind == "draw":
            lines.append(f"{who} took {card_name(before['discard'][-1])} from the discard")
        elif kind == "discard":
            lines.append(f"{who} discarded {card_name(move['card'])}")
        elif kind == "go_out":
            lines.append(f"{who} went out, discarding {card_name(move['card'])}")
            if before["went_out"] is None and before["players"] > 1:
                lines.append("Everyone else plays one last turn")
        elif kind == "end_round":
            lines.append("Both piles are empty: the round ends")
        if after["round"] == before["round"] and after["draws"] > before["draws"]:
            lines.append("The discard was shuffled into a new stock")
        if len(after["sheet"]) > len(before["sheet"]):
            penalties = after["sheet"][-1]
            scored = ", ".join(f"{names[s]} {p}" for s, p in enumerate(penalties))
            lines.append(f"Round {before['round']} scored: {scored}")
            if self.is_over(after):
                winners = self.result(after)["winners"]
                low = after["scores"][winners[0]]
                lines.append(f"Game over: {' and '.join(names[s] for s in winners)} won with {low} points")
            else:
                wild = wild_rank(after["round"])
                lines.append(
                    f"New round {after['round']}: {after['round'] + 2} cards, {rank_name(wild)}s are wild, "
                    f"{names[after['dealer']]} deals"
                )
        return lines


GAME = FiveCrowns()
