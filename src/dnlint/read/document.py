"""What reading a cfg produces: the document with its sections, options, comments, lines and
the reader's findings (:class:`CfgDocument`), with the line and column each came from.

The readers (:mod:`dnlint.read.darknet_reader`, :mod:`dnlint.read.hank_reader`) build it; every
later stage reads it and never changes it.
"""

from __future__ import annotations

# collections.abc's own Sequence (a base class at run time) from the module the interpreter
# has already imported: importing collections.abc imports the collections package, a tenth
# of a one-file run's start-up (issue 35)
from _collections_abc import Sequence
from itertools import accumulate, islice, repeat
from operator import add
from types import MappingProxyType

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.line_split import LINES_CHUNK as _LINES_CHUNK
from dnlint.read.section_text import SectionText
from dnlint.records import overload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Iterable, Iterator, Mapping
    from typing import Any, Final

_NO_OPTIONS: Mapping[str, Option] = MappingProxyType({})  # Section.first when empty
UNPARSED: Final[Any] = object()  # Option.parsed before (or without) typing
PACK_AFTER = 4096  # sections whose header lines Sections keeps in a list


class Option:
    """One ``key=value`` line, as Darknet's ``read_option`` splits the stripped line.

    (Plain classes with an explicit ``__init__``, here and for Section: one is built per line,
    and a dataclass's generated ``__init__`` stays interpreted Python even when compiled.)
    """

    __slots__ = ("_more", "key", "line", "value")

    def __init__(self, key: str, value: str | None, line: int, column: int = 1,
                 value_column: int = 0, raw: str | None = None, comment_at: int = -1) -> None:
        """``value_column`` 0: right after ``key=`` (the defaults are a plain line's: the
        reader builds a thousand per large cfg, and every argument passed costs)."""
        self.key = key
        self.value = value
        self.line = line
        # A plain 'key=value' line at column 1 without an inline comment, whose positions and
        # text follow from its key and value, keeps here only Darknet's value (``parsed``);
        # any other keeps an Unplain. Four slots: an object of five or six slots, or a copy of
        # every line, cost more than a line of a file of unknown options.
        if raw is None and column == 1 and comment_at < 0 and (
                value_column == 0 or value_column == len(key) + 2):
            self._more: Any = UNPARSED
        else:
            self._more = Unplain(column, value_column or len(key) + 2,
                                  raw if raw is not None else _joined(key, value), comment_at)

    @property
    def parsed(self) -> Any:
        """Darknet's value, set by the typing stage (dnlint.options.convert.type_section) when
        it reads this option; UNPARSED before (or without) typing."""
        more = self._more
        return more.parsed if type(more) is Unplain else more

    @parsed.setter
    def parsed(self, value: Any) -> None:
        more = self._more
        if type(more) is Unplain:
            more.parsed = value
        else:
            self._more = value

    @property
    def plain(self) -> bool:
        """A 'key=value' line at column 1 without an inline comment."""
        return type(self._more) is not Unplain

    @property
    def column(self) -> int:
        more = self._more
        return more.column if type(more) is Unplain else 1

    @property
    def value_column(self) -> int:
        more = self._more
        return more.value_column if type(more) is Unplain else len(self.key) + 2

    @property
    def raw(self) -> str:
        """The line as read (after fgetl's NUL gluing)."""
        more = self._more
        return more.raw if type(more) is Unplain else _joined(self.key, self.value)

    @property
    def comment_at(self) -> int:
        """Index in ``value`` of a '#', ';' or '//' that starts an inline comment, or -1."""
        more = self._more
        return more.comment_at if type(more) is Unplain else -1

    def __repr__(self) -> str:
        return f"Option({self.key!r}, {self.value!r}, line={self.line}, column={self.column})"


class Unplain:
    """What an option that is not plain (see Option._more) keeps besides its key and value.
    Public for the typing stage, which reads ``Option._more`` directly on its hot path."""

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

    __slots__ = ("_at", "_first", "line", "listed", "name", "odd", "text")

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
        # the text it shares with every section made from it, when the reader made it so
        self.text: SectionText | None = None

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
        # the header line of every section: a list, moved to an array('L') at PACK_AFTER
        # sections (8 bytes a line, not an int object's 36): only a long file pays for the
        # array module's import, which imports collections (start-up). ('L': array('q')
        # parses every item it stores through PyArg_Parse, several times the cost.)
        self._lines: list[int] | array[int] = []
        self._bare = 0  # how many items are names
        for section in sections:
            self.append(section)

    def append(self, section: Section) -> None:
        self._items.append(section)
        self._add_line(section.line)

    def append_bare(self, name: str, line: int) -> None:
        """A well-formed ``[name]`` header at column 1 of ``line``."""
        self._items.append(name)
        self._add_line(line)
        self._bare += 1

    def _add_line(self, line: int) -> None:
        lines = self._lines
        lines.append(line)
        if len(lines) == PACK_AFTER and isinstance(lines, list):
            from array import array

            self._lines = array("L", lines)

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


class LexFinding:  # a plain class, not a dataclass: start-up (dataclasses imports inspect)
    """A lexical problem; ``by_dialect`` overrides the rule's default severity per dialect."""

    __slots__ = ("by_dialect", "code", "column", "hint", "line", "message", "only")

    def __init__(self, code: str, line: int | None, column: int | None, message: str,
                 hint: str | None = None, by_dialect: dict[Dialect, Severity] | None = None,
                 only: frozenset[Dialect] | None = None) -> None:
        self.code = code
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
        self.by_dialect = by_dialect
        self.only = only

    def _fields(self) -> tuple[object, ...]:
        return (self.code, self.line, self.column, self.message, self.hint, self.by_dialect,
                self.only)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, LexFinding)
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"LexFinding(code={self.code!r}, line={self.line!r}, column={self.column!r}, "
                f"message={self.message!r}, hint={self.hint!r}, "
                f"by_dialect={self.by_dialect!r}, only={self.only!r})")


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


class CfgDocument:  # a plain class, not a dataclass: start-up (dataclasses imports inspect)
    __slots__ = ("_directives", "comments", "fatal", "findings", "lines", "sections")

    def __init__(self, sections: Sections, lines: Sequence[str], comments: list[Comment],
                 findings: list[LexFinding], fatal: bool = False,
                 _directives: bool | None = None) -> None:
        self.sections = sections
        self.lines = lines
        self.comments = comments
        self.findings = findings
        self.fatal = fatal
        # may_hold_directives(), once known
        self._directives = _directives

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, CfgDocument)
        return (self.sections, self.lines, self.comments, self.findings, self.fatal) == (
            other.sections, other.lines, other.comments, other.findings, other.fatal)

    def __repr__(self) -> str:
        return (f"CfgDocument(sections={self.sections!r}, lines={self.lines!r}, "
                f"comments={self.comments!r}, findings={self.findings!r}, "
                f"fatal={self.fatal!r})")

    def layer_sections(self) -> Iterator[Section]:
        """Every section after the first ([net]), one at a time."""
        return islice(self.sections, 1, None)

    def may_hold_directives(self) -> bool:
        """:func:`may_hold_directives` of this file, searched once: the lint (whether to fold
        findings) and the policy (whether to parse suppressions) both ask."""
        if self._directives is None:
            self._directives = may_hold_directives(self.lines)
        return self._directives
