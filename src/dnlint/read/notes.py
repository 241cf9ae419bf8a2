"""The reader's findings about one line each, past a rule's first hundred, kept as the line
only (a file of a million faulty lines kept a finding of a hundred bytes for each two bytes of
input); :meth:`dnlint.read.document.CfgDocument.reread_findings` makes them again."""

from __future__ import annotations

from dnlint.diagnostics import FOLD_AFTER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array

    from dnlint.read.document import LexFinding


class FindingNotes:
    """A lexer's findings about one line each that reading the line alone makes again: listed
    up to FOLD_AFTER per rule; past that, when the document keeps the lines as the lexer read
    them (``exact``), only the line is noted, and :meth:`CfgDocument.reread_findings` makes
    the finding again (a file of a million '[' or '=' lines kept a finding of a hundred bytes
    for each two bytes of input)."""

    __slots__ = ("exact", "findings", "listed", "noted", "unlisted")

    def __init__(self, findings: list[LexFinding]) -> None:
        self.findings = findings
        self.exact = True
        self.listed: dict[str, int] = {}  # findings listed, per rule
        self.unlisted: dict[str, array[int]] | None = None  # the lines of the rest, per rule
        self.noted = 0  # how many findings are noted by line only

    def add(self, finding: LexFinding) -> None:
        code = finding.code
        listed = self.listed.get(code, 0)
        if listed < FOLD_AFTER or not self.exact:
            self.listed[code] = listed + 1
            self.findings.append(finding)
            return
        if self.unlisted is None:
            self.unlisted = {}
        lines = self.unlisted.get(code)
        if lines is None:
            from array import array  # here: the array module imports collections (start-up)

            lines = self.unlisted[code] = array("L")
        lines.append(finding.line or 0)
        self.noted += 1
