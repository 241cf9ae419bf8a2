"""The ``--layers`` tables without colour, written as text: byte for byte what rich prints for
them (``Table`` at a console 200 cells wide, no colour), at a small part of its cost per row
(rich measured, padded and cropped every cell: 0.8 ms a row, a 10,000-layer table 8 s).

Only the simple case is written here: every cell one line of plain ASCII that fits, the
whole table within the console's width (the title and caption are wrapped and centred as
rich does). Anything else (:func:`render` returns ``None``) is left to rich.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from dnlint.weights.layout import WeightsReport
from dnlint.weights.render import OFFSET_COLUMNS, OFFSET_RIGHT, offset_rows, summary_lines

WIDTH: Final = 200  # the console width the reporters give rich without colour
# rich's HEAVY_HEAD box: top, header row, header separator, row, bottom (left, fill, cross,
# right)
TOP: Final = ("┏", "━", "┳", "┓")
HEAD_ROW: Final = ("┃", " ", "┃", "┃")
HEAD_SEPARATOR: Final = ("┡", "━", "╇", "┩")
ROW: Final = ("│", " ", "│", "│")
BOTTOM: Final = ("└", "─", "┴", "┘")
_WORD = re.compile(r"\s*\S+\s*")
_PLAIN = re.compile(r"[ -~≈]*")  # printable ASCII, and '≈', one cell each as rich counts them


def simple(text: str) -> bool:
    """One line that rich measures as one cell a character."""
    return _PLAIN.fullmatch(text) is not None


def _cell(text: str) -> bool:
    """A cell rich draws as it is: :func:`simple`, with no space at either end (rich strips
    some of them, depending on the justification)."""
    return _PLAIN.fullmatch(text) is not None and text.strip() == text


def _widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int] | None:
    """Each column's width (its widest cell), or ``None`` when a cell needs rich."""
    if not all(_cell(cell) for row in (header, *rows) for cell in row):
        return None
    widths = [len(name) for name in header]
    for row in rows:
        for i, cell in enumerate(row):
            if len(cell) > widths[i]:
                widths[i] = len(cell)
    return widths


def boxed(title: str, header: Sequence[str], right: Sequence[bool],
          rows: Sequence[Sequence[str]], caption: str) -> str | None:
    """A ``Table(title=..., caption=...)`` with rich's default box and padding, or ``None``
    when rich must draw it. ``right``: which columns are right-justified."""
    if not rows or not all(map(simple, (title, *caption.split("\n"), *header))):
        return None
    widths = _widths(header, rows)
    if widths is None:
        return None
    table_width = sum(widths) + 3 * len(widths) + 1
    if table_width > WIDTH:
        return None
    lines = centred(title, table_width)
    if lines is None:
        return None
    lines.append(_rule(TOP, widths))
    lines.append(_row(HEAD_ROW, header, widths, right))
    lines.append(_rule(HEAD_SEPARATOR, widths))
    lines.extend(_row(ROW, row, widths, right) for row in rows)
    lines.append(_rule(BOTTOM, widths))
    under = centred(caption, table_width)
    if under is None:
        return None
    lines.extend(under)
    return "".join(line + "\n" for line in lines)


def unboxed(header: Sequence[str], right: Sequence[bool], rows: Sequence[Sequence[str]]
            ) -> str | None:
    """A ``Table(box=None, pad_edge=False)``, or ``None`` when rich must draw it."""
    if not rows or not all(map(simple, header)):
        return None
    widths = _widths(header, rows)
    if widths is None:
        return None
    if sum(widths) + 2 * (len(widths) - 1) > WIDTH:
        return None
    out = []
    for row in (header, *rows):
        cells = [cell.rjust(width) if flush else cell.ljust(width)
                 for cell, width, flush in zip(row, widths, right, strict=True)]
        out.append("  ".join(cells) + "\n")
    return "".join(out)


def _rule(box: tuple[str, str, str, str], widths: Sequence[int]) -> str:
    left, fill, cross, end = box
    return left + cross.join(fill * (width + 2) for width in widths) + end


def _row(box: tuple[str, str, str, str], cells: Sequence[str], widths: Sequence[int],
         right: Sequence[bool]) -> str:
    left, _, cross, end = box
    return left + cross.join(
        " " + (cell.rjust(width) if flush else cell.ljust(width)) + " "
        for cell, width, flush in zip(cells, widths, right, strict=True)) + end


def centred(text: str, width: int) -> list[str] | None:
    """``text`` wrapped at ``width`` and each line centred, as rich's ``Text.wrap`` with
    ``justify="center"`` does; ``None`` for a word longer than the width (rich folds it) or
    a blank line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        pieces = _divide(paragraph, width) if paragraph.strip() else None
        if pieces is None:
            return None
        for piece in pieces:
            piece = piece.rstrip()
            left = (width - len(piece)) // 2
            lines.append((" " * left + piece).ljust(width))
    return lines


def _divide(text: str, width: int) -> list[str] | None:
    """rich's ``divide_line``: break before each word that does not fit the line."""
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            return None
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    bounds = [0, *breaks, len(text)]
    return [text[a:b] for a, b in pairwise(bounds)]


def plain_weights(report: WeightsReport) -> str | None:
    """``render_weights(report, console, show_layers=True)`` as rich prints it without colour
    on a console 200 cells wide, written as text; ``None`` when rich must draw it (a line it
    would wrap, a cell that is not plain ASCII)."""
    lines = summary_lines(report)
    if not all(len(line) <= WIDTH and simple(line) for line in lines):
        return None
    table = unboxed(OFFSET_COLUMNS, OFFSET_RIGHT, offset_rows(report))
    if table is None:
        return None
    return "".join(line + "\n" for line in lines) + table
