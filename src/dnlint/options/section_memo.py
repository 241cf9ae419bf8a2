"""Stage 2's memo: sections of one table and text share their typing.

94% of the stock corpus's sections repeat an earlier one word for word (``[convolutional]
batch_normalize=1 filters=64 size=3 stride=1 pad=1 activation=leaky``), and typing one cost
about as much as reading it. :func:`dnlint.options.convert.type_section` keeps what typing
found for a section whose options are all plain ``key=value`` lines, that reported nothing and
whose values are numbers or names: a later section of the same table and text is given the
same values, reports nothing either, and shares no list anyone could change. The memo is
bounded (:func:`~dnlint.options.value_checks.remember`), so a file of unique sections grows
it no further.
"""

from __future__ import annotations

from dnlint.options.value_checks import remember
from dnlint.read.document import Option, Unplain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final


class Typed:
    """What typing a section found, for every section of the same table and text: the parsed
    value of each option in order, and the merged values once a build has asked for them."""

    __slots__ = ("merged", "parsed")

    def __init__(self, parsed: list[Any]) -> None:
        self.parsed = parsed
        self.merged: dict[str, Any] | None = None


# (table, key, value, key, value, ...) -> what typing that section found
_TYPED: Final[dict[tuple[Any, ...], Typed]] = {}


def text_of(options: dict[str, Option], table: object) -> tuple[Any, ...] | None:
    """The memo's key for a section's options read with ``table``, or None unless every one is
    a plain ``key=value`` line (a comment, whitespace or a bare key: findings with positions)."""
    text: list[Any] = [table]
    for key, option in options.items():
        value = option.value
        if value is None or type(option._more) is Unplain:
            return None
        text.append(key)
        text.append(value)
    return tuple(text)


def typed_before(text: tuple[Any, ...]) -> Typed | None:
    return _TYPED.get(text)


def share_typing(options: dict[str, Option], typed: Typed) -> None:
    """Give each option the value typing found for its twin."""
    parsed = typed.parsed
    for index, option in enumerate(options.values()):  # as many as parsed: the same text
        option._more = parsed[index]  # Option.parsed of a plain option, inlined


def remember_typing(text: tuple[Any, ...], options: dict[str, Option]) -> Typed | None:
    """What the options of a section just typed hold, kept under ``text``; None (not kept)
    when a value is a list or an option was left unparsed."""
    parsed = []
    for option in options.values():
        value = option._more
        if type(value) is not int and type(value) is not float and type(value) is not str:
            return None
        parsed.append(value)
    return remember(_TYPED, text, Typed(parsed))


def forget_typing() -> None:
    """Empty the memo (tests that count what it keeps)."""
    _TYPED.clear()
