"""JSON-RPC 2.0 framing over a byte stream, as LSP's base protocol defines it.

A message is a header block (``Content-Length: N``, optionally ``Content-Type``), a blank
line, then N bytes of UTF-8 JSON. Only frames are written to the output stream: anything
else on stdout would corrupt the protocol.
"""

from __future__ import annotations

import json
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
# a frame larger than this is refused before it is read: the largest cfg dnlint reads is
# 256 MiB, and a JSON-escaped one is at most six times that
MAX_CONTENT_LENGTH = 6 * 256 * 1024 * 1024 + 65536


class FramingError(Exception):
    """The stream is not a sequence of LSP frames (the client is gone or broken)."""


def read_message(stream: BinaryIO) -> Any | None:
    """The next message's JSON value; None at the end of the stream. A frame whose body is
    not JSON gives the :data:`PARSE_ERROR` marker dict ``{"__parse_error__": reason}``."""
    length: int | None = None
    while True:
        line = stream.readline(MAX_HEADER_LINE)
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if length is None:
                continue  # a stray blank line between frames
            break
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise FramingError(f"bad Content-Length: {value.strip()!r}") from None
            if not 0 <= length <= MAX_CONTENT_LENGTH:
                raise FramingError(f"Content-Length {length} out of range")
    body = stream.read(length)
    if len(body) < length:
        return None  # the stream ended inside a frame
    try:
        return json.loads(body.decode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return {"__parse_error__": str(exc)}


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
