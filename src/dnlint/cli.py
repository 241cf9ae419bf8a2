"""The ``dnlint`` command: parse flags, run, pick a reporter, choose the exit status.

Exit status: 0 no error (warnings allowed), 1 at least one error (with ``--strict``, warnings
too), 2 usage error, bad configuration, or a path that cannot be read.

Each file goes through the one pipeline (:mod:`dnlint.pipeline`), with the settings its nearest
configuration and the flags resolve to (:mod:`dnlint.settings`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

import click

from dnlint import __version__
from dnlint.console import (
    EXIT_INTERNAL,
    EXIT_USAGE,
    ReportSettings,
    cannot_write,
    check_outputs,
    fail,
    run_and_report,
)
from dnlint.diagnostics import Severity
from dnlint.dialects import ALIASES
from dnlint.reporters import FORMATS
from dnlint.run.engine import Run
from dnlint.settings.config import CWD_CONFIGURATION, ConfigError, unreadable_config

__all__ = ["EXIT_INTERNAL", "build_description", "main"]

if TYPE_CHECKING:
    from collections.abc import Callable




def build_description() -> str:
    """Which build of dnlint runs, for ``--version``: the mypyc-compiled modules (a platform
    wheel, or an install from source with a C compiler) or the pure-Python fallback, which is
    about half as fast."""
    import dnlint.diagnostics  # compiled in a compiled build; imported by this module anyway

    compiled = (dnlint.diagnostics.__file__ or "").endswith((".so", ".pyd"))
    build = "compiled with mypyc" if compiled else "pure Python"
    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"%(prog)s %(version)s ({build}, Python {python})"


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
                 "fix": r.fix, "summary": r.summary} for r in all_rules()]
        click.echo(json.dumps(rows, indent=2))
        return
    for r in all_rules():
        fix = f" [fix: {r.fix}]" if r.fix else ""
        click.echo(f"{r.code}  {r.severity.value:<7}  {r.name:<32}  {r.summary}{fix}")


class Flags(NamedTuple):
    """Every command-line option, typed (click hands them over as keyword arguments)."""

    dialect: str | None
    output_format: str
    output_file: str | None
    select: tuple[str, ...]
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    extend_ignore: tuple[str, ...]
    per_file_ignores: tuple[str, ...]
    severity_override: tuple[str, ...]
    config_file: str | None
    no_config: bool
    disable_directives: bool
    exclude: tuple[str, ...]
    extend_exclude: tuple[str, ...]
    force_exclude: bool
    respect_gitignore: bool | None
    stdin_filename: str | None
    color: str
    no_color: bool
    strict: bool
    fail_on: str | None
    exit_zero: bool
    show_layers: bool
    graph_file: str | None
    weights: tuple[str, ...]
    cfg: str | None
    weights_beside: bool
    weights_only: bool
    scan: bool
    data: str | None
    data_root: str | None
    check_images: bool
    check_labels: bool
    target: tuple[str, ...]
    gpu_memory: str | None
    statistics: bool
    fix: bool
    unsafe_fixes: bool
    fix_only: bool
    diff: bool
    add_suppressions: bool
    explain: str | None
    list_rules: bool
    show_settings: bool
    watch: bool
    verbose: bool
    quiet: bool


def _comma_list(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item.strip() for value in values for item in value.split(",") if item.strip())


class _Command(click.Command):
    """The command, whose every write is safe: what it prints outside a run (``--help``,
    ``--version``, ``--list-rules``, ``--explain``, click's usage errors) fails as a run's
    report does, never as a traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:  # click re-raises what is not EPIPE; a run handles its own
            cannot_write(exc)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        """The parameters, each eager one (``--help``, ``--version``: click runs them before
        the command, and they print to standard output) first checking that it can print."""
        params = super().get_params(ctx)
        for param in params:
            if param.is_eager and param.callback is not None \
                    and not isinstance(param.callback, _PrintsToStdout):
                param.callback = _PrintsToStdout(param.callback)
        return params


class _PrintsToStdout:
    """An eager option's callback that prints to standard output: when that was closed at the
    start (``dnlint --help >&-``; click's echo then prints nothing and the exit was 0), one
    line on standard error and exit 2, as every other command that prints does."""

    def __init__(self, callback: Callable[[click.Context, click.Parameter, Any], Any]) -> None:
        self.callback = callback

    def __call__(self, ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value and not ctx.resilient_parsing and sys.stdout is None:
            fail("cannot write to standard output: it is closed", EXIT_USAGE)
        return self.callback(ctx, param, value)


@click.command(cls=_Command, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=str)
@click.option("--dialect", default=None, metavar="NAME",
              type=click.Choice(sorted(ALIASES), case_sensitive=False),
              help="Which Darknet reads the files: pjreddie (pj), alexeyab (ab), hank, or auto "
                   "(the default, unless the configuration names one).")
@click.option("--output-format", "--format", "output_format", default="text", show_default=True,
              envvar="DNLINT_OUTPUT_FORMAT", show_envvar=True, type=click.Choice(FORMATS),
              help="Output format.")
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False),
              help="Write the report to this file instead of stdout (never over an input).")
@click.option("--select", "select", multiple=True, metavar="RULES",
              help="Check only these rules: codes, prefixes or names, comma-separated "
                   "(DN2,DN401,unknown-option).")
@click.option("--extend-select", "extend_select", multiple=True, metavar="RULES",
              help="Check these rules too, on top of --select or the configuration.")
@click.option("--ignore", "ignore", multiple=True, metavar="RULES",
              help="Do not report these rules (codes, prefixes or names, comma-separated).")
@click.option("--extend-ignore", "extend_ignore", multiple=True, metavar="RULES",
              help="Ignore these rules too, on top of the configuration's ignore.")
@click.option("--per-file-ignores", "per_file_ignores", multiple=True, metavar="GLOB:RULES",
              help="Ignore RULES in files matching GLOB, e.g. 'legacy/*.cfg:DN2' (repeatable).")
@click.option("--severity-override", "severity_override", multiple=True, metavar="CODE=LEVEL",
              help="Report a rule (or prefix) as error, warning or info (repeatable).")
@click.option("--config", "config_file", metavar="FILE",
              help="Use this .dnlint.toml or pyproject.toml instead of searching for one.")
@click.option("--no-config", is_flag=True, help="Ignore every configuration file.")
@click.option("--disable-directives", is_flag=True,
              help="Ignore '# dnlint:' suppression comments in the files.")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOBS",
              help="Paths a directory walk passes over, replacing the defaults (.git, .venv, "
                   "node_modules, build, ...); comma-separated.")
@click.option("--extend-exclude", "extend_exclude", multiple=True, metavar="GLOBS",
              help="Paths a directory walk passes over, on top of the defaults.")
@click.option("--force-exclude", is_flag=True,
              help="Apply the excludes to paths named on the command line too (pre-commit).")
@click.option("--respect-gitignore/--no-respect-gitignore", "respect_gitignore", default=None,
              help="Pass over what .gitignore and .ignore files ignore (default: yes).")
@click.option("--stdin-filename", "stdin_filename", metavar="PATH",
              help="Lint standard input as if it were PATH (its configuration, dialect and "
                   "per-file ignores); for editors.")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour the text output.")
@click.option("--no-color", is_flag=True, help="Same as --color=never.")
@click.option("--fail-on", "fail_on", type=click.Choice(["error", "warning", "info"]),
              default=None, help="The lowest severity that makes the exit status 1 "
                                 "(default: error).")
@click.option("--strict", is_flag=True, help="Same as --fail-on warning.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when problems are found.")
@click.option("--layers", "show_layers", is_flag=True, help="Print the layer table.")
@click.option("--graph", "graph_file", metavar="FILE",
              help="Write the layer graph: Graphviz DOT, or SVG for FILE.svg (needs 'dot').")
@click.option("--weights", "weights", multiple=True, metavar="FILE",
              help="Check this .weights file against the cfg (repeatable).")
@click.option("--cfg", "cfg", metavar="FILE", help="The cfg for weights given alone.")
@click.option("--weights-beside", "weights_beside", is_flag=True,
              help="Also check each cfg against the weights files named after it beside it "
                   "(x.weights, x_best/_final/_last/_N.weights, backup/x_*.weights).")
@click.option("--weights-only", "weights_only", is_flag=True,
              help="Report only the weights files' findings: each cfg given is read to check "
                   "its weights files, its own findings are left to a run that lints it (the "
                   "pre-commit weights hook).")
@click.option("--scan", is_flag=True, help="Also scan the weights' values (NaN, Inf, zeros).")
@click.option("--data", "data", metavar="FILE",
              help="An obj.data file: check it, and its classes and names file against every "
                   "head.")
@click.option("--data-root", "data_root", metavar="DIR",
              help="The folder darknet is started from: relative paths of .data files resolve "
                   "from it (default: the working directory, then the .data file's folder).")
@click.option("--check-images", "check_images", is_flag=True,
              help="Also look for every image the train= and valid= lists of a .data file name.")
@click.option("--check-labels", "check_labels", is_flag=True,
              help="Also read the label file of every listed image as the dialect derives it "
                   "(boxes, class ids, coordinates; a classifier's labels), count boxes per "
                   "class, and check the lists (implies --check-images).")
@click.option("--target", "target", multiple=True, metavar="NAME",
              help="Also check deployment to NAME (opencv, tensorrt-demos, hank-onnx); "
                   "repeatable.")
@click.option("--gpu-memory", "gpu_memory", metavar="SIZE",
              help="The GPU's memory (8G, 11GiB, 6144M), or auto: this machine's, read with "
                   "nvidia-smi (also done for a training job, a .data with a cfg). Warn when "
                   "training needs more at the cfg's mini-batch, and say which subdivisions "
                   "fits (DN121); with no size, the limit is an 80 GiB card (DN123).")
@click.option("--statistics", is_flag=True,
              help="Print how many findings of each rule instead of the findings (as ruff; "
                   "JSON with --format json).")
@click.option("--fix", is_flag=True,
              help="Repair in place what has one right answer (the findings marked [*]); "
                   "report what is left.")
@click.option("--unsafe-fixes", "unsafe_fixes", is_flag=True,
              help="With --fix, --fix-only or --diff: also apply the fixes whose intent could "
                   "differ (a rename, a duplicate commented out; see --list-rules).")
@click.option("--fix-only", "fix_only", is_flag=True,
              help="Like --fix, but report only how many findings were fixed; leftover "
                   "findings do not fail the run.")
@click.option("--diff", is_flag=True,
              help="Print the fixes as a unified diff and write nothing (exit 1 when there is "
                   "something to fix, unless --exit-zero).")
@click.option("--add-suppressions", "add_suppressions", is_flag=True,
              help="Add a '# dnlint: disable-next-line=CODES -- TODO: ...' line above each line "
                   "with a finding (as ruff's --add-noqa), to adopt dnlint on legacy cfgs.")
@click.option("--explain", metavar="RULE", help="Explain a rule (code or name) and exit.")
@click.option("--list-rules", is_flag=True, help="List every rule and exit (--format json too).")
@click.option("--show-settings", "show_settings", is_flag=True,
              help="Print the settings each path is linted with (configuration file, dialect, "
                   "rules, excludes) and whether a walk passes it over; then exit.")
@click.option("--watch", is_flag=True, help="Lint again whenever one of the files changes.")
@click.option("-v", "--verbose", is_flag=True,
              help="Say which dialect was chosen and why, and which files were skipped.")
@click.option("-q", "--quiet", is_flag=True,
              help="Only the findings: no summary line, no weights summary.")
@click.version_option(__version__, "--version", prog_name="dnlint", message=build_description())
def main(paths: tuple[str, ...], **flags: Any) -> None:
    """Check Darknet .cfg (and .weights) files before a GPU hour is spent on them.

    PATHS are cfg files, directories (every Darknet *.cfg, *.weights and *.data below them),
    .weights files, .data and .names files, or - for standard input.
    """
    args = Flags(**flags)
    _need_standard_streams(paths, args)
    if args.explain:
        _explain(args.explain)
        return
    if args.list_rules:
        _list_rules(args.output_format)
        return
    if args.stdin_filename and not paths:
        paths = ("-",)
    if not paths and not args.weights:
        raise click.UsageError("no files given (try: dnlint model.cfg)")
    if args.graph_file == "-":
        raise click.UsageError("--graph needs a file name (the report goes to standard output)")
    if args.show_settings:
        _show_settings(paths, args)
        return
    if args.watch:
        from dnlint.run.watch import watch

        watch(lambda: _run_once(paths, args), lambda: _files_read(paths, args))
    sys.exit(_run_once(paths, args))


def _need_standard_streams(paths: tuple[str, ...], args: Flags) -> None:
    """A standard stream the run needs that was closed when dnlint started (``- <&-``,
    ``>&-``: Python then has None for it): one line on standard error, if that is open, and
    exit 2, before anything is read."""
    reads_stdin = "-" in paths or (args.stdin_filename and not paths)
    if reads_stdin and sys.stdin is None:
        fail("cannot read standard input: it is closed", EXIT_USAGE)
    if sys.stdout is None and (args.explain or args.list_rules or not args.output_file):
        fail("cannot write to standard output: it is closed", EXIT_USAGE)


def _show_settings(paths: tuple[str, ...], args: Flags) -> None:
    from dnlint.run.settings import settings_lines

    run = _new_run(paths, args, track_inputs=False)
    # a configuration that cannot be used: what a lint run says of the same file, one line
    # and exit 2 (the working directory's first, as a run's plan looks it up first)
    looking_for = CWD_CONFIGURATION
    try:
        run.finder.for_path(os.path.join(os.curdir, "."))
        looking_for = ""
        blocks = ["\n".join(settings_lines(path, run)) for path in paths]
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    except OSError as exc:
        fail(str(unreadable_config(exc, looking_for)), EXIT_USAGE)
    click.echo("\n\n".join(blocks))


def _files_read(paths: tuple[str, ...], args: Flags) -> list[str]:
    """What a run with these flags reads: every cfg and weights file its plan names (the same
    walk, excludes and pairing) and the other files given by name."""
    named = [p for p in (*paths, *args.weights, args.cfg, args.data, args.config_file)
             if p and p != "-" and not os.path.isdir(p)]
    # a broken configuration (at the start, or an editor's half-written save): the run says
    # so, and the watch goes on with what was named
    with contextlib.suppress(SystemExit, ConfigError):
        for job in _new_run(paths, args, track_inputs=False).plan():
            named += [path for path in (job.item.path, *job.weights) if path != "-"]
    return named


def _new_run(paths: tuple[str, ...], args: Flags, track_inputs: bool) -> Run:
    """The run these flags describe, built by the API (dnlint.api.new_run) as a script's is;
    a bad value is a usage error, a broken configuration exit status 2."""
    from dnlint.api import new_run

    if args.config_file and args.no_config:
        raise click.UsageError("--config and --no-config exclude each other")
    config = args.config_file or (False if args.no_config else None)
    try:
        return new_run(
            paths, dialect=args.dialect, weights=args.weights, cfg=args.cfg, scan=args.scan,
            data=args.data, target=args.target, config=config, select=args.select or None,
            extend_select=args.extend_select, ignore=args.ignore + args.extend_ignore,
            per_file_ignores=args.per_file_ignores, severity_override=args.severity_override,
            directives=not args.disable_directives,
            exclude=_comma_list(args.exclude) or None, extend_exclude=_comma_list(
                args.extend_exclude), respect_gitignore=args.respect_gitignore,
            force_exclude=args.force_exclude, weights_beside=args.weights_beside,
            weights_only=args.weights_only, stdin_filename=args.stdin_filename,
            fix=_fix_mode(args), unsafe_fixes=args.unsafe_fixes, verbose=args.verbose,
            data_root=args.data_root, check_images=args.check_images,
            gpu_memory=args.gpu_memory, track_inputs=track_inputs,
            check_labels=args.check_labels)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _fix_mode(args: Flags) -> str | None:
    if args.add_suppressions:
        if args.diff or args.fix or args.fix_only:
            raise click.UsageError("--add-suppressions cannot be combined with --fix, "
                                   "--fix-only or --diff")
        return "suppress"
    return "diff" if args.diff else "fix" if args.fix or args.fix_only else None


def _run_once(paths: tuple[str, ...], args: Flags) -> int:
    """One run of the command: the exit status."""
    fix_mode = _fix_mode(args)
    outputs = [(path, what) for path, what in ((args.output_file, "the output"),
                                               (args.graph_file, "the graph")) if path]
    run = _new_run(paths, args, track_inputs=bool(outputs))
    check_outputs(outputs, run.inputs_read or set())
    use_color = (args.output_format in ("text", "concise") and not args.no_color
                 and not args.output_file and _use_color(args.color, sys.stdout))
    fail_on = Severity(args.fail_on) if args.fail_on else (
        Severity.WARNING if args.strict else Severity.ERROR)
    settings = ReportSettings(args.output_format, use_color, args.quiet, args.verbose,
                               args.show_layers, args.statistics, fail_on, args.exit_zero,
                               fix_mode, args.fix_only and not args.diff)
    return run_and_report(run, settings, args.output_file, args.graph_file)
