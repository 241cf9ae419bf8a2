"""Diagnostics: what every stage reports, and the sink that collects them."""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dnlint.clean import clipped, printable
from dnlint.severity import Severity

__all__ = ["Diagnostic", "Severity", "Sink", "new_diagnostic", "token_end", "with_ends"]

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dnlint.edits import Fix

@dataclass(frozen=True, order=True, slots=True)  # slots: no __dict__ per finding
class Diagnostic:
    """One finding. Sorts by position so reports are deterministic."""

    line: int | None
    column: int | None
    code: str
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    hint: str | None = field(default=None, compare=False)
    path: str = field(default="", compare=False)
    # a finding in a binary file (.weights): the bytes it is about, instead of line and column
    byte_offset: int | None = field(default=None, compare=False)
    byte_length: int | None = field(default=None, compare=False)
    # the edit that repairs it (dnlint.fixes), when the rule has one and it applies here
    fix: Fix | None = field(default=None, compare=False)
    # where the finding ends (1-based line and column, the end column exclusive, as LSP and
    # SARIF count): the item or token it is about; with_ends() gives a finding that names none
    # the token at its start
    end_line: int | None = field(default=None, compare=False)
    end_column: int | None = field(default=None, compare=False)

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line or 0, self.column or 0, self.code)


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
    from dnlint.rules import get_rule

    level = severity if severity is not None else get_rule(code).severity
    message = clipped(printable(message))
    if hint is not None:
        hint = clipped(printable(hint))
    offset, length = region if region is not None else (None, None)
    end_line, end_column = end if end is not None else (None, None)
    return Diagnostic(line, column, code, level, message, hint, path, offset, length, None,
                      end_line, end_column)


# what ends a token: blanks, '=', and the comment characters
_TOKEN_ENDS = frozenset(" \t\r\n\f\v=#;")


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


def with_ends(diagnostics: list[Diagnostic], lines: Sequence[str]) -> list[Diagnostic]:
    """``diagnostics`` with every finding at a line and column given an end (the token at the
    start, :func:`token_end`) unless it has one; the list is the same when none needed one.
    The findings come in file order, so the lines are read in order (Lines scans once)."""
    if not any(d.end_line is None and d.column is not None for d in diagnostics):
        return diagnostics
    from dataclasses import replace

    count = len(lines)
    ended = []
    for d in diagnostics:
        if d.end_line is None and d.line is not None and d.column is not None:
            text = lines[d.line - 1] if 1 <= d.line <= count else ""
            d = replace(d, end_line=d.line, end_column=token_end(text, d.column))
        ended.append(d)
    return ended


# Rules whose findings are listed one by one up to FOLD_AFTER per file; the rest are folded into
# one finding that counts them (as clang's -ferror-limit, per rule). Only rules that no later
# check reads back from the sink, each finding about its own line: folding them changes nothing
# but what is listed. A file of a million '[x]' or 'xN=N' lines gave a million findings, each
# a Python object several times the bytes of its line, and a report nobody reads to the end.
# The sections Darknet cannot build (DN020-DN022) are each an all-zero layer: nothing reads
# their findings back.
FOLDABLE = frozenset({"DN020", "DN021", "DN022", "DN201"})
FOLD_AFTER = 100


class _Folded:
    """The findings of one rule past the first FOLD_AFTER: how many, and where; for a sink
    without detail, the line of each too (packed: what the other fork's lint is asked)."""

    __slots__ = ("column", "count", "first", "last", "lines", "severity")

    def __init__(self, line: int | None, column: int | None, severity: Severity,
                 keep_lines: bool) -> None:
        self.first = self.last = line
        self.column, self.severity, self.count = column, severity, 0
        self.lines: array[int] | None = array("q") if keep_lines else None

    def holds(self, line: int | None) -> bool:
        """Whether one of the counted findings is at ``line`` (the lines come in file order:
        a rule's findings are reported as the file is read and built)."""
        lines = self.lines
        if lines is None:
            return False
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
        if self.fold and code in FOLDABLE:
            if severity is None:
                from dnlint.rules import get_rule

                severity = get_rule(code).severity
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
        from dnlint.rules import get_rule

        return self._listed.get((code, get_rule(code).severity), 0) < FOLD_AFTER

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
            folded = self._folded[key] = _Folded(line, column, severity, not self.detail)
        folded.count += 1
        if folded.lines is not None:
            folded.lines.append(line or 0)
        if line is not None:
            folded.last = line
        return True

    def counted_error_at(self, code: str, line: int | None) -> bool:
        """Whether an error of ``code`` at ``line`` is among those counted rather than listed
        (known by line in a sink without detail only)."""
        folded = self._folded.get((code, Severity.ERROR))
        return folded is not None and folded.holds(line)

    def counted_errors(self) -> bool:
        """Whether any error was counted rather than listed."""
        return any(severity is Severity.ERROR for _, severity in self._folded)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items + self._summaries(), key=Diagnostic.sort_key)

    def _summaries(self) -> list[Diagnostic]:
        """One finding per folded rule, at the first finding it counts."""
        return [
            new_diagnostic(
                code, folded.first, folded.column,
                f"{folded.count:,} more {code} finding{'s' if folded.count != 1 else ''} in this "
                f"file (lines {folded.first} to {folded.last}) are not listed one by one: "
                f"dnlint lists the first {FOLD_AFTER} of a rule per file",
                "fix the listed ones first: the others are most likely the same mistake",
                self.path, folded.severity)
            for (code, _), folded in self._folded.items()
        ]
