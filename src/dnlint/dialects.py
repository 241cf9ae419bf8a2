"""The three Darknet code bases dnlint models, and how users name them."""

from __future__ import annotations

from dnlint.strenum import StrEnum, define

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class Dialect(StrEnum):
    PJ: ClassVar[Dialect]
    AB: ClassVar[Dialect]
    HANK: ClassVar[Dialect]

    @property
    def label(self) -> str:
        return _LABELS[self.value]


define(Dialect, PJ="pjreddie", AB="alexeyab", HANK="hank")
_LABELS = {
    "pjreddie": "the original Darknet (pjreddie)",
    "alexeyab": "AlexeyAB's Darknet",
    "hank": "hank-ai's Darknet",
}


ALL = frozenset(Dialect)
PJ_ONLY = frozenset({Dialect.PJ})
AB_AND_HANK = frozenset({Dialect.AB, Dialect.HANK})
AB_ONLY = frozenset({Dialect.AB})
PJ_AND_AB = frozenset({Dialect.PJ, Dialect.AB})

ALIASES: dict[str, Dialect | None] = {
    "pjreddie": Dialect.PJ,
    "pj": Dialect.PJ,
    "original": Dialect.PJ,
    "alexeyab": Dialect.AB,
    "ab": Dialect.AB,
    "hank": Dialect.HANK,
    "hank-ai": Dialect.HANK,
    "auto": None,
}


def parse_dialect(name: str) -> Dialect | None:
    """``None`` means auto-detect. Raises ``ValueError`` for an unknown name."""
    try:
        return ALIASES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown dialect {name!r}; use one of {', '.join(ALIASES)}") from None


def names(dialects: frozenset[Dialect]) -> str:
    return " and ".join(d.label for d in sorted(dialects, key=lambda d: d.value))
