"""The rules pages' pictures: cards drawn exactly as on the board (the same ``card`` tag and partials)."""

from django import template
from django.utils.html import format_html_join

from tables.templatetags.table_tags import card

register = template.Library()


@register.simple_tag
def example_cards(game, codes, **look):
    """``<li>`` per card of ``codes`` (space-separated), each drawn by the game's ``_card.html`` with ``look``
    (``wild=7``…): ``<ol class="rules-cards">{% example_cards "five_crowns" "5-heart 6-heart" wild=7 %}</ol>``."""
    return format_html_join("", "<li>{}</li>", ((card(game, code, **look),) for code in codes.split()))
