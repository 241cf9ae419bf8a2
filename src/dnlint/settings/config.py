"""Configuration: ``[tool.dnlint]`` in ``pyproject.toml``, or a ``.dnlint.toml`` file.

Found by walking up from each linted file's directory; the closest file wins, with no merging
(ruff's rule). In one directory ``.dnlint.toml`` beats ``pyproject.toml``, and a
``pyproject.toml`` without a ``[tool.dnlint]`` table is passed over. The TOML parser is only
imported when a candidate file exists, so a run without configuration stays fast.

Keys (kebab-case, as in ruff)::

    dialect = "alexeyab"                 # pjreddie | alexeyab | hank | auto
    select = ["DN"]                      # codes or prefixes; "ALL" is every rule
    extend-select = []
    ignore = ["DN103"]
    per-file-ignores = { "legacy/*.cfg" = ["DN2"] }
    severity-override = { DN103 = "error" }
    target = ["opencv"]                  # deployment targets also checked (like --target)
    gpu-memory = "8G"                    # the training card's memory (like --gpu-memory; "auto")
    extend-ignore = []                   # added to ignore
    exclude = [".venv", "build"]         # replaces the default excludes of directory walks
    extend-exclude = ["legacy/*.cfg"]    # added to them
    respect-gitignore = true             # walks skip what .gitignore and .ignore files ignore
    force-exclude = false                # explicit paths (pre-commit's) obey the excludes too
    data-root = "."                      # where darknet runs: .data paths resolve from here
    recipe = false                       # the training recipe rules (DN7xx), off by default

Excludes apply to the configuration found for the working directory (or ``--config``).
"""

from __future__ import annotations

import errno
import os
import stat

from dnlint.clean import escaped
from dnlint.diagnostics import Severity
from dnlint.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:  # pathlib is imported only once a configuration file is found (start-up)
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

CONFIG_NAMES = (".dnlint.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 1024 * 1024  # a real one is a few hundred bytes; TOML parses to ~2x its size
_KEYS = ("dialect", "select", "extend-select", "ignore", "extend-ignore", "per-file-ignores",
         "severity-override", "target", "exclude", "extend-exclude", "respect-gitignore",
         "force-exclude", "data-root", "recipe", "gpu-memory")


class ConfigError(Exception):
    """A configuration file that cannot be used: reported on one line, exit status 2.

    The message quotes file names, keys and codes as written, so it is cleaned here: an ESC
    in a key name must not drive the terminal, a newline must not forge a second line.
    """

    def __init__(self, message: str) -> None:
        super().__init__(escaped(message))


CWD_CONFIGURATION = "the working directory's configuration"


def unreadable_config(exc: OSError, looking_for: str = "") -> ConfigError:
    """The one-line error of a configuration file the search could not read (a link loop, no
    permission): the same words wherever the search ran."""
    return ConfigError(f"{exc.filename or os.curdir}: cannot read: {exc.strerror or exc}"
                       + (f" (looking for {looking_for})" if looking_for else ""))


class Config(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    path: Path | None = None
    dialect: str | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity_override: tuple[tuple[str, Severity], ...] = ()
    target: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None
    force_exclude: bool | None = None
    data_root: str | None = None  # relative to the configuration file's folder
    recipe: bool | None = None
    gpu_memory: int | str | None = None  # bytes, or "auto" (nvidia-smi: dnlint.settings.gpu)

    @property
    def root(self) -> Path:
        from pathlib import Path

        return self.path.parent if self.path else Path.cwd()

    def ignores_for(self, file_path: str) -> tuple[str, ...]:
        """The per-file-ignores selectors whose pattern matches ``file_path``."""
        if not self.per_file_ignores:
            return ()
        from fnmatch import fnmatchcase
        from pathlib import Path

        absolute = Path(os.path.abspath(file_path))
        try:
            relative = absolute.relative_to(self.root).as_posix()
        except ValueError:
            relative = absolute.as_posix()
        found: list[str] = []
        for pattern, selectors in self.per_file_ignores:
            if fnmatchcase(relative, pattern) or fnmatchcase(absolute.name, pattern):
                found += selectors
        return tuple(found)


class ConfigFinder:
    """Finds (and caches, per directory) the configuration for each file. A plain class, not
    a dataclass: every run builds one, and a dataclass costs about 1 ms of start-up."""

    def __init__(self, explicit: Config | None = None, disabled: bool = False) -> None:
        self.explicit = explicit
        self.disabled = disabled
        self.on_read: Callable[[str], None] | None = None  # told each file the search reads
        self._cache: dict[str, Config | None] = {}  # by absolute directory
        # by the directory as the path spells it: a run asks twice per file, mostly for the
        # same few directories, and building Paths cost 30 µs a file (the cwd is fixed)
        self._by_dirname: dict[str, Config | None] = {}

    def for_path(self, file_path: str) -> Config | None:
        if self.disabled:
            return None
        if self.explicit is not None:
            return self.explicit
        dirname = "" if file_path in ("-", "<stdin>") else os.path.dirname(file_path)
        if dirname not in self._by_dirname:
            self._by_dirname[dirname] = self._find(os.path.abspath(dirname or "."))
        return self._by_dirname[dirname]

    def used(self) -> list[Path]:
        """The configuration files found so far (``-v`` names them), in the order found."""
        if self.explicit is not None:
            return [self.explicit.path] if self.explicit.path is not None else []
        found = dict.fromkeys(config.path for config in self._cache.values()
                              if config is not None and config.path is not None)
        return list(found)

    def _find(self, directory: str) -> Config | None:
        """Walk up iteratively (a tree a thousand levels deep must not exhaust the stack),
        caching the answer for every directory passed."""
        passed: list[str] = []
        found: Config | None = None
        while True:
            if directory in self._cache:
                found = self._cache[directory]
                break
            passed.append(directory)
            found = _config_in(directory, self.on_read)
            parent = os.path.dirname(directory)
            if found is not None or parent == directory:
                break
            directory = parent
        for seen in passed:
            self._cache[seen] = found
        return found


def _config_in(directory: str, on_read: Callable[[str], None] | None = None) -> Config | None:
    """The configuration of ``directory`` itself; ``on_read`` is told each file opened (a
    pyproject.toml is read even when it turns out to have no [tool.dnlint])."""
    from_dotfile = os.path.join(directory, ".dnlint.toml")
    if _is_file(from_dotfile):
        from pathlib import Path

        if on_read is not None:
            on_read(from_dotfile)
        return load_config(Path(from_dotfile))
    pyproject = os.path.join(directory, "pyproject.toml")
    if not _is_file(pyproject):
        return None
    if on_read is not None:
        on_read(pyproject)
    try:
        data = read_config_bytes(pyproject)
    except _Unreadable:
        return None  # as before: a pyproject.toml that cannot be read is not ours
    if may_hold_our_table(data):  # a cheap look before importing the TOML parser
        from pathlib import Path

        table = _tool_table(_parse_toml(data, pyproject), Path(pyproject), required=False)
        if table is not None:
            return parse_config(table, Path(pyproject))
    return None


_BLANKS = b" \t"
_QUOTES = b"\"'"


def may_hold_our_table(data: bytes) -> bool:
    """Whether some ``dnlint`` in ``data`` may be the key of ``[tool.dnlint]``: after a dot
    (``[tool.dnlint]``, ``tool."dnlint".select``), after ``{`` or ``,`` (an inline table), or
    at a line start under ``[tool]``, and then followed by ``=`` or ``.`` (``dnlint = {...}``).
    A project that only depends on dnlint (``"dnlint>=0.1"`` in a list) or names its script
    is passed over without importing the TOML parser, a third of a run's start-up."""
    at = data.find(b"dnlint")
    while at >= 0:
        before = at - 1
        if before >= 0 and data[before] in _QUOTES:
            before -= 1
        while before >= 0 and data[before] in _BLANKS:
            before -= 1
        after = at + 6
        if after < len(data) and data[after] in _QUOTES:
            after += 1
        while after < len(data) and data[after] in _BLANKS:
            after += 1
        previous = data[before:before + 1] if before >= 0 else b"\n"  # the file's start too
        following = data[after:after + 1]
        if previous == b"." or (following in (b"=", b".") and (
                previous in (b"{", b",")
                or (previous in (b"\n", b"\r") and _under_tool(data, at)))):
            return True
        at = data.find(b"dnlint", at + 6)
    return False


def _under_tool(data: bytes, at: int) -> bool:
    """Whether the table header last before offset ``at`` is ``[tool]``."""
    start = data.rfind(b"\n[", 0, at) + 1  # 0 (the file's start) when there is none
    if data[start:start + 1] != b"[":
        return False
    end = data.find(b"]", start, at)
    return end >= 0 and data[start:end + 1].replace(b" ", b"").replace(b"\t", b"") == b"[tool]"


def _tool_table(data: dict[str, Any], path: Path, required: bool) -> dict[str, Any] | None:
    """``[tool.dnlint]`` of ``data``; None (or ConfigError if ``required``) when absent."""
    tool = data.get("tool")
    table = tool.get("dnlint") if isinstance(tool, dict) else None
    if isinstance(table, dict):
        return table
    if not required:
        return None
    if tool is not None and not isinstance(tool, dict):
        raise ConfigError(f"{path}: 'tool' must be a table ([tool.dnlint]), "
                          f"not {type(tool).__name__} {_short_repr(tool)}")
    raise ConfigError(f"{path}: no [tool.dnlint] table")


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# the stat errors that mean "no configuration file here"; any other (EACCES, ELOOP: a link
# loop named .dnlint.toml, ENAMETOOLONG: a directory deeper than PATH_MAX) is raised, and the
# run makes it a DN029 of the file whose configuration was looked for
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF)


def _is_file(path: str) -> bool:
    """``Path(path).is_file()`` without importing pathlib."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno not in _ABSENT:
            raise
        return False
    except ValueError:  # a name the OS cannot take (an embedded NUL)
        return False


class _Unreadable(ConfigError):
    """A configuration file that cannot be opened or read (OSError)."""


def read_config_bytes(path: str) -> bytes:
    """The bytes of a configuration file, refusing one over :data:`MAX_CONFIG_BYTES` without
    reading it whole: its size first (fstat), then at most the limit and one byte (a file that
    grows, or that stat cannot size, is caught too)."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            data = b"" if size > MAX_CONFIG_BYTES else handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise _Unreadable(f"{path}: cannot read: {exc.strerror or exc}") from None
    if size > MAX_CONFIG_BYTES or len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // (1024 * 1024)} MiB, the "
                          "limit of a configuration file")
    return data


def open_explicit_config(name: str) -> Config:
    """The file named with ``--config``: it must exist and be a regular file (a directory,
    FIFO or device is named for what it is; a FIFO is never opened, it could block)."""
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        if os.path.islink(name):
            raise ConfigError(f"{name}: no such configuration file (a dangling symbolic "
                              "link)") from None
        raise ConfigError(f"{name}: no such configuration file") from None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise ConfigError(f"{name}: is {_file_kind(mode)}, not a configuration file")
    from pathlib import Path

    return load_config(Path(name))


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def load_config(path: Path) -> Config:
    """Load a file named with ``--config``: a ``.dnlint.toml`` or a ``pyproject.toml``."""
    data = _read_toml(path)
    if path.name == "pyproject.toml" or "tool" in data:
        table = _tool_table(data, path, required=True)
        assert table is not None
        return parse_config(table, path)
    return parse_config(data, path)


def _read_toml(path: Path) -> dict[str, Any]:
    return _parse_toml(read_config_bytes(str(path)), str(path))


def _parse_toml(data: bytes, path: str) -> dict[str, Any]:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        table: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
        return table
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: invalid TOML: the file is not UTF-8") from None
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise ConfigError(f"{path}: invalid TOML: arrays or tables nested too deeply") from None


def parse_config(table: dict[str, Any], path: Path | None) -> Config:
    """Validate a ``[tool.dnlint]`` table strictly: unknown keys and codes are errors."""
    where = str(path) if path else "configuration"
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} "
                          f"(known: {', '.join(_KEYS)})")
    dialect = table.get("dialect")
    if dialect is not None:
        _check_dialect(dialect, where)
    select = table.get("select")
    return Config(
        path=path,
        dialect=dialect,
        select=None if select is None else selectors(select, where, "select"),
        extend_select=selectors(table.get("extend-select", []), where, "extend-select"),
        ignore=selectors(table.get("ignore", []), where, "ignore")
        + selectors(table.get("extend-ignore", []), where, "extend-ignore"),
        per_file_ignores=_per_file(table.get("per-file-ignores", {}), where),
        severity_override=severity_overrides(table.get("severity-override", {}), where),
        target=_targets(table.get("target", []), where),
        exclude=None if "exclude" not in table else _patterns(table["exclude"], where, "exclude"),
        extend_exclude=_patterns(table.get("extend-exclude", []), where, "extend-exclude"),
        respect_gitignore=_flag(table.get("respect-gitignore"), where, "respect-gitignore"),
        force_exclude=_flag(table.get("force-exclude"), where, "force-exclude"),
        data_root=_folder(table.get("data-root"), where, "data-root"),
        recipe=_flag(table.get("recipe"), where, "recipe"),
        gpu_memory=gpu_memory_size(table.get("gpu-memory"), where),
    )


def _folder(value: object, where: str, key: str) -> str | None:
    if value is not None and (not isinstance(value, str) or not value):
        raise ConfigError(f"{where}: {key} must be a folder name")
    return value


def _patterns(value: object, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: {key} must be a list of glob patterns")
    return tuple(value)


def _flag(value: object, where: str, key: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{where}: {key} must be true or false")
    return value


def gpu_memory_size(value: object, where: str) -> int | str | None:
    """A ``gpu-memory`` value ("8G", "11GiB", "6144M") in bytes, "auto", or None when not given."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    from dnlint.checks.memory import parse_size

    size = parse_size(value) if isinstance(value, str) else None
    if size is None:
        raise ConfigError(f"{where}: gpu-memory must be a size such as \"8G\", or \"auto\", "
                          f"not {value!r}")
    return size


def _targets(value: object, where: str) -> tuple[str, ...]:
    from dnlint.targets import parse_targets

    try:
        return parse_targets(value, where)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _check_dialect(value: object, where: str) -> None:
    from dnlint.dialects import ALIASES

    if not isinstance(value, str) or value.lower() not in ALIASES:
        raise ConfigError(f"{where}: dialect must be one of {', '.join(ALIASES)}, not {value!r}")


def selectors(value: object, where: str, key: str) -> tuple[str, ...]:
    """A list of codes/prefixes (or one comma-separated string), each matching some rule."""
    from dnlint.settings.directives import is_known

    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key} must be a list of rule codes")
    found = tuple(_code_of(v) for v in value)
    for selector in found:
        if not is_known(selector):
            raise ConfigError(f"{where}: {key}: '{selector}' matches no rule "
                              "(see dnlint --list-rules)")
    return found


def _code_of(selector: str) -> str:
    """A rule name stands for its code (``unknown-option`` -> ``DN201``); else a code/prefix."""
    from dnlint.rules import find_rule
    from dnlint.settings.selectors import normalize

    name = selector.strip()
    if name and not name.upper().startswith("DN") and name.upper() != "ALL":
        found = find_rule(name)
        if found is not None:
            return found.code
    return normalize(selector)


def _per_file(value: object, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: per-file-ignores must be a table of pattern = [codes]")
    return tuple((str(pattern), selectors(codes, where, f"per-file-ignores.{pattern}"))
                 for pattern, codes in value.items())


def severity_overrides(value: object, where: str) -> tuple[tuple[str, Severity], ...]:
    """``{CODE = "error"}``: codes or prefixes mapped to error, warning or info."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: severity-override must be a table of CODE = \"level\"")
    out: list[tuple[str, Severity]] = []
    for code, level in value.items():
        selector = selectors([code], where, "severity-override")[0]
        try:
            out.append((selector, Severity(str(level).lower())))
        except ValueError:
            raise ConfigError(f"{where}: severity-override.{code}: level must be error, "
                              f"warning or info, not {level!r}") from None
    return tuple(out)
