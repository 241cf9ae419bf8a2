"""Stage 1: bytes -> sections with positions (the original's and AlexeyAB's reader).

Reproduces what Darknet's ``read_cfg``/``fgetl``/``strip``/``read_option`` (src/parser.c,
src/utils.c, src/option_list.c) make of a file, and keeps, for every section and option, the
line and column it came from. Everything Darknet would silently accept or misread is recorded
as a :class:`LexFinding`; the dialect decides the severity of a few of them later. What it
produces, the :class:`CfgDocument`, is :mod:`dnlint.read.document`'s.
"""

from __future__ import annotations

import sys

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.document import (
    UNPARSED,
    CfgDocument,
    Comment,
    Comments,
    LexFinding,
    Option,
    Section,
    Sections,
    Unmade,
    Unplain,
)
from dnlint.read.headers import (
    header_name,
    header_problem,
    spaced_header,
)
from dnlint.read.line_forms import (
    blank_finding,
    darknet_strip,
    inline_comment_at,
    spaced_option,
    value_column_of,
)
from dnlint.read.line_split import LINES_CHUNK, line_chunks, split_lines
from dnlint.read.lines import Lines, may_hold_directives, text_of
from dnlint.read.notes import FindingNotes, LineRereader
from dnlint.read.section_text import MadeOption, SectionText
from dnlint.read.sniff import sniff_fatal
from dnlint.read.structure import check_structure

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Final

# the document's names are re-exported: every stage imports them from here
__all__ = ["UNPARSED", "CfgDocument", "Comment", "Comments", "FindingNotes", "LexFinding",
           "Lines", "Option", "Section", "SectionText", "Sections", "forget_texts",
           "may_hold_directives", "read_cfg", "split_lines", "text_of"]

_SHARED_MAX: Final = 4096  # distinct strings the lexer shares per file
_SHARED_LENGTH: Final = 64  # longer values are rarely repeated
# Every plain 'key=value' line the fast path has read, in any file, and what it read:
# (shared key, shared value, Option's comment_at). Its text alone decides that path (a line
# with a blank, or starting '[', '#', ';' or '//' never gets this far), so a later line of the
# same text, under a section, skips the split, the comment search and two look-ups hashing
# fresh strings (the stock corpus has 406 distinct texts in its 52,277 such lines). Bounded:
# emptied when full.
_PLAIN_LINES: Final[dict[str, tuple[str, str, int]]] = {}
_PLAIN_LINES_MAX: Final = 4096
# Every section text read without a finding (see SectionText), by its bytes after the '[';
# bounded like _PLAIN_LINES. 94% of the stock sections repeat an earlier one word for word.
_SECTION_TEXTS: Final[dict[bytes, SectionText]] = {}
_SECTION_TEXTS_MAX: Final = 2048  # the stock corpus keeps about 1,100
_SECTION_TEXT_LENGTH: Final = 1024  # longer sections are not kept


def _line_rereader() -> LineRereader:
    """The reader of one noted line at a time (CfgDocument.reread), with a lexer of its own."""
    lexer = _Lexer([])
    lexer.notes.exact = False  # lists every finding
    return LineRereader(lexer.sections, lexer.findings, lexer.comments, lexer._line)


def forget_texts() -> None:
    """Empty the reader's memories of lines and section texts (and with them what later
    stages kept in a text's memo): for tests that count what is shared."""
    _PLAIN_LINES.clear()
    _SECTION_TEXTS.clear()


def read_cfg(data: bytes) -> CfgDocument:
    """Split ``data`` into sections and options the way Darknet does, recording every quirk."""
    findings: list[LexFinding] = []
    if sniff_fatal(data, findings):
        return CfgDocument(Sections(), [], [], findings, fatal=True)
    if data.startswith(b"\xef\xbb\xbf"):
        findings.append(
            LexFinding(
                "DN014",
                1,
                1,
                "file starts with a UTF-8 byte-order mark; Darknet reads it as part of the first "
                "line, so '[net]' becomes an option line before any section (SIGSEGV)",
                "save the file as UTF-8 without BOM",
            )
        )
        data = data[3:]
    lexer = _Lexer(findings)
    lexer.run(data)
    doc = CfgDocument(lexer.sections, Lines(lexer._whole, lexer.has_cr), lexer.comments, findings,
                      unlisted=lexer.notes.unlisted, reread=_line_rereader,
                      first_noted=lexer.notes.first_noted)
    check_structure(doc)
    return doc


class _Lexer:
    def __init__(self, findings: list[LexFinding]) -> None:
        self.findings = findings
        self.sections = Sections()
        self.has_cr = False
        self.comments = Comments()
        self.crlf_lines = 0
        self.first_crlf = 0
        self.first_crlf_column = 1  # where the '\r' of the first CRLF line is
        self.bad_utf8_reported = 0
        self.option_before_section = False
        # a line's findings that reading it alone makes again (DN007, DN010, DN019, DN028,
        # DN035); exact unless the document's lines are not the lexer's (a NUL, a CR)
        self.notes = FindingNotes(findings)
        self._whole: str | bytes = ""  # the file: decoded, or its bytes when they are ASCII
        # one string for each repeated key, short value and section name ('filters', '1',
        # 'leaky', 'convolutional'): a copy per line cost more than the line's bytes. Bounded,
        # so a file of unique names grows it no further than _SHARED_MAX entries.
        self._shared: dict[str, str] = {}
        # blank_finding of each line text with blanks, bounded as the shared strings are
        self._blanks: dict[str, LexFinding | None] = {}

    @property
    def found(self) -> int:
        """How many findings the lexer made so far, listed or noted by line only."""
        return len(self.findings) + self.notes.noted

    def share(self, text: str) -> str:
        """``text``, or the equal string seen before."""
        shared = self._shared
        known = shared.get(text)
        if known is not None:
            return known
        if len(shared) < _SHARED_MAX and len(text) <= _SHARED_LENGTH:
            # interned: the declarations' names are ('filters', 'leaky'), so every later
            # look-up of this key or value in a table finds it by identity, not by comparing
            text = shared[text] = sys.intern(text)
        return text

    def run(self, data: bytes) -> None:
        if data.isascii() and b"\r" not in data and b"\0" not in data:
            # the common file: its bytes are its characters, kept once (see Lines), and
            # decoded a chunk at a time as the lexer walks them
            self._whole = data
            if len(data) <= LINES_CHUNK:
                self._run_sections(data, b"\t" in data, b";" in data)
            else:
                self._run_plain(line_chunks(data), b"\t" in data, b";" in data)
            return
        try:
            text = self._whole = data.decode("utf-8")
            texts: list[str] | None = None
        except UnicodeDecodeError:
            texts = self._decode_lines(data)  # decoded line by line, each invalid one reported
            text = self._decoded()
        has_cr = self.has_cr = "\r" in text
        self.notes.exact = not has_cr and "\0" not in text
        if has_cr or "\0" in text:
            self._run_careful(texts if texts is not None else split_lines(text), has_cr)
        else:
            self._run_plain([texts] if texts is not None else line_chunks(text),
                            "\t" in text, ";" in text)

    def _decoded(self) -> str:
        whole = self._whole
        return whole.decode("ascii") if isinstance(whole, bytes) else whole

    def _run_sections(self, data: bytes, has_tab: bool, has_semicolon: bool) -> None:
        """An ASCII file of one chunk, a section's text at a time (up to the next line that
        starts with '['): a text read before without a finding is made from what reading it
        made (:meth:`_make`), any other read line by line (:meth:`_run_plain`)."""
        texts = data.split(b"\n[")
        head = texts[0]  # what comes before the second section: [net], usually
        self._run_plain([split_lines(head.decode("ascii"))], has_tab, has_semicolon)
        number = head.count(b"\n") + 2  # the line of the next text's header
        known = _SECTION_TEXTS
        items = self.sections._items
        for index in range(1, len(texts)):
            text = texts[index]
            made = known.get(text)
            if made is not None:
                self._make(made, number)
                number += made.height
                continue
            lines = ("[" + text.decode("ascii")).split("\n")
            # (a finding noted by line only counts: its section's text is not made again)
            findings, comments, sections = self.found, len(self.comments), len(items)
            self._run_plain([lines], has_tab, has_semicolon, number - 1)
            if (len(text) <= _SECTION_TEXT_LENGTH and self.found == findings
                    and len(items) == sections + 1):
                made = self._section_text(lines, number, comments)
                if made is not None:
                    if len(known) >= _SECTION_TEXTS_MAX:
                        known.clear()
                    known[text] = made
            number += len(lines)
        self.sections.pack()  # after _make's inlined appends

    def _section_text(self, lines: list[str], number: int,
                      comments: int) -> SectionText | None:
        """What reading ``lines`` (a section's text, its header at line ``number``) made of
        them, when it made the header a plain ``[name]`` and every option whole (a key and
        a value, each key once); else None."""
        item = self.sections._items[-1]
        if type(item) is str:
            name = item
            options: tuple[MadeOption, ...] = ()
        else:
            if not isinstance(item, Section):
                return None  # a malformed header

            name = item.name
            if (item.listed is not None or item.odd or item.line != number
                    or not item.header_ok or item.column != 1):
                return None
            kept: list[MadeOption] = []
            for option in item.first.values():
                more = option._more
                if option.value is None:
                    return None
                if more is UNPARSED:
                    kept.append((option.key, option.value, option.line - number, None))
                elif type(more) is Unplain and more.parsed is UNPARSED:
                    # blanks around '=' or an inline comment: where its parts stand
                    kept.append((option.key, option.value, option.line - number,
                                 (more.column, more.value_column, more.raw, more.comment_at)))
                else:
                    return None
            options = tuple(kept)
        if lines[0] != f"[{name}]":
            return None  # a header with blanks
        made = SectionText(name, options, self.comments.since(comments, number), len(lines))
        if type(item) is Section:
            item.text = made
        return made

    def _make(self, made: SectionText, number: int) -> None:
        """The section, options and comments that reading ``made``'s text makes, its header
        at line ``number``."""
        sections = self.sections
        options = made.options
        if not options:
            sections._items.append(made.name)  # Sections.append_bare, inlined
            sections._lines.append(number)
            sections._bare += 1
        else:
            section = Section(made.name, number, 1)
            section.text = made
            section._first = Unmade()  # its options are made when asked for (Section.made)
            sections._items.append(section)
            sections._lines.append(number)
        comments = self.comments
        for offset, text in made.comments:
            comments.add(number + offset, text)

    def _run_plain(self, chunks: Iterable[list[str]], has_tab: bool,
                   has_semicolon: bool, number: int = 0) -> None:
        """Lines without CR or NUL, a list of them at a time (``chunks``), the first of them
        line ``number + 1``: the common file, one inlined loop for the plain lines (no
        whitespace at all), everything else through :meth:`_line`. (A loop over a list, not
        any iterable: the compiled loop indexes it.)"""
        sections, comments = self.sections, self.comments
        # Sections' own list (never replaced): its truth is a C test where len(sections) is a
        # Python call per line
        items, header_lines = sections._items, sections._lines
        shared, share = self._shared, self.share
        section = None
        # (has_tab, has_semicolon: characters absent from the whole file need no test on
        # every line)
        plain_lines = _PLAIN_LINES
        for lines in chunks:
            for text in lines:
                number += 1
                if not text:
                    continue
                known = plain_lines.get(text)
                if known is not None:
                    # a 'key=value' line read before (in this file or another): its split,
                    # comment test and shared strings without a partition or a fresh hash
                    key, value, comment_at = known
                    if section is None:
                        if not items:
                            self._option(text, text, number)  # before any section
                            continue
                        last = items[-1]
                        section = last if type(last) is Section else sections.live()
                else:
                    first_char = text[0]
                    if " " in text or (has_tab and "\t" in text):
                        if first_char == "#" or first_char == ";":
                            # '# comment': what _line makes of it (no option, no section starts)
                            comments.add(number, text.strip())
                            continue
                        self._line(text, number)
                        section = None  # it may have started a section: asked for when needed
                        continue
                    if first_char == "[":
                        if text[-1] == "]" and len(text) > 2 and text.find("]") == len(text) - 1:
                            # a well-formed [name]: Sections.append_bare and share, inlined
                            name = text[1:-1]
                            items.append(shared.get(name) or share(name))
                            header_lines.append(number)
                            sections._bare += 1
                        else:
                            self._header(text, text, number)
                        section = None
                        continue
                    if first_char == "#" or first_char == ";":
                        comments.add(number, text.strip())
                        continue
                    if first_char == "/" and text[1:2] == "/" and items:
                        self._slash_comment(text, number)
                        continue
                    key, _, value = text.partition("=")
                    if section is None and items:
                        last = items[-1]
                        section = last if type(last) is Section else sections.live()
                    if not (key and value) or section is None:
                        self._option(text, text, number)
                        continue
                    comment_at = (inline_comment_at(value) if "#" in value
                                  or (has_semicolon and ";" in value) or "//" in value else -1)
                    key = shared.get(key) or share(key)
                    value = shared.get(value) or share(value)
                    if len(text) <= _SHARED_LENGTH:
                        if len(plain_lines) >= _PLAIN_LINES_MAX:
                            plain_lines.clear()
                        plain_lines[text] = (key, value, comment_at)
                option = (Option(key, value, number) if comment_at < 0
                          else Option(key, value, number, 1, len(key) + 2, None, comment_at))
                first = section._first
                # Section.offer, inlined for the common case: a section that has a dict already
                if type(first) is dict:
                    earlier = first.setdefault(key, option)
                elif first is None:
                    section._first = earlier = option  # and Section.offer's first option
                elif isinstance(first, Option) and first.key != key:
                    section._first = {first.key: first, key: option}  # and its second
                    earlier = option
                else:
                    earlier = section.offer(option)
                if earlier is not option or section.listed is not None:
                    section.keep_order(option, earlier is not option)
            # the inlined header appends above skip Sections.pack: a chunk at a time here
            sections.pack()
            header_lines = sections._lines

    def _run_careful(self, texts: list[str], has_cr: bool) -> None:
        """Lines with CR (counted for DN013) or NUL (fgetl glues the next line on)."""
        pending = ""
        pending_line = 0
        for number, text in enumerate(texts, start=1):
            if has_cr and text.endswith("\r"):
                self.crlf_lines += 1
                if not self.first_crlf:
                    self.first_crlf, self.first_crlf_column = number, len(text)
            if "\0" in text:
                # fgetl: a NUL ends the string early; the next physical line is glued on.
                col = text.index("\0") + 1
                self.findings.append(
                    LexFinding(
                        "DN017",
                        number,
                        col,
                        "NUL byte: Darknet's fgetl drops the rest of this line and glues the "
                        "next line onto it",
                        "remove the NUL byte",
                    )
                )
                pending += text[: col - 1]
                pending_line = pending_line or number
                continue
            if pending:
                text, number = pending + text, pending_line
                pending, pending_line = "", 0
            self._line(text, number)
        if pending:
            self._line(pending, pending_line)
        self._report_crlf()

    def _decode_lines(self, data: bytes) -> list[str]:
        """Decode once for the whole file; only an invalid file is decoded line by line."""
        try:
            whole = self._whole = data.decode("utf-8")
            texts = whole.split("\n")
        except UnicodeDecodeError:
            texts = [self._decode(raw, n) for n, raw in enumerate(data.split(b"\n"), start=1)]
            self._whole = "\n".join(texts)
        if texts and texts[-1] == "":
            texts.pop()
        return texts

    def _decode(self, raw: bytes, number: int) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if self.bad_utf8_reported < 5:
                self.bad_utf8_reported += 1
                self.findings.append(
                    LexFinding(
                        "DN016",
                        number,
                        len(raw[: exc.start].decode("utf-8", "replace")) + 1,
                        f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                        "save the file as UTF-8 (or plain ASCII)",
                    )
                )
            return raw.decode("utf-8", "replace")

    def _report_crlf(self) -> None:
        if not self.crlf_lines:
            return
        self.findings.append(
            LexFinding(
                "DN013",
                self.first_crlf,
                self.first_crlf_column,
                f"{self.crlf_lines} line(s) end in CRLF; the original Darknet keeps the '\\r', so "
                "'[net]\\r' is not [net] and string values gain a '\\r' (AlexeyAB's fork "
                "strips it)",
                "convert the file to LF line endings (dos2unix)",
                # the forks that strip it read the file as written: a portability note
                by_dialect={Dialect.PJ: Severity.ERROR, Dialect.AB: Severity.INFO,
                            Dialect.HANK: Severity.INFO},
            )
        )

    def _line(self, text: str, number: int) -> None:
        spaced = spaced_option(text) if self.sections else None
        if spaced is not None:
            key, value, key_column, value_column = spaced
            self.sections.live().add(Option(self.share(key), self.share(value), number, key_column,
                                         value_column, text))
            return
        self._line_general(text, number)

    def _line_general(self, text: str, number: int) -> None:
        """Any line: what Darknet's strip() and read_option make of it, with every finding."""
        plain = " " not in text and "\t" not in text and "\r" not in text
        stripped = text if plain else darknet_strip(text)
        if not stripped:
            return
        first = stripped[0]
        if first in "#;":
            self.comments.add(number, text.strip())
        elif first == "/" and stripped[1:2] == "/" and self.sections:
            self._slash_comment(text, number)
        elif first == "[":
            self._header(text, stripped, number)
        elif plain:
            self._plain_option(text, number)
        else:
            self._option(text, stripped, number)

    def _slash_comment(self, text: str, number: int) -> None:
        """A line that starts with '//' inside a section: read_option stores it as an option
        whose key starts with '//', which no getter asks for; nothing is misread."""
        self.comments.add(number, text.strip())
        self.notes.add(LexFinding(
            "DN035", number, text.index("/") + 1,
            "a line that starts with '//': Darknet has no '//' comments and keeps the line as "
            "an option no layer reads (Darknet prints 'Unused field'); '#' is a comment",
            "start the comment with '#'"))

    def _plain_option(self, text: str, number: int) -> None:
        """A line without whitespace (CR aside): positions come for free."""
        key, _, value = text.partition("=")
        if not (key and value and self.sections):
            self._option(text, text, number)
            return
        comment_at = (inline_comment_at(value) if "#" in value or ";" in value or "//" in value
                      else -1)
        self.sections.live().add(Option(self.share(key), self.share(value), number, 1, len(key) + 2,
                                     None, comment_at))

    def _header(self, text: str, stripped: str, number: int) -> None:
        column = text.index("[") + 1
        name = self.share(header_name(stripped))
        problem = header_problem(stripped)
        if problem is not None:
            self._bad_header(name, number, column, problem)
            return
        self.sections.append(Section(name, number, column))
        if text.strip().replace(" ", "").replace("\t", "") != text.strip():
            self.findings.append(spaced_header(name, number, column))

    def _bad_header(self, name: str, number: int, column: int,
                    problem: tuple[str, str | None]) -> None:
        self.sections.append_malformed(name, number, column)
        message, hint = problem
        self.notes.add(LexFinding("DN019", number, column, message, hint))

    def _option(self, text: str, stripped: str, number: int) -> None:
        key_column = len(text) - len(text.lstrip(" \t")) + 1
        eq = stripped.find("=")
        raw_eq = text.find("=")
        value_column = value_column_of(text, raw_eq)
        if eq < 0:
            # a bare key with no blank around it keeps no Unplain: its place follows from it
            option = (Option(stripped, None, number) if len(stripped) == len(text) else
                      Option(stripped, None, number, key_column, key_column, text))
        else:
            # shared like a plain line's: a file that repeats one such line ('a=1 2', which
            # Darknet's strip() reads as a=12) kept a copy of its text and value per line
            share = self.share
            key, value = share(stripped[:eq]), share(stripped[eq + 1 :])
            option = Option(key, value, number, key_column, value_column, share(text),
                            inline_comment_at(value))
        if not self.sections:
            if self.option_before_section:
                return
            self.option_before_section = True
            self.findings.append(
                LexFinding(
                    "DN002",
                    number,
                    key_column,
                    f"option '{stripped}' comes before any [section]; Darknet dereferences a "
                    "NULL section here (segmentation fault)",
                    "start the file with [net]",
                )
            )
            return
        if eq >= 0 and option.value == "":
            self.notes.add(
                LexFinding(
                    "DN007",
                    number,
                    key_column,
                    f"option '{option.key}' has an empty value; Darknet drops the line "
                    "('Config file error') and uses the default",
                    f"give {option.key} a value or delete the line",
                )
            )
            return
        if " " in text or "\t" in text:
            self._blank(text, raw_eq, number)
        self.sections.live().add(option)

    def _blank(self, text: str, raw_eq: int, number: int) -> None:
        """blank_finding of line ``number``, worked out once per text: the finding of a line
        read before is its first's at this line (noted by line only past its rule's first
        hundred, never made)."""
        blanks = self._blanks
        if text in blanks:
            known = blanks[text]
            if known is not None:
                self.notes.add_again(known, number)
            return
        finding = blank_finding(text, raw_eq, number)
        if len(blanks) < _SHARED_MAX and len(text) <= _SHARED_LENGTH:
            blanks[text] = finding
        if finding is not None:
            self.notes.add(finding)
