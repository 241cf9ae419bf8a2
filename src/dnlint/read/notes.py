"""The reader's findings about one line each, past a rule's first hundred, kept as the line
only (a file of a million faulty lines kept a finding of a hundred bytes for each two bytes of
input); :meth:`dnlint.read.document.CfgDocument.reread_lines` makes them again."""

from __future__ import annotations

from dnlint.diagnostics import FOLD_AFTER
from dnlint.read.document import Comments, LexFinding, Section, Sections

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Callable


class FindingNotes:
    """A lexer's findings about one line each that reading the line alone makes again: listed
    up to FOLD_AFTER per rule; past that, when the document keeps the lines as the lexer read
    them (``exact``), only the line is noted, and :meth:`CfgDocument.reread_lines` makes
    the finding again (a file of a million '[' or '=' lines kept a finding of a hundred bytes
    for each two bytes of input)."""

    __slots__ = ("exact", "findings", "first_noted", "listed", "noted", "unlisted")

    def __init__(self, findings: list[LexFinding]) -> None:
        self.findings = findings
        self.exact = True
        self.listed: dict[str, int] = {}  # findings listed, per rule
        self.unlisted: dict[str, array[int]] | None = None  # the lines of the rest, per rule
        # per rule, the first finding noted by line only, while every later one has the same
        # dialects and severities (else None): a folding lint counts the rest by their lines
        # and reads none of them again
        self.first_noted: dict[str, LexFinding | None] | None = None  # made with unlisted
        self.noted = 0  # how many findings are noted by line only

    def add(self, finding: LexFinding) -> None:
        code = finding.code
        listed = self.listed.get(code, 0)
        if listed < FOLD_AFTER or not self.exact:
            self.listed[code] = listed + 1
            self.findings.append(finding)
            return
        self._note(finding, finding.line or 0)

    def add_again(self, finding: LexFinding, line: int) -> None:
        """``finding``, made for another line of the same text, at ``line``: made again only
        where it is listed or is its rule's first noted (a file that repeats one faulty line
        made a finding per line only to keep its line)."""
        code = finding.code
        if (self.listed.get(code, 0) < FOLD_AFTER or not self.exact or self.unlisted is None
                or code not in self.unlisted):
            self.add(LexFinding(code, line, finding.column, finding.message, finding.hint,
                                finding.by_dialect, finding.only))
        else:
            self._note(finding, line)

    def _note(self, finding: LexFinding, line: int) -> None:
        code = finding.code
        if self.unlisted is None or self.first_noted is None:
            self.unlisted, self.first_noted = {}, {}
        lines = self.unlisted.get(code)
        if lines is None:
            from array import array  # here: the array module imports collections (start-up)

            lines = self.unlisted[code] = array("L")
            self.first_noted[code] = finding
        else:
            first = self.first_noted[code]
            if first is not None and (first.only != finding.only
                                      or first.by_dialect != finding.by_dialect):
                self.first_noted[code] = None
        lines.append(line)
        self.noted += 1


class LineRereader:
    """What reading one line alone, as line ``number`` inside a section, finds: the findings
    FindingNotes noted by line only, made again with a lexer's ``sections``, ``findings``,
    ``comments`` and its reading of a line (``read``). One per pass over a document's noted
    lines (the reader's ``reread`` makes it), not one per process: a lint in another thread
    reads with a lexer of its own."""

    __slots__ = ("_comments", "_findings", "_read", "_section", "_sections")

    def __init__(self, sections: Sections, findings: list[LexFinding], comments: Comments,
                 read: Callable[[str, int], None]) -> None:
        self._sections, self._findings, self._comments, self._read = (
            sections, findings, comments, read)
        self._section = Section("", 0, 1)
        sections.append(self._section)

    def __call__(self, text: str, number: int) -> list[LexFinding]:
        sections, section = self._sections, self._section
        if len(sections) != 1 or sections[0] is not section or not section.empty:
            # the last line added a section or an option: back to one empty section (reading
            # a line changes nothing else a later line reads)
            while sections:
                sections.pop()
            section = self._section = Section("", 0, 1)
            sections.append(section)
        self._findings.clear()
        self._comments.clear()
        self._read(text, number)
        return list(self._findings)
