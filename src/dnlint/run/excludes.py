"""Which paths a directory walk passes over: the usual tool and environment folders, the
``exclude``/``extend-exclude`` patterns, and what ``.gitignore`` and ``.ignore`` files say.

Patterns follow ruff: one without a slash matches a file or directory name anywhere in the tree
(``.venv``, ``*_old.cfg``); one with a slash matches a path relative to the project root (the
directory of the configuration, else the working directory), e.g. ``legacy/*.cfg``.
Gitignore files are matched with ``pathspec`` (git's own rules: negation, anchoring, directory
patterns), each relative to its own directory, from the walk's root and every directory above
it up to the top of its git repository; a deeper file overrides a shallower one, as in git.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cached_property

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

DEFAULT_EXCLUDES = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints",
    ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache",
    ".svn", ".tox", ".venv", ".vscode", "__pycache__", "__pypackages__", "_build", "buck-out",
    "build", "dist", "node_modules", "site-packages", "venv",
)
IGNORE_FILES = (".gitignore", ".ignore")
# default excludes that Darknet's own layouts use, and the folder inside that says it is one
DARKNET_LAYOUTS = {"build": "darknet"}


@dataclass(frozen=True)
class ExcludeRules:
    """What the command line and the configuration say about excluding paths."""

    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False
    root: str = ""  # where patterns with a slash are anchored; "" is the working directory
    # told each ignore file read (the run's inputs: no output may replace one)
    on_read: Callable[[str], None] | None = field(default=None, compare=False)

    def pattern_match(self, path: str) -> str | None:
        """The first ``exclude``/``extend-exclude`` pattern ``path`` matches, if any."""
        names, anchored = self._compiled
        name = os.path.basename(os.path.normpath(path))
        if names is not None and names.match(name):
            found = next(p for p in self._patterns if "/" not in p.rstrip("/")
                         and fnmatchcase(name, p.rstrip("/")))
            if not self._darknet_layout(found, path):
                return found
        if anchored is not None:
            relative = _relative(path, self.root or os.getcwd())
            if anchored.match(relative):
                return next(p for p in self._patterns if "/" in p.rstrip("/")
                            and fnmatchcase(relative, p.strip("/")))
        return None

    def _darknet_layout(self, pattern: str, path: str) -> bool:
        """Whether a default exclude would hide Darknet's own layout: AlexeyAB's Windows
        how-to puts the cfgs in ``build/darknet/x64/cfg``, so the default ``build`` passes
        over a build folder unless it holds ``darknet/``. A pattern the user wrote stands."""
        return (pattern in DARKNET_LAYOUTS and pattern not in self.extend_exclude
                and self.exclude is DEFAULT_EXCLUDES
                and os.path.isdir(os.path.join(path, DARKNET_LAYOUTS[pattern])))

    @property
    def _patterns(self) -> tuple[str, ...]:
        return self.exclude + self.extend_exclude

    @cached_property
    def _compiled(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        """One regex for the name patterns and one for the anchored ones: a walk asks about
        every entry it meets."""
        names = [fnmatch.translate(p.rstrip("/")) for p in self._patterns
                 if "/" not in p.rstrip("/")]
        anchored = [fnmatch.translate(p.strip("/")) for p in self._patterns
                    if "/" in p.rstrip("/")]
        return (re.compile("|".join(names)) if names else None,
                re.compile("|".join(anchored)) if anchored else None)


def _relative(path: str, root: str) -> str:
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, os.path.abspath(root))
    except ValueError:  # another drive on Windows
        return absolute.replace(os.sep, "/")
    return relative.replace(os.sep, "/")


# told (path, error) for an ignore file that exists but cannot be read
OnUnreadable = Callable[[str, OSError], None]


class IgnoreFiles:
    """The gitignore files in force at one point of a walk: a stack of (directory, spec)."""

    def __init__(self, levels: list[tuple[str, GitIgnoreSpec]] | None = None,
                 on_read: Callable[[str], None] | None = None,
                 on_unreadable: OnUnreadable | None = None) -> None:
        self.levels = levels or []
        self.on_read = on_read  # told each ignore file read
        self.on_unreadable = on_unreadable  # told each one that cannot be

    @classmethod
    def above(cls, root: str, on_read: Callable[[str], None] | None = None,
              on_unreadable: OnUnreadable | None = None) -> IgnoreFiles:
        """The ignore files of ``root``'s ancestors, up to the top of its git repository (none
        when ``root`` is not in one)."""
        directory = os.path.abspath(root)
        chain = []
        while True:
            parent = os.path.dirname(directory)
            if os.path.exists(os.path.join(directory, ".git")):
                break
            if parent == directory:  # not in a repository: only the walk's own files
                return cls(on_read=on_read, on_unreadable=on_unreadable)
            directory = parent
            chain.append(directory)
        levels = []
        for ancestor in reversed(chain):
            spec = read_ignore_files(ancestor, on_read, on_unreadable)
            if spec is not None:
                levels.append((ancestor, spec))
        return cls(levels, on_read, on_unreadable)

    def entering(self, directory: str) -> IgnoreFiles:
        """The stack inside ``directory``: its own ignore files on top."""
        spec = read_ignore_files(directory, self.on_read, self.on_unreadable)
        if spec is None:
            return self
        return IgnoreFiles([*self.levels, (os.path.abspath(directory), spec)], self.on_read,
                           self.on_unreadable)

    def ignored(self, path: str, is_dir: bool) -> bool:
        absolute = os.path.abspath(path)
        for directory, spec in reversed(self.levels):
            relative = os.path.relpath(absolute, directory).replace(os.sep, "/")
            if relative.startswith("../"):
                continue
            verdict = spec.check_file(relative + "/" if is_dir else relative).include
            if verdict is not None:
                return verdict
        return False


def read_ignore_files(directory: str, on_read: Callable[[str], None] | None = None,
                      on_unreadable: OnUnreadable | None = None) -> GitIgnoreSpec | None:
    """The patterns of ``directory``'s .gitignore and .ignore together, or None; ``on_read``
    is told each file read, ``on_unreadable`` each one that exists but cannot be read (denied,
    a symbolic link loop, not a regular file: its patterns are then missing from the walk)."""
    lines: list[str] = []
    for name in IGNORE_FILES:
        path = name if directory == os.curdir else os.path.join(directory, name)
        try:
            text = _read_ignore_file(path)
        except OSError as exc:
            if on_unreadable is not None:
                on_unreadable(path, exc)
            continue
        if text is None:
            continue
        lines += text.splitlines()
        if on_read is not None:
            on_read(path)
    if not lines:
        return None
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines)


def _read_ignore_file(path: str) -> str | None:
    """The first MiB of the ignore file at ``path``; None when there is none (no such name,
    a link to nothing, a directory of that name) or its name is too long to look for.
    Opened without blocking and refused unless a regular file: a FIFO named .gitignore must
    not hang the walk."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return None  # no telling whether there is one: the folder's own DN029 says why
        raise
    except IsADirectoryError:  # Windows; on POSIX a directory opens, and fstat says
        return None
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            return None
        raise OSError(errno.EINVAL, "not a regular file", path)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(1 << 20).decode("utf-8", errors="replace")
