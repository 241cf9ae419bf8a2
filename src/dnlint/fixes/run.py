"""Applying fixes to one file's bytes: passes of lint, fix, lint again, with a bound; and the
unified diff of the change (``--diff``). Reading and writing the file is the run's
(:func:`dnlint.run.engine.fix_input`).

A pass applies every chosen fix that does not overlap another; the next pass lints the new
bytes, so overlapping and dependent fixes land over several passes, as in ruff. A pass that
would leave more errors than it found is dropped and the loop stops: a fix never makes a file
worse. A file with a fatal reading problem gets no fix.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from dnlint.diagnostics import Diagnostic, Severity
from dnlint.dialects import Dialect
from dnlint.edits import Fix, apply_some
from dnlint.fixes import FIXABLE_WHEN_FATAL, attach_fixes
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult

MAX_PASSES = 10  # ruff's bound is 100; a cfg's fixes settle in two or three

# what the caller keeps of a result: the diagnostics its policy selects (suppressions too)
Keep = Callable[[FileResult], list[Diagnostic]]


@dataclass
class Fixed:
    """The outcome for one file: its final bytes and lint, and how many findings were fixed."""

    original: bytes
    data: bytes
    result: FileResult
    fixed: int
    first: FileResult  # the lint of the original bytes

    @property
    def changed(self) -> bool:
        return self.data != self.original


def lint_with_fixes(data: bytes, path: str, dialect: Dialect | None) -> FileResult:
    result = lint_cfg_bytes(data, path, dialect, fold=False)  # every finding, to fix each
    attach_fixes(result, data)
    return result


def chosen_fixes(diagnostics: list[Diagnostic], unsafe: bool) -> list[Fix]:
    return [d.fix for d in diagnostics if d.fix is not None and (d.fix.safe or unsafe)]


def _fixable(result: FileResult, selected: Keep) -> list[Diagnostic]:
    """The findings whose fixes may apply: all of them, or for a file with a fatal reading
    problem only the one fix that removes it (a binary, HTML or LFS file is never touched)."""
    diagnostics = selected(result)
    if result.document is not None and result.document.fatal:
        return [d for d in diagnostics if d.code in FIXABLE_WHEN_FATAL]
    return diagnostics


def _errors(diagnostics: list[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.severity is Severity.ERROR)


def fix_bytes(data: bytes, path: str, dialect: Dialect | None, unsafe: bool = False,
              keep: Keep | None = None) -> Fixed:
    """Fix ``data`` over at most :data:`MAX_PASSES` passes; idempotent (the last pass found
    nothing more to fix, or nothing it could apply without adding an error)."""
    selected: Keep = keep if keep is not None else (lambda r: list(r.diagnostics))
    lint = _Linter(path, dialect, selected)
    first = result = lint(data)
    original, fixed = data, 0
    for _ in range(MAX_PASSES):
        if result.document is None:
            break
        fixes = chosen_fixes(_fixable(result, selected), unsafe)
        new, after, applied = lint.attempt(data, result, fixes)
        if applied is None:
            new, after, applied = _without_harmful(data, result, fixes, lint)
        if new == data:
            break
        data, result, fixed = new, after, fixed + applied
    return Fixed(original, data, result, fixed, first)


class _Linter:
    """Lint bytes with fixes attached, and judge a pass by the errors the policy keeps."""

    def __init__(self, path: str, dialect: Dialect | None, selected: Keep) -> None:
        self.path, self.dialect, self.selected = path, dialect, selected

    def __call__(self, data: bytes) -> FileResult:
        return lint_with_fixes(data, self.path, self.dialect)

    def errors(self, result: FileResult) -> int:
        return _errors(self.selected(result))

    def attempt(self, data: bytes, result: FileResult,
                fixes: list[Fix]) -> tuple[bytes, FileResult, int | None]:
        """Apply ``fixes``: the new bytes, their lint and how many were applied, or None for
        the count when the pass adds an error. A text fix may reveal an error it hid (a
        trailing mask comma hid a head-size error), but a structural fix must remove its own
        error and add none (a filters= changed under a route must not break another layer)."""
        new, applied = apply_some(data, fixes)
        if new == data:
            return data, result, 0
        after = self(new)
        allowed = self.errors(result) - sum(fix.structural and fix.fixes_error
                                            for fix in applied)
        if after.document is None or self.errors(after) > allowed:
            return data, result, None
        return new, after, len(applied)


# a pass that adds errors tests its fixes one at a time, at most this many (the lints cost)
MAX_SINGLE_TRIES = 32


def _without_harmful(data: bytes, result: FileResult, fixes: list[Fix],
                     lint: _Linter) -> tuple[bytes, FileResult, int]:
    """The fixes of a pass that added an error: each is tried alone, those that add an error
    are dropped, and the rest applied together. Structural fixes are tried first: text fixes
    are local."""
    ordered = sorted(fixes, key=lambda fix: not fix.structural)
    harmless = ordered[MAX_SINGLE_TRIES:]
    for fix in ordered[:MAX_SINGLE_TRIES]:
        if lint.attempt(data, result, [fix])[2]:
            harmless.append(fix)
    new, after, applied = lint.attempt(data, result, harmless)
    return (new, after, applied) if applied else (data, result, 0)


def unified_diff(fixed: Fixed, path: str) -> str:
    """``--diff``: the change as a unified diff (bytes that are not UTF-8 shown escaped)."""
    before, after = _lines(fixed.original), _lines(fixed.data)
    lines = difflib.unified_diff(before, after, f"a/{path}", f"b/{path}")
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _lines(data: bytes) -> list[str]:
    """Lines as Darknet splits them, at LF only (str.splitlines would split at a lone CR or a
    form feed too), each with its ending."""
    text = data.decode("utf-8", "surrogateescape")
    return [line for line in re.split(r"(?<=\n)", text) if line]
