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
    bare_key_finding,
    shared_text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array


def check_structure(doc: CfgDocument) -> None:
    """The reader's findings about a document's sections and options as a whole: no [net]
    first, bare keys, keys without a name, repeated keys (DN003, DN004, DN006, DN008, DN009).

    A bare key's DN006 past the first hundred is noted by line only (``doc.bare_unlisted``:
    :meth:`CfgDocument.reread_findings` makes it again from the option on that line), but for
    the first bare line of a key, whose finding may yet name a line it hides."""
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
    bare = _BareKeys()
    messages: dict[str, str] = {}  # the findings' texts, shared (document.shared_text)
    for section in doc.sections.built():  # a bare '[name]' has no option to look at
        if not section.odd:
            continue  # every key once, each with '=' and a value: nothing to look at
        seen.clear()
        for option in section.options:
            key = option.key
            if key and key not in seen and option.value is not None:
                seen[key] = option  # the common case: a first key=value line
            else:
                _check_option_shape(option, section, seen, doc.findings, bare, messages)
    doc.bare_unlisted = bare.noted


class _BareKeys:
    """The DN006 findings of bare 'key' lines: the first line of each key's, by line (it may
    yet name a line it hides); the repeats listed while the rule has fewer than FOLD_AFTER,
    then noted by line only (a flood of bare lines kept a finding per line)."""

    __slots__ = ("first", "listed", "noted")

    def __init__(self) -> None:
        self.first: dict[int, LexFinding] = {}
        self.listed = 0  # repeats listed
        self.noted: array[int] | None = None

    def repeated(self, option: Option, findings: list[LexFinding],
                 messages: dict[str, str]) -> None:
        if len(self.first) + self.listed < FOLD_AFTER:
            findings.append(bare_key_finding(option, messages))
            self.listed += 1
            return
        if self.noted is None:
            from array import array  # here: the array module imports collections (start-up)

            self.noted = array("L")
        self.noted.append(option.line)


def _name_hidden_line(finding: LexFinding, hidden: Option) -> None:
    """Say in the DN006 of a bare 'key' line the first line of its key it hides."""
    if "; here it hides" not in finding.message:
        finding.message += f"; here it hides line {hidden.line} ('{hidden.key}={hidden.value}')"


# a key repeated with the value it already has: a warning in the forks whose option_find
# returns the first line (hank-ai's own reader refuses any repeat)
_SAME_VALUE_REPEAT = {Dialect.PJ: Severity.WARNING, Dialect.AB: Severity.WARNING}


def _check_option_shape(option: Option, section: Section, seen: dict[str, Option],
                        findings: list[LexFinding], bare: _BareKeys,
                        messages: dict[str, str]) -> None:
    first = seen.get(option.key)
    if option.value is None:
        if first is None:
            finding = bare_key_finding(option, messages)
            findings.append(finding)
            bare.first[option.line] = finding  # the first of its key: it may hide later lines
        else:
            bare.repeated(option, findings, messages)
    elif option.key == "":
        findings.append(
            LexFinding(
                "DN008",
                option.line,
                option.column,
                shared_text(messages, f"option '={option.value}' has no key; Darknet ignores it"),
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
        hider = bare.first.get(first.line)
        if option.value is not None and hider is not None:
            _name_hidden_line(hider, option)
        return
    if option.value == first.value:
        # option_find returns the first line, which says the same: nothing is misread
        findings.append(
            LexFinding(
                "DN009",
                option.line,
                option.column,
                shared_text(messages, f"'{option.key}={option.value}' is repeated in "
                            f"[{section.name}] with the same value (first at line {first.line}); "
                            "Darknet reads the first, which says the same, but an edit to one of "
                            "the two will be silently ignored"),
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
            shared_text(messages, f"'{option.key}' is repeated in [{section.name}] (first at "
                        f"line {first.line}); Darknet uses the first one and ignores this"),
            "delete one of the two lines",
        )
    )
