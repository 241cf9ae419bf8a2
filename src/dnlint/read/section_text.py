"""A section's text that the reader read once and makes again (:class:`SectionText`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class SectionText:
    """A section's text (from its ``[`` up to the next line that starts with ``[``) that the
    reader read without a finding, as plain ``key=value`` lines, comments and blank lines, and
    what it made of it, lines counted from the header: each later section of the same text is
    made from this, not read again, and shares it (:attr:`Section.text`). ``memo`` holds what
    later stages worked out from the text alone (its typing by table, its dialect votes), by
    their own keys."""

    __slots__ = ("comments", "height", "memo", "name", "options")

    def __init__(self, name: str, options: tuple[tuple[str, str, int], ...],
                 comments: tuple[tuple[int, str], ...], height: int) -> None:
        self.name = name
        self.options = options  # (key, value, line - header line), in file order
        self.comments = comments  # (line - header line, stripped text)
        self.height = height  # its lines, the header's included
        self.memo: dict[object, Any] = {}
