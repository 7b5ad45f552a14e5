"""A table page's live part as the browser keeps it, frame after frame: what static/js/site.js and htmx do
with a socket's message, done on the markup (read with Python's own HTML parser, not tables.frame_diff's
search), so that a test can compare the page a run of frames leaves with a full render.

The page is the frame's top-level elements (status, board, log) as they stand in the page once swapped
in: htmx takes ``hx-swap-oob`` off an element it swaps. A message is applied element by element, as htmx
does (in order, each aimed at the page's element of its id):

- ``data-attrs-only``: the page's element takes its attributes, in its order (site.js ``setAttributes``),
  and keeps its content;
- the log (``.move-log``), or its list of lines alone (``<ol id="table-<id>-lines">``): its title takes the
  frame's words unless kept; its lines become the frame's, in the frame's order with the text between them, a
  line the frame keeps (``data-kept``) or shows as the page has it staying the page's (site.js's merge);
- anything else replaces the page's element, each stub (``data-kept``) in it first replaced by the page's
  element of its id as the page was when the message came (site.js holds them then): a kept element may
  come from elsewhere in the page, whose place the same message swaps too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
OOB = ' hx-swap-oob="true"'


@dataclass
class Node:
    tag: str
    attrs: dict
    start: int
    inner: int
    close: int = -1
    end: int = -1
    children: list = field(default_factory=list)


def parse(html: str) -> list[Node]:
    """The elements of ``html`` as a tree of spans (offsets into ``html``)."""
    lines = [0]
    for m in re.finditer("\n", html):
        lines.append(m.end())
    roots: list[Node] = []
    stack: list[Node] = []

    class Reader(HTMLParser):
        def at(self) -> int:
            line, col = self.getpos()
            return lines[line - 1] + col

        def add(self, tag, attrs, closed):
            start = self.at()
            node = Node(tag, dict(attrs), start, start + len(self.get_starttag_text()))
            (stack[-1].children if stack else roots).append(node)
            if closed or tag in VOID:
                node.close = node.end = node.inner
            else:
                stack.append(node)

        def handle_starttag(self, tag, attrs):
            self.add(tag, attrs, False)

        def handle_startendtag(self, tag, attrs):
            self.add(tag, attrs, True)

        def handle_endtag(self, tag):
            at = self.at()
            node = stack.pop()
            assert node.tag == tag, (node.tag, tag, html[at - 80 : at + 20])
            node.close, node.end = at, html.index(">", at) + 1

    reader = Reader(convert_charrefs=False)
    reader.feed(html)
    reader.close()
    assert not stack, [n.tag for n in stack]
    return roots


def walk(nodes):
    for node in nodes:
        yield node
        yield from walk(node.children)


def by_id(html: str, ident: str) -> Node:
    found = [n for n in walk(parse(html)) if n.attrs.get("id") == ident]
    assert len(found) == 1, (ident, len(found))
    return found[0]


def page_of(frame: str) -> str:
    """The page's live part after a full frame: its top-level elements without ``hx-swap-oob``."""
    return "".join(_no_oob(frame[n.start : n.end]) for n in parse(frame))


def live(page: str) -> str:
    """The status, board and log of a page (a socket's first frame also holds the chat)."""
    return "".join(
        page[n.start : n.end]
        for n in parse(page)
        if re.search(r"-(status|board|log)$", n.attrs.get("id", ""))
    )


def _no_oob(element: str) -> str:
    cut = element.index(">") + 1
    return element[:cut].replace(OOB, "", 1) + element[cut:]


def apply(page: str, message: str) -> str:
    nodes = parse(message)
    held = {
        stub.attrs["id"]: _markup(page, stub.attrs["id"])
        for stub in walk(nodes)
        if "data-kept" in stub.attrs and stub.attrs.get("id")
    }
    for node in nodes:
        page = _apply_one(page, _no_oob(message[node.start : node.end]), held)
    return page


def _markup(page: str, ident: str) -> str:
    node = by_id(page, ident)
    return page[node.start : node.end]


def _apply_one(page: str, element: str, held: dict[str, str]) -> str:
    (fresh,) = parse(element)
    target = by_id(page, fresh.attrs["id"])
    if "data-attrs-only" in fresh.attrs:
        tag = element[: fresh.inner].replace(" data-attrs-only", "", 1)
        return page[: target.start] + tag + page[target.inner :]
    if "move-log" in target.attrs.get("class", ""):
        return _merge_log(page, target, element, fresh)
    if target.attrs.get("id", "").endswith("-lines"):  # (the log's list of lines, sent on its own)
        return _merge_lines(page, target, element, fresh)
    out, at = [], 0
    for stub in walk([fresh]):
        if "data-kept" not in stub.attrs:
            continue
        out += [element[at : stub.start], held[stub.attrs["id"]]]
        at = stub.end
    out.append(element[at:])
    return page[: target.start] + "".join(out) + page[target.end :]


def _merge_log(page: str, target: Node, element: str, fresh: Node) -> str:
    def find(root: Node, tag: str) -> Node:
        return next(n for n in walk([root]) if n.tag == tag)

    title, new_title = find(target, "h2"), find(fresh, "h2")
    lines, new_lines = find(target, "ol"), find(fresh, "ol")
    title_text = (
        page[title.inner : title.close]
        if "data-kept" in new_title.attrs
        else element[new_title.inner : new_title.close]
    )
    page = _merge_lines(page, lines, element, new_lines)
    return page[: title.inner] + title_text + page[title.close :]


def _merge_lines(page: str, lines: Node, element: str, new_lines: Node) -> str:
    """The log's list of lines as site.js merges the frame's into the page's (by their keys)."""
    have = {li.attrs.get("data-key", ""): page[li.start : li.end] for li in lines.children}
    wanted, at = [], new_lines.inner
    for li in new_lines.children:
        wanted.append(element[at : li.start])  # (the text between the lines, as the frame has it)
        key = li.attrs.get("data-key", "")
        if li.attrs.get("data-kept"):  # (lines kept, by their keys)
            wanted += [have[k] for k in li.attrs["data-kept"].split(" ")]
        elif "data-kept" in li.attrs:
            assert key in have, key
            wanted.append(have[key])
        else:
            wanted.append(element[li.start : li.end])
        at = li.end
    wanted.append(element[at : new_lines.close])
    return page[: lines.inner] + "".join(wanted) + page[lines.close :]
