"""The items of a list option (``anchors=``, ``layers=``, ``steps=``): which are bad, where
each one is on its line, and the findings that span them. Shared by the readings of every
dialect (:mod:`dnlint.options.convert`, :mod:`dnlint.options.hank_convert`)."""

from __future__ import annotations

from dnlint.cnumbers import (
    c_atof,
    c_atoi,
    comma_items,
    fits_c_float,
    is_plain_float,
    is_plain_int,
)
from dnlint.diagnostics import Severity, Sink
from dnlint.read.darknet_reader import Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

MAX_ITEMS_SHOWN = 8  # bad list items quoted in one message
# A number with a zero fraction ('1600.0', '16.'): atoi (and hank-ai's stof) reads it exactly.
# Compiled when first used (re's cache), as a clean run never needs it.
ZERO_FRACTION = r"[+-]?([0-9]+\.0*|\.0+)\Z"


def check_list_items(
    option: Option, body: str, is_float: bool, is_ref: bool, sink: Sink
) -> None:
    is_plain = is_plain_float if is_float else is_plain_int
    bad: list[tuple[int, str]] = []
    for index, piece in enumerate(comma_items(body)):  # lazily: a list line can be megabytes
        if piece and not is_plain(piece):
            bad.append((index, piece))
        elif piece == "":
            trailing = index > 0 and index == body.count(",")  # the last piece
            column, end = extra_comma_at(option, index)
            sink.report(
                "DN209" if trailing else "DN208",
                option.line,
                column,
                f"{option.key}={body} has {'a trailing comma' if trailing else 'an empty item'}; "
                "Darknet reads the empty item as 0"
                + (" (as a layer reference: absolute layer 0)" if is_ref else ""),
                "remove the extra comma",
                None,
                end,
            )
            return
    if bad:
        _report_bad_items(option, bad, is_float, sink)
        return
    if is_float:
        overflowing = [piece for piece in comma_items(body) if not fits_c_float(c_atof(piece))]
        if overflowing:
            sink.report("DN206", option.line, option.value_column,
                        f"{_quoted(overflowing)} of {option.key} overflow"
                        f"{'s' if len(overflowing) == 1 else ''} a C float (Darknet stores inf)")


def _comma_column(option: Option, count: int) -> int:
    """The column of the ``count``-th comma (1-based) of the option's value as written: the
    extra comma a DN208/DN209 finding points at (the value's column when it is not found)."""
    raw = option.raw
    at = option.value_column - 2
    for _ in range(count):
        at = raw.find(",", at + 1)
        if at < 0:
            return option.value_column
    return at + 1


def extra_comma_at(option: Option, index: int) -> tuple[int, tuple[int, int] | None]:
    """Where a DN208/DN209 finding about the empty item ``index`` (0-based) points: the comma
    that makes it (the first for an empty first item), one character; the value's start (and
    no end of its own) when that comma is not found."""
    column = _comma_column(option, max(index, 1))
    return column, (option.line, column + 1) if column != option.value_column else None


def item_span(option: Option, first: int, last: int | None = None) -> tuple[int, int, int] | None:
    """(line, column, end column) of items ``first`` to ``last`` (0-based, inclusive; ``last``
    defaults to ``first``) of the list ``option`` as written, the end exclusive. An item runs
    to its comma (``1 2`` is one item to AlexeyAB's reader), without the blanks around it.
    None when an item is not there or the last one is empty. Reads the line once, up to the
    last item (never a list of its pieces: a line can be megabytes)."""
    last = first if last is None else last
    if first < 0 or last < first:
        return None
    raw = option.raw
    start = _item_start(raw, option.value_column - 1, first)
    at = _item_start(raw, start, last - first) if start >= 0 else -1
    if at < 0:
        return None
    stop = at
    while stop < len(raw) and raw[stop] not in ",#;":
        stop += 1
    while stop > at and raw[stop - 1] in " \t":
        stop -= 1
    if stop == at:
        return None
    return option.line, start + 1, stop + 1


def _item_start(raw: str, at: int, skip: int) -> int:
    """The index in ``raw`` of the item ``skip`` commas on from index ``at``, past its leading
    blanks; -1 when the line has fewer commas."""
    for _ in range(skip):
        at = raw.find(",", at)
        if at < 0:
            return -1
        at += 1
    while at < len(raw) and raw[at] in " \t":
        at += 1
    return at


def _report_bad_items(option: Option, bad: list[tuple[int, str]], is_float: bool,
                      sink: Sink) -> None:
    """Every bad item of a list (with its index), in at most two findings: items Darknet cannot
    read or whose value it changes (an error), and integers written with a zero fraction (read
    exactly); each finding spans its items, from the first to the last."""
    convert: Callable[[str], float] = c_atof if is_float else c_atoi
    import re  # here: a clean run imports no re (start-up)
    exact = [] if is_float else [(i, piece) for i, piece in bad if re.match(ZERO_FRACTION, piece)]
    exact_at = {i for i, _ in exact}
    fractions = [] if is_float else [(i, piece) for i, piece in bad if i not in exact_at
                                     and is_plain_float(piece)]
    fraction_at = {i for i, _ in fractions}
    others = [(i, piece) for i, piece in bad if i not in exact_at and i not in fraction_at]
    if others:
        kind = "numbers" if is_float else "integers"
        texts = [piece for _, piece in others]
        _report_among(others, option, sink, "DN203",
                      f"{_quoted(texts)} of {option.key} {_is(texts)} not "
                      f"{kind if len(texts) > 1 else 'a' + 'n' * (not is_float) + ' ' + kind[:-1]}"
                      f"; Darknet reads {_reads(texts, convert)}")
    exact_texts = [piece for _, piece in exact]
    if fractions:
        texts = [piece for _, piece in fractions]
        also = f" (and {_quoted(exact_texts)} exactly)" if exact else ""
        _report_among(sorted(fractions + exact), option, sink, "DN205",
                      f"{_quoted(texts)} of {option.key} {_is(texts)} not "
                      f"{'integers' if len(texts) > 1 else 'an integer'}; Darknet's atoi reads "
                      f"{_reads(texts, convert)}{also}", "write whole numbers")
    elif exact and not others:
        _report_among(exact, option, sink, "DN205",
                      f"{_quoted(exact_texts)} of {option.key} {_is(exact_texts)} written with a "
                      f"fraction; Darknet's atoi reads exactly {_reads(exact_texts, convert)}",
                      "write whole numbers", Severity.WARNING)


def _report_among(items: list[tuple[int, str]], option: Option, sink: Sink, code: str,
                  message: str, hint: str | None = None, severity: Severity | None = None) -> None:
    report_items(option, items[0][0], items[-1][0], sink, code, message, hint, severity)


def report_items(option: Option, first: int, last: int, sink: Sink, code: str, message: str,
                 hint: str | None = None, severity: Severity | None = None) -> None:
    """A finding about items ``first`` to ``last`` (0-based) of the list ``option``: from the
    first to the last as written (the value's start when they cannot be found there)."""
    span = item_span(option, first, last)
    if span is None:
        sink.report(code, option.line, option.value_column, message, hint, severity)
    else:
        line, column, end = span
        sink.report(code, line, column, message, hint, severity, (line, end))


def _reads(pieces: list[str], convert: Callable[[str], float]) -> str:
    shown = ", ".join(f"{convert(piece):g}" for piece in pieces[:MAX_ITEMS_SHOWN])
    return shown + (", ..." if len(pieces) > MAX_ITEMS_SHOWN else "")


def _quoted(pieces: list[str]) -> str:
    quoted = ", ".join(f"'{piece}'" for piece in pieces[:MAX_ITEMS_SHOWN])
    more = f" and {len(pieces) - MAX_ITEMS_SHOWN} more" if len(pieces) > MAX_ITEMS_SHOWN else ""
    return f"item{'s' if len(pieces) > 1 else ''} {quoted}{more}"


def _is(pieces: list[str]) -> str:
    return "are" if len(pieces) > 1 else "is"

