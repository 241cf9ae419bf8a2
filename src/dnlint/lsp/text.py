"""The server's own copy of each open document, and positions in LSP's encodings.

LSP lines end at ``\\n``, ``\\r\\n`` or ``\\r`` and nowhere else (``str.splitlines`` also
splits at form feeds, ``\\x85``, ``\\u2028`` ...: an incremental edit would then land on the
wrong line and the server's text drift from the editor's). A position's ``character`` counts
code units of the negotiated encoding: UTF-16 (the default: a character outside the BMP is
two), UTF-8 (bytes) or UTF-32 (code points). Offsets here are indices into the Python string
(code points).

dnlint itself numbers lines at ``\\n`` only (as Darknet's ``fgetl`` does) and counts columns
in code points from 1; :class:`TextDocument` maps both ways.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Any

from dnlint.lsp.rpc import clamped

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
ENCODINGS = (UTF8, UTF16, UTF32)
_BREAK = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` ``text`` takes."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF16:
        return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
    return len(text.encode("utf-8", "surrogatepass"))


def code_points(text: str, count: int, encoding: str) -> int:
    """How many code points of ``text`` the first ``count`` code units cover (clamped to the
    text; a position inside a character counts that character as passed)."""
    if count <= 0:
        return 0
    if encoding == UTF32 or text.isascii():
        return min(count, len(text))
    seen = 0
    for index, ch in enumerate(text):
        point = ord(ch)
        if encoding == UTF16:
            seen += 2 if point > 0xFFFF else 1
        else:
            seen += 1 if point < 0x80 else 2 if point < 0x800 else 3 if point < 0x10000 else 4
        if seen >= count:
            return index + 1
    return len(text)


class TextDocument:
    """One open document: its URI, version and text, with its line starts on demand."""

    def __init__(self, uri: str, text: str, version: int | None, language_id: str = "") -> None:
        self.uri = uri
        self.text = text
        self.version = version
        self.language_id = language_id
        self._starts: list[int] | None = None  # LSP line starts (code point offsets)
        self._lf_starts: list[int] | None = None  # dnlint line starts (after each '\n')
        self._raw: list[int] | None = None  # the same without a BOM's shift

    # --- lines ----------------------------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        if self._starts is None:
            text = self.text
            if "\r" not in text:  # the common file: LSP's lines are dnlint's
                self._starts = self._raw_lf_starts()
            else:
                self._starts = _lsp_starts(text)
        return self._starts

    def line_count(self) -> int:
        return len(self.line_starts)

    def line_text(self, line: int) -> str:
        """LSP line ``line`` (0-based) without its line break; '' past the end."""
        starts = self.line_starts
        if not 0 <= line < len(starts):
            return ""
        start = starts[line]
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        return _without_break(self.text[start:end])

    def eol(self) -> str:
        """The line ending a new line should get: the document's first one, else '\\n'."""
        found = _BREAK.search(self.text)
        return found.group() if found else "\n"

    # --- positions ------------------------------------------------------------------------
    def offset_at(self, position: Any, encoding: str) -> int:
        """The code point offset of an LSP position, clamped into the document (a line past
        the end is the end; a character past a line's end is that line's end)."""
        line, character = _line_character(position)
        starts = self.line_starts
        if line >= len(starts):
            return len(self.text)
        if line < 0:
            return 0
        text = self.line_text(line)
        return starts[line] + code_points(text, character, encoding)

    def position_at(self, offset: int, encoding: str) -> dict[str, int]:
        offset = max(0, min(offset, len(self.text)))
        starts = self.line_starts
        line = bisect_right(starts, offset) - 1
        start = starts[line]
        # an offset between '\r' and '\n' of a CRLF belongs to the line's end
        text = self.line_text(line)
        within = min(offset - start, len(text))
        return {"line": line, "character": units(text[:within], encoding)}

    def range_of(self, start: int, end: int, encoding: str) -> dict[str, Any]:
        return {"start": self.position_at(start, encoding),
                "end": self.position_at(max(start, end), encoding)}

    # --- dnlint's lines (split at '\n' only) ---------------------------------------------------
    @property
    def lf_starts(self) -> list[int]:
        if self._lf_starts is None:
            text = self.text
            starts = self._raw_lf_starts()
            if text.startswith("\ufeff"):
                starts = [1, *starts[1:]]  # dnlint's reader drops a BOM before it counts
            self._lf_starts = starts
        return self._lf_starts

    def _raw_lf_starts(self) -> list[int]:
        if self._raw is None:
            self._raw = starts_after(self.text)
        return self._raw

    def lf_line_span(self, line: int) -> tuple[int, int]:
        """Offsets of dnlint line ``line`` (1-based) without its '\\n' (and a CR before it),
        clamped: a line past the end is the empty span at the end."""
        starts = self.lf_starts
        if not 1 <= line <= len(starts):
            return len(self.text), len(self.text)
        start = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return start, end

    def lf_offset(self, line: int, column: int) -> int:
        """The offset of dnlint's (line, column), both 1-based, clamped to the line."""
        start, end = self.lf_line_span(line)
        return min(start + max(column, 1) - 1, end)

    def lf_line_column(self, offset: int) -> tuple[int, int]:
        """dnlint's (line, column) of an offset."""
        starts = self.lf_starts
        line = max(bisect_right(starts, offset), 1)
        return line, offset - starts[line - 1] + 1

    # --- edits ----------------------------------------------------------------------------
    def apply_change(self, change: Any, encoding: str) -> None:
        """One ``TextDocumentContentChangeEvent``: a whole new text, or a range replaced."""
        parts = _change_parts(change)
        if parts is None:
            return
        new, where = parts
        if where is None:
            self.set_text(new)
            return
        start = self.offset_at(where.get("start"), encoding)
        end = self.offset_at(where.get("end"), encoding)
        if end < start:
            start, end = end, start
        self.set_text(self.text[:start] + new + self.text[end:])

    def apply_changes(self, changes: list[Any], encoding: str) -> None:
        """A ``didChange``'s events in order, each on the text the one before it left.

        One event is cut into the text directly. Several go to a list of lines and the
        text is joined once at the end, so that an edit costs its own lines, not the
        document: 4,000 one-character edits of a 425 KB file took 18 s when each rebuilt
        the text and its line starts."""
        if len(changes) <= 1:
            for change in changes:
                self.apply_change(change, encoding)
            return
        lines: _Lines | None = None
        for change in changes:
            parts = _change_parts(change)
            if parts is None:
                continue
            new, where = parts
            if where is None:
                lines = _Lines(new)
                continue
            if lines is None:
                lines = _Lines(self.text)
            lines.replace(_line_character(where.get("start")),
                          _line_character(where.get("end")), new, encoding)
        if lines is not None:
            self.set_text("".join(lines.pieces))
            self._starts = list(accumulate(map(len, lines.pieces[:-1]), initial=0))

    def set_text(self, text: str) -> None:
        self.text = text
        self._starts = self._lf_starts = self._raw = None


class _Lines:
    """A text as its LSP lines, each with its line break; the last may be empty."""

    def __init__(self, text: str) -> None:
        self.pieces = _split_keeping_breaks(text)

    def replace(self, start: tuple[int, int], end: tuple[int, int], new: str,
                encoding: str) -> None:
        """Put ``new`` between two positions, clamped as :meth:`TextDocument.offset_at` does."""
        first, first_at = self._clamp(*start, encoding)
        last, last_at = self._clamp(*end, encoding)
        if (last, last_at) < (first, first_at):
            first, first_at, last, last_at = last, last_at, first, first_at
        pieces = self.pieces
        # take in a line on each side: a '\r' and a '\n' that meet are one line break
        low, high = max(first - 1, 0), min(last + 1, len(pieces) - 1)
        chunk = "".join((*pieces[low:first], pieces[first][:first_at], new,
                         pieces[last][last_at:], *pieces[last + 1:high + 1]))
        lines = _split_keeping_breaks(chunk)
        if high < len(pieces) - 1:
            lines.pop()  # the chunk ends with a line break: not the document's empty last line
        pieces[low:high + 1] = lines

    def _clamp(self, line: int, character: int, encoding: str) -> tuple[int, int]:
        pieces = self.pieces
        if line >= len(pieces):
            return len(pieces) - 1, len(pieces[-1])
        if line < 0:
            return 0, 0
        text = _without_break(pieces[line])
        return line, code_points(text, character, encoding)


def _change_parts(change: Any) -> tuple[str, dict[str, Any] | None] | None:
    """A change event's new text and its range (None: the whole text; a range that is not an
    object is taken as the start of the document); None for an event that is not one."""
    if not isinstance(change, dict) or not isinstance(change.get("text"), str):
        return None
    where = change.get("range")
    return change["text"], None if where is None else where if isinstance(where, dict) else {}


def _lsp_starts(text: str) -> list[int]:
    """0 and the offset after each LSP line break of ``text``."""
    return [0, *(m.end() for m in _BREAK.finditer(text))]


def _split_keeping_breaks(text: str) -> list[str]:
    starts = _lsp_starts(text)
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def _without_break(line: str) -> str:
    if line.endswith("\r\n"):
        return line[:-2]
    if line.endswith(("\n", "\r")):
        return line[:-1]
    return line


def starts_after(text: str | bytes) -> list[int]:
    """0 and the offset after each line feed of ``text``: its lines' starts, as Darknet
    (and dnlint) count lines."""
    pieces: list[str] | list[bytes] = (text.split("\n") if isinstance(text, str)
                                       else text.split(b"\n"))
    return list(accumulate(map((1).__add__, map(len, pieces[:-1])), initial=0))


def _line_character(position: Any) -> tuple[int, int]:
    if not isinstance(position, dict):
        return 0, 0
    # LSP's uinteger: a negative number is the start, one past 2**31 - 1 the end
    line, character = clamped(position.get("line")), clamped(position.get("character"))
    return line or 0, character or 0
