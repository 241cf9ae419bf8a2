"""Stage 2 for ``--dialect hank``: typed options as hank-ai's ``CfgSection::find_*`` read them.

:func:`dnlint.options.convert.type_section` hands every option of a hank-ai cfg to
:func:`convert_hank` (its plain-decimal fast path is off for hank: integers pass through a C
float there). Every refusal quotes the message ``darknet_fatal_error`` prints
(src-lib/darknet_cfg.cpp and darknet_enums.cpp, commit f684e1d).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from dnlint.cnumbers import (
    INT32_MIN,
    hank_float,
    hank_int,
    hank_list,
    hank_stof,
    is_hank_number,
    is_plain_float,
    is_plain_int,
    stof_prefix,
)
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect, names
from dnlint.options.list_items import extra_comma_at, report_items
from dnlint.options.schema import Kind, Opt
from dnlint.options.value_checks import check_range, suggest
from dnlint.read.darknet_reader import Option, Section

# the noun each get_*_from_name uses in its 'is not supported' message, by option name
_ENUM_NOUNS = {
    "activation": "activation name",
    "policy": "learning rate policy",
    "iou_loss": "IoU loss",
    "iou_thresh_kind": "IoU loss",
    "nms_kind": "NMS kind",
    "weights_type": "weights type",
    "weights_normalization": "weights normalization",
    "type": "cost type",
    "yolo_point": "YOLO point type",
}
_ITEM_SEPARATORS = re.compile(r"[ \t]+")


def hank_line(option: Option) -> str:
    """The line as hank quotes it: trimmed at both ends."""
    return option.raw.strip(" \t\r\n")


def convert_hank(option: Option, spec: Opt, sink: Sink) -> Any:
    kind = spec.kind
    if kind is Kind.INT or kind is Kind.REF:
        number = _small_int(option.value or "")
        if number is None:
            return _convert_int(option, spec, sink)
        check_range(option, spec, number, sink)
        return number
    if kind is Kind.FLOAT:
        number_f = _short_decimal(option.value or "")
        if number_f is None:
            return _convert_float(option, spec, sink)
        check_range(option, spec, number_f, sink)
        return number_f
    if spec.is_list:
        return _convert_list(option, kind is Kind.FLOAT_LIST, sink)
    value = option.value or ""
    choices = spec.choices_for(Dialect.HANK)
    if choices is not None and value not in choices:
        _unknown_choice(option, value, spec, choices, sink)
    return value


def _small_int(value: str) -> int | None:
    """``16``, ``-1``: fewer than 8 digits, exact in a C float, so read as written."""
    digits = value[1:] if value[:1] == "-" else value
    if digits.isdigit() and len(digits) < 8 and digits.isascii():
        return int(value)
    return None


def _short_decimal(value: str) -> float | None:
    """``0.001``, ``-5``: a plain decimal short enough to be far from the float limits."""
    digits = value[1:] if value[:1] == "-" else value
    if len(value) < 30 and digits.replace(".", "", 1).isdigit() and digits.isascii():
        return float(value)
    return None


def _not_numeric(option: Option, sink: Sink) -> None:
    sink.report(
        "DN213", option.line, option.value_column,
        f"{option.key}={option.value}: hank-ai's Darknet accepts only the characters "
        f"'-.0123456789' in numbers and stops: 'key \"{option.key}\" on line #{option.line} "
        f"should be numeric, but found \"{option.value}\"'",
        "write the number in plain decimal notation")


def _trailing_text(option: Option, reads: str, sink: Sink) -> None:
    sink.report(
        "DN204", option.line, option.value_column,
        f"{option.key}={option.value}: hank-ai's std::stof reads only the leading '{reads}' and "
        "ignores the rest without a word",
        f"write {option.key}={reads}")


def _convert_int(option: Option, spec: Opt, sink: Sink) -> int:
    value = option.value or ""
    result = hank_int(value)
    if result is None:
        if is_hank_number(value):
            return 0  # std::stof threw while the file was read (DN213 from the reader)
        _not_numeric(option, sink)
        return 0
    prefix = stof_prefix(value)
    narrowed = hank_float(value) or 0.0
    if prefix != value:
        _trailing_text(option, prefix, sink)
    elif narrowed != int(narrowed):
        sink.report(
            "DN205", option.line, option.value_column,
            f"{option.key}={value} is not an integer; hank-ai's Darknet prints 'expected an "
            f"integer for \"{option.key}\" on line #{option.line}' and uses {result}",
            f"write {option.key}={result}")
    elif result == INT32_MIN and narrowed != INT32_MIN:
        sink.report("DN206", option.line, option.value_column,
                    f"{option.key}={value} does not fit a 32-bit C int (hank-ai's cast from "
                    f"float gives {result})")
        return result
    elif is_plain_int(value) and int(value) != result:
        sink.report("DN206", option.line, option.value_column,
                    f"{option.key}={value}: hank-ai's Darknet reads integers through a C float, "
                    f"which turns {value} into {result}")
    check_range(option, spec, result, sink)
    return result


def _convert_float(option: Option, spec: Opt, sink: Sink) -> float:
    value = option.value or ""
    if not is_hank_number(value):
        _not_numeric(option, sink)
        return 0.0
    number = hank_stof(value)
    if number is None:
        return 0.0  # std::stof threw while the file was read (DN213 from the reader)
    prefix = stof_prefix(value)
    if prefix != value:
        _trailing_text(option, prefix, sink)
    check_range(option, spec, number, sink)
    return number


def _convert_list(option: Option, is_float: bool, sink: Sink) -> list[Any]:
    value = option.value or ""
    items, stopped_at = hank_list(value, is_float)
    if stopped_at is not None:
        sink.report(
            "DN214", option.line, option.value_column,
            f"{option.key}: hank-ai's Darknet cannot read '{stopped_at}' and silently ends the "
            f"list there, keeping {len(items)} item(s) {items}",
            "write plain decimal numbers separated by commas")
        return list(items)
    _check_items(option, value, is_float, sink)
    return list(items)


def _report_split_items(option: Option, found: list[tuple[int, str]], is_float: bool,
                        sink: Sink) -> None:
    """One DN214 naming every item hank reads as other items (each root once, not one each),
    from the first of them to the last as written (``found``: (index, item))."""
    bad = [item for _, item in found]
    if len(bad) == 1:
        reads, _ = hank_list(bad[0], is_float)
        message = (f"item '{bad[0]}' of {option.key}: hank-ai's Darknet reads it as "
                   f"{len(reads)} item(s) {reads}")
    else:
        shown = "; ".join(f"'{item}' as {hank_list(item, is_float)[0]}" for item in bad[:8])
        more = f"; and {len(bad) - 8} more" if len(bad) > 8 else ""
        names = ", ".join(f"'{item}'" for item in bad[:8]) + (", ..." if len(bad) > 8 else "")
        message = (f"items {names} of {option.key}: hank-ai's Darknet splits them into other "
                   f"items ({shown}{more})")
    report_items(option, found[0][0], found[-1][0], sink, "DN214", message,
                     "write plain decimal numbers")


def _check_items(option: Option, value: str, is_float: bool, sink: Sink) -> None:
    """Items hank reads differently from what they say, then the separators other forks read
    differently (whitespace between numbers, empty items: warnings, hank reads them right)."""
    pieces = value.split(",")
    is_plain = is_plain_float if is_float else is_plain_int
    bad = [(index, item) for index, piece in enumerate(pieces)
           for item in _ITEM_SEPARATORS.split(piece.strip(" \t"))
           if item and not _reads_as_written(item, is_plain, is_float)]
    if bad:
        _report_split_items(option, bad, is_float, sink)
        return
    for index, piece in enumerate(pieces):
        inner = piece.strip(" \t")
        if inner == "" and len(pieces) > 1:
            trailing = index == len(pieces) - 1
            column, end = extra_comma_at(option, index)
            sink.report(
                "DN209" if trailing else "DN208", option.line, column,
                f"{option.key}={value} has {'a trailing comma' if trailing else 'an empty item'}:"
                " hank-ai's Darknet skips it, but AlexeyAB's and the original read an extra 0",
                "remove the extra comma", severity=Severity.WARNING, end=end)
            return
        if _ITEM_SEPARATORS.search(inner):
            left, right = _ITEM_SEPARATORS.split(inner)[:2]
            report_items(
                option, index, index, sink, "DN028",
                f"'{left} {right}' in {option.key}: hank-ai's Darknet reads two numbers, but "
                f"AlexeyAB's and the original delete the space and read '{left}{right}'",
                f"write '{left},{right}'", Severity.WARNING)
            return



def _reads_as_written(item: str, is_plain: Callable[[str], bool], is_float: bool) -> bool:
    if not is_plain(item):
        return False
    reads, stopped = hank_list(item, is_float)
    return stopped is None and len(reads) == 1 and reads[0] == (
        float(item) if is_float else int(item))


def _unknown_choice(
    option: Option, value: str, spec: Opt, choices: frozenset[str], sink: Sink
) -> None:
    noun = _ENUM_NOUNS.get(option.key, option.key)
    hint = suggest(value, choices)
    sink.report(
        "DN207", option.line, option.value_column,
        f"unknown {option.key} '{value}': hank-ai's Darknet stops: '{noun} \"{value}\" is not "
        "supported'",
        f"did you mean '{hint}'?" if hint else f"one of: {', '.join(sorted(choices))}")


def unknown_hank(
    option: Option, section: Section, specs: Mapping[str, Opt], foreign: Mapping[str, Opt],
    sink: Sink,
) -> None:
    """A key hank never reads: ``find_unused_lines`` stops the program."""
    other = foreign.get(option.key)
    quoted = (f"hank-ai's Darknet stops: 'config line #{option.line} from section "
              f"[{section.name}] is unused or invalid: {hank_line(option)}'")
    if other is not None:
        sink.report("DN202", option.line, option.column,
                    f"'{option.key}' is read by {names(other.dialects)} only; {quoted}",
                    "remove the option (or check the cfg with the dialect it is for)")
        return
    hint = suggest(option.key, specs) if sink.detailed("DN201") else None
    sink.report("DN201", option.line, option.column, f"unknown option '{option.key}' in "
                f"[{section.name}]; {quoted}", f"did you mean '{hint}'?" if hint else None)

