"""The ``dnlint`` command: parse flags, run, pick a reporter, choose the exit status.

Exit status: 0 no error (warnings allowed), 1 at least one error (with ``--strict``, warnings
too), 2 usage error, bad configuration, or a path that cannot be read.

Per file: the nearest configuration (:mod:`dnlint.config`) may name the dialect; after linting,
:mod:`dnlint.policy` applies in-file directives, severity overrides and rule selection.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NamedTuple, NoReturn, TextIO

import click

from dnlint import __version__
from dnlint.clean import printable, shown_path
from dnlint.config import ConfigError, ConfigFinder
from dnlint.diagnostics import Severity
from dnlint.dialects import ALIASES, parse_dialect
from dnlint.engine import Run, RunOptions
from dnlint.policy import Policy
from dnlint.reporters import FORMATS
from dnlint.result import RunTotals

if TYPE_CHECKING:
    from dnlint.graph import GraphCollector
    from dnlint.reporters import Reporter

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_PIPE = 141  # the reader of standard output went away: end quietly, as SIGPIPE would


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def _explain(code: str) -> None:
    from dnlint.rules import find_rule

    found = find_rule(code)
    if found is None:
        raise click.UsageError(f"no such rule: {code!r} (see dnlint --list-rules)")
    click.echo(found.explanation())


def _list_rules(output_format: str) -> None:
    from dnlint.rules import all_rules

    if output_format == "json":
        import json

        rows = [{"code": r.code, "name": r.name, "severity": r.severity.value,
                 "summary": r.summary} for r in all_rules()]
        click.echo(json.dumps(rows, indent=2))
        return
    for r in all_rules():
        click.echo(f"{r.code}  {r.severity.value:<7}  {r.name:<32}  {r.summary}")


def exit_status(run: Run, totals: RunTotals, strict: bool, exit_zero: bool) -> int:
    """3 when dnlint failed on a file, 2 when a path could not be read, else 1 for problems."""
    if run.internal_errors:
        return EXIT_INTERNAL
    if run.unreadable:
        return EXIT_USAGE
    if exit_zero:
        return EXIT_OK
    failing = totals.count(Severity.ERROR) + (totals.count(Severity.WARNING) if strict else 0)
    return EXIT_PROBLEMS if failing else EXIT_OK


def _selectors(values: tuple[str, ...], flag: str) -> tuple[str, ...] | None:
    """``--select DN1,DN203 --select DN4`` -> ("DN1", "DN203", "DN4"); validated."""
    if not values:
        return None
    from dnlint.config import selectors

    try:
        return selectors(",".join(values), "command line", flag)
    except ConfigError as exc:
        raise click.UsageError(str(exc).removeprefix("command line: ")) from None


def _targets(values: tuple[str, ...]) -> tuple[str, ...]:
    if not values:
        return ()
    from dnlint.targets import parse_targets

    try:
        return parse_targets(list(values), "--target")
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _overrides(values: tuple[str, ...]) -> tuple[tuple[str, Severity], ...]:
    from dnlint.config import severity_overrides

    table: dict[str, str] = {}
    for value in values:
        code, sep, level = value.partition("=")
        if not sep:
            raise click.UsageError(f"--severity-override wants CODE=LEVEL, not {value!r}")
        table[code.strip()] = level.strip()
    try:
        return severity_overrides(table, "--severity-override")
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def _finder(config_file: str | None, no_config: bool) -> ConfigFinder:
    if config_file and no_config:
        raise click.UsageError("--config and --no-config exclude each other")
    if config_file:
        from pathlib import Path

        from dnlint.config import load_config

        if not os.path.isfile(config_file):
            raise ConfigError(f"{config_file}: no such configuration file")
        return ConfigFinder(explicit=load_config(Path(config_file)))
    return ConfigFinder(disabled=no_config)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=str)
@click.option("--dialect", default=None, metavar="NAME",
              type=click.Choice(sorted(ALIASES), case_sensitive=False),
              help="Which Darknet reads the files: pjreddie (pj), alexeyab (ab), hank, or auto "
                   "(the default, unless the configuration names one).")
@click.option("--format", "output_format", default="text", show_default=True,
              type=click.Choice(FORMATS), help="Output format.")
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--select", "select", multiple=True, metavar="CODES",
              help="Check only these rules: codes or prefixes, comma-separated (DN2,DN401).")
@click.option("--extend-select", "extend_select", multiple=True, metavar="CODES",
              help="Check these rules too, on top of --select or the configuration.")
@click.option("--ignore", "ignore", multiple=True, metavar="CODES",
              help="Do not report these rules (codes or prefixes, comma-separated).")
@click.option("--severity-override", "severity_override", multiple=True, metavar="CODE=LEVEL",
              help="Report a rule (or prefix) as error, warning or info (repeatable).")
@click.option("--config", "config_file", metavar="FILE",
              help="Use this .dnlint.toml or pyproject.toml instead of searching for one.")
@click.option("--no-config", is_flag=True, help="Ignore every configuration file.")
@click.option("--disable-directives", is_flag=True,
              help="Ignore '# dnlint:' suppression comments in the files.")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour the text output.")
@click.option("--no-color", is_flag=True, help="Same as --color=never.")
@click.option("--strict", is_flag=True, help="Warnings also make the exit status 1.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when problems are found.")
@click.option("--layers", "show_layers", is_flag=True, help="Print the layer table.")
@click.option("--graph", "graph_file", metavar="FILE",
              help="Write the layer graph: Graphviz DOT, or SVG for FILE.svg (needs 'dot').")
@click.option("--weights", "weights", multiple=True, metavar="FILE",
              help="Check this .weights file against the cfg (repeatable).")
@click.option("--cfg", "cfg", metavar="FILE", help="The cfg for weights given alone.")
@click.option("--scan", is_flag=True, help="Also scan the weights' values (NaN, Inf, zeros).")
@click.option("--data", "data", metavar="FILE",
              help="An obj.data file: check classes and the names file against every head.")
@click.option("--target", "target", multiple=True, metavar="NAME",
              help="Also check deployment to NAME (opencv: cv2.dnn.readNetFromDarknet); "
                   "repeatable.")
@click.option("--statistics", is_flag=True, help="Count the diagnostics per rule.")
@click.option("--explain", metavar="CODE", help="Explain a rule and exit.")
@click.option("--list-rules", is_flag=True, help="List every rule and exit (--format json too).")
@click.option("-v", "--verbose", is_flag=True,
              help="Say which dialect was chosen and why, and which files were skipped.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@click.version_option(__version__, "--version", prog_name="dnlint")
def main(
    paths: tuple[str, ...],
    dialect: str | None,
    output_format: str,
    output_file: str | None,
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    severity_override: tuple[str, ...],
    config_file: str | None,
    no_config: bool,
    disable_directives: bool,
    color: str,
    no_color: bool,
    strict: bool,
    exit_zero: bool,
    show_layers: bool,
    graph_file: str | None,
    weights: tuple[str, ...],
    cfg: str | None,
    scan: bool,
    data: str | None,
    target: tuple[str, ...],
    statistics: bool,
    explain: str | None,
    list_rules: bool,
    verbose: bool,
    quiet: bool,
) -> None:
    """Check Darknet .cfg (and .weights) files before a GPU hour is spent on them.

    PATHS are cfg files, directories (every Darknet *.cfg below them), .weights files, or - for
    standard input.
    """
    if explain:
        _explain(explain)
        return
    if list_rules:
        _list_rules(output_format)
        return
    if not paths and not weights:
        raise click.UsageError("no files given (try: dnlint model.cfg)")
    policy = Policy(_selectors(select, "--select"), _selectors(extend_select, "--extend-select")
                    or (), _selectors(ignore, "--ignore") or (), _overrides(severity_override),
                    not disable_directives)
    options = RunOptions(parse_dialect(dialect or "auto"), weights, cfg, scan, data, verbose,
                         _targets(target))
    if graph_file == "-":
        raise click.UsageError("--graph needs a file name (the report goes to standard output)")
    try:
        finder = _finder(config_file, no_config)
    except ConfigError as exc:
        _fail(str(exc), EXIT_USAGE)
    outputs = [(path, what) for path, what in ((output_file, "the output"),
                                               (graph_file, "the graph")) if path]
    run = Run(paths, options, finder, policy, dialect_given=dialect is not None,
              track_inputs=bool(outputs))
    given = (*paths, *weights, *(p for p in (cfg, data, config_file) if p))
    _refuse_given_inputs(outputs, given)
    use_color = (output_format in ("text", "concise") and not no_color and not output_file
                 and _use_color(color, sys.stdout))
    settings = _ReportSettings(output_format, use_color, quiet, verbose, show_layers, statistics,
                               strict, exit_zero)
    sys.exit(_run_and_report(run, settings, output_file, graph_file, given))


class _ReportSettings(NamedTuple):  # not a frozen dataclass: ~1 ms less start-up
    output_format: str
    color: bool
    quiet: bool
    verbose: bool
    show_layers: bool
    statistics: bool
    strict: bool
    exit_zero: bool


def _fail(message: str, status: int) -> NoReturn:
    click.echo(f"dnlint: {printable(message)}", err=True)
    sys.exit(status)


def _refuse_given_inputs(outputs: list[tuple[str, str]], given: tuple[str, ...]) -> None:
    """Before anything runs: no output may be a path named on the command line."""
    from dnlint.outputs import OutputError, identities, refuse_input

    if not outputs:
        return
    inputs = identities(given)
    try:
        for path, what in outputs:
            refuse_input(path, inputs, what)
    except OutputError as exc:
        _fail(str(exc), EXIT_USAGE)


def _run_and_report(run: Run, settings: _ReportSettings, output_file: str | None,
                    graph_file: str | None, given: tuple[str, ...]) -> int:
    """Stream every result to the reporter (and the graph); the exit status.

    Nothing escapes as a traceback: a bug is one line naming the file and exit status 3; a
    report that cannot be written is one line and exit status 2; a closed pipe ends quietly.
    """
    from dnlint.outputs import AtomicOutput, OutputError, identities

    destination = None
    try:
        destination = AtomicOutput(output_file) if output_file else None
        stream = destination.stream if destination is not None else sys.stdout
        status = _stream(run, settings, stream, graph_file)
        if destination is not None:
            destination.commit((run.inputs_read or set()) | identities(given))
        else:
            sys.stdout.flush()
        return status
    except ConfigError as exc:
        _discard(destination)
        _fail(str(exc), EXIT_USAGE)
    except OutputError as exc:
        _discard(destination)
        _fail(str(exc), EXIT_USAGE)
    except BrokenPipeError:
        _discard(destination)
        _silence_stdout()
        return EXIT_PIPE
    except OSError as exc:
        _discard(destination)
        where = shown_path(output_file) if output_file else "standard output"
        _silence_stdout()
        _fail(f"cannot write the report to {where}: {exc.strerror or exc}", EXIT_USAGE)
    except Exception as exc:  # a bug in dnlint: one line, its own exit status
        _discard(destination)
        _fail(f"internal error while handling {shown_path(run.current) or 'the run'} "
              f"({type(exc).__name__}: {exc}); please report it with the file", EXIT_INTERNAL)


def _stream(run: Run, settings: _ReportSettings, stream: TextIO, graph_file: str | None) -> int:
    from dnlint.reporters import ReportContext, get_reporter

    ctx = ReportContext(stream, settings.color, settings.quiet, settings.verbose,
                        settings.show_layers, settings.statistics)
    reporter: Reporter = get_reporter(settings.output_format, ctx)
    graph = _graph_collector() if graph_file else None
    totals = RunTotals()
    for result in run.results():
        totals.add(result)
        reporter.file(result)
        if graph is not None:
            graph.add(result)
        del result  # the next file is linted inside the loop's next(): keep nothing of this one
    if settings.verbose:
        for note in run.notes:
            click.echo(shown_path(note), err=True)
    status = exit_status(run, totals, settings.strict, settings.exit_zero)
    reporter.finish(totals, status)
    if graph is not None and graph_file:
        drawn = graph.write(graph_file, run.inputs_read or set())
        if drawn:
            click.echo(f"dnlint: {printable(drawn)}", err=True)
    return status


def _graph_collector() -> GraphCollector:
    from dnlint.graph import GraphCollector

    return GraphCollector()


def _discard(destination: object) -> None:
    from dnlint.outputs import AtomicOutput

    if isinstance(destination, AtomicOutput):
        destination.discard()


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the interpreter's own final
    flush cannot fail again (and print a traceback)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
