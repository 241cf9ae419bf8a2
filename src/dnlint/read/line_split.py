"""Splitting a cfg's text into lines, a chunk at a time (the lexer's input).

:func:`line_chunks` keeps the lines of one chunk alive at a time, not every line of a large
file; ASCII ``bytes`` are decoded a chunk at a time.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

LINES_CHUNK = 1 << 18  # characters the lexer splits into lines at a time


def split_lines(text: str) -> list[str]:
    """``text``'s lines: split at each newline, a final newline starting no line."""
    size = len(text) - 1 if text.endswith("\n") else len(text)
    return text[:size].split("\n") if text else []


def line_chunks(text: str | bytes, chunk: int = LINES_CHUNK) -> Iterable[list[str]]:
    """:func:`split_lines`, a list of the lines of about ``chunk`` characters at a time: a list
    of every line at once, alive while the lexer builds its options, raised a large file's
    peak memory by five times its size. ASCII ``bytes`` are decoded a chunk at a time."""
    if len(text) <= chunk:
        return [split_lines(text.decode("ascii") if isinstance(text, bytes) else text)]
    return _chunk_lines(text, chunk)


def _chunk_lines(text: str | bytes, chunk: int) -> Iterator[list[str]]:
    size = len(text) - 1 if _newline_at(text, len(text) - 1) else len(text)
    start = 0
    while True:
        end = _find_newline(text, start + chunk, size) if start + chunk < size else -1
        piece = text[start:size] if end < 0 else text[start:end]
        yield (piece.decode("ascii") if isinstance(piece, bytes) else piece).split("\n")
        if end < 0:
            return
        start = end + 1


def _newline_at(text: str | bytes, at: int) -> bool:
    return at >= 0 and text[at] in (10, "\n")


def _find_newline(text: str | bytes, start: int, end: int) -> int:
    if isinstance(text, bytes):
        return text.find(b"\n", start, end)
    return text.find("\n", start, end)
