"""dnlint's shape pass against what Darknet's own C code built for every stock cfg."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import ORACLES, SHARED, lint_cfg_bytes, need_shared, oracle, oracle_cases

CASES = oracle_cases()


def _layer_mismatches(expected: list[dict[str, Any]], layers: list[Any]) -> list[str]:
    problems = []
    if len(expected) != len(layers):
        problems.append(f"{len(layers)} layers, oracle has {len(expected)}")
    for want, got in zip(expected, layers, strict=False):
        mine = {
            "type": got.type,
            "out": list(got.output),
            "outputs": got.outputs,
        }
        theirs = {"type": want["type"], "out": want["out"], "outputs": want["outputs"]}
        if want.get("saved_bytes_layer") is not None:
            mine["saved_bytes"] = 4 * got.params
            theirs["saved_bytes"] = want["saved_bytes_layer"]
        if mine != theirs:
            problems.append(f"layer {want['i']}: dnlint {mine} != darknet {theirs}")
    return problems


@pytest.mark.parametrize(("oracle_file", "key"), CASES, ids=[f"{o}:{k}" for o, k in CASES])
def test_layers_match_oracle(oracle_file: str, key: str) -> None:
    need_shared()
    entry = oracle(oracle_file)[key]
    if entry["status"] != "ok":
        pytest.skip(f"Darknet did not build {key} ({entry['status']}); see test_corpus")
    fork, dialect = ORACLES[oracle_file]
    path = SHARED / "corpus" / fork / key
    result = lint_cfg_bytes(path.read_bytes(), str(path), dialect)
    assert result.network is not None
    problems = _layer_mismatches(entry["layers"], result.network.layers)
    assert not problems, "\n".join(problems[:15])


def test_oracle_cases_exist() -> None:
    need_shared()
    assert len(CASES) == 45 + 95 + 45 + 95
