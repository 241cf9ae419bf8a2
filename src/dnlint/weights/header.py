"""The .weights header: major, minor, revision (int32 each) and ``seen`` (4 or 8 bytes).

Mirrors the first lines of ``load_weights_upto`` (src/parser.c) of each fork: the width of
``seen`` is decided from ``major*10 + minor`` computed in 32-bit int, and the original Darknet
additionally wants both below 1000.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from dnlint.dialects import Dialect

VERSION_BYTES = 12
# What every fork's save_weights writes: three int32 and an 8-byte seen.
WRITTEN_HEADER_BYTES = 20
# Beyond these a header is not a version number but someone else's bytes (see is_absurd).
_MAX_VERSION = 2000
_MAX_REVISION = 100_000


def _int32(value: int) -> int:
    """Wrap to a C int32, as ``major*10 + minor`` does for absurd headers."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def seen_bytes(major: int, minor: int, dialect: Dialect) -> int:
    """How many bytes of ``seen`` ``dialect`` reads after this version (load_weights_upto)."""
    big = _int32(major * 10 + minor) >= 2
    if dialect is Dialect.PJ:
        big = big and major < 1000 and minor < 1000
    return 8 if big else 4


def transposes(major: int, minor: int) -> bool:
    """All forks transpose connected matrices after reading when this holds."""
    return major > 1000 or minor > 1000


@dataclass(frozen=True)
class Header:
    """A header as ``dialect`` reads it. ``complete`` is False when the file ends inside it."""

    major: int
    minor: int
    revision: int
    seen: int
    seen_bytes: int
    complete: bool = True

    @property
    def size(self) -> int:
        return VERSION_BYTES + self.seen_bytes

    @property
    def transpose(self) -> bool:
        return transposes(self.major, self.minor)

    @property
    def version(self) -> str:
        return f"{self.major}.{self.minor}.{self.revision}"

    def is_negative(self) -> bool:
        return min(self.major, self.minor, self.revision) < 0

    def is_absurd(self) -> bool:
        """No Darknet writer produces this: far beyond 0.2.x and its +1000 'transposed' form."""
        return (
            self.is_negative()
            or self.major > _MAX_VERSION
            or self.minor > _MAX_VERSION
            or self.revision > _MAX_REVISION
        )

    def forks_disagree(self) -> bool:
        """The original Darknet and AlexeyAB's read a different seen width (W8)."""
        return seen_bytes(self.major, self.minor, Dialect.PJ) != seen_bytes(
            self.major, self.minor, Dialect.AB
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "major": self.major,
            "minor": self.minor,
            "revision": self.revision,
            "seen": self.seen,
        }


def parse_header(head: bytes, dialect: Dialect) -> Header | None:
    """Decode the header from the first bytes of a file; ``None`` when under 12 bytes."""
    if len(head) < VERSION_BYTES:
        return None
    major, minor, revision = struct.unpack_from("<iii", head)
    width = seen_bytes(major, minor, dialect)
    raw = head[VERSION_BYTES : VERSION_BYTES + width]
    complete = len(raw) == width
    seen = int.from_bytes(raw, "little") if complete else 0
    return Header(major, minor, revision, seen, width, complete)
