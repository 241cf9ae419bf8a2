"""How the document keeps what a long or hostile file has many of: line numbers packed into an
array past a size, and equal short strings shared (stage 1's storage, used by
:mod:`dnlint.read.document` and :mod:`dnlint.read.structure`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from typing import Final

PACK_AFTER = 4096  # sections whose header lines Sections keeps in a list


def packed(lines: list[int] | array[int]) -> list[int] | array[int]:
    """``lines``, moved to an array('L') once there are PACK_AFTER of them (8 bytes a line, not
    an int object's 36): only a long file pays for the array module's import, which imports
    collections (start-up). ('L': array('q') parses every item it stores through PyArg_Parse,
    several times the cost.)"""
    if len(lines) >= PACK_AFTER and isinstance(lines, list):
        from array import array

        return array("L", lines)
    return lines


def shared_text(table: dict[str, str], text: str) -> str:
    """``text``, or the equal string ``table`` holds: a file of one line repeated a million
    times would keep as many copies. ``table`` is bounded (SHARED_TEXTS_MAX entries)."""
    known = table.get(text)
    if known is not None:
        return known
    if len(table) < SHARED_TEXTS_MAX:
        table[text] = text
    return text


SHARED_TEXTS_MAX: Final = 4096
