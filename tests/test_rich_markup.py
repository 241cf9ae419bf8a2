"""Nothing dnlint prints through rich is read as markup: a file name with ``[bold]`` keeps it,
an unbalanced ``[/b]`` is text (it ended the layer table with exit 3), in the text report, the
layer table, the weights table and the scan's progress bar, coloured or not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main
from dnlint.weights.scan import _progress
from test_weights import L0, L1, TINY, write_weights

CFG = ("[net]\nwidth=32 # c\nheight=32\nchannels=3\n\n[convolutional]\nfilters=8\nsize=3\n"
       "activation=leaky\n")
NAMES = ["[bold]m.cfg", "x[/b]y.cfg", "[red]:smile:[link=x].cfg"]  # x[ is a directory
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--no-config", "--dialect", "ab", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("color", ["never", "always"])
def test_a_file_name_is_text_in_the_report_and_the_layer_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, color: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).parent.mkdir(exist_ok=True)
    (tmp_path / name).write_text(CFG)
    code, out, err = run("--layers", "--color", color, name)
    plain = ANSI.sub("", out)
    assert (code, err) == (0, "")
    assert plain.startswith(f"{name}:2:10: DN012 [*] warning: inline comment after width")
    assert f" {name} (alexeyab) " in plain  # the table's title
    assert "1 layers, 224 parameters (896 bytes)" in plain


@pytest.mark.parametrize("color", ["never", "always"])
def test_a_weights_name_and_a_note_are_text_in_the_weights_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, color: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "[bold]t.cfg").write_text(TINY)
    write_weights(tmp_path / "[bold]t.weights", L0 + L1 - 1)
    code, out, _ = run("--layers", "--color", color, "[bold]t.cfg", "--weights",
                       "[bold]t.weights")
    plain = ANSI.sub("", out)
    assert code == 1
    assert "file [bold]t.weights: " in plain


def test_the_scan_progress_bar_shows_the_name_as_it_is() -> None:
    progress = _progress("/data/[bold]x[b.weights", 100, wanted=True)
    advance = progress.__enter__()
    try:
        advance(10)
        from rich.progress import Progress

        assert isinstance(progress.bar, Progress)
        task = progress.bar.tasks[0]
        assert progress.bar.columns[0].render(task).plain == "scanning [bold]x[b.weights"
    finally:
        progress.__exit__()
