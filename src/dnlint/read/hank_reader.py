"""Stage 1 for ``--dialect hank``: bytes -> sections, the way hank-ai's Darknet reads a cfg.

hank-ai/darknet (checked at commit f684e1d, the build of ``../shared/oracle``) replaced the C
reader with ``Darknet::CfgFile::read`` (src-lib/darknet_cfg.cpp). Each line is trimmed of
spaces, tabs, CR and LF at both ends and then matched against two regular expressions:
``[name]`` (the name is everything up to the *last* ']'), or ``key = value`` where the key has
no '#', '=' or blank and the value is everything before a '#'. Every other line is ignored
without a word, so unlike AlexeyAB's ``read_option`` there are no bare keys, no glued
whitespace and no comment text inside values. A repeated key and a line before any section
are fatal; an empty first section is replaced by the next header. This module reproduces that
and produces the same :class:`CfgDocument` as :mod:`dnlint.read.darknet_reader`, so everything
after stage 1 is shared; the AlexeyAB/pjreddie reader is left untouched (and its hot path
unchanged).
"""

from __future__ import annotations

import re

from dnlint.cnumbers import HANK_NUMBER_CHARS, hank_stof
from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.darknet_reader import (
    CfgDocument,
    Comments,
    FindingNotes,
    LexFinding,
    Lines,
    Option,
    Section,
    Sections,
    _Lexer,
)
from dnlint.read.notes import LineRereader
from dnlint.read.sniff import sniff_fatal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_HANK = Dialect.HANK
_TRIM = " \t\r\n"
_KEY_STOP = "#= \t"  # what ends a key in hank's pattern '[^#= \t]+'
# the key=value half of CfgFile::read's pattern, on a line already trimmed (no leading blanks)
_KEY_VALUE = re.compile(r"([^#= \t]+)[ \t]*=[ \t]*([^#]+)")
# what _key_value found on each short line read before (bounded: emptied when full)
_KEY_VALUES: Final[dict[str, tuple[str, int, str] | None]] = {}
_KEY_VALUES_SIZE: Final = 4096
_KEPT_LINE: Final = 64
_UNSEEN: Final = object()


def read_cfg_hank(data: bytes) -> CfgDocument:
    """Split ``data`` into sections and options as ``Darknet::CfgFile::read`` does."""
    findings: list[LexFinding] = []
    if sniff_fatal(data, findings):
        return CfgDocument(Sections(), [], [], findings, fatal=True)
    if data.startswith(b"\xef\xbb\xbf"):
        findings.append(LexFinding(
            "DN014", 1, 1,
            "file starts with a UTF-8 byte-order mark; hank-ai's Darknet reads it as part of the "
            "first line, so '[net]' is no header there and the first option stops it: 'cannot "
            "add a configuration line without a section'",
            "save the file as UTF-8 without BOM"))
        return CfgDocument(Sections(), [], [], findings, fatal=True)
    decoder = _Lexer(findings)  # its UTF-8 decoding (DN016) only, the lexing is hank's below
    texts = decoder._decode_lines(data)
    lexer = _HankLexer(findings)
    for number, text in enumerate(texts, start=1):
        lexer.line(text, number)
    doc = CfgDocument(lexer.sections, Lines(decoder._whole, True), lexer.comments,
                      findings, fatal=lexer.fatal, unlisted=lexer.notes.unlisted,
                      reread=_line_rereader, first_noted=lexer.notes.first_noted)
    _check_structure(doc)
    return doc


def _line_rereader() -> LineRereader:
    """The reader of one noted line at a time (CfgDocument.reread), with a lexer of its own."""
    lexer = _HankLexer([])
    lexer.notes.exact = False  # lists every finding
    return LineRereader(lexer.sections, lexer.findings, lexer.comments, lexer.line)


class _HankLexer:
    def __init__(self, findings: list[LexFinding]) -> None:
        self.findings = findings
        self.sections = Sections()
        self.comments = Comments()
        self.fatal = False
        # the findings of a line hank ignores, and of text after a header's ']': reading the
        # line alone makes them again (the document's lines are the lexer's: CRs trimmed)
        self.notes = FindingNotes(findings)

    def line(self, text: str, number: int) -> None:
        line = text.strip(_TRIM)
        if not line:
            return
        offset = len(text) - len(text.lstrip(_TRIM))
        if line[0] == "[" and self._header(line, number, offset + 1):
            return
        parsed = _key_value(line)
        if parsed is None:
            self._ignored(line, number, offset + 1)
            return
        key, value_at, value = parsed
        # a line that is exactly 'key=value' (no indentation, no blank, nothing after the
        # value: its length says so, without building the text) keeps no raw text: Option then
        # makes the plain option the other reader makes, and typing shares it with sections
        # of the same text
        raw = None if offset == 0 and len(text) == len(key) + 1 + len(value) else text
        self._option(Option(key, value, number, offset + 1, offset + value_at + 1, raw), line)

    def _header(self, line: str, number: int, column: int) -> bool:
        close = _header_end(line)
        if close < 0:
            return False  # '[]' or no ']': not a header (hank then tries key=value)
        first = self.sections[0] if self.sections else None
        if first is not None and len(self.sections) == 1 and not first.options:
            self._empty_first_section(first, line[1:close])
            self.sections.pop()
        self.sections.append(Section(line[1:close], number, column))
        if line[close + 1:].strip(" \t"):
            self.notes.add(LexFinding(
                "DN019", number, column,
                f"text '{line[close + 1:].strip()}' after ']': hank-ai's Darknet ignores it, but "
                f"AlexeyAB's and the original take the whole line as the section name",
                f"put comments on a line of their own above [{line[1:close]}]",
                by_dialect={_HANK: Severity.WARNING}))
        return True

    def _empty_first_section(self, first: Section, replacement: str) -> None:
        self.findings.append(LexFinding(
            "DN027", first.line, first.column,
            f"[{first.name}] has no options: hank-ai's reader replaces an empty first section "
            f"with the next header, so [{replacement}] takes its place"
            + ("" if replacement in ("net", "network") else
               f" and Darknet stops: 'expected to find [net] or [network], but instead found "
               f"[{replacement}]'"),
            "give [net] its options (width, height, channels, batch, ...)"))

    def _option(self, option: Option, line: str) -> None:
        if not self.sections:
            if not self.fatal:
                self.fatal = True
                self.findings.append(LexFinding(
                    "DN002", option.line, option.column,
                    f"option '{line}' comes before any [section]; hank-ai's Darknet stops: "
                    f"'cannot add a configuration line without a section at line #{option.line}'",
                    "start the file with [net]"))
            return
        section = self.sections.live()
        first = section.find(option.key)
        if first is not None:
            self.findings.append(LexFinding(
                "DN009", option.line, option.column,
                f"hank-ai's Darknet stops: 'duplicate key \"{option.key}\" in [{section.name}] "
                f"at lines #{first.line} and #{option.line}'",
                "delete one of the two lines"))
            return
        section.add(option)
        value = option.value or ""
        if (value and not value.strip(HANK_NUMBER_CHARS) and not _plain_digits(value)
                and hank_stof(value) is None):
            self.findings.append(LexFinding(
                "DN213", option.line, option.value_column,
                f"{option.key}={value}: hank-ai's Darknet stops while reading the file: "
                f"'line #{option.line}: failed to parse numeric value from \"{line}\"'",
                "write the number in plain decimal notation"))

    def _ignored(self, line: str, number: int, column: int) -> None:
        """A line neither pattern matches: hank skips it silently; say what was lost."""
        if line[0] == "#" or (line[0] == ";" and "=" not in line):
            self.comments.add(number, line)
            return
        if line.startswith("//"):
            # '// note' or '// size=5': skipped, as the writer meant ('//size=5', which the
            # pattern reads as a key, is an unused line hank-ai's Darknet stops on: DN201)
            self.comments.add(number, line)
            self.notes.add(LexFinding(
                "DN035", number, column,
                "a line that starts with '//': hank-ai's Darknet has no '//' comments and "
                "skips this line only because it does not read as key=value; '#' is a comment",
                "start the comment with '#'"))
            return
        code, why = _why_ignored(line)
        self.notes.add(LexFinding(
            code, number, column,
            f"hank-ai's Darknet ignores the line '{line}': {why}",
            _IGNORED_HINTS[code], by_dialect={_HANK: Severity.ERROR}))


def _key_value(line: str) -> tuple[str, int, str] | None:
    """(key, index of the value, value) where hank's key=value pattern matches the trimmed
    ``line``, the value trimmed; ``None`` when it does not match. A short line matched before
    is looked up (a network repeats its few lines; a match cost 5,600 instructions)."""
    known = _KEY_VALUES.get(line, _UNSEEN)
    if known is not _UNSEEN:
        return known  # type: ignore[return-value]  # (a reading or None, never _UNSEEN)
    parsed = _match_key_value(line)
    if len(line) <= _KEPT_LINE:
        if len(_KEY_VALUES) >= _KEY_VALUES_SIZE:
            _KEY_VALUES.clear()
        _KEY_VALUES[line] = parsed
    return parsed


def _match_key_value(line: str) -> tuple[str, int, str] | None:
    match = _KEY_VALUE.match(line)
    if match is None:
        return None
    raw = match.group(2)
    value = raw.strip(_TRIM)
    return match.group(1), match.start(2) + (len(raw) - len(raw.lstrip(_TRIM))), value


def _plain_digits(value: str) -> bool:
    """Digits that always fit a float: std::stof reads them (the common case, checked fast)."""
    return value.isdigit() and len(value) < 39


def _header_end(line: str) -> int:
    """The index of the ']' that ends '^\\[(.+)\\]' on ``line`` (which starts with '['), or -1:
    '.' stops at a CR, and '.+' runs to the last ']' before it."""
    end = line.find("\r")
    close = line.rfind("]", 0, end if end >= 0 else len(line))
    return close if close >= 2 else -1


def _key_end(line: str) -> int:
    end = 0
    while end < len(line) and line[end] not in _KEY_STOP:
        end += 1
    return end


def _why_ignored(line: str) -> tuple[str, str]:
    """Which step of hank's key=value pattern failed on ``line``, as a rule and a reason."""
    end = _key_end(line)
    if end == 0:
        return "DN008", "it has no key before '='"
    at = end
    while at < len(line) and line[at] in " \t":
        at += 1
    if at < len(line) and line[at] == "=":
        return "DN007", "no value after '=' (only blanks or a comment)"
    if "=" not in line:
        if line[0] == "[":
            return "DN019", "a section header needs a name and a closing ']'"
        return "DN006", "it has no '=' (AlexeyAB's Darknet would store it as a bare key)"
    if at < len(line) and line[at] == "#":
        return "DN006", "it has no '=' before the '#' that starts a comment"
    return "DN010", "the key contains whitespace, which hank's pattern does not allow"


_IGNORED_HINTS = {
    "DN006": "write key=value",
    "DN007": "give the option a value or delete the line",
    "DN008": "write key=value",
    "DN010": "remove the whitespace from the key",
    "DN019": "write [name]",
}


def _check_structure(doc: CfgDocument) -> None:
    """What ``CfgFile::create_network`` checks before it builds anything."""
    if doc.fatal:
        return
    if not doc.sections:
        doc.findings.append(LexFinding("DN003", 1, 1, "file has no [section]: a cfg starts with "
                                       "[net]", None))
        doc.fatal = True
        return
    first = doc.sections[0]
    if first.name not in ("net", "network"):
        doc.fatal = True
        if any(finding.code == "DN027" for finding in doc.findings):
            return  # the empty [net] that this section replaced is the one root cause
        doc.findings.append(LexFinding(
            "DN004", first.line, first.column,
            f"first section is [{first.name}]; hank-ai's Darknet stops: 'expected to find [net] "
            f"or [network], but instead found [{first.name}] on line #{first.line}'",
            "start the file with a [net] section"))
