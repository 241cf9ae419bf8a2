"""``--target tensorrt-demos`` and ``--target hank-onnx`` against the real tools.

Stored (tests/targets/*.json, written by tests/target_oracles.py from runs of the real tools):
dnlint must predict accept/refuse exactly as the tool decided, on every stock cfg and on every
single-line mutant. Live (``DNLINT_LIVE_TARGETS=1``, with the tools set up as
../shared/targets/README.md says): the tools are run again and must agree with dnlint too, so a
new commit of a tool shows up as a failing test rather than stale stored verdicts.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult
from dnlint.targets import check_targets
from target_oracles import (
    CORPUS,
    emulation_blind,
    hank_mutants,
    load_stored,
    stock_cfgs,
    trt_mutants,
)

LIVE = os.environ.get("DNLINT_LIVE_TARGETS") == "1"
# only the cfgs whose key contains this text (a quick live check: "yolov3-tiny.cfg--")
LIVE_MATCH = os.environ.get("DNLINT_LIVE_TARGETS_MATCH", "")
FAMILY = {"tensorrt-demos": ("DN62", "DN63"), "hank-onnx": ("DN64", "DN65")}


def _need_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus not found at {CORPUS} (set DNLINT_SHARED)")


def _texts(tool: str) -> dict[str, bytes]:
    """Every cfg the stored verdicts name: the stock files and the mutants built from them."""
    forks = ("alexeyab", "pjreddie") if tool == "tensorrt-demos" else ("alexeyab",)
    texts = {key: path.read_bytes() for key, path in stock_cfgs(forks).items()}
    mutants = trt_mutants() if tool == "tensorrt-demos" else hank_mutants()
    texts.update({key: text.encode("utf-8") for key, text in mutants.items()})
    return texts


def linted(tool: str, key: str, data: bytes, dialect: Dialect) -> FileResult:
    result = lint_cfg_bytes(data, key, dialect)
    check_targets(result, (tool,))
    return result


def predicted(tool: str, key: str, data: bytes, dialect: Dialect | None = None) -> str:
    """accept/refuse as dnlint predicts: an error of the target's family. Under --dialect hank
    (hank-onnx) the hank dialect's own errors are reported as themselves, so any error."""
    if dialect is None:
        dialect = Dialect(key.split("/")[0]) if tool == "tensorrt-demos" else Dialect.AB
    result = linted(tool, key, data, dialect)
    family = FAMILY[tool] if dialect is not Dialect.HANK else ("DN",)
    refused = any(d.severity is Severity.ERROR and d.code.startswith(family)
                  for d in result.diagnostics)
    return "refuse" if refused else "accept"


def _disagreements(tool: str, verdicts: dict[str, str], texts: dict[str, bytes],
                   dialect: Dialect | None = None) -> list[str]:
    return [f"{key}: the tool says {verdict}, dnlint predicts {guess}"
            for key, verdict in sorted(verdicts.items()) if not emulation_blind(key)
            if (guess := predicted(tool, key, texts[key], dialect)) != verdict]


def test_what_the_tensorrt_runner_cannot_see_is_still_reported() -> None:
    """The plugin's asserts on a head's real input (yolo_layer.cu:120-122) are invisible to the
    runner (target_oracles.TRT_EMULATION_BLIND): dnlint reports the rule on each such mutant,
    at the head's line, where the runner recorded acceptance."""
    _need_corpus()
    verdicts = load_stored("tensorrt-demos")["verdicts"]
    blind = {key: code for key in verdicts if (code := emulation_blind(key))}
    assert len(blind) == 6
    texts = _texts("tensorrt-demos")
    for key, code in blind.items():
        assert verdicts[key] == "accept"
        result = linted("tensorrt-demos", key, texts[key], Dialect(key.split("/")[0]))
        assert [d.code for d in result.diagnostics if d.code.startswith("DN63")] == [code], key


@pytest.mark.parametrize("tool", ["tensorrt-demos", "hank-onnx"])
def test_stored_verdicts_name_every_cfg_and_mutant(tool: str) -> None:
    """The stored verdicts and the cfgs they are about stay in step: a mutation added without a
    run of the tool, or a stock cfg gone, fails here."""
    _need_corpus()
    stored = load_stored(tool)
    assert set(stored["verdicts"]) | set(stored.get("runner_artifacts", {})) == set(_texts(tool))


@pytest.mark.parametrize("tool", ["tensorrt-demos", "hank-onnx"])
def test_dnlint_predicts_every_stored_verdict(tool: str) -> None:
    _need_corpus()
    stored = load_stored(tool)
    verdicts = stored["verdicts"]
    assert _disagreements(tool, verdicts, _texts(tool)) == []
    # both outcomes occur often enough that a constant prediction would fail
    counts = {v: list(verdicts.values()).count(v) for v in ("accept", "refuse")}
    assert counts["accept"] >= 30 and counts["refuse"] >= 60, counts


def test_hank_onnx_under_the_hank_dialect_agrees_too() -> None:
    """--dialect hank reports hank's own refusals as themselves (no DN640): the prediction is
    any error."""
    _need_corpus()
    verdicts = load_stored("hank-onnx")["verdicts"]
    assert _disagreements("hank-onnx", verdicts, _texts("hank-onnx"), Dialect.HANK) == []


# -- live: run the tools ------------------------------------------------------------------------

def _live(variable: str, what: str) -> str:
    if not LIVE:
        pytest.skip("runs the real tool: set DNLINT_LIVE_TARGETS=1 (tests/target_oracles.py)")
    value = os.environ.get(variable)
    if not value or not Path(value).exists():
        pytest.skip(f"set {variable} to {what}")
    return value


def test_live_tensorrt_demos(tmp_path: Path) -> None:
    from target_oracles import _write_mutants, run_tensorrt_demos

    git = _live("DNLINT_TRT_GIT", "a clone or mirror of jkjung-avt/tensorrt_demos")
    venv = _live("DNLINT_TARGETS_VENV", "a venv with onnx and numpy (created if absent)")
    _need_corpus()
    texts = _texts("tensorrt-demos")
    verdicts: dict[str, str] = {}
    for fork in ("alexeyab", "pjreddie"):
        cfgs = stock_cfgs((fork,))
        cfgs.update(_write_mutants({k: v for k, v in trt_mutants().items()
                                    if k.startswith(fork + "/")}, str(tmp_path / fork)))
        cfgs = {k: v for k, v in cfgs.items() if LIVE_MATCH in k}
        if cfgs:
            verdicts.update(run_tensorrt_demos(cfgs, git, venv, fork, _dnlint()))
    assert verdicts
    assert _disagreements("tensorrt-demos", verdicts, texts) == []


def test_live_hank_onnx(tmp_path: Path) -> None:
    from target_oracles import _write_mutants, run_hank_onnx

    tool = _live("DNLINT_HANK_ONNX", "darknet_onnx_export built by ../shared/targets/hank_onnx")
    venv = _live("DNLINT_TARGETS_VENV", "a venv with onnx, onnxruntime and numpy")
    _need_corpus()
    cfgs = stock_cfgs(("alexeyab",))
    cfgs.update(_write_mutants(hank_mutants(), str(tmp_path)))
    cfgs = {k: v for k, v in cfgs.items() if LIVE_MATCH in k}
    assert cfgs
    verdicts = run_hank_onnx(cfgs, tool, venv, _dnlint())
    verdicts = {k: v for k, v in verdicts.items() if v != "artifact"}
    assert _disagreements("hank-onnx", verdicts, _texts("hank-onnx")) == []


def _dnlint() -> str:
    import sys

    return f"{sys.executable} -m dnlint"
