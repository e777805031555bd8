"""The opening handshake, sans I/O: the same request for any split of its bytes, a bad one
refused with the same status and words however it arrives, and the answers' bytes."""

from __future__ import annotations

import base64
import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.edge.handshake import (
    NOT_WEBSOCKET,
    Handshake,
    HandshakeError,
    HandshakeReader,
    accept_key,
    refusal,
    switching_protocols,
)
from tests.strategies import pieces

KEY = base64.b64encode(bytes(range(16))).decode()

names = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,15}", fullmatch=True).filter(
    lambda name: name.lower() not in ("upgrade", "sec-websocket-key", "sec-websocket-version")
)
values = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=30)
paths = st.sampled_from(
    [
        "/api/rounds/7/stream",
        "/api/games/12/stream?since=3",
        "/api/rounds/7/stream?boards=2-9&token=rly_abc",
        "/api/games/x/stream?since=last",
        "/elsewhere",
    ]
)


@st.composite
def requests(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """A client's upgrade request (its head), with some other headers among the usual
    ones; and what it sends behind it (frames, to the reader: any bytes)."""
    headers = [
        ("Host", "relay.example"),
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", base64.b64encode(draw(st.binary(min_size=16, max_size=16))).decode()),
        ("Sec-WebSocket-Version", "13"),
    ]
    extra = draw(st.lists(st.tuples(names, values), max_size=6))
    at = draw(st.integers(min_value=0, max_value=len(headers)))
    headers[at:at] = extra
    lines = [f"GET {draw(paths)} HTTP/1.1"]
    lines += [f"{name}: {value}" for name, value in headers]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode()
    return head, draw(st.binary(max_size=40))


def read_in(chunks: list[bytes], reader: HandshakeReader | None = None) -> tuple[Handshake, bytes]:
    """The request read from ``chunks`` fed in turn (none after its head ends), and all
    that came after its head."""
    reader = reader or HandshakeReader()
    for n, chunk in enumerate(chunks):
        handshake = reader.feed(chunk)
        if handshake is not None:
            return handshake, handshake.rest + b"".join(chunks[n + 1 :])
    raise AssertionError("the head never ended")


def refused_in(chunks: list[bytes], reader: HandshakeReader | None = None) -> tuple[int, str]:
    """The status and reason ``chunks`` are refused with, fed in turn."""
    reader = reader or HandshakeReader()
    for chunk in chunks:
        try:
            assert reader.feed(chunk) is None
        except HandshakeError as refused:
            return refused.status, refused.reason
    raise AssertionError("not refused")


@given(st.data())
def test_any_split_of_a_request_reads_the_same(data):
    head, behind = data.draw(requests())
    whole, after = read_in([head + behind])
    assert (whole.head, after) == (head, behind)
    split, after_split = read_in(data.draw(pieces(head + behind)))
    assert dataclasses.replace(split, rest=b"") == dataclasses.replace(whole, rest=b"")
    assert after_split == behind
    assert whole.websocket_key() == whole.header(b"sec-websocket-key")


def test_byte_by_byte_nothing_until_the_blank_line():
    head = (
        b"GET /api/rounds/7/stream?token=t HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
        % KEY.encode()
    )
    reader = HandshakeReader()
    assert [reader.feed(head[n : n + 1]) for n in range(len(head) - 1)] == [None] * (len(head) - 1)
    handshake = reader.feed(head[-1:])
    assert handshake is not None
    assert (handshake.method, handshake.path, handshake.query) == (
        "GET",
        "/api/rounds/7/stream",
        "token=t",
    )
    assert handshake.header(b"upgrade") == "websocket"
    assert handshake.headers[0] == (b"host", b"x")
    assert (handshake.head, handshake.rest) == (head, b"")
    assert handshake.websocket_key() == KEY


BAD_HEADS = {
    b"GET /api/rounds/7/stream\r\nHost: x\r\n\r\n": "not an HTTP request line: "
    "'GET /api/rounds/7/stream'",
    b"GET /a b HTTP/1.1\r\n\r\n": "not an HTTP request line: 'GET /a b HTTP/1.1'",
    b"GET / HTTP/1.1\r\nHost x\r\n\r\n": "not a header line: 'Host x'",
    b"GET / HTTP/1.1\r\n folded: line\r\n\r\n": "not a header line: ' folded: line'",
    b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n": "not a header line: 'Bad Name: x'",
    b"GET / HTTP/1.1\r\n: empty\r\n\r\n": "not a header line: ': empty'",
}


@pytest.mark.parametrize("head", BAD_HEADS)
def test_an_unreadable_head_is_refused_400_in_words(head):
    assert refused_in([head + b"\x81"]) == (400, BAD_HEADS[head])


@given(st.sampled_from(sorted(BAD_HEADS)), st.data())
def test_an_unreadable_head_is_refused_the_same_however_it_arrives(head, data):
    assert refused_in(data.draw(pieces(head))) == (400, BAD_HEADS[head])


@given(st.integers(min_value=40, max_value=80), st.integers(min_value=-3, max_value=3), st.data())
def test_a_head_longer_than_the_limit_is_refused_431_however_it_arrives(limit, over, data):
    request = b"GET / HTTP/1.1\r\nX: "
    head = request + b"y" * (limit + over - len(request) - 4) + b"\r\n\r\n"
    assert len(head) == limit + over
    chunks = data.draw(pieces(head + b"behind"))
    if over <= 0:
        assert read_in(chunks, HandshakeReader(limit))[0].head == head
    else:
        reason = f"the handshake is longer than {limit} bytes"
        assert refused_in(chunks, HandshakeReader(limit)) == (431, reason)


def test_a_head_that_never_ends_is_refused_once_it_reaches_the_limit():
    reader = HandshakeReader(64)
    assert reader.feed(b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 7) is None  # 58 bytes
    with pytest.raises(HandshakeError) as refused:
        reader.feed(b"X: y\r\n")
    assert refused.value.status == 431


def opening(**changes: str) -> Handshake:
    headers = {"upgrade": "websocket", "sec-websocket-key": KEY, "sec-websocket-version": "13"}
    method = changes.pop("method", "GET")
    headers.update(changes)
    fields = tuple((name.encode(), value.encode()) for name, value in headers.items())
    return Handshake(method, "/api/rounds/1/stream", "", fields, b"", b"")


def test_a_websocket_opening_gives_its_key_and_anything_else_is_not_one():
    assert opening().websocket_key() == KEY
    assert opening(upgrade="WebSocket").websocket_key() == KEY
    for changed in (
        {"method": "POST"},
        {"upgrade": "h2c"},
        {"sec-websocket-version": "8"},
        {"sec-websocket-key": "short"},
        {"sec-websocket-key": base64.b64encode(bytes(17)).decode()},
        {"sec-websocket-key": "not base64 at all!!!!!!="},
        {"sec-websocket-key": "é" * 24},
    ):
        with pytest.raises(HandshakeError) as refused:
            opening(**changed).websocket_key()
        assert (refused.value.status, refused.value.reason) == (400, NOT_WEBSOCKET), changed


def test_the_last_of_a_repeated_header_counts():
    handshake = read_in([b"GET / HTTP/1.1\r\nX-A: 1\r\nx-a:  2 \r\n\r\n"])[0]
    assert handshake.header(b"x-a") == "2"
    assert handshake.header(b"missing") == ""


def test_accept_key_is_the_rfc_example():
    # RFC 6455 section 1.3.
    assert accept_key(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert switching_protocols("dGhlIHNhbXBsZSBub25jZQ==") == (
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    )


def test_a_refusal_is_json_and_says_when_to_come_back():
    answer = refusal(429, "too many requests; slow down", 2.4)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n") == [
        b"HTTP/1.1 429 Too Many Requests",
        b"content-type: application/json",
        b"retry-after: 2",
        b"connection: close",
        b"content-length: %d" % len(body),
    ]
    assert json.loads(body) == {"detail": "too many requests; slow down"}
    assert b"retry-after" not in refusal(400, "no")
