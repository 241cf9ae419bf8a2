"""The ``dnlint`` command as click declares it: the single source of its options, ``--help``,
and every usage error in click's words.

Exit status: 0 no error (warnings allowed), 1 at least one error (with ``--strict``, warnings
too), 2 usage error, bad configuration, or a path that cannot be read.

The console script reads a plain command line without click (:mod:`dnlint.argv`, checked
against this command) and comes here for the rest. Once the flags are read, the run is
:mod:`dnlint.command`'s; each file goes through the one pipeline (:mod:`dnlint.pipeline`), with
the settings its nearest configuration and the flags resolve to (:mod:`dnlint.settings`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, TypeVar

import click

from dnlint import __version__
from dnlint.about import build_description
from dnlint.command import (
    Flags,
    UsageProblem,
    checked_paths,
    files_read,
    need_standard_streams,
    new_run,
    run_once,
)
from dnlint.console import EXIT_INTERNAL, EXIT_USAGE, cannot_write, fail
from dnlint.dialects import ALIASES
from dnlint.reporters import FORMATS
from dnlint.settings.config import CWD_CONFIGURATION, ConfigError, unreadable_config

__all__ = ["EXIT_INTERNAL", "build_description", "main"]

if TYPE_CHECKING:
    from collections.abc import Callable

    from dnlint.run.engine import Run

T = TypeVar("T")


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
    need_standard_streams(paths, args)
    if args.explain:
        _explain(args.explain)
        return
    if args.list_rules:
        _list_rules(args.output_format)
        return
    paths = _said(checked_paths, paths, args)
    if args.show_settings:
        _show_settings(paths, args)
        return
    if args.watch:
        from dnlint.run.watch import watch

        watch(lambda: _said(run_once, paths, args), lambda: _said(files_read, paths, args))
    sys.exit(_said(run_once, paths, args))


def _said(step: Callable[[tuple[str, ...], Flags], T], paths: tuple[str, ...],
             args: Flags) -> T:
    """``step(paths, args)``, a usage problem it finds said as click says a usage error."""
    try:
        return step(paths, args)
    except UsageProblem as exc:
        raise click.UsageError(str(exc)) from None


def _new_run(paths: tuple[str, ...], args: Flags) -> Run:
    return new_run(paths, args, track_inputs=False)


def _show_settings(paths: tuple[str, ...], args: Flags) -> None:
    from dnlint.run.settings import settings_lines

    run = _said(_new_run, paths, args)
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
