"""Cosplay Team Battle: the engine (rulebook 003 as fixed by RULINGS.md).

State (a plain dict, besides BaseGame's seed/draws/players/options; the one option, ``sudden_end``,
is a house rule: see ``moves.sudden_end``):

- ``library``: codes, top first; ``zones``: recruitment zones 1..6 (index 0 = zone 1), code or None;
  ``graveyard``: codes, top last; ``drama``: the Drama reserve, top last.
- ``objectives``: one pile each: ``{"level", "card" (code or None), "done"}``; ``obj_decks``: the
  shuffled objective decks by level ("1", "2", "3"), top first.
- ``seats``: per seat ``hand``, ``reserve`` (top first), ``discard`` (top last) and ``assist``:
  a list of ``{"card", "up", "equip": [codes]}`` (equipment attached to a character sits in its
  ``equip``; an unattached equipment is an entry of its own).
- ``active``, ``turn`` (1, 2, ... over the whole game), ``turns`` (per seat), ``phase``
  (``"preparation"``: phase 1, cards from hand may be placed; ``"recruitment"``: phase 2, from the
  turn's first move that is not a placement, an attachment or the answer to a choice; a seat's first
  turn starts there, as the rulebook's phase 1 "ne s'applique pas au 1er tour"), ``tp`` (the turn's
  bonus points, discounts, surcharge, fatigue, cards drawn during the turn), ``queue`` (effects
  waiting to run), ``pending`` (a choice awaited from the active seat), ``short`` (the library
  could not refill the zones), ``over``, ``events`` (what the last move did, in ``rules.core``'s
  event shape; ``Cosplay.events`` returns them).

The rules live in named helpers: ``payments`` (costs and payments), ``scoring``, ``moves`` (the one
validator and the moves on offer), ``effects`` (card abilities); ``view`` builds what a seat sees and
holds the narration formats; ``sampling`` rebuilds a full state from a view (the bots' hidden-state
sampling). This module carries moves out and runs the turn.
"""

from __future__ import annotations

from rules import core
from rules.core import IllegalMove
from rules.cosplay import effects as fx
from rules.cosplay.cards import (
    CARDS,
    DRAMA_CODES,
    LIBRARY,
    OBJECTIVE_LEVELS,
    RESOURCES,
    STARTER_DECK,
    card_name,
)
from rules.cosplay.effects import event
from rules.cosplay.moves import (
    PREPARATION,
    PREPARATION_MOVES,
    RECRUITMENT,
    ZONES,
    candidate_moves,
    check_move,
    last_round,
    round_ender,
    sudden_end,
)
from rules.cosplay.payments import assist_entry, pay_for, resolve_payment
from rules.cosplay.scoring import score, winners
from rules.cosplay.view import MESSAGES, build_view

HAND_SIZE = 5


def fresh_turn() -> dict:
    """The turn's own bookkeeping; ``drawn``: cards drawn into the hand during the turn (they wait
    for the next preparation phase to be placed)."""
    return {"bonus": {r: 0 for r in RESOURCES}, "discount": {}, "surcharge": 0, "fatigue": 0, "drawn": []}


# --- Carrying moves out ------------------------------------------------------------------------


def remove_own(state: dict, seat: int, code: str, where: str) -> list[str]:
    """Take ``code`` out of ``seat``'s hand or assistance zone; returns the equipment it carried."""
    me = state["seats"][seat]
    if where == "hand":
        me["hand"].remove(code)
        return []
    entry = assist_entry(state, seat, code)
    me["assist"].remove(entry)
    return list(entry["equip"])


def execute(state: dict, seat: int, move: dict, plan: dict) -> None:
    kind = move["type"]
    me = state["seats"][seat]
    if kind not in PREPARATION_MOVES:
        state["phase"] = RECRUITMENT  # the first move of phase 2 ends the preparation phase
    if kind == "end_turn":
        event(state, "end_turn", seat=seat)
        end_turn(state)
        return
    if kind == "place":
        me["hand"].remove(plan["card"])
        me["assist"].append({"card": plan["card"], "up": True, "equip": []})
        event(state, "place", seat=seat, card=plan["card"])
        fx.queue_ability(state, seat, plan["card"], "support")
    elif kind == "attach":
        me["assist"].remove(assist_entry(state, seat, plan["card"]))
        host = assist_entry(state, seat, plan["to"])
        # a new entry: states share entries (copy-on-write)
        me["assist"][me["assist"].index(host)] = {**host, "equip": [*host["equip"], plan["card"]]}
        event(state, "attach", seat=seat, card=plan["card"], host_card=plan["to"])
    elif kind == "activate":
        code = plan["card"]
        equip = remove_own(state, seat, code, plan["where"])
        me["discard"].extend(equip)
        if CARDS[code]["ability"]["kind"] == "sacrifice":
            state["graveyard"].append(code)
        else:
            me["discard"].append(code)
        event(state, CARDS[code]["ability"]["kind"], seat=seat, card=code)  # "discard" or "sacrifice"
        fx.queue_ability(state, seat, code, CARDS[code]["ability"]["kind"])
    elif kind == "recruit":
        pay_for(state, seat, plan["plan"])
        state["zones"][plan["zone"] - 1] = None
        me["assist"].append({"card": plan["card"], "up": False, "equip": []})
        event(state, "recruit", seat=seat, card=plan["card"], zone=plan["zone"], pay_cards=list(move["pay"]))
        fx.queue_ability(state, seat, plan["card"], "recruit")
    elif kind == "objective":
        pay_for(state, seat, plan["plan"])
        pile = state["objectives"][plan["pile"]]
        pile["card"] = None
        pile["done"] = True
        me["assist"].append({"card": plan["card"], "up": False, "equip": []})
        event(
            state,
            "objective",
            seat=seat,
            card=plan["card"],
            pile=plan["pile"] + 1,
            vp=CARDS[plan["card"]]["vp"],
            pay_cards=list(move["pay"]),
        )
        fx.queue_ability(state, seat, plan["card"], "recruit")
    elif kind == "drama":
        pay_for(state, seat, plan["plan"])
        fx.send_drama(state, seat, plan["target"], paid=True)
    elif kind == "poach":
        enabler = plan["with"]
        equip = remove_own(state, seat, enabler, plan["where"])
        me["discard"].extend(equip)
        if CARDS[enabler]["ability"]["kind"] == "sacrifice":
            state["graveyard"].append(enabler)
        else:
            me["discard"].append(enabler)
        pay_for(state, seat, plan["plan"])
        victim = state["seats"][plan["victim"]]
        entry = assist_entry(state, plan["victim"], plan["card"])
        victim["assist"].remove(entry)
        victim["discard"].extend(entry["equip"])
        me["assist"].append({"card": plan["card"], "up": False, "equip": []})
        event(
            state,
            "poach",
            seat=seat,
            card=plan["card"],
            victim_seat=plan["victim"],
            enabler_card=enabler,
            pay_cards=list(move["pay"]),
        )
        fx.queue_ability(state, seat, plan["card"], "recruit")
    elif kind == "target":
        fx.send_drama(state, seat, plan["target"], paid=False)
        pending = state["pending"]
        pending["n"] -= 1
        if pending["n"] <= 0 or not state["drama"]:
            state["pending"] = None
    elif kind == "trash":
        pending = state["pending"]
        if plan["card"] is None:
            event(state, "trash_stop", seat=seat)
            state["pending"] = None
        else:
            me[plan["from"]].remove(plan["card"])
            if CARDS[plan["card"]]["kind"] == "drama":  # a Drama card goes back to the reserve
                state["drama"].append(plan["card"])
            else:
                state["graveyard"].append(plan["card"])
            drama = CARDS[plan["card"]]["kind"] == "drama"
            event(state, "trash", seat=seat, card=plan["card"], where=plan["from"], back_to_drama=drama)
            pending["n"] -= 1
            if pending["n"] <= 0 or not fx.trash_options(state, seat):
                state["pending"] = None
    elif kind == "clear":
        if plan["zone"] is not None:
            code = state["zones"][plan["zone"] - 1]
            state["zones"][plan["zone"] - 1] = None
            state["graveyard"].append(code)
            event(state, "clear", seat=seat, card=code, zone=plan["zone"])
        else:
            event(state, "clear_none", seat=seat)
        state["pending"] = None
    fx.run_queue(state)


def end_turn(state: dict) -> None:
    """The initialisation phase (steps 1-5), the end check, then the next player's preparation."""
    seat = state["active"]
    zones = state["zones"]
    reached_before = last_round(state)
    # 1. The card in zone 6 goes to the graveyard.
    if zones[ZONES - 1]:
        state["graveyard"].append(zones[ZONES - 1])
        event(state, "graveyard", card=zones[ZONES - 1])
        zones[ZONES - 1] = None
    # 2. Cards slide towards zone 6, closing every gap, in order.
    cards = [c for c in zones if c]
    zones[:] = [None] * (ZONES - len(cards)) + cards
    # 3. Empty zones refill from the library, the highest first.
    new = []
    was_short = state["short"]
    for z in range(ZONES - 1, -1, -1):
        if zones[z] is None:
            if state["library"]:
                zones[z] = state["library"].pop(0)
                new.append(zones[z])
            else:
                state["short"] = True
    if new:
        event(state, "refill", cards=new)
    if state["short"] and not was_short:
        event(state, "short")
    # 4. Fulfilled objectives give way to the next level.
    for i, pile in enumerate(state["objectives"]):
        if pile["done"]:
            pile["done"] = False
            deck = state["obj_decks"].get(str(pile["level"] + 1), [])
            if pile["level"] < 3 and deck:
                pile["level"] += 1
                pile["card"] = deck.pop(0)
                event(state, "new_objective", pile=i + 1, card=pile["card"], level=pile["level"])
            else:
                event(state, "closed_objective", pile=i + 1)
    # 5. Draw up to five (fewer after a Drama's fatigue), reshuffling the discard if needed.
    me = state["seats"][seat]
    target = max(2, HAND_SIZE - state["tp"]["fatigue"])
    fx.draw(state, seat, max(0, target - len(me["hand"])), reshuffle=True)
    state["queue"] = []
    last = round_ender(state)
    ending = last_round(state)
    if ending and not sudden_end(state) and seat != last and not reached_before:
        event(state, "last_round", last_seat=last)
    if ending and (seat == last or sudden_end(state)):
        state["over"] = True
        scores = [score(state, s) for s in range(state["players"])]
        event(
            state,
            "over",
            reason="library" if state["short"] else "objectives",
            scores=scores,
            winner_seats=winners(state, scores),
        )
        return
    start_turn(state, (seat + 1) % state["players"])


def start_turn(state: dict, seat: int) -> None:
    """Preparation: face-down cards turn up, Drama in hand goes back to the reserve (with its sting)."""
    state["active"] = seat
    state["turn"] += 1
    state["turns"][seat] += 1
    state["tp"] = fresh_turn()
    state["phase"] = PREPARATION if state["turns"][seat] > 1 else RECRUITMENT
    event(state, "turn", seat=seat)
    fx.turn_up(state, seat)
    me = state["seats"][seat]
    back = [c for c in me["hand"] if CARDS[c]["kind"] == "drama"]
    for code in back:
        me["hand"].remove(code)
        state["drama"].append(code)
        sting = CARDS[code]["sting"]
        if sting == "tax":
            state["tp"]["surcharge"] += 1
        elif sting == "fatigue":
            state["tp"]["fatigue"] += 1
    if back:
        event(state, "drama_back", seat=seat, cards=back)
    fx.run_queue(state)


# --- The game ----------------------------------------------------------------------------------


def options_of(options):
    """``options`` with the former option ``finish_round`` (a table stored before 2026-11-26, when the
    round played out was the house rule) read as ``sudden_end``, its opposite, so that a stored table's
    options keep meaning what they meant (a stored table without either was moved to ``sudden_end: true``
    by the tables app's migration)."""
    if not isinstance(options, dict) or "finish_round" not in options:
        return options
    if "sudden_end" in options:
        raise core.InvalidSetup("Give sudden_end or the former option finish_round, not both.")
    value = options["finish_round"]
    if not isinstance(value, bool):
        raise core.InvalidSetup("The option {name} must be true or false.", name="finish_round")
    rest = {k: v for k, v in options.items() if k != "finish_round"}
    return {**rest, "sudden_end": not value}


class Cosplay(core.BaseGame):
    slug = "cosplay"
    title = "Cosplay Team Battle"
    score_name = {"en": "Objective points", "fr": "Points d’objectif"}  # what the result's scores count
    blurb = {
        "en": (
            "Deck building: recruit cosplayers, equip them and fulfil objectives to field the most "
            "prestigious team."
        ),
        "fr": (
            "Deck building : recrutez des cosplayeurs et cosplayeuses, équipez-les et remplissez des "
            "objectifs pour former l’équipe la plus prestigieuse."
        ),
    }
    min_players = 2
    max_players = 4
    options = {
        # RULINGS: once the end is reached the round is played out, so that every player has had as many
        # turns; a table may choose the sudden end. (Tables stored before 2026-11-26 hold ``finish_round``,
        # its opposite: ``setup`` reads it, see ``options_of``.)
        "sudden_end": {
            "type": "bool",
            "default": False,
            "house_rule": True,
            "label": "House rule: sudden end (the game ends with the turn that reaches the end)",
        },
    }

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        return super().setup(players, seed, options_of(options))

    # Moves that may be taken back within the turn when they revealed nothing (``can_take_back``):
    # placing, attaching, an ability used, a recruitment, an objective, a trash or clear choice.
    # Never: ending the turn, Drama sent (it lands in another player's discard and shows the next
    # Drama card), a poach (it takes another player's card), the choice of a Drama's victim.
    takeback_moves = frozenset({"place", "attach", "activate", "recruit", "objective", "trash", "clear"})

    def _setup(self, state: dict) -> dict:
        players = state["players"]
        library = core.shuffle(state, LIBRARY)
        zones = [None] * ZONES
        for z in range(ZONES - 1, -1, -1):
            zones[z] = library.pop(0)
        decks = {str(level): core.shuffle(state, OBJECTIVE_LEVELS[level]) for level in (1, 2, 3)}
        piles = [{"level": 1, "card": decks["1"].pop(0), "done": False} for _ in range(players + 1)]
        seats = []
        for _ in range(players):
            reserve = core.shuffle(state, STARTER_DECK)
            seats.append(
                {"hand": reserve[:HAND_SIZE], "reserve": reserve[HAND_SIZE:], "discard": [], "assist": []}
            )
        state.update(
            {
                "library": library,
                "zones": zones,
                "graveyard": [],
                "drama": core.shuffle(state, DRAMA_CODES),
                "obj_decks": decks,
                "objectives": piles,
                "seats": seats,
                "active": 0,
                "turn": 1,
                "phase": RECRUITMENT,  # rulebook: the preparation phase does not apply to the first turn
                "turns": [1] + [0] * (players - 1),
                "tp": fresh_turn(),
                "queue": [],
                "pending": None,
                "short": False,
                "over": False,
                "events": [],
            }
        )
        return state

    def to_act(self, state: dict) -> list[int]:
        return [] if state["over"] else [state["active"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if state["over"] or seat != state["active"]:
            return []
        return candidate_moves(state, seat)

    def mutable_copy(self, state: dict) -> dict:
        """Copy-on-write: every pile, seat, objective pile, the turn's points, the queue and the pending
        choice are copied (``_apply`` changes them in place); ``events`` (a move starts a new list),
        ``options``, the queued effects' dicts and the assistance zones' entries (never changed: turning
        a card up or attaching equipment puts a new entry in its place) are shared."""
        new = dict(state)
        for key in ("library", "zones", "graveyard", "drama", "turns", "queue"):
            new[key] = list(state[key])
        new["obj_decks"] = {level: list(deck) for level, deck in state["obj_decks"].items()}
        new["objectives"] = [dict(pile) for pile in state["objectives"]]
        new["seats"] = [
            {
                **me,
                "hand": list(me["hand"]),
                "reserve": list(me["reserve"]),
                "discard": list(me["discard"]),
                "assist": list(me["assist"]),
            }
            for me in state["seats"]
        ]
        tp = state["tp"]
        new["tp"] = {
            **tp,
            "bonus": dict(tp["bonus"]),
            "discount": dict(tp["discount"]),
            "drawn": list(tp["drawn"]),
        }
        if state["pending"] is not None:
            new["pending"] = dict(state["pending"])
        return new

    def _apply(self, state: dict, seat: int, move: dict) -> None:
        state["events"] = []
        plan = check_move(state, seat, move)
        execute(state, seat, move, plan)

    def is_over(self, state: dict) -> bool:
        return state["over"]

    def result(self, state: dict) -> dict:
        scores = [score(state, s) for s in range(state["players"])]
        return {"scores": scores, "winners": winners(state, scores)}

    def view(self, state: dict, seat: int | None) -> dict:
        return build_view(state, seat)

    def can_take_back(self, before: dict, seat: int, move: dict, after: dict) -> bool:
        """Whether ``seat`` may take ``move`` back: a move of ``takeback_moves`` that drew nothing
        (reserve unchanged), turned nothing up, used no randomness, touched no other seat, the library,
        the objective decks or the Drama reserve, and left the turn (and any choice) with ``seat``."""
        if not isinstance(move, dict) or move.get("type") not in self.takeback_moves or after["over"]:
            return False
        if not (before["active"] == after["active"] == seat and before["turn"] == after["turn"]):
            return False
        if after["pending"] is not None and after["pending"]["seat"] != seat:
            return False
        for key in ("draws", "library", "obj_decks", "drama"):
            if before[key] != after[key]:
                return False
        mine_before, mine_after = before["seats"][seat], after["seats"][seat]
        if mine_before["reserve"] != mine_after["reserve"]:
            return False
        # face up now and neither face up before nor placed from the hand: a card turned up (one
        # face down before, or one recruited this very move and turned up by its Recruit ability)
        known = {e["card"] for e in mine_before["assist"] if e["up"]} | set(mine_before["hand"])
        if any(e["up"] and e["card"] not in known for e in mine_after["assist"]):
            return False
        return all(before["seats"][s] == after["seats"][s] for s in range(before["players"]) if s != seat)

    def preview(self, state: dict, seat: int, move: dict) -> dict | None:
        """For a legal payment (recruit, objective, Drama, poach): ``need`` (the cost left after the turn's
        bonus points), ``points`` (what the named cards give), ``lost`` (points paid beyond the need) and
        ``scores`` (every seat's projected score after it). None for any other or illegal move."""
        if not isinstance(move, dict) or move.get("type") not in ("recruit", "objective", "drama", "poach"):
            return None
        try:
            self._guard(state, seat, move)
            plan = check_move(state, seat, move)["plan"]
        except IllegalMove:
            return None
        points = {r: 0 for r in (*RESOURCES, "wild")}
        for _code, _where, vec in resolve_payment(state, seat, move["pay"], plan["exclude"]):
            for key, n in vec.items():
                points[key] += n
        after = self.mutable_copy(state)
        self._apply(after, seat, move)
        need = plan["need"]
        return {
            "need": need,
            "points": points,
            "lost": max(0, sum(points.values()) - sum(need.values())),
            "scores": [score(after, s) for s in range(state["players"])],
        }

    messages = MESSAGES

    def events(self, before: dict, seat: int, move: dict, after: dict) -> list[dict]:
        """What the move did, recorded by the engine as it went (``effects.event``)."""
        return list(after["events"])

    def private_move_fields(self, move: dict) -> frozenset[str]:
        """A Drama's payment: the cards leave the hand face down (the others read "paid", and see the
        discard's count and top card); every other payment is told in the log, card by card."""
        return frozenset({"pay"}) if move.get("type") == "drama" else frozenset()

    def card_name(self, code: str, lang: str) -> str:
        return card_name(code, lang)


GAME = Cosplay()
