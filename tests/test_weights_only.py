"""--weights-only, the pre-commit weights hook: the weights files' findings and nothing of the
cfgs', so that with the cfg hook on too each problem is reported once."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

GOOD = "[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\nsize=3\n"
FLOATS = 16 + 16 * 3 * 3 * 3  # biases and weights of the one layer
TRUNCATED = ("backup/model_final.weights: DN514 error: the file ends at byte 1,800, inside "
             "layer 0 [convolutional] (line 6)")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--format", "concise", "--force-exclude", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model.cfg").write_text(GOOD + "filter=3\n")
    (tmp_path / "other.cfg").write_text(GOOD)
    (tmp_path / "backup").mkdir()
    header = struct.pack("<iiiq", 0, 2, 5, 0)
    (tmp_path / "backup" / "model_final.weights").write_bytes(header + bytes(4 * (FLOATS - 3)))
    return tmp_path


def test_the_two_hooks_report_each_problem_once(repo: Path) -> None:
    code, cfg_hook, _ = run("model.cfg", "other.cfg")
    assert code == 1 and TRUNCATED not in cfg_hook
    assert cfg_hook.startswith("model.cfg:9:1: DN201 error: ")
    code, weights_hook, _ = run("--weights-beside", "--weights-only", "model.cfg", "other.cfg",
                                "backup/model_final.weights")
    assert code == 1 and weights_hook.startswith(TRUNCATED)
    assert "DN201" not in weights_hook
    assert weights_hook.endswith("Found 1 problem (1 error) in 1 file.\n")


def test_a_changed_cfg_alone_is_checked_against_the_weights_beside_it(repo: Path) -> None:
    code, out, _ = run("--weights-beside", "--weights-only", "model.cfg")
    assert code == 1 and out.startswith(TRUNCATED) and "DN201" not in out


def test_a_cfg_without_weights_is_passed_over(repo: Path) -> None:
    assert run("--weights-beside", "--weights-only", "other.cfg") == (
        0, "Nothing checked (0 files).\n",
        "dnlint: no Darknet file checked; 1 path skipped:\n"
        "  other.cfg: skipped, no weights file to check against it (--weights-only)\n")
