"""The command's output: a run's results streamed to the chosen reporter (and the graph), what
``--fix`` and ``--diff`` say, the skipped paths, and the exit status; every write safe (a
closed pipe ends quietly, a full disk is one line and exit status 2).

:mod:`dnlint.cli` parses the flags and builds the run; this module reports it.
"""

from __future__ import annotations

import io
import os
import sys

from dnlint.clean import printable, shown_path
from dnlint.diagnostics import Severity
from dnlint.records import NamedTuple
from dnlint.result import FileResult, RunTotals
from dnlint.run.engine import INTERNAL_ERROR, PATH_PROBLEMS, Run
from dnlint.settings.config import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn, TextIO

    from dnlint.reporters import Reporter
    from dnlint.reporters.graph import GraphCollector
    from dnlint.run.outputs import AtomicOutput

__all__ = ["EXIT_INTERNAL", "EXIT_OK", "EXIT_PIPE", "EXIT_PROBLEMS", "EXIT_USAGE",
           "ReportSettings", "cannot_write", "check_outputs", "exit_status", "fail",
           "run_and_report"]

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_PIPE = 141  # the reader of standard output went away: end quietly, as SIGPIPE would


def exit_status(run: Run, totals: RunTotals, fail_on: Severity, exit_zero: bool) -> int:
    """3 when dnlint failed on a file, 2 when a path could not be read, else 1 for a finding
    of severity ``fail_on`` or above."""
    if run.internal_errors:
        return EXIT_INTERNAL
    if run.unreadable:
        return EXIT_USAGE
    if exit_zero:
        return EXIT_OK
    failing = sum(totals.count(s) for s in Severity if s.rank >= fail_on.rank)
    return EXIT_PROBLEMS if failing else EXIT_OK


def fail(message: str, status: int) -> NoReturn:
    """One line on standard error and exit ``status``; a standard error that cannot be
    written either (``2>/dev/full``) leaves the status alone to say it."""
    try:
        _echo_err(f"dnlint: {printable(message)}")
    except OSError:
        _silence(sys.stderr)
    sys.exit(status)


def cannot_write(exc: OSError, what: str = "") -> NoReturn:
    """The one way out after a write to standard output failed: a closed pipe ends quietly
    (EXIT_PIPE, as SIGPIPE would), anything else (a full disk) is one line and exit 2. Standard
    output is pointed at /dev/null first, so that no later flush fails again."""
    _silence(sys.stdout)
    if isinstance(exc, BrokenPipeError):
        sys.exit(EXIT_PIPE)
    fail(f"cannot write {what + ' ' if what else ''}to standard output: "
          f"{exc.strerror or exc}", EXIT_USAGE)


class ReportSettings(NamedTuple):  # not a frozen dataclass: ~1 ms less start-up
    output_format: str
    color: bool
    quiet: bool
    verbose: bool
    show_layers: bool
    statistics: bool
    fail_on: Severity
    exit_zero: bool
    fix_mode: str | None = None  # "fix" or "diff"
    fix_only: bool = False


def check_outputs(outputs: list[tuple[str, str]], inputs: set[tuple[int, int]]) -> None:
    """Before anything runs: no output may be one of the ``inputs`` known so far (the paths
    named on the command line), and no two outputs the same file. (The files the run goes on
    to read join ``inputs``, and are refused when an output is written.)"""
    if not outputs:
        return
    from dnlint.run.outputs import OutputError, refuse_input, refuse_shared

    try:
        for path, what in outputs:
            refuse_input(path, inputs, what)
        refuse_shared(outputs)
    except OutputError as exc:
        fail(str(exc), EXIT_USAGE)


def run_and_report(run: Run, settings: ReportSettings, output_file: str | None,
                    graph_file: str | None) -> int:
    """Stream every result to the reporter (and the graph); the exit status.

    Nothing escapes as a traceback: a bug is one line naming the file and exit status 3; a
    report that cannot be written is one line and exit status 2; a closed pipe ends quietly.
    """
    output_errors: tuple[type[Exception], ...] = ()
    if output_file or graph_file:  # the outputs module only for a run that writes files
        from dnlint.run.outputs import OutputError

        output_errors = (OutputError,)
    destination: AtomicOutput | None = None
    try:
        if output_file:
            from dnlint.run.outputs import AtomicOutput

            destination = AtomicOutput(output_file)
        stream = destination.stream if destination is not None else sys.stdout
        if settings.fix_mode in ("fix", "suppress") and "-" in run.paths \
                and destination is None:
            stream = sys.stderr  # `--fix -` prints the fixed text; the report goes aside
        status = _stream(run, settings, stream, graph_file, output_file)
        if destination is not None:
            destination.commit(run.inputs_read or set())
        else:
            sys.stdout.flush()
        return status
    except ConfigError as exc:
        _discard(destination)
        fail(str(exc), EXIT_USAGE)
    except output_errors as exc:
        _discard(destination)
        fail(str(exc), EXIT_USAGE)
    except OSError as exc:
        _discard(destination)
        if output_file is None:
            cannot_write(exc, "the report")
        fail(f"cannot write the report to {shown_path(output_file)}: {exc.strerror or exc}",
              EXIT_USAGE)
    except Exception as exc:  # a bug in dnlint: one line, its own exit status
        _discard(destination)
        fail(f"internal error while handling {shown_path(run.current) or 'the run'} "
              f"({type(exc).__name__}: {exc}); please report it with the file", EXIT_INTERNAL)


def _stream(run: Run, settings: ReportSettings, stream: TextIO, graph_file: str | None,
            output_file: str | None = None) -> int:
    from dnlint.reporters import ReportContext, get_reporter

    if settings.fix_mode in ("diff", "suppress") or settings.fix_only:
        return _stream_fixes(run, settings, stream)
    results = run.results()  # planned before the report starts: a bad configuration stops
    ctx = ReportContext(stream, settings.color, settings.quiet, settings.verbose,
                        settings.show_layers, settings.statistics)
    reporter: Reporter = get_reporter(settings.output_format, ctx)
    graph = _graph_collector() if graph_file else None
    totals = RunTotals()
    for result in results:
        totals.add(result)
        _fix_problem(result)
        _print_fixed_stdin(result)
        reporter.file(result)
        if graph is not None:
            graph.add(result)
        del result  # the next file is linted inside the loop's next(): keep nothing of this one
    _say_skipped(run, totals, settings.verbose)
    status = exit_status(run, totals, settings.fail_on, settings.exit_zero)
    reporter.finish(totals, status)
    if graph is not None and graph_file:
        others = [output_file] if output_file else []
        drawn = graph.write(graph_file, run.inputs_read or set(), others)
        if drawn:
            _echo_err(f"dnlint: {printable(drawn)}")
    return status


MAX_SKIPPED_SHOWN = 10  # skipped paths named when a run checked nothing (-v names them all)


def _say_skipped(run: Run, totals: RunTotals, verbose: bool) -> None:
    """On standard error: with -v every skipped path and the configuration used; a named
    path skipped as not a Darknet cfg (--force-exclude) always; and when the run checked
    nothing at all, that it did not, and why (a run that checks nothing must not pass
    silently)."""
    for message in run.messages:  # not a skipped path: always said
        _echo_err(f"dnlint: {message}")
    notes = run.notes
    if verbose:
        from dnlint.run.settings import configuration_lines

        for line in [*notes, *configuration_lines(run)]:
            _echo_err(shown_path(line))
    else:
        for note in notes:
            if any(note.startswith(f"{path}: skipped, not a Darknet cfg") for path in run.paths):
                _echo_err(f"dnlint: {shown_path(note)}")
    if totals.files or run.unreadable or run.internal_errors:
        return
    if not notes:
        named = ", ".join(shown_path(p) for p in run.paths[:3]) or "the given paths"
        _echo_err(f"dnlint: no Darknet file checked: {named} hold no *.cfg or *.weights file")
        return
    noun = "path" if len(notes) == 1 else "paths"
    _echo_err(f"dnlint: no Darknet file checked; {len(notes)} {noun} skipped"
               + (":" if not verbose else " (listed above)"))
    if not verbose:
        for note in notes[:MAX_SKIPPED_SHOWN]:
            _echo_err(f"  {shown_path(note)}")
        if len(notes) > MAX_SKIPPED_SHOWN:
            _echo_err(f"  and {len(notes) - MAX_SKIPPED_SHOWN} more (-v lists them)")


def _stream_fixes(run: Run, settings: ReportSettings, stream: TextIO) -> int:
    """--diff (the diffs, then how many findings they fix; exit 1 when there is one, unless
    --exit-zero), --fix-only (how many were fixed; leftover findings do not fail) and
    --add-suppressions (how many directives were added). Paths that could not be handled
    are named on standard error and exit 2, as always."""
    totals = RunTotals()
    added = files = 0
    for result in run.results():
        totals.add(result)
        _fix_problem(result, paths_too=True)
        _print_fixed_stdin(result)
        stream.write(result.extra.get("diff", ""))
        suppressed = result.extra.get("suppressed", 0)
        added, files = added + suppressed, files + bool(suppressed)
    status = exit_status(run, totals, settings.fail_on, exit_zero=True)
    if settings.fix_mode == "suppress":
        if not settings.quiet:
            where = f" to {files} file{'s' if files != 1 else ''}" if added else ""
            stream.write(f"Added {added} suppression{'s' if added != 1 else ''}{where}.\n")
        return status
    n = totals.fixed
    problems = f"{n} problem{'s' if n != 1 else ''}"
    if settings.fix_mode == "diff":
        if status == EXIT_OK and n and not settings.exit_zero:
            status = EXIT_PROBLEMS
        if not settings.quiet:
            _echo_err(f"Would fix {problems}." if n else "No problems to fix.")
    elif not settings.quiet:
        stream.write(f"Fixed {problems}.\n" if n else "No problems fixed.\n")
    return status


def _print_fixed_stdin(result: FileResult) -> None:
    """``--fix -``: standard input's fixed bytes, whole and as they are, on standard output
    (unchanged when nothing was fixed: an editor's format-on-save replaces its buffer)."""
    data = result.extra.get("fixed_data")
    if data is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


def _fix_problem(result: FileResult, paths_too: bool = False) -> None:
    """A cfg --fix could not write on standard error; with ``paths_too`` (--diff and
    --fix-only print no report) also a path that could not be handled at all."""
    for key in ("fix_error", "fix_note"):
        if key in result.extra:
            _echo_err(f"dnlint: {printable(result.extra[key])}")
    for diagnostic in result.diagnostics if paths_too else ():
        if diagnostic.code in PATH_PROBLEMS or diagnostic.code == INTERNAL_ERROR:
            _echo_err(f"dnlint: {shown_path(diagnostic.path)}: {diagnostic.code} "
                       f"{printable(diagnostic.message)}")


def _graph_collector() -> GraphCollector:
    from dnlint.reporters.graph import GraphCollector

    return GraphCollector()


def _discard(destination: AtomicOutput | None) -> None:
    if destination is not None:
        destination.discard()


def _silence(stream: TextIO) -> None:
    """After a failed write, point ``stream`` at /dev/null so that the interpreter's own final
    flush cannot fail again (and print a traceback, or make the exit status 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def _echo_err(message: str) -> None:
    """``click.echo(message, err=True)``: click only when something is said (what it does
    with a stream that is not a terminal, or cannot take the text, stays its own)."""
    import click

    click.echo(message, err=True)
