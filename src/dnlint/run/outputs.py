"""Writing files without losing any: no output is ever one of the run's inputs, and an existing
file is replaced atomically (a temporary file in the same directory, renamed over it), never
truncated first.

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


class AtomicOutput:
    """A text file written under a temporary name and renamed over ``path`` on :meth:`commit`;
    :meth:`discard` removes it. The destination is untouched until the rename.

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
            _move_into_place(self.temp, self.target)
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


def write_fixed(path: str, data: bytes) -> None:
    """``--fix``: replace ``path`` with ``data`` (:func:`replace_bytes`). A symbolic link is
    refused: renaming over it would replace the link, and writing its target would change a
    file under another path."""
    if os.path.islink(path):
        raise OutputError("is a symbolic link: not fixed (fix the file it points to)")
    replace_bytes(path, data)


def replace_bytes(path: str, data: bytes) -> None:
    """Replace the regular file ``path`` with ``data`` atomically (``--fix``): a temporary
    file in the same directory, renamed over it, the permissions kept. Raises OSError."""
    fd, temp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        _move_into_place(temp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise


def _temp_beside(path: str) -> tuple[int, str]:
    """A new temporary file in ``path``'s directory (so that the rename is atomic): its
    descriptor and name. Raises OSError."""
    import tempfile  # here: it costs 2-3 ms of start-up (random, shutil), and writes are rare

    directory = os.path.dirname(os.path.abspath(path))
    return tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=directory)


def _move_into_place(temp: str, path: str) -> None:
    """Rename the finished ``temp`` over ``path``, with ``path``'s permissions."""
    _keep_mode(path, temp)
    os.replace(temp, path)


def _keep_mode(path: str, temp: str) -> None:
    """A replaced file keeps its permissions; a new one gets the usual 0666 less the umask
    (mkstemp creates 0600)."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temp, mode)
