"""A train= or valid= list as get_paths reads it: one path per fgetl line, bytes as they are.

What breaks every path of a list at once is its encoding: a UTF-8 byte order mark glues three
bytes to the first path, and UTF-16 or UTF-32 text puts a zero byte in every path, which C
strings end at. ``encoding_problem`` looks at the first bytes only.
"""

from __future__ import annotations

import os
from pathlib import Path

from dnlint.checks.data_file import list_lines

BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
)
UTF8_BOM = b"\xef\xbb\xbf"


def head(path: str, size: int = 4096) -> bytes:
    """The first ``size`` bytes of a file already known to be regular."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


def encoding_problem(first: bytes) -> tuple[str, bool] | None:
    """(what the list is, whether every path is garbage) or None for plain bytes."""
    for mark, name in BOMS:
        if first.startswith(mark):
            return f"{name} text with a byte order mark", True
    if first.startswith(UTF8_BOM):
        return "a UTF-8 byte order mark", False
    if b"\x00" in first:
        if first.count(0) * 3 > len(first):
            return "UTF-16 or UTF-32 text (no byte order mark)", True
        return "not text (it holds zero bytes)", True
    return None


def text_of(raw: bytes, keeps_cr: bool) -> str:
    """A list line as the dialect's fgetl returns it (AlexeyAB's and hank-ai's drop a \\r
    before the \\n; the original keeps it)."""
    if not keeps_cr and raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw.decode("utf-8", "surrogateescape")


def first_lines(path: Path, keeps_cr: bool, limit: int) -> list[str]:
    """The first ``limit`` lines of a text file as fgetl gives them."""
    out: list[str] = []
    for _, raw, _ in list_lines(path):
        if len(out) >= limit:
            break
        out.append(text_of(raw, keeps_cr))
    return out


def exists(path: str) -> bool:
    """Whether ``path`` names something fopen could open (stat succeeds)."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True
