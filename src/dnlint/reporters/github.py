"""``--format github``: GitHub Actions workflow commands, one annotation per diagnostic::

    ::warning file=yolo.cfg,line=3,endLine=3,col=14,endColumn=16,title=DN103 ...::batch=64 ...

The end column is exclusive (the column after the finding), as ruff writes it.

Escaping follows actions/toolkit (``command.ts``): in the message ``%``, CR and LF; in property
values also ``:`` and ``,``. Info-level findings become ``::notice``.
"""

from __future__ import annotations

from dnlint.clean import shown_path
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.reporters import ReportContext
from dnlint.result import FileResult, RunTotals
from dnlint.rules import find_rule

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def rule_name(code: str) -> str:
    found = find_rule(code)
    return found.name if found is not None else ""


def github_line(d: Diagnostic) -> str:
    props = [("file", shown_path(d.path))]
    if d.line is not None:
        props += [("line", str(d.line)), ("endLine", str(d.end_line or d.line))]
        if d.column is not None:
            props.append(("col", str(d.column)))
            if d.end_column is not None:
                props.append(("endColumn", str(d.end_column)))  # exclusive, as ruff writes it
    props.append(("title", f"{d.code} {rule_name(d.code)}".rstrip()))
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    message = d.message + (f" (hint: {d.hint})" if d.hint else "")
    return f"::{COMMANDS[d.severity]} {joined}::{escape_data(message)}"


class GithubReporter:
    """One workflow command per diagnostic, written as each file is done."""

    def __init__(self, ctx: ReportContext) -> None:
        self.stream = ctx.stream

    def file(self, result: FileResult) -> None:
        self.stream.write("".join(github_line(d) + "\n" for d in result.diagnostics))

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        pass
