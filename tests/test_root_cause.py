"""One root cause, one error: cascades are not reported, and a wrong input size is one error on
the width or height line with the multiple the network needs (computed from its strides)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import FIXTURES, SHARED, codes, lint_text, need_shared
from dnlint.checks.input_size import compute_multiples, joins_different_sizes
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.network.build import Network
from dnlint.result import FileResult

# Two paths that merge at layer 5: the one through layer 3 went down to 1/4 and came back up, so
# the input must be a multiple of 4 for layer 4 (1/2) and layer 2 (1/2) to agree.
NET = "[net]\nwidth={w}\nheight={h}\nchannels=3\n\n"
MERGING = """\
[convolutional]
filters=8
size=3
pad=1
activation=leaky

[maxpool]
size=2
stride=2

[convolutional]
filters=8
size=3
pad=1
activation=leaky

[maxpool]
size=2
stride=2

[upsample]
stride=2

[route]
layers=-1,2

[convolutional]
filters=8
size=3
pad=1
{typo}activation=leaky

[convolutional]
filters=8
size=1
activation=linear
"""


def merging(w: int = 64, h: int = 64, typo: str = "") -> str:
    return NET.format(w=w, h=h) + MERGING.format(typo=typo)


def errors(result: FileResult) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in result.diagnostics if d.severity.value == "error"]


def test_a_valid_size_gives_nothing() -> None:
    assert codes(lint_text(merging(64, 68))) == []


def test_a_size_that_breaks_a_merge_is_one_error_on_its_line() -> None:
    result = lint_text(merging(64, 66))
    # the route (layer 5, line 29) and what follows are consequences: one note for them
    assert codes(result) == [("DN411", 3), ("DN390", 29)]
    error = result.diagnostics[0]
    assert error.severity.value == "error"
    assert error.message == ("this network needs height to be a multiple of 4 (layer 5 joins "
                             "32x34 with 32x33); use 64 or 68")
    assert result.diagnostics[1].message == (
        "layers 6\u20137 not checked: they depend on layer 5 ([route], line 29), which the "
        "input size breaks")


def test_both_sides_wrong_is_still_one_error() -> None:
    result = lint_text(merging(70, 66))
    assert errors(result) == [("DN411", 2)]
    assert result.diagnostics[0].message.endswith("use width=68 or 72 and height=64 or 68")


def test_two_unrelated_mistakes_give_exactly_two_errors() -> None:
    result = lint_text(merging(64, 66, typo="activaton=leaky\n"))
    # the misspelt option is in a layer the size breaks, but it is a mistake of its own
    assert errors(result) == [("DN411", 3), ("DN201", 36)]


def test_a_design_mistake_at_a_valid_size_stays_a_route_error() -> None:
    text = merging(64, 64).replace("layers=-1,2", "layers=-2,2")  # 16x16 with 32x32
    result = lint_text(text)
    assert errors(result) == [("DN315", 30)]
    assert [d.code for d in result.diagnostics] == ["DN390", "DN315"]


def test_missing_input_size_is_one_error_and_one_note() -> None:
    text = "[net]\n# width=416\n# height=416\nchannels=3\n\n" + MERGING.format(typo="")
    result = lint_text(text)
    assert codes(result) == [("DN106", 1), ("DN390", 1)]
    assert result.diagnostics[1].message == (
        "layers 0\u20137 not checked: they depend on the network input, which [net] does not "
        "define")


def test_an_independent_branch_after_a_broken_layer_is_still_checked() -> None:
    # layer 2 is misspelt (all-zero layer, DN020); layer 3 reads layer 1, not layer 2, so its
    # own size mistake (a route of 64x64 with 32x32) is a second, independent error
    text = NET.format(w=64, h=64) + (
        "[convolutional]\nfilters=8\nsize=3\npad=1\nactivation=leaky\n\n"
        "[maxpool]\nsize=2\nstride=2\n\n"
        "[convolutionnal]\nfilters=8\n\n"
        "[route]\nlayers=-3,-2\n\n"
        "[convolutional]\nfilters=8\nsize=1\nactivation=leaky\n")
    result = lint_text(text)
    assert errors(result) == [("DN020", 16), ("DN315", 20)]


# --- the multiple, from the network itself -------------------------------------------------------
STOCK_MULTIPLES = {
    # cfg: (the multiple for its merges, and for its heads' grids as well)
    "yolov3.cfg": (32, 32),
    "yolov3-tiny.cfg": (32, 32),  # down to 1/32 and back up to 1/16 before the merge
    "yolov2-tiny.cfg": (1, 32),  # no merge: any size builds, the region's grid wants 32
    "yolov4-p6.cfg": (64, 64),
    "cspx-p7-mish.cfg": (128, 128),
    "yolov7.cfg": (32, 32),
}


def stock_network(name: str, fork: str = "alexeyab") -> Network:
    path = need_shared() / "corpus" / fork / "cfg" / name
    result = lint_cfg_bytes(path.read_bytes(), str(path), Dialect.AB)
    assert result.network is not None
    return result.network


@pytest.mark.parametrize("name", sorted(STOCK_MULTIPLES))
def test_stock_multiples(name: str) -> None:
    multiples = compute_multiples(stock_network(name))
    merge, grid = STOCK_MULTIPLES[name]
    assert (multiples.merge_x, multiples.merge_y, multiples.grid_x, multiples.grid_y) == (
        merge, merge, grid, grid)


def test_a_size_that_builds_but_leaves_the_grid_uneven_is_a_warning() -> None:
    path = need_shared() / "corpus" / "alexeyab" / "cfg" / "yolov2-tiny.cfg"
    text = resized(path.read_bytes(), "width", 8)
    result = lint_cfg_bytes(text, "t.cfg", Dialect.AB)
    assert [(d.code, d.line, d.severity.value) for d in result.diagnostics] == [
        ("DN411", 8, "warning")]
    assert "width must be a multiple of 32 and height of 32" in result.diagnostics[0].message
    assert errors(lint_cfg_bytes(text, "t.cfg", Dialect.PJ)) == []


def test_the_p6_example_of_the_issue() -> None:
    path = need_shared() / "corpus" / "alexeyab" / "cfg" / "yolov4-p6.cfg"
    text = re.sub(rb"(?m)^height=1280", b"height=800", path.read_bytes())
    result = lint_cfg_bytes(text, "p6.cfg", Dialect.AB)
    assert errors(result) == [("DN411", 9)]
    assert result.diagnostics[0].message == (
        "this network needs height to be a multiple of 64 (layer 206 joins 40x25 with 40x26); "
        "use 768 or 832")


# --- every stock detector, resized ----------------------------------------------------------------
HEADS = ("yolo", "gaussian_yolo", "region", "detection")
DELTAS = (8, 16, 32, 64)


def stock_detectors() -> list[tuple[str, Dialect]]:
    corpus = SHARED / "corpus"  # ../shared, or DNLINT_SHARED
    found = []
    for fork, dialect in (("alexeyab", Dialect.AB), ("pjreddie", Dialect.PJ)):
        for path in sorted((corpus / fork / "cfg").glob("*.cfg")):
            text = path.read_text(errors="replace")
            if re.search(r"(?m)^\[(yolo|Gaussian_yolo|region|detection)\]", text):
                found.append((f"{fork}/cfg/{path.name}", dialect))
    return found


def resized(data: bytes, key: str, delta: int) -> bytes:
    pattern = re.compile(rb"(?m)^(" + key.encode() + rb"\s*=\s*)(\d+)")
    return pattern.sub(lambda m: m.group(1) + str(int(m.group(2)) + delta).encode(), data, 1)


@pytest.mark.parametrize(("name", "dialect"), stock_detectors())
def test_resized_stock_detector_gives_one_error_exactly_when_it_breaks(
    name: str, dialect: Dialect
) -> None:
    path = need_shared() / "corpus" / name
    data = path.read_bytes()
    stock = errors(lint_cfg_bytes(data, name, dialect))
    outcomes = []
    for key in ("width", "height"):
        for delta in DELTAS:
            result = lint_cfg_bytes(resized(data, key, delta), name, dialect)
            assert result.network is not None
            breaks = joins_different_sizes(result.network)
            new = errors(result)
            assert len(new) - len(stock) == (1 if breaks else 0), (key, delta, new)
            if breaks:
                assert [c for c, _ in new if c == "DN411"] == ["DN411"]
            outcomes.append(breaks)
    if compute_multiples(stock_network_at(path, dialect)).merge_x >= 64:
        assert any(outcomes)  # +8, +16 and +32 cannot all be multiples of 64


def stock_network_at(path: Path, dialect: Dialect) -> Network:
    result = lint_cfg_bytes(path.read_bytes(), str(path), dialect)
    assert result.network is not None
    return result.network


# --- warnings on the stock corpus are each justified ------------------------------------------
def test_every_warning_on_the_stock_corpus_is_justified() -> None:
    from dnlint.rules import get_rule

    shared = need_shared()
    codes_found = set()
    for fork, dialect in (("alexeyab", Dialect.AB), ("pjreddie", Dialect.PJ)):
        for path in sorted((shared / "corpus" / fork / "cfg").rglob("*.cfg")):
            result = lint_cfg_bytes(path.read_bytes(), str(path), dialect)
            codes_found |= {d.code for d in result.diagnostics if d.severity.value == "warning"}
    assert codes_found  # the corpus has some: DN012, DN409, DN410, DN404
    assert sorted(code for code in codes_found if not get_rule(code).stock) == []


def test_one_deleted_layer_before_absolute_share_indexes_is_one_error() -> None:
    path = need_shared() / "corpus" / "alexeyab" / "cfg" / "resnet152_trident.cfg"
    data = path.read_bytes()
    starts = [m.start() for m in re.finditer(rb"(?m)^\[", data)][1:]
    result = lint_cfg_bytes(data[:starts[10]] + data[starts[11]:], "t.cfg", Dialect.AB)
    assert errors(result) == [("DN304", 1492)]
    error = next(d for d in result.diagnostics if d.code == "DN304")
    assert "; the 53 share_index values after it (lines 1501, 1511, 1524, " in error.message
    assert error.message.endswith("fit when moved by -1: was a layer added or removed before them?")
    assert errors(lint_cfg_bytes(data, "t.cfg", Dialect.AB)) == []


# --- against Darknet itself ---------------------------------------------------------------------
def darknet_on_resized() -> list[tuple[str, str, int, str]]:
    """(cfg, key, delta, status) that AlexeyAB's Darknet gave (fixtures/oracle/)."""
    recorded = json.loads((FIXTURES / "oracle" / "resized-alexeyab.json").read_text())
    cases = []
    for cfg, statuses in sorted(recorded["variants"].items()):
        for variant, status in sorted(statuses.items()):
            key, delta = variant.split("+")
            cases.append((cfg, key, int(delta), status))
    return cases


@pytest.mark.parametrize(("name", "key", "delta", "status"), darknet_on_resized())
def test_resized_detector_errs_exactly_where_darknet_stops(
    name: str, key: str, delta: int, status: str
) -> None:
    path = need_shared() / "corpus" / "alexeyab" / "cfg" / name
    data = path.read_bytes()
    stock = set(errors(lint_cfg_bytes(data, name, Dialect.AB)))
    result = lint_cfg_bytes(resized(data, key, delta), name, Dialect.AB)
    new = [found for found in errors(result) if found not in stock]
    assert [code for code, _ in new] == (["DN411"] if status != "ok" else [])
