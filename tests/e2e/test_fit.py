"""The whole turn on one screen, in every kind of prompt (issue 28, points 1 and 4).

Seeded games of the four games are walked through the API with random legal moves; at the first of each kind
of prompt (the phase and a pending choice) and wherever a kind of move is first offered, the acting player's page is looked at, as
a person would see it, in English at 390 × 844, 768 × 1024 and 1280 × 800 and in French (the players' saved
language: longer labels) at 390 × 844 and 1280 × 800: the turn line, the prompt with every one of
its buttons, and the docked hand lie within the viewport without scrolling, and neither the turn line nor the
prompt nor its buttons lie under the docked hand (nor, in Cosplay, the recruitment zones the player can recruit
from: CHOICES). At 390 and 1280 px axe-core (experimental rules included, such as label-content-name-mismatch)
finds no serious or critical violation there. Screenshots go to artifacts/screenshots/fit-<game>[-fr]-<n>-<width>.png.
And a Cosplay hand of ten cards (and of five, in French) leaves the zones to recruit from clear at every size, in
both languages, and shows every card, with no sideways scroll, at 768 and 1280 px.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

import pytest

from tests.e2e.conftest import PASSWORD, RINGS_CUT, SPLIT_WORDS, TOOLS_OUT_OF_SIGHT, shot, unique, when_still
from tests.e2e.test_axe import grave_violations

SIZES = [(390, 844), (768, 1024), (1280, 800)]
AXE_WIDTHS = {390, 1280}
# The walk reads the site as its players chose it (their saved language): in English at every size, in French
# (longer labels) at 390 and 1280 px.
LANGUAGES = ["en", "fr"]
# Per game: the players and options of the walk, its seed, and the longest walk in moves.
WALKS = {
    "cosmic_crowns": (3, {"mode": "hard"}, 11, 400),
    "five_crowns": (2, {}, 5, 300),
    "chronica": (2, {}, 3, 400),
    "cosplay": (2, {}, 2, 400),
}
PROMPT = {
    "cosmic_crowns": ".cc-prompt.mine",
    "five_crowns": ".fc-prompt.mine",
    "chronica": ".cu-prompt.mine",
    "cosplay": ".cp-prompt.mine",
}
HAND = {"cosmic_crowns": ".cc-hand", "five_crowns": ".fc-hand", "chronica": ".cu-hand", "cosplay": ".cp-hand"}
TURN = ".table-status .turn-line"
# What else the acting player chooses from, per game, that must lie on screen and out from under the docked hand
# as the page opens, at every size (a phone's 390 × 844 included): in Cosplay the recruitment zones the player
# can recruit from (their card and its button; their row may scroll sideways on a phone).
CHOICES = {
    "cosplay": """() => [...document.querySelectorAll('.cp-zone')].filter(z => [...z.querySelectorAll('[data-move]')]
        .some(b => { try { return JSON.parse(b.dataset.move).type === 'recruit'; } catch (e) { return false; } }))
        .flatMap(z => [z.querySelector(':scope > .cp-card'), ...z.querySelectorAll('.cp-pay')])
        .filter(el => el && el.getClientRects().length).map(el => { const r = el.getBoundingClientRect();
            return {label: el.closest('.cp-zone').id + (el.matches('.cp-pay') ? ' button' : ' card'),
                    top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })""",
}

SETUP = """
import json
from django.contrib.auth.models import User
from accounts.models import ApiToken
from accounts.preferences import set_language
from tables import services
names = {names!r}
users = [User.objects.create_user(n, password={password!r}) for n in names]
table = services.create_table(users[0], {game!r}, len(users), {options!r})
for u in users[1:]:
    services.join_table(table.pk, u)
services.start_table(table.pk, users[0], seed={seed!r})
for u in users:
    set_language(u, {language!r})
print(json.dumps({{"table": table.pk, "tokens": [ApiToken.issue(u, "fit")[1] for u in users]}}))
"""

# The boxes of what the acting player needs, once the board has held still for ten frames (a live frame may
# redraw it just after the page loads), at the top of the page as it opens.
BOXES = when_still("""([turn, prompt, hand]) => {
    const box = el => { const r = el.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}; };
    const seen = el => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const p = document.querySelector(prompt);
    const buttons = p ? [...p.querySelectorAll('button, select, input:not([type=hidden]), a.button')].filter(seen) : [];
    return {
        turn: seen(document.querySelector(turn)) ? box(document.querySelector(turn)) : null,
        prompt: seen(p) ? box(p) : null,
        hand: seen(document.querySelector(hand)) ? box(document.querySelector(hand)) : null,
        buttons: buttons.map(b => ({label: (b.getAttribute('aria-label') || b.textContent || b.name || '').trim().replace(/\\s+/g, ' ').slice(0, 40), ...box(b)})),
        scrollY: window.scrollY,
    };
}""")


def api(server, token: str, method: str, path: str, body=None):
    request = urllib.request.Request(
        server.url + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def log_in(tour, username: str, width: int, height: int):
    page = tour.context(width, height)
    page.goto(f"{tour.server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.card-form button")
    page.wait_for_url(f"{tour.server.url}/")
    return page


def prompt_kind(state: dict) -> tuple:
    view = state["view"] or {}
    pending = view.get("pending")
    pending = pending.get("kind") if isinstance(pending, dict) else pending
    return view.get("phase"), pending, frozenset(m["type"] for m in state["legal_moves"])


def inside(box: dict, width: int, height: int) -> bool:
    return (
        box["top"] >= -0.5
        and box["left"] >= -0.5
        and box["bottom"] <= height + 0.5
        and box["right"] <= width + 0.5
    )


def overlap(a: dict, b: dict) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


def problems_at(boxes: dict, width: int, height: int) -> list[str]:
    out = []
    for what in ("turn", "prompt", "hand"):
        box = boxes[what]
        if box is None or box["height"] <= 0:
            out.append(f"{what} is not drawn")
        elif not inside(box, width, height):
            out.append(f"{what} at {box['top']:.0f}–{box['bottom']:.0f} px, not within {width} × {height}")
    for button in boxes["buttons"]:
        if not inside(button, width, height):
            out.append(
                f"button {button['label']!r} at {button['top']:.0f}–{button['bottom']:.0f} px, off screen"
            )
    hand = boxes["hand"]
    if hand:
        for what, box in [("turn", boxes["turn"]), ("prompt", boxes["prompt"])]:
            if box and overlap(box, hand):
                out.append(
                    f"the docked hand ({hand['top']:.0f} px) covers the {what} ({box['top']:.0f}–{box['bottom']:.0f} px)"
                )
        for button in boxes["buttons"]:
            if overlap(button, hand) and not (
                hand["top"] <= button["top"] and button["bottom"] <= hand["bottom"]
            ):
                out.append(f"the docked hand covers button {button['label']!r}")
    return out


def choices_hidden(choices: list[dict], hand: dict | None, width: int, height: int) -> list[str]:
    """What of ``choices`` (CHOICES' boxes) lies above or below the screen, or under the docked hand ``hand``."""
    out = []
    for box in choices:
        if box["top"] < -0.5 or box["bottom"] > height + 0.5:  # (a row of zones may scroll sideways)
            out.append(f"{box['label']} at {box['top']:.0f}–{box['bottom']:.0f} px, off screen")
        elif hand and overlap(box, hand):
            out.append(
                f"the docked hand ({hand['top']:.0f} px) covers {box['label']} "
                f"({box['top']:.0f}–{box['bottom']:.0f} px: {box['bottom'] - hand['top']:.0f} px under it)"
            )
    return out


@pytest.mark.parametrize("slug, language", [(slug, language) for language in LANGUAGES for slug in WALKS])
def test_every_kind_of_prompt_shows_the_whole_turn_on_one_screen_and_passes_axe(tour, slug, language):
    players, options, seed, longest = WALKS[slug]
    names = [unique(f"fit{k}") for k in range(players)]
    made = json.loads(
        tour.server.manage(
            "shell",
            "-c",
            SETUP.format(
                names=names, password=PASSWORD, game=slug, options=options, seed=seed, language=language
            ),
        )
        .strip()
        .splitlines()[-1]
    )
    table, tokens = made["table"], made["tokens"]
    pages = {}  # (seat, size) -> a logged-in page, opened when first needed
    rnd, seen, offered, drawn, failures = random.Random(seed), set(), set(), 0, {}
    for _ in range(longest):
        state = api(tour.server, tokens[0], "GET", f"/api/tables/{table}")
        if state["status"] != "playing":
            break
        seat = state["to_act"][0]
        mine = api(tour.server, tokens[seat], "GET", f"/api/tables/{table}")
        kind = prompt_kind(mine)
        if kind[:2] not in seen or not kind[2] <= offered:
            seen.add(kind[:2])
            offered |= kind[2]
            drawn += 1
            for width, height in SIZES if language == "en" else [s for s in SIZES if s[0] in AXE_WIDTHS]:
                page = pages.get((seat, width)) or log_in(tour, names[seat], width, height)
                pages[(seat, width)] = page
                page.goto(f"{tour.server.url}/tables/{table}/")
                page.wait_for_selector(PROMPT[slug])
                assert page.evaluate("document.documentElement.lang") == language
                boxes = page.evaluate(BOXES, [TURN, PROMPT[slug], HAND[slug]])
                shot(
                    page,
                    f"fit-{slug}{'' if language == 'en' else '-' + language}-{drawn}-{width}",
                    full_page=False,
                )
                found = problems_at(boxes, width, height)
                if slug in CHOICES:
                    found += choices_hidden(page.evaluate(CHOICES[slug]), boxes["hand"], width, height)
                found += [f"a word cut across lines: {w}" for w in page.evaluate(SPLIT_WORDS)]
                found += [f"a playable card's ring cut by its row: {c}" for c in page.evaluate(RINGS_CUT)]
                found += [f"a tool out of sight: {t}" for t in page.evaluate(TOOLS_OUT_OF_SIGHT, HAND[slug])]
                playable = page.locator("button.playable:has([data-card])")
                if playable.count():  # (a card focused from the keyboard rises: its ring whole still)
                    playable.last.focus()
                    found += [f"a focused card's ring cut: {c}" for c in page.evaluate(RINGS_CUT)]
                if width in AXE_WIDTHS:
                    found += grave_violations(page)
                if found:
                    failures[
                        f"{slug} ({language}) #{drawn} {sorted(k for k in kind[2])} {kind[:2]} at {width}"
                    ] = found
                page.goto("about:blank")  # its socket closed: the walk's moves render no frame for it
        move = rnd.choice(mine["legal_moves"])
        try:
            api(
                tour.server,
                tokens[seat],
                "POST",
                f"/api/tables/{table}/moves",
                {"move": move, "seq": mine["seq"]},
            )
        except urllib.error.HTTPError as refused:
            raise AssertionError(f"{move} refused: {refused.read().decode()}") from refused
    for page in pages.values():
        page.context.close()
        tour.contexts.remove(page.context)
    assert drawn >= 3, seen
    assert not failures, "\n".join(f"{where}: {'; '.join(found)}" for where, found in failures.items())


# A Cosplay hand of ten (abilities and Drama can draw past the five a turn ends with): six starters and four
# cards that may be placed, each with its buttons under it, in the preparation phase of the seat to play.
LONG_HAND = """
from django.contrib.auth.models import User
from tables import services
from tests.rules.cosplay.helpers import set_hand
from tests.tables.positions import put_state, state_of
users = [User.objects.create_user(n, password={password!r}) for n in {names!r}]
table = services.create_table(users[0], "cosplay", 2, {{}})
services.join_table(table.pk, users[1])
table = services.start_table(table.pk, users[0], seed=2)
state = state_of(table)
state.update(active=0, turn=3, turns=[2, 1], phase="preparation")
set_hand(state, 0, {hand!r})
put_state(table, state)
print("TABLE", table.pk)
"""
TEN_CARDS = [
    *["st-badass", "st-badass", "st-kawaii", "st-kawaii", "st-craft", "st-craft"],
    *["c05-kaiju-tamer", "c13-zombie-cheerleader", "e03-power-armour", "c30-clockwork-fairy"],
]
# The hand's cards and how far its row scrolls sideways, once the board has held still.
HAND_CARDS = when_still("""() => {
    const row = document.querySelector('.cp-hand .hand');
    return {scroll: row.scrollWidth - row.clientWidth, cards: [...row.querySelectorAll(':scope > li > .cp-card')]
        .map(c => { const r = c.getBoundingClientRect();
            return {label: c.dataset.card, top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })};
}""")


# A usual hand of five with cards to place: in French (longer labels) the dock must leave the zones clear too.
FIVE_CARDS = ["st-badass", "st-kawaii", "c05-kaiju-tamer", "c13-zombie-cheerleader", "c30-clockwork-fairy"]


@pytest.mark.parametrize(
    "cards, width, height, lang",
    [
        *[(TEN_CARDS, w, h, lang) for w, h in SIZES for lang in ("en", "fr")],
        *[(FIVE_CARDS, w, h, "fr") for w, h in SIZES],
    ],
    ids=lambda v: {id(TEN_CARDS): "ten", id(FIVE_CARDS): "five"}.get(id(v), str(v)),
)
def test_a_long_cosplay_hand_leaves_the_zones_to_recruit_from_clear_in_english_and_french(
    tour, new_page, cards, width, height, lang
):
    """A hand with Place buttons, at every size and in both languages: the zones the player can recruit from
    (CHOICES) on screen, clear of the docked hand; and on a tablet and a laptop every card of the hand in sight
    with no sideways scroll (on a phone the hand's row scrolls sideways, as in every game)."""
    page = open_cosplay_hand(tour, new_page, cards, width, height, lang)
    assert page.locator(".cp-hand .hand button").count() >= 3  # (the cards' Place buttons)
    hand = page.evaluate(HAND_CARDS)
    boxes = page.evaluate(BOXES, [TURN, PROMPT["cosplay"], HAND["cosplay"]])
    choices = page.evaluate(CHOICES["cosplay"])
    shot(page, f"fit-cosplay-{len(cards)}-cards-{width}-{lang}", full_page=False)
    found = []
    if sorted(c["label"] for c in hand["cards"]) != sorted(cards):
        found.append(f"the hand shows {sorted(c['label'] for c in hand['cards'])}")
    if width > 720 and hand["scroll"] > 0:
        found.append(f"the hand's row scrolls sideways by {hand['scroll']} px")
    found += [
        f"card {c['label']} at {c['left']:.0f}–{c['right']:.0f} × {c['top']:.0f}–{c['bottom']:.0f} px, off screen"
        for c in hand["cards"]
        if width > 720 and not inside(c, width, height)
    ]
    if not choices:
        found.append("no zone to recruit from is drawn")
    found += choices_hidden(choices, boxes["hand"], width, height)
    if width in AXE_WIDTHS:
        found += grave_violations(page)
    assert not found, (
        f"{len(cards)} cards at {width} × {height} in {lang} (dock {boxes['hand']['height']:.0f} px high, "
        f"from {boxes['hand']['top']:.0f} px): " + "; ".join(found)
    )


def open_cosplay_hand(tour, new_page, cards: list[str], width: int, height: int, lang: str):
    """The board of a Cosplay table whose seat 0 holds ``cards`` in its preparation (LONG_HAND), as that player
    sees it in a browser speaking ``lang``, at ``width`` × ``height``."""
    names = [unique("hand0"), unique("hand1")]
    out = tour.server.manage("shell", "-c", LONG_HAND.format(password=PASSWORD, names=names, hand=cards))
    table = next(line for line in out.splitlines() if line.startswith("TABLE ")).removeprefix("TABLE ")
    page = new_page(width, height, locale=lang, timeout=20000)
    page.goto(f"{tour.server.url}/accounts/login/")
    page.fill("input[name=username]", names[0])
    page.fill("input[name=password]", PASSWORD)
    page.click("form.card-form button")
    page.wait_for_url(f"{tour.server.url}/")
    page.goto(f"{tour.server.url}/tables/{table}/")
    page.wait_for_selector(".cp-prompt.mine .end-turn")
    assert page.evaluate("document.documentElement.lang") == lang
    return page
