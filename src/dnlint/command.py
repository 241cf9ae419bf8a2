"""The ``dnlint`` command once its flags are read: check them, build the run, report it, and
choose the exit status.

Click-free, so that a run whose flags the fast reader takes (:mod:`dnlint.argv`) never imports
click: a usage error found here is a :class:`UsageProblem`, which the click command
(:mod:`dnlint.cli`, the single source of the options) says in click's words.

Exit status: 0 no error (warnings allowed), 1 at least one error (with ``--strict``, warnings
too), 2 usage error, bad configuration, or a path that cannot be read.
"""

from __future__ import annotations

import os
import sys

from dnlint.console import EXIT_USAGE, ReportSettings, check_outputs, fail, run_and_report
from dnlint.diagnostics import Severity
from dnlint.records import NamedTuple
from dnlint.settings.config import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

    from dnlint.run.engine import Run

__all__ = ["Flags", "UsageProblem", "checked_paths", "files_read", "need_standard_streams",
           "new_run", "run_once"]


class UsageProblem(Exception):
    """A usage error found after the flags were read (``--config`` with ``--no-config``, no
    files): nothing has run yet, and the click command says it (``Usage: ...``, ``Error:
    ...``, exit status 2)."""


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


def need_standard_streams(paths: tuple[str, ...], args: Flags) -> None:
    """A standard stream the run needs that was closed when dnlint started (``- <&-``,
    ``>&-``: Python then has None for it): one line on standard error, if that is open, and
    exit 2, before anything is read."""
    reads_stdin = "-" in paths or (args.stdin_filename and not paths)
    if reads_stdin and sys.stdin is None:
        fail("cannot read standard input: it is closed", EXIT_USAGE)
    if sys.stdout is None and (args.explain or args.list_rules or not args.output_file):
        fail("cannot write to standard output: it is closed", EXIT_USAGE)


def checked_paths(paths: tuple[str, ...], args: Flags) -> tuple[str, ...]:
    """The paths a run (or ``--show-settings``, ``--watch``) goes over: ``-`` for
    ``--stdin-filename`` alone; none at all, or ``--graph -``, is a usage error."""
    if args.stdin_filename and not paths:
        paths = ("-",)
    if not paths and not args.weights:
        raise UsageProblem("no files given (try: dnlint model.cfg)")
    if args.graph_file == "-":
        raise UsageProblem("--graph needs a file name (the report goes to standard output)")
    return paths


def files_read(paths: tuple[str, ...], args: Flags) -> list[str]:
    """What a run with these flags reads: every cfg and weights file its plan names (the same
    walk, excludes and pairing) and the other files given by name."""
    named = [p for p in (*paths, *args.weights, args.cfg, args.data, args.config_file)
             if p and p != "-" and not os.path.isdir(p)]
    # a broken configuration (at the start, or an editor's half-written save): the run says
    # so, and the watch goes on with what was named
    try:
        for job in new_run(paths, args, track_inputs=False).plan():
            named += [path for path in (job.item.path, *job.weights) if path != "-"]
    except (SystemExit, ConfigError):
        pass
    return named


def new_run(paths: tuple[str, ...], args: Flags, track_inputs: bool) -> Run:
    """The run these flags describe, built by the API (dnlint.api.new_run) as a script's is;
    a bad value is a usage error, a broken configuration exit status 2."""
    from dnlint.api import new_run as api_new_run

    if args.config_file and args.no_config:
        raise UsageProblem("--config and --no-config exclude each other")
    config = args.config_file or (False if args.no_config else None)
    try:
        return api_new_run(
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
        raise UsageProblem(str(exc)) from None


# the formats that show no finding's fix, nor how many are fixable (text, concise and JSON do)
NO_FIXES_SHOWN = frozenset({"sarif", "github", "junit"})


def run_once(paths: tuple[str, ...], args: Flags) -> int:
    """One run of the command: the exit status."""
    fix_mode = _fix_mode(args)
    outputs = [(path, what) for path, what in ((args.output_file, "the output"),
                                               (args.graph_file, "the graph")) if path]
    run = new_run(paths, args, track_inputs=bool(outputs))
    if fix_mode is None and not args.statistics and args.output_format in NO_FIXES_SHOWN:
        run.options = run.options._replace(fixes=False)  # nothing would show them
    check_outputs(outputs, run.inputs_read or set())
    use_color = (args.output_format in ("text", "concise") and not args.no_color
                 and not args.output_file and _use_color(args.color, sys.stdout))
    fail_on = Severity(args.fail_on) if args.fail_on else (
        Severity.WARNING if args.strict else Severity.ERROR)
    settings = ReportSettings(args.output_format, use_color, args.quiet, args.verbose,
                               args.show_layers, args.statistics, fail_on, args.exit_zero,
                               fix_mode, args.fix_only and not args.diff)
    return run_and_report(run, settings, args.output_file, args.graph_file)


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def _comma_list(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item.strip() for value in values for item in value.split(",") if item.strip())


def _fix_mode(args: Flags) -> str | None:
    if args.add_suppressions:
        if args.diff or args.fix or args.fix_only:
            raise UsageProblem("--add-suppressions cannot be combined with --fix, "
                               "--fix-only or --diff")
        return "suppress"
    return "diff" if args.diff else "fix" if args.fix or args.fix_only else None
