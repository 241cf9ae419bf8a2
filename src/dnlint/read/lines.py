"""The file's lines as the later stages read them (:class:`Lines`: cut on demand from the one
text the reader kept) and the one search made across all of them, for a ``dnlint:``
directive (:func:`may_hold_directives`). Part of the reader's document (:mod:`.document`).
"""

from __future__ import annotations

# collections.abc's own Sequence, as in .document (start-up)
from _collections_abc import Sequence
from itertools import accumulate, repeat
from operator import add

from dnlint.read.line_split import LINES_CHUNK as _LINES_CHUNK
from dnlint.records import overload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Iterator
    from typing import Any, Final


class Lines(Sequence[str]):
    """The file's lines (without the newline; trailing CRs removed), cut on demand from the one
    text. A list of every line as its own string cost about 60 bytes per line for the whole
    run, five times the bytes of a typical cfg line; line starts are found only when a line is
    asked for (a snippet, a directive). An ASCII file is kept as the bytes it was read as,
    not as a decoded copy of them: its characters are its bytes."""

    __slots__ = ("_count", "_cursor", "_rescanned", "_source", "_starts", "_strip_cr")

    def __init__(self, text: str | bytes, strip_cr: bool) -> None:
        # the file, lines joined by '\n': decoded, or its bytes when they are ASCII
        self._source = text
        self._strip_cr = strip_cr
        if isinstance(text, bytes):
            self._count = text.count(b"\n") + (0 if not text or text.endswith(b"\n") else 1)
        else:
            self._count = text.count("\n") + (0 if not text or text.endswith("\n") else 1)
        self._starts: array[int] | None = None
        # (index, start) of the last line found by scanning: lookups in increasing order (a
        # report quoting its findings' lines) scan the text once, and need no index at all
        self._cursor = (0, 0)
        self._rescanned = False  # a backward lookup has scanned again from the top

    @property
    def text(self) -> str:
        """The whole text (decoded anew for an ASCII file: for searches, not to keep)."""
        source = self._source
        return source.decode("ascii") if isinstance(source, bytes) else source

    def has_colon(self) -> bool:
        """Whether any line holds a ':' (one memchr over the text, no decoding)."""
        source = self._source
        return (b":" in source) if isinstance(source, bytes) else (":" in source)

    def chunks(self, size: int, overlap: int) -> Iterator[tuple[int, str]]:
        """(offset, text) of the whole text ``size`` characters at a time, each chunk running
        ``overlap`` characters into the next."""
        source = self._source
        for begin in range(0, len(source), size):
            piece = source[begin : begin + size + overlap]
            yield begin, piece.decode("ascii") if isinstance(piece, bytes) else piece

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("line index out of range")
        return self._cut(self._start_of(index))[0]

    def _cut(self, start: int) -> tuple[str, int]:
        """The line that starts at ``start``, and where the next one starts."""
        source = self._source
        if isinstance(source, bytes):
            end = source.find(b"\n", start)
            return (source[start:] if end < 0 else source[start:end]).decode("ascii"), end + 1
        end = source.find("\n", start)
        line = source[start:] if end < 0 else source[start:end]
        return (line.rstrip("\r") if self._strip_cr else line), end + 1

    def _start_of(self, index: int) -> int:
        """Where line ``index`` starts: scanned forward from the last line found. The first
        lookup that goes backwards scans again from the top (a report quoting a file's
        findings after the lint has ended them: both in file order); from the second on
        (random access) an index of every line answers, built once."""
        if self._starts is not None:
            return self._starts[index]
        line, at = self._cursor
        if index < line:
            if self._rescanned:
                return self._line_starts()[index]
            self._rescanned = True
            line = at = 0
        source = self._source
        if isinstance(source, bytes):
            line, at = _skip_lines(source, b"\n", line, at, index)
            while line < index:
                at = source.find(b"\n", at) + 1
                line += 1
        else:
            line, at = _skip_lines(source, "\n", line, at, index)
            while line < index:
                at = source.find("\n", at) + 1
                line += 1
        self._cursor = (line, at)
        return at

    def __iter__(self) -> Iterator[str]:
        start = 0
        for _ in range(self._count):
            line, start = self._cut(start)
            yield line

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Lines, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking, like a list

    def __repr__(self) -> str:
        return f"Lines({self._count} lines)"

    def _line_starts(self) -> array[int]:
        """Where each line starts, found once: the lengths of the lines of one chunk of text at
        a time (split() in C; a match object per newline cost ten times as much, paid by every
        file the text report quotes a line of)."""
        if self._starts is None:
            # imported here: the array module imports collections (start-up)
            from array import array

            starts = array("L", [0])
            for begin, chunk in self.chunks(_LINES_CHUNK, 0):
                # begin + the running sum of len(line) + 1: every step in C
                ends = accumulate(map(add, map(len, chunk.split("\n")[:-1]), repeat(1)),
                                  initial=begin)
                next(ends)  # begin itself
                starts.extend(ends)
            self._starts = starts
        return self._starts


_SKIP_SPAN: Final = 512  # characters counted at a time by _skip_lines (some 30 cfg lines)


def _skip_lines(source: Any, newline: Any, line: int, at: int, index: int) -> tuple[int, int]:
    """(line, start) moved towards line ``index`` (never past it) a span of text at a time: a
    count and an rfind in C per span, where a find per line cost a method call each (the
    findings of a long file quoted from its far end). ``source`` and ``newline`` are both str
    or both bytes (typed Any: mypyc's mypy takes no AnyStr to their methods)."""
    while index - line > _SKIP_SPAN // 16:
        end = at + _SKIP_SPAN
        crossed = source.count(newline, at, end)
        if crossed == 0 or line + crossed > index:
            break
        line += crossed
        at = source.rfind(newline, at, end) + 1
    return line, at


def text_of(lines: Sequence[str]) -> str:
    """The lines joined by newlines (a final newline may follow: for searches), without a copy
    of each when they are :class:`Lines`."""
    if isinstance(lines, Lines) and not lines._strip_cr:
        return lines.text
    return "\n".join(lines)


# Every directive, and every misplaced one (DN904), spells "dnlint" then ":" after optional
# whitespace (dnlint.settings.directives: _DIRECTIVE, _TRAILING)
# compiled when first used (re's cache): only a file that names dnlint needs them
_MENTION = r"dnlint\s*:"
_COLON = r"\s*:"
_COLON_ASCII = rb"[\s\x1c-\x1f]*:"  # str's \s on ASCII: bytes' \s lacks \x1c-\x1f
_ASCII_SPACE = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # what str.isspace() takes of ASCII
_COLON_WINDOW = 64  # characters after a mention looked at without a regex
_LOWER_CHUNK = 1 << 16


def may_hold_directives(lines: Sequence[str]) -> bool:
    """False when no line spells "dnlint:" in any case (whitespace allowed before the colon),
    as every directive and every misplaced one does: most files then skip the per-comment
    parse, and a comment that only names dnlint ("written for dnlint") does too. An
    IGNORECASE regex search is slow (0.1 ms on a large cfg), so ASCII text, where it means
    the same, is lowered and searched: a chunk at a time (overlapping by len("dnlint") - 1),
    as a lowered copy of a large file, made while all its options are alive, was the peak of
    its memory."""
    if not isinstance(lines, Lines):
        lines = Lines("\n".join(lines), False)
    if not lines.has_colon():
        return False  # every directive has one; most cfgs have none (lowering cost 1%)
    for begin, chunk in lines.chunks(_LOWER_CHUNK, 5):
        if not chunk.isascii():
            # IGNORECASE folds some non-ASCII letters
            import re  # here: a clean run imports no re (start-up)
            return re.search(_MENTION, lines.text, re.IGNORECASE) is not None
        lowered = chunk.lower()
        at = lowered.find("dnlint")
        while at >= 0:
            if _colon_follows(lines, begin + at + 6):
                return True
            at = lowered.find("dnlint", at + 6)
    return False


def _colon_follows(lines: Lines, at: int) -> bool:
    """Whether whitespace, then ':', follows offset ``at`` of the text (whitespace has no case,
    and may run past any chunk). The common short gap is read with lstrip (str.isspace() is
    the regex's \\s); a gap as long as the window goes to the regex."""
    source = lines._source
    window = source[at:at + _COLON_WINDOW]
    if isinstance(window, bytes):
        rest: str | bytes = window.lstrip(_ASCII_SPACE)
        if rest or at + _COLON_WINDOW >= len(source):
            return rest[:1] == b":"
    else:
        rest = window.lstrip()
        if rest or at + _COLON_WINDOW >= len(source):
            return rest[:1] == ":"
    import re  # here: a clean run imports no re (start-up)

    if isinstance(source, bytes):
        return re.compile(_COLON_ASCII).match(source, at) is not None
    return re.compile(_COLON).match(source, at) is not None
