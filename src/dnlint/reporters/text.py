"""The terminal formats.

``text`` (the default) shows each diagnostic like rustc/ruff do::

    model.cfg:3:14: DN103 warning: batch=64 is not a multiple of subdivisions=24
      = hint: ...
      |
    3 | subdivisions=24
      |              ^^

The first line is always ``path:line:col: CODE severity: message``; ``concise`` prints only
that line (with `` (hint: ...)``). Plain text when colour is off (no rich import at all, for a
fast pre-commit hook); rich with colours on a terminal.
"""

from __future__ import annotations

from dnlint.clean import shown_path
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.reporters import ReportContext
from dnlint.reporters.grouping import group_repeats
from dnlint.result import FileResult, RunTotals

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from rich.console import Console

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_GUTTER = "bold blue"
# A printed line is a list of (text, style) pieces; plain output joins the texts.
Piece = tuple[str, str | None]
Printed = list[Piece]
_CONTROL = {i: "?" for i in (*range(32), 127, *range(0x80, 0xA0)) if i != 9}
SNIPPET_WIDTH = 100  # a longer source line is clipped around the caret, as rustc and ruff do


def location(diagnostic: Diagnostic) -> str:
    parts = [shown_path(diagnostic.path)]
    if diagnostic.line is not None:
        parts.append(str(diagnostic.line))
        if diagnostic.column is not None:
            parts.append(str(diagnostic.column))
    return ":".join(parts)


def summary_line(totals: RunTotals) -> str:
    files = totals.files
    noun = "file" if files == 1 else "files"
    total = totals.total
    if not total:
        # a run that checked nothing did not pass anything (standard error says why)
        return f"All checks passed ({files} {noun})." if files else "Nothing checked (0 files)."
    counts = ", ".join(
        f"{n} {s.value}{'s' if n != 1 else ''}"
        for s in Severity
        if (n := totals.count(s))
    )
    return f"Found {total} problem{'s' if total != 1 else ''} ({counts}) in {files} {noun}."


def fix_lines(totals: RunTotals, verbose: bool = False) -> list[str]:
    """What --fix did and can still do, after the summary (as ruff says it); the unsafe fixes
    only with -v (their rules say so in --list-rules)."""
    lines = []
    if totals.fixed:
        lines.append(f"Fixed {totals.fixed} problem{'s' if totals.fixed != 1 else ''}.")
    if totals.fixable:
        lines.append(f"[*] {totals.fixable} fixable with the --fix option.")
    if totals.unsafe_fixable and verbose:
        lines.append(f"{totals.unsafe_fixable} more fixable with --fix --unsafe-fixes.")
    return lines


def _head(d: Diagnostic, with_hint: bool) -> Printed:
    path = shown_path(d.path)
    where = location(d)
    return [
        (path, "bold"),
        (where[len(path):] + ": ", "dim"),
        (d.code + (" [*] " if d.fix is not None and d.fix.safe else " "), "bold"),
        (d.severity.value + ": ", _STYLE[d.severity]),
        (d.message, None),
        (f" (hint: {d.hint})" if with_hint and d.hint else "", "dim"),
    ]


def diagnostic_block(d: Diagnostic, source: str | None) -> list[Printed]:
    """The ``text`` rendering of one diagnostic: head, hint, then the source line (``None``:
    none to show) and caret."""
    block = [_head(d, with_hint=False)]
    if d.hint:
        block.append([("  = ", _GUTTER), ("hint: ", "bold"), (d.hint, None)])
    if source is not None:
        block += _snippet(d, source)
    return block


def clip(source: str, column: int | None, width: int = SNIPPET_WIDTH) -> tuple[str, int | None]:
    """The part of ``source`` shown (at most ``width`` characters, around ``column``, with
    ``...`` where it was cut) and the caret's column in it: output stays bounded whatever the
    length of the line."""
    if len(source) <= width:
        return source, column
    at = min(max(column or 1, 1), len(source) + 1) - 1
    start = max(0, min(at - width // 2, len(source) - width))
    shown = source[start:start + width]
    prefix = "..." if start else ""
    suffix = "..." if start + width < len(source) else ""
    caret = None if column is None else len(prefix) + at - start + 1
    return prefix + shown + suffix, caret


def _snippet(d: Diagnostic, source: str) -> list[Printed]:
    number = str(d.line)
    pad = " " * len(number)
    clipped, column = clip(source, d.column)
    shown = clipped.translate(_CONTROL).expandtabs(4)
    out: list[Printed] = [[(f"{pad} |", _GUTTER)], [(f"{number} | ", _GUTTER), (shown, None)]]
    if column is not None:
        indent = len(clipped[: column - 1].translate(_CONTROL).expandtabs(4))
        out.append([(f"{pad} | ", _GUTTER), (" " * indent, None),
                    ("^" * _caret_width(d, clipped, column), _STYLE[d.severity])])
    return out


def _caret_width(d: Diagnostic, shown: str, column: int) -> int:
    """How many carets underline the finding: its span on this line (as shown: clipped,
    tabs expanded), at least one."""
    if d.end_column is None or d.column is None or d.end_line != d.line:
        return 1
    end = min(column + d.end_column - d.column, len(shown) + 1)
    width = len(shown[column - 1:end - 1].translate(_CONTROL).expandtabs(4))
    return max(width, 1)


def _document_lines(file: FileResult) -> Sequence[str]:
    return file.document.lines if file.document is not None else ()


def file_lines(file: FileResult, ctx: ReportContext, concise: bool) -> Iterator[list[Printed]]:
    """What the text formats print for one file's diagnostics, a diagnostic's lines at a time:
    the pieces of every line of a file of 40,000 findings, made before the first was written,
    took a kilobyte per finding."""
    if ctx.verbose and file.dialect is not None:
        yield [[(f"{shown_path(file.path)}: dialect {file.dialect.value} "
                 f"({file.dialect_reason})", "dim")]]
    lines = _document_lines(file)
    # the line last quoted: cut once for all its findings (each cut copies the line: 100,000
    # findings on one long line made the report quadratic)
    quoted, source = 0, None
    for shown in group_repeats(file.diagnostics):  # repeats print once (grouping.py)
        d, more = shown.diagnostic, shown.more
        if concise:
            yield [_head(d, with_hint=True) + ([(f" ({more})", "dim")] if more else [])]
        else:
            if d.line != quoted:
                quoted = d.line or 0
                source = lines[quoted - 1] if 1 <= quoted <= len(lines) else None
            block = diagnostic_block(d, source)
            if more:
                block.insert(1, [("  = ", _GUTTER), (more, None)])
            yield [*block, []] if len(block) > 1 else block


class TextReporter:
    """``text`` and ``concise``: each file's findings as soon as it is done, then the summary.

    Plain text when colour is off (no rich import at all, for a fast pre-commit hook); rich
    with colours on a terminal.
    """

    def __init__(self, ctx: ReportContext, concise: bool) -> None:
        self.ctx = ctx
        self.concise = concise
        self._console: Console | None = None

    def file(self, result: FileResult) -> None:
        blocks = file_lines(result, self.ctx, self.concise)
        if self.ctx.color:
            console = self._rich()
            from rich.text import Text

            for printed in blocks:
                for pieces in printed:
                    console.print(Text.assemble(*[(text, style or "") for text, style in pieces]))
        else:
            write = self.ctx.stream.write
            for printed in blocks:
                write("".join("".join(text for text, _ in pieces) + "\n" for pieces in printed))
        self._extras(result)

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        if self.ctx.quiet:
            return
        if self.ctx.color:
            from rich.text import Text

            style = "bold red" if totals.count(Severity.ERROR) else "bold green"
            self._rich().print(Text(summary_line(totals), style=style))
        else:
            self.ctx.stream.write(summary_line(totals) + "\n")
        fixes = fix_lines(totals, self.ctx.verbose)
        self.ctx.stream.write("".join(line + "\n" for line in fixes))

    def _rich(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.ctx.stream, force_terminal=True, highlight=False,
                                    soft_wrap=True)
        return self._console

    def _extras(self, file: FileResult) -> None:
        ctx = self.ctx
        if ctx.show_layers:
            from dnlint.reporters.table import print_layer_table

            print_layer_table(file, ctx)
        if not ctx.quiet and (ctx.show_layers or ctx.verbose or not self.concise):
            _weights_summary(file, ctx)
        if not ctx.quiet and "dataset" in file.extra:
            from dnlint.dataset.report import dataset_lines

            ctx.stream.write("".join(line + "\n" for line in dataset_lines(file.extra["dataset"])))


def _weights_finding(file: FileResult) -> bool:
    report = file.checked_weights
    path = report.path if report is not None else None
    return path is not None and any(d.path == path for d in file.diagnostics)


def _weights_summary(file: FileResult, ctx: ReportContext) -> None:
    """The summary (header, expected against actual) of a weights file with a finding, of
    every prediction with -v; with --layers, also the offsets table (rich). A clean file says
    nothing, as a pre-commit hook should."""
    every = ctx.show_layers or ctx.verbose
    report = file.weights if every else file.checked_weights
    if report is None or not (every or _weights_finding(file)):
        return
    if not ctx.show_layers:
        from dnlint.weights.render import summary_lines

        ctx.stream.write("".join(line + "\n" for line in summary_lines(report)))
        return
    if not ctx.color:
        from dnlint.reporters.plain_table import plain_weights

        text = plain_weights(report)
        if text is not None:
            ctx.stream.write(text)
            return
    from rich.console import Console

    from dnlint.weights.render import render_weights

    console = Console(file=ctx.stream, force_terminal=ctx.color, no_color=not ctx.color,
                      highlight=False, width=200 if not ctx.color else None)
    render_weights(report, console, show_layers=True)
