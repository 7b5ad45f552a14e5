"""Chronica Universalis: the engine (base game, without special powers).

State (a plain JSON dict, besides BaseGame's seed/draws/players/options):

- ``shared``: bool, the shared-deck variant; ``decks`` (per seat, top = last) or ``pile`` + ``river``
- ``hands``, ``discards`` (per seat lists of codes), ``honour`` (per seat)
- ``provinces``: per seat 8 slots, each null or ``{"building", "character", "guest"}`` where ``guest``
  is the owner seat of a welcomed opponent character (null for the province owner's own card)
- ``phase``: ``mulligan`` | ``play`` | ``fervour`` | ``draw`` | ``over``; ``current``, ``first``, ``turn``
- ``mulligan_turn`` (how many players have decided), ``mulligans`` (who took one)
- ``pending_draws`` (shared variant: draws still to choose), ``end_reason``
- ``events``: what the last move did, for ``narrate`` and ``preview`` (lines with visibility)
"""

from __future__ import annotations

import copy
from typing import Any

from rules.chronica import cards as C
from rules.core import BaseGame, IllegalMove, Move, State, below, require, shuffle

SLOTS = 8
HAND_SIZE = 5
MAX_HONOUR = 10
RIVER_SIZE = 5
DOMAIN_NAMES = {C.E: "Erudition", C.P: "Prestige", C.G: "War"}
REINFORCE_SOURCES = ("hand", "province")


def slot_label(i: int) -> str:
    return f"frontier {i + 1}" if i < 4 else f"hinterland {i - 3}"


def clash(attack: list[str], defence: list[str], attacker_shares_category: bool = False) -> dict:
    """Resolve one comparison: the attackers' summed values against the defenders' summed values.

    The domain is the defenders' preferred domain; when two defending cards prefer different
    domains, the one more favourable to the defender is used, unless the attacker shares the
    building's category (then the one more favourable to the attacker). Returns
    ``{"domain", "attack", "defence", "delta"}`` where delta = attack - defence.
    """
    att = {d: sum(C.CARD_BY_CODE[c]["values"][d] for c in attack) for d in C.DOMAINS}
    dfn = {d: sum(C.CARD_BY_CODE[c]["values"][d] for c in defence) for d in C.DOMAINS}
    domains: list[str] = []
    for code in defence:
        pref = C.CARD_BY_CODE[code]["preferred"]
        if pref not in domains:
            domains.append(pref)
    options = [(att[d] - dfn[d], d) for d in domains]
    if len(options) == 1:
        delta, domain = options[0]
    elif attacker_shares_category:
        delta, domain = max(options, key=lambda o: o[0])
    else:
        delta, domain = min(options, key=lambda o: o[0])
    return {"domain": domain, "attack": att[domain], "defence": dfn[domain], "delta": delta}


def _names(codes: list[str]) -> str:
    return " + ".join(C.name(c) for c in codes)


def _explain(attack: list[str], defence: list[str], res: dict, change: int) -> str:
    dom = DOMAIN_NAMES[res["domain"]]
    sign = f"{res['delta']:+d}".replace("-", "−")
    text = (
        f"{_names(attack)} ({dom} {res['attack']}) against {_names(defence)} ({dom} {res['defence']}): {sign}"
    )
    if change != res["delta"]:
        text += f", honour changes by {change:+d}".replace("-", "−")
    return text + "."


class Chronica(BaseGame):
    slug = "chronica"
    title = "Chronica Universalis"
    min_players = 2
    max_players = 4
    options = {
        "decks": {"type": "any", "default": None, "label": "Decks (one list of 30 card codes per seat)"},
        "shared_deck": {"type": "bool", "default": False, "label": "Shared deck and river"},
    }
    players_bring_decks = True  # a 30-card deck each (options["decks"])
    preview_on_demand = True  # ``preview`` plays the move on a copy: asked for one move at a time

    # --- set-up ------------------------------------------------------------------------

    def _setup(self, state: State) -> State:
        n = state["players"]
        opts = state["options"]
        decks = opts.get("decks")
        shared = opts.get("shared_deck", False)
        if decks is not None and shared:
            raise ValueError("Choose either per-seat decks or the shared deck, not both.")
        if decks is not None:
            if not isinstance(decks, list) or len(decks) != n:
                raise ValueError(f"decks must be a list of {n} decks, one per seat.")
            for s, deck in enumerate(decks):
                problems = C.validate_deck(deck)
                if problems:
                    raise ValueError(f"Seat {s + 1}'s deck: " + " ".join(problems))
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
            turn=0,
            mulligan_turn=0,
            mulligans=[False] * n,
            pending_draws=0,
            end_reason=None,
            events=[],
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

    @staticmethod
    def _source(state: State, seat: int) -> list[str]:
        return state["pile"] if state["shared"] else state["decks"][seat]

    def _take_top(self, state: State, seat: int) -> str:
        code = self._source(state, seat).pop()
        state["hands"][seat].append(code)
        return code

    # --- queries -------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "mulligan":
            return [(state["first"] + state["mulligan_turn"]) % state["players"]]
        return [state["current"]]

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    @staticmethod
    def victory_points(state: State) -> list[int]:
        out = []
        for prov in state["provinces"]:
            vp = 0
            for slot in prov:
                if slot is not None:
                    vp += 3 if slot["building"] and slot["character"] else 1
            out.append(vp)
        return out

    def result(self, state: State) -> dict:
        scores = self.victory_points(state)
        if not self.is_over(state):
            return {"scores": scores, "winners": []}
        n = state["players"]
        alive = [s for s in range(n) if state["honour"][s] > 0] or list(range(n))

        def key(s):
            return (scores[s], state["honour"][s], -len(state["discards"][s]))

        best = max(key(s) for s in alive)
        return {"scores": scores, "winners": [s for s in alive if key(s) == best]}

    @staticmethod
    def in_play(state: State) -> set[str]:
        out = set()
        for prov in state["provinces"]:
            for slot in prov:
                if slot is not None:
                    if slot["building"]:
                        out.add(slot["building"])
                    if slot["character"]:
                        out.add(slot["character"])
        return out

    @staticmethod
    def protected(state: State, seat: int, i: int) -> bool:
        return i >= 4 and state["provinces"][seat][i - 4] is not None

    def action_part(self, state: State, seat: int, tseat: int, i: int) -> str | None:
        """What an Action by ``seat`` against slot ``i`` of ``tseat`` would target, or None."""
        if tseat == seat:
            return None
        slot = state["provinces"][tseat][i]
        if slot is None or self.protected(state, tseat, i):
            return None
        return "building" if slot["building"] else "character"

    @staticmethod
    def own_characters(state: State, seat: int) -> list[int]:
        """Slots of ``seat``'s province holding one of their own characters (reinforcement sources)."""
        return [
            i
            for i, slot in enumerate(state["provinces"][seat])
            if slot is not None and slot["character"] and slot["guest"] is None
        ]

    def opponents(self, state: State, seat: int) -> list[int]:
        n = state["players"]
        return [(seat + k) % n for k in range(1, n)]

    # --- legal moves ---------------------------------------------------------------------

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
        return moves

    def _play_moves(self, state: State, seat: int) -> list[Move]:
        prov = state["provinces"][seat]
        opps = self.opponents(state, seat)
        many = state["players"] > 2
        loser_opts: list[dict] = [{"target": o} for o in opps] if many else [{}]
        free = [i for i in range(SLOTS) if prov[i] is None]
        wanderers_own = [i for i in range(SLOTS) if prov[i] and not prov[i]["building"]]
        buildings_own = [i for i in range(SLOTS) if prov[i] and prov[i]["building"]]
        empty_buildings = [i for i in buildings_own if not prov[i]["character"]]
        opp_wanderers = [
            (o, j)
            for o in opps
            for j, slot in enumerate(state["provinces"][o])
            if slot and not slot["building"] and slot["character"]
        ]
        targets = [
            (o, j, part)
            for o in opps
            for j in range(SLOTS)
            if (part := self.action_part(state, seat, o, j)) is not None
        ]
        busy = self.in_play(state)
        hand = [c for c in state["hands"][seat] if c not in busy]
        hand_chars = [c for c in hand if C.CARD_BY_CODE[c]["kind"] == C.CHAR]
        own_chars = self.own_characters(state, seat)
        moves: list[Move] = []
        for code in hand:
            if C.CARD_BY_CODE[code]["kind"] == C.BUILD:
                for i in free:
                    moves.append({"type": "build", "card": code, "slot": i})
                    moves += [
                        {"type": "build", "card": code, "slot": i, "welcome": {"seat": o, "slot": j}}
                        for o, j in opp_wanderers
                    ]
                for i in wanderers_own:
                    moves += [{"type": "build", "card": code, "slot": i, **opt} for opt in loser_opts]
                for i in buildings_own:
                    moves.append({"type": "replace", "card": code, "slot": i})
                continue
            moves += [{"type": "place", "card": code, "slot": i} for i in free]
            for i in empty_buildings:
                moves += [{"type": "place", "card": code, "slot": i, **opt} for opt in loser_opts]
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
        return moves

    # --- checks (shared by apply and, through the same helpers, legal_moves) ----------------

    @staticmethod
    def _int(value: Any, lo: int, hi: int, what: str) -> int:
        require(isinstance(value, int) and not isinstance(value, bool), f"{what} must be a whole number.")
        require(lo <= value <= hi, f"{what} must be from {lo} to {hi}.")
        return value

    def _hand_card(self, state: State, seat: int, code: Any, kind: str | None, what: str = "card") -> str:
        require(isinstance(code, str), f"Name the {what} to play by its code.")
        require(code in C.CARD_BY_CODE, f"There is no card {code!r}.")
        require(code in state["hands"][seat], f"{C.name(code)} is not in your hand.")
        if kind is not None:
            require(
                C.CARD_BY_CODE[code]["kind"] == kind,
                f"{C.name(code)} is not a {'building' if kind == C.BUILD else 'character'}.",
            )
        require(
            code not in self.in_play(state),
            f"{C.name(code)} is already in play; its twin cannot be played until that one is discarded.",
        )
        return code

    def _honour_loser(self, state: State, seat: int, move: Move) -> int:
        """The opponent named to lose 1 honour for a newly occupied building (implied with 2 players)."""
        opps = self.opponents(state, seat)
        target = move.get("target")
        if len(opps) == 1 and target is None:
            return opps[0]
        require(target is not None, "Name the opponent who loses 1 honour (target).")
        require(
            isinstance(target, int) and not isinstance(target, bool) and target in opps,
            "The target must be an opponent's seat.",
        )
        return target

    def _check(self, state: State, seat: int, move: Move) -> dict:
        """Validate ``move`` for ``seat``; return a normalised plan for ``_apply``. IllegalMove otherwise."""
        phase = state["phase"]
        kind = move["type"]
        if phase != "mulligan":
            require(kind not in ("mulligan", "keep"), "The mulligan is only offered before the first turn.")
        if phase != "draw":
            require(kind != "draw", "You draw only at the end of your turn.")
        if phase == "mulligan":
            require(
                kind in ("mulligan", "keep"),
                "Before the first turn, choose to keep your hand or take a mulligan.",
            )
            return {"type": kind}
        if phase == "draw":
            require(kind == "draw", "Draw a card first (from the pile or the river).")
            source = move.get("source")
            require(source in ("pile", "river"), "Draw from the pile or the river.")
            if source == "river":
                code = move.get("card")
                require(isinstance(code, str) and code in state["river"], "That card is not in the river.")
                return {"type": "draw", "source": "river", "card": code}
            return {"type": "draw", "source": "pile"}
        if kind == "end_turn":
            require(
                phase == "fervour",
                "You can only end your turn early after Popular fervour; otherwise play or pass.",
            )
            return {"type": "end_turn"}
        if kind == "pass":
            require(phase == "play", "Popular fervour lets you play a card or end your turn, not pass.")
            hand = state["hands"][seat]
            code = move.get("discard")
            if not hand:
                require(code is None, "Your hand is empty: there is nothing to discard.")
                return {"type": "pass", "discard": None}
            require(isinstance(code, str), "Name the card to discard when you pass.")
            require(code in hand, "You can only discard a card from your hand.")
            return {"type": "pass", "discard": code}
        prov = state["provinces"][seat]
        if kind == "build":
            code = self._hand_card(state, seat, move.get("card"), C.BUILD, "building")
            i = self._int(move.get("slot"), 0, SLOTS - 1, "The slot")
            slot = prov[i]
            plan = {"type": "build", "card": code, "slot": i, "welcome": None, "loser": None}
            welcome = move.get("welcome")
            if slot is None:
                require(move.get("target") is None, "Building on a free slot names no target.")
                if welcome is not None:
                    require(isinstance(welcome, dict), "welcome must be {seat, slot}.")
                    ws = welcome.get("seat")
                    require(
                        isinstance(ws, int)
                        and not isinstance(ws, bool)
                        and ws in self.opponents(state, seat),
                        "You can only welcome an opponent's wandering character.",
                    )
                    j = self._int(welcome.get("slot"), 0, SLOTS - 1, "The welcomed character's slot")
                    other = state["provinces"][ws][j]
                    require(
                        other is not None and other["character"] and not other["building"],
                        "There is no wandering character in that slot.",
                    )
                    plan["welcome"] = {"seat": ws, "slot": j}
                return plan
            require(welcome is None, "You can only welcome a character when building on a free slot.")
            require(
                not slot["building"],
                "That slot already holds a building: replace it instead, or build on a free slot.",
            )
            plan["loser"] = self._honour_loser(state, seat, move)
            return plan
        if kind == "replace":
            code = self._hand_card(state, seat, move.get("card"), C.BUILD, "building")
            i = self._int(move.get("slot"), 0, SLOTS - 1, "The slot")
            require(
                prov[i] is not None and prov[i]["building"], "There is no building of yours to replace there."
            )
            return {"type": "replace", "card": code, "slot": i}
        if kind == "place":
            code = self._hand_card(state, seat, move.get("card"), C.CHAR, "character")
            i = self._int(move.get("slot"), 0, SLOTS - 1, "The slot")
            slot = prov[i]
            if slot is None:
                require(move.get("target") is None, "A wandering character names no target.")
                return {"type": "place", "card": code, "slot": i, "loser": None}
            require(slot["building"] and not slot["character"], "That slot already holds a character.")
            return {"type": "place", "card": code, "slot": i, "loser": self._honour_loser(state, seat, move)}
        if kind == "action":
            code = self._hand_card(state, seat, move.get("card"), C.CHAR, "character")
            target = move.get("target")
            require(isinstance(target, dict), "An Action needs a target {seat, slot}.")
            ts = target.get("seat")
            require(
                isinstance(ts, int) and not isinstance(ts, bool) and ts in self.opponents(state, seat),
                "An Action targets an opponent's province.",
            )
            j = self._int(target.get("slot"), 0, SLOTS - 1, "The target slot")
            require(state["provinces"][ts][j] is not None, "There is nothing to target in that slot.")
            part = self.action_part(state, seat, ts, j)
            require(part is not None, "That card is protected by the frontier card in front of it.")
            require(
                target.get("part") in (None, part),
                "An occupied building is targeted as a whole (part: building); a wandering character as part: character.",
            )
            helper = move.get("reinforce")
            plan = {"type": "action", "card": code, "seat": ts, "slot": j, "reinforce": None}
            if helper is not None:
                require(
                    isinstance(helper, dict),
                    "reinforce must be {from: hand, card} or {from: province, slot}.",
                )
                source = helper.get("from")
                require(source in REINFORCE_SOURCES, "Reinforcements come from your hand or your province.")
                if source == "hand":
                    extra = self._hand_card(state, seat, helper.get("card"), C.CHAR, "reinforcement")
                    require(extra != code, "The reinforcement must be a second character.")
                    plan["reinforce"] = {"from": "hand", "card": extra}
                else:
                    k = self._int(helper.get("slot"), 0, SLOTS - 1, "The reinforcement's slot")
                    require(
                        k in self.own_characters(state, seat),
                        "There is no character of yours in that slot of your province.",
                    )
                    plan["reinforce"] = {"from": "province", "slot": k}
            return plan
        raise IllegalMove(f"Unknown move type {kind!r}.")

    # --- apply ---------------------------------------------------------------------------

    def mutable_copy(self, state: State) -> State:
        """Copy-on-write: the piles, hands, discards, honour, mulligans and the provinces' slots
        (``_apply`` changes them in place) are copied; ``events`` (a move starts a new list) and
        ``options`` are shared."""
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

    def _apply(self, state: State, seat: int, move: Move) -> None:
        plan = self._check(state, seat, move)
        state["events"] = []
        getattr(self, "_do_" + plan["type"])(state, seat, plan)

    def _say(self, state: State, text: str, seats: tuple = (), **extra) -> None:
        state["events"].append({"text": text, "seats": list(seats), **extra})

    def _honour(self, state: State, seat: int, delta: int, gain: bool = True) -> int:
        """Change ``seat``'s honour by ``delta`` (capped at 10, floored at 0); the real change."""
        if not gain:
            delta = min(delta, 0)
        old = state["honour"][seat]
        state["honour"][seat] = max(0, min(MAX_HONOUR, old + delta))
        return state["honour"][seat] - old

    def _lose_one(self, state: State, loser: int, why: str) -> None:
        change = self._honour(state, loser, -1)
        self._say(
            state,
            f"{{s0}} loses 1 honour ({why}).",
            (loser,),
            explain=f"The opponent loses {-change} honour ({why}).",
        )

    def _resolve(
        self, state: State, seat: int, attack: list[str], defence: list[str], shares: bool, gain: bool = True
    ):
        res = clash(attack, defence, shares)
        change = self._honour(state, seat, res["delta"], gain)
        text = _explain(attack, defence, res, change)
        self._say(state, f"{{s0}}: {text}", (seat,), explain=text)
        return res

    def _do_mulligan(self, state: State, seat: int, plan: dict) -> None:
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
        self._say(state, f"{{s0}} shuffled their hand back and drew {size} cards.", (seat,))
        self._next_mulligan(state)

    def _do_keep(self, state: State, seat: int, plan: dict) -> None:
        self._say(state, "{s0} kept their hand.", (seat,))
        self._next_mulligan(state)

    def _next_mulligan(self, state: State) -> None:
        state["mulligan_turn"] += 1
        if state["mulligan_turn"] >= state["players"]:
            state["phase"] = "play"
            state["current"] = state["first"]
            state["turn"] = 1
            self._say(state, "{s0} plays first.", (state["first"],))

    def _do_build(self, state: State, seat: int, plan: dict) -> None:
        code, i = plan["card"], plan["slot"]
        state["hands"][seat].remove(code)
        prov = state["provinces"][seat]
        if prov[i] is None:
            prov[i] = {"building": code, "character": None, "guest": None}
            self._say(state, f"{{s0}} built {C.name(code)} on {slot_label(i)}.", (seat,))
            welcome = plan["welcome"]
            if welcome:
                ws, j = welcome["seat"], welcome["slot"]
                char = state["provinces"][ws][j]["character"]
                self._say(state, f"{{s0}} welcomed {{s1}}'s {C.name(char)} into it.", (seat, ws))
                self._resolve(state, seat, [code], [char], False)
                state["provinces"][ws][j] = None
                prov[i]["character"] = char
                prov[i]["guest"] = ws
                self._lose_one(state, ws, "an occupied building")
        else:
            prov[i]["building"] = code
            self._say(
                state,
                f"{{s0}} built {C.name(code)} under {C.name(prov[i]['character'])} on {slot_label(i)}.",
                (seat,),
            )
            self._lose_one(state, plan["loser"], "an occupied building")
        self._after_play(state, seat, fervour=False)

    def _do_replace(self, state: State, seat: int, plan: dict) -> None:
        code, i = plan["card"], plan["slot"]
        state["hands"][seat].remove(code)
        slot = state["provinces"][seat][i]
        old = slot["building"]
        self._say(state, f"{{s0}} replaced {C.name(old)} with {C.name(code)} on {slot_label(i)}.", (seat,))
        self._resolve(state, seat, [code], [old], False, gain=False)
        slot["building"] = code
        state["discards"][seat].append(old)
        self._after_play(state, seat, fervour=False)

    def _do_place(self, state: State, seat: int, plan: dict) -> None:
        code, i = plan["card"], plan["slot"]
        state["hands"][seat].remove(code)
        prov = state["provinces"][seat]
        if prov[i] is None:
            prov[i] = {"building": None, "character": code, "guest": None}
            self._say(state, f"{{s0}} placed {C.name(code)} on {slot_label(i)} (wandering).", (seat,))
        else:
            prov[i]["character"] = code
            self._say(state, f"{{s0}} placed {C.name(code)} in {C.name(prov[i]['building'])}.", (seat,))
            self._lose_one(state, plan["loser"], "an occupied building")
        self._after_play(state, seat, fervour=False)

    def _do_action(self, state: State, seat: int, plan: dict) -> None:
        code, ts, j = plan["card"], plan["seat"], plan["slot"]
        hand = state["hands"][seat]
        hand.remove(code)
        attack = [code]
        helper = plan["reinforce"]
        if helper is not None:
            if helper["from"] == "hand":
                hand.remove(helper["card"])
                attack.append(helper["card"])
            else:
                k = helper["slot"]
                own = state["provinces"][seat][k]
                attack.append(own["character"])
                if own["building"]:
                    own["character"] = None
                else:
                    state["provinces"][seat][k] = None
        slot = state["provinces"][ts][j]
        defence = [c for c in (slot["building"], slot["character"]) if c]
        occupied = len(defence) == 2
        shares = occupied and C.CARD_BY_CODE[code]["category"] == C.CARD_BY_CODE[slot["building"]]["category"]
        text = f"{{s0}} sent {_names(attack)} against {{s1}}'s {_names(defence)} on {slot_label(j)}."
        self._say(state, text, (seat, ts))
        self._resolve(state, seat, attack, defence, shares)
        state["discards"][seat].extend(attack)
        if slot["building"]:
            state["discards"][ts].append(slot["building"])
        if slot["character"]:
            owner = ts if slot["guest"] is None else slot["guest"]
            state["discards"][owner].append(slot["character"])
        state["provinces"][ts][j] = None
        if occupied:
            self._lose_one(state, ts, "Action against an occupied building")
        self._after_play(state, seat, fervour=occupied)

    def _after_play(self, state: State, seat: int, fervour: bool) -> None:
        if self._check_end(state):
            return
        if fervour:
            state["phase"] = "fervour"
            self._say(
                state,
                "Popular fervour: {s0} may play another card.",
                (seat,),
                explain="Popular fervour: you may play another card.",
            )
            return
        self._start_draws(state, seat, 1)

    def _do_end_turn(self, state: State, seat: int, plan: dict) -> None:
        self._say(state, "{s0} ended their turn.", (seat,))
        self._start_draws(state, seat, 1)

    def _do_pass(self, state: State, seat: int, plan: dict) -> None:
        code = plan["discard"]
        if code is not None:
            state["hands"][seat].remove(code)
            state["discards"][seat].append(code)
            self._say(state, f"{{s0}} passed, discarding {C.name(code)}.", (seat,))
        else:
            self._say(state, "{s0} passed.", (seat,))
        self._start_draws(state, seat, 2)

    def _start_draws(self, state: State, seat: int, count: int) -> None:
        if state["shared"]:
            state["phase"] = "draw"
            state["pending_draws"] = count
            return
        for _ in range(count):
            if not state["decks"][seat]:
                break
            code = self._take_top(state, seat)
            self._say(state, f"You drew {C.name(code)}.", (seat,), only=seat)
            self._say(state, "{s0} drew a card.", (seat,), hide_from=seat)
            if not state["decks"][seat]:
                self._finish(state, "deck", seat)
                return
        self._next_turn(state)

    def _do_draw(self, state: State, seat: int, plan: dict) -> None:
        if plan["source"] == "pile":
            code = self._take_top(state, seat)
            self._say(state, f"You drew {C.name(code)}.", (seat,), only=seat)
            self._say(state, "{s0} drew a card from the pile.", (seat,), hide_from=seat)
        else:
            code = plan["card"]
            river = state["river"]
            k = river.index(code)
            state["hands"][seat].append(code)
            self._say(state, f"{{s0}} took {C.name(code)} from the river.", (seat,))
            if state["pile"]:
                river[k] = state["pile"].pop()
                self._say(state, f"{C.name(river[k])} joins the river.")
            else:
                river.pop(k)
        state["pending_draws"] -= 1
        if not state["pile"]:
            self._finish(state, "deck", seat)
            return
        if state["pending_draws"] <= 0:
            state["pending_draws"] = 0
            self._next_turn(state)

    def _next_turn(self, state: State) -> None:
        state["current"] = (state["current"] + 1) % state["players"]
        state["phase"] = "play"
        state["pending_draws"] = 0
        state["turn"] += 1

    def _check_end(self, state: State) -> bool:
        zero = [s for s in range(state["players"]) if state["honour"][s] <= 0]
        if zero:
            self._finish(state, "honour", zero[0])
            return True
        for s, prov in enumerate(state["provinces"]):
            if all(slot is not None for slot in prov):
                self._finish(state, "province", s)
                return True
        return False

    def _finish(self, state: State, reason: str, seat: int) -> None:
        state["phase"] = "over"
        state["pending_draws"] = 0
        state["end_reason"] = reason
        why = {
            "honour": "{s0} has no honour left",
            "province": "{s0}'s province is full",
            "deck": "{s0} drew the last card",
        }[reason]
        res = self.result(state)
        self._say(
            state,
            f"Game over: {why}. Victory points: {', '.join(map(str, res['scores']))}.",
            (seat,),
            final=res["winners"],
        )

    # --- views and log -------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may know (None: a spectator). Keys:

        ``players``, ``seat``, ``phase`` (mulligan/play/fervour/draw/over), ``current`` (whose turn),
        ``first``, ``turn``, ``to_act``, ``hand`` (own codes; absent for a spectator), ``hand_sizes``,
        ``shared_deck``, ``deck_sizes`` (per seat; null each in the shared variant), ``pile_size``
        (shared variant, else null), ``river`` (shared variant: list of codes, else null),
        ``discards`` (per seat, oldest first, public), ``discard_sizes``, ``honour``, ``provinces``
        (per seat 8 slots null or {"building", "character"}), ``guests`` (per seat 8 entries: the owner
        seat of a welcomed opponent character in that slot, else null), ``protected`` (per seat 8
        bools: hinterland slot behind an occupied frontier slot), ``victory_points`` (live),
        ``fervour`` (the current player may play again), ``pending_draws`` (shared variant draw step),
        ``mulligan`` ({"seat": whose decision or null, "taken": per seat bool}), ``over``,
        ``end_reason`` (honour/province/deck or null), ``result`` (once over, else null).
        """
        n = state["players"]
        phase = state["phase"]
        provinces = [
            [
                None if slot is None else {"building": slot["building"], "character": slot["character"]}
                for slot in prov
            ]
            for prov in state["provinces"]
        ]
        out = {
            "players": n,
            "seat": seat,
            "phase": phase,
            "current": state["current"],
            "first": state["first"],
            "turn": state["turn"],
            "to_act": self.to_act(state),
            "hand_sizes": [len(h) for h in state["hands"]],
            "shared_deck": state["shared"],
            "deck_sizes": [None] * n if state["shared"] else [len(d) for d in state["decks"]],
            "pile_size": len(state["pile"]) if state["shared"] else None,
            "river": list(state["river"]) if state["shared"] else None,
            "discards": [list(d) for d in state["discards"]],
            "discard_sizes": [len(d) for d in state["discards"]],
            "honour": list(state["honour"]),
            "provinces": provinces,
            "guests": [
                [None if slot is None else slot["guest"] for slot in prov] for prov in state["provinces"]
            ],
            "protected": [[self.protected(state, s, i) for i in range(SLOTS)] for s in range(n)],
            "victory_points": self.victory_points(state),
            "fervour": phase == "fervour",
            "pending_draws": state["pending_draws"],
            "mulligan": {
                "seat": self.to_act(state)[0] if phase == "mulligan" else None,
                "taken": list(state["mulligans"]),
            },
            "over": phase == "over",
            "end_reason": state["end_reason"],
            "result": self.result(state) if phase == "over" else None,
        }
        if seat is not None:
            out["hand"] = list(state["hands"][seat])
        return out

    def narrate(
        self, before: State, seat: int, move: Move, after: State, names: list[str], viewer: int | None
    ) -> list[str]:
        lines = []
        for event in after.get("events", []):
            if "only" in event and event["only"] != viewer:
                continue
            if "hide_from" in event and event["hide_from"] == viewer:
                continue
            text = event["text"]
            for k, s in enumerate(event["seats"]):
                text = text.replace(f"{{s{k}}}", names[s])
            if "final" in event:
                winners = event["final"]
                text += " " + (
                    " and ".join(names[w] for w in winners) + (" wins." if len(winners) == 1 else " win.")
                )
            lines.append(text)
        return lines

    def preview(self, state: State, seat: int, move: Move) -> dict:
        """What ``move`` would do to honour, without playing it. IllegalMove for an illegal move."""
        after = self.apply(state, seat, move)
        deltas = [after["honour"][s] - state["honour"][s] for s in range(state["players"])]
        lines = [e["explain"] for e in after["events"] if "explain" in e]
        if after["phase"] == "over" and state["phase"] != "over":
            lines.append("This ends the game.")
        return {
            "honour_delta": deltas[seat],
            "opponent_honour_delta": {s: deltas[s] for s in self.opponents(state, seat)},
            "explanation": " ".join(lines) if lines else "No honour changes.",
        }

    def dump(self, state: State) -> dict:
        return copy.deepcopy(state)
