"""Two people in two browsers play a whole Five Crowns round through the UI, live: draw, discard, one goes
out through the go-out prompt, the other plays a final turn, and both see the laid melds and the sheet."""

import re

from tests.e2e.conftest import (
    TOOLS_OUT_OF_SIGHT,
    hear_frames,
    open_two_player_table,
    seq_of,
    shot,
    sign_up,
    unique,
    wait_for_frames,
    wait_for_seq,
)

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def hand_codes(page) -> list[str]:
    return page.locator("[data-fc-hand] > li.fc-slot").evaluate_all("els => els.map(e => e.dataset.code)")


def value(code: str, wild: int) -> int:
    """How much a card costs if kept (the wilds are worth keeping: they count as -1 here)."""
    if code == "joker":
        return -1
    rank = RANKS.index(code.rsplit("-", 1)[0]) + 3
    return -1 if rank == wild else rank


def test_two_players_play_a_round_of_five_crowns_live(server, new_page):
    alice, bob = new_page(1280), new_page(390, 844)
    a_name, b_name = unique("alice"), unique("bob")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)

    alice.goto(f"{server.url}/games/five_crowns/new/")
    options = alice.locator("select[name=players] option").evaluate_all("os => os.map(o => o.value)")
    assert options == [str(n) for n in range(2, 9)]
    open_two_player_table(server, alice, bob, "five_crowns", b_name)
    for page in (alice, bob):
        page.wait_for_selector(".fc-board")
        assert page.locator(".fc-wild-flag").inner_text().strip().startswith("Wild: 3s")
        assert page.locator("[data-fc-hand] > li.fc-slot").count() == 3
        assert page.locator(".fc-player:not(.me) .fan .back").count() == 3  # the opponent's fanned backs
    shot(alice, "fc-01-started-desktop")
    shot(bob, "fc-01-started-phone")

    # The hand's order is the player's own: sort, move a card with the buttons, and it survives a reload.
    alice.click("button[data-fc-sort=rank]")
    ranked = hand_codes(alice)
    alice.click("button[data-fc-arrange]")
    alice.locator("[data-fc-hand] > li.fc-slot").first.click()  # selects, does not discard
    alice.click("button[data-fc-shift='1']")
    moved = hand_codes(alice)
    assert moved == [ranked[1], ranked[0], ranked[2]]
    alice.click("button[data-fc-arrange]")
    hear_frames(alice)
    alice.reload()
    wait_for_frames(alice)  # the socket's first frame (of the revision the page shows: left as it is)
    assert hand_codes(alice) == moved
    # Dragging the last card to the front reorders too.
    first = alice.locator("[data-fc-hand] > li.fc-slot").first.bounding_box()
    last = alice.locator("[data-fc-hand] > li.fc-slot").last.bounding_box()
    alice.mouse.move(last["x"] + last["width"] / 2, last["y"] + 30)
    alice.mouse.down()
    alice.mouse.move(last["x"] - 20, last["y"] + 30, steps=4)
    alice.mouse.move(first["x"] + 5, first["y"] + 30, steps=6)
    alice.mouse.up()
    assert hand_codes(alice) == [moved[2], moved[0], moved[1]]
    # And from the keyboard: Shift+Arrow moves the focused card.
    alice.locator("[data-fc-hand] > li.fc-slot .card-button").first.focus()
    alice.keyboard.press("Shift+ArrowRight")
    dragged = hand_codes(alice)
    assert dragged == [moved[0], moved[2], moved[1]]

    pages = {"alice": alice, "bob": bob}
    went_out = None
    final_turn_seen = False
    moves = 0
    while True:
        seq = seq_of(alice)
        for page in pages.values():
            wait_for_seq(page, seq)
        if alice.locator(".fc-last-round").count():
            break  # round 1 is scored
        mover = next((p for p in pages.values() if p.locator("[data-move]").count()), None)
        assert mover is not None, "the round is on but nobody has a move to make"
        other = bob if mover is alice else alice
        if went_out is not None and mover is not went_out:
            banner = mover.locator(".fc-banner").inner_text()
            assert "went out" in banner and "your final turn" in banner
            final_turn_seen = True
            if mover.locator(".pile-button.playable").count():
                shot(mover, "fc-04-final-turn-" + ("desktop" if mover is alice else "phone"))
        if mover.locator(".fc-go-out button.go-out").count():
            prompt = mover.locator(".fc-go-out")
            assert prompt.locator(".meld").count() >= 2  # at least one meld and the discard
            shot(mover, "fc-03-go-out-prompt-" + ("desktop" if mover is alice else "phone"))
            if went_out is None:
                went_out = mover
            prompt.locator("button.go-out").first.click()
        elif mover.locator(".pile-button.playable").count():
            if alice is mover and moves == 0:
                assert dragged == hand_codes(alice)
            mover.locator(".fc-pile.stock .pile-button.playable").click()
        else:
            wild = int(mover.locator(".fc-board").get_attribute("data-wild"))
            cards = mover.locator("button.card-button.playable .fc-card").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            worst = max(cards, key=lambda c: value(c, wild))
            mover.locator(f"button.card-button.playable .fc-card[data-card='{worst}']").first.click()
        moves += 1
        for page in pages.values():
            wait_for_seq(page, seq + 1)  # both pages move on: the other one over the WebSocket
        if moves == 1:
            # After the first draw the new card is marked for its drawer only, and the order is kept.
            assert mover.locator(".fc-slot.drawn .new-tag").count() == 1
            assert other.locator(".new-tag").count() == 0
            shot(mover, "fc-02-drawn-" + ("desktop" if mover is alice else "phone"))
        assert moves < 120
    assert went_out is not None and final_turn_seen
    for page in pages.values():
        page.wait_for_selector(".fc-last-round[open]")
        result = page.locator(".fc-last-round").inner_text()
        assert "Round 1 result" in result and "went out" in result
        assert page.locator(".fc-laid > li").count() == 2
        assert page.locator(".fc-laid .penalty").count() == 2
        assert page.locator(".fc-sheet tbody tr[data-round]").count() == 1
        assert page.locator(".fc-chart polyline").count() == 2
        assert page.locator(".fc-wild-flag").inner_text().strip().startswith("Wild: 4s")
        assert not page.errors, page.errors
    shot(alice, "fc-05-round-over-desktop")
    shot(bob, "fc-05-round-over-phone")


def seated(server, page, label: str, change: str = "pass") -> str:
    """A new person signed up on ``page``, seated at a started two-player table of seed 3 (its state ``s``
    changed by ``change``, Python run in the site's shell, before anyone looks): the table's id."""
    me, other = unique(label), unique(f"other{label}")
    sign_up(page, server, me)
    out = server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; from tables import services; "
        "from tests.tables.positions import put_state, state_of; "
        f"users = [User.objects.get(username={me!r}), User.objects.create_user({other!r}, password='x-long-password-1')]; "
        "t = services.create_table(users[0], 'five_crowns', 2); services.join_table(t.pk, users[1]); "
        f"t = services.start_table(t.pk, users[0], seed=3); s = state_of(t); {change}; put_state(t, s); "
        "print('table', t.pk)",
    )
    return re.search(r"^table (\d+)$", out, re.M).group(1)


def test_every_tool_of_the_hand_is_in_sight_on_a_phone_in_both_languages(server, new_page):
    """On a phone the hand's tools once sat in a row that scrolled sideways with no scrollbar: "Move cards" cut
    and its arrows off the screen, with nothing to say they were there. Now every tool is in sight, in English
    and in the longer French, and the arrows, of no use until "Move cards" is on, come with it and move a card."""
    for lang in ("en", "fr"):
        page = new_page(390, 844, locale="fr-FR" if lang == "fr" else "en-GB")
        pk = seated(server, page, f"tools{lang}")
        page.goto(f"{server.url}/tables/{pk}/")
        page.wait_for_selector("[data-fc-hand] > li.fc-slot")
        assert page.locator(".fc-tools .arrow:visible").count() == 0
        assert page.evaluate(TOOLS_OUT_OF_SIGHT, ".fc-hand") == [], lang
        order = hand_codes(page)
        page.click("button[data-fc-arrange]")
        assert page.locator(".fc-tools .arrow:visible").count() == 2
        assert page.evaluate(TOOLS_OUT_OF_SIGHT, ".fc-hand") == [], lang
        page.locator("[data-fc-hand] > li.fc-slot").first.click()  # selects, does not discard
        page.click("button[data-fc-shift='1']")
        assert hand_codes(page) == [order[1], order[0], *order[2:]]
        shot(page, f"fc-07-move-cards-phone-{lang}", full_page=False)
        page.click("button[data-fc-arrange]")
        assert page.locator(".fc-tools .arrow:visible").count() == 0
        assert not page.errors, page.errors


def test_the_score_chart_is_drawn_in_french_as_in_english(server, new_page):
    """The chart's lines run across it, and its labels sit at their heights, for a French reader as for an
    English one (its coordinates were once written with a French decimal comma: no coordinate at all)."""
    pages = {"en": new_page(1280, locale="en-GB"), "fr": new_page(390, 844, locale="fr-FR")}
    boxes = {}
    for lang, page in pages.items():
        pk = seated(
            server, page, f"chart{lang}", "s['sheet'] = [[0, 25], [3, 30], [12, 0]]; s['scores'] = [15, 55]"
        )
        page.goto(f"{server.url}/tables/{pk}/")
        page.wait_for_selector(".fc-chart polyline")
        chart = page.locator(".fc-chart")
        chart.scroll_into_view_if_needed()
        width = chart.bounding_box()["width"]
        lines = [page.locator(".fc-chart polyline").nth(k).bounding_box() for k in range(2)]
        # Each seat's line runs over three of the eleven rounds: about a quarter of the chart's width.
        assert all(box["width"] > width / 6 and box["height"] > 0 for box in lines), (lang, lines, width)
        ticks = [page.locator(".fc-chart text.tick.y").nth(k).bounding_box()["y"] for k in range(3)]
        assert ticks[0] > ticks[1] > ticks[2], (lang, ticks)  # 0, the middle, the top: each at its height
        boxes[lang] = [round(box["width"] / width, 2) for box in lines]
        shot(page, f"fc-06-score-chart-{lang}")
    assert boxes["fr"] == boxes["en"]  # the same chart, whatever the language
