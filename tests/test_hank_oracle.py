"""``--dialect hank`` against hank-ai/darknet's own build (f684e1d) on AlexeyAB's 95 stock cfgs.

Shapes and byte counts of the files hank builds are compared in test_oracle.py and
test_weights_oracle.py (``hank-on-alexeyab-cfgs.json`` is one of their ORACLES). Here: no error
on the files hank builds, and on each file it refuses the error that explains it, at the line
hank names, quoting what hank printed.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from conftest import SHARED, need_shared, oracle
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.dialects import Dialect
from dnlint.lint import FileResult, lint_cfg_bytes

ORACLE = "hank-on-alexeyab-cfgs.json"


def _keys() -> list[str]:
    path = SHARED / "oracle" / ORACLE
    return sorted(json.loads(path.read_text())) if path.is_file() else []


KEYS = _keys()

# Runs that died of a signal rather than through darknet_fatal_error: the rule that explains it.
CRASHED_BECAUSE = {
    # SIGFPE in create_network (darknet_cfg.cpp:1149): avg_outputs / avg_counter with no layer
    # wider and taller than 1
    "cfg/rnn.cfg": "DN313",
    "cfg/rnn.train.cfg": "DN313",
    "cfg/lstm.train.cfg": "DN313",
    "cfg/crnn.train.cfg": "DN313",
    # SIGSEGV inside calloc: parse_yolo copies all 20 anchors into biases sized for num=16,
    # and the next allocation trips over the overwritten heap
    "cfg/cspx-p7-mish.cfg": "DN404",  # the anchors-count error that explains the overflow
}

# hank's error_message -> the rules that must report it (at the 'line' the message names)
_REFUSALS: list[tuple[re.Pattern[str], frozenset[str]]] = [
    (re.compile(r"config line #(?P<line>\d+) from section \[[^\]]+\] is unused or invalid: .*"),
     frozenset({"DN201", "DN202"})),
    (re.compile(r'duplicate key "[^"]+" in \[[^\]]+\] at lines #\d+ and #(?P<line>\d+)'),
     frozenset({"DN009"})),
    (re.compile(r'layer name "[^"]+" is not supported'), frozenset({"DN020", "DN021"})),
]


def _lint(key: str) -> FileResult:
    path = SHARED / "corpus" / "alexeyab" / key
    return lint_cfg_bytes(path.read_bytes(), str(path), Dialect.HANK)


def _errors(result: FileResult) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.severity is Severity.ERROR]


def _entry(key: str) -> dict[str, Any]:
    need_shared()
    entry: dict[str, Any] = oracle(ORACLE)[key]
    return entry


@pytest.mark.parametrize("key", KEYS)
def test_hank_verdict(key: str) -> None:
    """ok: no error and a network; error/crash: the error that explains hank's refusal."""
    entry = _entry(key)
    result = _lint(key)
    errors = _errors(result)
    if entry["status"] == "ok":
        assert errors == [], [f"{d.code}:{d.line} {d.message}" for d in errors]
        assert result.network is not None
        assert len(result.network.layers) == entry["net"]["n"]
        return
    if entry["status"] == "crash":
        assert CRASHED_BECAUSE[key] in {d.code for d in errors}
        return
    assert entry["status"] == "error"
    message = entry["error_message"]
    codes, pattern = _refusal(message)
    matching = sorted((d for d in errors if d.code in codes), key=lambda d: d.line or 0)
    assert matching, f"hank: {message}; dnlint: {[(d.code, d.line) for d in errors]}"
    match = pattern.match(message)
    assert match is not None
    if "line" in pattern.groupindex:
        matching = [d for d in matching if d.line == int(match.group("line"))]
        assert matching, f"no {sorted(codes)} at line {match.group('line')}"
    # the first such error is the one hank stops at, and it quotes hank's own words
    assert match.group() in matching[0].message


def _refusal(message: str) -> tuple[frozenset[str], re.Pattern[str]]:
    for pattern, codes in _REFUSALS:
        if pattern.match(message):
            return codes, pattern
    raise AssertionError(f"no rule is mapped to hank's message {message!r}")


def test_every_crash_is_explained() -> None:
    need_shared()
    crashed = {key for key, entry in oracle(ORACLE).items() if entry["status"] == "crash"}
    assert crashed == set(CRASHED_BECAUSE)


def test_oracle_covers_all_stock_cfgs() -> None:
    need_shared()
    statuses = [entry["status"] for entry in oracle(ORACLE).values()]
    assert (len(statuses), statuses.count("ok")) == (95, 48)


def test_spaced_anchors_are_four_numbers_for_hank() -> None:
    """cspx-p7-mish_hp's '61,45    61,45': hank reads both pairs (32 anchors), no error."""
    entry = _entry("cfg/cspx-p7-mish_hp.cfg")
    result = _lint("cfg/cspx-p7-mish_hp.cfg")
    assert entry["status"] == "ok" and _errors(result) == []
    assert result.network is not None
    head = next(layer for layer in result.network.layers if layer.type == "yolo")
    assert head.values is not None
    anchors = head.values.list("anchors")
    assert anchors is not None and len(anchors) == 32 and anchors[6:10] == [61, 45, 61, 45]
    warned = [(d.code, d.severity) for d in result.diagnostics if d.line == head.line + 2]
    assert warned == [("DN028", Severity.WARNING)]
