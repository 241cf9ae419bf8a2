"""An error only where Darknet misreads (issue 27): a key repeated with the value it already
has, '//' and ';' comments after a number, DN313 on each layer's own w/h, and the BFLOPs total
summed as AlexeyAB's parse_network_cfg_custom sums it.

What Darknet does with each case is recorded in fixtures/oracle/exact-cases.json (the oracle
harness run on the cfgs it holds); the tests compare dnlint with that record.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from conftest import FIXTURES, codes, lint_text, need_shared, read_fixture
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.reporters.json_ import file_json
from dnlint.result import FileResult
from dnlint.rules import all_rules, get_rule
from dnlint.severity import Severity
from test_rule_examples import example_bytes

CASES: dict[str, dict[str, Any]] = json.loads(
    (FIXTURES / "oracle" / "exact-cases.json").read_text())["cases"]
DIALECTS = {"alexeyab": Dialect.AB, "pjreddie": Dialect.PJ, "hank": Dialect.HANK}
# the line hank-ai's error message names ('line #11', 'at lines #7 and #8': the later one)
HANK_LINE = re.compile(r"lines? #(\d+)(?: and #(\d+))?")


def lint_case(name: str, dialect: Dialect) -> FileResult:
    return lint_cfg_bytes(CASES[name]["cfg"].encode(), name, dialect)


def found(result: FileResult) -> list[tuple[str, int | None, str]]:
    return [(d.code, d.line, d.severity.value) for d in result.diagnostics]


def errors(result: FileResult) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in result.diagnostics if d.severity is Severity.ERROR]


# --- the recorded outcomes: each case builds in dnlint exactly when it builds in Darknet ---
@pytest.mark.parametrize(("name", "fork"),
                         [(name, fork) for name in sorted(CASES) for fork in sorted(DIALECTS)
                          if fork in CASES[name]])
def test_errors_exactly_where_darknet_fails(name: str, fork: str) -> None:
    recorded = CASES[name][fork]
    result = lint_case(name, DIALECTS[fork])
    if recorded.get("layer0_inputs", 0) < 0:
        assert errors(result), name  # it builds, but on a wrapped input size: a misread
    elif recorded["status"] == "ok":
        # the cases use AlexeyAB's options (hidden=, dropblock=): the original ignores them,
        # which is an error of its own (DN202) but not a build failure
        foreign = "DN202" if fork == "pjreddie" else ""
        assert [e for e in errors(result) if e[0] != foreign] == [], name
        assert result.network is not None
        shapes = [[layer.type, *layer.output] for layer in result.network.layers]
        assert shapes == recorded["layers"]
    else:
        assert errors(result), name
        named = HANK_LINE.search(recorded.get("error_message", ""))
        if named:
            line = int(named.group(2) or named.group(1))
            assert line in [where for _, where in errors(result)], recorded["error_message"]


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("dn313-")))
def test_dn313_where_alexeyab_divides_by_zero(name: str) -> None:
    """SIGFPE (signal 8) at parse in AlexeyAB's Darknet is DN313 on [net], and nothing else."""
    recorded = CASES[name]["alexeyab"]
    result = lint_case(name, Dialect.AB)
    expected = [("DN313", 1)] if recorded.get("signal") == 8 else []
    assert errors(result) == expected
    # hank-ai's parser has the same avg_counter loop (darknet_cfg.cpp) and layer constructors
    hank = lint_case(name, Dialect.HANK)
    assert (("DN313", 1) in errors(hank)) == (CASES[name]["hank"].get("signal") == 8)


def test_dn313_counts_a_connected_layer_as_1x1() -> None:
    """make_connected_layer stores l.w = l.h = 1 although it receives 8x8x3."""
    assert ("DN313", 1) in errors(lint_case("dn313-connected.cfg", Dialect.AB))
    assert errors(lint_case("dn313-connected.cfg", Dialect.PJ)) == []


def test_dn313_route_stores_its_first_input_own_size() -> None:
    """parse_route copies first.w/first.h, the upsample's own 1x1, not its 2x2 output."""
    result = lint_case("dn313-route-of-upsample.cfg", Dialect.AB)
    assert result.network is not None
    assert result.network.layers[2].output[:2] == (2, 2)
    assert errors(result) == [("DN313", 1)]


# --- [net]'s size overflowing a C int: the error at its root -------------------------------
def test_net_size_overflow_is_reported_on_net() -> None:
    """Recorded: both forks build net-overflow.cfg with layer 0's l.inputs wrapped to
    -1594967296 (30000*30000*3); no layer's own outputs overflow."""
    recorded = CASES["net-overflow.cfg"]
    assert recorded["alexeyab"]["layer0_inputs"] == 30000 * 30000 * 3 - 2**32
    for dialect in (Dialect.PJ, Dialect.AB, Dialect.HANK):
        result = lint_case("net-overflow.cfg", dialect)
        assert found(result) == [("DN390", 1, "info"), ("DN312", 4, "error")]
        assert "wraps to -1,594,967,296" in result.diagnostics[1].message


def test_first_layer_overflow_folds_into_the_net_root() -> None:
    """Recorded: AlexeyAB's make_convolutional_layer fails to calloc the wrapped output size.
    The error is on [net]'s width line, what the user must edit; the layer's own overflow is
    its consequence (a DN390 note)."""
    assert CASES["net-overflow-first-layer.cfg"]["alexeyab"]["status"] == "error"
    result = lint_case("net-overflow-first-layer.cfg", Dialect.AB)
    assert found(result) == [("DN390", 1, "info"), ("DN312", 4, "error")]
    assert "network input, whose size overflows" in result.diagnostics[0].message


def test_net_size_that_fits_is_not_reported() -> None:
    result = lint_text("""
        [net]
        width=26754
        height=26754
        channels=3

        [convolutional]
        filters=1
        size=3
        stride=8
        pad=1
        activation=leaky
    """, Dialect.AB)  # 26754*26754*3 = 2,147,321,148 fits
    assert [d for d in result.diagnostics if d.code == "DN312"] == []


# --- a key repeated with the same value --------------------------------------------------
def test_repeat_with_same_value_is_a_warning_where_the_first_is_read() -> None:
    name = "comments-and-repeats.cfg"  # momentum=0.9 on lines 8 and 9
    for dialect in (Dialect.PJ, Dialect.AB):
        assert ("DN009", 9, "warning") in found(lint_case(name, dialect))
    hank = lint_text("""
        [net]
        width=32
        height=32
        channels=3
        momentum=0.9
        momentum=0.9

        [convolutional]
        filters=16
    """, Dialect.HANK)
    assert ("DN009", 6, "error") in found(hank)  # hank-ai's reader stops on any repeat


def test_repeat_with_another_value_stays_an_error_everywhere() -> None:
    text = """
        [net]
        width=32
        height=32
        channels=3
        momentum=0.9
        momentum=0.95
        momentum=0.9

        [convolutional]
        filters=16
    """
    for dialect in (Dialect.PJ, Dialect.AB, Dialect.HANK):
        result = found(lint_text(text, dialect))
        assert ("DN009", 6, "error") in result, dialect
        if dialect is not Dialect.HANK:
            assert ("DN009", 7, "warning") in result  # the first one's value again


# --- '//' and ';' after a number ---------------------------------------------------------
def test_comment_like_text_after_numbers_reads_the_number() -> None:
    """Recorded: both forks build filters=18 and stride=1 from '18//255' and '1;2'."""
    name = "comments-and-repeats.cfg"
    for dialect in (Dialect.PJ, Dialect.AB):
        result = found(lint_case(name, dialect))
        assert [f for f in result if f[0] != "DN009"] == [
            ("DN012", 7, "warning"),  # learning_rate=0.001 // was 0.01
            ("DN012", 12, "warning"),  # steps=400,800 ;x
            ("DN012", 13, "warning"),  # scales=.1,.1//y
            ("DN012", 16, "warning"),  # filters=18//255
            ("DN012", 18, "warning"),  # stride=1;2
        ]


def test_comment_column_points_at_the_marker() -> None:
    result = lint_case("comments-and-repeats.cfg", Dialect.AB)
    columns = {d.line: d.column for d in result.diagnostics if d.code == "DN012"}
    assert columns[7] == len("learning_rate=0.001 ") + 1
    assert columns[16] == len("filters=18") + 1
    assert columns[18] == len("stride=1") + 1


def test_comment_that_changes_the_value_is_an_error() -> None:
    result = lint_text("""
        [net]
        width=32
        height=32
        channels=3
        max_batches=1000
        policy=steps
        steps=400,800 // was 1,2
        scales=.1,.1

        [convolutional]
        filters=16
        activation=leaky // was relu
    """, Dialect.AB)
    assert ("DN011", 7) in errors(result)  # the comment's comma adds an item
    assert ("DN011", 12) in errors(result)  # the string 'leaky//wasrelu' is not an activation


def test_text_that_is_not_a_comment_stays_an_error() -> None:
    result = lint_text("""
        [net]
        width=32
        height=32
        channels=3
        max_batches=1000
        policy=steps
        steps=400,800.5
        scales=.1,.1

        [convolutional]
        filters=16
        angle=0y
    """, Dialect.AB)
    assert codes(result) == [("DN205", 7), ("DN204", 12)]
    assert all(d.severity is Severity.ERROR for d in result.diagnostics)


def test_hank_reads_only_hash_comments() -> None:
    """hank-ai's CfgFile regex ends a value at '#' only: '18//255' and '32 ;64' are not numbers
    there, and find_int stops ('should be numeric')."""
    result = lint_text("""
        [net]
        batch=32 ;64
        width=32
        height=32
        channels=3

        [convolutional]
        filters=18//255
        size=3 # a comment hank strips
    """, Dialect.HANK)
    assert errors(result) == [("DN213", 2), ("DN213", 8)]


def test_double_slash_inside_a_path_is_not_a_comment() -> None:
    result = lint_text("""
        [net]
        width=32
        height=32
        channels=3

        [convolutional]
        filters=18
        size=1
        activation=linear

        [yolo]
        mask=0
        anchors=1,1
        classes=13
        num=1
        map=data//coco9k.map
    """, Dialect.AB)
    assert [d for d in result.diagnostics if d.code in ("DN011", "DN012")] == []


# --- BFLOPs as AlexeyAB's parse_network_cfg_custom prints them --------------------------------
def _recorded_bflops(fork: str) -> list[tuple[str, str, dict[str, str]]]:
    cfgs = json.loads((FIXTURES / "oracle" / f"{fork}-bflops.json").read_text())["cfgs"]
    return [(fork, key, cfgs[key]) for key in sorted(cfgs)]


BFLOPS = _recorded_bflops("alexeyab") + _recorded_bflops("pjreddie")


@pytest.mark.parametrize(("fork", "key", "recorded"), BFLOPS,
                         ids=[f"{fork}:{key}" for fork, key, _ in BFLOPS])
def test_bflops_equal_darknet_on_every_stock_cfg(fork: str, key: str,
                                                 recorded: dict[str, str]) -> None:
    """AlexeyAB's 'Total BFLOPS' and each layer's 'BF' column, and each layer's 'BFLOPs' of
    the original's table (which prints no total), as Darknet printed them."""
    path = need_shared() / "corpus" / fork / key
    result = lint_cfg_bytes(path.read_bytes(), str(path), DIALECTS[fork])
    network = result.network
    assert network is not None
    if "total" in recorded:
        assert f"{network.total_bflops:5.3f}".strip() == recorded["total"]
    printed = recorded["layers"].split(",")
    assert len(printed) <= len(network.layers)  # the head after the last BF row prints none
    for layer, value in zip(network.layers, printed, strict=False):
        if value:
            assert f"{network.layer_bflops(layer):.3f}" == value, layer


def test_total_bflops_rounds_as_a_float_accumulator() -> None:
    """yolov3-voc.cfg: 65.442 in AlexeyAB's float sum, 65.443 summed exactly; the original
    Darknet prints no total, so its dialect keeps the exact sum of the layers' doubles."""
    path = need_shared() / "corpus" / "alexeyab" / "cfg" / "yolov3-voc.cfg"
    ab = lint_cfg_bytes(path.read_bytes(), str(path), Dialect.AB).network
    hank = lint_cfg_bytes(path.read_bytes(), str(path), Dialect.HANK).network
    assert ab is not None and hank is not None
    assert f"{ab.total_bflops:.3f}" == "65.442"
    assert f"{sum(layer.bflops for layer in ab.layers):.3f}" == "65.443"
    assert hank.total_bflops == ab.total_bflops  # hank-ai's parms.bflops is a float too


def test_json_layers_carry_bflops() -> None:
    result = lint_text("""
        [net]
        width=32
        height=32
        channels=3

        [convolutional]
        filters=16
        size=3
        stride=1
        pad=1
        activation=leaky

        [maxpool]
        size=2
        stride=2
    """, Dialect.AB)
    layers = file_json(result, show_layers=True)["layers"]
    # 2 * (3*3*3*16) * 32*32 / 1e9 as a C float, written as the shortest decimal of that float
    assert layers[0]["bflops"] == 0.000884736
    assert layers[1]["bflops"] == 0.000016384  # size*size*c*out_h*out_w
    pj = file_json(lint_case("dn313-one-conv.cfg", Dialect.PJ), show_layers=True)["layers"]
    assert pj[0]["bflops"] == 2 * 108 * 6 * 6 / 1e9  # the original prints the double


# --- the line between error and warning, stated once per rule ---------------------------------
def test_every_rule_states_its_line_between_error_and_warning() -> None:
    rules_md = (FIXTURES.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in all_rules():
        assert rule.severity_line
        section = rules_md.split(f"### {rule.code} {rule.name}\n", 1)[1].split("\n### ", 1)[0]
        assert section.count("Error or warning: ") == 1, rule.code


def test_a_rule_reported_with_another_severity_says_when() -> None:
    """Every finding of the rule examples and fixtures whose severity is not its rule's
    declared one belongs to a rule whose 'levels' says where the line runs."""
    seen: set[str] = set()
    for rule in all_rules():
        if rule.examples != "cfg" or rule.target:
            continue
        for dialect in rule.dialects:
            for diag in lint_cfg_bytes(example_bytes(rule.bad), "bad.cfg", dialect).diagnostics:
                if diag.severity is not get_rule(diag.code).severity:
                    seen.add(diag.code)
    for path in sorted((FIXTURES / "rules").glob("*.cfg")):
        fixture = read_fixture(path)
        for dialect in (fixture.dialect,) if fixture.dialect else (Dialect.PJ, Dialect.AB,
                                                                    Dialect.HANK):
            for diag in lint_cfg_bytes(fixture.data, path.name, dialect).diagnostics:
                if diag.severity is not get_rule(diag.code).severity:
                    seen.add(diag.code)
    assert seen  # DN013, DN028 with --dialect hank, ...
    assert sorted(code for code in seen if not get_rule(code).levels) == []


# --- '//' at the start of a line -------------------------------------------------------------
def test_slash_comment_lines_are_warnings() -> None:
    """Recorded: both forks build size=3 (the original prints "Unused field: '//size = 7'")."""
    for dialect in (Dialect.PJ, Dialect.AB):
        assert found(lint_case("slash-comment-lines.cfg", dialect)) == [
            ("DN035", 7, "warning"), ("DN035", 10, "warning"), ("DN035", 11, "warning")]
    # hank-ai's pattern reads '//size=7' as the key '//size', an unused line it stops on
    assert found(lint_case("slash-comment-lines.cfg", Dialect.HANK)) == [
        ("DN035", 7, "warning"), ("DN035", 10, "warning"), ("DN201", 11, "error")]


def test_slash_line_before_any_section_stays_an_error() -> None:
    result = lint_text("""
        // my model
        [net]
        width=32
        height=32
        channels=3

        [convolutional]
        filters=16
    """, Dialect.AB)
    assert errors(result) == [("DN002", 1)]  # read_option with no section: SIGSEGV
