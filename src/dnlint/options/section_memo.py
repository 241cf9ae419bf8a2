"""Stage 2's memo: sections of one table and text share their typing.

94% of the stock corpus's sections repeat an earlier one word for word (``[convolutional]
batch_normalize=1 filters=64 size=3 stride=1 pad=1 activation=leaky``), and typing one cost
about as much as reading it. :func:`dnlint.options.convert.type_section` keeps what typing
found for a section that reported nothing and whose values are numbers, names or lists of
numbers: a later section of the same table and text is given the same values (each list a
copy of its own) and reports nothing either. Two ways find the earlier section: the
:class:`~dnlint.read.section_text.SectionText` the reader made both from (its ``memo``, by
table), or, for a section whose options are all ``key=value`` lines without an inline
comment, the text of its options (``_TYPED``, bounded by
:func:`~dnlint.options.value_checks.remember`, so a file of
unique sections grows it no further).
"""

from __future__ import annotations

from dnlint.options.value_checks import remember
from dnlint.read.darknet_reader import forget_texts
from dnlint.read.document import Option, Unplain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final


class Typed:
    """What typing a section found, for every section of the same table and text: the parsed
    value of each option in order (``keys``), the values by key, and, never when a value is a
    list (each section gets lists of its own), the merged values once a build has asked for
    them."""

    __slots__ = ("_by_key", "keys", "lists", "merged", "parsed")

    def __init__(self, keys: tuple[str, ...], parsed: list[Any], lists: bool) -> None:
        self.keys = keys
        self.parsed = parsed
        self.lists = lists  # whether a value is a list
        self.merged: dict[str, Any] | None = None
        self._by_key: dict[str, Any] | None = None

    def by_key(self) -> dict[str, Any]:
        """Each option's value by its key (shared: never to write)."""
        found = self._by_key
        if found is None:
            found = self._by_key = dict(zip(self.keys, self.parsed, strict=True))
        return found


# (table, key, value, key, value, ...) -> what typing that section found
_TYPED: Final[dict[tuple[Any, ...], Typed]] = {}


def text_of(options: dict[str, Option] | Option, table: object) -> tuple[Any, ...] | None:
    """The memo's key for a section's options read with ``table``, or None unless every one is
    a ``key=value`` line without an inline comment (a bare key, or a comment, which typing
    reads: findings). Where a line's parts stand (blanks around '=', indentation) only moves
    a finding, and a section that reports one is never kept."""
    text: list[Any] = [table]
    for option in (options.values() if isinstance(options, dict) else (options,)):
        value = option.value
        if value is None:
            return None
        more = option._more
        if type(more) is Unplain and more.comment_at >= 0:
            return None
        text.append(option.key)
        text.append(value)
    return tuple(text)


def typed_before(text: tuple[Any, ...]) -> Typed | None:
    return _TYPED.get(text)


def share_typing(options: dict[str, Option] | Option | None, typed: Typed) -> None:
    """Give each option the value typing found for its twin (a list copied)."""
    parsed = typed.parsed
    if type(options) is dict:
        if not typed.lists:
            for index, option in enumerate(options.values()):  # as many as parsed: same text
                more = option._more
                if type(more) is Unplain:
                    more.parsed = parsed[index]
                else:
                    option._more = parsed[index]  # Option.parsed of a plain option, inlined
            return
        for index, option in enumerate(options.values()):
            _give(option, parsed[index])
    elif isinstance(options, Option):
        _give(options, parsed[0])


def _give(option: Option, value: Any) -> None:
    if type(value) is list:
        value = value.copy()
    more = option._more
    if type(more) is Unplain:
        more.parsed = value
    else:
        option._more = value


def remember_typing(text: tuple[Any, ...] | None,
                    options: dict[str, Option] | Option | None) -> Typed | None:
    """What the options of a section just typed hold, kept under ``text`` (unless None);
    None (nothing kept) when a value is not a number, a name or a list of numbers, or an
    option was left unparsed."""
    parsed = []
    keys: list[str] = []
    lists = False
    for option in (options.values() if type(options) is dict
                   else (options,) if isinstance(options, Option) else ()):
        keys.append(option.key)
        value = option._more
        if type(value) is Unplain:
            value = value.parsed
        if type(value) is list:
            for item in value:
                if type(item) is not int and type(item) is not float:
                    return None
            value = value.copy()  # the section's own list may change: not the memo's
            lists = True
        elif type(value) is not int and type(value) is not float and type(value) is not str:
            return None
        parsed.append(value)
    typed = Typed(tuple(keys), parsed, lists)
    return typed if text is None else remember(_TYPED, text, typed)


def forget_typing() -> None:
    """Empty the memo and the reader's, whose section texts keep their typing (tests that
    count what is kept)."""
    _TYPED.clear()
    forget_texts()
