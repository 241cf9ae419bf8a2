"""dnlint's findings and fixes in LSP's terms: ranges, severities, text edits."""

from __future__ import annotations

import zlib
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from dnlint.diagnostics import Diagnostic, Severity
from dnlint.edits import Fix
from dnlint.lsp.text import TextDocument, starts_after

SOURCE = "dnlint"
_SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3}
_TOKEN_ENDS = frozenset(" \t\r\n\f\v=,#;")  # what ends a key or a value item


def finding_span(doc: TextDocument, diagnostic: Diagnostic) -> tuple[int, int]:
    """The code point offsets a finding covers. A finding that names its end
    (``end_line``/``end_column``, the end column exclusive) covers up to it; one at a line and
    column covers the token there (a ``[section]`` to its ']', a key or a value item up to a
    blank, '=', ',' or a comment; at least one character); one at a line only, the line's
    text; one about the whole file, the start of the file."""
    line, column = diagnostic.line, diagnostic.column
    if line is None:
        return 0, 0
    start_of_line, end_of_line = doc.lf_line_span(line)
    if column is None:
        text = doc.text[start_of_line:end_of_line]
        return start_of_line + len(text) - len(text.lstrip()), end_of_line
    start = doc.lf_offset(line, column)
    end_line = getattr(diagnostic, "end_line", None)
    end_column = getattr(diagnostic, "end_column", None)
    if isinstance(end_line, int) and isinstance(end_column, int):
        return start, max(start, doc.lf_offset(end_line, end_column))
    return start, token_end(doc.text, start, end_of_line)


def anchor(doc: TextDocument, line: int) -> str:
    """A short fingerprint of dnlint line ``line``'s text: a diagnostic sent back by the
    client is matched to the current text's by it (:func:`dnlint.lsp.actions.current`)."""
    start, end = doc.lf_line_span(line)
    return f"{zlib.crc32(doc.text[start:end].encode('utf-8', 'surrogatepass')):08x}"


def token_end(text: str, start: int, limit: int) -> int:
    if start >= limit:
        return start
    if text[start] == "[":
        close = text.find("]", start, limit)
        return close + 1 if close >= 0 else limit
    stop = start + 1
    while stop < limit and text[stop] not in _TOKEN_ENDS:
        stop += 1
    return stop


class ByteMap:
    """Byte offsets of the linted bytes (UTF-8 of the text) to code point offsets."""

    def __init__(self, text: str, data: bytes) -> None:
        self.text, self.data = text, data
        self.same = len(text) == len(data)  # ASCII: a byte is a character
        self.byte_starts = [] if self.same else starts_after(data)
        self.char_starts = [] if self.same else starts_after(text)

    def offset(self, byte_offset: int) -> int:
        if self.same:
            return max(0, min(byte_offset, len(self.text)))
        line = max(bisect_right(self.byte_starts, byte_offset) - 1, 0)
        if line >= len(self.char_starts):
            return len(self.text)
        piece = self.data[self.byte_starts[line]:byte_offset]
        return self.char_starts[line] + len(piece.decode("utf-8", "surrogatepass"))


def fix_edits(doc: TextDocument, bytemap: ByteMap, fix: Fix, encoding: str) -> list[dict[str, Any]]:
    """A fix's byte edits as LSP TextEdits of the document."""
    edits = []
    for edit in fix.edits:
        start, end = bytemap.offset(edit.start), bytemap.offset(edit.end)
        edits.append({"range": doc.range_of(start, end, encoding),
                      "newText": edit.text.decode("utf-8", "surrogatepass")})
    return edits


def to_lsp(doc: TextDocument, diagnostic: Diagnostic, encoding: str,
           bytemap: Callable[[], ByteMap],
           related: tuple[int, int, str] | None) -> dict[str, Any]:
    """One finding as an LSP Diagnostic; its fix (as TextEdits of this version) in ``data``."""
    start, end = finding_span(doc, diagnostic)
    message = diagnostic.message
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    out: dict[str, Any] = {
        "range": doc.range_of(start, end, encoding),
        "severity": _SEVERITY.get(diagnostic.severity, 1),
        "code": diagnostic.code,
        "source": SOURCE,
        "message": message,
    }
    data: dict[str, Any] = {"version": doc.version, "line": diagnostic.line}
    if diagnostic.line is not None:
        data["anchor"] = anchor(doc, diagnostic.line)
    if diagnostic.fix is not None:
        data["fix"] = {"edits": fix_edits(doc, bytemap(), diagnostic.fix, encoding),
                       "safe": diagnostic.fix.safe}
    out["data"] = data
    if related is not None:
        at, until, note = related
        out["relatedInformation"] = [{
            "location": {"uri": doc.uri, "range": doc.range_of(at, until, encoding)},
            "message": note}]
    return out
