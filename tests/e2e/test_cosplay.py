"""Two people in two browsers: one recruits a card, choosing the payment through the UI, and ends the turn."""

import json
import re

from rules.cosplay.cards import CARDS
from tests.e2e.conftest import RINGS_CUT, open_two_player_table, seq_of, shot, sign_up, unique, wait_for_seq


def mover_of(pages, seq):
    for page in pages:
        wait_for_seq(page, seq)
        if page.locator(".cp-prompt.mine").count():
            return page
    raise AssertionError("nobody is to play")


def settle(mover, pages):
    """Answer any choice a card's ability asks for (the most modest answer) until the turn's main prompt is back."""
    for _ in range(8):
        if mover.locator("button.end-turn").count():
            return
        modest = mover.locator(".cp-prompt.mine .choices button.ghost")
        button = modest.first if modest.count() else mover.locator(".cp-prompt.mine .choices button").first
        seq = seq_of(mover)
        button.click()
        for page in pages:
            wait_for_seq(page, seq + 1)
    raise AssertionError("the turn's main prompt never came back")


def test_recruit_with_a_chosen_payment_then_end_the_turn(server, new_page):
    alice, bob = new_page(1280), new_page(390, 844)
    for page in (alice, bob):  # a move that locks in an undoable one asks first; these players say yes
        page.on("dialog", lambda dialog: dialog.accept())
    a_name, b_name = unique("alice"), unique("bob")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)

    open_two_player_table(server, alice, bob, "cosplay", b_name)
    alice.wait_for_selector(".cp-board")
    bob.wait_for_selector(".cp-board")
    shot(alice, "cp-01-start-desktop")
    shot(bob, "cp-01-start-phone")

    pages = [alice, bob]
    # Whoever can recruit does so; the others end their turn until someone can. Most deals offer a paid recruit
    # at once, but some offer none for several turns (with the turns only ended, 20,000 deals of the engine
    # needed at most 25, and nearly 1 in 100 more than 8): 40 turns hold for every deal.
    for _ in range(40):
        seq = seq_of(alice)
        mover = mover_of(pages, seq)
        settle(mover, pages)
        seq = seq_of(mover)
        # a recruit paid with cards from hand (one the turn's bonus points cover alone leaves nothing to choose)
        buttons = mover.locator(".cp-zone .cp-pay")
        paid = [
            i for i in range(buttons.count()) if json.loads(buttons.nth(i).get_attribute("data-move"))["pay"]
        ]
        if paid:
            button = buttons.nth(paid[0])
            break
        mover.click("button.end-turn")
        for page in pages:
            wait_for_seq(page, seq + 1)
    else:
        raise AssertionError("no recruit in forty turns")
    other = bob if mover is alice else alice
    suggested = json.loads(button.get_attribute("data-move"))
    zone = suggested["zone"]
    recruited = mover.locator(f"#t-z{zone} > .cp-card").get_attribute("data-card")
    name = button.get_attribute("data-label").removeprefix("Recruit ")
    button.click()
    panel = mover.locator("[data-cp-panel]")
    panel.wait_for(state="visible")
    assert name in panel.inner_text()
    chosen = mover.locator(".cp-mine .cp-card.payer.chosen")
    assert chosen.count() == len(suggested["pay"])  # the engine's suggestion, pre-selected
    shot(mover, "cp-02-paying-suggested")

    # Take the suggestion apart and build it again by clicking cards: the tally follows.
    codes = [chosen.nth(i).get_attribute("data-card") for i in range(chosen.count())]
    for _ in codes:
        chosen.first.click()
    assert mover.locator(".cp-mine .cp-card.payer.chosen").count() == 0
    assert "Still missing" in panel.inner_text()
    assert mover.locator("[data-cp-pay]").is_disabled()
    for code in codes:
        mover.locator(f'.cp-mine .cp-card.payer[data-card="{code}"]:not(.chosen)').first.click()
    assert "Covered." in panel.inner_text()
    # One more useful card would only waste points: the panel says so (then we take it back).
    extra = mover.locator(".cp-mine .cp-card.payer:not(.chosen):not(.useless):not(.excluded)")
    if extra.count():
        spare = extra.first.element_handle()
        spare.click()
        assert "lost" in panel.inner_text()
        shot(mover, "cp-03-paying-surplus")
        spare.click()
        assert "Covered." in panel.inner_text()
    shot(mover, "cp-03-paying-chosen")
    # The chosen cards, lifted, have their rings whole in a hand that scrolls.
    assert not mover.evaluate(RINGS_CUT)

    seq = seq_of(mover)
    mover.click("[data-cp-pay]")
    for page in pages:
        wait_for_seq(page, seq + 1)
    # The recruited card waits face down in the mover's assistance zone, and the other player sees only a back;
    # unless its Recruit ability ("ready": Laser Paladin) turned the zone's cards face up at once.
    mover.wait_for_selector(f'.cp-assist.mine .cp-card[data-card="{recruited}"]')
    ability = CARDS[recruited]["ability"]
    if ability and ability["kind"] == "recruit" and any(e["effect"] == "ready" for e in ability["effects"]):
        assert mover.locator(f'.cp-assist.mine .cp-card.face-down-mine[data-card="{recruited}"]').count() == 0
        assert other.locator(f'.cp-assist.other .cp-card[data-card="{recruited}"]').count() == 1
    else:
        mover.wait_for_selector(f'.cp-assist.mine .face-down-mine[data-card="{recruited}"]')
        assert "arrives next turn" in mover.locator(".cp-assist.mine").inner_text()
        assert other.locator(".cp-assist.other .cp-card.back").count() >= 1
        assert other.locator(f'.cp-assist.other .cp-card[data-card="{recruited}"]').count() == 0
    assert other.locator(f"#t-z{zone} .cp-card.empty").count() == 1
    assert "recruited" in other.locator(".cp-changes").inner_text()
    shot(alice, "cp-04-recruited-desktop")
    shot(bob, "cp-04-recruited-phone")

    settle(mover, pages)  # a Recrutement ability may ask for a choice first
    fatigue = re.search(r"minus (\d+) for Fatigue", mover.locator(".cp-prompt.mine").inner_text())
    hand_target = 5 - int(fatigue.group(1)) if fatigue else 5
    hand_before = mover.locator(".cp-hand .cp-row.hand .cp-card").count()
    seq = seq_of(mover)
    mover.click("button.end-turn")
    for page in pages:
        wait_for_seq(page, seq + 1)
    # Initialisation: zones advance and refill, the hand is drawn back up to five, the other player's turn.
    mover.wait_for_selector(f".cp-hand .cp-row.hand .cp-card >> nth={max(hand_target, hand_before) - 1}")
    assert mover.locator(".cp-hand .cp-row.hand .cp-card").count() == max(hand_target, hand_before)
    assert mover.locator(".cp-zone .cp-card.empty").count() == 0
    # The cards that just arrived glow: the new zone card(s) on both pages, the cards drawn on the mover's.
    if hand_before < hand_target:
        assert mover.locator(".cp-hand .cp-card.cp-arrived").count() == hand_target - hand_before
    assert other.locator(".cp-zone .cp-card.cp-arrived").count() >= 1
    assert mover.locator(".cp-zone .cp-card.cp-arrived").count() >= 1
    assert "ended their turn" in other.locator(".cp-changes").inner_text()
    other.wait_for_selector(".cp-prompt.mine")
    settle(other, pages)  # a Soutien ability at the start of the turn may ask first
    assert other.locator("button.end-turn").count() == 1
    shot(alice, "cp-05-next-turn-desktop")
    shot(bob, "cp-05-next-turn-phone")
    for page in pages:
        assert not page.errors, page.errors
