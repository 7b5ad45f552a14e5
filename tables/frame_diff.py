"""A partial frame: what a viewer's page must change to go from one full frame to the next.

A full frame (``tables.rendering.Snapshot.frame``) is a row of top-level elements, each with an ``id`` and
``hx-swap-oob="true"``: the status, the board, the log. Elements with an ``id`` inside them are its *parts*
(a hand, the trick, a seat), and the parts of a part are its own; a line of the log, known by its
``data-key``, is a part of the log's list (its ``<ol>``, which the page merges line by line, sent whole or on its
own). ``partial(old, new)``
compares two full frames of one viewer and gives the elements that bring a page showing ``old`` to show
exactly ``new``:

- an element unchanged is left out;
- an element whose own markup is unchanged outside its parts (its *skeleton*: its content with each part
  cut out), with the same parts in the same order, is sent as its start tag alone, marked
  ``data-attrs-only`` (the page gives the element these attributes and keeps its content), when its
  attributes changed, followed by its parts that changed, each compared the same way (the board's scripts
  hear of any swap inside the board: ``static/js/site.js``);
- any other element is sent whole, but for its parts that the page already shows as they are now,
  anywhere in it (a card that moved from one zone to the next): each of those is a stub,
  ``<tag id="…" data-kept></tag>``, which the page replaces with its own element of that id, as the page
  was when the frame came (the log's lines are known by their ``data-key``: one stub,
  ``<li data-kept="m38 m39 …"></li>``, stands for the lines next to each other that the page shows as they
  are, which stay where they are: ``static/js/site.js``). Ids are unique in a frame, so an element kept
  somewhere new has left the place it was: that place changed, and is sent too.

Every element sent is the new frame's, so a page that already shows ``new`` is left as it is by the partial
frame too. A partial frame travels only over a table's socket, whose htmx extension (ws) swaps each of a
message's top-level elements out of band by its id whether or not it says so: the elements sent carry no
``hx-swap-oob="true"`` (a full frame's top-level ones do, as it may also answer an HTTP request; another
``hx-swap-oob`` stays). That is 18 bytes an element, a part sent on its own included: 0.25-0.35 KiB of a
median partial frame. When the partial frame would not be smaller
than the full one, the full one is given.

The frames are the site's own templates: well-formed, attribute values quoted and escaped. Only the elements
with an ``id`` are located, and only inside an element that changed: from its id attribute back to its start
tag, then forward to the next end tag of its name, counting the start tags of that name before it (scans that
run in C, over the frame's UTF-8 bytes). An element whose markup is, byte for byte, that of the element of its
id in the viewer's frame before (``Parsed.of(html, like=…)``) ends where that one did, with no search; and the
viewers of one change share what was found for the same element (``partial(…, shared)``) unless it kept a part
from elsewhere in the page, which only that viewer's page may show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OOB = b' hx-swap-oob="true"'
ATTRS_ONLY = b" data-attrs-only"
KEPT = b"data-kept"
KEY = "key:"  # (a part known by its data-key: a line of the log)

# The frames are searched as UTF-8 bytes (encoded once per frame): a slice of them is a copy, not a new
# string whose widest character must be found, and their patterns match a byte at a time.
_ID_TAG = re.compile(
    rb'<([a-zA-Z][a-zA-Z0-9-]*)\b(?:[^>"\']|"[^"]*"|\'[^\']*\')*?\s(id|data-key)="([^"]+)"(?:[^>"\']|"[^"]*"|\'[^\']*\')*>'
)
_ID_ATTR = re.compile(rb'\s(?:id|data-key)="')
_VOID = frozenset(b"area base br col embed hr img input link meta source track wbr".split())
_HX_ATTR = re.compile(rb'\s(?:data-)?(?:hx-|ws-)[a-z-]+="[^"]*"')
_tag_patterns: dict[bytes, re.Pattern] = {}


@dataclass(eq=False)
class Element:
    """One element with an id: its spans in the frame; the elements with an id nearest inside it (its
    ``parts``) are located when first asked for (an element a frame does not change is never searched)."""

    html: bytes
    id: str
    name: bytes
    start: int  # where its start tag begins
    inner: int  # where its start tag ends
    close: int  # where its end tag begins
    end: int  # where its end tag ends
    _parts: list[Element] | None = None
    _skeleton: bytes | None = None  # (its own markup, once asked for: ``skeleton``)

    @property
    def parts(self) -> list[Element]:
        return self.parts_like(None)

    def parts_like(self, was: Element | None) -> list[Element]:
        """Its parts, located with the help of ``was`` (the element it replaces, in the frame before): a part
        that starts as one of ``was``'s parts did, with that part's whole markup, ends where that one did."""
        if self._parts is None:
            self._parts = _level(self.html, self.inner, self.close, was.parts if was is not None else ())
        return self._parts

    @property
    def markup(self) -> bytes:
        return self.html[self.start : self.end]

    @property
    def skeleton(self) -> bytes:
        """Its content with each of its parts cut out (its own markup, which a part does not hold); kept, as
        the element is compared again as the frame before at the next change."""
        if self._skeleton is None:
            html, pieces, at = self.html, [], self.inner
            for part in self.parts:
                pieces.append(html[at : part.start])
                at = part.end
            pieces.append(html[at : self.close])
            self._skeleton = b"\0".join(pieces)
        return self._skeleton

    def same_as(self, other: Element) -> bool:
        """Whether its markup is ``other``'s (of another frame)."""
        return self.end - self.start == other.end - other.start and self.html.startswith(
            other.html[other.start : other.end], self.start
        )


def _opens_of(name: bytes) -> re.Pattern:
    """Start tags of ``name``, each with its closing slash if it closes itself (``<x … />``)."""
    found = _tag_patterns.get(name)
    if found is None:
        found = _tag_patterns[name] = re.compile(
            b"<" + re.escape(name) + rb"""(?=[\s>/])(?:[^>"']|"[^"]*"|'[^']*')*?(/?)>"""
        )
    return found


def _end_of(html: bytes, name: bytes, inner: int) -> tuple[int, int]:
    """(start, end) of the end tag closing the element of tag ``name`` whose start tag ends at ``inner``: the
    next end tag of that name, unless start tags of that name opened before it (each scan runs in C)."""
    opening, close_tag, depth, at = b"<" + name, b"</" + name + b">", 1, inner
    while (close := html.find(close_tag, at)) >= 0:
        if html.find(opening, at, close) >= 0:  # (else none opens before it)
            # (a start tag that closes itself opens nothing)
            depth += _opens_of(name).findall(html, at, close).count(b"")
        depth -= 1
        at = close + len(close_tag)
        if depth == 0:
            return close, at
    raise ValueError(f"<{name.decode()}> not closed")


def _next_id_tag(html: bytes, at: int, end: int) -> re.Match | None:
    """The first start tag with an id (or a data-key) between ``at`` (not inside a tag) and ``end``: found from
    its attribute (attribute values hold no "<": the tag starts at the "<" before it), which is checked."""
    attribute = _ID_ATTR.search(html, at, end)
    if attribute is None:
        return None
    m = _ID_TAG.match(html, html.rfind(b"<", at, attribute.start()), end)
    if m is not None and m.start(2) == attribute.start() + 1:
        return m
    return _ID_TAG.search(html, at, end)  # (not as the site's templates write: the thorough search)


def _element(html: bytes, m: re.Match, like: dict[str, Element] | None = None) -> Element:
    tag, kind, ident = m.groups()
    ident = ident.decode() if kind == b"id" else KEY + ident.decode()
    start, inner = m.span()
    was = like.get(ident) if like else None
    if was is not None and html.startswith(was.html[was.start : was.end], start):
        # (the same markup as the element it replaces, which closed where its markup ends: no search)
        return Element(
            html, ident, was.name, start, inner, start + was.close - was.start, start + was.end - was.start
        )
    name = tag.lower()
    if name in _VOID or html[inner - 2] == 47:  # ("/": a tag that closes itself)
        close = end = inner
    else:
        close, end = _end_of(html, tag, inner)
    return Element(html, ident, name, start, inner, close, end)


def _level(html: bytes, start: int, end: int, like: list[Element] = ()) -> list[Element]:
    """The outermost elements with an id between ``start`` and ``end`` (``like``: those of the element this
    one replaces, in the frame before, whose ends need no search where their markup is unchanged)."""
    found, at = [], start
    known = {e.id: e for e in like} if like else None
    while (m := _next_id_tag(html, at, end)) is not None:
        element = _element(html, m, known)
        found.append(element)
        at = element.end
    return found


def _markup_in(html: bytes, ident: str) -> bytes | None:
    """The markup of the element ``ident`` names in the frame ``html`` (None: there is none)."""
    name = f' data-key="{ident[len(KEY) :]}"' if ident.startswith(KEY) else f' id="{ident}"'
    at = html.find(name.encode())
    if at < 0:
        return None
    m = _ID_TAG.match(html, html.rfind(b"<", 0, at))
    return _element(html, m).markup if m is not None else None


@dataclass
class Parsed:
    """A full frame with its elements located (kept with the frame, so that each is parsed once)."""

    html: str
    data: bytes  # (``html`` in UTF-8: what is searched)
    roots: list[Element]

    @classmethod
    def of(cls, html: str, like: Parsed | None = None) -> Parsed:
        """``html`` located (``like``: the same viewer's frame before, whose unchanged elements need no search)."""
        data = html.encode()
        return cls(html, data, _level(data, 0, len(data), like.roots if like is not None else ()))


def _bare(tag: bytes) -> bytes:
    """A start tag as a partial frame sends it: without ``hx-swap-oob="true"`` (the socket's default)."""
    return tag.replace(OOB, b"", 1)


def _start_tag(html: bytes, element: Element) -> bytes:
    """The element's start tag alone, marked as an attribute update."""
    tag = _bare(html[element.start : element.inner])
    return tag[:-1] + ATTRS_ONLY + b"></" + element.name + b">"


def _kept_lines(keys: list[str]) -> bytes:
    return b"<li " + KEPT + b'="' + " ".join(keys).encode() + b'"></li>'


class _Finding:
    """What one partial frame is found with: ``shared``, what the partial frames of the other viewers of the
    same change found for an element (its markup before and now), or None; ``outside``, whether what is being
    found kept a part the page shows elsewhere (found outside the element it replaces: ``_markup_in``), which
    only this viewer's page may show, so that it is not shared."""

    __slots__ = ("shared", "outside")

    def __init__(self, shared: dict | None):
        self.shared, self.outside = shared, False


def _stubbed(
    html: bytes, element: Element, old: bytes, was: Element, find: _Finding, tag: bytes | None = None
) -> bytes:
    """The element whole, each of its parts that ``old`` shows as they are a stub (``was``: the element it
    replaces, in ``old``, where a part is looked for first)."""
    pieces, at = [tag or html[element.start : element.inner]], element.inner
    lines: list[str] = []  # (kept log lines next to each other: one stub names them all)
    counterparts = {p.id: p for p in was._parts} if was._parts else {}
    for part in element.parts:
        between = html[at : part.start]
        counterpart = counterparts.get(part.id)
        if counterpart is not None:
            same = part.same_as(counterpart)
        elif same := _markup_in(old, part.id) == part.markup:
            find.outside = True
        if lines and (between or not part.id.startswith(KEY) or not same):
            pieces.append(_kept_lines(lines))
            lines = []
        pieces.append(between)
        if not same:
            pieces.append(_stubbed(html, part, old, counterpart or was, find))
        elif part.id.startswith(KEY):
            lines.append(part.id[len(KEY) :])
        else:
            pieces.append(
                b"<" + part.name + b' id="' + part.id.encode() + b'" ' + KEPT + b"></" + part.name + b">"
            )
        at = part.end
    if lines:
        pieces.append(_kept_lines(lines))
    pieces.append(html[at : element.end])
    return b"".join(pieces)


def _diff(old: bytes, o: Element, new: bytes, n: Element, find: _Finding) -> list[bytes]:
    """What brings ``o`` (in ``old``) to show ``n`` (in ``new``): taken from what another viewer's partial frame
    of the same change found for the same markup, when that kept nothing from elsewhere in its page."""
    if n.same_as(o):
        return []
    if find.shared is None:
        return _changed(old, o, new, n, find)
    pair = (o.markup, n.markup)
    got = find.shared.get(pair)
    if got is None:
        outside, find.outside = find.outside, False
        got = _changed(old, o, new, n, find)
        if not find.outside:
            find.shared[pair] = got
        find.outside = find.outside or outside
    return got


def _changed(old: bytes, o: Element, new: bytes, n: Element, find: _Finding) -> list[bytes]:
    old_tag, new_tag = old[o.start : o.inner], new[n.start : n.inner]
    if (
        o.name != n.name
        or [p.id for p in o.parts] != [p.id for p in n.parts_like(o)]
        or _HX_ATTR.findall(old_tag) != _HX_ATTR.findall(new_tag)
        or o.skeleton != n.skeleton
    ):
        # (a stub stands for an element of the one it replaces)
        return [_stubbed(new, n, old, o, find, _bare(new_tag))]
    out = [_start_tag(new, n)] if old_tag != new_tag else []
    for op, np in zip(o.parts, n.parts, strict=True):
        out += _diff(old, op, new, np, find)
    return out


def partial(old: Parsed, new: Parsed, shared: dict | None = None) -> str:
    """The partial frame from ``old`` to ``new`` (two full frames of one viewer), or ``new`` whole when the
    frames do not have the same top-level elements or the partial frame would be no smaller. ``shared``: what
    the partial frames of the other viewers of the same change found (most parts of a board, and the log,
    change alike for every viewer), filled in with what this one finds."""
    if [e.id for e in old.roots] != [e.id for e in new.roots]:
        return new.html
    out: list[bytes] = []
    find = _Finding(shared)
    for o, n in zip(old.roots, new.roots, strict=True):
        out += _diff(old.data, o, new.data, n, find)
    data = b"".join(out)
    return data.decode() if len(data) < len(new.data) else new.html
