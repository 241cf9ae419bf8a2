"""hank-ai's reader, number and list getters and weights loader (darknet_cfg.cpp, weights.cpp at
f684e1d), one behaviour per test, each next to what AlexeyAB's reading gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import codes, lint_text
from dnlint.cnumbers import INT32_MIN, hank_int, hank_list, hank_stof, hank_stoi
from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.lint import FileResult
from dnlint.read import hank_reader
from dnlint.read.hank_reader import _header_end, _key_value, read_cfg_hank

HANK, AB = Dialect.HANK, Dialect.AB

NET = """\
[net]
width=32
height=32
channels=3

"""


def conv(body: str, dialect: Dialect = HANK) -> FileResult:
    return lint_text(NET + "[convolutional]\n" + body, dialect)


def first_layer(result: FileResult) -> tuple[str, int]:
    assert result.network is not None
    layer = result.network.layers[0]
    return layer.type, layer.params


def errors(result: FileResult) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in result.diagnostics if d.severity is Severity.ERROR]


# --- numbers: std::stof / find_int ------------------------------------------------------------
@pytest.mark.parametrize(("text", "value"), [
    ("1.2.3", 1.2), ("5-", 5.0), (".5", 0.5), ("-0.25", -0.25), ("7.", 7.0),
    ("-", None), (".", None), ("--1", None), ("-.", None), ("9" * 40, None),
    ("0." + "0" * 50 + "1", None),
])
def test_stof(text: str, value: float | None) -> None:
    assert hank_stof(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ("12", 12), ("-3", -3), ("4-5", 4), ("-", None), ("99999999999", None), ("2147483648", None),
    ("00000000000000000007", 7),
])
def test_stoi(text: str, value: int | None) -> None:
    assert hank_stoi(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ("16", 16), ("2.9", 2), ("-2.9", -2), ("16777217", 16777216), ("3000000000", INT32_MIN),
    ("1e3", None), ("+1", None), ("", None), ("0x10", None),
])
def test_find_int_goes_through_a_float(text: str, value: int | None) -> None:
    assert hank_int(text) == value


@pytest.mark.parametrize(("text", "is_float", "items", "stopped"), [
    ("61,45    61,45", False, [61, 45, 61, 45], None),
    ("1,,2,", False, [1, 2], None),
    ("0,1.5", False, [0, 1, 5], None),
    ("1e-4", True, [1.0, -4.0], None),
    ("1.5;2.5 3", True, [1.5, 2.5, 3.0], None),
    ("+1,x2", False, [1, 2], None),
    ("1,-,2", False, [1], "-"),
    ("1,99999999999,2", False, [1], "99999999999"),
    ("", True, [], None),
])
def test_number_lists(text: str, is_float: bool, items: list[float], stopped: str | None) -> None:
    assert hank_list(text, is_float) == (items, stopped)


def test_integer_through_float_is_reported() -> None:
    result = lint_text(NET.replace("width=32", "width=32\nmax_batches=16777217") +
                       "[convolutional]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN206", 3)]
    assert "turns 16777217 into 16777216" in result.diagnostics[0].message
    assert result.network is not None and result.network.net_values.int("max_batches") == 16777216


def test_exponent_is_not_a_number_for_hank() -> None:
    result = lint_text(NET.replace("channels=3", "channels=3\nlearning_rate=1e-4") +
                       "[convolutional]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN213", 5)]
    assert result.diagnostics[0].message.endswith(
        "stops: 'key \"learning_rate\" on line #5 should be numeric, but found \"1e-4\"'")


def test_unreadable_number_stops_the_reader_even_in_an_unread_key() -> None:
    result = conv("filters=8\nsize=3\nlearning_rate=-\n")
    assert codes(result) == [("DN213", 9)]
    assert "'line #9: failed to parse numeric value from \"learning_rate=-\"'" in (
        result.diagnostics[0].message)


def test_fraction_in_an_int_is_truncated() -> None:
    result = conv("filters=8.9\nsize=3\n")
    assert codes(result) == [("DN205", 7)]
    assert first_layer(result) == ("convolutional", 8 * 27 + 8)


# --- the lexer ----------------------------------------------------------------------------------
def test_line_without_equals_is_ignored_not_a_shadowing_key() -> None:
    body = "batch_normalize\nbatch_normalize=1\nfilters=8\nsize=3\n"
    hank, ab = conv(body), conv(body, AB)
    assert codes(hank) == [("DN006", 7)]
    assert "hank-ai's Darknet ignores the line 'batch_normalize'" in hank.diagnostics[0].message
    assert first_layer(hank) == ("convolutional", 8 * 27 + 8 + 3 * 8)  # batch norm is on
    assert codes(ab) == [("DN006", 7)]  # which names line 8, the one it hides
    assert first_layer(ab) == ("convolutional", 8 * 27 + 8)  # the bare key hides the later one


def test_inline_comment_is_stripped() -> None:
    result = conv("filters=8 # was 16\nsize=3\nactivation=leaky # was mish\n")
    assert codes(result) == []
    assert first_layer(result) == ("convolutional", 8 * 27 + 8)


def test_whitespace_in_a_key_drops_the_line() -> None:
    result = conv("fil ters=16\nfilters=8\nsize=3\n")
    assert errors(result) == [("DN010", 7)]
    assert first_layer(result) == ("convolutional", 8 * 27 + 8)


def test_whitespace_in_a_number_is_not_a_number() -> None:
    result = conv("filters=1 6\nsize=3\n")
    assert codes(result) == [("DN213", 7)]


def test_empty_values() -> None:
    # 'size=' matches no pattern (ignored); 'filters= #' keeps a value of '' (not numeric)
    result = conv("size=\nfilters= # none\n")
    assert codes(result) == [("DN007", 7), ("DN213", 8)]


def test_duplicate_key_is_fatal_once() -> None:
    result = conv("filters=8\nsize=3\nfilters=16\n")
    assert codes(result) == [("DN009", 9)]
    assert result.diagnostics[0].message == (
        "hank-ai's Darknet stops: 'duplicate key \"filters\" in [convolutional] at lines #7 "
        "and #9'")
    assert first_layer(result) == ("convolutional", 8 * 27 + 8)


def test_semicolon_is_not_a_comment_when_the_line_has_an_equals_sign() -> None:
    result = conv("filters=8\nsize=3\n;filters=16\n; a comment\n")
    assert codes(result) == [("DN201", 9)]
    assert "'config line #9 from section [convolutional] is unused or invalid: ;filters=16'" in (
        result.diagnostics[0].message)


def test_option_before_any_section() -> None:
    result = lint_text("batch=1\n" + NET + "[convolutional]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN002", 1)]
    assert result.network is None


def test_empty_net_is_replaced_by_the_next_header() -> None:
    result = lint_text("[net]\n# nothing\n[convolutional]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN027", 1)]
    assert "found [convolutional]" in result.diagnostics[0].message
    assert result.network is None


def test_header_name_runs_to_the_last_bracket() -> None:
    result = lint_text(NET + "[convolutional]]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN020", 6)]
    assert "'layer name \"convolutional]\" is not supported'" in result.diagnostics[0].message


def test_header_without_closing_bracket_is_ignored() -> None:
    result = lint_text(NET + "[maxpool\n[convolutional]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN019", 6)]
    assert first_layer(result)[0] == "convolutional"


def test_crlf_and_blanks_around_lines_are_trimmed() -> None:
    text = NET + "[convolutional]\r\n  filters = 8\t\r\nsize=3\r\n"
    result = lint_text(text, HANK)
    assert errors(result) == []
    assert first_layer(result) == ("convolutional", 8 * 27 + 8)


# --- lists --------------------------------------------------------------------------------------
YOLO = NET + """\
[convolutional]
filters=21
size=1

[yolo]
classes=2
num=3
"""


def test_empty_list_items_vanish() -> None:
    result = lint_text(YOLO + "mask=0,,1,2,\nanchors=10,14,23,27,37,58\n", HANK)
    assert codes(result) == [("DN208", 13)]
    assert result.diagnostics[0].severity is Severity.WARNING
    assert result.network is not None
    head = result.network.layers[1]
    assert head.values is not None and head.values.list("mask") == [0, 1, 2]


def test_list_item_split_by_a_dot() -> None:
    result = lint_text(YOLO + "mask=0,1.5\nanchors=10,14,23,27,37,58\n", HANK)
    assert ("DN214", 13) in codes(result)
    assert "reads it as 2 item(s) [1, 5]" in next(
        d.message for d in result.diagnostics if d.code == "DN214")


def test_list_ends_at_an_unreadable_run() -> None:
    result = lint_text(YOLO + "mask=0,1,2\nanchors=10,14,23,27,-,58\n", HANK)
    assert ("DN214", 14) in codes(result)
    assert result.network is not None
    head = result.network.layers[1]
    assert head.values is not None and head.values.list("anchors") == [10, 14, 23, 27]


# --- weights ------------------------------------------------------------------------------------
def test_weights_refusals_quote_hank(tmp_path: Path) -> None:
    from test_weights import L0, L1, TINY_BYTES, check

    (surplus,) = check(tmp_path, L0 + L1 + 10, dialect=HANK)
    assert (surplus.code, surplus.severity) == ("DN516", Severity.ERROR)
    assert surplus.message.endswith(
        f"hank-ai's Darknet refuses the file: 'weights file is larger than expected' "
        f"(pos={TINY_BYTES}, filesize={TINY_BYTES + 40})")
    (short,) = check(tmp_path, L0 + 50, dialect=HANK)
    assert short.message.endswith("'expected to read 168 fields, but only read 29'")
    (partial,) = check(tmp_path, L0, dialect=HANK)
    assert (partial.code, partial.severity) == ("DN515", Severity.ERROR)
    assert "'expected to read 21 fields, but only read 0'" in partial.message
    assert check(tmp_path, L0 + L1, dialect=HANK) == []


# --- the lexer against hank's own regular expression --------------------------------------------
# CfgFile::read's pattern; ECMAScript's '.' (std::regex on bytes) stops at CR and LF only
_HANK_PATTERN = re.compile(r"^\[([^\r\n]+)\]|^[ \t]*([^#= \t]+)[ \t]*=[ \t]*([^#]+)")


def _regex_reading(line: str) -> tuple[str, str] | tuple[str, str, str] | None:
    trimmed = line.strip(" \t\r\n")
    match = _HANK_PATTERN.search(trimmed)
    if match is None:
        return None
    if match.group(1):
        return ("section", match.group(1))
    return ("option", match.group(2), match.group(3).strip(" \t\r\n"))


def _lexer_reading(line: str) -> tuple[str, str] | tuple[str, str, str] | None:
    trimmed = line.strip(" \t\r\n")
    if not trimmed:
        return None
    if trimmed[0] == "[" and _header_end(trimmed) >= 0:
        return ("section", trimmed[1:_header_end(trimmed)])
    parsed = _key_value(trimmed)
    return None if parsed is None else ("option", parsed[0], parsed[2])


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="[]=# \t\r;ab1-.", max_size=14))
def test_lexer_matches_hanks_regular_expression(line: str) -> None:
    assert _lexer_reading(line) == _regex_reading(line)


@pytest.mark.parametrize(("line", "reading"), [
    ("key= # note", ("option", "key", "")),
    ("key=#note", None),
    ("key =  a b  # c", ("option", "key", "a b")),
    ("a==b", ("option", "a", "=b")),
    ("[a]]x", ("section", "a]")),
    ("[]", None),
    ("[]=1", ("option", "[]", "1")),
    ("[a=1", ("option", "[a", "1")),
    ("k#x=1", None),
])
def test_lexer_corner_cases(line: str, reading: tuple[str, ...] | None) -> None:
    assert _lexer_reading(line) == _regex_reading(line) == reading


def test_sam_does_not_read_noloss() -> None:
    """hank's parse_sam_section reads from and activation only (noloss is a [softmax] key)."""
    text = NET + "[convolutional]\nfilters=8\nsize=3\n\n[convolutional]\nfilters=8\nsize=1\n\n" \
        "[sam]\nfrom=-2\nnoloss=1\n"
    result = lint_text(text, HANK)
    assert codes(result) == [("DN201", 16)]
    assert "'config line #16 from section [sam] is unused or invalid: noloss=1'" in (
        result.diagnostics[0].message)


@pytest.mark.parametrize(("line", "found"), [
    ("type=l1", []),
    ("type=L1", [("DN207", 11)]),
])
def test_cost_types_are_hanks_table(line: str, found: list[tuple[str, int]]) -> None:
    result = conv(f"filters=8\nsize=3\n\n[cost]\n{line}\n")
    assert codes(result) == found
    if found:
        assert result.diagnostics[0].message.endswith("'cost type \"L1\" is not supported'")


@pytest.mark.parametrize(("line", "found"), [
    ("iou_thresh_kind=mse", []),  # the IoU loss table, which has mse
    ("nms_kind=greedy", [("DN407", 15)]),
])
def test_yolo_kinds_are_hanks_tables(line: str, found: list[tuple[str, int]]) -> None:
    result = lint_text(YOLO + f"mask=0,1,2\nanchors=10,14,23,27,37,58\n{line}\n", HANK)
    assert codes(result) == found
    if found:
        assert result.diagnostics[0].message.endswith("'NMS kind \"greedy\" is not supported'")


def test_byte_order_mark_hides_the_net_header() -> None:
    result = lint_text("\ufeff" + NET + "[convolutional]\nfilters=8\nsize=3\n", HANK)
    assert codes(result) == [("DN014", 1)]
    assert result.network is None


# --- plain lines: Options without positions, typing shared ----------------------------------
def test_a_plain_line_makes_a_plain_option_and_others_keep_their_columns() -> None:
    doc = read_cfg_hank(b"[net]\nwidth=32\n  height = 32\nchannels=3 # rgb\nbatch=1\r\n")
    options = {option.key: option for option in doc.sections[0].options}
    where = {key: (option.plain, option.column, option.value_column, option.raw)
             for key, option in options.items()}
    assert where == {
        "width": (True, 1, 7, "width=32"),
        "height": (False, 3, 12, "  height = 32"),
        "channels": (False, 1, 10, "channels=3 # rgb"),
        "batch": (False, 1, 7, "batch=1\r"),  # hank trims the CR, the line as read keeps it
    }
    assert [options[key].value for key in where] == ["32", "32", "3", "1"]


def test_sections_of_one_text_share_their_typing() -> None:
    body = "[convolutional]\nfilters=8\nsize=3\nactivation=leaky\n\n"
    blanks = "[convolutional]\n  filters = 8\nsize=3\n[convolutional]\nfilters= 8\nsize=3\n"
    single = "[maxpool]\nsize=2\n"
    result = lint_text(NET + body * 3 + blanks + single * 2, HANK)
    assert result.network is not None
    typed = [layer.values.typed if layer.values else None for layer in result.network.layers]
    assert typed[0] is not None and typed[0] is typed[1] is typed[2]
    # where a line's parts stand does not change its typing; one option is a text too
    assert typed[3] is not None and typed[3] is typed[4] is not typed[0]
    assert typed[5] is not None and typed[5] is typed[6]
    assert [layer.output for layer in result.network.layers] == [
        (30, 30, 8), (28, 28, 8), (26, 26, 8), (24, 24, 8), (22, 22, 8), (22, 22, 8),
        (22, 22, 8)]


def test_findings_on_plain_and_indented_lines_point_at_their_columns() -> None:
    result = conv("filters=8\nsize=3\nfoo=1\n  bar = 2\n")
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [
        ("DN201", 9, 1), ("DN201", 10, 3)]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="=# \tab1", max_size=10))
def test_a_line_read_again_reads_as_matched(line: str) -> None:
    assert _key_value(line) == _key_value(line) == hank_reader._match_key_value(line)


def test_kept_lines_are_bounded() -> None:
    for number in range(hank_reader._KEY_VALUES_SIZE + 10):
        _key_value(f"k{number}=1")
    assert 0 < len(hank_reader._KEY_VALUES) <= hank_reader._KEY_VALUES_SIZE
    long_line = "k=" + "1" * 100
    assert _key_value(long_line) == ("k", 2, "1" * 100)
    assert long_line not in hank_reader._KEY_VALUES
