"""Diagnostics: what every stage reports, and the sink that collects them."""

from __future__ import annotations

import sys
from bisect import bisect_left

from dnlint.clean import clipped, printable
from dnlint.severity import Severity

__all__ = ["Diagnostic", "Severity", "Sink", "new_diagnostic", "replace", "token_end",
           "with_ends"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Iterable, Sequence
    from typing import Any, Final

    from dnlint.edits import Fix

class Diagnostic:
    """One finding. Sorts by position so reports are deterministic: equal, ordered and hashed
    by (line, column, code), as the frozen, ordered dataclass it was (a plain class: the
    dataclasses module imports inspect, a fifth of a one-file run's start-up). Treat it as
    frozen; :func:`replace` gives a changed copy."""

    __slots__ = ("byte_length", "byte_offset", "code", "column", "end_column", "end_line",
                 "fix", "hint", "line", "message", "path", "severity")

    def __init__(self, line: int | None, column: int | None, code: str, severity: Severity,
                 message: str, hint: str | None = None, path: str = "",
                 byte_offset: int | None = None, byte_length: int | None = None,
                 fix: Fix | None = None, end_line: int | None = None,
                 end_column: int | None = None) -> None:
        self.line = line
        self.column = column
        self.code = code
        self.severity = severity
        self.message = message
        self.hint = hint
        self.path = path
        # a finding in a binary file (.weights): the bytes it is about, instead of line and
        # column
        self.byte_offset = byte_offset
        self.byte_length = byte_length
        # the edit that repairs it (dnlint.fixes), when the rule has one and it applies here
        self.fix = fix
        # where the finding ends (1-based line and column, the end column exclusive, as LSP
        # and SARIF count): the item or token it is about; with_ends() gives a finding that
        # names none the token at its start
        self.end_line = end_line
        self.end_column = end_column

    def _key(self) -> tuple[int | None, int | None, str]:
        return (self.line, self.column, self.code)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Diagnostic)
        return self._key() == other._key()

    def __lt__(self, other: Diagnostic) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: Diagnostic) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: Diagnostic) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: Diagnostic) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() >= other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Diagnostic(line={self.line!r}, column={self.column!r}, code={self.code!r}, "
                f"severity={self.severity!r}, message={self.message!r}, hint={self.hint!r}, "
                f"path={self.path!r}, byte_offset={self.byte_offset!r}, "
                f"byte_length={self.byte_length!r}, fix={self.fix!r}, "
                f"end_line={self.end_line!r}, end_column={self.end_column!r})")

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line or 0, self.column or 0, self.code)


def replace(d: Diagnostic, **changes: Any) -> Diagnostic:
    """A copy of ``d`` with ``changes`` (field name -> value), as ``dataclasses.replace``."""
    values = {name: getattr(d, name) for name in _FIELDS}
    unknown = changes.keys() - values.keys()
    if unknown:
        raise TypeError(f"Diagnostic has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return Diagnostic(**values)


_FIELDS = ("line", "column", "code", "severity", "message", "hint", "path", "byte_offset",
           "byte_length", "fix", "end_line", "end_column")


# the registry's severity of each rule asked for: rules are immutable, and importing the
# registry in each call (it loads lazily: start-up) cost 3,900 instructions a finding, compiled
_SEVERITIES: Final[dict[str, Severity]] = {}


def rule_severity(code: str) -> Severity:
    """The severity rule ``code`` has in the registry (ValueError for no such rule)."""
    found = _SEVERITIES.get(code)
    if found is None:
        from dnlint.rules import get_rule

        found = _SEVERITIES[code] = get_rule(code).severity
    return found


def new_diagnostic(
    code: str,
    line: int | None,
    column: int | None,
    message: str,
    hint: str | None = None,
    path: str = "",
    severity: Severity | None = None,
    region: tuple[int, int] | None = None,
    end: tuple[int, int] | None = None,
) -> Diagnostic:
    """A diagnostic of rule ``code``: its severity from the registry unless overridden, no
    control characters (cfg text or file names quoted in it must not drive a terminal) and no
    quoted run longer than clean.MAX_TOKEN (a megabyte key must not make a megabyte report).
    ``region`` is (byte offset, byte length) for a finding in a binary file; ``end`` is
    (end line, end column), the column exclusive, when the finding is about a span it knows
    (an item of a list); without it :func:`with_ends` gives the token at the start."""
    level = severity if severity is not None else rule_severity(code)
    message = clipped(printable(message))
    if hint is not None:
        hint = clipped(printable(hint))
    offset, length = region if region is not None else (None, None)
    end_line, end_column = end if end is not None else (None, None)
    return Diagnostic(line, column, code, level, message, hint, path, offset, length, None,
                      end_line, end_column)


# what ends a token: blanks, '=', and the comment characters
_TOKEN_ENDS: Final = frozenset(" \t\r\n\f\v=#;")


def token_end(text: str, column: int) -> int:
    """The column just past the token that starts at ``column`` (1-based) of ``text``: a
    ``[section]`` header to its ']', a key or a value up to a blank, '=' or a comment (a
    comma list whole, ``10,14, 23,27``); at least one character, and never past the end of
    the line (an empty line or a column past its end gives ``column`` itself)."""
    at = column - 1
    if at >= len(text):
        return column
    if text[at] == "[":
        close = text.find("]", at)
        return close + 2 if close >= 0 else len(text) + 1
    stop = at + 1
    while stop < len(text) and text[stop] not in _TOKEN_ENDS:
        stop += 1
        if text[stop - 1] == ",":  # a list is one token, blanks after its commas included
            while stop < len(text) and text[stop] in " \t":
                stop += 1
    return stop + 1


class TokenEnds:
    """:func:`token_end` for every column of one line, worked out in one pass from its end:
    for a line many findings start on, where scanning from each (a comma list is one token)
    would cost the findings times the line's length."""

    __slots__ = ("_close", "_stop", "_text")

    def __init__(self, text: str) -> None:
        from array import array  # here: the array module is not a clean run's (start-up)

        n = len(text)
        # _stop[p]: where token_end's scan stops once it stands at p; _close[p]: the first
        # ']' at or after p (n: none)
        stop = array("q", bytes(8 * (n + 1)))
        close = array("q", bytes(8 * (n + 1)))
        stop[n] = close[n] = n
        nonblank = n  # the first index past p that is not a blank or tab
        for p in range(n - 1, -1, -1):
            char = text[p]
            close[p] = p if char == "]" else close[p + 1]
            if char in _TOKEN_ENDS:
                stop[p] = p
            else:
                stop[p] = stop[nonblank if char == "," else p + 1]
            if char not in " \t":
                nonblank = p
        self._text, self._stop, self._close = text, stop, close

    def end(self, column: int) -> int:
        """:func:`token_end` of this line at ``column``."""
        at = column - 1
        text = self._text
        if at >= len(text):
            return column
        if text[at] == "[":
            close = self._close[at]
            return close + 2 if close < len(text) else len(text) + 1
        return self._stop[at + 1] + 1


# findings on one line past which its token ends are worked out at once (TokenEnds)
_ENDS_AT_ONCE_AFTER: Final = 8


def with_ends(diagnostics: list[Diagnostic], lines: Sequence[str]) -> list[Diagnostic]:
    """``diagnostics`` with every finding at a line and column given an end (the token at the
    start, :func:`token_end`) unless it has one; the list is the same when none needed one.
    The findings come in file order, so the lines are read in order (Lines scans once)."""
    if not any(d.end_line is None and d.column is not None for d in diagnostics):
        return diagnostics
    count = len(lines)
    ended = []
    line, on_line, table, text = 0, 0, None, ""
    for d in diagnostics:
        if d.end_line is None and d.line is not None and d.column is not None:
            if d.line != line:  # a line is cut from the text once for all its findings
                line, on_line, table = d.line, 0, None
                text = lines[line - 1] if 1 <= line <= count else ""
            on_line += 1
            if table is None and on_line > _ENDS_AT_ONCE_AFTER:
                table = TokenEnds(text)
            end = table.end(d.column) if table is not None else token_end(text, d.column)
            d = replace(d, end_line=d.line, end_column=end)
        ended.append(d)
    return ended


# Rules whose findings are listed one by one up to FOLD_AFTER per file; the rest are folded into
# one finding that counts them (as clang's -ferror-limit, per rule). Only rules that no later
# check reads back from the sink, each finding about its own line: folding them changes nothing
# but what is listed. A file of a million '[x]' or 'xN=N' lines gave a million findings, each
# a Python object several times the bytes of its line, and a report nobody reads to the end.
# The sections Darknet cannot build (DN019-DN022) are each an all-zero layer: nothing reads
# their findings back but whole_network's SIGFPE note, on the first zeroed layer's (listed).
# The lines Darknet ignores or reads otherwise on their own (a bare key DN006, an empty value
# DN007, no key DN008, a repeated key DN009, blanks it deletes DN010, a '//' line DN035) each
# stand alone. So does each problem with a suppression directive (DN901-DN904): they are
# collected apart from the lint's (settings.directives), after it.
FOLDABLE = frozenset({"DN006", "DN007", "DN008", "DN009", "DN010", "DN019", "DN020", "DN021",
                      "DN022", "DN028", "DN035", "DN201", "DN901", "DN902", "DN903", "DN904"})
FOLD_AFTER = 100
# Folded rules a later check asks about by line (two numbers glued into one: a check that
# computes with the value would only repeat it): their counted findings keep their lines.
MISREAD_CODES = frozenset({"DN028"})


class _Folded:
    """The findings of one rule past the first FOLD_AFTER: how many, and where; for a sink
    without detail, the line of each too (packed: what the other fork's lint is asked)."""

    __slots__ = ("column", "count", "high", "lines", "low", "ordered", "severity")

    def __init__(self, line: int | None, column: int | None, severity: Severity,
                 keep_lines: bool) -> None:
        # the span of the counted findings' lines; the summary stands at the first of them
        self.low = self.high = line
        self.column, self.severity, self.count = column, severity, 0
        self.lines: array[int] | None = None
        # whether ``lines`` is sorted: a rule's findings come in file order as the file is
        # read and built, but nothing forces a later stage to report in that order
        self.ordered = True
        if keep_lines:
            # imported here: the array module imports collections (start-up)
            from array import array

            self.lines = array("q")

    def add(self, line: int | None, column: int | None) -> None:
        """Count one more finding, at ``line``:``column``."""
        self.count += 1
        lines = self.lines
        if lines is not None:
            if lines and (line or 0) < lines[-1]:
                self.ordered = False
            lines.append(line or 0)
        if line is None:
            return
        if self.low is None or line < self.low:
            self.low, self.column = line, column
        if self.high is None or line > self.high:
            self.high = line

    def add_lines(self, lines: Sequence[int]) -> None:
        """Count one finding at each of ``lines`` (ascending, none 0), columns unknown: as
        :meth:`add` one at a time, but a packed array of them is appended in one copy (a
        flood's count of a million findings was a Python method call each, compiled)."""
        if not lines:
            return
        self.count += len(lines)
        kept = self.lines
        if kept is not None:
            if kept and lines[0] < kept[-1]:
                self.ordered = False
            # one copy from an array of the same type code (array.extend refuses another)
            same = getattr(lines, "typecode", None) == kept.typecode
            kept.extend(lines if same else iter(lines))
        first, last = lines[0], lines[-1]
        if self.low is None or first < self.low:
            self.low, self.column = first, None
        if self.high is None or last > self.high:
            self.high = last

    def holds(self, line: int | None) -> bool:
        """Whether one of the counted findings is at ``line``."""
        lines = self.lines
        if lines is None:
            return False
        if not self.ordered:
            from array import array  # imported already: lines is one

            # sorted again on the first question after a finding came out of order (timsort
            # merges the sorted run and the few appended lines in one pass)
            lines = self.lines = array(lines.typecode, sorted(lines))
            self.ordered = True
        at = bisect_left(lines, line or 0)
        return at < len(lines) and lines[at] == (line or 0)


class Sink:
    """Collects diagnostics for one file; severity comes from the rule registry, and ``path``
    is stamped on each as it is made (a copy per diagnostic afterwards doubled their memory).

    With ``fold`` (a file without suppression directives: what is listed cannot depend on one)
    each rule of FOLDABLE lists its first FOLD_AFTER findings and counts the others. Without
    ``detail`` (a lint that only asks which lines fail) no suggestion is worked out."""

    def __init__(self, path: str = "", fold: bool = False, detail: bool = True) -> None:
        self.items: list[Diagnostic] = []
        self.path = path
        self.fold = fold
        self.detail = detail
        self._listed: dict[tuple[str, Severity], int] = {}
        self._folded: dict[tuple[str, Severity], _Folded] = {}
        self.made = 0  # findings reported, listed or counted: whether a step reported any

    def report(
        self,
        code: str,
        line: int | None,
        column: int | None,
        message: str,
        hint: str | None = None,
        severity: Severity | None = None,
        end: tuple[int, int] | None = None,
    ) -> None:
        """One finding at ``line``:``column`` (ending at ``end``, when it knows its span)."""
        self.made += 1
        if self.fold and code in FOLDABLE:
            if severity is None:
                severity = rule_severity(code)
            if self._counted(code, severity, line, column):
                return  # counted before it is made: a million '[x]' lines, a million objects
        # interned: a hostile file repeats one finding a million times, and each copy of its
        # text cost more than the bytes that caused it
        self.items.append(new_diagnostic(code, line, column, sys.intern(message),
                                         None if hint is None else sys.intern(hint), self.path,
                                         severity, None, end))

    def detailed(self, code: str) -> bool:
        """Whether the next finding of ``code`` is read in full: not for a sink that only
        answers which lines fail (``detail=False``), nor past a folded rule's first FOLD_AFTER
        at its rule's severity. A caller asks before it computes what only a reader sees (a
        difflib suggestion per unknown option made a file of them take a minute)."""
        if not self.detail:
            return False
        if not self.fold or code not in FOLDABLE:
            return True
        return self._listed.get((code, rule_severity(code)), 0) < FOLD_AFTER

    def _counted(self, code: str, severity: Severity, line: int | None,
                 column: int | None) -> bool:
        """Whether this finding of ``code`` is past the rule's first FOLD_AFTER (then counted,
        not listed)."""
        key = (code, severity)
        listed = self._listed.get(key, 0)
        if listed < FOLD_AFTER:
            self._listed[key] = listed + 1
            return False
        folded = self._folded.get(key)
        if folded is None:
            folded = self._folded[key] = _Folded(line, column, severity,
                                                 not self.detail or code in MISREAD_CODES)
        folded.add(line, column)
        return True

    def count_one(self, code: str, severity: Severity | None, line: int,
                  column: int | None) -> bool:
        """Count a finding of ``code`` at ``line``:``column`` without making it, as
        :meth:`report` would count it: only where the rule already counts rather than lists
        (False, and nothing counted, otherwise)."""
        folded = self._counting(code, severity)
        if folded is None:
            return False
        folded.add(line, column)
        self.made += 1
        return True

    def count_more(self, code: str, severity: Severity | None, lines: Sequence[int]) -> bool:
        """Count findings of ``code`` at ``lines`` (later than every finding of it so far)
        without making them, as :meth:`report` would count them: only where the rule already
        counts rather than lists (False, and nothing counted, otherwise)."""
        folded = self._counting(code, severity)
        if folded is None:
            return False
        folded.add_lines(lines)
        self.made += len(lines)
        return True

    def _counting(self, code: str, severity: Severity | None) -> _Folded | None:
        """The count of ``code`` at ``severity`` (None: its rule's), once the rule counts
        rather than lists there."""
        return self._folded.get((code, severity or rule_severity(code))) if self.fold else None

    def counted_error_at(self, code: str, line: int | None) -> bool:
        """Whether an error of ``code`` at ``line`` is among those counted rather than listed
        (known by line in a sink without detail, and for MISREAD_CODES)."""
        folded = self._folded.get((code, Severity.ERROR))
        return folded is not None and folded.holds(line)

    def counted_at(self, code: str, lines: Iterable[int]) -> bool:
        """Whether a finding of ``code`` (one of MISREAD_CODES) on one of ``lines`` is among
        those counted rather than listed."""
        return any(folded.holds(line) for (counted, _), folded in self._folded.items()
                   if counted == code for line in lines)

    def counted_errors(self) -> bool:
        """Whether any error was counted rather than listed."""
        return any(severity is Severity.ERROR for _, severity in self._folded)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items + self._summaries(), key=Diagnostic.sort_key)

    def _summaries(self) -> list[Diagnostic]:
        """One finding per folded rule, at the first line of those it counts."""
        return [
            new_diagnostic(
                code, folded.low, folded.column,
                f"{folded.count:,} more {code} finding{'s' if folded.count != 1 else ''} in this "
                f"file (lines {folded.low} to {folded.high}) are not listed one by one: "
                f"dnlint lists the first {FOLD_AFTER} of a rule per file",
                "fix the listed ones first: the others are most likely the same mistake",
                self.path, folded.severity)
            for (code, _), folded in self._folded.items()
        ]
