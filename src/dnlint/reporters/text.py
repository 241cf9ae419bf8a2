"""The terminal format: ``path:line:col: CODE severity: message``, one diagnostic a line.

Plain text when colour is off (no rich import at all, for a fast pre-commit hook); rich with
colours on a terminal.
"""

from __future__ import annotations

from collections import Counter

from dnlint.diagnostics import Diagnostic, Severity
from dnlint.engine import RunResult
from dnlint.reporters import ReportContext

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def location(diagnostic: Diagnostic) -> str:
    parts = [diagnostic.path]
    if diagnostic.line is not None:
        parts.append(str(diagnostic.line))
        if diagnostic.column is not None:
            parts.append(str(diagnostic.column))
    return ":".join(parts)


def format_line(diagnostic: Diagnostic) -> str:
    hint = f" (hint: {diagnostic.hint})" if diagnostic.hint else ""
    return (
        f"{location(diagnostic)}: {diagnostic.code} {diagnostic.severity.value}: "
        f"{diagnostic.message}{hint}"
    )


def summary_line(run: RunResult) -> str:
    files = len(run.files)
    noun = "file" if files == 1 else "files"
    total = len(run.diagnostics)
    if not total:
        return f"All checks passed ({files} {noun})."
    counts = ", ".join(
        f"{n} {s.value}{'s' if n != 1 else ''}"
        for s in Severity
        if (n := run.count(s))
    )
    return f"Found {total} problem{'s' if total != 1 else ''} ({counts}) in {files} {noun}."


def report_text(run: RunResult, ctx: ReportContext) -> None:
    if ctx.color:
        _report_rich(run, ctx)
        return
    out = ctx.stream
    for file in run.files:
        if ctx.verbose and file.dialect is not None:
            out.write(f"{file.path}: dialect {file.dialect.value} ({file.dialect_reason})\n")
        for diagnostic in file.diagnostics:
            out.write(format_line(diagnostic) + "\n")
    if ctx.show_layers or ctx.statistics:
        _extras(run, ctx)
    if not ctx.quiet:
        out.write(summary_line(run) + "\n")


def _report_rich(run: RunResult, ctx: ReportContext) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=ctx.stream, force_terminal=True, highlight=False, soft_wrap=True)
    for file in run.files:
        if ctx.verbose and file.dialect is not None:
            console.print(Text(f"{file.path}: dialect {file.dialect.value} ({file.dialect_reason})",
                               style="dim"))
        for d in file.diagnostics:
            line = Text.assemble(
                (location(d).split(":", 1)[0], "bold"),
                (location(d)[len(d.path):] + ": ", "dim"),
                (d.code + " ", "bold"),
                (d.severity.value + ": ", _STYLE[d.severity]),
                d.message,
                (f" (hint: {d.hint})" if d.hint else "", "dim"),
            )
            console.print(line)
    if ctx.show_layers or ctx.statistics:
        _extras(run, ctx)
    if not ctx.quiet:
        style = "bold red" if run.count(Severity.ERROR) else "bold green"
        console.print(Text(summary_line(run), style=style))


def _extras(run: RunResult, ctx: ReportContext) -> None:
    if ctx.show_layers:
        from dnlint.reporters.table import print_layer_tables

        print_layer_tables(run, ctx)
    if ctx.statistics:
        counts = Counter(d.code for d in run.diagnostics)
        for code, n in counts.most_common():
            ctx.stream.write(f"{n:6d}  {code}\n")
