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
from bisect import bisect_left, bisect_right
from itertools import islice
from types import MappingProxyType

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.lines import may_hold_directives
from dnlint.read.section_text import SectionText
from dnlint.read.storage import PACK_AFTER, packed, shared_text
from dnlint.records import overload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import Any, Final

    # a folding lint's count of a finding it need not make (rule, severities by dialect,
    # line, column): True when it counted it
    FindingCount = Callable[[str, dict[Dialect, Severity] | None, int, int | None], bool]

_NO_OPTIONS: Mapping[str, Option] = MappingProxyType({})  # Section.first when empty
UNPARSED: Final[Any] = object()  # Option.parsed before (or without) typing


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
        """A 'key=value' line (or a bare 'key') at column 1 without blanks or an inline
        comment."""
        return type(self._more) is not Unplain

    @property
    def column(self) -> int:
        more = self._more
        return more.column if type(more) is Unplain else 1

    @property
    def value_column(self) -> int:
        more = self._more
        if type(more) is Unplain:
            return more.value_column
        return len(self.key) + 2 if self.value is not None else 1  # a bare key: its own

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


class Unmade:
    """The options of a section made from a shared text (:attr:`Section.text`) before anything
    asked for them as objects. Typing shares its values through the text
    (:mod:`dnlint.options.section_memo`) and leaves them here by key (``values``: the
    section's typed values, each list its own) for the options :meth:`Section.made` makes on
    first look: most sections' options are only ever read as typed values, and an object per
    line was a third of what a file left behind."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[str, Any] | None = None


def _joined(key: str, value: str | None) -> str:
    return key if value is None else f"{key}={value}"


class Section:
    """A ``[name]`` section: ``name`` is the text between the brackets after stripping."""

    __slots__ = ("_at", "_first", "line", "listed", "name", "odd", "text")

    def __init__(self, name: str, line: int, column: int) -> None:
        self.name = name
        self.line = line
        # the column of '[', negated when the header is malformed (one slot, not two; made so
        # by malformed_section only)
        self._at = column
        # ``first`` (the first option of every key) as stored: None for no option, the option
        # itself while it is the only one, then a dict. A dict costs 184 bytes even for one
        # entry, six times the bytes of a section such as '[upsample]\nstride=2'.
        self._first: dict[str, Option] | Option | Unmade | None = None
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

    @property
    def first(self) -> Mapping[str, Option]:
        """The first option of every key, the one option_find returns (bare 'key' lines
        included), in file order. Read-only: :meth:`add` adds."""
        first = self._first
        if type(first) is dict:
            return first
        if first is None:
            return _NO_OPTIONS
        if type(first) is Unmade:
            self.made()
            return self.first
        assert isinstance(first, Option)
        return {first.key: first}

    @property
    def empty(self) -> bool:
        """Whether the section has no option line."""
        return self._first is None

    @property
    def options(self) -> list[Option]:
        """Every option line of the section, in file order."""
        return self.listed if self.listed is not None else list(self.first.values())

    def __repr__(self) -> str:
        return f"Section({self.name!r}, line={self.line}, options={len(self.options)})"

    def find(self, key: str) -> Option | None:
        """The option Darknet's ``option_find`` returns: the first with that key."""
        first = self._first
        if type(first) is Unmade:
            first = self.made()
        if type(first) is dict:
            return first.get(key)
        return first if isinstance(first, Option) and first.key == key else None

    def made(self) -> dict[str, Option] | Option | None:
        """``first`` as stored (None, the one option, or a dict), the options of a section
        made from a shared text made now if they were not yet, each with the value typing
        left for it."""
        first = self._first
        if not isinstance(first, Unmade):
            return first
        text = self.text
        assert text is not None  # only the reader's Lexer._make leaves options unmade
        number, typed = self.line, first.values
        made: dict[str, Option] = {}
        option: Option | None = None
        for key, value, offset, where in text.options:
            option = made[key] = Option(key, value, number + offset)
            if where is not None:
                column, value_column, raw, comment_at = where
                option._more = Unplain(column, value_column, raw, comment_at)
            if typed is not None:
                option.parsed = typed[key]  # the very value (list) Values.shared hands out
        kept = made if len(made) > 1 else option
        self._first = kept
        return kept

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


def malformed_section(name: str, line: int, column: int) -> Section:
    """A section whose header is malformed (DN019), its '[' at ``column`` of ``line``.
    (A function, not a classmethod: compiled, ``cls(...)`` is a generic call five times the
    cost of the constructor, and a flood of malformed headers makes one per line and check.)"""
    return Section(name, line, -column)


class Malformed:
    """The name of a malformed header at column 1, as :class:`Sections` keeps a bare one."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


_MALFORMED_SHARED_MAX = 4096  # distinct names Sections shares one Malformed for


class Sections(Sequence[Section]):
    """The file's sections in order. A ``[name]`` header at column 1 with no option under it
    (yet) is kept as its name and line only (a malformed one's name as a :class:`Malformed`),
    and built as a :class:`Section` each time it is asked for: an object per ``[x]`` or ``[``
    line cost twenty times the line. Anything that adds to a section asks for it through
    :meth:`live`, which keeps the object."""

    __slots__ = ("_bare", "_items", "_lines", "_malformed")

    def __init__(self, sections: Iterable[Section] = ()) -> None:
        # a Section, or the name of a bare one (whose line is in _lines)
        self._items: list[Section | str | Malformed] = []
        # the header line of every section (see packed)
        self._lines: list[int] | array[int] = []
        self._bare = 0  # how many items are names
        self._malformed: dict[str, Malformed] = {}  # one Malformed per name, shared
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

    def append_malformed(self, name: str, line: int, column: int) -> None:
        """A malformed header (DN019) whose '[' is at ``column`` of ``line``."""
        if column != 1:
            self.append(malformed_section(name, line, column))
            return
        shared = self._malformed
        item = shared.get(name)
        if item is None:
            item = Malformed(name)
            if len(shared) < _MALFORMED_SHARED_MAX:
                shared[name] = item
        self._items.append(item)
        self._add_line(line)
        self._bare += 1

    def _add_line(self, line: int) -> None:
        self._lines.append(line)
        if len(self._lines) == PACK_AFTER:
            self.pack()

    def pack(self) -> None:
        """Move the header lines to an array once there are PACK_AFTER of them (the reader's
        inlined appends call this a chunk of lines at a time)."""
        self._lines = packed(self._lines)

    def live(self, index: int = -1) -> Section:
        """The section at ``index`` as an object kept from now on, to add options to."""
        item = self._items[index]
        if isinstance(item, Section):
            return item
        section = self._items[index] = self._built(item, index)
        self._bare -= 1
        return section

    def pop(self) -> None:
        """Drop the last section (nothing is made of a header kept as a name)."""
        if not isinstance(self._items.pop(), Section):
            self._bare -= 1
        self._lines.pop()

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
        return item if isinstance(item, Section) else self._built(item, index)

    def _built(self, item: str | Malformed, index: int) -> Section:
        if type(item) is str:
            return Section(item, self._lines[index], 1)
        assert isinstance(item, Malformed)
        return malformed_section(item.name, self._lines[index], 1)

    def __iter__(self) -> Iterator[Section]:
        if not self._bare:
            return iter(self._items)  # type: ignore[arg-type]  # every item is a Section
        return map(self._at, range(len(self._items)))

    def built(self) -> list[Section]:
        """The sections kept as objects: every one with an option, and every header not at
        column 1."""
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


class Comments(Sequence[Comment]):
    """The file's comment lines in order, kept as a line number and a text each (texts seen
    before shared), a :class:`Comment` made when one is asked for: an object per '#' line
    cost thirty times the line."""

    __slots__ = ("_lines", "_shared", "_texts")

    def __init__(self, comments: Iterable[Comment] = ()) -> None:
        # the line of every comment (see packed)
        self._lines: list[int] | array[int] = []
        self._texts: list[str] = []
        self._shared: dict[str, str] = {}
        for comment in comments:
            self.append(comment)

    def append(self, comment: Comment) -> None:
        self.add(comment.line, comment.text)

    def add(self, line: int, text: str) -> None:
        self._texts.append(shared_text(self._shared, text) if len(text) <= _COMMENT_SHARED_LENGTH
                           else text)
        lines = self._lines
        lines.append(line)
        if len(lines) == PACK_AFTER:
            self._lines = packed(lines)

    def clear(self) -> None:
        self._lines, self._texts = [], []

    def since(self, index: int, line: int) -> tuple[tuple[int, str], ...]:
        """(line - ``line``, text) of every comment from ``index`` on (no Comment made)."""
        lines, texts = self._lines, self._texts
        return tuple([(lines[at] - line, texts[at]) for at in range(index, len(texts))])

    def within(self, start: int, end: int | None) -> list[tuple[int, str]]:
        """(line, text) of every comment after line ``start`` and before line ``end`` (None:
        to the end of the file), in order, found by bisection (no Comment made: the checks
        that look into [net]'s comments ask this of every file)."""
        lines, texts = self._lines, self._texts
        first = bisect_right(lines, start)
        last = len(texts) if end is None else bisect_left(lines, end)
        return [(lines[at], texts[at]) for at in range(first, last)]

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, index: int) -> Comment: ...

    @overload
    def __getitem__(self, index: slice) -> list[Comment]: ...

    def __getitem__(self, index: int | slice) -> Comment | list[Comment]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._texts)))]
        return Comment(self._lines[index], self._texts[index])

    def __iter__(self) -> Iterator[Comment]:
        return map(Comment, self._lines, self._texts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Comments, list, tuple)):
            return [(c.line, c.text) for c in self] == [(c.line, c.text) for c in other]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"Comments({len(self)} comments)"


# only the shortest: a flood of '#' or '//' lines is what sharing is for, and hashing each
# real comment's text (most stock comments are under 16 characters) cost 1.8 M instructions
# over the stock corpus and saved nothing there
_COMMENT_SHARED_LENGTH = 4


class CfgDocument:  # a plain class, not a dataclass: start-up (dataclasses imports inspect)
    __slots__ = ("_directives", "comments", "fatal", "findings", "first_noted", "lines",
                 "remade", "reread", "sections", "unlisted")

    def __init__(self, sections: Sections, lines: Sequence[str], comments: Sequence[Comment],
                 findings: list[LexFinding], fatal: bool = False,
                 _directives: bool | None = None,
                 unlisted: dict[str, array[int]] | None = None,
                 reread: Callable[[], Callable[[str, int], list[LexFinding]]] | None = None,
                 first_noted: dict[str, LexFinding | None] | None = None) -> None:
        self.sections = sections
        self.lines = lines
        self.comments = comments if isinstance(comments, Comments) else Comments(comments)
        # the reader's findings, but for those of a rule past its first hundred that reading
        # their line alone makes again: noted by line only, per rule (unlisted; see
        # FindingNotes); ``reread`` makes the reader of one line that makes them again
        self.findings = findings
        self.unlisted = unlisted
        self.reread = reread
        # per rule of ``unlisted``: the finding of its first line, when all its lines' findings
        # hold in the same dialects at the same severities (FindingNotes.first_noted)
        self.first_noted = first_noted
        # what makes again the findings read.structure noted by line only (check_structure)
        # (given a folding lint's count, it counts those it can instead of making them)
        self.remade: Callable[[FindingCount | None], Iterator[LexFinding]] | None = None
        self.fatal = fatal
        # may_hold_directives(), once known
        self._directives = _directives

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, CfgDocument)
        return (self.sections, self.lines, self.comments, self.findings, self.fatal,
                self.unlisted) == (other.sections, other.lines, other.comments, other.findings,
                                   other.fatal, other.unlisted)

    def __repr__(self) -> str:
        return (f"CfgDocument(sections={self.sections!r}, lines={self.lines!r}, "
                f"comments={self.comments!r}, findings={self.findings!r}, "
                f"fatal={self.fatal!r})")

    def layer_sections(self) -> Iterator[Section]:
        """Every section after the first ([net]), one at a time."""
        return islice(self.sections, 1, None)

    def reread_lines(self, code: str, numbers: Iterable[int]) -> Iterator[LexFinding]:
        """The lexer's findings of ``code`` on the lines ``numbers``, made again by reading
        each line alone."""
        if self.reread is None:
            return
        reread = self.reread()  # one line reader for the whole pass
        lines = self.lines
        for number in numbers:
            yield from (found for found in reread(lines[number - 1], number)
                        if found.code == code)

    def may_hold_directives(self) -> bool:
        """:func:`may_hold_directives` of this file, searched once: the lint (whether to fold
        findings) and the policy (whether to parse suppressions) both ask."""
        if self._directives is None:
            self._directives = may_hold_directives(self.lines)
        return self._directives
