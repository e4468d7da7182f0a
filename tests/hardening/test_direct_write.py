"""rollcall/wslimits.py writes a frame to the socket at once only when daphne's transport
holds nothing for that peer: a frame that overtook queued bytes would corrupt the
stream. (The end-to-end checks are in test_slow_reader.py.)"""

from __future__ import annotations

from types import SimpleNamespace

from daphne.ws_protocol import WebSocketProtocol

from rollcall.wslimits import _bounded

write_now = _bounded(WebSocketProtocol, 1024)._write_now


class FakeSocket:
    def __init__(self, takes: int | None = None, error: Exception | None = None) -> None:
        self.takes, self.error, self.sent = takes, error, []

    def send(self, data: bytes) -> int:
        if self.error is not None:
            raise self.error
        taken = data if self.takes is None else data[: self.takes]
        self.sent.append(taken)
        return len(taken)


def peer(socket: FakeSocket, **transport) -> SimpleNamespace:
    fields = {"dataBuffer": b"", "_tempDataLen": 0, "connected": True, "disconnecting": False}
    return SimpleNamespace(transport=SimpleNamespace(socket=socket, **{**fields, **transport}))


def test_nothing_queued_the_frame_goes_out_now():
    socket = FakeSocket()
    assert write_now(peer(socket), b"frame") == 5
    assert socket.sent == [b"frame"]


def test_the_kernel_takes_part_the_rest_is_left_to_the_transport():
    socket = FakeSocket(takes=2)
    assert write_now(peer(socket), b"frame") == 2


def test_a_frame_never_overtakes_bytes_the_transport_holds():
    for held in ({"dataBuffer": b"older"}, {"_tempDataLen": 5}):
        socket = FakeSocket()
        assert write_now(peer(socket, **held), b"frame") == 0
        assert socket.sent == []


def test_closing_or_blocked_sockets_leave_the_frame_to_the_transport():
    for state in ({"connected": False}, {"disconnecting": True}):
        socket = FakeSocket()
        assert write_now(peer(socket, **state), b"frame") == 0
        assert socket.sent == []
    assert write_now(peer(FakeSocket(error=BlockingIOError())), b"frame") == 0
    assert write_now(peer(FakeSocket(error=BrokenPipeError())), b"frame") == 0


def test_a_read_reaches_the_frame_parser_without_a_debug_line_formatted_for_it(monkeypatch):
    import autobahn.twisted.websocket as twisted_websocket

    def formatted(*args):
        raise AssertionError("a debug line was formatted for a read")

    monkeypatch.setattr(twisted_websocket, "hltype", formatted)
    monkeypatch.setattr(twisted_websocket, "hlval", formatted)
    bounded = _bounded(WebSocketProtocol, 1024)
    protocol = bounded.__new__(bounded)
    parsed: list[bytes] = []
    protocol._dataReceived = parsed.append
    protocol.dataReceived(b"\x81\x02hi")
    assert parsed == [b"\x81\x02hi"]


def test_a_frame_built_once_goes_out_only_to_an_open_socket_still_within_its_bound():
    bounded = _bounded(WebSocketProtocol, 1024)
    for state, shut, written in (
        (bounded.STATE_OPEN, False, [b"frame"]),
        (bounded.STATE_CLOSING, False, []),
        (bounded.STATE_OPEN, True, []),  # dropped for falling behind: nothing more
    ):
        protocol = bounded.__new__(bounded)
        protocol.state, protocol._shut = state, shut
        sent: list[bytes] = []
        protocol.sendData = sent.append
        protocol.send_frame(b"frame")
        assert sent == written
