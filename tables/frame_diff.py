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
with an ``id`` are located (a search for their end tag, counting the tags of their own name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OOB = ' hx-swap-oob="true"'
ATTRS_ONLY = " data-attrs-only"
KEPT = "data-kept"
KEY = "key:"  # (a part known by its data-key: a line of the log)

_ID_TAG = re.compile(
    r'<([a-zA-Z][a-zA-Z0-9-]*)\b(?:[^>"\']|"[^"]*"|\'[^\']*\')*?\s(id|data-key)="([^"]+)"(?:[^>"\']|"[^"]*"|\'[^\']*\')*>'
)
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_HX_ATTR = re.compile(r'\s(?:data-)?(?:hx-|ws-)[a-z-]+="[^"]*"')
_tag_patterns: dict[str, re.Pattern] = {}


@dataclass(eq=False)
class Element:
    """One element with an id: its spans in the frame; the elements with an id nearest inside it (its
    ``parts``) are located when first asked for (an element a frame does not change is never searched)."""

    html: str
    id: str
    name: str
    start: int  # where its start tag begins
    inner: int  # where its start tag ends
    close: int  # where its end tag begins
    end: int  # where its end tag ends
    _parts: list[Element] | None = None

    @property
    def parts(self) -> list[Element]:
        if self._parts is None:
            self._parts = _level(self.html, self.inner, self.close)
        return self._parts

    @property
    def markup(self) -> str:
        return self.html[self.start : self.end]


def _tags_of(name: str) -> re.Pattern:
    found = _tag_patterns.get(name)
    if found is None:
        found = _tag_patterns[name] = re.compile(
            rf"<(/?){name}(?=[\s>/])(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>", re.I
        )
    return found


def _end_of(html: str, name: str, inner: int) -> tuple[int, int]:
    """(start, end) of the end tag closing the element of tag ``name`` whose start tag ends at ``inner``."""
    depth = 1
    for m in _tags_of(name).finditer(html, inner):
        if m.group(1):
            depth -= 1
            if depth == 0:
                return m.start(), m.end()
        elif not m.group(2):
            depth += 1
    raise ValueError(f"<{name}> not closed")


def _element(html: str, m: re.Match) -> Element:
    name = m.group(1).lower()
    if name in _VOID or m.group(0).endswith("/>"):
        close = end = m.end()
    else:
        close, end = _end_of(html, name, m.end())
    ident = m.group(3) if m.group(2) == "id" else KEY + m.group(3)
    return Element(html, ident, name, m.start(), m.end(), close, end)


def _level(html: str, start: int, end: int) -> list[Element]:
    """The outermost elements with an id between ``start`` and ``end``."""
    found, at = [], start
    while (m := _ID_TAG.search(html, at, end)) is not None:
        element = _element(html, m)
        found.append(element)
        at = element.end
    return found


def elements(html: str) -> list[Element]:
    """The outermost elements with an id in ``html`` (each locates its parts when asked)."""
    return _level(html, 0, len(html))


def _markup_in(html: str, ident: str) -> str | None:
    """The markup of the element ``ident`` names in the frame ``html`` (None: there is none)."""
    name = f' data-key="{ident[len(KEY) :]}"' if ident.startswith(KEY) else f' id="{ident}"'
    at = html.find(name)
    if at < 0:
        return None
    m = _ID_TAG.match(html, html.rfind("<", 0, at))
    return _element(html, m).markup if m is not None else None


@dataclass
class Parsed:
    """A full frame with its elements located (kept with the frame, so that each is parsed once)."""

    html: str
    roots: list[Element]

    @classmethod
    def of(cls, html: str) -> Parsed:
        return cls(html, elements(html))


def _skeleton(html: str, element: Element) -> str:
    """The element's content with each of its parts cut out (its own markup, which a part does not hold)."""
    pieces, at = [], element.inner
    for part in element.parts:
        pieces.append(html[at : part.start])
        at = part.end
    pieces.append(html[at : element.close])
    return "\0".join(pieces)


def _bare(tag: str) -> str:
    """A start tag as a partial frame sends it: without ``hx-swap-oob="true"`` (the socket's default)."""
    return tag.replace(OOB, "", 1)


def _start_tag(html: str, element: Element) -> str:
    """The element's start tag alone, marked as an attribute update."""
    tag = _bare(html[element.start : element.inner])
    return f"{tag[:-1]}{ATTRS_ONLY}></{element.name}>"


def _stubbed(html: str, element: Element, old: str, was: Element, tag: str | None = None) -> str:
    """The element whole, each of its parts that ``old`` shows as they are a stub (``was``: the element it
    replaces, in ``old``, where a part is looked for first)."""
    pieces, at = [tag or html[element.start : element.inner]], element.inner
    lines: list[str] = []  # (kept log lines next to each other: one stub names them all)
    for part in element.parts:
        between = html[at : part.start]
        counterpart = next((p for p in was._parts or () if p.id == part.id), None)
        same = (counterpart.markup if counterpart else _markup_in(old, part.id)) == part.markup
        if lines and (between or not part.id.startswith(KEY) or not same):
            pieces.append(f'<li {KEPT}="{" ".join(lines)}"></li>')
            lines = []
        pieces.append(between)
        if not same:
            pieces.append(_stubbed(html, part, old, counterpart or was))
        elif part.id.startswith(KEY):
            lines.append(part.id[len(KEY) :])
        else:
            pieces.append(f'<{part.name} id="{part.id}" {KEPT}></{part.name}>')
        at = part.end
    if lines:
        pieces.append(f'<li {KEPT}="{" ".join(lines)}"></li>')
    pieces.append(html[at : element.end])
    return "".join(pieces)


def _diff(old: str, o: Element, new: str, n: Element) -> list[str]:
    if old[o.start : o.end] == new[n.start : n.end]:
        return []
    old_tag, new_tag = old[o.start : o.inner], new[n.start : n.inner]
    if (
        o.name != n.name
        or [p.id for p in o.parts] != [p.id for p in n.parts]
        or _HX_ATTR.findall(old_tag) != _HX_ATTR.findall(new_tag)
        or _skeleton(old, o) != _skeleton(new, n)
    ):
        # (a stub stands for an element of the one it replaces)
        return [_stubbed(new, n, old, o, _bare(new_tag))]
    out = [_start_tag(new, n)] if old_tag != new_tag else []
    for op, np in zip(o.parts, n.parts, strict=True):
        out += _diff(old, op, new, np)
    return out


def partial(old: Parsed, new: Parsed) -> str:
    """The partial frame from ``old`` to ``new`` (two full frames of one viewer), or ``new`` whole when the
    frames do not have the same top-level elements or the partial frame would be no smaller."""
    if [e.id for e in old.roots] != [e.id for e in new.roots]:
        return new.html
    out: list[str] = []
    for o, n in zip(old.roots, new.roots, strict=True):
        out += _diff(old.html, o, new.html, n)
    text = "".join(out)
    return text if len(text) < len(new.html) else new.html
