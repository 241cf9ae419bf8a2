"""--scan: NaN, Inf, zero blocks, batch-norm variances and absurd values, per layer and line."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from dnlint.diagnostics import Severity
from dnlint.weights.check import check_file
from dnlint.weights.scan import scan_values, scan_weights
from test_weights import L0, L1, TINY, predicted, write_weights

# offsets of layer 0's blocks (in floats from the start of the payload)
BIASES, SCALES, MEAN, VARIANCE, WEIGHTS0 = 0, 8, 16, 24, 32
WEIGHTS1 = L0 + 21


def healthy() -> np.ndarray:
    values = np.random.default_rng(3).uniform(0.1, 1.0, L0 + L1).astype("<f4")
    return values


def scan(tmp_path: Path, values: np.ndarray, chunk: int = 1 << 20) -> list[tuple[str, int | None,
                                                                           str]]:
    _, report = predicted(TINY)
    path = write_weights(tmp_path / "m.weights", values)
    check_file(report, path)
    return [(d.code, d.line, d.message)
            for d in scan_weights(report, chunk_floats=chunk, progress=False)]


def test_clean_file_has_no_finding(tmp_path: Path) -> None:
    assert scan(tmp_path, healthy()) == []


@pytest.mark.parametrize("chunk", [1 << 20, 7, 1])
def test_nan_poisoned_layer(tmp_path: Path, chunk: int) -> None:
    values = healthy()
    values[WEIGHTS1 + 5] = np.nan
    values[WEIGHTS1 + 9] = np.nan
    values[WEIGHTS1 + 20] = np.inf
    offset = 20 + 4 * WEIGHTS1
    assert scan(tmp_path, values, chunk) == [(
        "DN520", 14, f"layer 1 [convolutional] in m.weights: 2 NaN and 1 infinite values in "
        f"'weights' (168 floats at byte {offset:,})")]


def test_bn_variance_not_positive(tmp_path: Path) -> None:
    values = healthy()
    values[VARIANCE + 1] = -0.5
    values[VARIANCE + 2] = 0.0
    assert scan(tmp_path, values) == [(
        "DN522", 6, "layer 0 [convolutional] in m.weights: 2 rolling variances <= 0 in "
        "'rolling_variance' (8 floats at byte 116)")]


def test_all_zero_weights_block(tmp_path: Path) -> None:
    values = healthy()
    values[WEIGHTS0:L0] = 0
    assert scan(tmp_path, values) == [(
        "DN521", 6, "layer 0 [convolutional] in m.weights: every value of 'weights' (216 floats "
        "at byte 148) is zero")]


def test_zero_biases_are_fine(tmp_path: Path) -> None:
    values = healthy()
    values[BIASES:SCALES] = 0
    assert scan(tmp_path, values) == []


def test_absurd_magnitude(tmp_path: Path) -> None:
    values = healthy()
    values[WEIGHTS0 + 3] = -3e28
    (code, line, message) = scan(tmp_path, values)[0]
    assert (code, line) == ("DN523", 6)
    assert message == ("layer 0 [convolutional] in m.weights: 1 values above 1e+06 in magnitude "
                       "(max 3e+28) in 'weights' (216 floats at byte 148)")


def test_all_zero_file_is_one_finding(tmp_path: Path) -> None:
    findings = scan(tmp_path, np.zeros(L0 + L1, "<f4"))
    assert [(c, line) for c, line, _ in findings] == [("DN521", None)]
    assert findings[0][2].startswith(f"all {L0 + L1} floats read from ")


def test_truncated_file_scans_what_is_there(tmp_path: Path) -> None:
    values = healthy()[: L0 + 30]
    values[L0 + 25] = np.nan
    _, report = predicted(TINY)
    path = write_weights(tmp_path / "m.weights", values)
    check_file(report, path)
    result = scan_values(report, str(path))
    assert (result.floats, result.ended_early) == (L0 + 30, True)
    assert [d.code for d in scan_weights(report, progress=False)] == ["DN520"]


def test_scan_memory_is_bounded(tmp_path: Path) -> None:
    """A 40 MB layer is read in chunks: peak memory stays near the chunk size."""
    text = TINY.replace("filters=8\nsize=3", "filters=1024\nsize=3").replace(
        "[convolutional]\nfilters=21", "[convolutional]\nfilters=1024\nsize=3\n\n"
        "[convolutional]\nfilters=21")
    _, report = predicted(text)
    path = tmp_path / "big.weights"
    path.write_bytes(b"")
    write_weights(path, 0)
    with path.open("r+b") as stream:
        stream.truncate(report.expected_bytes)  # sparse zeros
    check_file(report, path)
    assert report.expected_bytes > 37_000_000
    tracemalloc.start()
    found = scan_weights(report, chunk_floats=1 << 18, progress=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [d.code for d in found] == ["DN521"]
    assert peak < 8 * 1024 * 1024
    assert found[0].severity is Severity.WARNING
