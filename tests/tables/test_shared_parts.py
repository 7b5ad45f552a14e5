"""{% shared %}: a frame's parts are drawn once per process for the values they read (tables.parts), and a
frame drawn with them is exactly the frame drawn without, move after move (no viewer ever gets another
viewer's part, nor a part of an earlier position)."""

import random

import pytest
from django.template import Context, Engine, TemplateSyntaxError

from rules import registry
from tables import parts, rendering, services
from tables.models import Table

pytestmark = pytest.mark.django_db


def frames(table, users, memo: bool) -> dict:
    """Every viewer's frame (each seat, a spectator) in each language, from one snapshot as a change draws
    them: with the parts kept, or every part drawn anew."""
    snapshot = rendering.Snapshot.read(table)
    snapshot.memo = memo
    return {
        (lang, user.username if user else None): snapshot.frame(user, lang)
        for lang in ("en", "fr")
        for user in [*users, None]
    }


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_a_frame_drawn_with_kept_parts_is_the_frame_drawn_without(game, make_user, started_table):
    engine = registry.games()[game]
    users = [make_user(f"p{i}") for i in range(min(4, engine.max_players))]
    table = started_table(game, users)
    rnd = random.Random(7)
    for _ in range(60):
        table = Table.objects.get(pk=table.pk)
        assert frames(table, users, memo=True) == frames(table, users, memo=False)
        if table.status != Table.PLAYING:
            break
        state = table.engine.load(table.state)
        seat = table.to_act[0]
        move = rnd.choice(table.engine.legal_moves(state, seat))
        services.play_move(table.pk, users[seat], move, table.seq)


def test_a_part_every_viewer_sees_alike_is_drawn_once_and_not_again_while_it_does_not_change(
    make_user, started_table, monkeypatch
):
    monkeypatch.setattr(parts, "_kept", {})  # (earlier tests drew this very position)
    users = [make_user(f"p{i}") for i in range(4)]
    table = started_table("cosmic_crowns", users)
    snapshot = rendering.Snapshot.read(table)
    snapshot.frame(users[0], "en")
    first = parts.renders
    for user in [*users[1:], None]:
        snapshot.frame(user, "en")
    again = parts.renders - first
    # The other viewers draw only their own parts (hands, prompts, the status of their seat); the round's
    # header, the seats' stacks, the trick, the log are the first viewer's.
    assert 0 < again <= 4 * 6
    before = parts.renders
    for user in [*users, None]:
        rendering.Snapshot.read(Table.objects.get(pk=table.pk)).frame(user, "en")
    assert parts.renders == before  # the same position again: nothing drawn anew


# Parts keyed by what they show: each of these once read a value it does not show (Cosplay's objectives the
# whole view, its mat and prompt every legal move, its turn bar and Chronica's prompt the viewer, Five Crowns'
# seat chips the phase), so each change drew it again, for every viewer, to give the markup it had given before.
KEYED_BY_WHAT_THEY_SHOW = {
    "chronica": {"cu-prompt", "cu-prompt-waiting", "cu-side", "cu-province"},
    "cosplay": {
        "cp-objectives",
        "cp-mat",
        "cp-turnbar",
        "cp-prompt",
        "cp-prompt-waiting",
        "cp-prompt-to-play",
    },
    "five_crowns": {"fc-seat"},
}


@pytest.mark.parametrize("game", sorted(KEYED_BY_WHAT_THEY_SHOW))
def test_a_part_is_not_drawn_again_to_give_the_markup_it_gave_before(
    game, make_user, started_table, monkeypatch
):
    monkeypatch.setattr(parts, "_kept", {})
    names, given, again = [], set(), []
    shared_render, drawn = parts.SharedNode.render, parts.drawn

    def render(node, context):  # (the name of the part being drawn, for the draws inside it)
        names.append(str(node.name.resolve(context)))
        try:
            return shared_render(node, context)
        finally:
            names.pop()

    def draw_and_note(digest, draw):
        name = names[-1]

        def noted():
            html = draw()
            if name in KEYED_BY_WHAT_THEY_SHOW[game] and (name, html) in given:
                again.append(name)
            given.add((name, html))
            return html

        return drawn(digest, noted)

    monkeypatch.setattr(parts.SharedNode, "render", render)
    monkeypatch.setattr(parts, "drawn", draw_and_note)
    users = [make_user(f"p{i}") for i in range(4)]
    table = started_table(game, users)
    rnd = random.Random(5)
    for _ in range(60):
        table = Table.objects.get(pk=table.pk)
        snapshot = rendering.Snapshot.read(table)
        for user in [*users, None]:
            snapshot.frame(user, "en")
        if table.status != Table.PLAYING:
            break
        seat = table.to_act[0]
        move = rnd.choice(table.engine.legal_moves(table.engine.load(table.state), seat))
        services.play_move(table.pk, users[seat], move, table.seq)
    assert KEYED_BY_WHAT_THEY_SHOW[game] <= {name for name, _ in given}  # (each was drawn)
    assert not again, sorted(again)


def template(source: str):
    engine = Engine(
        libraries={"table_tags": "tables.templatetags.table_tags", "i18n": "django.templatetags.i18n"}
    )
    return engine.from_string("{% load table_tags i18n %}" + source)


def inputs(source: str) -> list[str]:
    template_ = template(source)
    node = next(n for n in template_.nodelist if type(n).__name__ == "SharedNode")
    return [v.var for v in node.inputs]


def test_a_parts_inputs_are_what_it_reads_but_not_the_names_it_binds():
    assert inputs(
        '{% shared "p" %}{% for e in v.trick %}{{ e.card|index:n }}{% with x=w.y %}{{ x }}{% endwith %}'
        '{% endfor %}{% if a.b in c %}{% translate "t" as t %}{{ t }}{% endif %}{% endshared %}'
    ) == ["a.b", "c", "n", "v.trick", "w.y"]
    # A name bound outside the part (here by a loop around it) is one of its inputs.
    assert inputs('{% shared "p" %}{{ m.lines }}{% endshared %}') == ["m.lines"]
    # The shortest path read covers the longer ones.
    assert inputs('{% shared "p" %}{{ v.a }}{{ v }}{{ v.b.c }}{% endshared %}') == ["v"]


@pytest.mark.parametrize(
    "source",
    [
        '{% shared "p" %}{% include name %}{% endshared %}',  # which template, hence its reads, is unknown
        '{% shared "p" %}{{ deadline|timeuntil }}{% endshared %}',  # it changes by itself
        '{% shared "p" %}{% csrf_token %}{% endshared %}',  # a tag that reads the context: not declared
    ],
)
def test_a_part_whose_reads_cannot_be_known_does_not_load(source):
    with pytest.raises(TemplateSyntaxError):
        inputs(source)


def test_a_part_whose_input_is_not_plain_data_is_drawn_every_time(monkeypatch):
    monkeypatch.setattr(parts, "_kept", {})
    part = template('{% shared "p" %}{{ thing }}{% endshared %}')

    class Thing:
        def __init__(self, name):
            self.name = name

        def __str__(self):
            return self.name

    before = parts.renders
    for name in ("a", "b", "a"):
        assert part.render(Context({"thing": Thing(name), parts.SHARED_PARTS: parts.frame_head()})) == name
    assert parts.renders == before  # (not through the memo: a Thing has no value to key it by)
    # A part that reads plain values is kept: drawn once per value.
    part = template('{% shared "p" %}{{ thing.name }}{% endshared %}')
    for name in ("a", "b", "a"):
        assert part.render(Context({"thing": Thing(name), parts.SHARED_PARTS: parts.frame_head()})) == name
    assert parts.renders == before + 2


def test_a_part_tells_markup_from_text_of_the_same_characters(monkeypatch):
    """Text is escaped when drawn, markup (a SafeString: ``{% static … as sprite %}``) is not: a part keyed by
    one is never given for the other, at the top of an input or deep in it."""
    from django.utils.safestring import mark_safe

    monkeypatch.setattr(parts, "_kept", {})
    one = template('{% shared "p" %}{{ x }}{% endshared %}')
    many = template('{% shared "p" %}{% for i in x.items %}{{ i }}{% endfor %}{% endshared %}')
    for part, wrap in ((one, lambda v: v), (many, lambda v: {"items": [v]})):
        drawn = [
            part.render(Context({"x": wrap(value), parts.SHARED_PARTS: parts.frame_head()}))
            for value in ("<b>", mark_safe("<b>"), "<b>", mark_safe("<b>"))
        ]
        assert drawn == ["&lt;b&gt;", "<b>", "&lt;b&gt;", "<b>"]


def test_a_parts_input_is_read_as_djangos_lookup_reads_it():
    """``parts._value`` looks into dicts and into the attributes of objects that cannot be indexed by itself;
    whatever the path, it reads what Django's own lookup reads (a method is called, a missing name is missing)."""
    from django.template import Variable

    class Seat:
        index = 2
        replaced = False

        @property
        def label(self):
            return f"seat {self.index}"

        def name(self):
            return "called"

    context = Context({"me": Seat(), "v": {"crowns": [1, 2], "seat": Seat()}, "names": ["a", "b"]})
    for path in ("me.index", "me.replaced", "me.label", "me.name", "v.crowns", "v.seat.label", "names.1"):
        assert parts._value(Variable(path), context) == Variable(path).resolve(context), path
    for path in ("me.nothing", "v.nothing", "names.5", "nobody.index"):
        assert parts._value(Variable(path), context) is parts._MISSING, path


def test_a_log_line_is_drawn_as_the_template_drew_it_escaped():
    """The move log's lines come from ``{% log_line %}``: the markup the log's template drew for them, each
    sentence escaped (a player's name is theirs to choose), the kind of line as its class when it has one."""
    from django.utils.safestring import mark_safe

    from tables.templatetags.table_tags import log_line

    assert log_line({"key": "m3", "lines": ["<b>Al</b> & co played", "Bo drew"]}) == (
        '<li data-key="m3"><span>&lt;b&gt;Al&lt;/b&gt; &amp; co played</span><span>Bo drew</span></li>'
    )
    assert log_line({"key": "e7", "kind": "event", "lines": [mark_safe("<i>joined</i>")]}) == (
        '<li data-key="e7" class="log-event"><span><i>joined</i></span></li>'
    )
    assert log_line({"key": "m4", "kind": "", "lines": []}) == '<li data-key="m4"></li>'
