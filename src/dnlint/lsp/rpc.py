"""JSON-RPC 2.0 framing over a byte stream, as LSP's base protocol defines it.

A message is a header block (``Content-Length: N``, optionally ``Content-Type``), a blank
line, then N bytes of UTF-8 JSON. Only frames are written to the output stream: anything
else on stdout would corrupt the protocol.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any, BinaryIO

# JSON-RPC and LSP error codes
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_FAILED = -32803

MAX_HEADER_LINE = 8192  # a header line longer than this is not LSP
MAX_HEADER_LINES = 32  # nor is a header block of more lines than this
# a frame larger than this is refused before it is read: the largest cfg dnlint reads is
# 256 MiB, and a JSON-escaped one is at most six times that
MAX_CONTENT_LENGTH = 6 * 256 * 1024 * 1024 + 65536
# a header's name is an RFC 7230 token
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")

# LSP's number types (``integer``, ``uinteger``): a number a client sends outside them is not
# one LSP allows, and is never used as it is (Python's ints are unbounded, the C calls and
# other clients they reach are not: ``os.kill`` of a pid past 2**31 raises OverflowError)
INTEGER_MIN, INTEGER_MAX = -(2**31), 2**31 - 1
UINTEGER_MAX = 2**31 - 1


class FramingError(Exception):
    """The stream is not a sequence of LSP frames (the client is gone or broken)."""


def integer(value: Any, low: int = INTEGER_MIN, high: int = INTEGER_MAX) -> int | None:
    """``value`` when it is a JSON integer within ``low..high`` (LSP's ``integer`` by
    default), else None: every number a client sends goes through here (or
    :func:`clamped`) before it is used."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


def clamped(value: Any, low: int = 0, high: int = UINTEGER_MAX) -> int | None:
    """A JSON integer brought into ``low..high`` (LSP's ``uinteger`` by default: a position
    past the end of a document is its end); None when ``value`` is not an integer."""
    if isinstance(value, int) and not isinstance(value, bool):
        return max(low, min(value, high))
    return None


def valid_id(value: Any) -> bool:
    """Whether ``value`` is an id a request may carry (LSP: ``integer | string``)."""
    return isinstance(value, str) or integer(value) is not None


def read_message(stream: BinaryIO) -> Any | None:
    """The next message's JSON value; None at the end of the stream. A frame whose body is
    not JSON gives the :data:`PARSE_ERROR` marker dict ``{"__parse_error__": reason}``.

    A header block that is not LSP's raises :class:`FramingError`: without a valid
    ``Content-Length`` nothing says where its body ends, so every later byte would be read
    out of step (headers taken for a body, a body for headers) and the server would never
    answer again; the connection is ended instead, and the client can start a new one."""
    length = _header_block(stream)
    if length is None:
        return None
    body = stream.read(length)
    if len(body) < length:
        return None  # the stream ended inside a frame
    try:
        value = json.loads(body.decode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return {"__parse_error__": str(exc)}
    # a body of 'null' is a frame, not the end of the stream: it is answered as any other
    # value that is not a JSON-RPC message (returned as None, it ended the session)
    return NULL_BODY if value is None else value


NULL_BODY = ("null",)  # what read_message returns for a frame whose body is 'null'


def _header_block(stream: BinaryIO) -> int | None:
    """The ``Content-Length`` of the next header block; None at the end of the stream."""
    length: int | None = None
    lines = 0
    while True:
        line = stream.readline(MAX_HEADER_LINE)
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if not lines:
                continue  # a stray blank line between frames
            if length is None:
                raise FramingError("a frame's header has no Content-Length")
            return length
        if not line.endswith(b"\n"):
            if len(line) < MAX_HEADER_LINE:
                return None  # the stream ended inside a header
            raise FramingError(f"a header line longer than {MAX_HEADER_LINE} bytes")
        lines += 1
        if lines > MAX_HEADER_LINES:
            raise FramingError(f"a frame's header has more than {MAX_HEADER_LINES} lines")
        name, colon, value = line.partition(b":")
        if not colon or not _TOKEN.fullmatch(name):
            raise FramingError(f"not a header line: {_shown(line)}")
        if name.lower() == b"content-length":
            length = _content_length(value.strip(), length)


def _content_length(value: bytes, before: int | None) -> int:
    if not value.isdigit():  # bytes.isdigit: ASCII digits only (int() takes "+5", "5_0")
        raise FramingError(f"bad Content-Length: {_shown(value)}")
    digits = value.lstrip(b"0") or b"0"
    # 12 digits are past the limit: a 10**4000-digit number is never made an int
    if len(digits) > 12 or int(digits) > MAX_CONTENT_LENGTH:
        raise FramingError(f"Content-Length {_shown(value)} out of range")
    length = int(digits)
    if before is not None and before != length:
        raise FramingError("a frame's header has two different Content-Lengths")
    return length


def _shown(data: bytes) -> str:
    return repr(data[:60].decode("ascii", "replace")) + ("..." if len(data) > 60 else "")


class Writer:
    """Writes frames to a binary stream; safe to call from several threads."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        # surrogatepass: a lone surrogate the client sent (in a document) may come back in a
        # message; ensure_ascii keeps the JSON itself plain ASCII
        body = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        with self._lock:
            self._stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self._stream.flush()


def response(request_id: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def notification(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def request(request_id: Any, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
