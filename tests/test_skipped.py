"""A run that checks nothing says so, and why; -v names every skipped path and the
configuration; --show-settings; Darknet's own layouts are not excluded; another tool's INI
file named under --force-exclude is skipped with a note, a typo'd Darknet cfg never."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = "[net]\nwidth=8\nheight=8\nchannels=3\n\n[convolutional]\nfilters=4\nsize=1\n"
SETUP_CFG = "[metadata]\nname = x\n\n[flake8]\nmax-line-length = 100\n"
BUMPVERSION = "[bumpversion]\ncurrent_version = 1.0\n\n[bumpversion:file:setup.py]\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--format", "concise", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_run_of_only_a_notepad_name_says_what_it_skipped(cwd: Path) -> None:
    (cwd / "d").mkdir()
    (cwd / "d" / "yolo-obj.cfg.txt").write_text(CFG)
    assert run("d") == (0, "Nothing checked (0 files).\n", (
        "dnlint: no Darknet file checked; 1 path skipped:\n"
        "  d/yolo-obj.cfg.txt: skipped, a '.cfg.txt' name (Notepad adds '.txt'): rename it to "
        "end in .cfg, or name it on the command line\n"))
    assert run("d/yolo-obj.cfg.txt") == (0, "All checks passed (1 file).\n", "")


def test_an_empty_directory_says_it_holds_nothing(cwd: Path) -> None:
    (cwd / "d").mkdir()
    assert run("d") == (0, "Nothing checked (0 files).\n",
                        "dnlint: no Darknet file checked: d hold no *.cfg or *.weights file\n")


def test_verbose_lists_every_skipped_path_and_the_configuration(cwd: Path) -> None:
    (cwd / ".dnlint.toml").write_text('dialect = "alexeyab"\n')
    (cwd / "setup.cfg").write_text(SETUP_CFG)
    (cwd / "m.cfg").write_text(CFG)
    (cwd / ".venv").mkdir()
    code, out, err = run("-v", ".")
    assert code == 0 and out.endswith("All checks passed (1 file).\n")
    assert err == (".venv: skipped, excluded by '.venv'\n"
                   "setup.cfg: skipped, not a Darknet cfg (an INI file: [metadata], [flake8], "
                   "none of Darknet's sections)\n"
                   f"configuration: {cwd / '.dnlint.toml'}\n")


def test_the_default_excludes_keep_alexeyabs_build_layout(cwd: Path) -> None:
    layout = cwd / "build" / "darknet" / "x64" / "cfg"
    layout.mkdir(parents=True)
    (layout / "yolo-obj.cfg").write_text(CFG)
    (cwd / "other" / "build").mkdir(parents=True)
    (cwd / "other" / "build" / "copy.cfg").write_text(CFG + "bogus=1\n")
    assert run(".") == (0, "All checks passed (1 file).\n", "")
    assert run("--force-exclude", "build/darknet/x64/cfg/yolo-obj.cfg")[1] == (
        "All checks passed (1 file).\n")
    # a pattern the user writes stands
    assert run("--exclude", "build", ".")[1] == "Nothing checked (0 files).\n"


@pytest.mark.parametrize("text", [SETUP_CFG, BUMPVERSION])
def test_another_tools_ini_file_named_under_force_exclude_is_skipped(cwd: Path,
                                                                     text: str) -> None:
    (cwd / "setup.cfg").write_text(text)
    code, out, err = run("--force-exclude", "setup.cfg")
    assert (code, out) == (0, "Nothing checked (0 files).\n")
    assert err.startswith("dnlint: setup.cfg: skipped, not a Darknet cfg (an INI file: [")
    code, out, _ = run("setup.cfg")  # named by a person: linted
    assert code == 1 and ": DN0" in out


@pytest.mark.parametrize("text", [
    CFG.replace("[convolutional]", "[convolutionl]"),
    CFG.replace("[net]", "[Net]"),
    "batch=1\n" + CFG,
    "[metadata]\n" + CFG,
])
def test_a_typoed_darknet_cfg_is_never_skipped(cwd: Path, text: str) -> None:
    (cwd / "d").mkdir()
    (cwd / "d" / "m.cfg").write_text(text)
    code, out, _ = run("--force-exclude", "d/m.cfg")
    assert code == 1 and out.startswith("d/m.cfg:")
    code, out, _ = run("d")
    assert code == 1 and out.startswith("d/m.cfg:")


def test_show_settings(cwd: Path) -> None:
    (cwd / "pyproject.toml").write_text('[tool.dnlint]\nignore = ["DN103"]\n'
                                        'extend-exclude = ["legacy"]\n')
    (cwd / "setup.cfg").write_text(SETUP_CFG)
    code, out, _ = run("--show-settings", "--select", "DN1,DN2", "m.cfg", "setup.cfg",
                       "legacy/a.cfg")
    assert code == 0
    blocks = [block.splitlines() for block in out.split("\n\n")]
    assert blocks[0][:6] == ["path = m.cfg", f"configuration = {cwd / 'pyproject.toml'}",
                             "dialect = auto", "select = [DN1, DN2]", "ignore = [DN103]",
                             "severity-override = []"]
    assert "extend-exclude = [legacy]" in blocks[0]
    assert [block[-1] for block in blocks] == [
        "verdict = checked",
        "verdict = passed over by a walk (not a Darknet cfg (an INI file: [metadata], [flake8], "
        "none of Darknet's sections)); linted when named",
        "verdict = passed over by a walk (excluded by 'legacy')"]



def test_show_settings_says_a_walk_lints_a_darknet_data_file(cwd: Path) -> None:
    """A walk lints obj.data as a training job (it said 'passed over by a walk (not a *.cfg
    name)'), and passes over a .data file that is not Darknet's."""
    (cwd / "obj.data").write_text("classes=2\ntrain=train.txt\n")
    (cwd / "numbers.data").write_text("1 2 3\n")
    code, out, _ = run("--show-settings", "obj.data", "numbers.data")
    assert code == 0
    assert [block.splitlines()[-1] for block in out.split("\n\n")] == [
        "verdict = checked (a training-job .data file)",
        "verdict = passed over by a walk (not a Darknet .data file); linted when named"]
    _, out, said = run("-v", ".")
    assert out.startswith("obj.data:") and "numbers.data: skipped, not a Darknet .data file" in said

def test_the_sniffed_section_names_are_the_layer_registrys() -> None:
    from dnlint.network.layers import section_dialects
    from dnlint.read.sniff import DARKNET_SECTIONS

    assert set(section_dialects()) | {"net", "network"} == DARKNET_SECTIONS
