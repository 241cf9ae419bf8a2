"""``--add-suppressions``: a ``# dnlint: disable-next-line=CODES -- TODO: ...`` line above each
line with a finding, as ruff's ``--add-noqa`` does, for adopting dnlint on a large tree of
legacy cfgs without fixing them first. The reason is a placeholder to fill in.

Only what a directive can suppress gets one: a finding at a line of code (not a comment or
blank line, which ``disable-next-line`` passes over) that is not a syntax error (those cannot
be suppressed, :func:`dnlint.settings.selectors.is_syntax_error`) nor about a directive itself
(DN9). The lines are inserted in one pass over the file, keeping its line endings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from dnlint.diagnostics import Diagnostic
from dnlint.edits import Source
from dnlint.lint import lint_cfg_bytes
from dnlint.records import NamedTuple
from dnlint.settings.selectors import is_syntax_error

if TYPE_CHECKING:
    from dnlint.dialects import Dialect
    from dnlint.result import FileResult

REASON = "TODO: say why this is right"
Keep = Callable[["FileResult"], list[Diagnostic]]


# findings about the whole file, placed at the first line with a property that an inserted
# directive line would share (DN013: the first line ending in CRLF): a next-line directive
# would itself become that line, so these get one ``disable-file`` at the top instead
FILE_WIDE = frozenset({"DN013"})
FILE_LINE = 0  # the key of ``codes_by_line`` for the codes of the disable-file line


def suppressible(diagnostic: Diagnostic, lines: Sequence[str]) -> bool:
    """Whether a ``disable-next-line`` above its line would suppress ``diagnostic`` (or, for
    a :data:`FILE_WIDE` code, a ``disable-file``)."""
    line = diagnostic.line
    if line is None or not 1 <= line <= len(lines) or diagnostic.code.startswith("DN9"):
        return False
    if is_syntax_error(diagnostic.code, diagnostic.severity):
        return False
    if diagnostic.code in FILE_WIDE:
        return True
    text = lines[line - 1].strip()
    return bool(text) and text[0] not in "#;"


def codes_by_line(diagnostics: list[Diagnostic], lines: Sequence[str],
                  path: str) -> dict[int, list[str]]:
    """The codes to suppress on each line, each once, in report order; the whole file's
    (:data:`FILE_WIDE`) under :data:`FILE_LINE`."""
    found: dict[int, list[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.path == path and suppressible(diagnostic, lines) \
                and diagnostic.line is not None:
            line = FILE_LINE if diagnostic.code in FILE_WIDE else diagnostic.line
            codes = found.setdefault(line, [])
            if diagnostic.code not in codes:
                codes.append(diagnostic.code)
    return found


def with_suppressions(data: bytes, codes: dict[int, list[str]]) -> bytes:
    """``data`` with a directive line inserted above each line of ``codes`` (and the
    disable-file line of :data:`FILE_LINE` first). Lines are the reader's (split at LF only: a
    bare CR inside a comment starts no line), a BOM stays the first bytes, and each inserted
    line ends as the line it stands above does (else as the one before it)."""
    if not codes:
        return data
    source = Source(data)
    pieces: list[bytes] = []
    at = 0
    for line in sorted(codes):
        start = source.starts[max(line, 1) - 1]
        action = "disable-file" if line == FILE_LINE else "disable-next-line"
        directive = f"# dnlint: {action}={','.join(codes[line])} -- {REASON}"
        pieces += [data[at:start], directive.encode("ascii"), _ending(source, max(line, 1))]
        at = start
    pieces.append(data[at:])
    return b"".join(pieces)


def _ending(source: Source, line: int) -> bytes:
    """The line ending of ``line``, or of the nearest line before it that has one; LF in a
    file of one unterminated line."""
    terminated = min(line, len(source.starts) - 1)  # every line but the last ends in LF
    return source.eol(terminated) if terminated >= 1 else b"\n"


class Suppressed(NamedTuple):
    """What ``--add-suppressions`` makes of one cfg's bytes."""

    data: bytes  # the new bytes (the old ones when nothing is added)
    first: FileResult  # the lint of the old bytes
    result: FileResult  # the lint of the new bytes
    lines: int | None  # directive lines added; None: a file with nothing to annotate


def add_suppressions(data: bytes, path: str, dialect: Dialect | None,
                     keep: Keep) -> Suppressed:
    """The suppressions one cfg needs for the findings ``keep`` keeps, and the lint of the new
    bytes. A binary or a file of another kind (a fatal reading problem) is left alone."""
    first = lint_cfg_bytes(data, path, dialect, fold=False)
    if first.document is None or first.document.fatal:
        return Suppressed(data, first, first, None)
    codes = codes_by_line(keep(first), first.document.lines, path)
    new = with_suppressions(data, codes)
    result = lint_cfg_bytes(new, path, dialect) if codes else first
    return Suppressed(new, first, result, len(codes))
