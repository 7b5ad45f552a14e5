"""``{{ game.slug|blurb }}``: a game's short description in the page's language (tables.texts)."""

from django import template

from tables import texts

register = template.Library()


@register.filter
def blurb(slug) -> str:
    return texts.blurb(str(slug))
