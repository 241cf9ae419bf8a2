"""The weights stage: prediction, cfg-level load flags (W1-W5) and real files (W6-W10)."""

from __future__ import annotations

import struct
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import lint_text
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.dialects import Dialect
from dnlint.lint import FileResult, attach_prediction
from dnlint.weights import alternatives
from dnlint.weights.check import check_file
from dnlint.weights.header import parse_header, seen_bytes
from dnlint.weights.layout import WeightsReport

# 32x32x3 -> conv 8 (BN, 3x3) -> conv 21 (1x1) -> yolo with 3 anchors and 2 classes
TINY = """
[net]
width=32
height=32
channels=3

[convolutional]
batch_normalize=1
filters=8
size=3
stride=1
pad=1
activation=leaky

[convolutional]
filters=21
size=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,13, 16,30, 33,23
classes=2
num=3
"""
# layer 0: 8 biases + 3*8 BN + 3*8*9 weights; layer 1: 21 biases + 8*21 weights
L0, L1 = 8 + 24 + 216, 21 + 168
TINY_BYTES = 20 + 4 * (L0 + L1)


def predicted(text: str, dialect: Dialect = Dialect.AB) -> tuple[FileResult, WeightsReport]:
    result = lint_text(text, dialect)
    report = attach_prediction(result)
    assert report is not None
    return result, report


def write_weights(
    path: Path,
    floats: int | np.ndarray,
    version: tuple[int, int, int] = (0, 2, 5),
    seen_width: int = 8,
) -> Path:
    """A weights file as Darknet writes it: int32 version, seen, then float32 values."""
    values = (np.random.default_rng(7).standard_normal(floats).astype("<f4")
              if isinstance(floats, int) else floats.astype("<f4"))
    with path.open("wb") as stream:
        stream.write(struct.pack("<iii", *version))
        stream.write((64000).to_bytes(seen_width, "little"))
        values.tofile(stream)
    return path


def found(diagnostics: list[Diagnostic]) -> list[tuple[str, Severity]]:
    return [(d.code, d.severity) for d in diagnostics]


def check(tmp_path: Path, floats: int | np.ndarray, text: str = TINY,
          dialect: Dialect = Dialect.AB, **header: object) -> list[Diagnostic]:
    result, report = predicted(text, dialect)
    path = write_weights(tmp_path / "m.weights", floats, **header)  # type: ignore[arg-type]
    assert result.document is not None and result.dialect is not None
    return check_file(report, path, alternatives(result.document, result.dialect, report))


# --- prediction ---------------------------------------------------------------------------
def test_prediction_without_a_file() -> None:
    result, report = predicted(TINY)
    assert (report.expected_bytes, report.saved_bytes, report.header_bytes) == (
        TINY_BYTES, TINY_BYTES, 20)
    assert [(lay.index, lay.load_offset, lay.loaded_floats) for lay in report.weighted] == [
        (0, 20, L0), (1, 20 + 4 * L0, L1)]
    assert result.weights is report
    assert report.to_json() == {
        "expected_bytes": TINY_BYTES, "saved_bytes": TINY_BYTES, "header_bytes": 20,
        "path": None, "actual_bytes": None, "header": None, "loadable": True,
        "differences": []}


def test_layers_json_lists_blocks_in_loader_order() -> None:
    _, report = predicted(TINY)
    first = report.to_json(layers=True)["layers"][0]
    assert [(b["name"], b["floats"]) for b in first["blocks"]] == [
        ("biases", 8), ("scales", 8), ("rolling_mean", 8), ("rolling_variance", 8),
        ("weights", 216)]


# --- cfg-level flags (W1-W5) ----------------------------------------------------------------
def _with(option: str, layer: int = 0) -> str:
    """TINY with ``option`` added to conv layer 0 (line 7) or 1 (line 15)."""
    anchor = "activation=leaky\n" if layer == 0 else "activation=linear\n"
    return TINY.replace(anchor, anchor + option + "\n", 1)


def test_dontloadscales_loads_less_and_warns() -> None:
    result, report = predicted(_with("dontloadscales=1"))
    assert report.saved_bytes == TINY_BYTES
    assert report.expected_bytes == TINY_BYTES - 4 * 24
    assert report.differences() == [
        "layer 0 [convolutional] line 6: dontloadscales=1 (line 13): batch-norm scales, "
        "rolling mean and variance not loaded"]
    assert [(d.code, d.line) for d in result.diagnostics if d.code.startswith("DN5")] == [
        ("DN504", 6)]


def test_dontload_before_a_loaded_layer_misaligns() -> None:
    result, report = predicted(_with("dontload=1"))
    assert (report.saved_bytes, report.expected_bytes) == (TINY_BYTES, TINY_BYTES - 4 * L0)
    assert report.layers[1].load_offset == 20
    assert [(d.code, d.severity) for d in result.diagnostics if d.code.startswith("DN5")] == [
        ("DN505", Severity.WARNING)]


def test_dontload_on_the_last_weighted_layer_is_fine() -> None:
    result, report = predicted(_with("dontload=1", layer=1))
    assert report.expected_bytes == TINY_BYTES - 4 * L1
    assert not [d for d in result.diagnostics if d.code.startswith("DN5")]


def test_pj_dontsave_with_dontload_is_symmetric() -> None:
    result, report = predicted(_with("dontload=1\ndontsave=1"), Dialect.PJ)
    assert report.saved_bytes == report.expected_bytes == TINY_BYTES - 4 * L0
    assert not [d for d in result.diagnostics if d.code.startswith("DN5")]


def test_pj_dontsave_alone_cannot_reload() -> None:
    result, report = predicted(_with("dontsave=1"), Dialect.PJ)
    assert (report.saved_bytes, report.expected_bytes) == (TINY_BYTES - 4 * L0, TINY_BYTES)
    assert [d.code for d in result.diagnostics if d.code.startswith("DN5")] == ["DN506"]


def test_ab_ignores_dontsave() -> None:
    _, report = predicted(_with("dontsave=1"), Dialect.AB)
    assert report.saved_bytes == report.expected_bytes == TINY_BYTES


def test_pj_numload_loads_fewer_filters() -> None:
    _, report = predicted(_with("numload=4"), Dialect.PJ)
    assert report.expected_bytes == TINY_BYTES - 4 * (4 + 12 + 4 * 27)
    assert report.differences() == [
        "layer 0 [convolutional] line 6: numload=4 (line 13): loads 4 filters"]
    _, ab = predicted(_with("numload=4"), Dialect.AB)
    assert ab.expected_bytes == TINY_BYTES  # AlexeyAB's does not read numload


def test_numload_above_filters_is_dn501() -> None:
    result, _ = predicted(_with("numload=16"), Dialect.PJ)
    assert ("DN501", 13) in [(d.code, d.line) for d in result.diagnostics]


DECONV = """
[net]
width=8
height=8
channels=3

[deconvolutional]
filters=4
size=2
stride=2
{extra}
[convolutional]
filters=2
size=1
"""


def test_pj_deconvolutional_crashes_the_loader() -> None:
    result, report = predicted(DECONV.format(extra=""), Dialect.PJ)
    assert not report.loadable
    assert report.saved_bytes == 20 + 4 * (4 + 3 * 4 * 4 + 2 + 4 * 2)
    assert report.expected_bytes == 20  # the loader dies at layer 0, having read the header
    assert [(d.code, d.line) for d in result.diagnostics if d.code.startswith("DN5")] == [
        ("DN502", 6)]


def test_pj_deconvolutional_with_dontload_loads() -> None:
    result, report = predicted(DECONV.format(extra="dontload=1\n"), Dialect.PJ)
    assert report.loadable
    assert report.expected_bytes == 20 + 4 * (2 + 4 * 2)
    assert "DN502" not in [d.code for d in result.diagnostics]


def test_pj_unknown_section_crashes_the_loader(tmp_path: Path) -> None:
    text = TINY.replace("[convolutional]\nfilters=21", "[convolutionnal]\nfilters=21")
    result, report = predicted(text, Dialect.PJ)
    assert not report.loadable
    # the cfg alone: the unknown section is the error; the loader crash needs a weights file
    assert [d.code for d in result.diagnostics if d.code.startswith("DN5")] == []
    path = write_weights(tmp_path / "m.weights", L0 + L1)
    assert [(d.code, d.line) for d in check_file(report, path)] == [("DN503", None)]
    _, ab = predicted(text, Dialect.AB)
    assert ab.loadable


def test_ab_share_index_stores_nothing() -> None:
    text = TINY.replace("[convolutional]\nfilters=21", "[convolutional]\nfilters=8\nsize=3\n"
                        "pad=1\nbatch_normalize=1\nshare_index=0\n\n[convolutional]\nfilters=21")
    _, report = predicted(text, Dialect.AB)
    assert report.expected_bytes == report.saved_bytes == TINY_BYTES


# --- header ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("version", "pj", "ab"),
    [((0, 1, 0), 4, 4), ((0, 2, 0), 8, 8), ((0, 2, 5), 8, 8), ((0, 1001, 0), 4, 8),
     ((1001, 0, 0), 4, 8), ((0, 1000, 0), 4, 8), ((0, 0, 0), 4, 4),
     # major*10 wraps around in 32-bit int: 429496730*10 + 0 == 4
     ((429496730, 0, 0), 4, 8)],
)
def test_seen_width_per_fork(version: tuple[int, int, int], pj: int, ab: int) -> None:
    assert (seen_bytes(version[0], version[1], Dialect.PJ),
            seen_bytes(version[0], version[1], Dialect.AB)) == (pj, ab)
    assert seen_bytes(version[0], version[1], Dialect.HANK) == ab


def test_header_parse() -> None:
    head = struct.pack("<iiiQ", 0, 2, 5, 123456789012)
    header = parse_header(head, Dialect.AB)
    assert header is not None
    assert (header.version, header.seen, header.size, header.transpose) == (
        "0.2.5", 123456789012, 20, False)
    assert parse_header(head[:11], Dialect.AB) is None
    partial = parse_header(head[:15], Dialect.AB)
    assert partial is not None and not partial.complete


# --- real files ----------------------------------------------------------------------------------
def test_exact_file_has_no_diagnostic(tmp_path: Path) -> None:
    _, report = predicted(TINY)
    path = write_weights(tmp_path / "m.weights", L0 + L1)
    assert check_file(report, path) == []
    assert report.to_json()["actual_bytes"] == TINY_BYTES
    assert report.to_json()["header"] == {"major": 0, "minor": 2, "revision": 5, "seen": 64000}
    assert report.to_json()["path"] == str(path)


def test_old_four_byte_seen_header_loads_exactly(tmp_path: Path) -> None:
    assert check(tmp_path, L0 + L1, version=(0, 1, 0), seen_width=4) == []


def test_truncated_mid_layer(tmp_path: Path) -> None:
    diagnostics = check(tmp_path, L0 + 50)
    assert found(diagnostics) == [("DN514", Severity.ERROR)]
    (d,) = diagnostics
    size = 20 + 4 * (L0 + 50)
    assert d.path == str(tmp_path / "m.weights") and d.line is None
    assert d.message == (
        f"the file ends at byte {size:,}, inside layer 1 [convolutional] (line 14), in its "
        f"'weights' block: {L1 - 50} floats of the layer are missing ({L1 - 50} floats in that "
        f"block), {4 * (L1 - 50)} bytes ({L1 - 50} floats) in all")


def test_truncated_inside_a_float(tmp_path: Path) -> None:
    _, report = predicted(TINY)
    path = write_weights(tmp_path / "m.weights", 10)
    with path.open("ab") as stream:
        stream.write(b"\x00\x00")
    (d,) = check_file(report, path)
    assert d.code == "DN514"
    assert "in its 'scales' block: 237 floats and 2 bytes of the layer are missing (5 floats " \
        "and 2 bytes in that block)" in d.message


def test_truncated_at_a_layer_boundary_is_a_partial_file(tmp_path: Path) -> None:
    diagnostics = check(tmp_path, L0)
    assert found(diagnostics) == [("DN515", Severity.WARNING)]
    assert diagnostics[0].message == (
        f"{20 + 4 * L0:,} bytes end exactly after layer 0 (line 6): a partial file (a "
        f"pretrained backbone) with the weights of layer 0; the weights of layer 1 stay random "
        f"({4 * L1} bytes ({L1} floats) missing)")


def test_partial_file_is_an_error_for_hank(tmp_path: Path) -> None:
    assert found(check(tmp_path, L0, dialect=Dialect.HANK)) == [("DN515", Severity.ERROR)]


@pytest.mark.parametrize(("dialect", "version", "seen_width", "size"),
                         [(Dialect.AB, (0, 2, 5), 8, 20), (Dialect.PJ, (0, 1, 0), 4, 16),
                          (Dialect.HANK, (0, 2, 5), 8, 20)])
def test_header_only_is_an_empty_file_not_a_backbone(
        tmp_path: Path, dialect: Dialect, version: tuple[int, int, int], seen_width: int,
        size: int) -> None:
    diagnostics = check(tmp_path, 0, dialect=dialect, version=version, seen_width=seen_width)
    assert [(d.code, d.severity, d.message, d.hint) for d in diagnostics] == [(
        "DN514", Severity.ERROR,
        f"the file has only its {size}-byte header and no weights: load_weights reads "
        f"{4 * (L0 + L1):,} bytes ({L0 + L1} floats) after it",
        "the file is empty or truncated: download or copy it again")]


def test_surplus(tmp_path: Path) -> None:
    diagnostics = check(tmp_path, L0 + L1 + 10)
    assert found(diagnostics) == [("DN516", Severity.ERROR)]
    assert diagnostics[0].message == (
        f"{TINY_BYTES + 40:,} bytes, but load_weights reads {TINY_BYTES:,} (alexeyab, 20-byte "
        f"header): 40 bytes (10 floats) left over from byte {TINY_BYTES:,}")
    assert diagnostics[0].hint == ("were these weights trained with this very cfg (same "
                                   "layers, filters, classes)?")


def test_surplus_from_more_classes(tmp_path: Path) -> None:
    # the same network trained for 80 classes: filters=255 before the [yolo]
    (d,) = check(tmp_path, L0 + 255 * 9)
    assert d.code == "DN516"
    assert d.hint == ("the file fits classes=80 in every detection head (this cfg has "
                      "classes=2): the cfg was edited for a different dataset, or the file was "
                      "trained for another one")


def test_short_from_fewer_classes(tmp_path: Path) -> None:
    (d,) = check(tmp_path, L0 + 18 * 9)
    assert d.code == "DN514"
    assert d.hint is not None and d.hint.startswith("the file fits classes=1 in every")


def test_surplus_from_filters_of_the_last_layer(tmp_path: Path) -> None:
    classifier = TINY.split("[yolo]")[0]
    (d,) = check(tmp_path, L0 + 30 * 9, text=classifier)
    assert d.hint is not None and d.hint.startswith(
        "the file fits filters=30 in layer 1 (line 14; the cfg has filters=21)")


def test_file_written_with_dontloadscales_saved_layout(tmp_path: Path) -> None:
    (d,) = check(tmp_path, L0 + L1, text=_with("dontloadscales=1"))
    assert d.code == "DN516"
    assert d.hint is not None and d.hint.startswith(
        "the file is exactly what save_weights writes for this cfg; the loader reads less "
        "because of layer 0 [convolutional] line 6: dontloadscales=1 (line 13)")


def test_seen_width_disagreeing_with_the_layout(tmp_path: Path) -> None:
    # header says 0.1 (4-byte seen) but the writer put 8 bytes there
    (d,) = check(tmp_path, L0 + L1, version=(0, 1, 0), seen_width=8)
    assert d.code == "DN516"
    assert "4 bytes (1 float) left over" in d.message
    assert d.hint == ("the header (version 0.1.0) makes alexeyab read a 4-byte seen, but the "
                      "layers fit exactly after a 8-byte one: the version in the header does "
                      "not match the writer")


def test_transposed_header_warns_and_uses_the_dialect_width(tmp_path: Path) -> None:
    ab = check(tmp_path, L0 + L1, version=(0, 1001, 0), seen_width=8)
    assert found(ab) == [("DN512", Severity.WARNING)]
    pj = check(tmp_path, L0 + L1, dialect=Dialect.PJ, version=(0, 1001, 0), seen_width=4)
    assert found(pj) == [("DN512", Severity.WARNING)]
    assert "original Darknet reads a 4-byte seen where AlexeyAB's reads 8 bytes" in pj[0].message


@pytest.mark.parametrize("size", [0, 5, 11])
def test_shorter_than_the_version_header(tmp_path: Path, size: int) -> None:
    _, report = predicted(TINY)
    path = tmp_path / "m.weights"
    path.write_bytes(b"\x00" * size)
    assert found(check_file(report, path)) == [("DN510", Severity.ERROR)]


def test_ends_inside_seen(tmp_path: Path) -> None:
    _, report = predicted(TINY)
    path = tmp_path / "m.weights"
    path.write_bytes(struct.pack("<iii", 0, 2, 0) + b"\x01\x00")
    (d,) = check_file(report, path)
    assert d.code == "DN510" and "ends inside the header" in d.message


@pytest.mark.parametrize("version", [(-1, 2, 0), (0, -2, 0), (1065353216, 0, 0), (0, 2, 10**9)])
def test_impossible_headers(tmp_path: Path, version: tuple[int, int, int]) -> None:
    assert found(check(tmp_path, L0 + L1, version=version)) == [("DN511", Severity.ERROR)]


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (b"version https://git-lfs.github.com/spec/v1\noid sha256:4bf3\nsize 248007048\n",
         "a Git LFS pointer"),
        (b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head></html>\n", "an HTML page"),
        (b"PK\x03\x04" + b"\x00" * 22 + b"\x10\x00\x00\x00" + b"archive/data.pkl" + b"\x00" * 40,
         "a PyTorch checkpoint"),
        (b"PK\x03\x04" + b"\x00" * 22 + b"\x08\x00\x00\x00" + b"yolo.txt" + b"\x00" * 40,
         "a zip archive"),
        (b"\x80\x02\x8a\x0alz\xfc\x9c" + b"\x00" * 40, "a Python pickle"),
        (b"\x89HDF\r\n\x1a\n" + b"\x00" * 40, "an HDF5 file"),
        (b"\x08\x07\x12\x07pytorch\x1a\x052.0.1" + b"\x00" * 40, "an ONNX model"),
        (b"[net]\nwidth=416\nheight=416\n", "a Darknet .cfg file"),
    ],
)
def test_not_a_weights_file(tmp_path: Path, content: bytes, kind: str) -> None:
    _, report = predicted(TINY)
    path = tmp_path / "m.weights"
    path.write_bytes(content)
    (d,) = check_file(report, path)
    assert (d.code, d.severity) == ("DN513", Severity.ERROR)
    assert d.message.startswith(f"not a Darknet weights file: this is {kind}")


BATCHNORM = """
[net]
width=4
height=4
channels=2

[convolutional]
filters=4
size=1

[batchnorm]
"""


def test_file_from_the_other_fork(tmp_path: Path) -> None:
    # AlexeyAB's [batchnorm] stores 4*c floats, the original 3*c: an ab file read as pj
    conv = 4 + 2 * 4
    diagnostics = check(tmp_path, conv + 16, text=BATCHNORM, dialect=Dialect.PJ)
    assert found(diagnostics) == [("DN517", Severity.WARNING), ("DN516", Severity.ERROR)]
    assert diagnostics[0].message.startswith(
        "header version 0.2.5 is what AlexeyAB's Darknet writes, but the file is read as "
        "pjreddie, and the layout of [batchnorm] differs between the forks")
    assert diagnostics[1].hint == (
        f"the file fits this cfg as alexeyab exactly ({20 + 4 * (conv + 16)} bytes with a "
        "20-byte header): choose that dialect with --dialect")


# published files, by size: (fork, cfg, dialect, header version, size, code, message start)
PUBLISHED = [
    ("pjreddie", "yolov3.cfg", Dialect.PJ, (0, 2, 0), 248007048, None, ""),  # yolov3.weights
    ("alexeyab", "yolov3.cfg", Dialect.AB, (0, 2, 0), 248007048, None, ""),
    ("pjreddie", "yolov2.cfg", Dialect.PJ, (0, 1, 0), 203934260, None, ""),  # 16-byte header
    ("alexeyab", "yolov4.cfg", Dialect.AB, (0, 2, 5), 257717640, None, ""),  # yolov4.weights
    ("pjreddie", "yolov3.cfg", Dialect.PJ, (0, 2, 0), 162482580, "DN515",  # darknet53.conv.74
     "162,482,580 bytes end exactly after layer 73 (line 537): a partial file (a pretrained "
     "backbone) with the weights of 52 layers (0-73); the weights of 23 layers (75-105) stay "
     "random"),
    ("alexeyab", "yolov4.cfg", Dialect.AB, (0, 2, 5), 170038676, "DN515",  # yolov4.conv.137
     "170,038,676 bytes end exactly after layer 136 (line 939): a partial file (a pretrained "
     "backbone) with the weights of 92 layers (0-136); the weights of 18 layers (137-160) stay "
     "random"),
    ("pjreddie", "yolov3-voc.cfg", Dialect.PJ, (0, 2, 0), 248007048, "DN516",  # COCO on VOC
     "248,007,048 bytes, but load_weights reads 246,714,648 (pjreddie, 20-byte header): "
     "1,292,400 bytes (323,100 floats) left over"),
]


@pytest.mark.parametrize(("fork", "cfg", "dialect", "version", "size", "code", "start"),
                         PUBLISHED)
def test_published_file_sizes(tmp_path: Path, fork: str, cfg: str, dialect: Dialect,
                              version: tuple[int, int, int], size: int, code: str | None,
                              start: str) -> None:
    from conftest import SHARED, need_shared
    from dnlint.lint import lint_cfg_bytes

    need_shared()
    source = SHARED / "corpus" / fork / "cfg" / cfg
    report = attach_prediction(lint_cfg_bytes(source.read_bytes(), str(source), dialect))
    assert report is not None
    path = tmp_path / "published.weights"
    with path.open("wb") as stream:
        stream.write(struct.pack("<iii", *version) + bytes(8))
        stream.truncate(size)  # sparse: only the size matters
    diagnostics = check_file(report, path)
    assert [d.code for d in diagnostics] == ([code] if code else [])
    assert all(d.message.startswith(start) for d in diagnostics)


def test_size_check_never_reads_the_payload(tmp_path: Path) -> None:
    """A sparse 8 GiB file costs a stat and a 1 KiB read, like a small one."""
    _, report = predicted(TINY)
    path = write_weights(tmp_path / "big.weights", 16)
    with path.open("r+b") as stream:
        stream.truncate(8 * 1024**3)
    start = time.perf_counter()
    (d,) = check_file(report, path)
    assert time.perf_counter() - start < 0.5
    assert d.code == "DN516" and f"{8 * 1024**3 - TINY_BYTES:,} bytes" in d.message


# --- text summary ----------------------------------------------------------------------------
def test_render_summary_and_layers(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from dnlint.weights.render import render_weights, summary_lines

    _, report = predicted(_with("dontloadscales=1"))
    path = write_weights(tmp_path / "m.weights", L0 + L1)
    check_file(report, path)
    assert summary_lines(report) == [
        f"weights (alexeyab): load_weights reads {TINY_BYTES - 96:,} bytes, save_weights writes "
        f"{TINY_BYTES:,} (with the 20-byte header)",
        "  differs: layer 0 [convolutional] line 6: dontloadscales=1 (line 13): batch-norm "
        "scales, rolling mean and variance not loaded",
        f"  file {path}: {TINY_BYTES:,} bytes, version 0.2.5, seen 64,000 (8-byte), 20-byte "
        "header: 96 bytes too long",
    ]
    out = io.StringIO()
    render_weights(report, Console(file=out, width=200), show_layers=True)
    table = out.getvalue().splitlines()[3:]
    assert table[0].split() == ["layer", "type", "line", "load", "offset", "floats", "loaded",
                                "floats", "saved", "notes"]
    assert table[1].split()[:6] == ["0", "convolutional", "6", "20", "224", "248"]
    assert table[2].split() == ["1", "convolutional", "15", "916", "189", "189"]


# --- any size: exactly one verdict, and it names the right place --------------------------------
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=st.integers(min_value=0, max_value=4 * (L0 + L1) + 64))
def test_every_size_gets_one_verdict(tmp_path: Path, payload: int) -> None:
    _, report = predicted(TINY)
    path = tmp_path / "m.weights"
    path.write_bytes(struct.pack("<iiiQ", 0, 2, 5, 0) + bytes(payload))
    codes = [d.code for d in check_file(report, path)]
    expected = 4 * (L0 + L1)
    if payload == expected:
        assert codes == []
    elif payload > expected:
        assert codes == ["DN516"]
    elif payload == 0:
        assert codes == ["DN514"]
        assert "only its 20-byte header" in check_file(report, path)[0].message
    elif payload == 4 * L0:
        assert codes == ["DN515"]
    else:
        assert codes == ["DN514"]
        layer = 0 if payload < 4 * L0 else 1
        assert f"inside layer {layer} [convolutional]" in check_file(report, path)[0].message
