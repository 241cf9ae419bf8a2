"""The console script's command line, read without click when it is a plain one.

Importing click is a third of a one-file run's start-up, and a plain run (paths, and flags
such as ``--format json``, ``--select DN2`` or ``--layers``) needs none of it. :func:`parse`
reads exactly the command lines click would read to the same :class:`~dnlint.command.Flags`
(``tests/test_argv.py`` checks :data:`OPTIONS` against the click command and each result
against click's own parse), and returns ``None`` for everything else: ``--help``,
``--explain``, ``--list-rules``, ``--show-settings``, ``--watch``, ``--version`` with anything
else, a short flag cluster (``-vq``), a value click would refuse, an unknown option. Those, and
any usage error found once the flags are read (nothing has run then), go to the click command
(:mod:`dnlint.cli`), which reads the command line again and says it as it always did.
"""

from __future__ import annotations

import os
import stat
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing for --version
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

    from dnlint.command import Flags

__all__ = ["FORMAT_VARIABLE", "OPTIONS", "choices", "load", "parse"]

# option -> (Flags field, kind); kinds: "flag" (True), "unflag" (False), "value", "multiple"
OPTIONS: dict[str, tuple[str, str]] = {
    "--dialect": ("dialect", "value"),
    "--output-format": ("output_format", "value"),
    "--format": ("output_format", "value"),
    "-o": ("output_file", "value"),
    "--output": ("output_file", "value"),
    "--select": ("select", "multiple"),
    "--extend-select": ("extend_select", "multiple"),
    "--ignore": ("ignore", "multiple"),
    "--extend-ignore": ("extend_ignore", "multiple"),
    "--per-file-ignores": ("per_file_ignores", "multiple"),
    "--severity-override": ("severity_override", "multiple"),
    "--config": ("config_file", "value"),
    "--no-config": ("no_config", "flag"),
    "--disable-directives": ("disable_directives", "flag"),
    "--exclude": ("exclude", "multiple"),
    "--extend-exclude": ("extend_exclude", "multiple"),
    "--force-exclude": ("force_exclude", "flag"),
    "--respect-gitignore": ("respect_gitignore", "flag"),
    "--no-respect-gitignore": ("respect_gitignore", "unflag"),
    "--stdin-filename": ("stdin_filename", "value"),
    "--color": ("color", "value"),
    "--no-color": ("no_color", "flag"),
    "--fail-on": ("fail_on", "value"),
    "--strict": ("strict", "flag"),
    "--exit-zero": ("exit_zero", "flag"),
    "--layers": ("show_layers", "flag"),
    "--graph": ("graph_file", "value"),
    "--weights": ("weights", "multiple"),
    "--cfg": ("cfg", "value"),
    "--weights-beside": ("weights_beside", "flag"),
    "--weights-only": ("weights_only", "flag"),
    "--scan": ("scan", "flag"),
    "--data": ("data", "value"),
    "--data-root": ("data_root", "value"),
    "--check-images": ("check_images", "flag"),
    "--check-labels": ("check_labels", "flag"),
    "--target": ("target", "multiple"),
    "--gpu-memory": ("gpu_memory", "value"),
    "--statistics": ("statistics", "flag"),
    "--fix": ("fix", "flag"),
    "--unsafe-fixes": ("unsafe_fixes", "flag"),
    "--fix-only": ("fix_only", "flag"),
    "--diff": ("diff", "flag"),
    "--add-suppressions": ("add_suppressions", "flag"),
    "-v": ("verbose", "flag"),
    "--verbose": ("verbose", "flag"),
    "-q": ("quiet", "flag"),
    "--quiet": ("quiet", "flag"),
}
# the only option click also reads from the environment (when not empty)
FORMAT_VARIABLE = "DNLINT_OUTPUT_FORMAT"


def choices() -> dict[str, tuple[str, ...]]:
    """The values click accepts for a choice (``--dialect`` only as spelt: click also folds
    its case, and hands over the choice as listed)."""
    from dnlint.dialects import ALIASES
    from dnlint.reporters import FORMATS

    return {"dialect": tuple(sorted(ALIASES)), "output_format": tuple(FORMATS),
            "color": ("auto", "always", "never"), "fail_on": ("error", "warning", "info")}


def _defaults() -> dict[str, object]:
    """Every field of :class:`Flags` as click fills it when the option is not given."""
    values: dict[str, object] = {}
    for field, kind in OPTIONS.values():
        values[field] = () if kind == "multiple" else False if kind == "flag" else None
    values.update(respect_gitignore=None, color="auto", output_format="text", explain=None,
                  list_rules=False, show_settings=False, watch=False)
    return values


def parse(argv: list[str]) -> tuple[tuple[str, ...], Flags] | None:
    """The paths and flags of ``argv`` as click reads them, or ``None`` when click must read
    it (an option outside :data:`OPTIONS`, a value it would refuse, ``--help``)."""
    values = _defaults()
    multiple: dict[str, list[str]] = {}
    variable = os.environ.get(FORMAT_VARIABLE)
    if variable:  # click reads a non-empty variable as the option's default
        values["output_format"] = variable
    paths: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            paths += args
            break
        if arg[:1] != "-" or arg == "-":
            paths.append(arg)
            continue
        # click splits "--name=value"; a short option's attached value ("-oFILE", "-o=F")
        # is not in the table, so click reads it
        name, equals, attached = arg.partition("=") if arg[:2] == "--" else (arg, "", "")
        known = OPTIONS.get(name)
        if known is None:
            return None
        field, kind = known
        if kind in ("flag", "unflag"):
            if equals:
                return None
            values[field] = kind == "flag"
            continue
        value = attached if equals else next(args, None)
        if value is None:
            return None
        if kind == "multiple":
            multiple.setdefault(field, []).append(value)
        else:
            values[field] = value
    values.update((field, tuple(given)) for field, given in multiple.items())
    if not _acceptable(values):
        return None
    from dnlint.command import Flags

    return tuple(paths), Flags(**values)  # type: ignore[arg-type]


def _acceptable(values: dict[str, object]) -> bool:
    """Whether click would take every value as it is (choices, ``-o`` not a directory)."""
    for field, allowed in choices().items():
        value = values[field]
        if value is not None and value not in allowed:
            return False
    output = values["output_file"]
    return not isinstance(output, str) or _output_path_ok(output)


def _output_path_ok(path: str) -> bool:
    """What ``click.Path(dir_okay=False)`` takes without a word: a path that does not exist,
    or an existing readable one that is not a directory."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    except ValueError:  # a NUL in the name: click's own stat fails as it always did
        return False
    return not stat.S_ISDIR(mode) and os.access(path, os.R_OK)


def _plain_process() -> bool:
    """Whether click's ``main`` would do nothing but parse: both standard output streams
    open, no shell-completion request (``_DNLINT_COMPLETE``, or the name it derives from the
    program's), no Windows argument expansion."""
    if sys.stdout is None or sys.stderr is None or os.name == "nt":
        return False
    return not any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ)


def load(argv: list[str]) -> Callable[[], NoReturn]:
    """The command for ``argv`` with its imports done (the console script runs them with the
    cycle collector paused): print the version, run the fast path, or the click command.
    Each ends the process with ``SystemExit``, as click's standalone mode does."""
    if argv == ["--version"] and _plain_process():
        return _version
    parsed = parse(argv) if _plain_process() else None
    if parsed is None:
        return _clicked(argv)
    from dnlint.command import checked_paths, need_standard_streams, run_once

    paths, flags = parsed

    def command() -> NoReturn:
        from dnlint.command import UsageProblem

        try:
            need_standard_streams(paths, flags)
            status = run_once(checked_paths(paths, flags), flags)
        except UsageProblem:
            _clicked(argv)()  # nothing has run yet: click reads argv again and says it
        except (EOFError, KeyboardInterrupt):
            _aborted()
        except OSError as exc:
            _write_failed(exc)
        sys.exit(status)

    return command


def main(argv: list[str] | None = None) -> NoReturn:
    """The command for ``argv`` (default: the process's arguments); ends with SystemExit."""
    load(sys.argv[1:] if argv is None else argv)()


def _version() -> NoReturn:
    from dnlint.about import version_line

    try:
        sys.stdout.write(version_line() + "\n")
        sys.stdout.flush()
    except OSError as exc:
        _write_failed(exc)
    sys.exit(0)


def _clicked(argv: list[str]) -> Callable[[], NoReturn]:
    from dnlint.cli import main as command

    def clicked() -> NoReturn:
        command.main(argv)
        sys.exit(0)  # click's standalone mode always exits; for the type checker

    return clicked


def _aborted() -> NoReturn:
    """As click's standalone mode ends on Ctrl-C or an end of input: a blank line (closing
    the terminal's ``^C``), its ``Aborted!`` on standard error, exit status 1."""
    from gettext import gettext

    import click

    click.echo(file=sys.stderr)
    click.echo(gettext("Aborted!"), file=sys.stderr)
    sys.exit(1)


def _write_failed(exc: OSError) -> NoReturn:
    """What click's command does with a write that failed outside a run's own handling: a
    closed pipe exits 1 with nothing more written, anything else is one line and exit 2."""
    import errno

    from dnlint.console import cannot_write

    if exc.errno != errno.EPIPE:
        cannot_write(exc)
    for stream in (sys.stdout, sys.stderr):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
    sys.exit(1)
