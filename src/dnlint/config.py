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
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from dnlint.diagnostics import Severity

if TYPE_CHECKING:  # pathlib is imported only once a configuration file is found (start-up)
    from pathlib import Path

CONFIG_NAMES = (".dnlint.toml", "pyproject.toml")
_KEYS = ("dialect", "select", "extend-select", "ignore", "per-file-ignores", "severity-override",
         "target")


class ConfigError(Exception):
    """A configuration file that cannot be used: reported on one line, exit status 2."""


class Config(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    path: Path | None = None
    dialect: str | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity_override: tuple[tuple[str, Severity], ...] = ()
    target: tuple[str, ...] = ()

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


@dataclass
class ConfigFinder:
    """Finds (and caches, per directory) the configuration for each file."""

    explicit: Config | None = None
    disabled: bool = False
    _cache: dict[str, Config | None] = field(default_factory=dict)  # by absolute directory
    # by the directory as the path spells it: a run asks twice per file, mostly for the same
    # few directories, and building Paths cost 30 µs a file (the working directory is fixed)
    _by_dirname: dict[str, Config | None] = field(default_factory=dict)

    def for_path(self, file_path: str) -> Config | None:
        if self.disabled:
            return None
        if self.explicit is not None:
            return self.explicit
        dirname = "" if file_path in ("-", "<stdin>") else os.path.dirname(file_path)
        if dirname not in self._by_dirname:
            self._by_dirname[dirname] = self._find(os.path.abspath(dirname or "."))
        return self._by_dirname[dirname]

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
            found = _config_in(directory)
            parent = os.path.dirname(directory)
            if found is not None or parent == directory:
                break
            directory = parent
        for seen in passed:
            self._cache[seen] = found
        return found


def _config_in(directory: str) -> Config | None:
    from_dotfile = os.path.join(directory, ".dnlint.toml")
    if _is_file(from_dotfile):
        from pathlib import Path

        return load_config(Path(from_dotfile))
    pyproject = os.path.join(directory, "pyproject.toml")
    if _is_file(pyproject) and _mentions_dnlint(pyproject):
        from pathlib import Path

        table = _read_toml(Path(pyproject)).get("tool", {}).get("dnlint")
        if isinstance(table, dict):
            return parse_config(table, Path(pyproject))
    return None


# the stat errors pathlib's is_file answers False to; any other (EACCES) it raises
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


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


def _mentions_dnlint(path: str) -> bool:
    """A cheap look before importing the TOML parser: most pyprojects are not ours."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return "dnlint" in handle.read()
    except OSError:
        return False


def load_config(path: Path) -> Config:
    """Load a file named with ``--config``: a ``.dnlint.toml`` or a ``pyproject.toml``."""
    data = _read_toml(path)
    if path.name == "pyproject.toml" or "tool" in data:
        table = data.get("tool", {}).get("dnlint")
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: no [tool.dnlint] table")
        return parse_config(table, path)
    return parse_config(data, path)


def _read_toml(path: Path) -> dict[str, Any]:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        with path.open("rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
            return data
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: invalid TOML: the file is not UTF-8") from None


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
        ignore=selectors(table.get("ignore", []), where, "ignore"),
        per_file_ignores=_per_file(table.get("per-file-ignores", {}), where),
        severity_override=severity_overrides(table.get("severity-override", {}), where),
        target=_targets(table.get("target", []), where),
    )


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
    from dnlint.directives import is_known, normalize

    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key} must be a list of rule codes")
    found = tuple(normalize(v) for v in value)
    for selector in found:
        if not is_known(selector):
            raise ConfigError(f"{where}: {key}: '{selector}' matches no rule "
                              "(see dnlint --list-rules)")
    return found


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
