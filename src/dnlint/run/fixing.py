"""``--fix``, ``--diff`` and ``--add-suppressions`` on a run's files: read the cfg, have the
pipeline fix it (:func:`dnlint.pipeline.fix_document`, :func:`~dnlint.pipeline.suppress_document`)
and write it back the careful way (:mod:`dnlint.run.outputs`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dnlint.pipeline import diff, fix_document, suppress_document
from dnlint.result import FileResult
from dnlint.run.inputs import display_name, read_cfg

if TYPE_CHECKING:
    from dnlint.pipeline import DocumentSettings
    from dnlint.run.inputs import Input
    from dnlint.run.options import RunOptions

__all__ = ["fix_input", "suppress_input"]


def fix_input(item: Input, options: RunOptions, settings: DocumentSettings) -> FileResult:
    """Fix one cfg as ``options.fix`` says: "fix" writes it, "diff" keeps the diff in
    ``result.extra["diff"]``. The result is the lint of the fixed bytes, with
    ``extra["fixed"]`` (how many findings were fixed, or would be) and, when the file could
    not be written, ``extra["fix_error"]`` and the lint of the file as it stays. Standard
    input is never written back: "fix" keeps its fixed bytes in ``extra["fixed_data"]``
    (``--fix -`` prints them, as ruff does)."""
    from dnlint.run.outputs import OutputError, file_state, replace_file

    display = display_name(item)
    # before the read, so that an edit during or after it shows when the fix is written
    seen = (file_state(item.path) if options.fix == "fix" and item.kind != "stdin"
            else None)
    data = read_cfg(item, display, options.text)
    if isinstance(data, FileResult):
        return data  # unreadable, or too large to be a cfg: nothing to fix
    fixed = fix_document(data, display, settings, options.unsafe_fixes)
    result = fixed.result
    if options.fix == "diff":
        result.extra["diff"] = diff(fixed, display) if fixed.changed else ""
    elif item.kind == "stdin":
        result.extra["fixed_data"] = fixed.data
    elif fixed.changed:
        try:
            replace_file(item.path, fixed.data, seen, data, "not fixed")
        except OutputError as exc:
            result = fixed.first
            result.extra["fix_error"] = str(exc)
            return result
    result.extra["fixed"] = fixed.fixed
    return result


def suppress_input(item: Input, options: RunOptions, settings: DocumentSettings) -> FileResult:
    """Add the suppressions one cfg needs (``extra["suppressed"]``: how many directive lines)
    and return the lint of the new bytes; standard input's new bytes go to
    ``extra["fixed_data"]`` instead of a file. A file that cannot be written keeps its lint
    and gets ``extra["fix_error"]``."""
    from dnlint.run.outputs import OutputError, file_state, replace_file

    display = display_name(item)
    # before the read, so that an edit during or after it shows when the file is written
    seen = file_state(item.path) if item.kind != "stdin" else None
    data = read_cfg(item, display, options.text)
    if isinstance(data, FileResult):
        return data
    done = suppress_document(data, display, settings)
    if done.lines is None:
        # a binary or a file of another kind: nothing to annotate; standard input is echoed
        # as it came, as --fix - does, so that a pipe never loses it
        first = done.first
        if item.kind == "stdin":
            first.extra["fixed_data"] = data
            why = next((f"{d.code} {d.message}" for d in first.diagnostics),
                       "not a cfg dnlint can annotate")
            first.extra["fix_note"] = (f"{display}: no suppressions added ({why}); the input "
                                       "is echoed unchanged")
        return first
    result = done.result
    result.extra["suppressed"] = done.lines
    if item.kind == "stdin":
        result.extra["fixed_data"] = done.data
    elif done.lines:
        try:
            replace_file(item.path, done.data, seen, data, "no suppressions added")
        except OutputError as exc:
            done.first.extra["fix_error"] = str(exc)
            return done.first
    return result
