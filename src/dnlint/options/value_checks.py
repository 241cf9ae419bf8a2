"""Checks on one option value that every dialect's reader shares: the range a value must lie
in, and the option or section a misspelt name was probably meant to be."""

from __future__ import annotations

from dnlint.close_match import close_match
from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect, names
from dnlint.options.schema import Opt
from dnlint.read.darknet_reader import Option, Section

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping
    from typing import Final, TypeVar

    K = TypeVar("K", bound=Hashable)
    V = TypeVar("V")


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` was probably meant to be, or None."""
    return _suggest(word, tuple(candidates))


# the process's memos (functools' lru_cache is start-up, issue 35) are emptied when they hold
# MEMO_SIZE entries: remember() stores in one
MEMO_SIZE: Final = 1024
_SUGGESTIONS: dict[tuple[str, tuple[str, ...]], str | None] = {}


def remember(memo: dict[K, V], key: K, value: V) -> V:
    """``value`` stored in ``memo`` under ``key`` (the memo emptied first when full)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


def _suggest(word: str, pool: tuple[str, ...]) -> str | None:
    # cached: difflib over every section type made a file of a million unknown sections slow
    key = (word, pool)
    if key in _SUGGESTIONS:
        return _SUGGESTIONS[key]
    return remember(_SUGGESTIONS, key, _suggested(word, pool))


def _suggested(word: str, pool: tuple[str, ...]) -> str | None:
    lowered = {c.lower(): c for c in pool}
    if word.lower() in lowered:
        return lowered[word.lower()]
    match = close_match(word, pool)
    if match is not None:
        return match
    prefixed = [c for c in pool if c.startswith(word) or word.startswith(c)]
    return prefixed[0] if len(prefixed) == 1 and len(word) >= 3 else None


def check_range(option: Option, spec: Opt, result: float, sink: Sink) -> None:
    low, high = spec.min, spec.max
    if (low is not None and result < low) or (high is not None and result > high):
        bounds = _bounds(low, high)
        sink.report(
            "DN206",
            option.line,
            option.value_column,
            f"{option.key}={option.value} is out of range: {option.key} must be {bounds}",
            spec.doc or None,
        )


def _bounds(low: float | None, high: float | None) -> str:
    def fmt(x: float) -> str:
        return f"{x:g}"

    if low is not None and high is not None:
        return f"between {fmt(low)} and {fmt(high)}"
    if low is not None:
        return f">= {fmt(low)}"
    return f"<= {fmt(high or 0)}"


def report_unknown_option(
    option: Option,
    section: Section,
    specs: Mapping[str, Opt],
    other: Mapping[str, Opt],
    dialect: Dialect,
    sink: Sink,
) -> None:
    """DN202 for an option only another fork reads, else DN201 (with the declared option it
    was probably meant to be)."""
    foreign = other.get(option.key)
    if foreign is not None:
        sink.report(
            "DN202",
            option.line,
            option.column,
            f"'{option.key}' is read by {names(foreign.dialects)} only; {dialect.label} ignores "
            f"it in [{section.name}]",
            "choose the dialect this cfg is for with --dialect, or remove the option",
        )
        return
    hint = suggest(option.key, specs) if sink.detailed("DN201") else None
    sink.report(
        "DN201",
        option.line,
        option.column,
        f"unknown option '{option.key}' in [{section.name}]; Darknet ignores it",
        f"did you mean '{hint}'?" if hint else None,
    )


def report_unknown_choice(
    option: Option, value: str, spec: Opt, dialect: Dialect, choices: frozenset[str], sink: Sink
) -> None:
    """DN207: a name ``option`` may not hold in ``dialect`` (another fork's, or a misspelling)."""
    if option.comment_at > 0:
        return  # already reported as an inline comment that changes the value
    others = [d for d, c in (spec.choices or {}).items() if value in c and d is not dialect]
    if others:
        message = (
            f"{option.key}={value} exists only in {names(frozenset(others))}; "
            f"{dialect.label} does not know it"
        )
    else:
        message = f"unknown {option.key} '{value}'"
    fallback = spec.fallback or spec.default_for(dialect)
    if fallback is not None:
        message += f"; Darknet falls back to '{fallback}'"
    hint = suggest(value, choices)
    sink.report(
        "DN207",
        option.line,
        option.value_column,
        message,
        f"did you mean '{hint}'?" if hint else f"one of: {', '.join(sorted(choices))}",
    )
