"""--statistics as ruff does it: the counts per rule instead of the findings, in every format
(JSON as a JSON document)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = ("[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3\nsteps=1,2,\n"
       "scales=.1,.1\npolicy=steps\n\n[convolutional]\nfilters=4\nsize=1\nactivation=leeky\n")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--dialect", "ab", "--statistics", *args])
    return result.exit_code, result.stdout


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.cfg").write_text(CFG)
    (tmp_path / "b.cfg").write_text(CFG.replace("steps=1,2,", "steps=1,2"))
    return tmp_path


@pytest.mark.parametrize("output_format", ["text", "concise", "github", "sarif", "junit"])
def test_the_counts_replace_the_findings(cwd: Path, output_format: str) -> None:
    assert run("--format", output_format, "a.cfg", "b.cfg") == (1, (
        "2  DN103      batch-not-divisible\n"
        "2  DN207      unknown-enum-value\n"
        "1  DN209  [*] list-trailing-comma\n"
        "Found 5 problems (3 errors, 2 warnings) in 2 files.\n"
        "[*] 1 fixable with the --fix option.\n"))


def test_json_statistics(cwd: Path) -> None:
    code, out = run("--format", "json", "a.cfg", "b.cfg")
    document = json.loads(out)
    assert code == 1 and document["statistics"] == [
        {"code": "DN103", "name": "batch-not-divisible", "count": 2, "fixable": 0},
        {"code": "DN207", "name": "unknown-enum-value", "count": 2, "fixable": 0},
        {"code": "DN209", "name": "list-trailing-comma", "count": 1, "fixable": 1},
    ]
    assert document["summary"] == {"files": 2, "errors": 3, "warnings": 2, "infos": 0}
    assert sorted(document) == ["statistics", "summary", "tool", "version"]


def test_quiet_prints_the_counts_only_and_a_clean_run_nothing(cwd: Path) -> None:
    assert run("-q", "--select", "DN103", "a.cfg") == (0, "1  DN103  batch-not-divisible\n")
    assert run("-q", "--select", "DN6", "a.cfg") == (0, "")
