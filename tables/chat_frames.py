"""Chat lines, live: a small frame of their own (one appended line), never a board.

After a message commits, its line is rendered once per language and sent to each viewer group of the table
that has a socket (``tables.live``: a group per viewer and language), except the seats whose player muted
the chat. The sockets forward it
as they forward table frames. A socket that connects gets the whole chat panel with its first frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import translation

from tables import live, social


@dataclass
class ChatPublication:
    table: object  # tables.models.Table
    message: object  # tables.models.ChatMessage
    seats: list  # the table's seats as the message was written
    frames: dict = field(default_factory=dict)  # language -> the line's frame

    def frame(self, language: str) -> str:
        if language not in self.frames:
            with translation.override(language):
                line = social.chat_lines([self.message])[0]
                self.frames[language] = render_to_string(
                    "tables/_chat.html#line_oob", {"table": self.table, "line": line}
                )
        return self.frames[language]

    def run(self) -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        readers = [(live.viewer_key(s.index), s.user) for s in social.line_readers(self.message, self.seats)]
        readers.append((live.WATCH, None))
        messages = []
        for key, user in readers:
            for language in live.frame_languages(user):
                group = live.table_group(self.table.pk, key, language)
                if live.has_listeners(layer, group):
                    html = self.frame(language)
                    message = {"type": "table.chat", "key": key, "html": html, "author": self.message.user_id}
                    messages.append((group, message))
        if messages:
            live.send(layer, messages)


def panel_frame(table, seats, user, language: str) -> str:
    """The whole chat panel in ``language``, as an out-of-band swap (a socket's first frame carries it)."""
    with translation.override(language):
        ctx = {"table": table, "oob": True, "user": user, **social.chat_context(table, seats, user)}
        ctx["takeback_moves"] = sorted(table.engine.takeback_moves)
        return render_to_string("tables/_chat.html", ctx)
