"""The Cosmic Crowns engine (rulebooks 000/002, RULINGS.md "Cosmic Crowns").

State (a plain JSON dict, on top of BaseGame's seed/draws/players/options):

- ``round`` 1..``rounds``, ``round_size``, ``dealer``, ``tie_brawl`` (bool), ``brawl_tied`` (seats);
- ``hands`` (per seat, sorted), ``stack`` (face-down, top first), ``revealed`` (Battleground
  cards turned up this round, oldest first), ``battleground`` (clan or None while chosen);
- ``trick`` (``{"seat", "card", "how"}`` in play order; how is ``play``, ``reveal``
  (the Assassin reveal's card), ``assassinated`` or ``discard``), ``leader``, ``divine``
  (seat whose Divine card wins the trick, or None), ``spent`` (cards of finished tricks);
- ``crowns`` (totals), ``tricks`` (tricks won this round), ``bids`` (Hard mode);
- ``pending``: the awaited decision ``{"kind", "seats", ...}`` (kinds: play, bid, choose_clan,
  assassinate, steal, discard), ``assassin_reveal`` (the reveal's card is still to be played);
- ``last_trick``, ``last_round``, ``events`` (what the last move, or the set-up, caused, as
  ``{"e": ...}`` records; ``view.public_events`` turns them into the move log's events),
  ``over``, ``winners``.

Taking a move back (``can_take_back``): a card played or discarded is face up, a bid hands the
decision to the next seat, an Assassin's victim gives a random card, a steal moves another
seat's crown. Only a Battleground clan choice after which the same seat acts again, with nothing
turned up or drawn at random (the dealer's choice after a Falling Star reveal, or a Falling Star
player who wins the trick and leads the next), may be taken back.

Readings chosen where the rulebooks and RULINGS are silent (also on the rules page):

- Assassin reveal: the dealer's random card opens the first trick, then play continues with
  the player left of the dealer. In Hard mode the bids come first, then that card is played.
- After a Divine card, the players who have not played discard at the same time: ``to_act``
  lists all of them; each discard is its own move, in any order. A Falling Star's new clan
  is chosen before those discards. On the last trick of a round the choice cannot matter
  and is skipped.
- The Thief steals from another player with a crown; from the pile if no other player has
  one. With a single possible victim (or only the pile) the steal resolves by itself; with
  a single player left to name, the Assassin's choice resolves by itself.
- Tie brawl: the next dealer in rotation (left of the last dealer) deals and leads; no bids;
  the trick's crown and Thief steals still move crowns; the trick's winner wins the game.
"""

from __future__ import annotations

import json

from rules.core import BaseGame, Event, IllegalMove, Move, State, below, each_language, require, shuffle
from rules.cosmic_crowns import view as views
from rules.cosmic_crowns.cards import (
    CARDS,
    CLANS,
    DECK,
    leading_clan,
    round_sizes,
    sort_key,
    trick_winner,
)

MOVE_KEYS = {
    "play": "card",
    "discard": "card",
    "bid": "tricks",
    "choose_clan": "clan",
    "assassinate": "target",
    "steal": "from",
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class CosmicCrowns(BaseGame):
    slug = "cosmic_crowns"
    title = "Cosmic Crowns"
    score_name = {"en": "Crowns", "fr": "Couronnes"}  # what the result's scores count
    blurb = {
        "en": (
            "Tricks with four clans and two Divine cards: follow the Leading clan, trump with the "
            "Battleground clan, and collect the most Cosmic Crowns over ten rounds."
        ),
        "fr": (
            "Des plis avec quatre clans et des Cartes Divines : fournissez au Clan Guide, coupez avec le "
            "Clan du Champ de Bataille et récoltez le plus de Couronnes Cosmiques en dix manches."
        ),
    }
    min_players = 2
    max_players = 6
    play_now_players = 3  # a trick game plays best with three
    takeback_moves = frozenset({"choose_clan"})
    options = {
        "mode": {"type": "choice", "choices": ["easy", "hard"], "default": "easy", "label": "Mode"},
        "reverse": {"type": "bool", "default": False, "label": "Reverse variant (then 1 to 10 cards)"},
    }

    # --- set-up and dealing ----------------------------------------------------------

    def _setup(self, state: State) -> State:
        n = state["players"]
        state.update(
            {
                "rounds": len(round_sizes(state["options"]["reverse"])),
                "round": 1,
                "round_size": 0,
                "dealer": 0,
                "tie_brawl": False,
                "brawl_tied": [],
                "hands": [[] for _ in range(n)],
                "stack": [],
                "revealed": [],
                "battleground": None,
                "trick": [],
                "leader": 0,
                "divine": None,
                "spent": [],
                "crowns": [0] * n,
                "tricks": [0] * n,
                "bids": [None] * n,
                "pending": None,
                "assassin_reveal": False,
                "last_trick": None,
                "last_round": None,
                "events": [],
                "over": False,
                "winners": [],
            }
        )
        self._deal(state, size=round_sizes(state["options"]["reverse"])[0])
        self._advance(state)
        return state

    def _hard(self, state: State) -> bool:
        return state["options"]["mode"] == "hard" and not state["tie_brawl"]

    def _deal(self, state: State, size: int) -> None:
        self._deal_from(state, shuffle(state, DECK), size)

    def _deal_from(self, state: State, deck: list[str], size: int) -> None:
        """Deal ``size`` cards each from ``deck`` (top first) and turn up the Battleground card."""
        n = state["players"]
        dealer = state["dealer"]
        state["round_size"] = size
        state["hands"] = [sorted(deck[i * size : (i + 1) * size], key=sort_key) for i in range(n)]
        state["stack"] = deck[n * size :]
        state["revealed"] = []
        state["battleground"] = None
        state["trick"] = []
        state["spent"] = []
        state["divine"] = None
        state["leader"] = dealer
        state["tricks"] = [0] * n
        state["bids"] = [None] * n
        state["assassin_reveal"] = False
        state["last_trick"] = None
        state["pending"] = None
        state["events"].append(
            {
                "e": "deal",
                "round": state["round"],
                "size": size,
                "dealer": dealer,
                "brawl": state["tie_brawl"],
            }
        )
        top = state["stack"].pop(0)
        state["revealed"].append(top)
        card = CARDS[top]
        state["events"].append({"e": "reveal", "card": top, "cause": "deal"})
        if card["kind"] == "falling_star":
            state["pending"] = {"kind": "choose_clan", "seats": [dealer], "cause": "falling_star_reveal"}
            return
        if card["kind"] == "devil":
            chooser = (dealer + 1) % n
            state["pending"] = {"kind": "choose_clan", "seats": [chooser], "cause": "devil_reveal"}
            return
        state["battleground"] = card["clan"]
        if card["kind"] == "assassin":
            state["assassin_reveal"] = True
        elif card["kind"] == "thief":
            lost = state["crowns"][dealer] > 0
            if lost:
                state["crowns"][dealer] -= 1
            state["events"].append({"e": "robbed", "seat": dealer, "lost": lost})

    # --- the flow of play --------------------------------------------------------------

    def _unplayed(self, state: State) -> list[int]:
        """Seats that have no card in the trick yet, clockwise from the leader."""
        n = state["players"]
        done = {entry["seat"] for entry in state["trick"]}
        return [s for s in ((state["leader"] + i) % n for i in range(n)) if s not in done]

    def _advance(self, state: State) -> None:
        """Resolve everything automatic until a decision is awaited or the game is over."""
        n = state["players"]
        while state["pending"] is None and not state["over"]:
            if self._hard(state) and None in state["bids"]:
                dealer = state["dealer"]
                bidder = next(s for s in ((dealer + i) % n for i in range(n)) if state["bids"][s] is None)
                state["pending"] = {"kind": "bid", "seats": [bidder]}
                return
            if state["assassin_reveal"]:
                state["assassin_reveal"] = False
                dealer = state["dealer"]
                hand = state["hands"][dealer]
                card = hand.pop(below(state, len(hand)))
                state["trick"].append({"seat": dealer, "card": card, "how": "reveal"})
                state["events"].append({"e": "assassin_reveal", "seat": dealer, "card": card})
                self._card_effects(state, dealer, card, "reveal")
                continue
            if len(state["trick"]) == n:
                self._finish_trick(state)
                continue
            unplayed = self._unplayed(state)
            if state["divine"] is not None:
                state["pending"] = {"kind": "discard", "seats": unplayed}
            else:
                state["pending"] = {"kind": "play", "seats": [unplayed[0]]}
            return

    def _card_effects(self, state: State, seat: int, code: str, how: str) -> None:
        """What a card does as it enters the trick (may set a pending decision)."""
        card = CARDS[code]
        if how == "discard":
            return
        if card["divine"]:
            if state["divine"] is not None:
                return
            state["divine"] = seat
            if card["kind"] == "falling_star":
                if state["hands"][seat]:
                    state["pending"] = {"kind": "choose_clan", "seats": [seat], "cause": "falling_star"}
            else:
                self._devil_reveal(state)
            return
        if how != "play":
            return  # an Assassin or Thief played for its owner, or revealed, only has its value
        if card["kind"] == "assassin":
            targets = [s for s in self._unplayed(state) if s != seat]
            if len(targets) > 1:
                state["pending"] = {"kind": "assassinate", "seats": [seat]}
            elif targets:
                self._assassinate(state, seat, targets[0])
            else:
                state["events"].append({"e": "no_victim", "seat": seat})
        elif card["kind"] == "thief":
            victims = self._thief_victims(state, seat)
            if len(victims) > 1:
                state["pending"] = {"kind": "steal", "seats": [seat]}
            else:
                self._steal(state, seat, victims[0] if victims else None)

    def _thief_victims(self, state: State, seat: int) -> list[int]:
        return [s for s in range(state["players"]) if s != seat and state["crowns"][s] > 0]

    def _steal(self, state: State, seat: int, victim: int | None) -> None:
        if victim is not None:
            state["crowns"][victim] -= 1
        state["crowns"][seat] += 1
        state["events"].append({"e": "steal", "seat": seat, "from": victim})

    def _assassinate(self, state: State, seat: int, target: int) -> None:
        hand = state["hands"][target]
        card = hand.pop(below(state, len(hand)))
        state["trick"].append({"seat": target, "card": card, "how": "assassinated"})
        state["events"].append({"e": "assassinated", "seat": seat, "target": target, "card": card})
        self._card_effects(state, target, card, "assassinated")

    def _devil_reveal(self, state: State) -> None:
        while state["stack"]:
            top = state["stack"].pop(0)
            state["revealed"].append(top)
            state["events"].append({"e": "reveal", "card": top, "cause": "devil"})
            clan = CARDS[top]["clan"]
            if clan is not None:
                state["battleground"] = clan
                return
        state["events"].append({"e": "stack_empty", "clan": state["battleground"]})

    def _finish_trick(self, state: State) -> None:
        winner = trick_winner(state["trick"], state["battleground"], state["divine"])
        assert winner is not None, "a full trick always has a Leading clan card or a Divine card"
        state["tricks"][winner] += 1
        crown = not self._hard(state)
        if crown:
            state["crowns"][winner] += 1
        state["events"].append({"e": "trick", "winner": winner, "crown": crown})
        state["last_trick"] = {"cards": state["trick"], "winner": winner}
        state["spent"].extend(entry["card"] for entry in state["trick"])
        state["trick"] = []
        state["divine"] = None
        state["leader"] = winner
        if not any(state["hands"]):
            self._end_round(state, winner)

    def _end_round(self, state: State, last_winner: int) -> None:
        n = state["players"]
        gains = None
        if self._hard(state):
            gains = [b + 1 if t == b else 0 for b, t in zip(state["bids"], state["tricks"], strict=True)]
            for s in range(n):
                state["crowns"][s] += gains[s]
            state["events"].append({"e": "scored", "gains": gains})
        state["last_round"] = {
            "round": state["round"],
            "tie_brawl": state["tie_brawl"],
            "tricks": list(state["tricks"]),
            "bids": list(state["bids"]),
            "gains": gains,
            "last_trick_winner": last_winner,
        }
        if state["tie_brawl"]:
            self._game_over(state, [last_winner])
            return
        if state["round"] == state["rounds"]:
            top = max(state["crowns"])
            tied = [s for s in range(n) if state["crowns"][s] == top]
            if len(tied) == 1:
                self._game_over(state, tied)
                return
            state["tie_brawl"] = True
            state["brawl_tied"] = tied
            state["events"].append({"e": "brawl", "tied": tied})
            state["dealer"] = (state["dealer"] + 1) % n
            self._deal(state, size=1)
            return
        state["round"] += 1
        state["dealer"] = (state["dealer"] + 1) % n
        self._deal(state, size=round_sizes(state["options"]["reverse"])[state["round"] - 1])

    def _game_over(self, state: State, winners: list[int]) -> None:
        state["over"] = True
        state["winners"] = winners
        state["pending"] = None
        state["events"].append({"e": "over", "winners": winners, "crowns": list(state["crowns"])})

    # --- moves -------------------------------------------------------------------------

    def mutable_copy(self, state: State) -> State:
        """Copy-on-write: the structures ``_apply`` changes in place are copied. The rest is shared:
        ``events`` (a move starts a new list), ``last_trick``, ``last_round``, ``brawl_tied``,
        ``winners`` and ``options`` (only ever replaced), and the dicts of ``trick`` (never changed)."""
        new = dict(state)
        new["hands"] = [list(hand) for hand in state["hands"]]
        for key in ("stack", "revealed", "trick", "spent", "crowns", "tricks", "bids"):
            new[key] = list(state[key])
        pending = state["pending"]
        if pending is not None:
            new["pending"] = {**pending, "seats": list(pending["seats"])}
        return new

    def to_act(self, state: State) -> list[int]:
        if state["over"] or state["pending"] is None:
            return []
        return list(state["pending"]["seats"])

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        kind = state["pending"]["kind"]
        if kind == "play":
            return [{"type": "play", "card": c} for c in self._playable(state, seat)]
        if kind == "discard":
            return [{"type": "discard", "card": c} for c in state["hands"][seat]]
        if kind == "bid":
            return [{"type": "bid", "tricks": b} for b in self._biddable(state, seat)]
        if kind == "choose_clan":
            return [{"type": "choose_clan", "clan": clan} for clan in CLANS]
        if kind == "assassinate":
            return [{"type": "assassinate", "target": s} for s in self._unplayed(state) if s != seat]
        if kind == "steal":
            return [{"type": "steal", "from": s} for s in self._thief_victims(state, seat)]
        raise AssertionError(kind)

    def _playable(self, state: State, seat: int) -> list[str]:
        hand = state["hands"][seat]
        lead = leading_clan(state["trick"])
        following = [c for c in hand if lead is not None and CARDS[c]["clan"] == lead]
        return following or list(hand)

    def _biddable(self, state: State, seat: int) -> list[int]:
        size = state["round_size"]
        others = [b for s, b in enumerate(state["bids"]) if s != seat]
        if None in others:
            return list(range(size + 1))
        forbidden = size - sum(others)
        return [b for b in range(size + 1) if b != forbidden]

    def _check(self, state: State, seat: int, move: Move) -> Move:
        """The one validation path: a clear IllegalMove, or the canonical legal move."""
        pending = state["pending"]
        kind = pending["kind"]
        mtype = move.get("type")
        if mtype not in MOVE_KEYS:
            raise IllegalMove("Unknown move type {kind}.", kind=repr(mtype))
        # the words of a refusal are worked out only when it is raised (a check runs at every move)
        if mtype != kind:
            raise IllegalMove("You must {ask} now.", ask=each_language(views.asked, kind))
        key = MOVE_KEYS[mtype]
        require(key in move, "A {move} move needs {key}.", move=mtype, key=repr(key))
        value = move[key]
        canonical = {"type": mtype, key: value}
        if mtype in ("play", "discard"):
            require(isinstance(value, str), "A card is given by its code.")
            require(value in CARDS, "There is no card {card}.", card=repr(value))
            if value not in state["hands"][seat]:
                raise IllegalMove("You do not hold {card}.", card=each_language(views.card_name, value))
            if mtype == "play" and value not in self._playable(state, seat):
                lead = leading_clan(state["trick"])
                raise IllegalMove(
                    "You must follow the Leading clan ({clan}).", clan=each_language(views.clan_name, lead)
                )
        elif mtype == "bid":
            require(_is_int(value), "A bid is a whole number of tricks.")
            size = state["round_size"]
            require(0 <= value <= size, "A bid is from 0 to {size}.", size=size)
            require(
                value in self._biddable(state, seat),
                "As the last bidder you may not bid {bid}: the bids would add up to {size}.",
                bid=value,
                size=size,
            )
        elif mtype == "choose_clan":
            require(value in CLANS, "Choose one of {clans}.", clans=", ".join(CLANS))
        elif mtype == "assassinate":
            require(_is_int(value), "Name the target by seat number.")
            require(
                value in self._unplayed(state) and value != seat,
                "Name a player who has not played in this trick.",
            )
        elif mtype == "steal":
            victims = self._thief_victims(state, seat)
            require(value is None or _is_int(value), "Steal from a seat number (or null for the pile).")
            if value is None:
                require(not victims, "Another player has a crown: steal from one of them.")
            else:
                require(value in victims, "Steal from another player who has at least one crown.")
        require(canonical in self.legal_moves(state, seat), "That move is not allowed now.")
        return canonical

    def _apply(self, state: State, seat: int, move: Move) -> None:
        move = self._check(state, seat, move)
        state["events"] = []
        pending = state["pending"]
        kind = move["type"]
        if kind in ("play", "discard"):
            code = move["card"]
            state["hands"][seat].remove(code)
            state["trick"].append({"seat": seat, "card": code, "how": kind})
            state["events"].append({"e": kind, "seat": seat, "card": code})
            if kind == "discard":
                pending["seats"].remove(seat)
                if pending["seats"]:
                    return
            state["pending"] = None
            self._card_effects(state, seat, code, kind)
        elif kind == "bid":
            state["bids"][seat] = move["tricks"]
            state["events"].append({"e": "bid", "seat": seat, "tricks": move["tricks"]})
            state["pending"] = None
        elif kind == "choose_clan":
            state["battleground"] = move["clan"]
            state["events"].append({"e": "clan", "seat": seat, "clan": move["clan"]})
            state["pending"] = None
        elif kind == "assassinate":
            state["pending"] = None
            self._assassinate(state, seat, move["target"])
        elif kind == "steal":
            state["pending"] = None
            self._steal(state, seat, move["from"])
        self._advance(state)

    # --- reading the state -------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["over"]

    def result(self, state: State) -> dict:
        return {"scores": list(state["crowns"]), "winners": list(state["winners"])}

    def dump(self, state: State) -> dict:
        """The state as JSON data of its own (what the table's snapshot column keeps): a JSON round trip,
        twice as fast as a deep copy, and the data read back from the column exactly."""
        return json.loads(json.dumps(state))

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may know (None: a spectator). Keys:

        the shared ``seat``, ``players``, ``to_act``, ``turn`` (turns begun, from 1: see
        ``view.turn_number``), ``over``, ``result`` (null until over), ``hand_sizes``, ``hand``
        (own codes; absent for a spectator); and ``mode`` ("easy"/"hard"), ``reverse``, ``round``
        (1..rounds), ``rounds``, ``round_size``, ``dealer``, ``leader`` (who led / leads the trick),
        ``battleground`` (clan or null while being chosen), ``battleground_card`` (the last card
        turned up, a code), ``revealed`` (every Battleground card turned up this round, oldest
        first), ``leading_clan`` (clan or null), ``crowns`` (per seat), ``tricks`` (per seat, won
        this round), ``bids`` (per seat, null until made / in Easy mode), ``trick`` (``{"seat",
        "card", "how"}`` in play order; how is play, reveal, assassinated or discard),
        ``divine_winner`` (seat whose Divine card wins the trick in progress, or null),
        ``last_trick`` (``{"cards": [...], "winner"}`` of this round, or null), ``last_round``
        (``{"round", "tie_brawl", "tricks", "bids", "gains", "last_trick_winner"}`` or null),
        ``stack_size``, ``pending`` (what ``to_act`` is awaited for: ``{"kind", "cause"?}`` or
        null; kind is play, bid, choose_clan, assassinate, steal or discard; cause, for a clan
        choice, is falling_star_reveal, devil_reveal or falling_star), ``legal_moves`` (the
        viewer's), ``tie_brawl``, ``brawl_tied``.
        """
        return views.build_view(self, state, seat)

    # --- the move log ------------------------------------------------------------------

    messages = views.MESSAGES

    def card_name(self, code: str, lang: str) -> str:
        return views.card_name(code, lang)

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Event]:
        """What the move caused, in order: every card named is face up for everyone."""
        return views.public_events(after["events"])

    def can_take_back(self, before: State, seat: int, move: Move, after: State) -> bool:
        """A clan choice after which ``seat`` acts again, with no card turned up and no random draw."""
        return (
            isinstance(move, dict)
            and move.get("type") == "choose_clan"
            and self.to_act(after) == [seat]
            and after["draws"] == before["draws"]  # a new deal shuffles: the round went on
        )

    def setup_events(self, state: State) -> list[Event]:
        """The first deal: who deals, the Battleground card and what its reveal does."""
        return views.public_events(state["events"])


GAME = CosmicCrowns()
