"""The rules pages: the cards drawn as on the board, the rulebook's worked examples, the game named once."""

import pytest
from django.utils import translation

from tables.templatetags.table_tags import card
from tests.html import card_codes

EXAMPLES = {  # a card each worked example draws, and words of its caption in English and French
    "cosmic_crowns": ("devil-1", "Ben has Eagles, so he must follow", "Ben a des Aigles : il doit suivre"),
    "five_crowns": ("8-club", "the 8 stands for a Queen", "le 8 remplace une Dame"),
    "chronica": ("saint-eustache-de-fly", "(2 + 4) − (6 + 5)", "vous perdez 5 points d’Honneur au lieu de 9"),
    "cosplay": ("c04-star-pirate-queen", "pool their points", "mettent leurs points en commun"),
}


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_rules_page_draws_its_examples_with_the_boards_cards_in_both_languages(game, client):
    code, english, french = EXAMPLES[game]
    for lang, words in (("en", english), ("fr", french)):
        page = client.get(f"/games/{game}/rules/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert words in page
        assert code in card_codes(page)
        with translation.override(lang):
            assert str(card(game, code)) in page  # (the very markup the board draws for that card)
        title = page.split("<h1>")[1].split("</h1>")[0]
        assert page.count(f"<h2>{title}</h2>") == 0 and page.count("<h1>") == 1
        assert f'href="/static/css/games/{game}.css"' in page or f"css/games/{game}" in page


def test_the_rules_page_the_new_table_page_and_the_lobby_offer_learn_to_play(client, alice, client_for):
    assert "Log in to learn to play" in client.get("/games/five_crowns/rules/").content.decode()
    for path in ("/games/five_crowns/rules/", "/games/five_crowns/new/", "/"):
        page = client_for(alice).get(path).content.decode()
        assert 'action="/games/five_crowns/learn/"' in page, path
