"""Shared fixtures: where ../shared lives, and a helper to lint inline cfg text."""

from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import dnlint.lint
from dnlint.dialects import Dialect, parse_dialect
from dnlint.lint import FileResult, lint_cfg_bytes

ROOT = Path(__file__).resolve().parents[1]
# the oracle and stock cfgs: ../shared next to the clone, or wherever DNLINT_SHARED points
SHARED = Path(os.environ.get("DNLINT_SHARED") or ROOT.parent / "shared")
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

# A monkeypatched function replaces what callers look up by name; a module compiled with mypyc
# calls its compiled neighbours directly and never sees the patch. Tests that watch calls that
# way run on the sources only: CI's second pass runs the whole suite on them.
SOURCES_ONLY = pytest.mark.skipif(
    (dnlint.lint.__file__ or "").endswith((".so", ".pyd")),
    reason="watches calls through a monkeypatch, which compiled (mypyc) modules do not see; "
           "CI runs the suite on the sources too")

ORACLES = {
    # oracle file -> (corpus fork directory, dialect that built it)
    "pjreddie.json": ("pjreddie", Dialect.PJ),
    "alexeyab.json": ("alexeyab", Dialect.AB),
    "pjreddie-cfgs-on-alexeyab.json": ("pjreddie", Dialect.AB),
    # hank-ai/darknet f684e1d on AlexeyAB's cfgs (hank ships them byte-identical)
    "hank-on-alexeyab-cfgs.json": ("alexeyab", Dialect.HANK),
}


NOBODY = 65534


def as_nobody(call: Callable[[], Any]) -> Any:
    """``call()`` in a forked child that has become ``nobody`` (the suite runs as root, who
    reads and writes any file); its result, which must be JSON, back through a pipe. Nothing
    is executed: the interpreter's files may not be readable by nobody, so the child uses what
    the parent imported."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            outcome = {"result": call()}
        except BaseException as exc:  # reported to the parent
            outcome = {"error": repr(exc)}
        os.write(write, json.dumps(outcome).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as stream:
        data = stream.read()
    os.waitpid(pid, 0)
    outcome = json.loads(data)
    assert "error" not in outcome, outcome["error"]
    return outcome["result"]


def need_shared() -> Path:
    if not (SHARED / "oracle").is_dir() or not (SHARED / "corpus").is_dir():
        pytest.skip(f"../shared (oracle and corpus) not found at {SHARED}; set DNLINT_SHARED")
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


# --- data sets (--check-labels) ---------------------------------------------------------------
DETECTOR_CFG = ("[net]\nbatch=64\nsubdivisions=64\nwidth=416\nheight=416\nchannels=3\n\n"
                "[convolutional]\nfilters=24\nsize=1\nactivation=linear\n\n[yolo]\n"
                "mask=0,1,2\nanchors=10,13, 16,30, 33,23\nclasses=3\nnum=3\n")
CLASSIFIER_CFG = ("[net]\nbatch=64\nsubdivisions=1\nwidth=32\nheight=32\nchannels=3\n\n"
                  "[convolutional]\nfilters=3\nsize=1\nactivation=linear\n\n[avgpool]\n\n"
                  "[softmax]\n")


def detector_job(root: Path) -> None:
    """A detector's training job in ``root``: 3 classes (obj.names), model.cfg, obj.data
    naming train.txt, an empty img/ and backup/."""
    (root / "img").mkdir()
    (root / "backup").mkdir()
    (root / "obj.names").write_text("cat\ndog\nbird\n")
    (root / "model.cfg").write_text(DETECTOR_CFG)
    (root / "obj.data").write_text(
        "classes=3\ntrain=train.txt\nnames=obj.names\nbackup=backup/\n")


def classifier_job(root: Path, folders: tuple[str, ...], listed: tuple[str, ...],
                   labels: tuple[str, ...]) -> None:
    """A classifier's training job in ``root``: train/<folder>/1.jpg for each folder, the list
    train.list of train/<name>/1.jpg for each of ``listed``, labels.txt, backup/, cls.data
    (classes= the number of labels; no names=, which classifier training never reads) and
    cls.cfg."""
    for folder in folders:
        (root / "train" / folder).mkdir(parents=True)
        (root / "train" / folder / "1.jpg").write_bytes(b"\xff\xd8")
    (root / "train.list").write_text("".join(f"train/{name}/1.jpg\n" for name in listed))
    (root / "labels.txt").write_text("".join(f"{label}\n" for label in labels))
    (root / "backup").mkdir()
    (root / "cls.data").write_text(f"classes={len(labels)}\ntrain=train.list\n"
                                   "labels=labels.txt\nbackup=backup/\n")
    (root / "cls.cfg").write_text(CLASSIFIER_CFG)


def lint_text(text: str, dialect: Dialect | None = Dialect.AB, path: str = "t.cfg") -> FileResult:
    return lint_cfg_bytes(textwrap.dedent(text).lstrip("\n").encode(), path, dialect)


def codes(result: FileResult) -> list[tuple[str, int | None]]:
    """(code, line) of every diagnostic, in report order."""
    return [(d.code, d.line) for d in result.diagnostics]


_EXPECT = re.compile(
    r"# expect:(?P<codes>(?: DN\d{3}(?::\d+)?)*)(?: --dialect (?P<dialect>[\w-]+))?"
    r"(?P<scan> --scan)?(?: -- .*)?"
)


@dataclass(frozen=True)
class Fixture:
    """A fixture file: its first line says what dnlint must report on the rest.

    ``# expect: DN006:9 DN009:10 [--dialect NAME] [--scan] [-- note]``: the (code, line) pairs in
    report order (a code without a line is a file-level finding, e.g. about a .weights file),
    the dialect (detected when absent, as on the command line) and, for a fixture with a .weights
    file of the same name, whether its values are scanned. The case starts after the header:
    its first line is line 1, as in pycodestyle's test cases, so bytes that must come first (a
    BOM, UTF-16) can be tested too.
    """

    path: Path
    data: bytes
    expected: list[tuple[str, int | None]]
    dialect: Dialect | None
    scan: bool

    @property
    def weights(self) -> Path | None:
        path = self.path.with_suffix(".weights")
        return path if path.is_file() else None


def read_fixture(path: Path) -> Fixture:
    raw = path.read_bytes()
    header, _, data = raw.partition(b"\n")
    match = _EXPECT.fullmatch(header.decode("ascii"))
    if match is None:
        raise ValueError(f"{path.name}: the first line is not '# expect: CODE:LINE ...'")
    expected = [(code, int(line) if line else None) for code, _, line in
                (item.partition(":") for item in match["codes"].split())]
    dialect = parse_dialect(match["dialect"]) if match["dialect"] else None
    return Fixture(path, data, expected, dialect, bool(match["scan"]))
