"""What a run reads: command-line paths expanded to files, and files read defensively.

Reading refuses what is not a regular file (a FIFO or a device would hang or never end) and
reads a cfg up to :data:`MAX_CFG_BYTES`, so a multi-GB file passed by mistake cannot exhaust
memory. A path that cannot be read raises :class:`InputError`, which the run turns into a
diagnostic of that path (DN029) without stopping.

Directories are walked iteratively (a tree a thousand levels deep must not exhaust the call
stack), in sorted order, without following links to directories (a link loop must not hang).
"""

from __future__ import annotations

import os
import stat
import sys

from dnlint.read import MAX_CFG_BYTES
from dnlint.records import NamedTuple

WEIGHTS_SUFFIXES = (".weights",)


class InputError(Exception):
    """A path that cannot be read: its message starts with the path."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class Input(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    path: str
    # "cfg", "weights", "data" (a .data file), "names", "stdin" or "problem" (reason says why
    # it cannot be read)
    kind: str
    explicit: bool = True
    reason: str = ""
    display: str = ""  # the name shown (and configured) instead of path: --stdin-filename


DATA_SUFFIX = ".data"
NAMES_SUFFIX = ".names"
# the keys read_data_cfg's callers look up: a walked .data file holding none is not Darknet's
_DATA_KEYS = (b"classes", b"train", b"valid", b"names", b"backup")


def kind_of(path: str) -> str:
    """What a path named on the command line is, by its name: a weights file, a .data file,
    a names file, else a cfg (whatever its suffix: Darknet takes any name)."""
    if is_weights_path(path):
        return "weights"
    if path.endswith(DATA_SUFFIX):
        return "data"
    return "names" if path.endswith(NAMES_SUFFIX) else "cfg"


def is_weights_path(path: str) -> bool:
    name = os.path.basename(path)
    if name.endswith(WEIGHTS_SUFFIXES):
        return True
    # darknet partial's output: yolov4.conv.137 ('\.conv\.\d+\Z'; \d is isdecimal)
    _, conv, count = name.rpartition(".conv.")
    return bool(conv) and count.isdecimal()


def collect_inputs(paths: tuple[str, ...], notes: list[str], rules: ExcludeRules | None = None,
                   stdin_filename: str | None = None) -> list[Input]:
    """Expand directories to the Darknet cfgs and weights files below them; classify every
    path by its suffix.

    A directory (or part of one) that cannot be read becomes a ``problem`` input, reported
    like an unreadable file; ``notes`` collects what ``--verbose`` explains (skipped files).
    Paths named explicitly are never excluded, unless ``rules.force_exclude``.
    """
    inputs: list[Input] = []
    unreadable = UnreadableIgnoreFiles()
    stdin_seen = False
    for path in paths:
        if path == "-":
            if stdin_seen:
                inputs.append(Input("-", "problem", reason="standard input can be read only once"))
            else:
                inputs.append(Input("-", "stdin", display=stdin_filename or ""))
            stdin_seen = True
        elif rules is not None and rules.force_exclude and _force_excluded(path, rules, notes,
                                                                           unreadable):
            inputs += unreadable.drain()
            continue
        elif os.path.isdir(path):
            inputs += walk(path, notes, rules, unreadable)
        elif is_weights_path(path):
            inputs.append(Input(path, "weights"))
        elif (rules is not None and rules.force_exclude and kind_of(path) == "cfg"
              and _foreign(path, notes)):
            continue
        else:
            inputs.append(Input(path, kind_of(path)))
        inputs += unreadable.drain()
    return _each_once(inputs)


def _each_once(inputs: list[Input]) -> list[Input]:
    """Every path once, where it first came (``a.cfg ./a.cfg``, or a directory and a file in
    it): linted, reported and fixed once. Named explicitly anywhere, it counts as named.
    Paths compare as written, made absolute: two names of one file through a link stay two."""
    cwd = os.getcwd()
    first: dict[tuple[str, str], int] = {}
    unique: list[Input] = []
    for item in inputs:
        if item.kind == "stdin":
            unique.append(item)
            continue
        key = (os.path.normpath(os.path.join(cwd, item.path)), item.kind)
        at = first.get(key)
        if at is None:
            first[key] = len(unique)
            unique.append(item)
        elif item.explicit and not unique[at].explicit:
            unique[at] = unique[at]._replace(explicit=True)
    return unique


class UnreadableIgnoreFiles:
    """The ignore files a run met that exist but cannot be read, each a ``problem`` input
    (DN029) once however many walks or named paths lie below it; the walk goes on without
    their patterns."""

    def __init__(self) -> None:
        self.pending: list[Input] = []
        self.seen: set[str] = set()

    def __call__(self, path: str, exc: OSError) -> None:
        if path not in self.seen:
            self.seen.add(path)
            self.pending.append(Input(path, "problem", False, cannot_read(exc, path)))

    def drain(self) -> list[Input]:
        found, self.pending = self.pending, []
        return found


def _foreign(path: str, notes: list[str]) -> bool:
    """``--force-exclude`` (pre-commit, which passes every staged ``*.cfg``): a file named
    that is clearly an INI file of another tool (``setup.cfg``) is skipped, with a note. A
    person who names one gets it linted."""
    why = not_darknet(path, sectionless=False)
    if why is None:
        return False
    notes.append(f"{path}: skipped, {why}")
    return True


def _force_excluded(path: str, rules: ExcludeRules, notes: list[str],
                    unreadable: UnreadableIgnoreFiles) -> bool:
    """``--force-exclude``: an explicit path (pre-commit passes every staged file) obeys the
    exclusions too, its ancestors included."""
    pattern = rules.pattern_match(path)
    parent = os.path.dirname(os.path.abspath(path))
    while pattern is None and parent != os.path.dirname(parent):
        pattern = rules.pattern_match(parent)
        parent = os.path.dirname(parent)
    from dnlint.run.excludes import IgnoreFiles

    ignored = rules.respect_gitignore and IgnoreFiles.above(
        path, rules.on_read, unreadable).ignored(path, os.path.isdir(path))
    if pattern is None and not ignored:
        return False
    why = f"excluded by {pattern!r}" if pattern else "ignored by a .gitignore or .ignore file"
    notes.append(f"{path}: skipped, {why}")
    return True


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from dnlint.result import FileResult
    from dnlint.run.excludes import ExcludeRules, IgnoreFiles

    _Listing = tuple[str, Iterator[os.DirEntry[str] | "Input"], IgnoreFiles]


def walk(root: str, notes: list[str], rules: ExcludeRules | None = None,
         unreadable: UnreadableIgnoreFiles | None = None) -> Iterator[Input]:
    """The Darknet cfgs and weights files below ``root`` in sorted depth-first order, without
    recursion: a stack of the directories being listed, each with its sorted entries still to
    visit and the ignore files in force there. An ignore file that cannot be read is a
    problem input where the walk meets it (``unreadable`` collects them)."""
    # here, not at the top: the exclusion rules (fnmatch, pathspec) are for runs that walk
    from dnlint.run.excludes import ExcludeRules, IgnoreFiles

    rules = rules if rules is not None else ExcludeRules()
    unreadable = unreadable if unreadable is not None else UnreadableIgnoreFiles()
    ignores = (IgnoreFiles.above(root, rules.on_read, unreadable) if rules.respect_gitignore
               else IgnoreFiles())
    stack = [_listing(root, ignores, rules)]
    while stack:
        yield from unreadable.drain()
        directory, entries, ignores = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        if isinstance(entry, Input):
            yield entry
            continue
        # "./a.cfg" is shown as "a.cfg", as a walk from "." in ruff or git shows it
        path = entry.name if directory == os.curdir else os.path.join(directory, entry.name)
        item = _classify(entry, path, notes)
        if item is None or _excluded(path, item == "directory", rules, ignores, notes):
            continue
        if item == "directory":
            stack.append(_listing(path, ignores, rules))
        elif isinstance(item, Input):
            yield item


def _excluded(path: str, is_dir: bool, rules: ExcludeRules, ignores: IgnoreFiles,
              notes: list[str]) -> bool:
    pattern = rules.pattern_match(path)
    if pattern is not None:
        notes.append(f"{path}: skipped, excluded by {pattern!r}")
        return True
    if ignores.levels and ignores.ignored(path, is_dir):
        notes.append(f"{path}: skipped, ignored by a .gitignore or .ignore file")
        return True
    return False


def _listing(directory: str, ignores: IgnoreFiles, rules: ExcludeRules) -> _Listing:
    """A directory's entries sorted by name (or the problem of listing it), and the ignore
    files in force inside it."""
    try:
        with os.scandir(directory) as found:
            entries = sorted(found, key=lambda entry: entry.name)
    except OSError as exc:
        problem = Input(directory, "problem", False, cannot_read(exc, directory, "directory"))
        return directory, iter([problem]), ignores
    inside = ignores.entering(directory) if rules.respect_gitignore else ignores
    return directory, iter(entries), inside


def _classify(entry: os.DirEntry[str], path: str, notes: list[str]) -> Input | str | None:
    """"directory", an input (a cfg, a weights file, or a problem), or None to pass over."""
    try:
        if entry.is_dir(follow_symlinks=False):
            return "directory"
    except OSError:
        pass
    weights = is_weights_path(entry.name)
    data = entry.name.endswith(DATA_SUFFIX)
    if not weights and not data and not entry.name.endswith(".cfg"):
        if entry.name.lower().endswith(".cfg.txt"):
            notes.append(f"{path}: skipped, a '.cfg.txt' name (Notepad adds '.txt'): rename it "
                         "to end in .cfg, or name it on the command line")
        return None
    try:
        regular = entry.is_file()  # follows a link to a file
    except OSError as exc:
        return Input(path, "problem", False, cannot_read(exc, path))
    if not regular:
        if entry.is_symlink() and not os.path.exists(path):
            return Input(path, "problem", False, "dangling symbolic link")
        notes.append(f"{path}: skipped, not a regular file")
        return None
    if weights:
        return Input(path, "weights", False, "", "")
    if data:
        if looks_like_data_file(path):
            return Input(path, "data", False, "", "")
        notes.append(f"{path}: skipped, not a Darknet .data file (no classes=, train=, "
                     "valid=, names= or backup=)")
        return None
    why = not_darknet(path)
    if why is not None:
        notes.append(f"{path}: skipped, {why}")
        return None
    # every field by position (per walked file): a keyword or a default makes the record
    # bind its arguments in Python
    return Input(path, "cfg", False, "", "")


def _head(path: str) -> bytes | None:
    """The first 64 KiB of a walked file (None when it cannot be read: the real read says)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(SNIFF_HEAD)
    except OSError:
        return None


SNIFF_HEAD = 65536  # bytes of a file read to tell a Darknet cfg from another tool's INI file


def not_darknet(path: str, sectionless: bool = True) -> str | None:
    """Why the file at ``path`` is not a Darknet cfg, or None when it may be one: its sections
    are all another tool's (``[metadata]``, ``[flake8]``: :func:`~dnlint.read.sniff.
    foreign_sections`) or, with ``sectionless``, it has no section at all. A cfg with a typo
    (``[convolutionl]``, options before ``[net]``) is one; a file that cannot be read too (its
    lint reports why)."""
    head = _head(path)
    if head is None:
        return None
    from dnlint.read.sniff import foreign_sections

    if b"[" not in head:
        return "not a Darknet cfg (no section)" if sectionless else None
    names = foreign_sections(head)
    if names is None:
        return None
    listed = ", ".join(f"[{name}]" for name in names[:3]) + (", ..." if len(names) > 3 else "")
    return f"not a Darknet cfg (an INI file: {listed}, none of Darknet's sections)"


def looks_like_darknet(path: str) -> bool:
    """Whether a walk takes the file for a Darknet cfg (:func:`not_darknet`)."""
    return not_darknet(path) is None


def looks_like_data_file(path: str) -> bool:
    """A walked ``.data`` file is Darknet's when one of its first lines sets a key that
    read_data_cfg's callers read (other programs use the suffix too)."""
    head = _head(path)
    if head is None:
        return True  # let the real read report it
    for raw in head.splitlines():
        line = raw.replace(b" ", b"").replace(b"\t", b"")
        if line.split(b"=", 1)[0] in _DATA_KEYS and b"=" in line:
            return True
    return False


def require_regular_file(path: str) -> os.stat_result:
    """stat() ``path``, refusing what cannot be read as a file (a FIFO would hang the read)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        reason = "dangling symbolic link" if os.path.islink(path) else "no such file or directory"
        raise InputError(path, reason) from None
    except OSError as exc:
        raise path_error(exc, path) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(path, "is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(path, "not a regular file")
    return info


class TooLarge(Exception):
    """A regular file whose size (fstat of the open file) is over the limit: none of it read."""


def read_input(path: str, limit: int = MAX_CFG_BYTES) -> bytes:
    """Read a regular file (or stdin), refusing what cannot be read; at most ``limit`` + 1 bytes
    (so that the caller can tell a file over the limit that grew, or that stat cannot size).
    Raises :class:`TooLarge` for a file already over the limit, before reading any of it."""
    if path == "-":
        return sys.stdin.buffer.read(limit + 1)
    require_regular_file(path)  # before open(): opening a FIFO would block
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())  # the file opened, not the path stat() saw
            if info.st_size > limit:
                raise TooLarge(path)
            # Ask for the size fstat() saw: read(limit + 1) allocates the whole limit up
            # front, which cost more than linting a small cfg.
            data = handle.read(min(info.st_size, limit) + 1)
            while info.st_size < len(data) <= limit:  # it grew since stat(), or is /proc
                more = handle.read(min(1 << 20, limit + 1 - len(data)))
                if not more:
                    break
                data += more
            return data
    except OSError as exc:
        raise path_error(exc, path) from None


def file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of ``path`` following links, or None when it does not exist."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def path_error(exc: OSError, path: str) -> InputError:
    """The :class:`InputError` (DN029) an OSError met while handling ``path`` stands for:
    ENOENT, EACCES, ENAMETOOLONG, ELOOP, EIO ... on the path itself, or on a file looked for
    because of it (its configuration)."""
    return InputError(path, cannot_read(exc, path))


def cannot_read(exc: OSError, path: str, what: str = "") -> str:
    """The reason of a DN029: ``cannot read: <why>``, naming the file that failed when it is
    not ``path`` itself (``cannot read /a/b/.dnlint.toml: File name too long``)."""
    failed = exc.filename
    if isinstance(failed, bytes):
        failed = os.fsdecode(failed)
    other = isinstance(failed, str) and failed and os.path.normpath(failed) != os.path.normpath(
        path)
    where = f" {failed}" if other else ""
    return f"cannot read{' ' + what if what else ''}{where}: {_why(exc)}"


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def display_name(item: Input) -> str:
    """The name a cfg's findings carry: --stdin-filename's, ``<stdin>``, or its path."""
    return item.display or ("<stdin>" if item.kind == "stdin" else item.path)


def read_cfg(item: Input, display: str, text: bytes | None = None) -> bytes | FileResult:
    """The bytes of a cfg, or the result that says why there are none to lint: it cannot be
    read (DN029), or it is larger than any cfg (DN023). ``text``: standard input's bytes,
    given by a caller (the API's lint_text) rather than read."""
    from dnlint.pipeline import too_large, unreadable

    try:
        data = text if item.kind == "stdin" and text is not None else read_input(item.path)
    except InputError as exc:
        return unreadable(display, exc.reason)
    except TooLarge:
        return too_large(display)
    if len(data) > MAX_CFG_BYTES:
        return too_large(display)
    return data
