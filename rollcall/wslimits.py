"""A bound on what daphne holds for a websocket whose peer stops reading.

daphne hands every "websocket.send" to autobahn, which writes it to twisted's
transport, and the transport buffers without limit when the peer does not read:
one stalled client would grow the server's memory for as long as its table keeps
playing. install() makes daphne build BoundedWebSocketProtocol instead. It is the
transport's streaming producer, so twisted says when its write buffer passes
`bufferSize` (pauseProducing) and when it has drained (resumeProducing); once
more than TABLE_SOCKET_MAX_BUFFER bytes have been queued while paused, the socket
is closed with 1013 ("try again later") and aborted if the peer has not taken the
close frame within ABORT_AFTER seconds. Nothing more is queued for it meanwhile.
The client reconnects with its last_seq and the replay sends what it missed.

The table writes an event's card to all the sockets of an audience as one frame it
built once (`send_frame`, found for a socket's scope by `frame_writer`), instead of
handing autobahn the same text to frame again for each socket.

The same protocol also writes a frame to the socket at once when nothing is queued
for it: twisted's transport queues every write for the reactor's next turn, asking
the poller for writability and then dropping it again, two system calls and a
reactor callback per frame per socket, about a tenth of a busy table's CPU. What
the kernel does not take at once goes through the transport as before.

Only daphne builds these protocols. In the test process (daphne is an installed app,
so its server module is loaded) install() just sets a class attribute nothing there
uses: channels' WebsocketCommunicator drives the application without daphne.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from functools import partial

from daphne.ws_protocol import WebSocketFactory
from django.conf import settings
from twisted.internet.interfaces import IPushProducer
from twisted.internet.tcp import Connection
from zope.interface import implementer

log = logging.getLogger(__name__)

CLOSE_TRY_AGAIN_LATER = 1013
ABORT_AFTER = 1.0  # seconds a dropped peer has to read up to the close frame


_original: type | None = None  # daphne's own protocol class


def install(limit: int | None = None) -> bool:
    """Make daphne's websocket factory build bounded protocols; True if the bound is on.

    A no-op when no daphne server is loaded; a limit of 0 turns the bound off.
    """
    global _original
    if "daphne.server" not in sys.modules:
        return False
    if limit is None:
        limit = settings.TABLE_SOCKET_MAX_BUFFER
    if _original is None:
        _original = WebSocketFactory.protocol
    WebSocketFactory.protocol = _bounded(_original, limit) if limit > 0 else _original
    return limit > 0


def frame_writer(send: Callable) -> Callable[[bytes], None] | None:
    """The peer's send_frame, when `send` is daphne's reply to a bounded protocol
    (functools.partial(server.handle_reply, protocol)); None under any other server,
    and in tests driven by channels' communicator."""
    protocol = send.args[0] if isinstance(send, partial) and send.args else None
    return getattr(protocol, "send_frame", None)


def _bounded(base: type, limit: int) -> type:
    """A subclass of daphne's protocol class `base` that drops peers `limit` bytes behind."""

    @implementer(IPushProducer)
    class BoundedWebSocketProtocol(base):
        _bounded_by = limit
        _paused = False  # twisted's write buffer is past bufferSize
        _queued = 0  # bytes handed to the transport since it paused
        _shut = False  # over the limit: nothing more is written for this peer
        _direct = False  # a plain TCP (or UNIX) socket: frames may be written at once

        def connectionMade(self) -> None:
            super().connectionMade()
            # Not under TLS, where the transport is the TLS protocol, not the socket's.
            self._direct = isinstance(self.transport, Connection) and not getattr(
                self.transport, "TLS", False
            )
            # The HTTP channel daphne upgraded from is still the transport's producer;
            # a transport has one, and that channel serves nothing any more.
            try:
                self.transport.unregisterProducer()
                self.transport.registerProducer(self, True)
            except Exception:
                log.exception("websocket write bound not set for %s", self.transport)
                self._bounded_by = 0

        # IPushProducer, called by the transport
        def pauseProducing(self) -> None:
            if not self._paused:
                self._paused = True
                self._queued = 0

        def resumeProducing(self) -> None:
            self._paused = False
            self._queued = 0

        def stopProducing(self) -> None:
            self._paused = False

        def sendData(self, data: bytes, sync: bool = False, chopsize: int | None = None) -> None:
            if self._shut:
                return
            if self._paused and self._bounded_by:
                self._queued += len(data)
                if self._queued > self._bounded_by:
                    self._drop()
                    return
            if self._direct and not (sync or chopsize or self.send_queue):
                sent = self._write_now(data)
                if sent == len(data):
                    if self.state == self.STATE_OPEN:
                        self.trafficStats.outgoingOctetsWireLevel += sent
                    return
                data = data[sent:]
            super().sendData(data, sync, chopsize)

        def _write_now(self, data: bytes) -> int:
            """How much of `data` the socket took now; 0 while the transport holds
            anything (order) or is closing, or when the socket would block."""
            transport = self.transport
            if (
                transport.dataBuffer
                or transport._tempDataLen
                or not transport.connected
                or transport.disconnecting
            ):
                return 0
            try:
                return transport.socket.send(data)
            except OSError:  # would block, or failed: the transport's write deals with it
                return 0

        def dataReceived(self, data: bytes) -> None:
            # autobahn's own formats a debug line for every read whether or not it is
            # logged (four terminal colourings, 4 % of a busy table's CPU); the same
            # without it.
            self._dataReceived(data)

        def send_frame(self, frame: bytes) -> None:
            """Write a whole websocket frame built once for every socket of an audience
            (table.live.broadcast.text_frame: unmasked, uncompressed, one fragment, as
            autobahn's sendMessage builds a server's frame), through the same bound and
            direct write as any other."""
            if not self._shut and self.state == self.STATE_OPEN:
                self.sendData(frame)

        def serverSend(self, content, binary: bool = False) -> None:
            if not self._shut:  # autobahn refuses to send once closing
                super().serverSend(content, binary)

        def _drop(self) -> None:
            log.warning(
                "websocket %s: %d bytes waiting for a peer that does not read; closing it",
                getattr(self, "client_addr", None),
                self._queued,
            )
            self._bounded_by = 0
            if self.state == self.STATE_OPEN:
                # sendClose() refuses 1013; the frame goes after what is already queued.
                self.sendCloseFrame(code=CLOSE_TRY_AGAIN_LATER, reasonUtf8=b"Too far behind")
            self._shut = True
            from twisted.internet import reactor

            reactor.callLater(ABORT_AFTER, self.dropConnection, True)

    return BoundedWebSocketProtocol
