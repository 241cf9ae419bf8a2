"""Writing files without losing any: no output is ever one of the run's inputs, and an existing
file is replaced atomically (a temporary file in the same directory, renamed over it), never
truncated first, and only when it is still the file dnlint saw and the user may write it
(:func:`replace_file` for a user's file, ``--fix``; :class:`AtomicOutput` for a report or a
graph; both end in :func:`commit_temp`, the careful editor's save).

Identity is compared by device and inode, so ``./m.cfg``, ``../dir/m.cfg`` and links to it are
all caught. The inputs are every file the run read (:attr:`dnlint.run.engine.Run.inputs_read`)
and every path named on the command line; two outputs of one run must not be the same file
either (:func:`refuse_shared`). An output that is a symbolic link is written through it, as a
shell's ``>`` does: its target is replaced (:func:`destination`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TextIO

from dnlint.clean import shown_path
from dnlint.records import NamedTuple
from dnlint.run.inputs import file_identity

TEMP_PREFIX = ".dnlint-"
TEMP_SUFFIX = ".tmp"  # never .cfg or .weights: a directory walk must not pick it up


class OutputError(Exception):
    """An output that must not or cannot be written; its message names the path."""


def refuse_input(path: str, inputs: Iterable[tuple[int, int]], what: str) -> None:
    """Raise :class:`OutputError` when ``path`` is (a link to, another name of) an input."""
    identity = file_identity(path)
    if identity is not None and identity in set(inputs):
        raise OutputError(f"{shown_path(path)}: {what} would overwrite an input of this run; "
                          "nothing written")


def refuse_shared(outputs: Sequence[tuple[str, str]]) -> None:
    """Raise :class:`OutputError` when two of ``outputs`` ((path, what) pairs) would write the
    same file: one replaced by the other."""
    for index, (path, what) in enumerate(outputs):
        for earlier, earlier_what in outputs[:index]:
            if same_output(earlier, path):
                raise OutputError(f"{shown_path(path)}: {earlier_what} and {what} would be the "
                                  "same file; nothing written")


def same_output(first: str, second: str) -> bool:
    """Whether writing ``first`` and ``second`` would replace the same file: the same existing
    regular file (by identity), or the same path that does not exist yet (links resolved).
    A device or FIFO is written, not replaced, and is never the same output."""
    one, other = _stat(first), _stat(second)
    if one is not None or other is not None:
        return (one is not None and other is not None and stat.S_ISREG(one.st_mode)
                and (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino))
    return os.path.realpath(first) == os.path.realpath(second)


def destination(path: str) -> str:
    """The file that writing ``path`` replaces: ``path`` itself, or what a symbolic link
    points to (a chain followed to its end; for a dangling link, the path it names)."""
    return os.path.realpath(path) if os.path.islink(path) else path


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def identities(paths: Iterable[str]) -> set[tuple[int, int]]:
    """The identities of those ``paths`` that exist (directories included: a walk reads below
    them, and an output may not replace one)."""
    found = set()
    for path in paths:
        identity = file_identity(path) if path != "-" else None
        if identity is not None:
            found.add(identity)
    return found


class FileState(NamedTuple):
    """What says a file is still the one dnlint saw: identity, size and modification time."""

    device: int
    inode: int
    size: int
    mtime_ns: int


def file_state(path: str) -> FileState | None:
    """The :class:`FileState` of ``path`` (links followed), or None when it does not exist."""
    info = _stat(path)
    return None if info is None else _state(info)


def _state(info: os.stat_result) -> FileState:
    return FileState(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def replace_file(path: str, data: bytes, seen: FileState | None,
                 original: bytes | None = None, refused: str = "not written") -> None:
    """Replace the regular file ``path`` with ``data`` as a careful editor saves: the one
    function every rewrite of a file the user owns goes through (``--fix``).

    Refused with :class:`OutputError` (``path`` untouched, the message says why): a symbolic
    link; a file that is no longer the one read (``seen``: device, inode, size, modification
    time; and ``original``, its bytes, compared again just before the rename, since a
    timestamp may be too coarse to show an edit); one the user may not write (see
    :func:`check_replaceable`); one with more than one hard link. The new file keeps the
    owner, group and mode; the rename is atomic. A new ``path`` (``seen`` None) must still not
    exist when it is created.
    """
    if os.path.islink(path):
        raise OutputError(f"{shown_path(path)}: is a symbolic link: {refused} (name the file "
                          "it points to instead)")
    try:
        fd, temp = _temp_beside(path)
    except OSError as exc:  # the directory: a rename needs to create a file in it
        raise OutputError(f"{shown_path(path)}: cannot create a file beside it "
                          f"({exc.strerror or exc}): {refused}") from None
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        commit_temp(temp, path, seen, original, refused)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise OutputError(f"{shown_path(path)}: cannot write ({exc.strerror or exc}): "
                          f"{refused}") from None
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise


def commit_temp(temp: str, path: str, seen: FileState | None, original: bytes | None = None,
                refused: str = "not written") -> None:
    """Rename the finished ``temp`` over ``path`` when ``path`` is still as ``seen`` (None:
    absent) and may be replaced; ``temp`` gets ``path``'s mode, owner and group first. Raises
    :class:`OutputError` (``temp`` left for the caller to remove) or OSError."""
    info = _stat(path)
    _check_unchanged(path, info, seen, original, refused)
    if info is None:
        _new_file_mode(temp)
    else:
        check_replaceable(path, info, refused)
        _copy_owner_and_mode(path, info, temp, refused)
    # the last look, as close to the rename as it can be: an editor's save in between is
    # caught here; what lands in the microseconds after it cannot be, as in any editor
    _check_unchanged(path, _stat(path), seen, original, refused)
    if seen is None:
        _create(temp, path, refused)
    else:
        os.replace(temp, path)


def _create(temp: str, path: str, refused: str) -> None:
    """Give the finished ``temp`` the name ``path`` unless a file of that name appeared since
    the last look: link(2) never replaces. A file system without hard links gets the rename."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise OutputError(f"{shown_path(path)}: was created since dnlint read it: {refused} "
                          "(run dnlint again)") from None
    except OSError:
        os.replace(temp, path)
        return
    with suppress(OSError):
        os.unlink(temp)


def _check_unchanged(path: str, info: os.stat_result | None, seen: FileState | None,
                     original: bytes | None, refused: str) -> None:
    now = None if info is None else _state(info)
    changed = now != seen
    if not changed and original is not None and info is not None:
        changed = _read_back(path, len(original)) != original
    if changed:
        how = ("was created" if seen is None else "was removed" if now is None
               else "changed")
        raise OutputError(f"{shown_path(path)}: {how} since dnlint read it: {refused} "
                          "(run dnlint again)")


def _read_back(path: str, size: int) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(size + 1)
    except OSError:
        return None


def check_replaceable(path: str, info: os.stat_result, refused: str = "not written") -> None:
    """Refuse (:class:`OutputError`) to replace a file the user could not write in place:
    renaming over it needs only the directory's permission, so the file's is checked here,
    as ruff and black (which write in place) are refused by the system. For the real user
    that is ``access(W_OK)``; root may write anything, so for root a file without any write
    bit (``chmod a-w``: marked read-only on purpose) is refused too, as an editor refuses it
    without ``!``. A file with several hard links is refused: the new file would have one
    name, and the others would keep the old text."""
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{shown_path(path)}: not a regular file: {refused}")
    if not os.access(path, os.W_OK) or (os.geteuid() == 0 and not info.st_mode & 0o222):
        raise OutputError(f"{shown_path(path)}: no write permission: {refused}")
    if info.st_nlink > 1:
        raise OutputError(f"{shown_path(path)}: has {info.st_nlink} hard links: {refused} "
                          "(a new file would leave the other names with the old text)")


def _copy_owner_and_mode(path: str, info: os.stat_result, temp: str, refused: str) -> None:
    """The replacement gets the replaced file's mode, and its owner and group where they
    differ from the writer's (possible for root, or a group the user belongs to); a file whose
    owner would change is refused."""
    if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.chown(temp, info.st_uid, info.st_gid)
        except PermissionError:
            raise OutputError(f"{shown_path(path)}: owned by another user or group: "
                              f"{refused} (a new file would change its owner)") from None
    os.chmod(temp, info.st_mode & 0o7777)  # after chown, which clears set-id bits


def _new_file_mode(temp: str) -> None:
    """A new file gets the usual 0666 less the umask (mkstemp creates 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)


class AtomicOutput:
    """A text file written under a temporary name and renamed over ``path`` on :meth:`commit`;
    :meth:`discard` removes it. The destination is untouched until the rename, and is replaced
    only if it is still as it was when the output was opened (:func:`commit_temp`: a file the
    user created or changed meanwhile is kept, and so is one they may not write).

    A destination that exists and is not a regular file (``/dev/stdout``, a FIFO, a terminal)
    is written directly: renaming over it would replace the device, not write to it. A symbolic
    link is written through: the file it points to is replaced (in that file's directory), the
    link stays; a dangling link creates the file it names.
    """

    def __init__(self, path: str, what: str = "the output") -> None:
        self.path = path
        self.target = path  # the file replaced: ``path``, or where its link points
        self.what = what
        self.temp: str | None = None
        self.seen: FileState | None = None
        info = _stat(path)
        try:
            if info is not None and stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(errno.EISDIR, "is a directory")
            if info is not None and not stat.S_ISREG(info.st_mode):
                self.stream: TextIO = open(path, "w", encoding="utf-8",  # noqa: SIM115
                                           errors="backslashreplace", newline="\n")
                return
            self.target = destination(path)
            if self.target != path and not os.path.isdir(os.path.dirname(self.target)):
                raise OutputError(f"{shown_path(path)}: cannot write: a dangling symbolic link "
                                  f"to {shown_path(self.target)}, whose directory does not "
                                  "exist")
            self.seen = file_state(self.target)
            if info is not None:
                check_replaceable(path, info, f"{what} not written")
            fd, self.temp = _temp_beside(self.target)
        except OSError as exc:
            raise OutputError(f"{shown_path(path)}: cannot write: {exc.strerror or exc}") from None
        self.stream = os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace",
                                newline="\n")

    def commit(self, inputs: Iterable[tuple[int, int]] = ()) -> None:
        """Rename the finished file over ``path``, unless ``path`` is now one of ``inputs``."""
        try:
            self.stream.close()
            if self.temp is None:
                return
            refuse_input(self.path, inputs, self.what)
            commit_temp(self.temp, self.target, self.seen, None, f"{self.what} not written")
            self.temp = None
        except OSError as exc:
            self.discard()
            raise OutputError(f"{shown_path(self.path)}: cannot write: "
                              f"{exc.strerror or exc}") from None
        except OutputError:
            self.discard()
            raise

    def discard(self) -> None:
        with suppress(OSError):
            self.stream.close()
        if self.temp is not None:
            with suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


@contextmanager
def atomic_text(path: str, inputs: Iterable[tuple[int, int]] = (),
                what: str = "the output") -> Iterator[TextIO]:
    """Write ``path`` atomically: committed when the block ends normally, discarded if not."""
    output = AtomicOutput(path, what)
    try:
        yield output.stream
    except BaseException:
        output.discard()
        raise
    output.commit(inputs)


def _temp_beside(path: str) -> tuple[int, str]:
    """A new temporary file in ``path``'s directory (so that the rename is atomic): its
    descriptor and name. Raises OSError."""
    import tempfile  # here: it costs 2-3 ms of start-up (random, shutil), and writes are rare

    directory = os.path.dirname(os.path.abspath(path))
    return tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=directory)
