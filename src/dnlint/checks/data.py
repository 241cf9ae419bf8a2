"""``--data obj.data``: the .data file's ``classes`` and its names file against every head.

Darknet reads the .data file with the cfg reader (read_data_cfg: whitespace removed, first
occurrence of a key wins) and the names file with get_labels: one name per line, blank lines
included. The detector resolves ``names`` against the directory it is started from (``root``
when the user said which; else dnlint tries the working directory, then the .data file's own
folder: :func:`resolve_path`). :mod:`dnlint.checks.data_file` lints the .data file itself.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dnlint.checks.head_agreement import head_of, heads, line_of
from dnlint.cnumbers import c_atoi
from dnlint.diagnostics import Sink
from dnlint.network.layers.base import Layer

if TYPE_CHECKING:
    from dnlint.network.build import Network

# Defaults of AlexeyAB's detector.c / the original's examples/detector.c
DEFAULT_CLASSES = 20
DEFAULT_NAMES = "data/names.list"
_WHITESPACE = str.maketrans("", "", " \t\r\n")
# the cap on a cfg (engine.MAX_CFG_BYTES): a real .data or names file is a few kilobytes
MAX_DATA_BYTES = 256 * 1024 * 1024


class DataFileError(OSError):
    """A .data or names file that is not read: too large, or not a regular file."""


@dataclass(frozen=True)
class DataFile:
    path: Path
    options: dict[str, tuple[str, int]]  # key -> (value, line)
    crlf_lines: frozenset[int] = frozenset()  # lines of options that end with \r\n

    def get(self, key: str) -> tuple[str, int] | None:
        return self.options.get(key)


def read_data_file(path: Path) -> DataFile:
    """read_data_cfg: strip every whitespace character, skip comments, first key wins."""
    options: dict[str, tuple[str, int]] = {}
    crlf: set[int] = set()
    text = _read_capped(path).decode("utf-8", errors="surrogateescape")
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.translate(_WHITESPACE)
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        if key and value and key not in options:
            options[key] = (value, number)
            if raw.endswith("\r"):
                crlf.add(number)
    return DataFile(path, options, frozenset(crlf))


def count_names(path: Path) -> tuple[int, int]:
    """(names, blank lines) as get_labels counts them: one per fgetl line; a blank line holds
    only whitespace. Read in chunks, so a huge names file never sits in memory whole."""
    count = blank = 0
    pending = content = False  # the unfinished line: has bytes / has a non-whitespace byte
    for chunk in chunks(path):
        pieces = chunk.split(b"\n")
        for piece in pieces[:-1]:
            count += 1
            blank += not (content or piece.strip())
            pending = content = False
        if pieces[-1]:
            pending = True
            content = content or bool(pieces[-1].strip())
    if pending:
        count += 1
        blank += not content
    return count, blank


def chunks(path: Path, size: int = 1 << 20) -> Iterator[bytes]:
    """The bytes of ``path`` in chunks, if it is a regular file of at most ``MAX_DATA_BYTES``
    (checked again while reading: it may grow). A FIFO is refused, never waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DataFileError(0, "not a regular file")
        budget = MAX_DATA_BYTES
        if info.st_size > budget:
            raise DataFileError(0, _too_large(info.st_size))
        os.set_blocking(fd, True)
        while chunk := stream.read(size):
            budget -= len(chunk)
            if budget < 0:
                raise DataFileError(0, _too_large(MAX_DATA_BYTES - budget))
            yield chunk


def _too_large(size: int) -> str:
    return f"{size:,} bytes, more than the {MAX_DATA_BYTES // (1024 * 1024)} MiB limit"


def _read_capped(path: Path) -> bytes:
    return b"".join(chunks(path))


def check_data_file(
    network: Network,
    data_path: Path,
    sink: Sink,
    on_read: Callable[[str], None] | None = None,
    root: Path | None = None,
) -> None:
    """Compare ``classes=`` and the names file of ``data_path`` with every detection head;
    ``on_read`` is told the names file before it is read. What is wrong with the data file
    itself (a names file that is missing, blank lines) is the data file's own finding
    (:mod:`dnlint.checks.data_file`), reported once however many cfgs use it."""
    try:
        data = read_data_file(data_path)
    except OSError:
        return  # the data file's own result says why (DN414)
    classes = _data_classes(data, sink)
    names = _names(data, on_read, root)
    found = heads(network)
    for layer in found:
        _compare_head(layer, data, classes, names, sink)
    if not found and names is not None and names[0] != classes:
        sink.report(
            "DN413",
            None,
            None,
            f"{names[1]} has {names[0]} names but {data.path.name} says classes={classes}",
        )


def _data_classes(data: DataFile, sink: Sink) -> int:
    entry = data.get("classes")
    if entry is None:
        sink.report(
            "DN414",
            None,
            None,
            f"{data.path.name} has no classes=: Darknet's detector uses {DEFAULT_CLASSES}",
            "add classes=<number of classes>",
        )
        return DEFAULT_CLASSES
    return c_atoi(entry[0])


def _names(
    data: DataFile, on_read: Callable[[str], None] | None, root: Path | None
) -> tuple[int, Path] | None:
    """(names, the file) as get_labels counts them, or None when the file cannot be used."""

    entry = data.get("names")
    path = resolve_path(entry[0] if entry else DEFAULT_NAMES, data.path, root).path
    if path is None or not path.is_file():
        return None
    if on_read is not None:
        on_read(str(path))
    try:
        return count_names(path)[0], path
    except OSError:
        return None


def _compare_head(
    layer: Layer,
    data: DataFile,
    classes: int,
    names: tuple[int, Path] | None,
    sink: Sink,
) -> None:
    head_classes = head_of(layer).classes
    line, column = line_of(layer, "classes")
    entry = data.get("classes")
    source = f"{data.path.name} line {entry[1]}" if entry else f"{data.path.name} (default)"
    if head_classes != classes:
        sink.report(
            "DN412",
            line,
            column,
            f"classes={head_classes} here but classes={classes} in {source}",
            "make the .data file, the names file and every head agree",
        )
    if names is not None and names[0] != head_classes:
        sink.report(
            "DN413",
            line,
            column,
            f"classes={head_classes} here but {names[1]} has {names[0]} "
            f"name{'s' if names[0] != 1 else ''}",
            "one name per line, one line per class",
        )


@dataclass(frozen=True)
class Resolved:
    """Where a path value of the .data file points, and how it was found."""

    value: str  # as Darknet reads it (a trailing \r kept under the original Darknet)
    path: Path | None  # the existing file system entry, else None
    tried: tuple[Path, ...]  # the folders tried, in order
    beside_data: bool = False  # found only relative to the .data file's folder


def resolve_path(value: str, data_path: Path, root: Path | None) -> Resolved:
    """``value`` as fopen would find it when Darknet starts in ``root`` (or, with no root, the
    working directory, then the .data file's folder). A value with a NUL or too long a name
    is not found."""
    given = Path(value)
    if given.is_absolute():
        tried: tuple[Path, ...] = ()
        return Resolved(value, given if path_exists(given) else None, tried)
    candidates = [root] if root is not None else [Path.cwd(), data_path.parent.absolute()]
    folders = tuple(dict.fromkeys(candidates))
    for index, folder in enumerate(folders):
        candidate = folder / given if root is not None or index else given
        if path_exists(candidate):
            return Resolved(value, candidate, folders, beside_data=root is None and index > 0)
    return Resolved(value, None, folders)


def path_exists(path: Path) -> bool:
    """Whether ``path`` names an entry (stat succeeds; a NUL or too long a name does not)."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True
