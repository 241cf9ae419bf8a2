"""The last pass of the reader of the original's and AlexeyAB's syntax (darknet_reader): what
the sections and options of a whole document say about its structure, once every line is read."""

from __future__ import annotations

from dnlint.diagnostics import FOLD_AFTER, Severity
from dnlint.dialects import Dialect
from dnlint.read.document import (
    CfgDocument,
    LexFinding,
    Option,
    Section,
    Sections,
)
from dnlint.read.storage import shared_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Iterator

    from dnlint.read.document import FindingCount


def check_structure(doc: CfgDocument) -> None:
    """The reader's findings about a document's sections and options as a whole: no [net]
    first, bare keys, keys without a name, repeated keys (DN003, DN004, DN006, DN008, DN009).

    A repeated line's finding (a bare key's DN006 when its key came before, DN009) past its
    rule's first hundred is noted by line only, and ``doc.remade`` makes it again from the
    option on that line (a flood of repeated lines kept a finding per line)."""
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
    notes = _Notes(doc.findings)
    for section in doc.sections.built():  # a bare '[name]' has no option to look at
        if not section.odd:
            continue  # every key once, each with '=' and a value: nothing to look at
        seen.clear()
        for option in section.options:
            key = option.key
            if key and key not in seen and option.value is not None:
                seen[key] = option  # the common case: a first key=value line
            else:
                _check_option_shape(option, section, seen, notes)
    if notes.noted is not None:
        doc.remade = NotedOptions(doc.sections, notes.noted).findings


class _Notes:
    """The structure pass's findings: the DN006 of each key's first bare line by line (it may
    yet name a line it hides), and the findings of repeated lines past their rule's first
    FOLD_AFTER noted by line only; texts shared (storage.shared_text)."""

    __slots__ = ("findings", "first_bare", "listed", "messages", "noted")

    def __init__(self, findings: list[LexFinding]) -> None:
        self.findings = findings
        self.first_bare: dict[int, LexFinding] = {}
        self.messages: dict[str, str] = {}
        self.listed: dict[str, int] = {}
        self.noted: array[int] | None = None

    def add(self, finding: LexFinding) -> None:
        self.listed[finding.code] = self.listed.get(finding.code, 0) + 1
        self.findings.append(finding)

    def listing(self, code: str) -> bool:
        """Whether the next finding of ``code`` is listed (else its line is to be noted)."""
        return self.listed.get(code, 0) < FOLD_AFTER

    def note(self, line: int) -> None:
        if self.noted is None:
            from array import array  # here: the array module imports collections (start-up)

            self.noted = array("L")
        self.noted.append(line)


class NotedOptions:
    """What :func:`check_structure` noted by line only, made again from the options on those
    lines: the document's sections and the lines (in file order)."""

    __slots__ = ("lines", "sections")

    def __init__(self, sections: Sections, lines: array[int]) -> None:
        self.sections = sections
        self.lines = lines

    def findings(self, count: FindingCount | None = None) -> Iterator[LexFinding]:
        """The findings noted, in file order; those ``count`` takes (by rule, severities per
        dialect, line and column: a folding lint's count) are counted instead of made."""
        wanted = iter(self.lines)
        target = next(wanted, 0)
        for section in self.sections.built():
            if not section.odd:
                continue  # no repeated key, no bare one
            for option in section.options:
                line = option.line
                while line > target:  # a noted line without an option: none is expected
                    target = next(wanted, 0)
                    if not target:
                        return
                if line != target:
                    continue
                first = section.find(option.key)
                if option.value is None or first is None:
                    if count is None or not count("DN006", None, line, option.column):
                        yield bare_key_finding(option)
                elif count is None or not count("DN009", _repeat_severities(option, first),
                                                line, option.column):
                    yield repeated_key_finding(option, first, section.name)
                target = next(wanted, 0)
                if not target:
                    return


def bare_key_finding(option: Option, messages: dict[str, str] | None = None) -> LexFinding:
    """The DN006 of a bare 'key' line (its texts shared through ``messages``)."""
    message = (f"line '{option.key}' has no '='; Darknet stores it as a key with no value, "
               "ignores it and lets it hide any later line with the same key")
    return LexFinding("DN006", option.line, option.column,
                      message if messages is None else shared_text(messages, message),
                      "write key=value")


# a key repeated with the value it already has: a warning in the forks whose option_find
# returns the first line (hank-ai's own reader refuses any repeat)
_SAME_VALUE_REPEAT = {Dialect.PJ: Severity.WARNING, Dialect.AB: Severity.WARNING}


def _repeat_severities(option: Option, first: Option) -> dict[Dialect, Severity] | None:
    """The severities by dialect of a repeat's DN009 (None: the rule's own)."""
    return _SAME_VALUE_REPEAT if option.value == first.value else None


def repeated_key_finding(option: Option, first: Option, section_name: str,
                         messages: dict[str, str] | None = None) -> LexFinding:
    """The DN009 of a 'key=value' line whose key came before in its section (at ``first``)."""
    if _repeat_severities(option, first) is not None:
        # option_find returns the first line, which says the same: nothing is misread
        message = (f"'{option.key}={option.value}' is repeated in [{section_name}] with the "
                   f"same value (first at line {first.line}); Darknet reads the first, which "
                   "says the same, but an edit to one of the two will be silently ignored")
        return LexFinding("DN009", option.line, option.column,
                          message if messages is None else shared_text(messages, message),
                          "delete the repeated line", by_dialect=_SAME_VALUE_REPEAT)
    message = (f"'{option.key}' is repeated in [{section_name}] (first at line {first.line}); "
               "Darknet uses the first one and ignores this")
    return LexFinding("DN009", option.line, option.column,
                      message if messages is None else shared_text(messages, message),
                      "delete one of the two lines")


def _name_hidden_line(finding: LexFinding, hidden: Option) -> None:
    """Say in the DN006 of a bare 'key' line the first line of its key it hides."""
    if "; here it hides" not in finding.message:
        finding.message += f"; here it hides line {hidden.line} ('{hidden.key}={hidden.value}')"


def _check_option_shape(option: Option, section: Section, seen: dict[str, Option],
                        notes: _Notes) -> None:
    first = seen.get(option.key)
    if option.value is None:
        if first is None:
            finding = bare_key_finding(option, notes.messages)
            notes.add(finding)
            notes.first_bare[option.line] = finding  # it may hide later lines of its key
        elif notes.listing("DN006"):
            notes.add(bare_key_finding(option, notes.messages))
        else:
            notes.note(option.line)
    elif option.key == "":
        notes.findings.append(
            LexFinding(
                "DN008",
                option.line,
                option.column,
                shared_text(notes.messages,
                            f"option '={option.value}' has no key; Darknet ignores it"),
                "write key=value",
            )
        )
    if first is None:
        seen[option.key] = option
        return
    if not option.key:
        return
    if option.value is None or first.value is None:
        # one root cause, one finding: a line without '=' is ignored (its own DN006 says so),
        # and one first hides every later line of its key (the first line's DN006 says so,
        # naming the first line it hides here); neither repeat is a DN009 of its own
        hider = notes.first_bare.get(first.line)
        if option.value is not None and hider is not None:
            _name_hidden_line(hider, option)
        return
    if notes.listing("DN009"):
        notes.add(repeated_key_finding(option, first, section.name, notes.messages))
    else:
        notes.note(option.line)
