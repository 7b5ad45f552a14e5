"""Parts of a frame drawn once per process for what they show: ``{% shared %}`` (tables.templatetags.table_tags).

A part's markup is a function of the context values it reads, the language, the site's script prefix and
nothing else. When the part's template is parsed, ``inputs_of`` lists those reads (every variable, filter
argument and tag argument inside it, minus the names the part binds itself: a ``for`` loop's variables, a
``with``'s names, an ``as`` target). When a frame draws the part, the values of those inputs are read from
the context and hashed (``key``); a part drawn before with the same key anywhere in the process is reused.
So a part every viewer sees alike (the trick, the scores) is drawn once per change, and a part whose
inputs did not change since the previous move (a seat's stack of cards, a hand that was not played from,
the round's header) is not drawn again at all. A viewer's own values (their hand, their legal moves) are
inputs like any other: a part that reads them is keyed by them, so nobody gets another viewer's part.

An ``include`` of a named template counts what that template reads. A tag that reads the context beyond
its arguments says what it reads (a ``reads`` attribute on its function, as ``move_attrs`` does); a node
whose reads cannot be known (an ``include`` of a template named by a variable, a tag without ``reads``, a
filter that reads the clock) makes the template fail to load, so a part can never miss an input. A value that is not plain
JSON data (a model instance, a lazy string) makes that part draw without the memo.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import marshal
import re
import threading

from django.template import (
    Node,
    NodeList,
    TemplateSyntaxError,
    Variable,
    VariableDoesNotExist,
    defaultfilters,
)
from django.template.base import FilterExpression, TextNode, TokenType, VariableNode
from django.template.defaulttags import (
    CommentNode,
    ForNode,
    IfNode,
    LoadNode,
    SpacelessNode,
    URLNode,
    WithNode,
)
from django.template.library import SimpleNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.template.smartif import Literal
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.templatetags.static import StaticNode
from django.urls import get_script_prefix
from django.utils.safestring import SafeString
from django.utils.translation import get_language

KEPT_PARTS = 16384  # (the least recently used go first)
_kept: dict[bytes, str] = {}
_lock = threading.Lock()
renders = 0  # parts drawn (not taken from the memo), counted for tests and benchmarks


class Unkeyable(TypeError):
    """A part's input is not plain data: the part is drawn without the memo."""


def inputs_of(nodelist: NodeList, extra: tuple[str, ...] = ()) -> list[Variable]:
    """The context paths a part reads, shortest first covering longer ones (``v`` covers ``v.trick``)."""
    found: set[str] = set(extra)
    _nodes(nodelist, frozenset(), found)
    paths = sorted(found, key=lambda p: (p.count("."), p))
    kept: list[str] = []
    for path in paths:
        if not any(path == k or path.startswith(k + ".") for k in kept):
            kept.append(path)
    return [Variable(p) for p in sorted(kept)]


def _nodes(nodelist, bound: frozenset, found: set) -> None:
    local = set(bound)
    for node in nodelist or ():
        name = _node(node, frozenset(local), found)
        if name:
            local.add(name)  # an ``as`` target: bound for the nodes after it


def _node(node: Node, bound: frozenset, found: set) -> str | None:
    """Add what ``node`` reads to ``found``; return the name it binds for what follows (``as x``), if any."""
    expr = lambda e: _expr(e, bound, found)  # noqa: E731
    if isinstance(node, TextNode | LoadNode | CommentNode):
        return None
    if isinstance(node, VariableNode):
        expr(node.filter_expression)
    elif isinstance(node, IfNode):
        for condition, nodelist in node.conditions_nodelists:
            if condition is not None:
                _condition(condition, bound, found)
            _nodes(nodelist, bound, found)
    elif isinstance(node, ForNode):
        expr(node.sequence)
        _nodes(node.nodelist_loop, bound | set(node.loopvars) | {"forloop"}, found)
        _nodes(node.nodelist_empty, bound, found)
    elif isinstance(node, WithNode):
        for value in node.extra_context.values():
            expr(value)
        _nodes(node.nodelist, bound | set(node.extra_context), found)
    elif isinstance(node, TranslateNode):
        expr(node.filter_expression)
        expr(node.message_context)
        return node.asvar
    elif isinstance(node, BlockTranslateNode):
        for value in node.extra_context.values():
            expr(value)
        expr(node.counter)
        expr(node.message_context)
        local = bound | set(node.extra_context) | {node.countervar}
        for token in [*node.singular, *(node.plural or [])]:
            if token.token_type == TokenType.VAR:
                _variable(Variable(token.contents), local, found)
        return node.asvar
    elif isinstance(node, SimpleNode):
        if node.takes_context:
            reads = getattr(node.func, "reads", None)
            if reads is None:
                raise TemplateSyntaxError(
                    f"{{% shared %}} cannot tell what {node.func.__name__} reads: give the function a `reads`."
                )
            found.update(reads)
        for arg in node.args:
            expr(arg)
        for arg in node.kwargs.values():
            expr(arg)
        return node.target_var
    elif isinstance(node, URLNode):
        expr(node.view_name)
        for arg in [*node.args, *node.kwargs.values()]:
            expr(arg)
        return node.asvar
    elif isinstance(node, StaticNode):
        expr(node.path)
        return node.varname
    elif isinstance(node, SharedNode):
        for value in node.values:
            expr(value)
        _nodes(node.nodelist, bound, found)
    elif isinstance(node, SqueezeNode | SpacelessNode):
        _nodes(node.nodelist, bound, found)
    elif isinstance(node, IncludeNode) and not node.template.is_var:  # a template named in the tag
        for value in node.extra_context.values():
            expr(value)
        included = get_template(node.template.var).template
        _nodes(included.nodelist, bound | set(node.extra_context), found)
    else:
        raise TemplateSyntaxError(f"{{% shared %}} cannot tell what a {type(node).__name__} reads.")
    return None


def _condition(condition, bound, found) -> None:
    if isinstance(condition, Literal):
        _expr(condition.value, bound, found)
        return
    for side in ("first", "second"):
        operand = getattr(condition, side, None)
        if operand is not None:
            _condition(operand, bound, found)


# Filters whose output is not a function of their input alone (the clock, chance).
_IMPURE = {defaultfilters.timesince_filter, defaultfilters.timeuntil_filter, defaultfilters.random}


def _expr(expression, bound, found) -> None:
    if not isinstance(expression, FilterExpression):
        return
    if expression.is_var:
        _variable(expression.var, bound, found)
    for func, args in expression.filters:
        if func in _IMPURE:
            raise TemplateSyntaxError(
                f"{{% shared %}} cannot keep what {func.__name__} draws: it changes by itself."
            )
        for is_variable, arg in args:
            if is_variable:
                _variable(arg, bound, found)


def _variable(variable: Variable, bound, found) -> None:
    lookups = variable.lookups
    if lookups is None or lookups[0] in bound:  # a literal, or a name the part binds
        return
    if lookups[-1] in ("items", "values", "keys"):  # a dict's method: the dict is the input
        lookups = lookups[:-1]
    found.add(".".join(lookups))


_MISSING = {"\x00missing": True}


def _value(variable: Variable, context):
    """``variable``'s value as a template reads it. Plain dicts are looked into directly (what Django does
    first, and all it does for a key the dict holds), and so are the attributes of an object that cannot be
    indexed (a model's field: what Django does once indexing failed) unless callable; anything else goes
    through Django's own lookup."""
    lookups = variable.lookups
    try:
        value = context[lookups[0]]
    except KeyError:
        return _MISSING
    for bit in lookups[1:]:
        if type(value) is dict and bit in value:
            value = value[bit]
            continue
        if not hasattr(type(value), "__getitem__"):  # (a model: Django's lookup tries [bit] first, in vain)
            found = getattr(value, bit, _MISSING)
            if found is not _MISSING and not callable(found):
                value = found
                continue
        try:
            return variable.resolve(context)
        except VariableDoesNotExist:
            return _MISSING
    return value


def _plain(value):
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if isinstance(value, datetime.date):  # (a datetime too)
        return value.isoformat()
    raise Unkeyable(type(value).__name__)


def key(head: tuple, inputs: list[Variable], context) -> bytes:
    """A digest of ``head`` (the part's name, the language, …) and the values of ``inputs`` in ``context``;
    Unkeyable when one is not plain data."""
    values = [_value(v, context) for v in inputs]
    # (markup read whole, ``{% static … as sprite %}``, marked here: marshal takes it, and tells it from text)
    values = [_marked(v) if type(v) is SafeString else v for v in values]
    try:  # (marshal takes exactly the built-in types, faster than JSON; version 2 keeps no references)
        text = b"m" + marshal.dumps((head, values), 2)
    except ValueError:  # (markup deeper in, a date, …: JSON's reading of it, or Unkeyable)
        text = b"j" + json.dumps([head, _marked(values)], separators=(",", ":"), default=_plain).encode()
    return hashlib.blake2b(text, digest_size=16).digest()


def _marked(value):
    """``value`` with its markup (a SafeString, drawn as it is: ``{% static … as sprite %}``) told apart from
    text of the same characters (escaped when drawn)."""
    if isinstance(value, SafeString):
        return ("\0safe", str.__str__(value))
    if type(value) in (list, tuple):
        return [_marked(v) for v in value]
    if type(value) is dict:
        return {k: _marked(v) for k, v in value.items()}
    return value


def drawn(digest: bytes, draw) -> str:
    """The part kept under ``digest`` (now the most recently used), or ``draw()`` kept under it."""
    global renders
    with _lock:
        html = _kept.pop(digest, None)
        if html is not None:
            _kept[digest] = html
            return html
    renders += 1
    html = draw()
    with _lock:
        _kept[digest] = html
        while len(_kept) > KEPT_PARTS:
            _kept.pop(next(iter(_kept)))
    return html


# --- The template nodes of {% squeeze %} and {% shared %} (their tags: tables.templatetags.table_tags) ---


class SqueezeNode(Node):
    def __init__(self, nodelist):
        self.nodelist = nodelist

    def render(self, context):
        return SQUEEZE.sub("\n", self.nodelist.render(context))


# A line break and the whitespace after it: the template's indentation. The browser collapses the run to
# one space anyway (boards hold no <pre> or <textarea>), so one line break draws exactly the same.
SQUEEZE = re.compile(r"\n\s+")


class SharedNode(Node):
    def __init__(self, name, values, nodelist):
        self.name, self.values, self.nodelist = name, values, nodelist
        self.inputs = inputs_of(nodelist)  # (raises TemplateSyntaxError for a read it cannot see)

    def render(self, context):
        where = context.get(SHARED_PARTS)  # (the frame read it once for all its parts: ``frame_head``)
        if not where:
            return self.nodelist.render(context)
        head = (
            str.__str__(self.name.resolve(context)),  # (the literal's SafeString as a plain str: ``key``)
            *where,
            context.autoescape,
            context.use_l10n,  # (a frame's numbers are not localized: tables/table.html's partials)
            [v.resolve(context) for v in self.values],
        )
        try:
            digest = key(head, self.inputs, context)
        except Unkeyable:
            return self.nodelist.render(context)
        return drawn(digest, lambda: self.nodelist.render(context))


# Where a frame's context holds its ``frame_head()`` (tables.rendering.Snapshot): its parts are kept.
SHARED_PARTS = "shared_parts"


def frame_head() -> tuple[str, str]:
    """What every part of a frame is drawn under besides its inputs: the language and the script prefix. A
    frame puts it under ``SHARED_PARTS``, read once for its parts instead of once per part."""
    return get_language(), get_script_prefix()
