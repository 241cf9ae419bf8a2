"""The terminal formats.

``text`` (the default) shows each diagnostic like rustc/ruff do::

    model.cfg:3:14: DN103 warning: batch=64 is not a multiple of subdivisions=24
      = hint: ...
      |
    3 | subdivisions=24
      |              ^

The first line is always ``path:line:col: CODE severity: message``; ``concise`` prints only
that line (with `` (hint: ...)``). Plain text when colour is off (no rich import at all, for a
fast pre-commit hook); rich with colours on a terminal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dnlint.diagnostics import Diagnostic, Severity
from dnlint.engine import RunResult
from dnlint.reporters import ReportContext
from dnlint.reporters.grouping import group_repeats
from dnlint.result import FileResult

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_GUTTER = "bold blue"
# A printed line is a list of (text, style) pieces; plain output joins the texts.
Piece = tuple[str, str | None]
Printed = list[Piece]
_CONTROL = {i: "?" for i in range(32) if i != 9}


def location(diagnostic: Diagnostic) -> str:
    parts = [diagnostic.path]
    if diagnostic.line is not None:
        parts.append(str(diagnostic.line))
        if diagnostic.column is not None:
            parts.append(str(diagnostic.column))
    return ":".join(parts)


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


def _head(d: Diagnostic, with_hint: bool) -> Printed:
    where = location(d)
    return [
        (d.path, "bold"),
        (where[len(d.path):] + ": ", "dim"),
        (d.code + " ", "bold"),
        (d.severity.value + ": ", _STYLE[d.severity]),
        (d.message, None),
        (f" (hint: {d.hint})" if with_hint and d.hint else "", "dim"),
    ]


def diagnostic_block(d: Diagnostic, lines: Sequence[str]) -> list[Printed]:
    """The ``text`` rendering of one diagnostic: head, hint, then source line and caret."""
    block = [_head(d, with_hint=False)]
    if d.hint:
        block.append([("  = ", _GUTTER), ("hint: ", "bold"), (d.hint, None)])
    if d.line is not None and 1 <= d.line <= len(lines):
        block += _snippet(d, lines[d.line - 1])
    return block


def _snippet(d: Diagnostic, source: str) -> list[Printed]:
    number = str(d.line)
    pad = " " * len(number)
    shown = source.translate(_CONTROL).expandtabs(4)
    out: list[Printed] = [[(f"{pad} |", _GUTTER)], [(f"{number} | ", _GUTTER), (shown, None)]]
    if d.column is not None:
        indent = len(source[: d.column - 1].translate(_CONTROL).expandtabs(4))
        out.append([(f"{pad} | ", _GUTTER), (" " * indent, None), ("^", _STYLE[d.severity])])
    return out


def _document_lines(file: FileResult) -> Sequence[str]:
    return file.document.lines if file.document is not None else ()


def _render(run: RunResult, ctx: ReportContext, concise: bool) -> list[Printed]:
    printed: list[Printed] = []
    for file in run.files:
        if ctx.verbose and file.dialect is not None:
            printed.append([(f"{file.path}: dialect {file.dialect.value} "
                             f"({file.dialect_reason})", "dim")])
        for shown in group_repeats(file.diagnostics):  # repeats print once (grouping.py)
            d, more = shown.diagnostic, shown.more
            if concise:
                printed.append(_head(d, with_hint=True) + ([(f" ({more})", "dim")] if more else []))
            else:
                block = diagnostic_block(d, _document_lines(file))
                if more:
                    block.insert(1, [("  = ", _GUTTER), (more, None)])
                printed += [*block, []] if len(block) > 1 else block
    return printed


def report_text(run: RunResult, ctx: ReportContext) -> None:
    _report(run, ctx, concise=False)


def report_concise(run: RunResult, ctx: ReportContext) -> None:
    _report(run, ctx, concise=True)


def _report(run: RunResult, ctx: ReportContext, concise: bool) -> None:
    printed = _render(run, ctx, concise)
    if ctx.color:
        _print_rich(printed, run, ctx, concise)
        return
    out = ctx.stream
    for pieces in printed:
        out.write("".join(text for text, _ in pieces) + "\n")
    _extras(run, ctx, concise)
    if not ctx.quiet:
        out.write(summary_line(run) + "\n")


def _print_rich(printed: list[Printed], run: RunResult, ctx: ReportContext, concise: bool
                ) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=ctx.stream, force_terminal=True, highlight=False, soft_wrap=True)
    for pieces in printed:
        console.print(Text.assemble(*[(text, style or "") for text, style in pieces]))
    _extras(run, ctx, concise)
    if not ctx.quiet:
        style = "bold red" if run.count(Severity.ERROR) else "bold green"
        console.print(Text(summary_line(run), style=style))


def statistics_lines(run: RunResult) -> list[str]:
    """``--statistics``: count, code and rule name, most frequent first (ruff, flake8)."""
    from dnlint.rules import find_rule

    counts = Counter(d.code for d in run.diagnostics)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    lines = []
    for code, n in rows:
        found = find_rule(code)
        lines.append(f"{n:5d}  {code}  {found.name if found else ''}".rstrip())
    return lines


def _extras(run: RunResult, ctx: ReportContext, concise: bool) -> None:
    if ctx.show_layers:
        from dnlint.reporters.table import print_layer_tables

        print_layer_tables(run, ctx)
    if ctx.show_layers or ctx.verbose or not concise:
        _weights_summaries(run, ctx)
    if ctx.statistics:
        for line in statistics_lines(run):
            ctx.stream.write(line + "\n")


def _weights_finding(file: FileResult) -> bool:
    path = file.weights.path if file.weights is not None else None
    return path is not None and any(d.path == path for d in file.diagnostics)


def _weights_summaries(run: RunResult, ctx: ReportContext) -> None:
    """The summary (header, expected against actual) of each weights file with a finding, of
    every prediction with -v; with --layers, also the offsets table (rich). A clean file says
    nothing, as a pre-commit hook should."""
    every = ctx.show_layers or ctx.verbose
    reports = [f.weights for f in run.files
               if f.weights is not None and (every or _weights_finding(f))]
    if not reports:
        return
    if not ctx.show_layers:
        from dnlint.weights.render import summary_lines

        for report in reports:
            for line in summary_lines(report):
                ctx.stream.write(line + "\n")
        return
    from rich.console import Console

    from dnlint.weights.render import render_weights

    console = Console(file=ctx.stream, force_terminal=ctx.color, no_color=not ctx.color,
                      highlight=False, width=200 if not ctx.color else None)
    for report in reports:
        render_weights(report, console, show_layers=True)
