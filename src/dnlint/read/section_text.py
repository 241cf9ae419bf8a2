"""A section's text that the reader read once and makes again (:class:`SectionText`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# An option as reading its line made it: key, value, line - header line, and for a line that
# is not a plain 'key=value' (blanks around '=', an inline comment) where its parts stand
# (Unplain's column, value_column, raw and comment_at)
MadeOption = tuple[str, str, int, "tuple[int, int, str, int] | None"]


class SectionText:
    """A section's text (from its ``[`` up to the next line that starts with ``[``) that the
    reader read without a finding, as ``key=value`` lines (each key once), comments and blank
    lines, and what it made of it, lines counted from the header: each later section of the
    same text is made from this, not read again, and shares it (:attr:`Section.text`).
    ``memo`` holds what later stages worked out from the text alone (its typing by table, its
    dialect votes), by their own keys."""

    __slots__ = ("comments", "height", "memo", "name", "options")

    def __init__(self, name: str, options: tuple[MadeOption, ...],
                 comments: tuple[tuple[int, str], ...], height: int) -> None:
        self.name = name
        self.options = options  # in file order
        self.comments = comments  # (line - header line, stripped text)
        self.height = height  # its lines, the header's included
        self.memo: dict[object, Any] = {}
