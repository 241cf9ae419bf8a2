"""dnlint's Python API: lint a cfg from a notebook, a training script or another tool, with
the same pipeline, configuration search and rule selection as the ``dnlint`` command (which
builds its runs with :func:`new_run`).

>>> import dnlint
>>> result = dnlint.lint_text("[net]\\nwidth=32\\nheight=32\\nchannels=3\\n\\n"
...                           "[convolutional]\\nfilters=16\\nfilter=3\\nsize=3\\n")
>>> [(f.code, f.line, f.column, f.end_column) for f in result.findings]
[('DN201', 8, 1, 7)]
>>> result.layers[0].output
(30, 30, 16)

Bad arguments (an unknown dialect, rule or target, a path holding a NUL) raise
:class:`ValueError`; an argument of the wrong type (a :class:`~pathlib.Path` as
``lint_text``'s text, a number as a path) raises :class:`TypeError`, before anything is read;
a configuration file that cannot be used raises :class:`dnlint.settings.config.ConfigError`.
A path that cannot be read is a finding of that path (DN029), as on the command line, never an
exception.

The API leaves the process as it found it: the cycle collector, which a run pauses while it
lints, is the caller's own again whenever control is back with the caller (between two results
of :func:`lint_paths` too, and when its iterator is closed or dropped unfinished).
"""

from __future__ import annotations

import os

# collections.abc's Iterable, from the module the interpreter has already imported (the command
# imports this module; collections.abc imports the collections package: start-up, issue 35)
from _collections_abc import Iterable

from dnlint.collector import cycle_gc_paused
from dnlint.dialects import parse_dialect
from dnlint.run.engine import Run
from dnlint.run.options import ExcludeOptions, RunOptions
from dnlint.settings.config import ConfigError, ConfigFinder
from dnlint.settings.policy import Policy

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the command imports this module on every run
    from collections.abc import Iterator
    from typing import Any, TypeAlias

    from dnlint.api_types import LintResult
    from dnlint.diagnostics import Severity
    from dnlint.result import FileResult

    PathLike: TypeAlias = str | os.PathLike[str]
    # config=: None searches from each file's directory up, as the command does; False: none
    ConfigChoice: TypeAlias = PathLike | bool | None

__all__ = ["lint_path", "lint_paths", "lint_text", "new_run"]


def lint_text(text: str | bytes, path: PathLike | None = None, *, dialect: str | None = None,
              weights: Iterable[PathLike] = (), data: PathLike | None = None,
              target: Iterable[str] = (), config: ConfigChoice = None,
              select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> LintResult:
    """Lint the cfg ``text`` (its bytes, or a str written as UTF-8, a lone surrogate as the
    byte it escapes: ``errors="surrogateescape"``) as if it were the file ``path``: that
    path's configuration, per-file ignores and dialect apply, and findings carry it
    (``<stdin>`` without one). ``dialect``: ``"pjreddie"``, ``"alexeyab"``,
    ``"hank"`` or ``None`` to detect it; ``weights``: weights files checked against it;
    ``data``: an ``obj.data`` file checked against its heads; ``target``: deployment targets
    (``"opencv"``); ``select``/``ignore``: rule codes, prefixes or names. With ``data``, the
    result is the cfg's, with the ``.data`` file's own findings after the cfg's."""
    raw = _text_bytes(text)
    name = None if path is None else _path(path, "lint_text: path")
    run = new_run(("-",), dialect=dialect, weights=weights, data=data, target=target,
                  config=config, select=select, ignore=ignore, stdin_filename=name, text=raw)
    return _one(run.results(), "the text", data is not None)


def lint_path(path: PathLike, *, dialect: str | None = None, weights: Iterable[PathLike] = (),
              data: PathLike | None = None, target: Iterable[str] = (),
              config: ConfigChoice = None, select: Iterable[str] | None = None,
              ignore: Iterable[str] = ()) -> LintResult:
    """Lint the cfg at ``path`` (arguments as :func:`lint_text`); for a directory, or several
    paths, use :func:`lint_paths`."""
    name = _path(path, "lint_path: path")
    if os.path.isdir(name):
        raise ValueError(f"{name} is a directory: use dnlint.lint_paths for a directory")
    run = new_run((name,), dialect=dialect, weights=weights, data=data, target=target,
                  config=config, select=select, ignore=ignore)
    return _one(run.results(), name, data is not None)


def lint_paths(paths: Iterable[PathLike], *, dialect: str | None = None,
               data: PathLike | None = None, target: Iterable[str] = (),
               config: ConfigChoice = None, select: Iterable[str] | None = None,
               ignore: Iterable[str] = (), weights_beside: bool = False) -> Iterator[LintResult]:
    """Lint cfg files, weights files and directories as ``dnlint PATHS`` does (the same walk,
    excludes and pairing of weights files with cfgs), one result per cfg as each is done
    (with ``data``, the ``.data`` file's first). ``paths``: one path (a ``str`` or
    ``os.PathLike``) or several. ``weights_beside``: also check each cfg named against the
    weights files named after it."""
    run = new_run(_paths(paths, "lint_paths: paths"), dialect=dialect, data=data,
                  target=target, config=config, select=select, ignore=ignore,
                  weights_beside=weights_beside)
    return _grouped(run.results())


def _grouped(results: Iterator[FileResult]) -> Iterator[LintResult]:
    """``results`` as API results: a cfg with the further weights files checked against it.
    The run pauses the cycle collector while it lints; here it is paused only while the next
    result is made and is the caller's again at every ``yield`` (a caller that keeps the
    iterator unfinished keeps its own collector)."""
    from dnlint.api_types import LintResult

    pending: FileResult | None = None
    extra: list[FileResult] = []
    try:
        while True:
            with cycle_gc_paused():  # the run's own pause finds it paused: it leaves it to us
                result = next(results, None)
            if result is None:
                break
            if pending is not None and not result.given and result.path != pending.path \
                    and result.network is pending.network:  # a further weights file of the cfg
                extra.append(result)
                continue
            if pending is not None:
                yield LintResult.of(pending, extra)
            pending, extra = result, []
        if pending is not None:
            yield LintResult.of(pending, extra)
    finally:
        close = getattr(results, "close", None)  # a generator's: its own clean-up runs now
        if close is not None:
            with cycle_gc_paused():
                close()


def _one(results: Iterator[FileResult], what: str, data: bool) -> LintResult:
    """The one cfg's result, with the others of its run attached (the weights files checked
    against it; with ``data``, the .data file's, which the run yields first)."""
    from dnlint.api_types import LintResult

    found = list(results)
    if data and len(found) > 1:
        found = [*found[1:2], found[0], *found[2:]]
    if not found:
        raise ValueError(f"{what}: nothing to lint")
    return LintResult.of(found[0], found[1:])


def _text_bytes(text: object) -> bytes:
    """``lint_text``'s text as the bytes linted (a str as UTF-8)."""
    if isinstance(text, str):
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no UTF-8 holds it
            return _with_surrogates(text)
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    # bytes(7) is seven NULs, and a Path is no cfg text: neither is linted
    hint = "; to lint a file, use dnlint.lint_path" if isinstance(text, os.PathLike) else ""
    raise TypeError(f"lint_text: text must be the cfg's content as str or bytes, not "
                    f"{type(text).__name__}{hint}")


def _path(value: Any, what: str) -> str:
    """``value`` as a path: a ``str`` or an ``os.PathLike`` of one, else TypeError."""
    name = os.fspath(value) if isinstance(value, (str, os.PathLike)) else None
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a path (str or os.PathLike), not "
                        f"{type(value).__name__}")
    if "\0" in name:  # no system's file name holds one: os.stat would raise deep in the run
        raise ValueError(f"{what} {name!r} holds a NUL character, which no path can")
    return name


def _with_surrogates(text: str) -> bytes:
    """``text`` with lone surrogates as bytes: a str read with ``errors="surrogateescape"``
    (or ``os.fsdecode``) gives back the bytes it was read from; any other surrogate is the
    invalid sequence dnlint-lsp lints for an editor's text (surrogatepass)."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _paths(values: Any, what: str) -> tuple[str, ...]:
    """One path or an iterable of paths (a ``str`` is one path, never its characters)."""
    if isinstance(values, (str, os.PathLike)):
        return (_path(values, what),)
    if isinstance(values, (bytes, bytearray)) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a path or an iterable of paths, not "
                        f"{type(values).__name__}")
    return tuple(_path(value, f"{what} item") for value in values)


def _names(values: Any, what: str) -> tuple[str, ...]:
    """One name (a ``str``) or an iterable of names: rule selectors, targets."""
    if isinstance(values, str):
        return (values,)
    if isinstance(values, (bytes, bytearray)) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a str or an iterable of str, not "
                        f"{type(values).__name__}")
    found = tuple(values)
    for value in found:
        if not isinstance(value, str):
            raise TypeError(f"{what} must hold str items, not {type(value).__name__}")
    return found


def new_run(paths: tuple[str, ...], *, dialect: str | None = None,
            weights: Iterable[PathLike] = (), cfg: str | None = None, scan: bool = False,
            data: PathLike | None = None, target: Iterable[str] = (),
            config: ConfigChoice = None, select: Iterable[str] | None = None,
            extend_select: Iterable[str] = (), ignore: Iterable[str] = (),
            per_file_ignores: Iterable[str] = (), severity_override: Iterable[str] = (),
            directives: bool = True, exclude: Iterable[str] | None = None,
            extend_exclude: Iterable[str] = (), respect_gitignore: bool | None = None,
            force_exclude: bool = False, weights_beside: bool = False,
            weights_only: bool = False, stdin_filename: str | None = None,
            text: bytes | None = None, fix: str | None = None, unsafe_fixes: bool = False,
            verbose: bool = False, data_root: str | None = None, check_images: bool = False,
            gpu_memory: str | int | None = None, track_inputs: bool = False,
            check_labels: bool = False) -> Run:
    """The run these settings describe, as the ``dnlint`` command builds it from its flags
    (each argument is the flag of the same name; ``per_file_ignores`` are ``GLOB:RULES``,
    ``severity_override`` ``CODE=LEVEL``). Iterate its ``results()`` once. An argument of
    the wrong type raises TypeError (a single ``str`` where a list is expected is one item)."""
    paths = _paths(paths, "paths")
    named = _paths(weights, "weights")
    data = None if data is None else _path(data, "data")
    if dialect is not None and not isinstance(dialect, str):
        raise TypeError(f"dialect must be a str or None, not {type(dialect).__name__}")
    if not (config is None or isinstance(config, (bool, str, os.PathLike))):
        raise TypeError(f"config must be a path, True, False or None, not "
                        f"{type(config).__name__}")
    if not isinstance(config, bool) and config is not None:
        _path(config, "config")
    select = None if select is None else _names(select, "select")
    excludes = ExcludeOptions(None if exclude is None else tuple(exclude),
                              tuple(extend_exclude), respect_gitignore,
                              True if force_exclude else None)
    options = RunOptions(parse_dialect(dialect or "auto"), named, cfg, scan, data, verbose,
                         _targets(_names(target, "target")), excludes, weights_beside,
                         stdin_filename,
                         fix=fix, unsafe_fixes=unsafe_fixes, weights_only=weights_only,
                         text=text, data_root=data_root, check_images=check_images,
                         gpu_memory=_gpu_memory(gpu_memory), check_labels=check_labels)
    policy = Policy(_selectors(select, "select"),
                    _selectors(_names(extend_select, "extend_select"), "extend-select") or (),
                    _selectors(_names(ignore, "ignore"), "ignore") or (),
                    _overrides(_names(severity_override, "severity_override")),
                    directives, _per_file_ignores(_names(per_file_ignores,
                                                         "per_file_ignores")))
    return Run(paths, options, _finder(config), policy, dialect_given=dialect is not None,
               track_inputs=track_inputs)


def _selectors(values: Iterable[str] | None, key: str) -> tuple[str, ...] | None:
    """``["DN1,DN203", "DN4"]`` -> ("DN1", "DN203", "DN4"), each matching some rule."""
    if values is None:
        return None
    listed = [values] if isinstance(values, str) else list(values)
    if not listed:
        return None
    from dnlint.settings.config import selectors

    try:
        return selectors(",".join(listed), "command line", f"--{key}")
    except ConfigError as exc:
        raise ValueError(str(exc).removeprefix("command line: ")) from None


def _gpu_memory(size: str | int | None) -> int | str | None:
    """``--gpu-memory``: bytes, a size such as ``8G``, ``11GiB``, ``6144M``, or ``auto``
    (this machine's card, by nvidia-smi: dnlint.settings.gpu)."""
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, (int, str)):
        raise TypeError(f"gpu_memory must be a size (bytes as int, or str), not "
                        f"{type(size).__name__}")
    if isinstance(size, int):
        if size <= 0:
            raise ValueError(f"--gpu-memory: {size} is not a size (bytes, more than 0)")
        return size
    if size.strip().lower() == "auto":
        return "auto"
    from dnlint.checks.memory import parse_size

    parsed = parse_size(size)
    if parsed is None:
        raise ValueError(f"--gpu-memory: {size!r} is not a size (try 8G, 11GiB, 6144M, or "
                         "auto)")
    return parsed


def _targets(values: tuple[str, ...]) -> tuple[str, ...]:
    if not values:
        return ()
    from dnlint.targets import parse_targets

    return parse_targets(list(values), "--target")


def _overrides(values: tuple[str, ...]) -> tuple[tuple[str, Severity], ...]:
    if not values:
        return ()
    from dnlint.settings.config import severity_overrides

    table: dict[str, str] = {}
    for value in values:
        code, sep, level = value.partition("=")
        if not sep:
            raise ValueError(f"--severity-override wants CODE=LEVEL, not {value!r}")
        table[code.strip()] = level.strip()
    try:
        return severity_overrides(table, "--severity-override")
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


def _per_file_ignores(values: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``'legacy/*.cfg:DN2,DN301'`` (the glob may hold colons itself: the last one
    separates)."""
    table = []
    for value in values:
        pattern, sep, rules = value.rpartition(":")
        if not sep or not pattern.strip():
            raise ValueError(f"--per-file-ignores wants GLOB:RULES, not {value!r}")
        table.append((pattern.strip(), _selectors((rules,), "per-file-ignores") or ()))
    return tuple(table)


def _finder(config: ConfigChoice) -> ConfigFinder:
    """None: search from each file's directory up; False: no configuration; a path: that
    file (a ConfigError when it cannot be used)."""
    if config is None or config is True:
        return ConfigFinder()
    if config is False:
        return ConfigFinder(disabled=True)
    from dnlint.settings.config import open_explicit_config

    return ConfigFinder(explicit=open_explicit_config(os.fspath(config)))
