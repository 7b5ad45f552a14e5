import json
from functools import lru_cache

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.html import conditional_escape, format_html, json_script
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from tables import games
from tables.parts import SharedNode, SqueezeNode
from tables.texts import MOVE_TIMES

register = template.Library()


@register.simple_tag(takes_context=True)
def move_attrs(context, move):
    """Attributes that make any element post ``move`` when clicked, at the seq the page shows then.

    ``<button {% move_attrs m %}>…</button>`` — the move comes from legal_moves, so the page
    offers exactly what the server accepts. The button carries the move alone (``data-move``): the seq is
    the page's own (its board's ``data-seq``), added as the move leaves (``static/js/site.js``), so a button
    reads the same from one move to the next and a frame that keeps it (tables.frame_diff) need not send it.
    """
    data = json.dumps(move, sort_keys=True, separators=(",", ":"))
    # (While an Undo is on offer, a move that cannot be taken back asks first: static/js/site.js asks, from the
    # page's list of the moves that can, for a button as for a board script's move. The button says nothing of
    # it, so it reads the same whether or not an Undo is on offer, and a frame need not send it again.)
    return format_html(
        'hx-post="{}" hx-swap="none" data-move="{}"',
        _move_url(get_script_prefix(), context["table"].pk),
        data,
    )


move_attrs.reads = ("table.pk",)  # (beyond ``move``: tables.parts)


@lru_cache(maxsize=4096)
def _move_url(script_prefix, table_id):
    """The table's move URL, reversed once per table (and script prefix) rather than once per legal move."""
    return reverse("tables:move", args=[table_id])


@register.simple_tag
def log_line(entry):
    """One line of the move log (``selectors.log_entries``, ``social.interleave``): ``<li data-key>`` with a
    span per sentence, and the kind of line as its class. Drawn here rather than by a template or a kept
    part: every viewer's frame draws a dozen of them after each move, and this takes a fraction of either
    (each piece escaped as ``format_html`` escapes it, without its formatting of the whole)."""
    kind = f' class="log-{conditional_escape(entry["kind"])}"' if entry.get("kind") else ""
    spans = "".join([f"<span>{conditional_escape(line)}</span>" for line in entry["lines"]])
    return mark_safe(f'<li data-key="{conditional_escape(entry["key"])}"{kind}>{spans}</li>')


@register.simple_tag
def log_lines(entries):
    """The log's lines, each as ``log_line`` draws it, in one tag rather than a loop over it: a frame draws its
    viewer's log after every move, and the loop's own steps cost more than the lines."""
    return mark_safe("".join([log_line(entry) for entry in entries]))


@register.filter
def json_data(value, element_id):
    """Like Django's json_script, without the spaces: ``{{ legal_moves|json_data:"cu-moves" }}``."""
    return json_script(value, element_id, encoder=CompactEncoder)


class CompactEncoder(DjangoJSONEncoder):
    item_separator, key_separator = ",", ":"


@register.filter
def index(sequence, i):
    try:
        return sequence[i]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def holds(sequence, item):
    """``item in sequence`` as a value: ``{% with acting=v.to_act|holds:s %}`` (a part keyed by it alone)."""
    try:
        return item in sequence
    except TypeError:
        return False


@register.filter
def same(value, other):
    """``value == other`` as a value: ``{% with me=s|same:viewer %}`` (a part keyed by it alone)."""
    return value == other


@register.filter
def when(value, condition):
    """``value`` if ``condition``, else None: ``{% with phase=v.phase|when:acting %}`` (a part that shows the
    phase only for the seat to act is then not keyed by it for the others)."""
    return value if condition else None


@register.filter
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def of_type(moves, kind):
    return [m for m in moves or [] if m.get("type") == kind]


@register.filter
def values_of(moves, key):
    """The set of move[key] over moves, e.g. the playable cards: legal_moves|of_type:"play"|values_of:"card"."""
    return {m.get(key) for m in moves or [] if key in m}


@register.filter
def grouped_by(moves, key):
    """{move[key]: [the moves with that value, in order]}, e.g. each card's moves: legal_moves|grouped_by:"card"
    (one look-up per card of a hand instead of a pass over all the moves)."""
    groups = {}
    for m in moves or []:
        if key in m:
            groups.setdefault(m[key], []).append(m)
    return groups


@register.filter
def times(n):
    """range(n), for drawing n face-down cards."""
    try:
        return range(int(n))
    except (TypeError, ValueError):
        return range(0)


@register.simple_tag
def game_styles(slug):
    """<link> for the game's stylesheet (its registration's ``css``), in the page head."""
    from django.templatetags.static import static

    return format_html('<link rel="stylesheet" href="{}">', static(games.plugin(slug).css))


@register.simple_tag
def game_script(slug):
    """<script> for the game's script (its registration's ``js``) when it has one (once, in the page head)."""
    from django.templatetags.static import static

    path = games.plugin(slug).js
    if path is None:
        return ""
    return format_html('<script src="{}" defer></script>', static(path))


@register.simple_tag
def game_words(slug):
    """The words a game's script shows (its registration's ``words`` template, in the page's language), once per
    page and never in a frame: the script reads them from there. Empty for a game whose script shows none."""
    template = games.plugin(slug).words
    return mark_safe(render_to_string(template)) if template else ""


@register.filter
def clock_label(seconds):
    """3600 -> "1 h per move"."""
    if seconds in MOVE_TIMES:
        return MOVE_TIMES[seconds]
    hours, rest = divmod(int(seconds), 3600)
    if hours:
        return gettext("%(h)s h %(m)s min per move") % {"h": hours, "m": rest // 60}
    return gettext("%(m)s min per move") % {"m": rest // 60}


@register.tag
def squeeze(parser, token):
    """{% squeeze %}…{% endsqueeze %}: drop the indentation a board's template adds to every frame."""
    nodelist = parser.parse(("endsqueeze",))
    parser.delete_first_token()
    return SqueezeNode(nodelist)


@register.tag
def shared(parser, token):
    """{% shared "name" value… %}…{% endshared %}: a part of a frame drawn once per process for the values it
    reads (``tables.parts``): once per change for a part every viewer sees alike, not again after a move
    that changed none of its inputs. ``value…`` are more inputs, if any, beyond those the part reads (which
    are found when the template loads). Elsewhere (a page) it renders as usual. A test draws every viewer's
    frame of whole games with and without the parts kept and compares them."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% shared %} needs a name.")
    nodelist = parser.parse(("endshared",))
    parser.delete_first_token()
    return SharedNode(parser.compile_filter(bits[1]), [parser.compile_filter(b) for b in bits[2:]], nodelist)


@register.simple_tag
def card(game, code, **look):
    """A card's markup, the game's ``card`` template (its registration's) rendered with only ``code`` and
    ``look`` (extra_class, wild, …): the same card looks the same everywhere, so each look of each card is
    rendered once per process and language. A frame draws dozens of cards; an ``include`` per card was most of
    its time.

    ``{% card "cosmic_crowns" code extra_class="mini" %}``
    """
    ident = look.pop("ident", None)  # an id for the card (a part of live frames: tables.frame_diff)
    try:
        markup = _card(game, code, tuple(sorted(look.items())), get_language())
    except TypeError:  # an unhashable look: drawn without the cache
        markup = _render_card(game, code, look)
    if ident and markup.startswith("<span "):
        markup = format_html('<span id="{}" ', ident) + mark_safe(markup[len("<span ") :])
    return markup


@register.filter
def card_ids(codes, place="h"):
    """Each card of a row (a hand: ``place`` "h"; a game's zones: its own letter) with an id unique in the page
    that stays with the card while it is in that place: ``[(code, "t-<place>-<code>[-<copy>]")]`` (a page shows
    one table) (a second copy of a code gets ``-1``, and so on; an empty slot, None, gets no id)."""
    seen: dict[str, int] = {}
    out = []
    for code in codes or ():
        if not code:
            out.append((code, None))
            continue
        copy = seen[code] = seen.get(code, -1) + 1
        out.append((code, f"t-{place}-{code}" + (f"-{copy}" if copy else "")))
    return out


@lru_cache(maxsize=16384)
def _card(game, code, look, language):
    return _render_card(game, code, dict(look))


def _render_card(game, code, look):
    context = {"code": code, "card_name": card_name(code, game), **look}
    return mark_safe(render_to_string(games.plugin(game).card, context))


@register.filter
def card_name(code, game):
    """A card's name in words in the page's language, from its engine: ``{{ code|card_name:"cosmic_crowns" }}``
    ("Eagle General 2★"); empty where the engine has no name in words for it (its name is then the code), so a
    template can fall back on its own: ``{{ card_name|default:c.name }}``."""
    from rules import registry

    if not code:
        return ""
    lang = (get_language() or "en").split("-")[0]
    name = registry.games()[game].card_name(code, lang)
    return "" if name == code else name


@register.filter
def rating_text(value, provisional):
    """A displayed rating as players read it: "1500?" while provisional, "1623" after (ratings.display_text)."""
    from tables.ratings import display_text

    return display_text(value, bool(provisional))


@register.filter
def signed(change):
    """A change of rating as players read it: "+12", "−8"."""
    from tables.ratings import signed as signed_change

    return signed_change(change)
