"""The ``dnlint`` command: parse flags, run, pick a reporter, choose the exit status.

Exit status: 0 no error (warnings allowed), 1 at least one error (with ``--strict``, warnings
too), 2 usage error, bad configuration, or a path that cannot be read.

Per file: the nearest configuration (:mod:`dnlint.config`) may name the dialect; after linting,
:mod:`dnlint.policy` applies in-file directives, severity overrides and rule selection.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TextIO

import click

from dnlint import __version__
from dnlint.config import Config, ConfigError, ConfigFinder
from dnlint.diagnostics import Severity
from dnlint.dialects import ALIASES, parse_dialect
from dnlint.engine import (
    Input,
    InputError,
    RunOptions,
    RunResult,
    check_data,
    collect_inputs,
    cycle_gc_paused,
    lint_input,
)
from dnlint.policy import Policy, apply_policy, selection_for
from dnlint.reporters import FORMATS
from dnlint.result import FileResult

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


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


def run_paths(paths: tuple[str, ...], options: RunOptions, finder: ConfigFinder | None = None,
              policy: Policy | None = None, dialect_given: bool = True) -> RunResult:
    """Lint ``paths``; each file gets the dialect and selection of its nearest configuration."""
    finder = finder if finder is not None else ConfigFinder(disabled=True)
    policy = policy if policy is not None else Policy()
    run = RunResult()
    inputs = collect_inputs(paths, run.notes)

    def lint_cfg(item: Input) -> FileResult:
        """One cfg with the dialect of its nearest configuration, and --data."""
        config = finder.for_path(item.path)
        chosen = _options_for(options, config, dialect_given)
        result = lint_input(item, chosen)
        _check_targets(result, options.targets, config)
        if options.data:
            check_data(result, options.data)
        if chosen is not options and config is not None and result.dialect is not None:
            result.dialect_reason = f"set in {config.path}"
        return result

    with cycle_gc_paused():
        run.files += [lint_cfg(item) for item in inputs if item.kind != "weights"]
        _attach_weights(run, inputs, options, lint_cfg)
    for result in run.files:
        apply_policy(result, selection_for(result.path, policy, finder.for_path(result.path)))
    return run


def _check_targets(result: FileResult, targets: tuple[str, ...], config: Config | None) -> None:
    """--target and the configuration's ``target``; the target modules load only when used."""
    chosen = targets + tuple(t for t in (config.target if config else ()) if t not in targets)
    if chosen:
        from dnlint.targets import check_targets

        check_targets(result, chosen)


def _options_for(options: RunOptions, config: Config | None, dialect_given: bool) -> RunOptions:
    if dialect_given or config is None or config.dialect is None:
        return options
    from dataclasses import replace

    return replace(options, dialect=parse_dialect(config.dialect))


def _attach_weights(run: RunResult, inputs: list[Input], options: RunOptions,
                    lint_cfg: Callable[[Input], FileResult]) -> None:
    weights = list(options.weights) + [i.path for i in inputs if i.kind == "weights"]
    if not weights:
        return
    from dnlint.weights.pairing import attach_weights

    attach_weights(run, weights, options, lint_cfg)


def _exit_status(run: RunResult, strict: bool, exit_zero: bool) -> int:
    if exit_zero:
        return EXIT_OK
    failing = run.count(Severity.ERROR) + (run.count(Severity.WARNING) if strict else 0)
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
    try:
        run = run_paths(paths, options, _finder(config_file, no_config), policy,
                        dialect_given=dialect is not None)
    except (InputError, ConfigError) as exc:
        click.echo(f"dnlint: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    if graph_file:
        _write_graph(run, graph_file)
    _write_report(run, output_format, output_file, color, no_color, verbose, quiet, show_layers,
                  statistics)
    sys.exit(_exit_status(run, strict, exit_zero))


def _write_graph(run: RunResult, graph_file: str) -> None:
    from dnlint.graph import write_graph

    if graph_file == "-":
        click.echo("dnlint: --graph needs a file name (the report goes to standard output)",
                   err=True)
        sys.exit(EXIT_USAGE)
    try:
        note = write_graph(run, graph_file)
    except OSError as exc:
        click.echo(f"dnlint: {graph_file}: cannot write: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)
    if note:
        click.echo(f"dnlint: {note}", err=True)


def _write_report(run: RunResult, output_format: str, output_file: str | None, color: str,
                  no_color: bool, verbose: bool, quiet: bool, show_layers: bool,
                  statistics: bool) -> None:
    from dnlint.reporters import ReportContext, get_reporter

    if verbose:
        for note in run.notes:
            click.echo(note, err=True)
    reporter = get_reporter(output_format)
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8") as handle:
                reporter(run, ReportContext(handle, False, quiet, verbose, show_layers,
                                            statistics))
        except OSError as exc:
            click.echo(f"dnlint: {output_file}: cannot write: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_USAGE)
        return
    use_color = (output_format in ("text", "concise") and not no_color
                 and _use_color(color, sys.stdout))
    reporter(run, ReportContext(sys.stdout, use_color, quiet, verbose, show_layers, statistics))
