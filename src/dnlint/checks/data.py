"""``--data obj.data``: the .data file's ``classes`` and its names file against every head.

Darknet reads the .data file with the cfg reader (read_data_cfg: whitespace removed, first
occurrence of a key wins) and the names file with get_labels: one name per line, blank lines
included. The detector resolves ``names`` against the directory it is started from (``root``
when the user said which; else dnlint tries the working directory, then the .data file's own
folder: :func:`resolve_path`). :mod:`dnlint.checks.data_file` lints the .data file itself.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
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
# the cap on a cfg (engine.MAX_CFG_BYTES): a real .data or names file is a few kilobytes
MAX_DATA_BYTES = 256 * 1024 * 1024
# Keys that only the classifier's commands read (train_classifier: labels, tree, tag;
# validate_classifier_*: top, leaves), and keys that only the detector's read (validate_detector:
# eval, results, map; AlexeyAB's validate_detector_map: difficult), in both forks.
CLASSIFIER_KEYS = frozenset({"labels", "top", "tree", "leaves", "tag"})
DETECTOR_KEYS = frozenset({"eval", "results", "map", "difficult"})


class DataFileError(OSError):
    """A .data or names file that is not read: too large, or not a regular file."""


# the keys the checks read; read_data_cfg keeps every other one too, which no check asks for
DATA_KEYS = ("classes", "names", "train", "valid", "backup", "labels", "tree")
# what the reader looks for: the keys above, and those that tell a classifier's file
_READ_KEYS = DATA_KEYS + tuple(sorted((CLASSIFIER_KEYS | DETECTOR_KEYS) - set(DATA_KEYS)))
_BLANKS = b" \t\r"  # what read_data_cfg's strip removes within a line (and \n, the separator)
BLOCK_BYTES = 1 << 16  # lines are looked at a block of about this many bytes at a time


@dataclass(frozen=True)
class DataFile:
    path: Path
    options: dict[str, tuple[str, int]]  # key of _READ_KEYS -> (value, line)
    crlf_lines: frozenset[int] = frozenset()  # lines of those options that end with \r\n

    def get(self, key: str) -> tuple[str, int] | None:
        assert key in DATA_KEYS, key  # any other key is not read (read_data_file)
        return self.options.get(key)

    @property
    def classifier(self) -> bool:
        """Whether this is a classifier's .data file: it has a key only the classifier reads
        and none only the detector reads (cfg/imagenet1k.data; cfg/combine9k.data has labels=
        but is a detector's). train_classifier never reads ``names``: it reads ``labels``."""
        keys = self.options.keys()
        return not DETECTOR_KEYS.intersection(keys) and bool(CLASSIFIER_KEYS.intersection(keys))


def read_data_file(path: Path) -> DataFile:
    """read_data_cfg for the keys of :data:`DATA_KEYS` (and those that tell a classifier's
    file, :attr:`DataFile.classifier`): every whitespace character removed,
    comments skipped, the first occurrence of a key with a value wins.

    The file is read a block of whole lines at a time, and each block is searched once for
    the keys still missing, without an object per line: a 40 MB file of short lines took 1 GB
    when each line was a string, a stripped copy and a dict entry."""
    options: dict[str, tuple[str, int]] = {}
    crlf: set[int] = set()
    first = 1  # the number of the block's first line
    for block in _line_blocks(path):
        stripped = block.translate(None, _BLANKS)  # as many lines, each stripped
        at = 0
        while len(options) < len(_READ_KEYS):
            first_line, later_line = _sets_a_key(tuple(k for k in _READ_KEYS
                                                       if k not in options))
            found = (at == 0 and first_line.match(stripped)) or later_line.search(stripped, at)
            if not found:
                break
            index = stripped.count(b"\n", 0, found.start("key"))  # the line within the block
            end = stripped.find(b"\n", found.end())
            end = len(stripped) if end < 0 else end
            if _line_end_byte(block, index) == ord("\r"):
                crlf.add(first + index)
            value = str(memoryview(stripped)[found.end():end], "utf-8", "surrogateescape")
            options[found["key"].decode()] = (value, first + index)
            at = end
        if len(options) == len(_READ_KEYS):
            break
        first += block.count(b"\n")
    return DataFile(path, options, frozenset(crlf))


@lru_cache(maxsize=32)
def _sets_a_key(wanted: tuple[str, ...]) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """A stripped line that gives one of ``wanted`` a value (``key=`` and at least one byte):
    the first line of a block, and any later one. Two patterns, not one with ``(?:^|\\n)``:
    a pattern that starts with a literal \\n is scanned for ten times faster."""
    keys = b"(?P<key>" + b"|".join(re.escape(key.encode()) for key in wanted) + b")=(?=[^\n])"
    return re.compile(keys), re.compile(b"\n" + keys)


def _line_end_byte(block: bytes, index: int) -> int:
    """The last byte of line ``index`` (0-based) of ``block`` before its LF (-1: empty)."""
    start = 0
    for _ in range(index):
        start = block.find(b"\n", start) + 1
    end = block.find(b"\n", start)
    end = len(block) if end < 0 else end
    return block[end - 1] if end > start else -1


def _line_blocks(path: Path) -> Iterator[bytes]:
    """The bytes of ``path`` in blocks of whole lines (the last one may lack its LF), each
    about :data:`BLOCK_BYTES`; a longer line is one block of its own, joined once."""
    pieces: list[bytes] = []
    for chunk in chunks(path, BLOCK_BYTES):
        end = chunk.rfind(b"\n") + 1
        if not end:
            pieces.append(chunk)  # inside one long line
            continue
        pieces.append(chunk[:end])
        block = b"".join(pieces)
        pieces = [chunk[end:]] if end < len(chunk) else []
        yield block
    if pieces:
        yield b"".join(pieces)


# bytes.strip()'s whitespace but the LF: what makes a names line blank (get_labels keeps it)
_SPACE = b" \t\r\x0b\x0c"
# every byte but the LF to 'a', so that a line with text is one run of 'a' and a run is found
# by the two bytes "\na": counted by bytes.count, not by an object per line
_TO_A = bytes(10 if byte == 10 else ord("a") for byte in range(256))


@dataclass
class NamesCount:
    """A names file as get_labels counts it: one name per fgetl line, blank ones included."""

    names: int = 0
    blank: int = 0
    crlf: int = 0  # lines that end with \r
    first_blank: list[int] = field(default_factory=list)  # the first few blank lines

    def add(self, block: bytes, shown: int) -> None:
        """Count the next ``block`` of whole lines; keep blank line numbers up to ``shown``."""
        if not block:
            return
        tail = not block.endswith(b"\n")  # the file's last line, without its LF
        lines = block.count(b"\n") + tail
        text = block.translate(_TO_A, _SPACE)  # blank lines are empty, the others runs of 'a'
        blank = lines - text.count(b"\na") - text.startswith(b"a")
        if blank and len(self.first_blank) < shown:
            self._first_blank(text, lines, tail, shown)
        self.crlf += block.count(b"\r\n") + (tail and block.endswith(b"\r"))
        self.names += lines
        self.blank += blank

    def _first_blank(self, text: bytes, lines: int, tail: bool, shown: int) -> None:
        """The numbers of the block's blank lines, in order, until ``shown`` are kept: an LF
        at the start of the stripped ``text`` or right after another LF, or an empty tail."""
        found = [0] if text.startswith(b"\n") else []
        at = text.find(b"\n\n")
        while at >= 0 and len(self.first_blank) + len(found) < shown:
            found.append(at + 1)
            at = text.find(b"\n\n", at + 1)
        for offset in found[:shown - len(self.first_blank)]:
            self.first_blank.append(self.names + text.count(b"\n", 0, offset) + 1)
        if tail and len(self.first_blank) < shown and not text[text.rfind(b"\n") + 1:]:
            self.first_blank.append(self.names + lines)


def count_names(path: Path, shown: int = 0) -> NamesCount:
    """The names file at ``path`` as get_labels reads it, a block of lines at a time (a huge
    names file never sits in memory whole, and no line is an object of its own)."""
    count = NamesCount()
    for block in _line_blocks(path):
        count.add(block, shown)
    return count


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
    found = heads(network)
    names = _names(data, on_read, root, classifier=not found)
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
    data: DataFile, on_read: Callable[[str], None] | None, root: Path | None,
    classifier: bool = False,
) -> tuple[int, Path] | None:
    """(names, the file) as get_labels counts them, or None when the file cannot be used or
    nothing reads it (a classifier's .data without names=: ``classifier``, a cfg with no
    detection head)."""
    entry = data.get("names")
    if entry is None and (data.classifier or classifier):
        return None  # the default data/names.list is the detector's (classifier.c: labels=)
    path = resolve_path(entry[0] if entry else DEFAULT_NAMES, data.path, root).path
    if path is None or not path.is_file():
        return None
    if on_read is not None:
        on_read(str(path))
    try:
        return count_names(path).names, path
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
