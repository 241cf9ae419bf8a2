"""Shared fixtures: where ../shared lives, and a helper to lint inline cfg text."""

from __future__ import annotations

import json
import textwrap
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import FileResult, lint_cfg_bytes

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FIXTURES = ROOT / "fixtures"

# a small network with one warning (DN103 on line 3), shared by the CLI and config tests
WARNED_CFG = """\
[net]
batch=64
subdivisions=24
width=32
height=32
channels=3

[convolutional]
filters=16
size=3
activation=leaky
"""

ORACLES = {
    # oracle file -> (corpus fork directory, dialect that built it)
    "pjreddie.json": ("pjreddie", Dialect.PJ),
    "alexeyab.json": ("alexeyab", Dialect.AB),
    "pjreddie-cfgs-on-alexeyab.json": ("pjreddie", Dialect.AB),
    # hank-ai/darknet f684e1d on AlexeyAB's cfgs (hank ships them byte-identical)
    "hank-on-alexeyab-cfgs.json": ("alexeyab", Dialect.HANK),
}


def need_shared() -> Path:
    if not (SHARED / "oracle").is_dir() or not (SHARED / "corpus").is_dir():
        pytest.skip(f"../shared (oracle and corpus) not found at {SHARED}")
    return SHARED


@cache
def oracle(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((need_shared() / "oracle" / name).read_text())
    return data


def oracle_cases() -> list[tuple[str, str]]:
    """(oracle file, cfg key) pairs, or nothing when ../shared is absent."""
    cases = []
    for name in ORACLES:
        path = SHARED / "oracle" / name
        if path.is_file():
            cases += [(name, key) for key in json.loads(path.read_text())]
    return cases


def lint_text(text: str, dialect: Dialect | None = Dialect.AB, path: str = "t.cfg") -> FileResult:
    return lint_cfg_bytes(textwrap.dedent(text).lstrip("\n").encode(), path, dialect)


def codes(result: FileResult) -> list[tuple[str, int | None]]:
    """(code, line) of every diagnostic, in report order."""
    return [(d.code, d.line) for d in result.diagnostics]
