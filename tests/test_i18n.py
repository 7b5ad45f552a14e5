"""French and English: every page of the site's own (not the game boards) in both languages, the language
chosen by the browser, then by the header's switcher and kept on the account; e-mails in the recipient's
language; and the compiled catalogue up to date with its source.

The untranslated-string check renders each page in English and in French and reads the text a person sees
(text nodes and the attributes read aloud or shown on hover). A piece of text found unchanged in both is an
untranslated string unless, once the names are taken out (usernames, bots, games, the site, Chronica's
printed card words, numbers), nothing that reads as a word is left, or it is one of the few words French
spells the same (SAME_IN_FRENCH). The site's pages skip the game boards (``.table-body``) and card faces
(``data-card``); the table pages read the boards too: every game's table as each seat and a spectator
mid-game, finished, and replayed. The boards in every kind of prompt of the four games and the deck builder
are read with their card faces, both ways: no English on the French page, and no French card data (Chronica's
categories, eras, classes, domains, slots) on the English one; only a card's name stays as printed.
"""

from __future__ import annotations

import base64
import gettext
import random
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from accounts.models import Deck, OutgoingMail, Preference
from rules import registry
from tables import services
from tables.models import BOT_NAMES, Table
from tests.tables.history_games import finished, finished_game
from tests.tables.test_services import play_random

LOCALE = Path(settings.BASE_DIR) / "locale"
ATTRIBUTES = (
    "title",
    "aria-label",
    "placeholder",
    "alt",
    "data-confirm",
    "hx-confirm",
    "data-one",
    "data-many",
)
SKIPPED = {"script", "style", "code"}
# Words French writes as English does, each checked by hand ("Type", "Date", "Mode de jeu", "un Assassin",
# "les clans", "1 bot", the Cosplay rulebook's own "Influence", "Sacrifice", "Fatigue", "duo", "trio" …).
SAME_IN_FRENCH = {
    *("Type", "Date", "Mode", "Bots", "bots", "bot", "Decks", "Deck", "Page", "Action", "Actions", "Bonus"),
    *("Drama", "Score", "Assassin", "clans", "Influence", "Sacrifice", "Fatigue", "duo", "trio", "Message"),
    *("Joker", "Jokers", "Total", "pts", "Initialisation", "Pile", "Zone", "Raptor", "Menu", "Notifications"),
    "table",  # (a link to a table by its number: "table 12")
    # Chronica's card words that English and French share: a category, an era, a domain and their short forms.
    *("Arts", "Renaissance", "Prestige", "Saint", "MA", "Ant", "Ren", "mulligan"),
}
# Printed words that are names in both languages (Cosplay's resources and its La Passion card), and what
# the people of the fixture named themselves (a token, decks, a made-up card code).
PRINTED = {"BADASS", "KAWAII", "CRAFT", "La Passion"}
USER_CONTENT = {"robot", "Ma cour", "Brouillon", "nope"}
DATE = re.compile(r"\d{1,2} \w{3} \d{4}(, \d\d:\d\d)?")  # "j M Y": Mar, Apr … read the same in French


class VisibleText(HTMLParser):
    """The text a person sees or hears on a page, one entry per text node or read-aloud attribute."""

    def __init__(self, boards: bool = False, cards: bool = False):
        super().__init__(convert_charrefs=True)
        self.boards = boards  # read the game boards too (a table page's own test)
        self.cards = cards  # and the card faces (all but a card's name are words of the page's language)
        self.texts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)

    def skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        board = not self.boards and "table-body" in (attrs.get("class") or "").split()
        skip = tag in SKIPPED or ("data-card" in attrs and not self.cards) or board
        if not (self.skipping() or skip):
            for name in ATTRIBUTES:
                if attrs.get(name):
                    self.add(attrs[name])
        if tag not in {"br", "img", "input", "meta", "link", "hr", "source", "polyline", "path", "use"}:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.skipping():
            self.add(data)

    def add(self, text):
        text = " ".join(text.replace("\u00ad", "").split())  # (a soft hyphen shows only where a line breaks)
        if text:
            self.texts.append(text)


def visible(page: str, boards: bool = False, cards: bool = False) -> list[str]:
    parser = VisibleText(boards, cards)
    parser.feed(page)
    return parser.texts


def names() -> set[str]:
    """What stays the same in every language: people, bots, games, the site, Chronica's card names."""
    import rules.chronica as chronica
    from accounts.forms import time_zones

    words = {
        "Card Club",
        "English",
        "Français",
        "API",
        "JSON",
        "openskill",
        "mu",
        "CU1",
        *PRINTED,
        *USER_CONTENT,
    }
    words |= {"alice", "bob", "charlie", *BOT_NAMES}
    words |= {game.title for game in registry.games().values()}
    words |= {card["name"] for card in chronica.catalog()}
    words |= {s["name"] for s in chronica.starter_decks()}
    words |= {card["name"] for card in cosplay_catalog()}  # printed in English, the same on French pages
    words |= {label for _zone, label in time_zones()}  # the IANA zones' own names, offered on the profile
    return words


def cosplay_catalog() -> list[dict]:
    from rules.cosplay.cards import catalog

    return catalog()


def french_card_words() -> set[str]:
    """Chronica's card data in French where English says it otherwise: categories, eras and their corner
    abbreviations, classes, domains, the province's rows."""
    from rules.chronica import cards as C
    from rules.chronica import powers as P
    from tables.templatetags.chronica import ERA_SHORT

    pairs = [
        *((P.CATEGORY_WORDS["fr"][k], P.CATEGORY_WORDS["en"][k]) for k in C.CATEGORIES),
        *((P.ERA_WORDS["fr"][k], P.ERA_WORDS["en"][k]) for k in C.ERAS),
        *((ERA_SHORT["fr"][k], ERA_SHORT["en"][k]) for k in C.ERAS),
        *C.CLASS_WORDS["en"].items(),
        *((P.DOMAIN_WORDS["fr"][k], P.DOMAIN_WORDS["en"][k]) for k in C.DOMAINS),
        ("Frontière", "Frontier"),
        ("Arrière-pays", "Hinterland"),
        ("frontière", "frontier"),
        ("arrière-pays", "hinterland"),
    ]
    return {fr for fr, en in pairs if fr != en and len(fr) > 1}


def french_left(english: list[str]) -> list[str]:
    """Texts of an English page that hold a French card word once the names (cards' and starter decks' as
    printed, people's) are taken out."""
    printed = re.compile(
        r"(?<!\w)(" + "|".join(map(re.escape, sorted(names(), key=len, reverse=True))) + r")(?!\w)"
    )
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, french_card_words())) + r")(?![\w-])")
    left = []
    for text in sorted(set(english)):
        if pattern.search(printed.sub(" ", text)):
            left.append(text)
    return left


def untranslated(english: list[str], french: list[str]) -> list[str]:
    """Texts of the English page found unchanged on the French one that still hold a word once the names
    are taken out."""
    proper = re.compile(
        r"(?<!\w)(" + "|".join(map(re.escape, sorted(names(), key=len, reverse=True))) + r")(?!\w)"
    )
    left = []
    for text in sorted(set(english) & set(french)):
        rest = proper.sub(" ", DATE.sub(" ", text))
        words = [w for w in re.findall(r"[^\W\d_]{2,}", rest) if w not in SAME_IN_FRENCH]
        if words:
            left.append(text)
    return left


def get(client: Client, url: str, language: str, status=200) -> str:
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == status, (url, language, answer.status_code)
    body = answer.content.decode()
    if "<html" in body:
        assert f'<html lang="{language}">' in body, (url, language)
    return body


def assert_translated(client: Client, urls, status=200, boards=False, cards=False):
    failures, french_words = {}, {}
    for url in urls:
        english = visible(get(client, url, "en", status), boards, cards)
        french = visible(get(client, url, "fr", status), boards, cards)
        assert english != french, url
        left = untranslated(english, french)
        if left:
            failures[url] = left
        if cards and french_left(english):
            french_words[url] = french_left(english)
    assert not failures, f"English left on French pages: {failures}"
    assert not french_words, f"French card words on English pages: {french_words}"


# --- Every page, both languages ---------------------------------------------------------------------


@pytest.fixture
def world(db, alice, bob, charlie, started_table):
    """A club with something on every page: finished, open and waiting tables, decks, a token, ratings."""
    from accounts.models import ApiToken

    finished("cosmic_crowns", [alice, bob], [0], [3, 1], day=2)
    finished("five_crowns", [alice, bob, None], [1], [40, 12, 60], day=3)
    finished("cosmic_crowns", [alice, bob], [0, 1], [2, 2], day=4)
    replayed = finished_game("cosmic_crowns", [alice, bob], seed=3)
    waiting = started_table("five_crowns", [alice, bob])
    open_table = services.create_table(bob, "cosmic_crowns", 3, {"mode": "hard"})
    aborted = Table.objects.create(game="five_crowns", players=2, status=Table.ABORTED, created_by=alice)
    import rules.chronica as chronica

    legal = Deck.create_for(alice, "Ma cour", list(chronica.starter_decks()[0]["cards"]))
    broken = Deck.create_for(alice, "Brouillon", ["charles-le-chauve", "charles-le-chauve", "nope"])
    ApiToken.issue(alice, "robot")
    alice.email = "alice.new@example.com"  # not verified yet: the profile says so
    alice.save()
    return {
        "replayed": replayed,
        "waiting": waiting,
        "open": open_table,
        "aborted": aborted,
        "legal": legal,
        "broken": broken,
    }


def test_every_page_of_a_visitor_is_french_for_a_french_browser(world):
    slugs = list(registry.games())
    urls = [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/password/reset/sent/",
        "/accounts/password/reset/MQ/not-a-token/",
        "/accounts/password/reset/complete/",
        "/offline/",
        "/leaderboards/",
        *[f"/leaderboards/{slug}/" for slug in slugs],
        *[f"/games/{slug}/rules/" for slug in slugs],
        "/players/alice/",
        "/decks/catalog/",
        "/decks/starters/couronne-et-foi/",
        f"/tables/{world['replayed'].pk}/replay/",
        f"/tables/{world['open'].pk}/join-area/",
    ]
    assert_translated(Client(), urls)
    assert_translated(Client(), [f"/tables/{world['aborted'].pk}/replay/"], status=409)


def test_every_page_of_a_player_is_french_for_a_french_browser(world, client_for, bob, charlie):
    alice_client = client_for(world["legal"].owner)
    slugs = list(registry.games())
    urls = [
        "/",
        "/your-turn/",
        "/history/",
        "/history/?result=won",
        "/history/?game=nothing",  # a filter error
        "/accounts/profile/",
        "/accounts/password/",
        "/accounts/password/done/",
        "/decks/",
        "/decks/new/",
        f"/decks/{world['legal'].pk}/",
        f"/decks/{world['broken'].pk}/",
        "/decks/new/?code=CU1-NOTACODE",
        "/decks/catalog/?pick=1",
        "/players/bob/",
        "/live/",
        "/following/",
        "/players/bob/challenge/",
        "/me/delete/",
        *[f"/games/{slug}/new/" for slug in slugs],
        f"/tables/{world['replayed'].pk}/replay/?seat=0",
    ]
    assert_translated(alice_client, urls)
    assert_translated(client_for(charlie), [f"/tables/{world['open'].pk}/join-area/", "/your-turn/"])


def test_forms_errors_and_messages_are_french(world, client):
    bad_signup = {"username": "x" * 40, "email": "nope", "password1": "a", "password2": "b"}
    english = visible(
        client.post("/accounts/signup/", bad_signup, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    french = visible(client.post("/accounts/signup/", bad_signup, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Un nom d’utilisateur compte au plus 30 caractères (celui-ci en a 40)." in french
    assert not untranslated(english, french)
    wrong = {"username": "alice", "password": "wrong"}
    french = visible(client.post("/accounts/login/", wrong, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert any("nom d’utilisateur" in t or "nom d'utilisateur" in t for t in french), french
    client.force_login(world["legal"].owner)
    answer = client.post(f"/decks/{world['legal'].pk}/delete/", HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    assert "Deck «\u00a0Ma cour\u00a0» supprimé." in answer.content.decode()


@override_settings(DEBUG=False)
def test_the_error_pages_are_french(world):
    assert_translated(Client(), ["/tables/987654/", "/no/such/page/"], status=404)


# --- The tables: every game's board, mid-game, finished and replayed -----------------------------------


# How far into each game the mid-game page is drawn: past the deal, with cards played and piles grown.
MID_GAME = {"cosmic_crowns": 5, "five_crowns": 7, "chronica": 6, "cosplay": 4}


@pytest.mark.parametrize("slug", list(MID_GAME))
def test_every_games_table_is_french_for_its_players_and_spectators(
    slug, alice, bob, started_table, client_for
):
    table = play_random(started_table(slug, [alice, bob]), [alice, bob], MID_GAME[slug], random.Random(5))
    assert table.status == Table.PLAYING
    # A clock on the table: its choice and the time left are words too.
    deadline = datetime.now(UTC) + timedelta(hours=30)
    Table.objects.filter(pk=table.pk).update(move_time=3600, deadline=deadline)
    url = f"/tables/{table.pk}/"
    for user in (alice, bob):  # the seat awaited and the seat waiting
        assert_translated(client_for(user), [url], boards=True)
    assert_translated(Client(), [url], boards=True)


@pytest.mark.slow
@pytest.mark.parametrize("slug", list(MID_GAME))
def test_every_games_finished_table_and_replay_are_french(slug, alice, bob, client_for):
    table = finished_game(slug, [alice, bob])
    urls = [f"/tables/{table.pk}/", f"/tables/{table.pk}/replay/", f"/tables/{table.pk}/replay/?seat=0"]
    assert_translated(client_for(alice), urls, boards=True)
    assert_translated(Client(), urls[:2], boards=True)


def prompt_kind(table) -> tuple:
    """What the acting seat is asked: the phase, a pending choice, and the kinds of move it may make."""
    engine = table.engine
    state = engine.load(table.state)
    seat = table.to_act[0]
    view = engine.view(state, seat)
    pending = view.get("pending")
    pending = pending.get("kind") if isinstance(pending, dict) else pending
    return view.get("phase"), pending, frozenset(m["type"] for m in engine.legal_moves(state, seat))


# Cosmic Crowns in hard mode (bids) with three players (the Assassin and the Thief come up), the others at two;
# Chronica with and without its cards' powers (with them, the hand lists its cards' powers).
PROMPT_GAMES = [
    ("cosmic_crowns", 3, {"mode": "hard"}),
    ("five_crowns", 2, {}),
    ("chronica", 2, {}),
    ("chronica", 2, {"powers": True}),
    ("cosplay", 2, {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "slug,players,options",
    PROMPT_GAMES,
    ids=[f"{g}{'-' if o else ''}{'-'.join(o)}" for g, _, o in PROMPT_GAMES],
)
def test_every_kind_of_prompt_of_every_game_reads_in_one_language(
    slug, players, options, alice, bob, charlie, started_table, client_for
):
    """A seeded game walked through its first 800 moves (Cosmic Crowns, Chronica and Cosplay to their end): at
    the first of each phase, pending choice and kind of move, the board
    of the seat asked and of a seat waiting, card faces included, is all French in French and all English
    (card names aside) in English."""
    users = [alice, bob, charlie][:players]
    clients = {user.pk: client_for(user) for user in users}
    table = started_table(slug, users, options)
    rnd, seen_kinds, seen_moves, drawn = random.Random(7), set(), set(), 0
    for _ in range(800):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            break
        phase, pending, moves = prompt_kind(table)
        if (phase, pending) not in seen_kinds or not moves <= seen_moves:
            seen_kinds.add((phase, pending))
            seen_moves |= moves
            acting = users[table.to_act[0]]
            waiting = next(user for k, user in enumerate(users) if k not in table.to_act)
            url = f"/tables/{table.pk}/"
            for user in (acting, waiting):
                assert_translated(clients[user.pk], [url], boards=True, cards=True)
            french = get(clients[acting.pk], url, "fr")
            assert "Vous doit" not in french
            drawn += 1
        play_random(table, users, 1, rnd)
    assert table.status == Table.FINISHED or slug == "five_crowns"
    assert drawn >= 3, seen_kinds


def test_the_deck_builder_reads_in_one_language_card_faces_and_filters_included(alice, client_for):
    import rules.chronica as chronica

    deck = Deck.create_for(alice, "Ma cour", list(chronica.starter_decks()[0]["cards"]))
    urls = [
        "/decks/new/",
        f"/decks/{deck.pk}/",
        "/decks/catalog/",
        "/decks/catalog/?category=foi&era=Moyen+%C3%82ge&domain=erudition&sort=erudition",
        "/decks/catalog/?kind=building&category=savoir&pick=1",
        "/decks/starters/couronne-et-foi/",
        "/decks/",
    ]
    assert_translated(client_for(alice), urls, cards=True)
    english = get(client_for(alice), urls[3], "en")
    assert ">Faith</option>" in english and ">Middle Ages</option>" in english


def test_the_one_language_checks_would_catch_french_card_words_and_english_left():
    english = ["Saint Martin de Tours", "Roi · Moyen Âge", "Frontier", "Château de Vincennes"]
    assert french_left(english) == ["Roi · Moyen Âge"]
    assert untranslated(["Frontier", "King · Middle Ages"], ["Frontier", "Roi · Moyen Âge"]) == ["Frontier"]


def test_an_open_table_is_french_for_its_creator_and_a_visitor(alice, client_for):
    table = services.create_table(
        alice, "cosmic_crowns", 3, {"mode": "hard", "reverse": True}, move_time=5400
    )
    assert_translated(client_for(alice), [f"/tables/{table.pk}/"])
    page = get(client_for(alice), f"/tables/{table.pk}/", "fr")
    assert "Mode\u00a0: difficile" in page and "pendule\u00a0: 1 h 30 min par coup" in page, page
    assert_translated(Client(), [f"/tables/{table.pk}/"])


# --- Which language ---------------------------------------------------------------------------------


def lang_of(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def test_the_browser_decides_on_a_first_visit(db):
    c = Client()
    assert lang_of(c.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5").content.decode()) == "fr"
    assert lang_of(c.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()) == "en"
    assert lang_of(c.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()) == "en"
    assert lang_of(c.get("/").content.decode()) == "en"
    assert c.get("/", HTTP_ACCEPT_LANGUAGE="fr").headers["Content-Language"] == "fr"


def test_a_visitor_switches_and_the_cookie_keeps_it(db):
    c = Client()
    page = c.get("/decks/catalog/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="language" value="fr"' in page and "Français" in page
    answer = c.post(
        "/i18n/setlang/", {"language": "fr", "next": "/decks/catalog/"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 302 and answer["Location"] == "/decks/catalog/"
    page = c.get("/decks/catalog/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert lang_of(page) == "fr" and 'name="language" value="en"' in page
    # An address off the site is not followed; an unknown language changes nothing.
    assert c.post("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"})["Location"] == "/"
    c.post("/i18n/setlang/", {"language": "xx"})
    assert lang_of(c.get("/").content.decode()) == "en"


def test_a_players_choice_is_kept_on_the_account_and_wins_over_the_browser(alice):
    phone = Client()
    phone.force_login(alice)
    phone.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert Preference.objects.get(user=alice).language == "fr"
    laptop = Client()  # another browser, English, no cookie
    laptop.force_login(alice)
    assert lang_of(laptop.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == "fr"
    laptop.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert lang_of(phone.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()) == "en"
    # Signed out, the browser (or the cookie) decides again.
    phone.post("/accounts/logout/")
    assert lang_of(Client().get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()) == "fr"


def test_signing_up_keeps_the_language_it_was_done_in_and_mails_in_it(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    c = Client()
    data = {
        "username": "dana",
        "email": "dana@example.com",
        "password1": "pl4y-cards-well",
        "password2": "pl4y-cards-well",
    }
    answer = c.post("/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    assert "Bienvenue, dana\u00a0!" in answer.content.decode()
    assert Preference.objects.get(user__username="dana").language == "fr"
    mail = OutgoingMail.objects.get(to="dana@example.com")
    assert mail.subject == "Confirmez votre adresse e-mail pour Card Club"
    assert mail.body.startswith("Bonjour dana,") and "/accounts/email/verify/" in mail.body


def test_turn_and_reminder_mail_go_out_in_each_recipients_language(alice, bob, started_table, settings):
    from datetime import timedelta

    from django.utils import timezone

    from tables import worker

    Preference.objects.create(user=bob, language="fr")
    for first, second, expected in [
        (alice, bob, "À vous de jouer\u00a0: Five Crowns n° {pk}"),  # bob, left of the dealer, starts
        (bob, alice, "Your turn: Five Crowns #{pk}"),
    ]:
        table = started_table("five_crowns", [first, second])
        (mail,) = OutgoingMail.objects.all()
        assert mail.to == second.email and mail.subject == expected.format(pk=table.pk), mail.subject
        OutgoingMail.objects.all().delete()
    table.move_time = 3600
    now = timezone.now()
    table.deadline = now + timedelta(minutes=5, seconds=30)
    table.save()
    table.seats.update(awaited=True)
    assert worker.send_reminders(now) == 2
    mails = {mail.to: mail for mail in OutgoingMail.objects.all()}
    assert mails["bob@example.com"].subject.startswith("Rappel\u00a0: à vous de jouer")
    assert "Il vous reste environ 5 minutes" in mails["bob@example.com"].body
    assert mails["alice@example.com"].subject.startswith("Reminder: your move at Five Crowns")


def test_platform_errors_follow_the_readers_language(alice, bob, started_table, client_for):
    table = started_table("five_crowns", [alice, bob])
    waiting = bob if table.to_act == [0] else alice
    answer = client_for(waiting).post(
        f"/tables/{table.pk}/move/", {"move": '{"type": "draw"}', "seq": table.seq}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert answer.status_code == 403 and "Ce n’est pas à vous de jouer." in answer.content.decode()


# --- Chronica's deck sentences (rules.core Texts, worded in the reader's language) ---------------------


def bad_deck_codes() -> list[str]:
    """A deck code for each way decode_deck refuses one a person can type."""
    import rules.chronica as chronica

    checksum = chronica.cards._checksum

    def code(raw: bytes) -> str:
        return "CU1-" + base64.b32encode(raw).decode().rstrip("=")

    wrong_checksum = bytes(b ^ 0xFF for b in checksum(b"\x00"))
    return [
        "XX1-AAAA",
        "CU1-!!!!",
        "CU1-AE",
        code(b"\x00" + wrong_checksum),
        code(b"\xfa" + checksum(b"\xfa")),
    ]


def refusal_of(decode, text):
    try:
        decode(text)
    except ValueError as exc:
        return exc
    raise AssertionError(f"{text!r} was accepted")


def test_a_french_reader_sees_every_deck_problem_and_deck_code_error_in_french(alice, client_for):
    """The deck builder shows the rules' deck problems and deck-code errors in French (no English left)."""
    from django.utils import translation
    from django.utils.html import escape

    import rules.chronica as chronica
    from accounts.decks import check_deck

    c = client_for(alice)
    cards = chronica.starter_decks()[0]["cards"][:29] + ["roland", "no-such-card"]
    problems = chronica.validate_deck([*cards, "roland"])
    assert len(problems) == 3  # the size, a card twice, an unknown card
    page = c.post(
        "/decks/draft/", {"cards": cards, "op": "add", "card": "roland"}, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    for problem in problems:
        assert escape(problem.words("fr")) in page and escape(problem) not in page, problem
    refusals = [refusal_of(chronica.decode_deck, text) for text in bad_deck_codes()]
    assert len({exc.text.template for exc in refusals}) == len(refusals)  # each a sentence of its own
    for text, refused in zip(bad_deck_codes(), refusals, strict=True):
        page = c.post(
            "/decks/draft/", {"cards": ["roland"], "op": "import", "code": text}, HTTP_ACCEPT_LANGUAGE="fr"
        ).content.decode()
        assert escape(refused.words("fr")) in page and escape(str(refused)) not in page, text
    page = c.get("/decks/new/", {"code": "hello"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ce n’est pas un code de deck Chronica (il devrait commencer par CU1-)." in page
    assert refusal_of(chronica.decode_deck, 5).words("fr") == "Un code de deck est du texte."
    with translation.override("fr"), pytest.raises(ValueError) as caught:
        check_deck("chronica", ["roland"])
    assert str(caught.value) == "Un deck compte exactement 30 cartes ; celui-ci en a 1."


# --- The catalogue ---------------------------------------------------------------------------------


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural, msgstr / msgstr[n], flags."""
    import ast

    entries, current, key = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#,"):
            current = {"flags": line[2:].replace(",", " ").split()}
            entries.append(current)
            continue
        match = re.match(r"^(msgid|msgid_plural|msgstr(?:\[\d\])?) (\".*\")$", line)
        if match:
            key = match.group(1)
            if key == "msgid" and (current is None or "msgid" in current):
                current = {"flags": []}
                entries.append(current)
            current[key] = ast.literal_eval(match.group(2))
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
    return [e for e in entries if e.get("msgid")]


def test_the_french_catalogue_is_complete_and_not_fuzzy():
    entries = po_entries(LOCALE / "fr" / "LC_MESSAGES" / "django.po")
    assert len(entries) > 300
    for entry in entries:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        translations = [v for k, v in entry.items() if k.startswith("msgstr")]
        assert translations and all(translations), f"untranslated: {entry['msgid']!r}"
        for placeholder in re.findall(r"%\(\w+\)[sdr]", entry["msgid"]):
            assert all(placeholder in t for t in translations), (entry["msgid"], placeholder)


def test_the_committed_mo_is_what_msgfmt_makes_of_the_po(tmp_path):
    """`make setup` compiles the .po with msgfmt where gettext is installed; elsewhere the committed .mo
    serves. Both must say the same."""
    if shutil.which("msgfmt") is None:
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_GETTEXT", "gettext's msgfmt is not installed")
    for po in LOCALE.glob("*/LC_MESSAGES/django.po"):
        fresh = tmp_path / f"{po.parent.parent.name}.mo"
        subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True, capture_output=True)
        with fresh.open("rb") as a, po.with_suffix(".mo").open("rb") as b:
            compiled, committed = gettext.GNUTranslations(a), gettext.GNUTranslations(b)
        assert committed._catalog == compiled._catalog, f"{po.with_suffix('.mo')} is stale: run make messages"


def test_the_live_your_turn_badge_speaks_its_owners_language(alice, bob):
    from tables.notifications import badge

    Preference.objects.create(user=bob, language="fr")
    assert 'title="0 table vous attend"' in badge(bob) and 'title="0 table vous attend"' in badge(bob.pk)
    assert 'title="0 tables waiting for you"' in badge(alice)


@pytest.mark.django_db
@override_settings(DEBUG=False, ROOT_URLCONF="tests.test_error_pages")
def test_the_server_error_page_is_french():
    client = Client(raise_request_exception=False)
    english = client.get("/boom/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    french = client.get("/boom/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert lang_of(french) == "fr" and "Un problème est survenu de notre côté" in french
    assert not untranslated(visible(english), visible(french))
