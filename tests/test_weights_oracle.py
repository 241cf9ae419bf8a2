"""The weights prediction against Darknet's own save_weights/load_weights on every stock cfg."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import ORACLES, SHARED, need_shared, oracle, oracle_cases
from dnlint.lint import lint_cfg_bytes
from dnlint.weights.layout import FLOAT, WeightsReport

CASES = oracle_cases()


def _predict(oracle_file: str, key: str) -> tuple[dict[str, Any], WeightsReport]:
    need_shared()
    entry = oracle(oracle_file)[key]
    if entry["status"] != "ok":
        pytest.skip(f"Darknet did not build {key} ({entry['status']})")
    fork, dialect = ORACLES[oracle_file]
    path = SHARED / "corpus" / fork / key
    report = lint_cfg_bytes(path.read_bytes(), str(path), dialect).weights
    assert report is not None, f"{key} does not build"
    return entry, report


def _layer_mismatches(entry: dict[str, Any], report: WeightsReport) -> list[str]:
    problems = []
    for want, got in zip(entry["layers"], report.layers, strict=False):
        mine = (FLOAT * got.saved_floats, FLOAT * got.loaded_floats)
        theirs = (want.get("saved_bytes_layer"), want.get("consumed_bytes_layer"))
        if mine != theirs:
            problems.append(f"layer {want['i']} {want['type']}: dnlint saves/loads {mine}, "
                            f"darknet {theirs}")
    return problems


@pytest.mark.parametrize(("oracle_file", "key"), CASES, ids=[f"{o}:{k}" for o, k in CASES])
def test_totals_match_oracle(oracle_file: str, key: str) -> None:
    entry, report = _predict(oracle_file, key)
    got = (report.saved_bytes, report.expected_bytes, report.header_bytes)
    want = (entry["saved_bytes"], entry["consumed_bytes_v02"], entry["saved_header_bytes"])
    assert got == want, "\n".join(_layer_mismatches(entry, report)[:10])


@pytest.mark.parametrize(("oracle_file", "key"), CASES, ids=[f"{o}:{k}" for o, k in CASES])
def test_old_header_consumes_four_bytes_less(oracle_file: str, key: str) -> None:
    """v0.1 headers carry a 4-byte seen: the oracle's consumed_bytes_v01 is 4 bytes less."""
    entry, report = _predict(oracle_file, key)
    assert entry["consumed_bytes_v01"] == report.expected_bytes - 4


@pytest.mark.parametrize(("oracle_file", "key"), CASES, ids=[f"{o}:{k}" for o, k in CASES])
def test_transposed_header_width_per_fork(oracle_file: str, key: str) -> None:
    """Header 0.1001.0: pjreddie reads a 4-byte seen, AlexeyAB an 8-byte one."""
    from dnlint.weights.header import VERSION_BYTES, seen_bytes

    entry, report = _predict(oracle_file, key)
    header = VERSION_BYTES + seen_bytes(0, 1001, report.dialect)
    assert entry["consumed_bytes_transposed_0_1001_0"] == report.expected_payload + header


@pytest.mark.parametrize(("oracle_file", "key"), CASES, ids=[f"{o}:{k}" for o, k in CASES])
def test_per_layer_bytes_match_oracle(oracle_file: str, key: str) -> None:
    """Each layer's share of the saved file and of the v0.2 load, as Darknet measured it."""
    entry, report = _predict(oracle_file, key)
    assert len(entry["layers"]) == len(report.layers)
    assert _layer_mismatches(entry, report) == []
