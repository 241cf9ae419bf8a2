"""The command line: selection, severity overrides, exit codes, --explain, --list-rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import WARNED_CFG
from dnlint.cli import main
from dnlint.rules import all_rules, get_rule

CFG = WARNED_CFG
ERROR_CFG = CFG.replace("subdivisions=24", "subdivisions=0")
DN103 = ("a.cfg:3:14: DN103 warning: batch=64 is not a multiple of subdivisions=24: Darknet "
         "trains on 48 images per batch, not 64")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.cfg").write_text(CFG)
    (tmp_path / "bad.cfg").write_text(ERROR_CFG)
    (tmp_path / "ok.cfg").write_text(CFG.replace("subdivisions=24", "subdivisions=16"))
    return tmp_path


# --- exit codes ---------------------------------------------------------------------------

def test_clean_file_exits_0(cwd: Path) -> None:
    assert run("ok.cfg") == (0, "All checks passed (1 file).\n", "")


def test_warning_does_not_fail_without_strict(cwd: Path) -> None:
    assert run("--format", "concise", "a.cfg") == (
        0, DN103 + "\nFound 1 problem (1 warning) in 1 file.\n", "")


def test_strict_makes_warnings_fail(cwd: Path) -> None:
    assert run("--strict", "-q", "--format", "concise", "a.cfg") == (1, DN103 + "\n", "")


def test_error_exits_1_and_exit_zero_exits_0(cwd: Path) -> None:
    assert run("-q", "bad.cfg")[0] == 1
    assert run("-q", "--exit-zero", "bad.cfg")[0] == 0


def test_missing_file_exits_2(cwd: Path) -> None:
    assert run("nope.cfg") == (2, "nope.cfg: DN029 error: no such file or directory\n"
                                  "Found 1 problem (1 error) in 1 file.\n", "")


def test_no_paths_is_a_usage_error(cwd: Path) -> None:
    code, _, err = run()
    assert code == 2 and "no files given" in err


# --- selection ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--ignore", "DN103"], ""),
        (["--ignore", "DN1"], ""),
        (["--ignore", "dn1"], ""),
        (["--select", "DN4"], ""),
        (["--select", "DN4,DN103"], DN103 + "\n"),
        (["--select", "DN4", "--select", "DN1"], DN103 + "\n"),
        (["--select", "DN4", "--extend-select", "DN10"], DN103 + "\n"),
        (["--ignore", "DN1", "--extend-select", "DN103"], DN103 + "\n"),  # more specific wins
        (["--select", "DN103", "--ignore", "DN103"], ""),  # a tie ignores
        (["--select", "ALL"], DN103 + "\n"),
    ],
)
def test_selection(cwd: Path, args: list[str], expected: str) -> None:
    assert run("-q", "--format", "concise", *args, "a.cfg") == (0, expected, "")


def test_unknown_selector_is_a_usage_error(cwd: Path) -> None:
    code, out, err = run("--select", "DN999", "a.cfg")
    assert (code, out) == (2, "")
    assert "--select: 'DN999' matches no rule (see dnlint --list-rules)" in err


def test_ignored_errors_do_not_fail(cwd: Path) -> None:
    assert run("-q", "--ignore", "DN101", "bad.cfg")[0] == 0


def test_severity_override(cwd: Path) -> None:
    code, out, _ = run("-q", "--format", "concise", "--severity-override", "DN103=error",
                       "a.cfg")
    assert (code, out) == (1, DN103.replace("warning", "error", 1) + "\n")
    code, out, _ = run("-q", "--severity-override", "DN101=info", "bad.cfg")
    assert code == 0 and "DN101 info:" in out


@pytest.mark.parametrize("value", ["DN103", "DN103=fatal", "DN999=error"])
def test_bad_severity_override(cwd: Path, value: str) -> None:
    assert run("--severity-override", value, "a.cfg")[0] == 2


# --- rules ---------------------------------------------------------------------------------

def test_explain_prints_the_registry_text() -> None:
    assert run("--explain", "DN103") == (0, get_rule("DN103").explanation() + "\n", "")
    assert run("--explain", "batch-not-divisible")[1] == get_rule("DN103").explanation() + "\n"
    code, _, err = run("--explain", "DN999")
    assert code == 2 and "no such rule: 'DN999'" in err


def test_explain_of_a_meta_rule() -> None:
    code, out, _ = run("--explain", "DN901")
    assert code == 0
    assert out.startswith("DN901 unused-suppression (warning)\n\nA suppression directive "
                          "suppresses nothing.\n")


def test_list_rules_text_and_json() -> None:
    code, out, _ = run("--list-rules")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(all_rules())
    assert any(line.startswith("DN901  warning  unused-suppression") for line in lines)
    rows = json.loads(run("--list-rules", "--format", "json")[1])
    assert {"code": "DN903", "name": "malformed-directive", "severity": "warning", "fix": None,
            "summary": "A '# dnlint:' comment that dnlint cannot apply."} in rows
    assert {"code": "DN014", "fix": "safe"}.items() <= rows[[r["code"] for r in rows].index(
        "DN014")].items()
    assert any(line.startswith("DN201  error    unknown-option") and line.endswith(
        "[fix: unsafe]") for line in lines)
    assert [r["code"] for r in rows] == [r.code for r in all_rules()]


# --- statistics, directories ---------------------------------------------------------------

def test_statistics(cwd: Path) -> None:
    (cwd / "b.cfg").write_text(CFG)
    code, out, _ = run("-q", "--format", "concise", "--statistics", "a.cfg", "b.cfg", "bad.cfg")
    assert code == 1
    assert out == (f"2  DN103  {get_rule('DN103').name}\n"
                   f"1  DN101  {get_rule('DN101').name}\n")


def test_directory_walk_skips_ini_cfg_and_says_so_with_verbose(cwd: Path) -> None:
    (cwd / "setup.cfg").write_text("[metadata]\nname = x\n")
    code, out, err = run("-q", "-v", "--format", "concise", ".")
    assert code == 1
    assert "setup.cfg: skipped, not a Darknet cfg" in err
    assert [line.split(":")[0] for line in out.splitlines() if ": DN" in line] == [
        "a.cfg", "bad.cfg"]


def test_explicit_ini_cfg_is_checked(cwd: Path) -> None:
    (cwd / "setup.cfg").write_text("[metadata]\nname = x\n")
    code, out, _ = run("-q", "--format", "concise", "setup.cfg")
    assert code == 1 and out.startswith("setup.cfg:1:1: DN004 error: ")


def test_stdin_uses_the_config_of_the_working_directory(cwd: Path) -> None:
    (cwd / ".dnlint.toml").write_text('severity-override = { DN103 = "error" }\n')
    result = CliRunner().invoke(main, ["-q", "--format", "concise", "-"], input=CFG)
    assert result.exit_code == 1
    assert result.stdout == DN103.replace("a.cfg", "<stdin>").replace("warning", "error", 1) + "\n"


def test_directives_and_disable_directives(cwd: Path) -> None:
    (cwd / "s.cfg").write_text(CFG.replace("subdivisions", "# dnlint: disable-next-line=DN103\n"
                                           "subdivisions"))
    assert run("-q", "--strict", "s.cfg") == (0, "", "")
    code, out, _ = run("-q", "--strict", "--format", "concise", "--disable-directives", "s.cfg")
    assert (code, out) == (1, DN103.replace("a.cfg:3", "s.cfg:4") + "\n")


def test_unused_suppression_fails_only_with_strict(cwd: Path) -> None:
    (cwd / "u.cfg").write_text("# dnlint: disable-file=DN4\n" + CFG.replace("=24", "=16"))
    expected = ("u.cfg:1:24: DN901 warning: suppression of DN4 suppresses nothing "
                "(hint: delete the directive)\n")
    assert run("-q", "--format", "concise", "u.cfg") == (0, expected, "")
    assert run("-q", "--format", "concise", "--strict", "u.cfg") == (1, expected, "")
    assert run("-q", "--ignore", "DN901", "--strict", "u.cfg") == (0, "", "")


def test_a_weights_file_with_a_finding_gets_a_summary(cwd: Path) -> None:
    import struct

    (cwd / "w.cfg").write_text("[net]\nwidth=32\nheight=32\nchannels=3\n\n"
                               "[convolutional]\nfilters=16\nsize=3\n")
    (cwd / "w.weights").write_bytes(struct.pack("<iiiq", 0, 2, 5, 0) + bytes(4 * 448))
    code, out, _ = run("-v", "--dialect", "ab", "w.weights")
    assert code == 0
    assert "weights (alexeyab): load_weights reads 1,812 bytes" in out
    # a clean file says nothing without -v (pre-commit hooks print nothing on success)
    assert "weights (" not in run("--dialect", "ab", "w.weights")[1]
    (cwd / "w.weights").write_bytes(struct.pack("<iiiq", 0, 2, 5, 0) + bytes(4 * 440))
    shown = run("--dialect", "ab", "w.weights")[1]
    assert "  file w.weights: 1,780 bytes, version 0.2.5, seen 0 (8-byte)" in shown
    # concise stays one line per finding
    assert "weights (" not in run("--format", "concise", "--dialect", "ab", "w.weights")[1]
    # a cfg alone: its prediction is only summarised with -v
    assert "weights (" not in run("--dialect", "ab", "w.cfg")[1]
