"""Learn to play on a page: whether a game has a guided first game, and a guided table's steps."""

from django import template

from tables import tutorial

register = template.Library()


@register.filter
def has_lesson(slug):
    return tutorial.lesson(slug) is not None


@register.simple_tag
def guide_steps(table):
    """[{target, text, wait}] in the page's language: what static/js/tutorial.js shows, step by step."""
    return tutorial.steps_for(table)
