"""Detection heads: shapes, the size relation with the layer before, masks, anchors, enums,
the whole-network head checks and the --data check."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import codes, lint_text
from dnlint.checks.data import check_data_file
from dnlint.checks.data_file import DataSettings, lint_data_file
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect
from dnlint.lint import FileResult

NET = """\
[net]
width={w}
height={h}
channels=3

[convolutional]
filters={filters}
size=1
activation=linear

"""
# Line numbers in NET: width 2, height 3, [convolutional] 6, filters 7; the head starts at 11.

YOLO = """\
[yolo]
mask=0,1,2
anchors=10,13, 16,30, 33,23
classes=2
num=3
"""
# Head lines: [yolo] 11, mask 12, anchors 13, classes 14, num 15; extra options from 16.


def cfg(head: str, filters: int = 21, w: int = 32, h: int = 32, extra: str = "") -> str:
    return NET.format(w=w, h=h, filters=filters) + head + extra


def head_diagnostics(result: FileResult) -> list[tuple[str, int | None]]:
    return [(c, line) for c, line in codes(result) if c.startswith("DN4")]


# --- [yolo] ----------------------------------------------------------------------------------
def test_yolo_shape_and_no_findings() -> None:
    result = lint_text(cfg(YOLO))
    assert codes(result) == []
    assert result.network is not None
    yolo = result.network.layers[1]
    assert (yolo.type, yolo.output, yolo.outputs, yolo.params) == ("yolo", (32, 32, 21), 21504, 0)


def test_yolo_filters_mismatch_names_the_number_to_change() -> None:
    result = lint_text(cfg(YOLO, filters=255))
    assert head_diagnostics(result) == [("DN401", 14)]
    diag = result.diagnostics[0]
    assert diag.severity is Severity.ERROR
    assert "needs 21 channels" in diag.message and "gives 255" in diag.message
    assert diag.hint == "set filters=21 at line 7 or set classes=80 (line 14)"
    assert result.network is not None and result.network.layers[1].broken


def test_yolo_mask_count_sets_channels() -> None:
    head = YOLO.replace("mask=0,1,2", "mask=0,1")
    result = lint_text(cfg(head, filters=14))
    assert result.network is not None
    assert result.network.layers[1].output == (32, 32, 14)
    assert head_diagnostics(result) == [("DN410", 13)]  # anchor 2 is in no mask


def test_yolo_without_mask_uses_all_anchors() -> None:
    head = YOLO.replace("mask=0,1,2\n", "")
    result = lint_text(cfg(head, filters=21))
    assert codes(result) == []


def test_yolo_flat_input() -> None:
    text = """\
        [net]
        inputs=84

        [yolo]
        mask=0
        anchors=1,1
        classes=2
        num=1
        """
    result = lint_text(text, Dialect.PJ)
    assert head_diagnostics(result) == [("DN401", 4)]
    assert "needs an image input" in result.diagnostics[0].message


def test_mask_out_of_range_and_unused_anchor() -> None:
    result = lint_text(cfg(YOLO.replace("mask=0,1,2", "mask=0,1,5")))
    assert head_diagnostics(result) == [("DN402", 12), ("DN410", 13)]


def test_duplicate_mask() -> None:
    result = lint_text(cfg(YOLO.replace("mask=0,1,2", "mask=0,1,1")))
    assert head_diagnostics(result) == [("DN403", 12), ("DN410", 13)]
    assert result.diagnostics[0].severity is Severity.WARNING


@pytest.mark.parametrize(
    ("anchors", "dialect", "words"),
    [
        ("10,13, 16,30", Dialect.AB, "the last 2 of the 6 slots stay"),
        ("10,13, 16,30, 33,23, 1,1", Dialect.AB, "ignores the extra 2"),
        ("10,13, 16,30, 33,23, 1,1", Dialect.PJ, "heap overflow"),
        ("10,13, 16,30, 33,23, 1,1", Dialect.HANK, "heap overflow"),
    ],
)
def test_anchor_count(anchors: str, dialect: Dialect, words: str) -> None:
    result = lint_text(cfg(YOLO.replace("10,13, 16,30, 33,23", anchors)), dialect)
    assert head_diagnostics(result) == [("DN404", 13)]
    assert words in result.diagnostics[0].message


def test_missing_anchors() -> None:
    result = lint_text(cfg(YOLO.replace("anchors=10,13, 16,30, 33,23\n", "")))
    assert head_diagnostics(result) == [("DN404", 11)]


def test_odd_anchor_count_hint() -> None:
    result = lint_text(cfg(YOLO.replace("33,23", "33,23, 5")))
    assert result.diagnostics[0].hint is not None
    assert "not a whole number of pairs" in result.diagnostics[0].hint


def test_max_over_90_only_in_pj() -> None:
    text = cfg(YOLO, extra="max=100\n")
    assert head_diagnostics(lint_text(text, Dialect.PJ)) == [("DN405", 16)]
    assert head_diagnostics(lint_text(text, Dialect.AB)) == []


def test_counters_per_class_length() -> None:
    result = lint_text(cfg(YOLO, extra="counters_per_class=100,200,300\n"))
    assert head_diagnostics(result) == [("DN406", 16)]
    assert codes(lint_text(cfg(YOLO, extra="counters_per_class=100,200\n"))) == []


@pytest.mark.parametrize(
    ("option", "dialect", "found"),
    [
        ("iou_loss=cio", Dialect.AB, [("DN407", 16)]),
        ("iou_loss=ciou", Dialect.AB, []),
        ("iou_loss=iou", Dialect.AB, []),
        ("iou_loss=iou", Dialect.HANK, []),
        ("iou_thresh_kind=gio", Dialect.AB, [("DN407", 16)]),
        ("nms_kind=diounms", Dialect.AB, []),
        ("nms_kind=cornersnms", Dialect.AB, [("DN407", 16)]),
        ("nms_kind=cornersnms", Dialect.HANK, []),
        ("nms_kind=greedy", Dialect.HANK, [("DN407", 16)]),
    ],
)
def test_yolo_kinds(option: str, dialect: Dialect, found: list[tuple[str, int]]) -> None:
    assert head_diagnostics(lint_text(cfg(YOLO, extra=option + "\n"), dialect)) == found


def test_kind_hint_suggests_the_spelling() -> None:
    result = lint_text(cfg(YOLO, extra="iou_loss=cIoU\n"))
    assert result.diagnostics[0].hint == "did you mean 'ciou'?"
    assert "uses IOU" in result.diagnostics[0].message


def test_ab_only_options_are_foreign_in_pj() -> None:
    result = lint_text(cfg(YOLO, extra="iou_loss=ciou\n"), Dialect.PJ)
    assert codes(result) == [("DN202", 16)]


def test_show_details_is_not_hank() -> None:
    result = lint_text(cfg(YOLO, extra="show_details=0\n"), Dialect.HANK)
    assert codes(result) == [("DN202", 16)]


# --- embedding_layer and [contrastive] -------------------------------------------------------
EMBED = """\
[net]
width=32
height=32
channels=3

[convolutional]
filters={emb}
size=1

[convolutional]
filters=21
size=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,13, 16,30, 33,23
classes=2
num=3
embedding_layer={layer}

[route]
layers=0

[contrastive]
classes=2
{yolo_layer}
"""
# Lines: [yolo] 15, embedding_layer 20, [route] 22, [contrastive] 25, yolo_layer 27.


def test_contrastive_matches_yolo_embedding() -> None:
    result = lint_text(EMBED.format(emb=96, layer=-2, yolo_layer="yolo_layer=-2"))
    assert codes(result) == []
    assert result.network is not None
    contrastive = result.network.layers[4]
    assert (contrastive.type, contrastive.output, contrastive.outputs) == (
        "contrastive", (0, 0, 0), 32 * 32 * 96)
    head = result.network.layers[2].head
    assert head is not None and head.embedding_size == 32


def test_embedding_not_divisible() -> None:
    result = lint_text(EMBED.format(emb=100, layer=-2, yolo_layer="yolo_layer=-2"))
    # the yolo floors 100/3 to 33; the contrastive layer computes 102400/(3*32*32) = 33 too
    assert head_diagnostics(result) == [("DN417", 20), ("DN417", 25)]
    hank = lint_text(EMBED.format(emb=100, layer=-2, yolo_layer="yolo_layer=-2"), Dialect.HANK)
    assert hank.diagnostics[0].severity is Severity.ERROR


def test_contrastive_without_yolo_layer() -> None:
    result = lint_text(EMBED.format(emb=96, layer=-2, yolo_layer=""))
    assert head_diagnostics(result) == [("DN415", 25)]
    assert "NULL" in result.diagnostics[0].message


def test_contrastive_pointing_at_a_route() -> None:
    result = lint_text(EMBED.format(emb=96, layer=-2, yolo_layer="yolo_layer=-1"))
    assert head_diagnostics(result) == [("DN415", 27)]


def test_contrastive_embedding_size_mismatch() -> None:
    text = EMBED.format(emb=96, layer=-2, yolo_layer="yolo_layer=-2").replace(
        "embedding_layer=-2\n", "")
    result = lint_text(text)
    assert head_diagnostics(result) == [("DN416", 26)]  # one line up: embedding_layer is gone
    assert "has 0 (it has no embedding_layer)" in result.diagnostics[0].message


def test_contrastive_is_not_pj() -> None:
    result = lint_text(EMBED.format(emb=96, layer=-2, yolo_layer="yolo_layer=-2"), Dialect.PJ)
    assert ("DN021", 25) in codes(result)


# --- [Gaussian_yolo] ---------------------------------------------------------------------------
def test_gaussian_yolo_shape_and_kinds() -> None:
    head = YOLO.replace("[yolo]", "[Gaussian_yolo]")
    result = lint_text(cfg(head, filters=33, extra="nms_kind=cornersnms\nyolo_point=left\n"))
    assert result.network is not None
    layer = result.network.layers[1]
    assert (layer.type, layer.output, layer.outputs) == ("gaussian_yolo", (32, 32, 33), 33792)
    assert head_diagnostics(result) == [("DN407", 17)]
    mismatch = lint_text(cfg(head, filters=21))
    assert head_diagnostics(mismatch) == [("DN401", 14)]
    assert mismatch.diagnostics[0].hint == "set filters=33 at line 7"


def test_gaussian_yolo_anchors_overflow_in_ab() -> None:
    head = YOLO.replace("[yolo]", "[Gaussian_yolo]").replace("33,23", "33,23, 1,1")
    result = lint_text(cfg(head, filters=33))
    assert head_diagnostics(result) == [("DN404", 13)]
    assert "heap overflow" in result.diagnostics[0].message


# --- [region] --------------------------------------------------------------------------------
REGION = """\
[region]
anchors=1,1, 2,2
classes=20
coords=4
num=2
"""


@pytest.mark.parametrize("dialect", list(Dialect))
def test_region_shape(dialect: Dialect) -> None:
    result = lint_text(cfg(REGION, filters=50), dialect)
    assert codes(result) == []
    assert result.network is not None
    region = result.network.layers[1]
    assert (region.type, region.output, region.outputs) == ("region", (32, 32, 50), 51200)


def test_region_max_over_30_only_in_pj() -> None:
    text = cfg(REGION, filters=50, extra="max=31\n")
    assert head_diagnostics(lint_text(text, Dialect.PJ)) == [("DN405", 16)]
    assert head_diagnostics(lint_text(text, Dialect.AB)) == []


def test_region_mismatch_and_anchors() -> None:
    result = lint_text(cfg(REGION.replace("2,2", "2,2, 3,3"), filters=125), Dialect.PJ)
    assert head_diagnostics(result) == [("DN404", 12), ("DN401", 13)]
    assert result.diagnostics[1].hint == "set filters=50 at line 7"


# --- [detection] ---------------------------------------------------------------------------
DETECTION = """\
[net]
width=32
height=32
channels=3

[connected]
output={output}
activation=linear

[detection]
classes=3
coords=4
num=1
side=2
"""


@pytest.mark.parametrize("dialect", [Dialect.PJ, Dialect.AB])
def test_detection_shape(dialect: Dialect) -> None:
    result = lint_text(DETECTION.format(output=32), dialect)
    assert codes(result) == []
    assert result.network is not None
    detection = result.network.layers[1]
    assert (detection.type, detection.output, detection.outputs) == ("detection", (0, 0, 0), 32)


def test_detection_mismatch_names_the_output() -> None:
    result = lint_text(DETECTION.format(output=30), Dialect.PJ)
    assert head_diagnostics(result) == [("DN401", 11)]
    assert result.diagnostics[0].hint == "set output=32 at line 7"


def test_detection_is_not_hank() -> None:
    assert ("DN021", 10) in codes(lint_text(DETECTION.format(output=32), Dialect.HANK))


# --- [iseg] (original Darknet) ---------------------------------------------------------------
ISEG = """\
[iseg]
classes=2
ids=4
"""


def test_iseg_shape_and_mismatch() -> None:
    result = lint_text(cfg(ISEG, filters=6), Dialect.PJ)
    assert codes(result) == []
    assert result.network is not None
    assert result.network.layers[1].output == (32, 32, 6)
    bad = lint_text(cfg(ISEG, filters=8), Dialect.PJ)
    assert head_diagnostics(bad) == [("DN401", 12)]
    assert bad.diagnostics[0].hint == "set filters=6 at line 7 or set classes=4 (line 12)"
    assert ("DN021", 11) in codes(lint_text(cfg(ISEG, filters=6), Dialect.AB))


# --- whole-network head checks ---------------------------------------------------------------
TWO_HEADS = """\
[net]
width={w}
height=416
channels=3

[convolutional]
filters=24
size=1
activation=linear

[yolo]
mask=3,4,5
anchors=10,14, 23,27, 37,58, 81,82, 135,169, 344,319
classes=3
num=6

[route]
layers=-2

[convolutional]
filters={filters}
size=1
activation=linear

[yolo]
mask={mask}
anchors=10,14, 23,27, 37,58, 81,82, 135,169, 344,319
classes={classes}
num=6
"""
# Lines: width 2; first [yolo] 11 (mask 12, anchors 13); second [yolo] 25 (mask 26, classes 28).


def two_heads(mask: str = "0,1,2", classes: int = 3, w: int = 416) -> str:
    return TWO_HEADS.format(w=w, mask=mask, classes=classes, filters=3 * (classes + 5))


def test_two_heads_clean() -> None:
    assert codes(lint_text(two_heads())) == []


def test_shared_and_unused_anchors_like_yolov4_tiny() -> None:
    result = lint_text(two_heads(mask="1,2,3"))
    assert head_diagnostics(result) == [("DN410", 13), ("DN409", 26)]
    assert "anchor 0 (10,14)" in result.diagnostics[0].message
    assert "head at line 11" in result.diagnostics[1].message


def test_classes_differ_between_heads() -> None:
    result = lint_text(two_heads(classes=5))
    assert head_diagnostics(result) == [("DN408", 28)]


@pytest.mark.parametrize(
    ("dialect", "width", "severity"),
    [
        # no layer of this network is strided: its grid covers any size (test_root_cause.py
        # has the strided cases); hank-ai's Darknet refuses every size but multiples of 32
        (Dialect.AB, 400, None),
        (Dialect.HANK, 400, Severity.ERROR),
        (Dialect.PJ, 400, None),
        (Dialect.AB, 416, None),
    ],
)
def test_input_multiple_of_32(dialect: Dialect, width: int, severity: Severity | None) -> None:
    result = lint_text(two_heads(w=width), dialect)
    found = [d for d in result.diagnostics if d.code == "DN411"]
    if severity is None:
        assert found == []
    else:
        assert [(d.code, d.line, d.severity) for d in found] == [("DN411", 2, severity)]


def test_hank_needs_at_least_32() -> None:
    assert codes(lint_text(cfg(YOLO, w=32, h=32), Dialect.HANK)) == []
    assert ("DN411", 2) in codes(lint_text(cfg(YOLO, w=16, h=32), Dialect.HANK))


# --- --data obj.data ---------------------------------------------------------------------------
def data_check(tmp_path: Path, data: str, names: str | None, text: str) -> Sink:
    (tmp_path / "obj.data").write_text(data)
    if names is not None:
        (tmp_path / "obj.names").write_text(names)
    result = lint_text(text)
    assert result.network is not None
    sink = Sink()
    check_data_file(result.network, tmp_path / "obj.data", sink)
    return sink


def sink_codes(sink: Sink) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in sink.sorted()]


def test_data_file_agrees(tmp_path: Path) -> None:
    sink = data_check(tmp_path, "classes = 3\nnames = obj.names\n", "a\nb\nc\n", two_heads())
    assert sink_codes(sink) == []


def test_data_classes_and_names_differ(tmp_path: Path) -> None:
    sink = data_check(tmp_path, "classes=2\nnames=obj.names\n", "a\nb\nc\nd", two_heads())
    assert sink_codes(sink) == [("DN412", 14), ("DN413", 14), ("DN412", 28), ("DN413", 28)]
    assert "obj.data line 1" in sink.sorted()[0].message
    assert "has 4 names" in sink.sorted()[1].message


def test_names_blank_line_counts(tmp_path: Path) -> None:
    sink = data_check(tmp_path, "classes=3\nnames=obj.names\n", "a\nb\n\nc\n", two_heads())
    # 4 names for 3 classes: the blank line is a name of its own (said at its line of the names
    # file by the data file's own lint, DN426)
    assert sink_codes(sink) == [("DN413", 14), ("DN413", 28)]
    own = Sink()
    lint_data_file(tmp_path / "obj.data", DataSettings(root=tmp_path), own)
    assert [(d.code, d.line, d.path) for d in own.items] == [
        ("DN426", 3, str(tmp_path / "obj.names"))]


def test_names_file_missing(tmp_path: Path) -> None:
    """Nothing to compare the heads with: the data file's own lint says why (DN414 at its
    names= line), once however many cfgs use it."""
    sink = data_check(tmp_path, "classes=3\nnames=nowhere.names\n", None, two_heads())
    assert sink_codes(sink) == []
    own = Sink()
    lint_data_file(tmp_path / "obj.data", DataSettings(root=tmp_path), own)
    assert sink_codes(own) == [("DN414", 2)]


def test_data_file_missing(tmp_path: Path) -> None:
    result = lint_text(two_heads())
    assert result.network is not None
    sink = Sink()
    check_data_file(result.network, tmp_path / "absent.data", sink)
    assert sink_codes(sink) == []
    assert lint_data_file(tmp_path / "absent.data", DataSettings(), sink) is None
    assert sink_codes(sink) == [("DN414", None)]


def test_data_without_classes_uses_20(tmp_path: Path) -> None:
    sink = data_check(tmp_path, "names=obj.names\n", "a\nb\nc\n", two_heads())
    assert sink_codes(sink) == [("DN414", None), ("DN412", 14), ("DN412", 28)]


def test_no_cascade_after_a_broken_layer() -> None:
    text = """\
        [net]
        width=32
        height=32
        channels=3

        [bogus]

        [yolo]
        mask=0
        anchors=1,1
        classes=2
        num=1
        """
    assert codes(lint_text(text)) == [("DN020", 6), ("DN390", 6)]


def test_names_resolved_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "obj.names").write_text("a\nb\n")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "obj.data").write_text("classes=3\nnames=data/obj.names\n")
    monkeypatch.chdir(tmp_path)
    result = lint_text(two_heads())
    assert result.network is not None
    sink = Sink()
    check_data_file(result.network, tmp_path / "cfg" / "obj.data", sink)
    assert sink_codes(sink) == [("DN413", 14), ("DN413", 28)]
    assert "has 2 names" in sink.sorted()[0].message


def test_absurd_num_allocates_nothing() -> None:
    head = YOLO.replace("mask=0,1,2\n", "").replace("num=3", "num=2000000000")
    result = lint_text(cfg(head))
    assert [c for c, _ in head_diagnostics(result)] == ["DN404", "DN401"]


def test_many_unused_anchors_are_abbreviated() -> None:
    head = YOLO.replace("mask=0,1,2", "mask=0").replace("num=3", "num=100")
    result = lint_text(cfg(head, filters=7))
    unused = [d for d in result.diagnostics if d.code == "DN410"]
    assert len(unused) == 1
    assert "anchors 1 (16,30), 2 (33,23), 3 (0.5,0.5)" in unused[0].message
    assert "and 87 more of num=100" in unused[0].message


def test_absurd_num_with_a_short_mask_lists_a_few_unused_anchors() -> None:
    """The unused-anchor list stops after a dozen: num=2e9 is not walked to the end (it was,
    once compiled, which hung the lint)."""
    head = YOLO.replace("mask=0,1,2", "mask=0").replace("num=3", "num=2000000000")
    result = lint_text(cfg(head, filters=7))
    unused = [d for d in result.diagnostics if d.code == "DN410"]
    assert [(d.code, d.line) for d in unused] == [("DN410", 13)]
    assert unused[0].message.startswith("anchors 1 (16,30), 2 (33,23), 3 (0.5,0.5), 4 (0.5,0.5)")
    assert "and 1999999987 more of num=2000000000" in unused[0].message


@given(
    classes=st.integers(min_value=1, max_value=200),
    n=st.integers(min_value=1, max_value=9),
    extra=st.integers(min_value=-3, max_value=3),
    dialect=st.sampled_from(list(Dialect)),
)
@settings(max_examples=60, deadline=None)
def test_yolo_size_relation_property(classes: int, n: int, extra: int, dialect: Dialect) -> None:
    """filters == n*(classes+5) is exactly the condition for no DN401, in every dialect."""
    mask = ",".join(str(i) for i in range(n))
    anchors = ", ".join("10,10" for _ in range(n))
    head = f"[yolo]\nmask={mask}\nanchors={anchors}\nclasses={classes}\nnum={n}\n"
    filters = max(n * (classes + 5) + extra, 1)
    result = lint_text(cfg(head, filters=filters), dialect)
    assert result.network is not None
    assert result.network.layers[1].output == (32, 32, n * (classes + 5))
    found = ("DN401", 14) in codes(result)
    assert found == (filters != n * (classes + 5))
