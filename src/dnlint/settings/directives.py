"""Suppression directives: ``# dnlint: ACTION=CODE[,CODE]`` on a comment line of its own.

Darknet deletes all whitespace on a line and keeps a trailing ``# ...`` as part of the value
(§lines), so a directive may only stand on its own ``#``/``;`` comment line:

- ``disable-next-line=CODES``: the next line that is not blank or a comment;
- ``disable=CODES`` ... ``enable=CODES``: a range (to the end of the file without ``enable``);
- ``disable-file=CODES``: the whole file; only before the first section.

CODES are rule codes or prefixes (``DN2``, ``DN203``), comma-separated; ``-- reason`` may
follow. This module only parses; :mod:`dnlint.settings.policy` applies directives and tracks use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from dnlint.diagnostics import Diagnostic, Sink
from dnlint.read.darknet_reader import CfgDocument, text_of
from dnlint.settings.selectors import is_syntax_error, normalize, selector_matches

ACTIONS = ("disable-next-line", "disable", "enable", "disable-file")
_DIRECTIVE = re.compile(r"^[#;]+\s*dnlint\s*:\s*(?P<body>.*)$", re.IGNORECASE)
# codes: first to last non-space character ('\S(?:.*\S)?'; a lazy '.*?\s*$' was quadratic)
_ACTION = re.compile(r"^(?P<action>[A-Za-z-]+)\s*(?:=\s*(?P<codes>\S(?:.*\S)?))?\s*$")
_TRAILING = re.compile(r"[#;]\s*dnlint\s*:", re.IGNORECASE)


def is_known(selector: str) -> bool:
    """True when ``selector`` is a code or prefix of at least one registered rule."""
    return selector in _rule_prefixes()


@lru_cache(maxsize=1)
def _rule_prefixes() -> frozenset[str]:
    """Every code and every prefix of one (the empty one too, as ``startswith`` had it): a
    set, as a directive may name 500,000 distinct selectors (asking each rule of each took
    150 us a selector)."""
    from dnlint.rules import all_rules

    return frozenset(r.code[:end] for r in all_rules() for end in range(len(r.code) + 1))


@lru_cache(maxsize=1024)
def _selects_only_syntax_errors(selector: str) -> bool:
    from dnlint.rules import all_rules

    return all(is_syntax_error(r.code, r.severity) for r in all_rules()
               if r.code.startswith(selector))


@dataclass
class Scope:
    """One selector of one directive and the lines it covers (``end`` inclusive)."""

    selector: str
    line: int
    column: int
    start: int
    end: int
    used: bool = False

    def covers(self, diagnostic: Diagnostic) -> bool:
        if not selector_matches(self.selector, diagnostic.code):
            return False
        if self.start == 0:  # disable-file: also file-level diagnostics without a line
            return True
        return diagnostic.line is not None and self.start <= diagnostic.line <= self.end


@dataclass
class Directives:
    """The scopes of a file's directives, and the problems with them (DN901-DN904), each rule
    listed up to FOLD_AFTER times and the rest counted: a directive naming 500,000 unknown
    codes is one summary past the first hundred, not a finding each."""

    problems: Sink
    scopes: list[Scope] = field(default_factory=list)


@dataclass
class _Parsed:
    line: int
    action: str
    codes: list[tuple[str, int]]  # (selector, column)


def parse_directives(doc: CfgDocument, path: str = "") -> Directives:
    """Every directive of ``doc`` as scopes, plus DN901-DN904 problems on the directives."""
    result = Directives(Sink(path, fold=True))
    last_line = len(doc.lines)
    first_section = doc.sections[0].line if doc.sections else last_line + 1
    comment_lines = {c.line for c in doc.comments}
    next_code = _NextCodeLine(doc.lines, comment_lines)
    open_ranges: dict[str, list[Scope]] = {}
    for comment in doc.comments:
        parsed = _parse_comment(doc, comment.line, comment.text, result)
        if parsed is None:
            continue
        if parsed.action == "enable":
            _close(parsed, open_ranges, result)
            continue
        for selector, column in parsed.codes:
            scope = _scope(parsed, selector, column, last_line, next_code, first_section)
            if scope is None:
                _report(result, "DN903", parsed.line, 1,
                        "'disable-file' after the first section is ignored",
                        "move it above the first [section]")
                break
            result.scopes.append(scope)
            if parsed.action == "disable":
                open_ranges.setdefault(selector, []).append(scope)
    _check_trailing(doc, comment_lines, result)
    return result


def _scope(parsed: _Parsed, selector: str, column: int, last_line: int,
           next_code: _NextCodeLine, first_section: int) -> Scope | None:
    if parsed.action == "disable-file":
        if parsed.line > first_section:
            return None
        return Scope(selector, parsed.line, column, 0, last_line)
    if parsed.action == "disable":
        return Scope(selector, parsed.line, column, parsed.line + 1, last_line)
    target = next_code.after(parsed.line)
    return Scope(selector, parsed.line, column, target, target)


class _NextCodeLine:
    """The next line that is neither blank nor a comment, for directives in line order.

    Asked in increasing line order, so one cursor that only moves forward serves them all:
    a run of N directive lines costs N steps, not N * N.
    """

    def __init__(self, lines: Sequence[str], comment_lines: set[int]) -> None:
        self._lines = lines
        self._comment_lines = comment_lines
        self._cursor = 0  # the last code line found (0: none yet)
        self._exhausted = False

    def after(self, line: int) -> int:
        if self._exhausted:
            return line + 1  # no code line left: the directive covers the line below it
        if self._cursor > line:
            return self._cursor
        lines, comments = self._lines, self._comment_lines
        for number in range(line + 1, len(lines) + 1):
            if number not in comments and lines[number - 1].strip():
                self._cursor = number
                return number
        self._exhausted = True
        return line + 1


def _close(parsed: _Parsed, open_ranges: dict[str, list[Scope]], result: Directives) -> None:
    for selector, column in parsed.codes:
        # keyed by selector: the distinct selectors are few (each names a rule or a prefix)
        closing = [opened for opened in open_ranges if opened.startswith(selector)]
        if not closing:
            _report(result, "DN903", parsed.line, column,
                    f"'enable={selector}' without an open 'disable' of it",
                    "delete the line or add '# dnlint: disable=...' above")
        for opened in closing:
            for scope in open_ranges.pop(opened):
                scope.end = parsed.line - 1


def _parse_comment(doc: CfgDocument, line: int, text: str, result: Directives) -> _Parsed | None:
    match = _DIRECTIVE.match(text)
    if match is None:
        return None
    body = match.group("body").split(" --", 1)[0].strip()
    found = _ACTION.match(body)
    action = found.group("action").lower() if found else ""
    if action not in ACTIONS:
        _report(result, "DN903", line, 1, f"unknown dnlint directive '{body}'",
                "use disable-next-line=, disable=, enable= or disable-file=")
        return None
    raw_codes = (found.group("codes") or "") if found else ""
    if not raw_codes.strip():
        _report(result, "DN903", line, 1, f"'{action}' names no rule", f"write {action}=DN...")
        return None
    source = doc.lines[line - 1]
    codes = [(code.selector, code.column)
             for code in _distinct_known(_split_codes(raw_codes, source), line, result)]
    return _Parsed(line, action, codes)


@dataclass(frozen=True, slots=True)
class _Code:
    """A selector named in a directive, and the columns of its text (the end exclusive)."""

    selector: str
    column: int
    end: int | None  # None: the directive's text was not found on its line


def _distinct_known(codes: Iterable[_Code], line: int, result: Directives) -> list[_Code]:
    """Each selector once, checked when first named (DN902, DN903) and kept when it may be
    suppressed; one DN901 per repeated selector, however often it is repeated. Only the
    selectors are remembered, not every code: a directive may name 500,000."""
    seen: set[str] = set()
    kept: list[_Code] = []
    repeats: dict[str, tuple[_Code, int]] = {}  # selector -> (its first repeat, count)
    for code in codes:
        selector = code.selector
        if selector not in seen:
            seen.add(selector)
            if _valid_code(code, line, result):
                kept.append(code)
        elif selector in repeats:
            repeats[selector] = (repeats[selector][0], repeats[selector][1] + 1)
        else:
            repeats[selector] = (code, 1)
    for selector, (code, count) in repeats.items():
        times = "once more" if count == 1 else f"{count} more times"
        _report(result, "DN901", line, code.column,
                f"{selector} is repeated {times} in this directive; a repeat suppresses nothing",
                "name each code once", code.end)
    return kept


def _split_codes(raw: str, source: str) -> Iterator[_Code]:
    """The comma-separated selectors of ``raw`` (found in ``source``, its line), one at a
    time."""
    start = source.find(raw, max(source.find("="), 0))
    found = start >= 0
    offset = 0
    while offset <= len(raw):
        comma = raw.find(",", offset)
        piece = raw[offset:] if comma < 0 else raw[offset:comma]
        stripped = piece.strip()
        if stripped:
            column = start + offset + piece.index(stripped[0]) + 1
            # its own span: a finding given none would take the token at its column, which
            # is the whole comma list (each of 17,000 unknown codes scanned the line again)
            yield _Code(normalize(stripped), column if found else 1,
                        column + len(stripped) if found else None)
        if comma < 0:
            return
        offset = comma + 1


def _valid_code(code: _Code, line: int, result: Directives) -> bool:
    selector = code.selector
    if not is_known(selector):
        _report(result, "DN902", line, code.column, f"'{selector}' matches no dnlint rule",
                "see dnlint --list-rules", code.end)
        return False
    if _selects_only_syntax_errors(selector):
        _report(result, "DN903", line, code.column,
                f"'{selector}' is a syntax error, which cannot be suppressed",
                "fix the line instead", code.end)
        return False
    return True


def _check_trailing(doc: CfgDocument, comment_lines: set[int], result: Directives) -> None:
    # one C-level search of the whole text first: most files hold no directive at all, and a
    # match across a line break only sends the file through the exact per-line loop below
    if _TRAILING.search(text_of(doc.lines)) is None:
        return
    for number, text in enumerate(doc.lines, start=1):
        if number in comment_lines:
            continue
        found = _TRAILING.search(text)
        if found:
            _report(result, "DN904", number, found.start() + 1,
                    "dnlint directive after an option or section is not applied; Darknet reads "
                    "it as part of the line",
                    "put the directive on a comment line of its own above")


def _report(result: Directives, code: str, line: int, column: int, message: str,
            hint: str | None, end_column: int | None = None) -> None:
    end = (line, end_column) if end_column is not None else None
    result.problems.report(code, line, column, message, hint, end=end)
