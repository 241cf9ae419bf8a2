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
from dnlint.settings.selectors import is_syntax_error

if TYPE_CHECKING:
    from dnlint.result import FileResult
    from dnlint.run.engine import RunOptions
    from dnlint.run.inputs import Input

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


def suppress_input(item: Input, options: RunOptions, keep: Keep) -> FileResult:
    """Add the suppressions one cfg needs (``extra["suppressed"]``: how many directive lines)
    and return the lint of the new bytes; standard input's new bytes go to
    ``extra["fixed_data"]`` instead of a file. A file that cannot be written keeps its lint
    and gets ``extra["fix_error"]``."""
    from dnlint.lint import lint_cfg_bytes
    from dnlint.result import FileResult
    from dnlint.run.engine import display_name, read_cfg_or_result
    from dnlint.run.outputs import OutputError, file_state, replace_file

    display = display_name(item)
    # before the read, so that an edit during or after it shows when the file is written
    seen = file_state(item.path) if item.kind != "stdin" else None
    data = read_cfg_or_result(item, display, options.text)
    if isinstance(data, FileResult):
        return data
    first = lint_cfg_bytes(data, display, options.dialect, fold=False)
    if first.document is None or first.document.fatal:
        return first  # a binary or a file of another kind: nothing to annotate
    codes = codes_by_line(keep(first), first.document.lines, display)
    new = with_suppressions(data, codes)
    result = lint_cfg_bytes(new, display, options.dialect) if codes else first
    result.extra["suppressed"] = len(codes)
    if item.kind == "stdin":
        result.extra["fixed_data"] = new
    elif codes:
        try:
            replace_file(item.path, new, seen, data, "no suppressions added")
        except OutputError as exc:
            first.extra["fix_error"] = str(exc)
            return first
    return result
