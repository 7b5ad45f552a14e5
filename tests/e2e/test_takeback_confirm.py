"""While an Undo is on offer, a move that cannot be taken back asks first (static/js/site.js, from the page's
list of the moves that can: the buttons say nothing of it, so a live frame need not send them again when an
Undo comes or goes). Dismissed, nothing is played; accepted, the move is played; a board script's move asks
once, as a button's does."""

import json

from tests.e2e.conftest import seq_of, sign_up, unique, wait_for_seq

SEED = 5


def undo_on_offer(username: str, seed: int) -> dict:
    """A Cosplay table where ``username`` (seat 0) is to play, having just placed a card they could still take
    back, with End turn on offer: played through the services, the seats' other moves chosen by a bot.
    (Run in the server's process: ``manage.py shell``.)"""
    import random

    from django.contrib.auth.models import User

    from rules import bots
    from tables import services
    from tables.rendering import Snapshot

    me = User.objects.get(username=username)
    other = User.objects.create_user(username + "o", password="x")
    table = services.create_table(me, "cosplay", 2)
    services.join_table(table.pk, other)
    table = services.start_table(table.pk, me, seed=seed)
    users, rnd = [me, other], random.Random(seed)
    for _ in range(600):
        state = table.engine.load(table.state)
        seat = table.to_act[0]
        legal = table.engine.legal_moves(state, seat)
        if seat == 0 and Snapshot.read(table).context(me, "en")["takeback_seq"] is not None:
            if any(m["type"] == "end_turn" for m in legal):
                return {"table": table.pk, "seq": table.seq}
        places = [m for m in legal if m["type"] == "place"] if seat == 0 else []
        move = (
            places[0]
            if places
            else bots.choose(
                "cosplay", table.engine.view(state, seat), legal, "casual", rnd.randrange(10**9), seat=seat
            )
        )
        table = services.play_move(table.pk, users[seat], move, table.seq).table
    raise AssertionError("no position with an Undo on offer")


def test_a_final_move_asks_first_while_an_undo_is_on_offer(server, new_page):
    page = new_page(1280)
    name = unique("undoer")
    sign_up(page, server, name)
    out = server.manage(
        "shell",
        "-c",
        "import json; from tests.e2e.test_takeback_confirm import undo_on_offer; "
        f"print('AT', json.dumps(undo_on_offer({name!r}, {SEED})))",
    )
    at = json.loads(next(line for line in out.splitlines() if line.startswith("AT ")).removeprefix("AT "))
    page.goto(f"{server.url}/tables/{at['table']}/")
    page.wait_for_selector("button.takeback")  # Undo is on offer
    end_turn = page.locator("button.end-turn")
    assert end_turn.get_attribute("hx-confirm") is None  # (the button says nothing of it: the page asks)

    asked: list[str] = []
    accept = [False]  # (every dialog is counted: a move that asked twice would show here)

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if accept[0] else dialog.dismiss()

    page.on("dialog", answer)
    end_turn.click()
    page.wait_for_timeout(500)
    assert asked == ["This move cannot be taken back. Play it?"]
    assert seq_of(page) == at["seq"]  # dismissed: nothing was played
    # A board script's move (a payment, an Action with its target: cardclubPostMove) asks once, not twice,
    # and accepted, it is played.
    accept[0] = True
    page.evaluate(
        """() => { const b = document.querySelector('.cp-board'), btn = document.createElement('button');
                   b.appendChild(btn); window.cardclubPostMove(b, {type: 'end_turn'}, btn); }"""
    )
    wait_for_seq(page, at["seq"] + 1)
    page.wait_for_timeout(300)
    assert asked == ["This move cannot be taken back. Play it?"] * 2
