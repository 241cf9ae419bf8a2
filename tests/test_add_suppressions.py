"""--add-suppressions (ruff's --add-noqa): a directive above each line with a finding, with a
reason placeholder; afterwards the file passes, and a second run adds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = ("[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3\n\n"
       "[convolutional]\nfilters=16\nfilter=3\nsize=3\nactivation=leeky\n\n"
       "[route]\nlayers = -1, 40\n\n[convolutional]\nfilters=4\nsize=1\n")
TODO = " -- TODO: say why this is right"
SUPPRESSED = ("[net]\nbatch=64\n# dnlint: disable-next-line=DN103" + TODO + "\n"
              "subdivisions=24\nwidth=32\nheight=32\nchannels=3\n\n"
              "[convolutional]\nfilters=16\n# dnlint: disable-next-line=DN201" + TODO + "\n"
              "filter=3\nsize=3\n# dnlint: disable-next-line=DN207" + TODO + "\n"
              "activation=leeky\n\n# dnlint: disable-next-line=DN390" + TODO + "\n"
              "[route]\n# dnlint: disable-next-line=DN302" + TODO + "\n"
              "layers = -1, 40\n\n[convolutional]\nfilters=4\nsize=1\n")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--dialect", "ab", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(CFG)
    return tmp_path


def test_adds_a_directive_above_each_line_and_the_file_then_passes(cwd: Path) -> None:
    assert run("--add-suppressions", "m.cfg") == (0, "Added 5 suppressions to 1 file.\n", "")
    assert (cwd / "m.cfg").read_text() == SUPPRESSED
    assert run("m.cfg") == (0, "All checks passed (1 file).\n", "")
    assert run("--add-suppressions", "m.cfg") == (0, "Added 0 suppressions.\n", "")
    assert (cwd / "m.cfg").read_text() == SUPPRESSED


def test_only_the_selected_rules_and_never_a_syntax_error(cwd: Path) -> None:
    (cwd / "m.cfg").write_text("batch=1\n" + CFG)  # an option before [net]: DN004, an error
    assert run("--add-suppressions", "--select", "DN0,DN2", "m.cfg")[:2] == (
        0, "Added 2 suppressions to 1 file.\n")
    text = (cwd / "m.cfg").read_text()
    assert text.startswith("batch=1\n[net]\n")  # DN004 cannot be suppressed: left as it is
    assert "disable-next-line=DN201" in text and "DN103" not in text


def test_keeps_crlf_line_endings(cwd: Path) -> None:
    (cwd / "m.cfg").write_bytes(CFG.replace("\n", "\r\n").encode())
    run("--add-suppressions", "--dialect", "ab", "--select", "DN201", "m.cfg")
    assert (cwd / "m.cfg").read_bytes() == CFG.replace(
        "filter=3\n", "# dnlint: disable-next-line=DN201" + TODO + "\nfilter=3\n").replace(
        "\n", "\r\n").encode()


def test_standard_input_gets_the_new_text_on_standard_output() -> None:
    code, out, err = run("--add-suppressions", "-", stdin=CFG)
    assert (code, out, err) == (0, SUPPRESSED, "Added 5 suppressions to 1 file.\n")


def test_not_with_fix() -> None:
    code, _, err = run("--add-suppressions", "--fix", "-", stdin=CFG)
    assert code == 2 and "--add-suppressions cannot be combined with --fix" in err
