"""Stage 1: bytes -> sections with positions.

Reproduces what Darknet's ``read_cfg``/``fgetl``/``strip``/``read_option`` (src/parser.c,
src/utils.c, src/option_list.c) make of a file, and keeps, for every section and option, the
line and column it came from. Everything Darknet would silently accept or misread is recorded
as a :class:`LexFinding`; the dialect decides the severity of a few of them later.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, islice, repeat
from operator import add
from types import MappingProxyType
from typing import Any, overload

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.sniff import SNIFF_BYTES, identify

_HTML_MARKERS = (b"<!doctype", b"<html", b"<?xml", b"<head", b"<body")
_LFS_MARKER = b"version https://git-lfs"
_BLANK = re.compile(rb"[ \t\r\n]*\Z")  # an empty file, without copying it as strip() does
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 13))
_NO_OPTIONS: Mapping[str, Option] = MappingProxyType({})  # Section.first when empty
UNPARSED: Any = object()  # Option.parsed before (or without) typing
_LINES_CHUNK = 1 << 18  # characters the lexer splits into lines at a time
_SHARED_MAX = 4096  # distinct strings the lexer shares per file
_SHARED_LENGTH = 64  # longer values are rarely repeated


class Option:
    """One ``key=value`` line, as Darknet's ``read_option`` splits the stripped line.

    (Plain classes with an explicit ``__init__``, here and for Section: one is built per line,
    and a dataclass's generated ``__init__`` stays interpreted Python even when compiled.)
    """

    __slots__ = ("_more", "key", "line", "value")

    def __init__(self, key: str, value: str | None, line: int, column: int, value_column: int,
                 raw: str | None, comment_at: int = -1) -> None:
        self.key = key
        self.value = value
        self.line = line
        # A plain 'key=value' line at column 1 without an inline comment, whose positions and
        # text follow from its key and value, keeps here only Darknet's value (``parsed``);
        # any other keeps an _Unplain. Four slots: an object of five or six slots, or a copy of
        # every line, cost more than a line of a file of unknown options.
        self._more: Any = (
            UNPARSED if raw is None and column == 1 and value_column == len(key) + 2
            and comment_at < 0
            else _Unplain(column, value_column, raw if raw is not None else _joined(key, value),
                          comment_at))

    @property
    def parsed(self) -> Any:
        """Darknet's value, set by the typing stage (dnlint.options.convert.type_section) when
        it reads this option; UNPARSED before (or without) typing."""
        more = self._more
        return more.parsed if type(more) is _Unplain else more

    @parsed.setter
    def parsed(self, value: Any) -> None:
        more = self._more
        if type(more) is _Unplain:
            more.parsed = value
        else:
            self._more = value

    @property
    def plain(self) -> bool:
        """A 'key=value' line at column 1 without an inline comment."""
        return type(self._more) is not _Unplain

    @property
    def column(self) -> int:
        more = self._more
        return more.column if type(more) is _Unplain else 1

    @property
    def value_column(self) -> int:
        more = self._more
        return more.value_column if type(more) is _Unplain else len(self.key) + 2

    @property
    def raw(self) -> str:
        """The line as read (after fgetl's NUL gluing)."""
        more = self._more
        return more.raw if type(more) is _Unplain else _joined(self.key, self.value)

    @property
    def comment_at(self) -> int:
        """Index in ``value`` of a '#', ';' or '//' that starts an inline comment, or -1."""
        more = self._more
        return more.comment_at if type(more) is _Unplain else -1

    def __repr__(self) -> str:
        return f"Option({self.key!r}, {self.value!r}, line={self.line}, column={self.column})"


class _Unplain:
    """What an option that is not plain (see Option._more) keeps besides its key and value."""

    __slots__ = ("column", "comment_at", "parsed", "raw", "value_column")

    def __init__(self, column: int, value_column: int, raw: str, comment_at: int) -> None:
        self.column = column
        self.value_column = value_column
        self.raw = raw
        self.comment_at = comment_at
        self.parsed: Any = UNPARSED


def _joined(key: str, value: str | None) -> str:
    return key if value is None else f"{key}={value}"


class Section:
    """A ``[name]`` section: ``name`` is the text between the brackets after stripping."""

    __slots__ = ("_at", "_first", "line", "listed", "name", "odd")

    def __init__(self, name: str, line: int, column: int) -> None:
        self.name = name
        self.line = line
        # the column of '[', negated once the header is found malformed (one slot, not two)
        self._at = column
        # ``first`` (the first option of every key) as stored: None for no option, the option
        # itself while it is the only one, then a dict. A dict costs 184 bytes even for one
        # entry, six times the bytes of a section such as '[upsample]\nstride=2'.
        self._first: dict[str, Option] | Option | None = None
        # every option in file order, once a key repeats; until then ``first`` holds them all,
        # in order (a second container per section cost more than its line of input)
        self.listed: list[Option] | None = None
        # a repeated key, a bare 'key' line or an empty key: the structure check looks closer
        self.odd = False

    @property
    def column(self) -> int:
        return abs(self._at)

    @property
    def header_ok(self) -> bool:
        """False when the header is malformed (DN019): Darknet matches no layer type."""
        return self._at > 0

    @header_ok.setter
    def header_ok(self, ok: bool) -> None:
        self._at = abs(self._at) if ok else -abs(self._at)

    @property
    def first(self) -> Mapping[str, Option]:
        """The first option of every key, the one option_find returns (bare 'key' lines
        included), in file order. Read-only: :meth:`add` adds."""
        first = self._first
        if type(first) is dict:
            return first
        if first is None:
            return _NO_OPTIONS
        assert isinstance(first, Option)
        return {first.key: first}

    @property
    def options(self) -> list[Option]:
        """Every option line of the section, in file order."""
        return self.listed if self.listed is not None else list(self.first.values())

    def __repr__(self) -> str:
        return f"Section({self.name!r}, line={self.line}, options={len(self.options)})"

    def find(self, key: str) -> Option | None:
        """The option Darknet's ``option_find`` returns: the first with that key."""
        first = self._first
        if type(first) is dict:
            return first.get(key)
        return first if isinstance(first, Option) and first.key == key else None

    def offer(self, option: Option) -> Option:
        """Make ``option`` the first of its key unless one came before: return that one."""
        first = self._first
        if first is None:
            self._first = option
            return option
        if type(first) is not dict:
            assert isinstance(first, Option)
            if first.key == option.key:
                return first
            first = self._first = {first.key: first}
        return first.setdefault(option.key, option)

    def add(self, option: Option) -> None:
        repeated = self.offer(option) is not option
        if repeated or self.listed is not None:
            self.keep_order(option, repeated)
        if option.value is None or not option.key:
            self.odd = True

    def keep_order(self, option: Option, repeated: bool) -> None:
        """Record ``option`` (already offered to ``first``) where ``first`` cannot keep it."""
        if self.listed is None:
            self.listed = [*self.first.values(), option]  # the first repeat: all before it
        else:
            self.listed.append(option)
        if repeated:
            self.odd = True  # a repeated key


class Sections(Sequence[Section]):
    """The file's sections in order. A well-formed ``[name]`` at column 1 with no option under
    it (yet) is kept as its name and line only, and built as a :class:`Section` each time it is
    asked for: an object per ``[x]`` line cost twenty times the line. Anything that adds to a
    section asks for it through :meth:`live`, which keeps the object."""

    __slots__ = ("_bare", "_items", "_lines")

    def __init__(self, sections: Iterable[Section] = ()) -> None:
        # a Section, or the name of a bare one (whose line is in _lines)
        self._items: list[Section | str] = []
        # the header line of every section ('L': array('q') parses every item it stores
        # through PyArg_Parse, several times the cost)
        self._lines = array("L")
        self._bare = 0  # how many items are names
        for section in sections:
            self.append(section)

    def append(self, section: Section) -> None:
        self._items.append(section)
        self._lines.append(section.line)

    def append_bare(self, name: str, line: int) -> None:
        """A well-formed ``[name]`` header at column 1 of ``line``."""
        self._items.append(name)
        self._lines.append(line)
        self._bare += 1

    def live(self, index: int = -1) -> Section:
        """The section at ``index`` as an object kept from now on, to add options to."""
        item = self._items[index]
        if isinstance(item, Section):
            return item
        section = self._items[index] = Section(item, self._lines[index], 1)
        self._bare -= 1
        return section

    def pop(self) -> Section:
        section = self[-1]
        if not isinstance(self._items.pop(), Section):
            self._bare -= 1
        self._lines.pop()
        return section

    @property
    def lines(self) -> Sequence[int]:
        """The header line of every section, in order (sorted)."""
        return self._lines

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Section: ...

    @overload
    def __getitem__(self, index: slice) -> list[Section]: ...

    def __getitem__(self, index: int | slice) -> Section | list[Section]:
        if isinstance(index, int):
            return self._at(index)
        return [self._at(i) for i in range(*index.indices(len(self._items)))]

    def _at(self, index: int) -> Section:
        item = self._items[index]
        return item if isinstance(item, Section) else Section(item, self._lines[index], 1)

    def __iter__(self) -> Iterator[Section]:
        if not self._bare:
            return iter(self._items)  # type: ignore[arg-type]  # every item is a Section
        return map(self._at, range(len(self._items)))

    def built(self) -> list[Section]:
        """The sections kept as objects: every one with an option or an odd header."""
        return [item for item in self._items if isinstance(item, Section)]

    def __repr__(self) -> str:
        return f"Sections({len(self._items)} sections)"


@dataclass
class LexFinding:
    """A lexical problem; ``by_dialect`` overrides the rule's default severity per dialect."""

    code: str
    line: int | None
    column: int | None
    message: str
    hint: str | None = None
    by_dialect: dict[Dialect, Severity] | None = None
    only: frozenset[Dialect] | None = None


class Comment:
    __slots__ = ("line", "text")

    def __init__(self, line: int, text: str) -> None:
        self.line = line
        self.text = text


class Lines(Sequence[str]):
    """The file's lines (without the newline; trailing CRs removed), cut on demand from the one
    text. A list of every line as its own string cost about 60 bytes per line for the whole
    run, five times the bytes of a typical cfg line; line starts are found only when a line is
    asked for (a snippet, a directive). An ASCII file is kept as the bytes it was read as,
    not as a decoded copy of them: its characters are its bytes."""

    __slots__ = ("_count", "_cursor", "_source", "_starts", "_strip_cr")

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

    @property
    def text(self) -> str:
        """The whole text (decoded anew for an ASCII file: for searches, not to keep)."""
        source = self._source
        return source.decode("ascii") if isinstance(source, bytes) else source

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
        """Where line ``index`` starts: scanned forward from the last line found, until a
        lookup goes backwards; from then on (random access) from an index of every line."""
        if self._starts is not None:
            return self._starts[index]
        line, at = self._cursor
        if index < line:
            return self._line_starts()[index]
        source = self._source
        if isinstance(source, bytes):
            while line < index:
                at = source.find(b"\n", at) + 1
                line += 1
        else:
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
            starts = array("L", [0])
            for begin, chunk in self.chunks(_LINES_CHUNK, 0):
                # begin + the running sum of len(line) + 1: every step in C
                ends = accumulate(map(add, map(len, chunk.split("\n")[:-1]), repeat(1)),
                                  initial=begin)
                next(ends)  # begin itself
                starts.extend(ends)
            self._starts = starts
        return self._starts


def text_of(lines: Sequence[str]) -> str:
    """The lines joined by newlines (a final newline may follow: for searches), without a copy
    of each when they are :class:`Lines`."""
    if isinstance(lines, Lines) and not lines._strip_cr:
        return lines.text
    return "\n".join(lines)


# Every directive, and every misplaced one (DN904), spells "dnlint" then ":" after optional
# whitespace (dnlint.settings.directives: _DIRECTIVE, _TRAILING)
_MENTION = re.compile(r"dnlint\s*:", re.IGNORECASE)
_COLON = re.compile(r"\s*:")
_COLON_ASCII = re.compile(rb"[\s\x1c-\x1f]*:")  # str's \s on ASCII: bytes' \s lacks \x1c-\x1f
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
    for begin, chunk in lines.chunks(_LOWER_CHUNK, 5):
        if not chunk.isascii():
            return _MENTION.search(lines.text) is not None  # IGNORECASE folds some non-ASCII
        lowered = chunk.lower()
        at = lowered.find("dnlint")
        while at >= 0:
            if _colon_follows(lines, begin + at + 6):
                return True
            at = lowered.find("dnlint", at + 6)
    return False


def _colon_follows(lines: Lines, at: int) -> bool:
    """Whether whitespace, then ':', follows offset ``at`` of the text (whitespace has no case,
    and may run past any chunk)."""
    source = lines._source
    if isinstance(source, bytes):
        return _COLON_ASCII.match(source, at) is not None
    return _COLON.match(source, at) is not None


@dataclass
class CfgDocument:
    sections: Sections
    lines: Sequence[str]
    comments: list[Comment]
    findings: list[LexFinding]
    fatal: bool = False
    # may_hold_directives(), once known (an init field: mypyc leaves init=False fields unset)
    _directives: bool | None = field(default=None, repr=False, compare=False)

    def layer_sections(self) -> Iterator[Section]:
        """Every section after the first ([net]), one at a time."""
        return islice(self.sections, 1, None)

    def may_hold_directives(self) -> bool:
        """:func:`may_hold_directives` of this file, searched once: the lint (whether to fold
        findings) and the policy (whether to parse suppressions) both ask."""
        if self._directives is None:
            self._directives = may_hold_directives(self.lines)
        return self._directives


def read_cfg(data: bytes) -> CfgDocument:
    """Split ``data`` into sections and options the way Darknet does, recording every quirk."""
    findings: list[LexFinding] = []
    if _sniff_fatal(data, findings):
        return CfgDocument(Sections(), [], [], findings, fatal=True)
    if data.startswith(b"\xef\xbb\xbf"):
        findings.append(
            LexFinding(
                "DN014",
                1,
                1,
                "file starts with a UTF-8 byte-order mark; Darknet reads it as part of the first "
                "line, so '[net]' becomes an option line before any section (SIGSEGV)",
                "save the file as UTF-8 without BOM",
            )
        )
        data = data[3:]
    lexer = _Lexer(findings)
    lexer.run(data)
    doc = CfgDocument(lexer.sections, Lines(lexer._whole, lexer.has_cr), lexer.comments, findings)
    _check_structure(doc)
    return doc


def _sniff_fatal(data: bytes, findings: list[LexFinding]) -> bool:
    """Recognise inputs that are not a cfg at all; report them once and stop."""
    if _BLANK.match(data):
        findings.append(LexFinding("DN001", 1, 1, "file is empty", None))
        return True
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or _looks_utf16(data):
        findings.append(
            LexFinding(
                "DN015",
                1,
                1,
                "file is UTF-16 encoded; Darknet reads bytes and sees NUL after every character",
                "re-save the file as UTF-8 (or ASCII)",
            )
        )
        return True
    head = data[:4096].lstrip().lower()
    if head.startswith(_LFS_MARKER):
        findings.append(
            LexFinding(
                "DN018",
                1,
                1,
                "file is a Git LFS pointer, not a cfg: the real file was never downloaded",
                "run 'git lfs pull' to fetch the content",
            )
        )
        return True
    if head.startswith(_HTML_MARKERS):
        findings.append(
            LexFinding(
                "DN018",
                1,
                1,
                "file is an HTML/XML page, not a cfg (a web page saved instead of the raw file?)",
                "download the raw file (on GitHub: the 'Raw' button)",
            )
        )
        return True
    if _looks_binary(data[:4096]):
        known = identify(data[:SNIFF_BYTES])
        what = ("a Darknet .weights file" if _looks_like_weights(data)
                else known[0] if known else "binary data")
        findings.append(
            LexFinding("DN023", 1, 1, f"file is {what}, not a text cfg", None)
        )
        return True
    return False


def _looks_utf16(data: bytes) -> bool:
    sample = data[:512]
    if len(sample) < 8:
        return False
    odd_nuls = sample[1::2].count(0)
    even_nuls = sample[0::2].count(0)
    half = len(sample) // 2
    return max(odd_nuls, even_nuls) > 0.8 * half and min(odd_nuls, even_nuls) < 0.1 * half


def _looks_binary(sample: bytes) -> bool:
    control = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return control > max(8, len(sample) // 20)


def split_lines(text: str) -> list[str]:
    """``text``'s lines: split at each newline, a final newline starting no line."""
    size = len(text) - 1 if text.endswith("\n") else len(text)
    return text[:size].split("\n") if text else []


def lines_in_chunks(text: str | bytes, chunk: int = _LINES_CHUNK) -> Iterable[str]:
    """:func:`split_lines`, a chunk of about ``chunk`` characters at a time: a list of every
    line at once, alive while the lexer builds its options, raised a large file's peak
    memory by five times its size. ASCII ``bytes`` are decoded a chunk at a time."""
    if len(text) <= chunk:
        return split_lines(text.decode("ascii") if isinstance(text, bytes) else text)
    return chain.from_iterable(_chunk_lines(text, chunk))


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


def _looks_like_weights(data: bytes) -> bool:
    if len(data) < 16:
        return False
    major, minor = (int.from_bytes(data[i : i + 4], "little") for i in (0, 4))
    return major in (0, 1) and minor < 1100


class _Lexer:
    def __init__(self, findings: list[LexFinding]) -> None:
        self.findings = findings
        self.sections = Sections()
        self.has_cr = False
        self.comments: list[Comment] = []
        self.crlf_lines = 0
        self.first_crlf = 0
        self.first_crlf_column = 1  # where the '\r' of the first CRLF line is
        self.bad_utf8_reported = 0
        self.option_before_section = False
        self._whole: str | bytes = ""  # the file: decoded, or its bytes when they are ASCII
        # one string for each repeated key, short value and section name ('filters', '1',
        # 'leaky', 'convolutional'): a copy per line cost more than the line's bytes. Bounded,
        # so a file of unique names grows it no further than _SHARED_MAX entries.
        self._shared: dict[str, str] = {}

    def share(self, text: str) -> str:
        """``text``, or the equal string seen before."""
        shared = self._shared
        known = shared.get(text)
        if known is not None:
            return known
        if len(shared) < _SHARED_MAX and len(text) <= _SHARED_LENGTH:
            shared[text] = text
        return text

    def run(self, data: bytes) -> None:
        if data.isascii() and b"\r" not in data and b"\0" not in data:
            # the common file: its bytes are its characters, kept once (see Lines), and
            # decoded a chunk at a time as the lexer walks them
            self._whole = data
            self._run_plain(lines_in_chunks(data), b"\t" in data, b";" in data)
            return
        try:
            text = self._whole = data.decode("utf-8")
            texts: list[str] | None = None
        except UnicodeDecodeError:
            texts = self._decode_lines(data)  # decoded line by line, each invalid one reported
            text = self._decoded()
        has_cr = self.has_cr = "\r" in text
        if has_cr or "\0" in text:
            self._run_careful(texts if texts is not None else split_lines(text), has_cr)
        else:
            self._run_plain(texts if texts is not None else lines_in_chunks(text),
                            "\t" in text, ";" in text)

    def _decoded(self) -> str:
        whole = self._whole
        return whole.decode("ascii") if isinstance(whole, bytes) else whole

    def _run_plain(self, texts: Iterable[str], has_tab: bool, has_semicolon: bool) -> None:
        """Lines without CR or NUL: the common file, one inlined loop for the plain lines
        (no whitespace at all), everything else through :meth:`_line`."""
        sections, comments = self.sections, self.comments
        shared, share = self._shared, self.share
        section = None
        # (has_tab, has_semicolon: characters absent from the whole file need no test on
        # every line)
        for number, text in enumerate(texts, start=1):
            if not text:
                continue
            if " " in text or (has_tab and "\t" in text):
                self._line(text, number)
                section = None  # the line may have started a section: asked for when needed
                continue
            first_char = text[0]
            if first_char == "[":
                if text[-1] == "]" and len(text) > 2 and text.find("]") == len(text) - 1:
                    sections.append_bare(share(text[1:-1]), number)  # a well-formed [name]
                else:
                    self._header(text, text, number)
                section = None
                continue
            if first_char == "#" or first_char == ";":
                comments.append(Comment(number, text.strip()))
                continue
            if first_char == "/" and text[1:2] == "/" and sections:
                self._slash_comment(text, number)
                continue
            key, _, value = text.partition("=")
            if section is None and sections:
                section = sections.live()
            if not (key and value) or section is None:
                self._option(text, text, number)
                continue
            comment_at = (_comment_at(value) if "#" in value or (has_semicolon and ";" in value)
                          or "//" in value else -1)
            key = shared.get(key) or share(key)
            value = shared.get(value) or share(value)
            option = Option(key, value, number, 1, len(key) + 2, None, comment_at)
            first = section._first
            # Section.offer, inlined for the common case: a section that has a dict already
            if type(first) is dict:
                earlier = first.setdefault(key, option)
            else:
                earlier = section.offer(option)
            if earlier is not option or section.listed is not None:
                section.keep_order(option, earlier is not option)

    def _run_careful(self, texts: list[str], has_cr: bool) -> None:
        """Lines with CR (counted for DN013) or NUL (fgetl glues the next line on)."""
        pending = ""
        pending_line = 0
        for number, text in enumerate(texts, start=1):
            if has_cr and text.endswith("\r"):
                self.crlf_lines += 1
                if not self.first_crlf:
                    self.first_crlf, self.first_crlf_column = number, len(text)
            if "\0" in text:
                # fgetl: a NUL ends the string early; the next physical line is glued on.
                col = text.index("\0") + 1
                self.findings.append(
                    LexFinding(
                        "DN017",
                        number,
                        col,
                        "NUL byte: Darknet's fgetl drops the rest of this line and glues the "
                        "next line onto it",
                        "remove the NUL byte",
                    )
                )
                pending += text[: col - 1]
                pending_line = pending_line or number
                continue
            if pending:
                text, number = pending + text, pending_line
                pending, pending_line = "", 0
            self._line(text, number)
        if pending:
            self._line(pending, pending_line)
        self._report_crlf()

    def _decode_lines(self, data: bytes) -> list[str]:
        """Decode once for the whole file; only an invalid file is decoded line by line."""
        try:
            whole = self._whole = data.decode("utf-8")
            texts = whole.split("\n")
        except UnicodeDecodeError:
            texts = [self._decode(raw, n) for n, raw in enumerate(data.split(b"\n"), start=1)]
            self._whole = "\n".join(texts)
        if texts and texts[-1] == "":
            texts.pop()
        return texts

    def _decode(self, raw: bytes, number: int) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if self.bad_utf8_reported < 5:
                self.bad_utf8_reported += 1
                self.findings.append(
                    LexFinding(
                        "DN016",
                        number,
                        len(raw[: exc.start].decode("utf-8", "replace")) + 1,
                        f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                        "save the file as UTF-8 (or plain ASCII)",
                    )
                )
            return raw.decode("utf-8", "replace")

    def _report_crlf(self) -> None:
        if not self.crlf_lines:
            return
        self.findings.append(
            LexFinding(
                "DN013",
                self.first_crlf,
                self.first_crlf_column,
                f"{self.crlf_lines} line(s) end in CRLF; the original Darknet keeps the '\\r', so "
                "'[net]\\r' is not [net] and string values gain a '\\r' (AlexeyAB's fork "
                "strips it)",
                "convert the file to LF line endings (dos2unix)",
                # the forks that strip it read the file as written: a portability note
                by_dialect={Dialect.PJ: Severity.ERROR, Dialect.AB: Severity.INFO,
                            Dialect.HANK: Severity.INFO},
            )
        )

    def _line(self, text: str, number: int) -> None:
        spaced = _spaced_option(text) if self.sections else None
        if spaced is not None:
            key, value, key_column, value_column = spaced
            self.sections.live().add(Option(self.share(key), self.share(value), number, key_column,
                                         value_column, text))
            return
        self._line_general(text, number)

    def _line_general(self, text: str, number: int) -> None:
        """Any line: what Darknet's strip() and read_option make of it, with every finding."""
        plain = " " not in text and "\t" not in text and "\r" not in text
        stripped = text if plain else _strip(text)
        if not stripped:
            return
        first = stripped[0]
        if first in "#;":
            self.comments.append(Comment(number, text.strip()))
        elif first == "/" and stripped[1:2] == "/" and self.sections:
            self._slash_comment(text, number)
        elif first == "[":
            self._header(text, stripped, number)
        elif plain:
            self._plain_option(text, number)
        else:
            self._option(text, stripped, number)

    def _slash_comment(self, text: str, number: int) -> None:
        """A line that starts with '//' inside a section: read_option stores it as an option
        whose key starts with '//', which no getter asks for; nothing is misread."""
        self.comments.append(Comment(number, text.strip()))
        self.findings.append(LexFinding(
            "DN035", number, text.index("/") + 1,
            "a line that starts with '//': Darknet has no '//' comments and keeps the line as "
            "an option no layer reads (Darknet prints 'Unused field'); '#' is a comment",
            "start the comment with '#'"))

    def _plain_option(self, text: str, number: int) -> None:
        """A line without whitespace (CR aside): positions come for free."""
        key, _, value = text.partition("=")
        if not (key and value and self.sections):
            self._option(text, text, number)
            return
        comment_at = (_comment_at(value) if "#" in value or ";" in value or "//" in value
                      else -1)
        self.sections.live().add(Option(self.share(key), self.share(value), number, 1, len(key) + 2,
                                     None, comment_at))

    def _header(self, text: str, stripped: str, number: int) -> None:
        column = text.index("[") + 1
        close = stripped.find("]")
        name = stripped[1:close] if close > 0 else stripped[1:]
        section = Section(self.share(name), number, column)
        self.sections.append(section)
        if close < 0:
            self._bad_header(section, f"section header '{stripped}' has no closing ']'")
        elif not name:
            self._bad_header(section, "section header '[]' names no section")
        elif close != len(stripped) - 1:
            trailing = stripped[close + 1 :]
            self._bad_header(
                section,
                f"text '{trailing}' after ']': Darknet takes the whole line '{stripped}' as the "
                "section name, which matches no layer type (hank-ai's Darknet ignores the text)",
                hint=f"put comments on a line of their own above [{name}]",
            )
        elif text.strip().replace(" ", "").replace("\t", "") != text.strip():
            self.findings.append(
                LexFinding(
                    "DN024",
                    number,
                    column,
                    f"whitespace inside the section header; Darknet deletes it and reads [{name}] "
                    "(hank-ai's Darknet keeps it and rejects the name)",
                    f"write [{name}]",
                    by_dialect={Dialect.HANK: Severity.ERROR},
                )
            )

    def _bad_header(self, section: Section, message: str, hint: str | None = None) -> None:
        section.header_ok = False
        self.findings.append(LexFinding("DN019", section.line, section.column, message, hint))

    def _option(self, text: str, stripped: str, number: int) -> None:
        key_column = len(text) - len(text.lstrip(" \t")) + 1
        eq = stripped.find("=")
        raw_eq = text.find("=")
        value_column = _value_column(text, raw_eq)
        if eq < 0:
            option = Option(stripped, None, number, key_column, key_column, text)
        else:
            key, value = stripped[:eq], stripped[eq + 1 :]
            option = Option(key, value, number, key_column, value_column, text, _comment_at(value))
        if not self.sections:
            if self.option_before_section:
                return
            self.option_before_section = True
            self.findings.append(
                LexFinding(
                    "DN002",
                    number,
                    key_column,
                    f"option '{stripped}' comes before any [section]; Darknet dereferences a "
                    "NULL section here (segmentation fault)",
                    "start the file with [net]",
                )
            )
            return
        if eq >= 0 and option.value == "":
            self.findings.append(
                LexFinding(
                    "DN007",
                    number,
                    key_column,
                    f"option '{option.key}' has an empty value; Darknet drops the line "
                    "('Config file error') and uses the default",
                    f"give {option.key} a value or delete the line",
                )
            )
            return
        self._check_whitespace(text, raw_eq, number)
        self.sections.live().add(option)


    def _glued_numbers(self, part: str, gap: int, number: int, column: int) -> None:
        left = part[:gap].rstrip(" \t").split(",")[-1].split()[-1]
        right = part[gap:].lstrip(" \t").split(",")[0].split()[0]
        self.findings.append(
            LexFinding(
                "DN028",
                number,
                column,
                f"'{left} {right}': Darknet deletes the space and reads the single number "
                f"'{left}{right}' (a missing comma?)",
                f"write '{left},{right}' if these are two numbers",
            )
        )

    def _check_whitespace(self, text: str, raw_eq: int, number: int) -> None:
        """L4: Darknet's strip() deletes whitespace anywhere, gluing the pieces together."""
        if " " not in text and "\t" not in text:
            return
        key_part = text[:raw_eq] if raw_eq >= 0 else text
        value_part = text[raw_eq + 1 :] if raw_eq >= 0 else ""
        cut = min((p for p in (value_part.find("#"), value_part.find(";"), value_part.find("//"))
                   if p >= 0), default=-1)
        if cut >= 0:
            value_part = value_part[:cut]
        for part, offset in ((key_part, 0), (value_part, raw_eq + 1)):
            gap = _inner_gap(part)
            if gap >= 0:
                glued = _strip(part)
                if _joins_numbers(part, gap):
                    self._glued_numbers(part, gap, number, offset + gap + 1)
                    return
                self.findings.append(
                    LexFinding(
                        "DN010",
                        number,
                        offset + gap + 1,
                        f"whitespace inside '{part.strip()}': Darknet deletes it and reads "
                        f"'{glued}' (hank-ai's Darknet keeps it)",
                        f"write '{glued}' if that is what you mean",
                        by_dialect={Dialect.HANK: Severity.ERROR},
                    )
                )
                return


def _strip(text: str) -> str:
    """Darknet's strip(): every space, tab, CR and LF deleted (three C-level passes are far
    cheaper than str.translate with a deletion table)."""
    return text.replace(" ", "").replace("\t", "").replace("\r", "").replace("\n", "")


def _comment_at(value: str) -> int:
    """Index of the '#', ';' or '//' that starts an inline comment (never the value's first
    character: '#1' is a value, however odd), or -1. Darknet itself has no inline comments;
    the typing stage decides whether the text before the marker is what Darknet reads."""
    if "#" not in value and ";" not in value and "//" not in value:
        return -1
    positions = [p for p in (value.find("#", 1), value.find(";", 1), value.find("//", 1)) if p > 0]
    return min(positions) if positions else -1


def _joins_numbers(part: str, gap: int) -> bool:
    before = part[:gap].rstrip(" \t")[-1:]
    after = part[gap:].lstrip(" \t")[:1]
    return before.isdigit() and (after.isdigit() or after in "-.")


def _value_column(text: str, raw_eq: int) -> int:
    if raw_eq < 0:
        return 1
    rest = text[raw_eq + 1 :]
    return raw_eq + 2 + (len(rest) - len(rest.lstrip(" \t")))


def _spaced_option(text: str) -> tuple[str, str, int, int] | None:
    """``key = value`` or ``key=1, 2``: (key, value, key column, value column) when the line's
    whitespace lies only at its ends, around '=' and next to commas, where Darknet's strip()
    deletes it without gluing anything together; else ``None`` (the general path decides).

    Plain string operations, linear in the line: the regex this replaces backtracked
    exponentially on ``key= , , , ,#``.
    """
    eq = text.find("=")
    if eq <= 0:
        return None
    key = text[:eq].strip(" \t")
    if not key or key[0] in "#;[" or key.startswith("//") or _has_any(key, " \t\r\n"):
        return None
    rest = text[eq + 1 :]
    body = rest.strip(" \t")
    if not body or _has_any(body, "#;\r\n") or "//" in body:
        return None
    value = body
    if " " in body or "\t" in body:
        for piece in body.split(","):
            inner = piece.strip(" \t")
            if " " in inner or "\t" in inner:
                return None  # whitespace inside an item: a gap the general path reports
        value = body.replace(" ", "").replace("\t", "")
    key_column = len(text) - len(text.lstrip(" \t")) + 1
    value_column = eq + 2 + len(rest) - len(rest.lstrip(" \t"))
    return key, value, key_column, value_column


def _has_any(text: str, characters: str) -> bool:
    return any(character in text for character in characters)


# whitespace between two characters that are not separators: 'a b' is a gap, '1, 2' is not
_INNER_GAP = re.compile(r"[^ \t,=][ \t]+[^ \t,=]")


def _inner_gap(part: str) -> int:
    """Index of whitespace between two non-separator characters, or -1 (``1, 2`` is fine)."""
    match = _INNER_GAP.search(part.rstrip(" \t\r"))
    return match.start() + 1 if match else -1


def _check_structure(doc: CfgDocument) -> None:
    if not doc.sections:
        doc.findings.append(
            LexFinding("DN003", 1, 1, "file has no [section]: a cfg starts with [net]", None)
        )
        doc.fatal = True
        return
    first = doc.sections[0]
    if first.name not in ("net", "network"):
        doc.findings.append(
            LexFinding(
                "DN004",
                first.line,
                first.column,
                f"first section is [{first.name}]; Darknet stops with 'First section must be "
                "[net] or [network]'",
                "start the file with a [net] section",
            )
        )
        doc.fatal = True
        return
    seen: dict[str, Option] = {}
    for section in doc.sections.built():  # a bare '[name]' has no option to look at
        if not section.odd:
            continue  # every key once, each with '=' and a value: nothing to look at
        seen.clear()
        for option in section.options:
            key = option.key
            if key and key not in seen and option.value is not None:
                seen[key] = option  # the common case: a first key=value line
            else:
                _check_option_shape(option, section, seen, doc.findings)


# a key repeated with the value it already has: a warning in the forks whose option_find
# returns the first line (hank-ai's own reader refuses any repeat)
_SAME_VALUE_REPEAT = {Dialect.PJ: Severity.WARNING, Dialect.AB: Severity.WARNING}


def _check_option_shape(
    option: Option, section: Section, seen: dict[str, Option], findings: list[LexFinding]
) -> None:
    if option.value is None:
        findings.append(
            LexFinding(
                "DN006",
                option.line,
                option.column,
                f"line '{option.key}' has no '='; Darknet stores it as a key with no value, "
                "ignores it and lets it hide any later line with the same key",
                "write key=value",
            )
        )
    elif option.key == "":
        findings.append(
            LexFinding(
                "DN008",
                option.line,
                option.column,
                f"option '={option.value}' has no key; Darknet ignores it",
                "write key=value",
            )
        )
    first = seen.get(option.key)
    if first is None:
        seen[option.key] = option
        return
    if not option.key:
        return
    if option.value is not None and option.value == first.value:
        # option_find returns the first line, which says the same: nothing is misread
        findings.append(
            LexFinding(
                "DN009",
                option.line,
                option.column,
                f"'{option.key}={option.value}' is repeated in [{section.name}] with the same "
                f"value (first at line {first.line}); Darknet reads the first, which says the "
                "same, but an edit to one of the two will be silently ignored",
                "delete the repeated line",
                by_dialect=_SAME_VALUE_REPEAT,
            )
        )
        return
    findings.append(
        LexFinding(
            "DN009",
            option.line,
            option.column,
            f"'{option.key}' is repeated in [{section.name}] (first at line {first.line}); "
            "Darknet uses the first one and ignores this",
            "delete one of the two lines",
        )
    )
