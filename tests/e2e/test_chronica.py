"""Chronica Universalis through the real UI: build a deck, bring it to a table, play a few turns live."""

from __future__ import annotations

import json
import re

from rules.chronica import encode_deck, starter_decks
from tests.e2e.conftest import RINGS_CUT, chronica_table, seq_of, shot, sign_up, unique, wait_for_seq


def legal_moves(page) -> list[dict]:
    return json.loads(
        page.evaluate(
            "() => { const e = document.getElementById('cu-moves'); return e ? e.textContent : '[]'; }"
        )
    )


def preview_of(page, move: dict) -> dict:
    """The honour preview of one move, asked of the server as the board asks it (its data-preview-url)."""
    return page.evaluate(
        """async (move) => {
            const url = document.querySelector('.cu-board').dataset.previewUrl;
            const answer = await fetch(url + '?move=' + encodeURIComponent(JSON.stringify(move)));
            const box = document.createElement('div');
            box.innerHTML = await answer.text();
            const p = box.querySelector('.cu-preview');
            return {honour_delta: Number(p.dataset.delta), explanation: p.querySelector('.cu-explain').textContent};
        }""",
        move,
    )


def play_assembled(page, move: dict, name: str | None = None) -> str:
    """Pick the card, the mode and the slot(s) on the board, then confirm: returns the preview text."""
    page.click(f".cu-hand [data-pick='{move['card']}']")
    assert not page.evaluate(RINGS_CUT)  # (the card picked, lifted, its ring whole in a hand that scrolls)
    if move["type"] == "action":
        page.click("[data-cu-mode=action]")
        t = move["target"]
        page.click(f".cu-side[data-seat='{t['seat']}'] .cu-slot.target[data-slot='{t['slot']}']")
    else:
        page.click(f".cu-slot.target[data-slot='{move['slot']}']")
    if page.locator("[data-cu-option]").count():
        page.locator("[data-cu-option]").first.click()
    preview = page.locator(".cu-confirm .cu-preview")
    preview.wait_for()
    text = preview.inner_text()
    if name:
        shot(page, name)
    page.click("[data-cu-confirm]")
    return text


def test_build_a_deck_bring_it_to_a_table_and_play(server, new_page):
    alice, bob = new_page(1280), new_page(390, 844)
    for page in (alice, bob):  # a move that cannot be taken back asks first: they answer yes
        page.on("dialog", lambda dialog: dialog.accept())
    a_name, b_name = unique("alice"), unique("bob")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)

    # --- Alice builds a deck: import a starter's code, swap one card, save ---------------------
    alice.click("nav >> text=Decks")
    alice.click("text=New deck")
    alice.fill("#deck-form input[name=name]", "E2E deck")
    alice.click("summary:has-text('Export / import')")
    alice.fill("#deck-form textarea[name=code]", encode_deck(starter_decks()[3]["cards"]))
    alice.click("text=Import (replaces the cards)")
    alice.wait_for_selector(".deck-count[data-count='30']")
    alice.click("#deck-panel li:has(.deck-row-card[data-card='vercingetorix']) .remove")
    alice.wait_for_selector(".deck-count[data-count='29']")
    assert "this one has 29" in alice.inner_text(".problems")
    alice.fill(".deck-catalog input[name=q]", "Roland")
    alice.wait_for_selector("#catalog-results .result-count:has-text('1 of')")
    alice.click(".cat-item[data-code='roland'] .add")
    alice.wait_for_selector(".deck-count[data-count='30']")
    assert alice.locator(".legal").inner_text() == "Legal deck ✓"
    shot(alice, "chronica-01-deck-editor-desktop")
    alice.click("text=Save deck")
    alice.wait_for_url(re.compile(r"/decks/\d+/$"))
    assert "saved" in alice.inner_text(".messages")
    bob.goto(f"{server.url}/decks/")
    shot(bob, "chronica-01-decks-phone")

    # --- A table: Alice brings her deck, Bob a starter ----------------------------------------------
    alice.goto(f"{server.url}/games/chronica/new/")
    alice.select_option("select[name=deck]", label="E2E deck")
    alice.click("form.card-form button")
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = alice.url
    bob.goto(table_url)
    bob.select_option("select[name=deck]", "starter:glaive-et-plume")
    with bob.expect_navigation():  # the action answers htmx with a refresh
        bob.click("text=Join this table")
    bob.wait_for_selector(f".seat-chip.me >> text={b_name}")
    alice.wait_for_selector(f".seat-chip >> text={b_name}")
    with alice.expect_navigation():  # the action answers htmx with a refresh
        alice.click("button:has-text('Start')")
    alice.wait_for_selector(".cu-board")
    bob.wait_for_selector(".cu-board")
    shot(alice, "chronica-02-mulligan-desktop")
    shot(bob, "chronica-02-mulligan-phone")

    pages = [alice, bob]

    def mover():
        seq = seq_of(alice)
        for p in pages:
            wait_for_seq(p, seq)
        for p in pages:
            if p.locator(".cu-prompt.mine").count():
                return p, seq
        raise AssertionError("nobody is asked to play")

    # --- The opening: one mulligan, one keep -----------------------------------------------------------
    p, seq = mover()
    p.click("text=Mulligan: draw")
    for q in pages:
        wait_for_seq(q, seq + 1)
    p, seq = mover()
    p.click("text=Keep this hand")
    for q in pages:
        wait_for_seq(q, seq + 1)

    # --- A few turns: build, place, then an Action with its preview ------------------------------
    did_action = False
    turns = 0
    while turns < 14 and not (did_action and turns >= 3):
        p, seq = mover()
        me = int(p.locator(".cu-board").get_attribute("data-viewer"))
        moves = legal_moves(p)
        plain = [m for m in moves if m["type"] == "action" and not m["reinforce"]] if turns >= 2 else []
        actions = [
            {"move": m, "preview": pv} for m in plain if (pv := preview_of(p, m))["honour_delta"] >= -4
        ]
        builds = [m for m in moves if m["type"] == "build" and "welcome" not in m and m["slot"] < 4]
        places = [m for m in moves if m["type"] == "place" and m["slot"] < 4]
        if actions and turns >= 2:
            best = max(actions, key=lambda c: c["preview"]["honour_delta"])
            text = play_assembled(
                p, best["move"], "chronica-04-action-preview-" + ("desktop" if p is alice else "phone")
            )
            assert "Your honour" in text and best["preview"]["explanation"] in text
            did_action = True
        elif turns % 2 == 0 and builds:
            play_assembled(
                p,
                builds[0],
                "chronica-03-build-" + ("desktop" if p is alice else "phone") if turns < 2 else None,
            )
        elif places:
            play_assembled(p, places[0])
        elif builds:
            play_assembled(p, builds[0])
        else:
            p.click("summary:has-text('Pass')")
            p.locator(".cu-pass button[data-move]").first.click()
        for q in pages:
            wait_for_seq(q, seq + 1)
        if p.locator(".cu-prompt.mine:has-text('Ferveur populaire')").count():
            _, seq = mover()
            p.click("text=End turn")
            for q in pages:
                wait_for_seq(q, seq + 1)
        assert me in (0, 1)
        turns += 1
    assert did_action, "no Action was possible in these turns"
    shot(alice, "chronica-05-board-desktop")
    shot(bob, "chronica-05-board-phone")
    for p in pages:
        assert not p.errors, p.errors
    # The log shows the Action and the honour it cost or earned, on both sides.
    assert "sent" in alice.inner_text(".move-log") and "sent" in bob.inner_text(".move-log")


def test_a_player_names_the_opponent_a_disgrace_hits(server, new_page):
    # RULINGS (2026-11-26): with 3 or 4 players the player names the opponent who loses honour by a Disgrace
    # (the board offers each as a button, as it does the wandering character an Exile sends home).
    page = new_page(1280)
    page.on("dialog", lambda dialog: dialog.accept())
    me, bob, carol = unique("cua"), unique("cub"), unique("cuc")
    sign_up(page, server, me)
    provinces = {
        1: {0: ("palais-des-ducs-de-bourgogne", None), 1: (None, "alcuin")},
        2: {2: (None, "roland")},
    }
    pk = chronica_table(server, me, bob, carol, hand=("moliere", "donjon-de-loches"), provinces=provinces)
    page.goto(f"{server.url}/tables/{pk}/")
    page.wait_for_selector(".cu-prompt.mine")
    # Molière wins against Bourgogne: the player names who loses 1 honour
    page.click(".cu-hand [data-pick='moliere']")
    page.click("[data-cu-mode=action]")
    page.click(".cu-side[data-seat='1'] .cu-slot.target[data-slot='0']")
    options = page.locator("[data-cu-option]")
    labels = [options.nth(k).inner_text() for k in range(options.count())]
    assert any(f"{carol} loses honour by the power" in t for t in labels), labels
    assert any(f"{bob} loses honour by the power" in t for t in labels), labels
    page.locator("[data-cu-option]", has_text=f"{carol} loses honour by the power").first.click()
    assert f"{carol} loses honour by the power" in page.inner_text(".cu-confirm")
    shot(page, "chronica-06-disgrace-choice")
    seq = seq_of(page)
    page.click("[data-cu-confirm]")
    wait_for_seq(page, seq + 1)
    out = server.manage(
        "shell",
        "-c",
        f"import json; from tables.models import Table; print('honour', json.dumps(Table.objects.get(pk={pk}).state['honour']))",
    )
    honour = json.loads(re.search(r"^honour (.*)$", out, re.M).group(1))
    assert honour[2] == 9 and honour[1] == 10  # carol lost the Disgrace's honour, not bob
    assert not page.errors, page.errors
