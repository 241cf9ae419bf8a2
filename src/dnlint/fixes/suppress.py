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
from typing import TYPE_CHECKING, NamedTuple

from dnlint.diagnostics import Diagnostic
from dnlint.settings.selectors import is_syntax_error

if TYPE_CHECKING:
    from dnlint.dialects import Dialect
    from dnlint.result import FileResult

REASON = "TODO: say why this is right"
Keep = Callable[["FileResult"], list[Diagnostic]]


def suppressible(diagnostic: Diagnostic, lines: Sequence[str]) -> bool:
    """Whether a ``disable-next-line`` above its line would suppress ``diagnostic``."""
    line = diagnostic.line
    if line is None or not 1 <= line <= len(lines) or diagnostic.code.startswith("DN9"):
        return False
    if is_syntax_error(diagnostic.code, diagnostic.severity):
        return False
    text = lines[line - 1].strip()
    return bool(text) and text[0] not in "#;"


def codes_by_line(diagnostics: list[Diagnostic], lines: Sequence[str],
                  path: str) -> dict[int, list[str]]:
    """The codes to suppress on each line, each once, in report order."""
    found: dict[int, list[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.path == path and suppressible(diagnostic, lines) \
                and diagnostic.line is not None:
            codes = found.setdefault(diagnostic.line, [])
            if diagnostic.code not in codes:
                codes.append(diagnostic.code)
    return found


def with_suppressions(data: bytes, codes: dict[int, list[str]]) -> bytes:
    """``data`` with a directive line inserted above each line of ``codes``."""
    if not codes:
        return data
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    pieces = []
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        if number in codes:
            directive = f"# dnlint: disable-next-line={','.join(codes[number])} -- {REASON}"
            pieces.append(directive.encode("ascii") + newline)
        pieces.append(line)
    return b"".join(pieces)


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
    from dnlint.lint import lint_cfg_bytes

    first = lint_cfg_bytes(data, path, dialect, fold=False)
    if first.document is None or first.document.fatal:
        return Suppressed(data, first, first, None)
    codes = codes_by_line(keep(first), first.document.lines, path)
    new = with_suppressions(data, codes)
    result = lint_cfg_bytes(new, path, dialect) if codes else first
    return Suppressed(new, first, result, len(codes))
