"""Daphne's protocols: an oversized request head answered 431 instead of a dropped connection, and the
close codes a server may send that Autobahn keeps an application from sending.

Daphne parses requests with Twisted's ``HTTPChannel``, a ``LineReceiver``: a single line longer than its
``MAX_LENGTH`` (16 KiB, a 20 KB ``Authorization`` header say) makes it close the connection without a word
(``lineLengthExceeded``), and a head whose lines add up to more than ``totalHeadersSize`` (16 KiB too) gets a
bare ``400 Bad Request`` with no body. Here both get ``431 Request Header Fields Too Large`` with a JSON
body saying so (``{"error": ...}``, as the API answers every client error), then the connection closes.

Autobahn, under daphne's sockets, lets an application close a socket with 1000 or 3000-4999 only, and
raises on anything else. RFC 6455 gives a server more: 1009 (message too big), 1011 (internal error),
1012 (service restart) and 1013 (try again later), the codes on which the page's htmx WebSocket extension
reconnects (1011-1013). ``accounts.socket_guard`` closes with them; daphne's ``serverClose`` sends them
as close frames here, and a message over daphne's own bound is closed with 1009 rather than dropped.

``install()`` (called by config.asgi, which daphne imports before it starts listening) wraps daphne's
``HTTPFactory.buildProtocol`` so that every connection's channel answers so, and its socket protocol's
``serverClose``. The limits stay Twisted's.
"""

from __future__ import annotations

import json
import types

HEAD_MAX = 16384  # bytes of request line and headers, Twisted's own bound (HTTPChannel.totalHeadersSize)
MESSAGE = f"The request's headers are too large (at most {HEAD_MAX // 1024} KiB together)."


def too_large_answer() -> bytes:
    body = json.dumps({"error": MESSAGE}).encode()
    head = (
        "HTTP/1.1 431 Request Header Fields Too Large\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def _answer_431(channel) -> None:
    """Answer 431 and close once it is written; what the client still sends is read and thrown away, so
    that closing does not reset the connection before the client has read the answer."""
    if getattr(channel, "_head_refused", False):
        return
    channel._head_refused = True
    channel.dataReceived = lambda data: None
    channel.transport.write(too_large_answer())
    channel.loseConnection()


def _line_length_exceeded(self, line):
    _answer_431(self)


def _line_received(self, line, _original):
    if self._receivedHeaderSize + len(line) > self.totalHeadersSize:
        _answer_431(self)
        return
    _original(line)


def _guard(channel) -> None:
    channel.MAX_LENGTH = HEAD_MAX
    channel.totalHeadersSize = HEAD_MAX
    channel.lineLengthExceeded = types.MethodType(_line_length_exceeded, channel)
    original = channel.lineReceived
    channel.lineReceived = lambda line: _line_received(channel, line, original)


SERVER_CLOSE_CODES = frozenset({1009, 1011, 1012, 1013})


def install() -> None:
    from daphne import http_protocol, ws_protocol

    socket = ws_protocol.WebSocketProtocol
    if not getattr(socket.serverClose, "server_codes", False):
        close = socket.serverClose

        def serverClose(self, code=None):
            if code in SERVER_CLOSE_CODES:
                self.sendCloseFrame(code=code, isReply=False)
            else:
                close(self, code)

        serverClose.server_codes = True
        socket.serverClose = serverClose
        # A message over daphne's own bound (--websocket-max-message-size, 1 MiB): Autobahn fails the
        # connection by dropping it, unless told to close it properly, with 1009.
        sockets = ws_protocol.WebSocketFactory
        made = sockets.__init__

        def __init__(self, *args, **kwargs):
            made(self, *args, **kwargs)
            self.setProtocolOptions(failByDrop=False)

        sockets.__init__ = __init__

    factory = http_protocol.HTTPFactory
    if getattr(factory.buildProtocol, "answers_431", False):
        return
    build = factory.buildProtocol

    def buildProtocol(self, addr):
        protocol = build(self, addr)
        # Twisted's generic protocol picks HTTP/1.1 (or HTTP/2) on the first bytes; its HTTP/1.1 channel is
        # ``_channel``, made at once.
        _guard(getattr(protocol, "_channel", protocol))
        return protocol

    buildProtocol.answers_431 = True
    factory.buildProtocol = buildProtocol
