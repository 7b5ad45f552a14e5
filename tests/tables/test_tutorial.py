"""Learn to play: a guided first game against one bot on a fixed deal, its steps pointing at the board."""

import json
import re
from html.parser import HTMLParser

import pytest

from rules import registry
from tables import services, tutorial, worker
from tables.models import Table
from tests.html import moves_posted

GAMES = sorted(tutorial.LESSONS)
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Classes(HTMLParser):
    """Each element's classes with its ancestors', to match the steps' selectors (`.a.b .c`)."""

    def __init__(self):
        super().__init__()
        self.stack, self.found = [], []

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        self.found.append([*self.stack, classes])
        if tag not in VOID:
            self.stack.append(classes)

    def handle_startendtag(self, tag, attrs):
        self.found.append([*self.stack, set((dict(attrs).get("class") or "").split())])

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()


def matches(page: str, selector: str) -> bool:
    """Whether an element of ``page`` matches ``selector``: descendant parts of class names only."""
    parts = [set(p.split(".")[1:]) for p in selector.split()]
    assert all(parts) and all(re.fullmatch(r"(\.[\w-]+)+", p) for p in selector.split()), selector
    parser = _Classes()
    parser.feed(page)
    for chain in parser.found:
        if not parts[-1] <= chain[-1]:
            continue
        wanted = len(parts) - 2
        for classes in reversed(chain[:-1]):
            if wanted < 0:
                break
            if parts[wanted] <= classes:
                wanted -= 1
        if wanted < 0:
            return True
    return False


def test_the_selector_matcher_of_these_tests_tells_apart_what_it_should():
    page = '<div class="a x"><p class="b"><span class="c"></span></p></div><i class="c"></i>'
    assert matches(page, ".a .c") and matches(page, ".a.x .b .c") and matches(page, ".c")
    assert not matches(page, ".b .a") and not matches(page, ".a.y .c") and not matches(page, ".d")


def bots_play(table):
    """The bot's moves (as the worker plays them) until the player is awaited or the game is over."""
    table.refresh_from_db()
    while table.status == Table.PLAYING and tutorial.PLAYER_SEAT not in table.to_act:
        assert worker.play_bot_move(table.pk)
        table.refresh_from_db()
    return table


@pytest.mark.parametrize("game", GAMES)
def test_learn_to_play_opens_a_private_unrated_game_against_one_bot(game, alice, client_for):
    answer = client_for(alice).post(f"/games/{game}/learn/")
    table = Table.objects.get(created_by=alice)
    assert answer.status_code == 302 and answer["Location"] == table.get_absolute_url()
    assert table.guided and table.private and not table.rated and table.status == Table.PLAYING
    seats = list(table.seats.order_by("index"))
    assert [(s.user, s.bot) for s in seats] == [(None, "casual"), (alice, "")]
    assert table.seed == tutorial.LESSONS[game].seed


@pytest.mark.parametrize("game", GAMES)
def test_the_guided_deal_is_the_same_every_time(game, alice, bob):
    first, second = tutorial.start_guided(alice, game), tutorial.start_guided(bob, game)
    assert first.state == second.state
    engine = registry.get(game)
    view = engine.view(engine.load(first.state), tutorial.PLAYER_SEAT)
    assert view["hand"] == engine.view(engine.load(second.state), tutorial.PLAYER_SEAT)["hand"]
    assert bots_play(first).state == bots_play(second).state  # (the bot's moves too)


@pytest.mark.parametrize("game", GAMES)
def test_the_seed_of_a_guided_game_never_reaches_the_player(game, alice, client_for):
    client = client_for(alice)
    client.post(f"/games/{game}/learn/")
    table = Table.objects.get(created_by=alice)
    seed = str(tutorial.LESSONS[game].seed)
    page = client.get(table.get_absolute_url()).content.decode()
    api = client.get(f"/api/tables/{table.pk}").content.decode()
    moves = client.get(f"/api/tables/{table.pk}/moves").content.decode()
    for text in (page, api, moves):
        assert seed not in text and '"seed"' not in text
    assert "guide-steps" in page and "Guided game" in page


def test_a_guided_game_reads_in_french(alice, client_for):
    client = client_for(alice)
    client.post("/games/cosmic_crowns/learn/")
    table = Table.objects.get(created_by=alice)
    page = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Partie guidée" in page and "Passer le guide" in page and "étape {n} sur {total}" in page
    steps = json.loads(re.search(r'id="guide-steps"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert steps[1]["text"].startswith("Le bot a entamé le premier pli")


def test_an_ordinary_table_has_no_guide(alice, bob, started_table, client_for):
    table = started_table("cosmic_crowns", [alice, bob])
    page = client_for(alice).get(table.get_absolute_url()).content.decode()
    assert not table.guided and "guide-steps" not in page and "Guided game" not in page


def test_learn_to_play_refuses_an_unknown_game_and_a_guest(alice, client, client_for):
    answer = client_for(alice).post("/games/no_such_game/learn/", follow=True)
    assert "Unknown game: &#x27;no_such_game&#x27;" in answer.content.decode() and not Table.objects.exists()
    assert client.post("/games/cosmic_crowns/learn/").status_code == 302  # (to the log-in page)
    assert client_for(alice).get("/games/cosmic_crowns/learn/").status_code == 405
    assert not Table.objects.exists()


@pytest.mark.parametrize("game", GAMES)
def test_every_step_points_at_something_on_the_board_the_player_sees_then(game, alice, client_for):
    """The guided game walked as a player would: at each step the board drawn for the player holds the element
    the step points at, and a step that waits for a move of some kind can be answered by one."""
    client = client_for(alice)
    client.post(f"/games/{game}/learn/")
    table = Table.objects.get(created_by=alice)
    engine = table.engine
    for number, step in enumerate(tutorial.LESSONS[game].steps, start=1):
        table = bots_play(table)
        page = client.get(table.get_absolute_url()).content.decode()
        board = page[page.index(f'id="table-{table.pk}-board"') :]
        assert matches(board, step.target), f"step {number}: nothing matches {step.target}"
        if step.wait:
            legal = engine.legal_moves(engine.load(table.state), tutorial.PLAYER_SEAT)
            answers = [m for m in legal if m.get("type") in step.wait]
            assert answers, f"step {number}: no move of the kinds {step.wait}"
            assert any(m.get("type") in step.wait for m in moves_posted(board)), (
                f"step {number}: no button for it"
            )
            services.play_move(table.pk, alice, answers[0], table.seq)
