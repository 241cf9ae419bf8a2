"""One label file as ``read_boxes`` reads it: ``fscanf(file, "%d %f %f %f %f")`` until it
returns less than 5, bounded.

fscanf does not read lines: each conversion skips any white space (newlines included) first,
``%d`` stops at the first character that is not a digit (``0.5`` as a class id is ``0``, and
``.5`` is left for the next ``%f``), and the loop ends at the first text it cannot convert.
So a line of six numbers shifts every later box by one field, and a word, a comma or a byte
order mark ends the file there: every box after it is lost, silently.

The file is opened without blocking and only read when ``fstat`` says it is a regular file
(a FIFO, a device such as ``/dev/zero``, a directory are findings, never read), and at most
``MAX_LABEL_BYTES`` are read. Of a file read only so far, a box or a stop that runs into the
end of what was read is not reported: the number there may go on past it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field

# a label file holds a few lines; a file larger than this is read only this far
MAX_LABEL_BYTES = 4 * 1024 * 1024
# boxes read conversion by conversion (a file that is not one box a line) stop here
MAX_SCANNED_BOXES = 10_000
# one scanf conversion each, matched at a position: greedy, and never retried shorter (each is
# its own match call), so a file of megabytes of digits is scanned in linear time
_SPACE = re.compile(rb"\s*")  # C isspace in the C locale
_INT = re.compile(rb"[+-]?[0-9]+")
_FLOAT = re.compile(rb"[+-]?(?:0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)"
                    rb"(?:[pP][+-]?[0-9]+)?|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                    rb"|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])")
# what can still become a number when more bytes follow (a file cut at MAX_LABEL_BYTES)
_NUMBER_TAIL = re.compile(rb"[0-9a-fA-F+\-.xXpPiInNtTyY]*")
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1


# one box as read_boxes stores it (class id, x, y, w, h) and the label file line it starts on:
# a plain tuple, since a data set has millions of them
Box = tuple[int, float, float, float, float, int]


@dataclass
class LabelFile:
    """What read_boxes gets from one file: its boxes, where fscanf stopped (line, the text
    there) when it stopped before the end, the lines whose boxes do not start and end on that
    line (the fields drift), and whether only the first MAX_LABEL_BYTES were read."""

    boxes: list[Box] = field(default_factory=list)
    stop: tuple[int, str] | None = None
    drift: int | None = None  # the first line where a box does not sit on a line of its own
    truncated: bool = False
    size: int = 0


class LabelError(Exception):
    """A label path that names no readable regular file: ``kind`` is "missing" or
    "unreadable", ``reason`` says why in words."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def read_label_file(path: str) -> LabelFile:
    """The boxes of ``path``; raises :class:`LabelError` when it is not a readable regular
    file (never blocks on a FIFO, never reads a device)."""
    data, size = _read_bounded(path)
    cut = size > len(data)
    result = parse_boxes(data, cut)
    result.size = size
    result.truncated = result.truncated or cut
    return result


def parse_boxes(data: bytes, cut: bool = False) -> LabelFile:
    """read_boxes' loop over ``data``: lines of exactly five plain numbers at once (each is one
    fscanf box), then, from the first line that is not, fscanf's conversions one by one.
    ``cut``: the file goes on past ``data``, so its last line is left to the scanner, which
    does not report what runs into the cut."""
    result = LabelFile()
    boxes = result.boxes
    position = line = 0
    segments = data.split(b"\n")
    tail = segments.pop() if cut else b""
    for text in segments:
        line += 1
        fields = text.split()  # C isspace: the bytes split() set
        if fields:
            if len(fields) != 5 or b"_" in text:  # int() and float() take "1_0", scanf not
                break
            try:
                class_id = int(fields[0])
                box = (class_id, float(fields[1]), float(fields[2]), float(fields[3]),
                       float(fields[4]), line)
            except ValueError:
                break  # "0.5" as a class id, a hex float, a word: the scanner decides
            if not _INT_MIN <= class_id <= _INT_MAX:
                box = (_c_int(fields[0]), *box[1:])
            boxes.append(box)
        position += len(text) + 1
    else:
        if tail.strip():
            _scan(data, position, line + 1, result, cut)
        return result
    _scan(data, position, line, result, cut)
    return result


def _scan(data: bytes, position: int, line: int, result: LabelFile, cut: bool = False) -> None:
    """fscanf("%d %f %f %f %f") from ``position`` (on ``line``) until a conversion fails; with
    ``cut`` (the file goes on past ``data``), until a box or a failure runs into the end."""
    last_line = result.boxes[-1][5] if result.boxes else 0
    limit = len(result.boxes) + MAX_SCANNED_BOXES
    while True:
        if len(result.boxes) >= limit:
            result.truncated = True  # a file no labelling tool writes: the rest is not read
            return
        start = _SPACE.match(data, position).end()  # type: ignore[union-attr]
        line += data.count(b"\n", position, start)
        box, end = _one_box(data, start)
        if cut and _NUMBER_TAIL.fullmatch(data, end):
            return  # a number may go on past the cut: neither this box nor a stop is known
        if box is None:
            if start < len(data):
                text = data[start:start + 200].split(b"\n", 1)[0][:40]
                result.stop = (line, text.decode("utf-8", "backslashreplace"))
            return
        end_line = line + data.count(b"\n", start, end)
        if result.drift is None and (end_line != line or line == last_line):
            result.drift = line
        result.boxes.append((*box, line))
        position, line, last_line = end, end_line, end_line


def _one_box(data: bytes, position: int) -> tuple[tuple[int, float, float, float, float] | None,
                                                  int]:
    """One box's five conversions from ``position`` (white space skipped already), or None
    when one fails."""
    found = _INT.match(data, position)
    if found is None:
        return None, position
    values: list[float] = []
    position = found.end()
    for _ in range(4):
        position = _SPACE.match(data, position).end()  # type: ignore[union-attr]
        number = _FLOAT.match(data, position)
        if number is None:
            return None, position
        values.append(_c_float(number[0]))
        position = number.end()
    return (_c_int(found[0]), values[0], values[1], values[2], values[3]), position


def _c_int(text: bytes) -> int:
    """``%d``: strtol's value (clamped to a long), stored in an int (wrapped)."""
    value = max(_LONG_MIN, min(_LONG_MAX, int(text)))
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value > _INT_MAX else value


def _c_float(text: bytes) -> float:
    lowered = text.lower()
    sign = -1.0 if lowered.startswith(b"-") else 1.0
    body = lowered.lstrip(b"+-")
    if body.startswith(b"0x"):
        return sign * float.fromhex(body.decode())
    if body.startswith(b"inf"):
        return sign * float("inf")
    if body.startswith(b"nan"):
        return float("nan")
    return float(text)


def _read_bounded(path: str) -> tuple[bytes, int]:
    """At most MAX_LABEL_BYTES of a regular file, and its size."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _error(exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise LabelError("unreadable", _kind_of(info.st_mode))
        wanted = min(info.st_size, MAX_LABEL_BYTES)
        data = os.read(fd, wanted + 1) if wanted < MAX_LABEL_BYTES else b""
        if len(data) > wanted or wanted == MAX_LABEL_BYTES:  # it grew, or it is large
            chunks = [data]
            budget = MAX_LABEL_BYTES - len(data)
            while budget > 0:
                chunk = os.read(fd, min(budget, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                budget -= len(chunk)
            data = b"".join(chunks)[:MAX_LABEL_BYTES]
        return data, max(info.st_size, len(data))
    except OSError as exc:
        raise _error(exc) from None
    finally:
        os.close(fd)


def _error(exc: OSError) -> LabelError:
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return LabelError("missing", "no such file")
    if exc.errno == errno.ELOOP:
        return LabelError("unreadable", "a symbolic link loop")
    if exc.errno == errno.EACCES:
        return LabelError("unreadable", "permission denied")
    if exc.errno == errno.ENAMETOOLONG:
        return LabelError("missing", "the path is longer than the system allows")
    return LabelError("unreadable", exc.strerror or str(exc))


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
