"""dnlint in a real repository, as ruff users expect it: walks that skip what is not the
project's, weights files found and paired, the command-line options and the CI formats."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dnlint.cli import main
from test_formats import check_sarif
from test_weights import L0, L1, TINY, write_weights

BAD = "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilter=2\n"  # DN201 at 6:1
WARN = "[net]\nbatch=64\nsubdivisions=24\nwidth=8\nheight=8\nchannels=3\n" \
       "[convolutional]\nfilters=2\n"  # DN103 warning at 3:14


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None
        ) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--no-color", *args], input=stdin, env=env)
    return result.exit_code, result.stdout, result.stderr


def tiny(folder: Path, name: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(TINY).lstrip("\n"))
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def found(out: str) -> list[str]:
    """The paths of the findings in concise output."""
    return [line.split(":")[0] for line in out.splitlines() if ": DN" in line]


# --- directory walks ---------------------------------------------------------------------------

def test_walk_skips_environments_and_build_folders(repo: Path) -> None:
    for folder in (".venv/lib", "node_modules/x", "build/lib", "venv", "__pycache__",
                   ".git/refs", "dist", "site-packages/y"):
        write(repo / folder / "m.cfg", BAD)
    write(repo / "cfg" / "m.cfg", BAD)
    code, out, err = run("--format", "concise", "-q", "-v", ".")
    assert code == 1 and found(out) == ["cfg/m.cfg"]
    assert ".venv: skipped, excluded by '.venv'" in err
    assert "build: skipped, excluded by 'build'" in err


def test_gitignore_and_ignore_files(repo: Path) -> None:
    (repo / ".git").mkdir()
    write(repo / ".gitignore", "generated/\n*.tmp.cfg\n!keep.tmp.cfg\n")
    write(repo / "sub" / ".ignore", "local.cfg\n")
    for name in ("generated/m.cfg", "a.tmp.cfg", "keep.tmp.cfg", "sub/local.cfg", "sub/m.cfg"):
        write(repo / name, BAD)
    assert found(run("--format", "concise", "-q", ".")[1]) == ["keep.tmp.cfg", "sub/m.cfg"]
    every = found(run("--format", "concise", "-q", "--no-respect-gitignore", ".")[1])
    assert every == ["a.tmp.cfg", "generated/m.cfg", "keep.tmp.cfg", "sub/local.cfg",
                     "sub/m.cfg"]


def test_gitignore_above_the_walked_folder_counts(repo: Path) -> None:
    (repo / ".git").mkdir()
    write(repo / ".gitignore", "cfg/old/\n")
    write(repo / "cfg" / "old" / "m.cfg", BAD)
    write(repo / "cfg" / "m.cfg", BAD)
    assert found(run("--format", "concise", "-q", "cfg")[1]) == ["cfg/m.cfg"]


def test_exclude_options_and_configuration(repo: Path) -> None:
    for name in ("a/m.cfg", "b/m.cfg", "legacy/m.cfg", "build/m.cfg"):
        write(repo / name, BAD)
    assert found(run("--format", "concise", "-q", "--extend-exclude", "a,legacy/*.cfg",
                     ".")[1]) == ["b/m.cfg"]
    assert found(run("--format", "concise", "-q", "--exclude", "a", ".")[1]) == [
        "b/m.cfg", "build/m.cfg", "legacy/m.cfg"]
    write(repo / ".dnlint.toml", 'extend-exclude = ["b"]\n')
    assert found(run("--format", "concise", "-q", ".")[1]) == ["a/m.cfg", "legacy/m.cfg"]


def test_explicit_paths_obey_excludes_only_with_force_exclude(repo: Path) -> None:
    write(repo / ".venv" / "m.cfg", BAD)
    assert run("-q", ".venv/m.cfg")[0] == 1
    code, out, err = run("-q", "-v", "--force-exclude", ".venv/m.cfg")
    assert (code, out) == (0, "")
    assert ".venv/m.cfg: skipped, excluded by '.venv'" in err
    write(repo / ".dnlint.toml", "force-exclude = true\n")
    assert run("-q", ".venv/m.cfg")[0] == 0


def test_walk_checks_the_weights_it_finds(repo: Path) -> None:
    tiny(repo, "models/m.cfg")
    write_weights(repo / "models" / "m.weights", L0 + L1 - 10)  # truncated
    code, out, _ = run("--format", "concise", ".")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("models/m.weights: DN514 error: the file ends at byte ")
    assert lines[-1] == "Found 1 problem (1 error) in 2 files."


def test_walk_reports_a_weights_file_without_cfg(repo: Path) -> None:
    tiny(repo, "m.cfg")
    (repo / "backup").mkdir()
    write_weights(repo / "backup" / "other_1000.weights", L0 + L1)
    code, out, _ = run("--format", "concise", ".")
    assert code == 2
    assert out.splitlines() == [
        "backup/other_1000.weights: DN519 error: which cfg does it belong to? no "
        "other_1000.cfg, other.cfg in backup; name it with --cfg FILE (or give the cfg too)",
        "Found 1 problem (1 error) in 2 files.",
    ]


def test_walk_pairs_training_outputs_in_backup_by_stem(repo: Path) -> None:
    tiny(repo, "cfg/m.cfg")
    (repo / "backup").mkdir()
    write_weights(repo / "backup" / "m_1000.weights", L0 + L1)
    write_weights(repo / "backup" / "m_final.weights", L0 + L1 + 1)
    code, out, _ = run("--format", "concise", ".")
    assert code == 1
    assert out.splitlines()[0].startswith("backup/m_final.weights: DN516 error: ")
    assert out.splitlines()[-1] == "Found 1 problem (1 error) in 3 files."


def test_summary_counts_the_weights_file(repo: Path) -> None:
    tiny(repo, "m.cfg")
    write_weights(repo / "m.weights", L0 + L1)
    assert run("m.cfg", "--weights", "m.weights")[1] == "All checks passed (2 files).\n"


# --- pre-commit: the cfg hook checks the weights beside it, the weights hook only weights ------

def test_weights_beside_a_cfg(repo: Path) -> None:
    tiny(repo, "cfg/m.cfg")
    write_weights(repo / "cfg" / "m_best.weights", L0 + L1)
    (repo / "backup").mkdir()
    write_weights(repo / "backup" / "m_1000.weights", L0 + L1 - 1)
    write_weights(repo / "cfg" / "other.weights", 3)  # not named after m: not checked
    code, out, _ = run("--format", "concise", "--weights-beside", "cfg/m.cfg")
    assert code == 1
    assert found(out) == ["backup/m_1000.weights"]
    assert out.splitlines()[-1] == "Found 1 problem (1 error) in 3 files."
    assert run("--format", "concise", "cfg/m.cfg")[1] == "All checks passed (1 file).\n"


def test_a_weights_run_does_not_report_the_cfgs_own_findings(repo: Path) -> None:
    cfg = tiny(repo, "m.cfg")
    cfg.write_text(cfg.read_text() + "bogus=1\n")  # DN201 in the cfg itself
    write_weights(repo / "m.weights", L0 + L1 - 1)
    code, out, _ = run("--format", "concise", "m.weights")
    assert code == 1 and found(out) == ["m.weights"]
    assert out.splitlines()[-1] == "Found 1 problem (1 error) in 1 file."


# --- command line ------------------------------------------------------------------------------

def test_output_format_alias_and_environment(repo: Path) -> None:
    write(repo / "m.cfg", BAD)
    as_alias = run("--output-format", "github", "m.cfg")[1]
    assert as_alias.startswith("::error file=m.cfg,line=6,endLine=6,col=1,endColumn=7,title=DN201 "
                               "unknown-option::")
    assert run("m.cfg", env={"DNLINT_OUTPUT_FORMAT": "github"})[1] == as_alias


def test_stdin_filename_uses_that_paths_configuration(repo: Path) -> None:
    write(repo / "legacy" / ".dnlint.toml", 'ignore = ["DN103"]\ndialect = "pjreddie"\n')
    code, out, _ = run("-v", "--stdin-filename", "legacy/m.cfg", stdin=WARN)
    assert code == 0 and out.endswith("All checks passed (1 file).\n")
    assert out.startswith("legacy/m.cfg: dialect pjreddie (set in ")
    code, out, _ = run("--format", "concise", "--stdin-filename", "m.cfg", "-", stdin=WARN)
    assert out.startswith("m.cfg:3:14: DN103 warning: ")


def test_rule_names_select_and_ignore(repo: Path) -> None:
    write(repo / "m.cfg", WARN + "filter=3\n")
    assert found(run("--format", "concise", "--select", "unknown-option", "m.cfg")[1]) == [
        "m.cfg"]
    out = run("--format", "concise", "--ignore", "unknown-option,DN103", "m.cfg")[1]
    assert out == "All checks passed (1 file).\n"


def test_per_file_ignores_and_extend_ignore(repo: Path) -> None:
    write(repo / "legacy" / "m.cfg", BAD)
    write(repo / "new" / "m.cfg", BAD)
    out = run("--format", "concise", "--per-file-ignores", "legacy/*.cfg:DN201", ".")[1]
    assert found(out) == ["new/m.cfg"]
    write(repo / ".dnlint.toml", 'ignore = ["DN103"]\n')
    write(repo / "w.cfg", WARN + "filter=3\n")
    assert run("--extend-ignore", "DN201", "-q", "w.cfg")[0] == 0


@pytest.mark.parametrize(("level", "status"), [("error", 0), ("warning", 1), ("info", 1)])
def test_fail_on(repo: Path, level: str, status: int) -> None:
    write(repo / "m.cfg", WARN)
    assert run("-q", "--fail-on", level, "m.cfg")[0] == status


def test_crlf_finding_has_a_column(repo: Path) -> None:
    (repo / "m.cfg").write_bytes(BAD.replace("filter", "filters").encode().replace(b"\n", b"\r\n"))
    out = run("--format", "concise", "--dialect", "ab", "m.cfg")[1]
    assert out.startswith("m.cfg:1:6: DN013 ")


def _interruptible() -> None:
    """In the child: Ctrl-C as at a terminal. A shell that starts a job in the background
    (`bash .ci/run &`) makes its commands ignore SIGINT, Python keeps a SIGINT ignored at
    start-up, and --watch would then never see the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def watch(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "dnlint", "--no-color", "--watch", *args],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_interruptible)


def save(path: Path, data: bytes) -> None:
    """Write as an editor that saves atomically does: a poll of --watch never sees the file
    half written (on a loaded machine a poll between the truncation and the write of
    Path.write_bytes lints an empty file, and the test's one expected re-lint is another)."""
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    os.replace(part, path)


def test_watch_lints_again_after_a_change(tmp_path: Path) -> None:
    cfg = write(tmp_path / "m.cfg", WARN)
    proc = watch(["--format", "concise", "m.cfg"], tmp_path)
    try:
        assert proc.stderr is not None and proc.stdout is not None
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
        time.sleep(0.05)
        save(cfg, BAD.encode())
        assert proc.stderr.readline() == b"[a file changed: linting again]\n"
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert b"m.cfg:3:14: DN103 warning: " in out and b"m.cfg:6:1: DN201 error: " in out


def test_watch_follows_what_the_run_reads(tmp_path: Path) -> None:
    """A new cfg in a walked directory is a change; a cfg in an excluded .venv/ is not."""
    write(tmp_path / "d" / "a.cfg", WARN)
    (tmp_path / "d" / ".venv").mkdir()
    proc = watch(["--format", "concise", "d"], tmp_path)
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
        write(tmp_path / "d" / ".venv" / "x.cfg", BAD)
        time.sleep(1.2)  # more than two polls
        save(tmp_path / "d" / "new.cfg", BAD.encode())
        assert proc.stderr.readline() == b"[a file changed: linting again]\n"
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert err == b""
    assert out.count(b"d/a.cfg:3:14: DN103") == 2 and out.count(b"d/new.cfg:6:1: DN201") == 1
    assert b"x.cfg" not in out


def _save(path: Path, text: str) -> None:
    """As an editor saves: whole, by a rename (a watch could see a half-written file)."""
    path.with_suffix(".new").write_text(text)
    os.replace(path.with_suffix(".new"), path)


def test_watch_reports_a_bad_configuration_and_keeps_watching(tmp_path: Path) -> None:
    """Invalid at the start, then fixed, then broken mid-watch (an editor's half-written save):
    each run says so as any run does, and the watch goes on."""
    write(tmp_path / "m.cfg", WARN)
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.dnlint]\nselect = [\n")
    proc = subprocess.Popen([sys.executable, "-m", "dnlint", "--no-color", "--watch",
                             "--format", "concise", "m.cfg"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    bad = (f"dnlint: {config}: invalid TOML: Invalid value (at end of document)\n").encode()
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == bad
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
        _save(config, "[tool.dnlint]\nignore = []\n")
        assert proc.stderr.readline() == b"[a file changed: linting again]\n"
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
        _save(config, "[tool.dnlint]\nselect = [\n")
        assert proc.stderr.readline() == b"[a file changed: linting again]\n"
        assert proc.stderr.readline() == bad
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and err == b""
    assert out.count(b"m.cfg:3:14: DN103 warning: ") == 1


def test_watch_polls_the_weights_paired_with_a_cfg(tmp_path: Path) -> None:
    """--weights-beside pairs m_best.weights with m.cfg: writing it is a change to lint."""
    tiny(tmp_path, "m.cfg")
    proc = watch(["--weights-beside", "--format", "concise", "m.cfg"], tmp_path)
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
        save(tmp_path / "m_best.weights",
             write_weights(tmp_path / "m_best.part", L0 + L1 - 10).read_bytes())
        assert proc.stderr.readline() == b"[a file changed: linting again]\n"
        assert proc.stderr.readline() == b"[watching for changes: Ctrl-C to stop]\n"
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert out.count(b"m_best.weights: DN514 error") == 1


# --- formats -----------------------------------------------------------------------------------

def _truncated_pair(repo: Path) -> None:
    tiny(repo, "m.cfg")
    write_weights(repo / "m.weights", L0 + L1 - 10)


def test_sarif_weights_region_and_invocation(repo: Path) -> None:
    _truncated_pair(repo)
    code, out, _ = run("--format", "sarif", "m.cfg", "--weights", "m.weights")
    log: dict[str, Any] = json.loads(out)
    check_sarif(log)
    result = log["runs"][0]["results"][0]
    size = os.path.getsize(repo / "m.weights")
    assert result["ruleId"] == "DN514"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"byteOffset": 20 + 4 * L0, "byteLength": size - 20 - 4 * L0}
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["exitCode"] == code == 1 and invocation["executionSuccessful"]
    assert invocation["workingDirectory"]["uri"] == "file://" + str(repo)


def test_json_weights_region(repo: Path) -> None:
    _truncated_pair(repo)
    data = json.loads(run("--format", "json", "m.cfg", "--weights", "m.weights")[1])
    finding = data["files"][0]["diagnostics"][0]
    assert (finding["code"], finding["path"]) == ("DN514", "m.weights")
    assert finding["byte_offset"] == 20 + 4 * L0


def test_junit_weights_findings_are_the_weights_files_case(repo: Path) -> None:
    _truncated_pair(repo)
    out = run("--format", "junit", "m.cfg", "--weights", "m.weights")[1]
    root = ET.fromstring(out)
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert sorted(suites) == ["m.cfg", "m.weights"]
    assert suites["m.cfg"].get("failures") == "0"
    assert suites["m.weights"].get("failures") == "1"
    # the root carries no totals (the suites are streamed): the suites' counts add up
    assert root.get("tests") is None
    assert sum(int(s.get("tests") or 0) for s in suites.values()) == 2
    assert sum(int(s.get("failures") or 0) for s in suites.values()) == 1


def test_quiet_prints_only_findings(repo: Path) -> None:
    _truncated_pair(repo)
    out = run("-q", "m.cfg", "--weights", "m.weights")[1]
    assert out.startswith("m.weights: DN514 error: ")
    assert "weights (alexeyab)" not in out and "Found" not in out
