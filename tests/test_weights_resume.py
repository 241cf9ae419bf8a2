"""Resumed and fine-tuned weights: the iteration in the header's seen against max_batches."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = ("[net]\nbatch=64\nsubdivisions=16\nwidth=32\nheight=32\nchannels=3\nmax_batches=6000\n\n"
       "[convolutional]\nfilters=4\nsize=1\n")
PAYLOAD = b"\0" * 4 * (4 + 12)  # 4 biases and 4x3 weights of the 1x1 convolution


def _weights(path: Path, seen: int, minor: int = 2) -> Path:
    """A weights file for CFG with ``seen`` in its header (8 bytes from version 0.2 on)."""
    header = (struct.pack("<iiiQ", 0, minor, 5, seen) if minor >= 2
              else struct.pack("<iiii", 0, minor, 0, seen))
    path.write_bytes(header + PAYLOAD)
    return path


def _run(tmp_path: Path, cfg: str, *weights: Path, dialect: str = "alexeyab") -> list[str]:
    (tmp_path / "m.cfg").write_text(cfg)
    args = ["--format", "concise", "-q", "--dialect", dialect, str(tmp_path / "m.cfg")]
    for path in weights:
        args += ["--weights", str(path)]
    output = CliRunner().invoke(main, args).output
    return [line.split(" warning:")[0].split(" error:")[0].rsplit("/", 1)[-1]
            for line in output.splitlines()]


@pytest.mark.parametrize(("seen", "found"), [
    (0, []),  # never trained, or -clear'ed
    (64 * 5999 + 63, []),  # iteration 5999: one more to go
    (64 * 6000, ["m.cfg:7:13: DN524"]),
    (64 * 500_208, ["m.cfg:7:13: DN524"]),  # yolov4.weights with a custom max_batches
])
def test_seen_against_max_batches(tmp_path: Path, seen: int, found: list[str]) -> None:
    assert _run(tmp_path, CFG, _weights(tmp_path / "m.weights", seen)) == found


def test_the_message_says_the_iteration_and_the_fix(tmp_path: Path) -> None:
    (tmp_path / "m.cfg").write_text(CFG)
    weights = _weights(tmp_path / "yolov4.weights", 32_013_312)
    result = CliRunner().invoke(main, ["--format", "concise", str(tmp_path / "m.cfg"),
                                       "--weights", str(weights)])
    assert ("DN524 warning: yolov4.weights has seen 32,013,312 images, iteration 500,208 at "
            "batch=64, and the cfg has max_batches=6000: training from it saves _final.weights "
            "and stops at once (hint: add -clear") in result.output
    assert result.exit_code == 0


def test_the_iteration_counts_whole_batches_with_time_steps(tmp_path: Path) -> None:
    """get_current_batch divides by batch*subdivisions of the network: mini-batch x time_steps
    x subdivisions, so time_steps=2 halves the iteration."""
    cfg = CFG.replace("max_batches=6000", "max_batches=6000\ntime_steps=2")
    assert _run(tmp_path, cfg, _weights(tmp_path / "m.weights", 64 * 6000)) == []
    assert _run(tmp_path, cfg, _weights(tmp_path / "m.weights", 128 * 6000)) == [
        "m.cfg:7:13: DN524"]


def test_a_partial_backbone_with_a_count(tmp_path: Path) -> None:
    (tmp_path / "m.cfg").write_text(CFG)
    partial = _weights(tmp_path / "m.conv.1", 64 * 7000)
    result = CliRunner().invoke(main, ["--format", "concise", str(tmp_path / "m.cfg"),
                                       "--weights", str(partial)])
    assert "a partial backbone made by 'darknet partial' has seen=0" in result.output


def test_the_original_darknets_four_byte_seen(tmp_path: Path) -> None:
    weights = _weights(tmp_path / "m.weights", 64 * 6000, minor=1)
    assert _run(tmp_path, CFG, weights, dialect="pjreddie") == ["m.cfg:7:13: DN524"]


def test_no_max_batches_is_not_about_the_weights(tmp_path: Path) -> None:
    """Without max_batches (0) no file trains at all: a cfg for inference, not the weights'
    matter (the recipe's DN703 says it when asked)."""
    cfg = CFG.replace("max_batches=6000\n", "")
    assert _run(tmp_path, cfg, _weights(tmp_path / "m.weights", 64)) == []


def test_a_second_weights_file_reports_at_the_cfg_line(tmp_path: Path) -> None:
    first = _weights(tmp_path / "a.weights", 0)
    second = _weights(tmp_path / "b.weights", 64 * 6000)
    assert _run(tmp_path, CFG, first, second) == ["m.cfg:7:13: DN524"]
