"""What an inline comment does to a value (DN011, DN012): Darknet has none, so the text after
'#', ';' or '//' stays in the value, and a number or list may or may not read the same.

The careful path of :mod:`dnlint.options.convert` asks these once typing has found a comment
marker in a value (``Option.comment_at``).
"""

from __future__ import annotations

from dnlint.diagnostics import Sink
from dnlint.read.document import Option


def comment_prefix(option: Option, value: str) -> str | None:
    """The part of ``value`` before an inline comment, or ``None`` when there is none."""
    at = option.comment_at
    return value[:at] if at > 0 and at <= len(value) else None


def comment_column(option: Option) -> int:
    """The column of the marker ('#', ';' or '//') that starts ``option``'s inline comment."""
    raw = option.raw
    start = option.value_column - 1
    found = [p for p in (raw.find("#", start), raw.find(";", start), raw.find("//", start))
             if p > start]
    return min(found) + 1 if found else option.value_column


def comment_survives(option: Option, result: float, sink: Sink) -> None:
    sink.report(
        "DN012",
        option.line,
        comment_column(option),
        f"inline comment after {option.key}: Darknet has no inline comments and keeps "
        f"'{option.value}' as the value; the number still reads as {result:g}",
        "put the comment on a line of its own",
    )


def comment_breaks(option: Option, reads: str, sink: Sink) -> None:
    sink.report(
        "DN011",
        option.line,
        option.value_column,
        f"inline comment after {option.key}: Darknet has no inline comments and reads {reads}",
        "put the comment on a line of its own",
    )


def comment_survives_list(option: Option, sink: Sink) -> None:
    sink.report(
        "DN012",
        option.line,
        comment_column(option),
        f"inline comment after {option.key}: Darknet has no inline comments; the list still "
        "reads the same, but a comma in the comment would add items",
        "put the comment on a line of its own",
    )
