"""A fix is data: byte-range edits against the file's original bytes, and whether it is safe.

Edits of one fix are applied together or not at all; fixes whose edits overlap wait for the
next pass (:mod:`dnlint.fixes.run` lints again between passes, as ruff does).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate, islice, pairwise

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array

BOM = b"\xef\xbb\xbf"
_PACK_BYTES = 1 << 16  # a larger file's line starts are packed (see Source)
_SLICE = 1 << 14
_PLUS_ONE = (1).__add__


class Edit:
    """Replace ``data[start:end]`` with ``text`` (an insertion when start == end).

    Equal, hashed and sorted by (start, end, text), as the frozen ordered dataclass it was
    (``<`` is all ``sorted`` needs); treat it as frozen. (A plain class: the dataclasses
    module imports inspect, which cost a run with one fixable finding more than all the rest
    of its start-up.)"""

    __slots__ = ("end", "start", "text")

    def __init__(self, start: int, end: int, text: bytes = b"") -> None:
        self.start = start
        self.end = end
        self.text = text

    def _key(self) -> tuple[int, int, bytes]:
        return (self.start, self.end, self.text)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Edit)
        return self._key() == other._key()

    def __lt__(self, other: Edit) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Edit(start={self.start!r}, end={self.end!r}, text={self.text!r})"


class Fix:
    """A finding's fix: its edits, applied together or not at all. Equal and hashed by its
    fields, as the frozen dataclass it was; treat it as frozen."""

    __slots__ = ("edits", "fixes_error", "safe", "structural")

    def __init__(self, edits: tuple[Edit, ...], safe: bool = True, structural: bool = False,
                 fixes_error: bool = True) -> None:
        self.edits = edits
        self.safe = safe
        # it changes a layer's shape or which option Darknet reads (filters, num, a renamed
        # key), so it can break a layer elsewhere; a text fix (BOM, comment, comma) cannot
        self.structural = structural
        # its finding is an error, which the fix must then remove (a warning's fix adds none)
        self.fixes_error = fixes_error

    def _key(self) -> tuple[tuple[Edit, ...], bool, bool, bool]:
        return (self.edits, self.safe, self.structural, self.fixes_error)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Fix)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Fix(edits={self.edits!r}, safe={self.safe!r}, "
                f"structural={self.structural!r}, fixes_error={self.fixes_error!r})")


def apply_fixes(data: bytes, fixes: list[Fix]) -> tuple[bytes, int]:
    """``data`` with every fix that does not overlap an earlier one applied; how many were."""
    new, applied = apply_some(data, fixes)
    return new, len(applied)


def apply_some(data: bytes, fixes: list[Fix]) -> tuple[bytes, list[Fix]]:
    """``data`` with every fix that does not overlap an earlier one applied; those fixes.

    Linear in the number of fixes when they come in file order (as findings do): the edits
    taken are kept sorted, and a new one is compared with its two neighbours only."""
    taken = _Taken()
    applied = []
    for fix in fixes:
        edits = sorted(fix.edits)
        if _overlaps(edits) or any(taken.overlaps(edit) for edit in edits):
            continue
        for edit in edits:
            taken.add(edit)
        applied.append(fix)
    pieces: list[bytes] = []
    at = 0
    for edit in taken.edits:
        pieces += (data[at:edit.start], edit.text)
        at = edit.end
    pieces.append(data[at:])
    return b"".join(pieces), applied


class _Taken:
    """Edits that do not overlap, sorted by position. Disjoint edits sorted by start are sorted
    by end too, so an edit can only overlap the one just before and the one just after its
    place (a binary search; an append when the edits come in order)."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, int]] = []
        self.edits: list[Edit] = []

    def _place(self, edit: Edit) -> int:
        key = (edit.start, edit.end)
        if not self.keys or self.keys[-1] < key:
            return len(self.keys)
        return bisect_left(self.keys, key)

    def overlaps(self, edit: Edit) -> bool:
        at = self._place(edit)
        before = self.edits[at - 1:at]
        after = self.edits[at:at + 1]
        return any(_overlaps(sorted(pair)) for pair in ([*before, edit], [edit, *after])
                   if len(pair) == 2)

    def add(self, edit: Edit) -> None:
        at = self._place(edit)
        self.keys.insert(at, (edit.start, edit.end))
        self.edits.insert(at, edit)


def _overlaps(edits: list[Edit]) -> bool:
    """Sorted edits touch: two replace the same byte, or one inserts where another replaces
    (two insertions at one point are ambiguous too)."""
    return any(b.start < a.end or b.start == a.start for a, b in pairwise(edits))


class Source:
    """The original bytes with their lines, as the reader numbers them (split at LF; line 1
    starts after a BOM, which the reader drops before lexing)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts: list[int] | array[int] = [0]
        if len(data) > _PACK_BYTES:
            # packed: a list of int objects cost 36 bytes per line, 4 times a file of short
            # lines; imported here: the array module imports collections (start-up)
            from array import array

            self.starts = array("q", [0])
        # found in C, a slice at a time (a loop of find() in Python cost 2.5 µs a line, as
        # much as the fixers; a 16 KiB slice bounds the pieces split() makes)
        for base in range(0, len(data), _SLICE):
            piece = data[base:base + _SLICE]
            ends = accumulate(map(_PLUS_ONE, map(len, piece.split(b"\n"))), initial=base)
            self.starts.extend(islice(ends, 1, piece.count(b"\n") + 1))
        if data.startswith(BOM):
            self.starts[0] = len(BOM)

    def span(self, line: int) -> tuple[int, int] | None:
        """Bytes of line ``line`` (1-based) without its LF and the CR before it."""
        if not 1 <= line <= len(self.starts):
            return None
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.data)
        if end > start and self.data[end - 1:end] == b"\r":
            end -= 1
        return start, end

    def text(self, line: int) -> str | None:
        """Line ``line`` as text, or None when it is missing or not clean UTF-8 (no offset
        could be trusted)."""
        span = self.span(line)
        if span is None:
            return None
        try:
            return self.data[span[0]:span[1]].decode("utf-8")
        except UnicodeDecodeError:
            return None

    def eol(self, line: int) -> bytes:
        """The line ending of ``line``: what a line inserted after it ends with."""
        span = self.span(line)
        if span is None:
            return b"\n"
        return b"\r\n" if self.data[span[1]:span[1] + 2] == b"\r\n" else b"\n"

    def replace(self, line: int, start: int, end: int, text: str) -> Edit | None:
        """Replace characters ``start:end`` of line ``line`` with ``text``."""
        whole = self.text(line)
        span = self.span(line)
        if whole is None or span is None:
            return None
        begin = span[0] + len(whole[:start].encode("utf-8"))
        finish = span[0] + len(whole[:end].encode("utf-8"))
        return Edit(begin, finish, text.encode("utf-8"))
