"""The run as a whole: nothing lost, nothing hidden, nothing crashes.

No output may replace an input; one bad path never hides the other files' results; results
stream and are dropped once reported; a bug is exit status 3, not a finding; every format
survives any file name and any cfg text.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import weakref
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dnlint.cli import EXIT_INTERNAL, main
from test_formats import check_sarif

GOOD = b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\nactivation=leaky\n"
BAD = b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilter=2\n"  # DN201 on line 6
FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


def dnlint(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
           **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "dnlint", "--no-color", *args],
                          capture_output=True, timeout=120, cwd=cwd,
                          env={**os.environ, **(env or {})}, **kwargs)


def parse(fmt: str, out: bytes) -> None:
    """Every machine format parses with a real parser; the text formats decode."""
    text = out.decode("utf-8")
    if fmt == "json":
        json.loads(text)
    elif fmt == "sarif":
        check_sarif(json.loads(text))
    elif fmt == "junit":
        ET.fromstring(out)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "m.cfg").write_bytes(BAD)
    (tmp_path / "ok.cfg").write_bytes(GOOD)
    return tmp_path


# --- no output is ever an input ------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["m.cfg", "./m.cfg", "sub/../m.cfg", "link.cfg"])
def test_report_never_replaces_the_cfg(folder: Path, spelling: str) -> None:
    (folder / "sub").mkdir()
    (folder / "link.cfg").symlink_to(folder / "m.cfg")
    proc = dnlint("m.cfg", "-o", spelling, cwd=folder)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == (f"dnlint: {spelling}: the output would overwrite an input "
                                    "of this run; nothing written\n")
    assert (folder / "m.cfg").read_bytes() == BAD


def test_report_never_replaces_the_weights(folder: Path) -> None:
    weights = folder / "m.weights"
    weights.write_bytes(b"\0" * 40)
    proc = dnlint("m.cfg", "--weights", "m.weights", "-o", "m.weights", cwd=folder)
    assert proc.returncode == 2 and b"would overwrite an input" in proc.stderr
    assert weights.read_bytes() == b"\0" * 40


def test_graph_never_replaces_the_cfg(folder: Path) -> None:
    proc = dnlint("m.cfg", "--graph", "m.cfg", cwd=folder)
    assert proc.returncode == 2
    assert proc.stderr == b"dnlint: m.cfg: the graph would overwrite an input of this run; " \
                          b"nothing written\n"
    assert (folder / "m.cfg").read_bytes() == BAD


def test_output_found_by_a_walk_is_refused_at_the_end(folder: Path) -> None:
    proc = dnlint(".", "-o", "ok.cfg", cwd=folder)
    assert proc.returncode == 2 and b"ok.cfg: the output would overwrite an input" in proc.stderr
    assert (folder / "ok.cfg").read_bytes() == GOOD
    assert sorted(p.name for p in folder.iterdir()) == ["m.cfg", "ok.cfg"]  # no temp file left


def test_existing_report_is_replaced_atomically_and_keeps_its_mode(folder: Path) -> None:
    report = folder / "report.txt"
    report.write_text("old\n")
    report.chmod(0o640)
    inode = report.stat().st_ino
    proc = dnlint("m.cfg", "-o", "report.txt", cwd=folder)
    assert proc.returncode == 1 and proc.stdout == b""
    assert report.read_text().startswith("m.cfg:6:1: DN201 error: ")
    assert report.stat().st_mode & 0o777 == 0o640
    assert report.stat().st_ino != inode  # a new file renamed over it, not truncated in place


def test_a_failed_run_leaves_the_old_report(folder: Path) -> None:
    report = folder / "report.txt"
    report.write_text("old\n")
    (folder / ".dnlint.toml").write_text("dialect = 'nope'\n")
    proc = dnlint("m.cfg", "-o", "report.txt", cwd=folder)
    assert proc.returncode == 2 and report.read_text() == "old\n"
    assert sorted(p.name for p in folder.iterdir()) == [".dnlint.toml", "m.cfg", "ok.cfg",
                                                         "report.txt"]


def test_output_to_a_device_is_written_not_replaced(folder: Path) -> None:
    proc = dnlint("m.cfg", "-o", "/dev/stdout", cwd=folder)
    assert proc.returncode == 1 and proc.stdout.startswith(b"m.cfg:6:1: DN201 error: ")
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_graph_fallback_never_replaces_an_existing_file(folder: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    monkeypatch.setattr("shutil.which", lambda name: None)
    (folder / "g.dot").write_text("mine\n")
    result = CliRunner().invoke(main, ["-q", "--graph", "g.svg", "ok.cfg"])
    assert result.exit_code == 0
    assert result.stderr == ("dnlint: Graphviz 'dot' not found: g.svg not written, and g.dot "
                             "exists already (not replaced)\n")
    assert (folder / "g.dot").read_text() == "mine\n"


@pytest.mark.parametrize("flag", ["-o", "--graph"])
def test_the_names_file_of_the_data_file_is_an_input(folder: Path, flag: str) -> None:
    (folder / "obj.data").write_text("classes=2\nnames=coco.names\n")
    (folder / "coco.names").write_text("a\nb\n")
    proc = dnlint("ok.cfg", "--data", "obj.data", flag, "coco.names", cwd=folder)
    what = "output" if flag == "-o" else "graph"
    assert proc.returncode == 2
    assert proc.stderr.decode() == (f"dnlint: coco.names: the {what} would overwrite an input "
                                    "of this run; nothing written\n")
    assert (folder / "coco.names").read_text() == "a\nb\n"


@pytest.mark.parametrize("name", [".dnlint.toml", "pyproject.toml"])
def test_a_discovered_configuration_is_an_input(folder: Path, name: str) -> None:
    text = 'ignore=["DN1"]\n' if name == ".dnlint.toml" else '[tool.dnlint]\nignore=["DN1"]\n'
    (folder / name).write_text(text)
    proc = dnlint("ok.cfg", "-o", name, cwd=folder)
    assert proc.returncode == 2
    assert proc.stderr.decode() == (f"dnlint: {name}: the output would overwrite an input of "
                                    "this run; nothing written\n")
    assert (folder / name).read_text() == text


def test_an_ignore_file_read_by_a_walk_is_an_input(folder: Path) -> None:
    (folder / ".git").mkdir()
    (folder / ".gitignore").write_text("m.cfg\n")
    proc = dnlint(".", "-o", ".gitignore", cwd=folder)
    assert proc.returncode == 2
    assert proc.stderr == b"dnlint: .gitignore: the output would overwrite an input of this " \
                          b"run; nothing written\n"
    assert (folder / ".gitignore").read_text() == "m.cfg\n"


@pytest.mark.parametrize("graph", ["out", "./out", "sub/../out", "hard"])
@pytest.mark.parametrize("exists", [True, False])
def test_two_outputs_may_not_be_one_file(folder: Path, graph: str, exists: bool) -> None:
    (folder / "sub").mkdir()
    if exists:
        (folder / "out").write_text("old\n")
        (folder / "hard").hardlink_to(folder / "out")
    elif graph == "hard":
        (folder / "hard").symlink_to("out")  # a dangling link to the same new path
    proc = dnlint("ok.cfg", "-o", "out", "--graph", graph, cwd=folder)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == (f"dnlint: {graph}: the output and the graph would be the "
                                    "same file; nothing written\n")
    assert (folder / "out").read_text() == "old\n" if exists else not (folder / "out").exists()


def test_graph_fallback_never_replaces_the_report(folder: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    monkeypatch.setattr("shutil.which", lambda name: None)
    result = CliRunner().invoke(main, ["-q", "--graph", "g.svg", "-o", "g.dot", "m.cfg"])
    assert result.exit_code == 1
    assert result.stderr == ("dnlint: Graphviz 'dot' not found: g.svg not written, and g.dot "
                             "is another output of this run (not replaced)\n")
    assert (folder / "g.dot").read_text().startswith("m.cfg:6:1: DN201 error: ")


@pytest.mark.parametrize("flag", ["-o", "--graph"])
def test_the_stdin_filename_is_an_input(folder: Path, flag: str) -> None:
    proc = dnlint("--stdin-filename", "m.cfg", "-", flag, "m.cfg", cwd=folder, input=GOOD)
    what = "output" if flag == "-o" else "graph"
    assert proc.returncode == 2
    assert proc.stderr.decode() == (f"dnlint: m.cfg: the {what} would overwrite an input of "
                                    "this run; nothing written\n")
    assert (folder / "m.cfg").read_bytes() == BAD


def test_a_stdin_filename_that_does_not_exist_may_be_written(folder: Path) -> None:
    proc = dnlint("--stdin-filename", "new.cfg", "-", "-o", "new.cfg", cwd=folder, input=BAD)
    assert proc.returncode == 1
    assert (folder / "new.cfg").read_text().startswith("new.cfg:6:1: DN201 error: ")


@pytest.mark.parametrize("flag", ["-o", "--graph"])
def test_an_output_link_is_written_through(folder: Path, flag: str) -> None:
    (folder / "sub").mkdir()
    real = folder / "sub" / "real.txt"
    real.write_text("old\n")
    real.chmod(0o640)
    (folder / "rl.txt").symlink_to("sub/real.txt")
    proc = dnlint("m.cfg", flag, "rl.txt", cwd=folder)
    assert proc.returncode == 1 and proc.stderr == b""
    assert os.readlink(folder / "rl.txt") == "sub/real.txt"
    expected = "m.cfg:6:1: DN201 error: " if flag == "-o" else "digraph"
    assert real.read_text().startswith(expected)
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in (folder / "sub").iterdir()) == ["real.txt"]  # no temp left


def test_an_output_link_to_an_input_is_refused(folder: Path) -> None:
    (folder / "obj.data").write_text("classes=2\nnames=coco.names\n")
    (folder / "coco.names").write_text("a\nb\n")
    (folder / "rl.txt").symlink_to("coco.names")
    proc = dnlint("ok.cfg", "--data", "obj.data", "-o", "rl.txt", cwd=folder)
    assert proc.returncode == 2
    assert proc.stderr == b"dnlint: rl.txt: the output would overwrite an input of this run; " \
                          b"nothing written\n"
    assert (folder / "coco.names").read_text() == "a\nb\n"
    assert (folder / "rl.txt").is_symlink()


def test_a_dangling_output_link_creates_its_target(folder: Path) -> None:
    (folder / "rl.txt").symlink_to("new.txt")
    proc = dnlint("m.cfg", "-o", "rl.txt", cwd=folder)
    assert proc.returncode == 1 and proc.stderr == b""
    assert (folder / "rl.txt").is_symlink()
    assert (folder / "new.txt").read_text().startswith("m.cfg:6:1: DN201 error: ")


def test_a_dangling_output_link_without_a_directory_is_one_line(folder: Path) -> None:
    (folder / "rl.txt").symlink_to("gone/new.txt")
    proc = dnlint("m.cfg", "-o", "rl.txt", cwd=folder)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == (f"dnlint: rl.txt: cannot write: a dangling symbolic link to "
                                    f"{folder.resolve() / 'gone' / 'new.txt'}, whose directory "
                                    "does not exist\n")
    assert sorted(p.name for p in folder.iterdir()) == ["m.cfg", "ok.cfg", "rl.txt"]


# --- one bad path never hides the others ------------------------------------------------------

def test_missing_and_good_paths_are_both_reported(folder: Path) -> None:
    proc = dnlint("--format", "concise", "gone.cfg", "m.cfg", "ok.cfg", cwd=folder)
    assert proc.returncode == 2 and proc.stderr == b""
    assert proc.stdout.decode().splitlines() == [
        "gone.cfg: DN029 error: no such file or directory",
        "m.cfg:6:1: DN201 error: unknown option 'filter' in [convolutional]; Darknet ignores it "
        "(hint: did you mean 'filters'?)",
        "Found 2 problems (2 errors) in 3 files.",
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_unreadable_path_is_a_finding_in_every_format(folder: Path, fmt: str) -> None:
    proc = dnlint("--format", fmt, "gone.cfg", "ok.cfg", cwd=folder)
    assert proc.returncode == 2 and proc.stderr == b""
    parse(fmt, proc.stdout)
    assert b"DN029" in proc.stdout and b"gone.cfg" in proc.stdout


def test_unpaired_weights_does_not_stop_the_run(folder: Path) -> None:
    (folder / "lone").mkdir()
    (folder / "lone" / "orphan.weights").write_bytes(b"\0" * 40)
    proc = dnlint("--format", "concise", "m.cfg", "ok.cfg", "lone/orphan.weights", cwd=folder)
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode == 2 and "DN519" in lines[1]
    assert lines[0].startswith("m.cfg:6:1: DN201 error: ")
    assert lines[1] == ("lone/orphan.weights: DN519 error: several cfgs were given and none has "
                        "its name; check one pair at a time, or name the cfg with --cfg")


def test_unreadable_data_file_is_reported_once(folder: Path) -> None:
    proc = dnlint("--format", "concise", "--data", "no.data", "m.cfg", "ok.cfg", cwd=folder)
    assert proc.returncode == 2
    assert proc.stdout.decode().splitlines()[0] == (
        "no.data: DN029 error: no such file or directory (--data)")
    assert proc.stdout.count(b"DN029") == 1


def test_unreadable_directory_in_a_walk(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (folder / "locked").mkdir()
    real = os.scandir

    def scandir(path: str) -> Any:
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.chdir(folder)
    monkeypatch.setattr(os, "scandir", scandir)
    result = CliRunner().invoke(main, ["--format", "concise", "."])
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == ("locked: DN029 error: cannot read directory: "
                                             "Permission denied")
    assert "m.cfg:6:1: DN201" in result.stdout


def test_file_vanishing_during_a_walk(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dnlint.run.inputs

    real = dnlint.run.inputs.not_darknet

    def looks_then_vanishes(path: str, sectionless: bool = True) -> str | None:
        found = real(path, sectionless)
        if path.endswith("m.cfg"):
            os.unlink(path)
        return found

    monkeypatch.chdir(folder)
    monkeypatch.setattr(dnlint.run.inputs, "not_darknet", looks_then_vanishes)
    result = CliRunner().invoke(main, ["--format", "concise", "."])
    assert result.exit_code == 2
    assert result.stdout == ("m.cfg: DN029 error: no such file or directory\n"
                             "Found 1 problem (1 error) in 2 files.\n")


def test_a_thousand_nested_directories(tmp_path: Path) -> None:
    levels = [tmp_path]
    for _ in range(1000):
        levels.append(levels[-1] / "d")
        levels[-1].mkdir()  # os.makedirs (and rmtree on Python 3.11) recurse
    (levels[-1] / "m.cfg").write_bytes(BAD)
    try:
        proc = dnlint("--format", "concise", "-q", ".", cwd=tmp_path)
        assert proc.returncode == 1 and proc.stderr == b""
        assert proc.stdout.decode().startswith("d/d/d/") and b"DN201" in proc.stdout
    finally:
        (levels[-1] / "m.cfg").unlink()
        for level in reversed(levels[1:]):
            level.rmdir()


# --- results stream and are dropped -----------------------------------------------------------

def test_each_file_is_reported_before_the_next_is_read(folder: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The stream holds m.cfg's finding when ok.cfg is linted; each result is gone once
    reported (nothing keeps a file's network, options or lines alive)."""
    import dnlint.pipeline

    stream = io.StringIO()
    seen: list[tuple[str, str]] = []
    alive: list[weakref.ref[Any]] = []
    real = dnlint.pipeline.lint_cfg_bytes

    def spy(data: bytes, path: str, dialect: Any) -> Any:
        seen.append((path, stream.getvalue()))
        assert all(ref() is None for ref in alive), "an earlier file's result is still alive"
        result = real(data, path, dialect)
        # the result, not its network: compiled (mypyc) classes take no weak references
        alive.append(weakref.ref(result))
        return result

    monkeypatch.setattr(dnlint.pipeline, "lint_cfg_bytes", spy)
    monkeypatch.setattr(sys, "stdout", stream)
    with pytest.raises(SystemExit) as done:
        main.main(["--no-color", "--format", "concise", str(folder / "m.cfg"),
                   str(folder / "ok.cfg")], standalone_mode=False)
    assert done.value.code == 1
    assert seen[0] == (str(folder / "m.cfg"), "")
    assert seen[1][0] == str(folder / "ok.cfg") and "DN201" in seen[1][1]
    assert all(ref() is None for ref in alive)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_writes_a_file_before_the_next_is_read(
        folder: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each format streams: m.cfg's finding is on the stream when ok.cfg is linted (JUnit
    too, whose root element carries no totals for that reason)."""
    import dnlint.pipeline

    stream = io.StringIO()
    seen: list[str] = []
    real = dnlint.pipeline.lint_cfg_bytes

    def spy(data: bytes, path: str, dialect: Any) -> Any:
        seen.append(stream.getvalue())
        return real(data, path, dialect)

    monkeypatch.setattr(dnlint.pipeline, "lint_cfg_bytes", spy)
    monkeypatch.setattr(sys, "stdout", stream)
    with pytest.raises(SystemExit):
        main.main(["--no-color", "--format", fmt, str(folder / "m.cfg"), str(folder / "ok.cfg")],
                  standalone_mode=False)
    assert "m.cfg" not in seen[0] and "m.cfg" in seen[1] and "ok.cfg" not in seen[1]
    parse(fmt, stream.getvalue().encode())


@pytest.mark.parametrize("fmt", ["sarif", "junit", "json"])
def test_no_garbage_piles_up_across_files(tmp_path: Path, fmt: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The run pauses the cycle collector, but the reference cycles a report leaves (the
    pure-Python JSON encoder's, with ``indent``) are collected between files: the number of
    objects the collector tracks stays flat over 60 files of 40 findings each."""
    import gc

    import dnlint.pipeline

    for i in range(60):
        (tmp_path / f"f{i:02d}.cfg").write_bytes(BAD + b"".join(
            b"unknown%d=1\n" % n for n in range(40)))
    tracked: list[int] = []
    real = dnlint.pipeline.lint_cfg_bytes

    def spy(data: bytes, path: str, dialect: Any) -> Any:
        tracked.append(len(gc.get_objects()))
        return real(data, path, dialect)

    monkeypatch.setattr(dnlint.pipeline, "lint_cfg_bytes", spy)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with pytest.raises(SystemExit):
        main.main(["--no-color", "--format", fmt, str(tmp_path)], standalone_mode=False)
    assert len(tracked) == 60
    # a collection runs once the young generation passes its threshold (700): after the first
    # files (imports, caches), the count moves within about that much, never file by file
    growth = max(tracked[30:]) - max(tracked[10:30])
    assert growth < 1000, tracked


def test_a_reporters_cycles_are_freed_between_files(folder: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a reporter does: a reference cycle it leaves behind for each file is freed
    before the next file is linted, with the collector's thresholds as they are (the
    allocation count, which the deallocations of older objects lower, decides nothing)."""
    import gc

    import dnlint.pipeline
    import dnlint.reporters.text

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    left: list[weakref.ref[Cycle]] = []
    real_file = dnlint.reporters.text.TextReporter.file

    def file(self: Any, result: Any) -> None:
        left.append(weakref.ref(Cycle()))
        real_file(self, result)

    real = dnlint.pipeline.lint_cfg_bytes
    alive_at_lint: list[int] = []

    def spy(data: bytes, path: str, dialect: Any) -> Any:
        alive_at_lint.append(sum(ref() is not None for ref in left))
        return real(data, path, dialect)

    for i in range(5):
        (folder / f"more{i}.cfg").write_bytes(BAD)
    monkeypatch.setattr(dnlint.reporters.text.TextReporter, "file", file)
    monkeypatch.setattr(dnlint.pipeline, "lint_cfg_bytes", spy)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert gc.isenabled() and gc.get_threshold()[0] > 1
    with pytest.raises(SystemExit):
        main.main(["--no-color", str(folder)], standalone_mode=False)
    assert len(alive_at_lint) == 7 and len(left) == 7
    assert alive_at_lint == [0] * 7


# --- a bug is not a finding -------------------------------------------------------------------

def test_a_bug_on_one_file_is_exit_3_and_the_others_are_reported(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dnlint.pipeline

    real = dnlint.pipeline.lint_cfg_bytes

    def buggy(data: bytes, path: str, dialect: Any) -> Any:
        if path.endswith("ok.cfg"):
            raise KeyError("boom")
        return real(data, path, dialect)

    monkeypatch.chdir(folder)
    monkeypatch.setattr(dnlint.pipeline, "lint_cfg_bytes", buggy)
    result = CliRunner().invoke(main, ["--format", "concise", "m.cfg", "ok.cfg"])
    assert result.exit_code == EXIT_INTERNAL == 3
    assert result.stdout.splitlines()[1] == (
        "ok.cfg:1:1: DN000 error: dnlint failed on this file (KeyError: 'boom'); please report "
        "it with the file")


def test_a_bug_in_a_reporter_is_one_line_and_exit_3(folder: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from dnlint.reporters.text import TextReporter

    def broken(self: Any, result: Any) -> None:
        raise ValueError("bad")

    monkeypatch.chdir(folder)
    monkeypatch.setattr(TextReporter, "file", broken)
    result = CliRunner().invoke(main, ["m.cfg"])
    assert result.exit_code == 3
    assert result.stderr == ("dnlint: internal error while handling m.cfg (ValueError: bad); "
                             "please report it with the file\n")


# --- standard output ---------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("fmt", FORMATS)
def test_full_disk_on_stdout_is_one_line_and_exit_2(folder: Path, fmt: str) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "dnlint", "--format", fmt, "m.cfg"],
                              cwd=folder, stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == (b"dnlint: cannot write the report to standard output: No space left "
                           b"on device\n")


def test_closed_pipe_ends_quietly(folder: Path) -> None:
    for _ in range(300):
        (folder / f"copy{_}.cfg").write_bytes(BAD)
    proc = subprocess.run(f"{sys.executable} -m dnlint --no-color . | head -1", shell=True,
                          cwd=folder, capture_output=True, timeout=120)
    assert proc.stdout.count(b"\n") == 1 and proc.stderr == b""


# --- hostile file names and text --------------------------------------------------------------

HOSTILE_NAMES = [b"bad\xff\xfe.cfg", b"esc\x1b]0;PWNED\x07.cfg", b"c1\xc2\x9b31m.cfg",
                 b"del\x7f.cfg", b"nl\nx.cfg", b"bidi\xe2\x80\xaeevil.cfg"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_file_names_in_every_format(tmp_path: Path, fmt: str) -> None:
    for name in HOSTILE_NAMES:
        with open(os.path.join(os.fsencode(tmp_path), name), "wb") as handle:
            handle.write(BAD)
    proc = dnlint("--format", fmt, ".", cwd=tmp_path, env={"PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 1 and proc.stderr == b"", proc.stderr
    parse(fmt, proc.stdout)
    text = proc.stdout.decode()
    assert not any(ch in text for ch in "\x1b\x07\x7f\x9b\u202e"), text
    if fmt in ("text", "concise", "github"):
        assert "bad\\xff\\xfe.cfg" in text and "esc\\x1b]0;PWNED\\x07.cfg" in text


@pytest.mark.skipif(sys.platform != "linux", reason="raw bytes in names")
def test_sarif_uri_has_the_raw_bytes(tmp_path: Path) -> None:
    with open(os.path.join(os.fsencode(tmp_path), b"bad\xff.cfg"), "wb") as handle:
        handle.write(BAD)
    proc = dnlint("--format", "sarif", os.fsdecode(os.path.join(os.fsencode(tmp_path),
                                                                 b"bad\xff.cfg")))
    log = json.loads(proc.stdout)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"].endswith("/bad%FF.cfg") and uri["uri"].startswith("file:///")


def test_junit_drops_characters_xml_forbids(tmp_path: Path) -> None:
    (tmp_path / "m.cfg").write_bytes(BAD.replace(b"filter=2", "filter=\ufffe\uffff".encode()))
    proc = dnlint("--format", "junit", "m.cfg", cwd=tmp_path)
    ET.fromstring(proc.stdout)


def test_long_lines_are_clipped_around_the_caret(tmp_path: Path) -> None:
    line = b"filter=" + b"1," * 30000 + b"x"
    (tmp_path / "m.cfg").write_bytes(BAD.replace(b"filter=2", line))
    proc = dnlint("m.cfg", cwd=tmp_path)
    assert proc.returncode == 1
    assert max(len(text) for text in proc.stdout.splitlines()) < 400


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\0" not in b
                                                       and b not in (b".", b"..")),
       body=st.binary(max_size=300))
def test_machine_formats_always_parse(tmp_path_factory: pytest.TempPathFactory, name: bytes,
                                      body: bytes) -> None:
    from dnlint.reporters import ReportContext, report_all
    from dnlint.run.engine import Input, RunOptions, lint_input

    folder = tmp_path_factory.mktemp("fuzz")
    path = os.path.join(os.fsencode(folder), name + b".cfg")
    with open(path, "wb") as handle:
        handle.write(BAD + body)
    result = lint_input(Input(os.fsdecode(path), "cfg"), RunOptions())
    for fmt in ("json", "sarif", "junit", "github", "text"):
        stream = io.StringIO()
        report_all(fmt, [result], ReportContext(stream, False))
        out = stream.getvalue()
        out.encode("utf-8")  # no lone surrogate anywhere
        parse(fmt, out.encode())


@pytest.mark.parametrize("names", [("m.cfg", "m.cfg"), ("m.cfg", "./m.cfg"), (".", "m.cfg"),
                                   ("m.cfg", "sub/../m.cfg", ".")])
def test_a_file_named_twice_is_linted_once(folder: Path, monkeypatch: pytest.MonkeyPatch,
                                           names: tuple[str, ...]) -> None:
    """``dnlint m.cfg ./m.cfg``, or a directory and a file in it: one result per file, under
    the name it first came by (ruff and shellcheck's way), and one DN201, not two."""
    (folder / "sub").mkdir()
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["--format", "concise", *names])
    assert result.exit_code == 1
    found = [line for line in result.stdout.splitlines() if "DN201" in line]
    assert len(found) == 1 and found[0].endswith("m.cfg:6:1: DN201 error: unknown option "
                                                 "'filter' in [convolutional]; Darknet ignores "
                                                 "it (hint: did you mean 'filters'?)")


def test_a_file_walked_then_named_counts_as_named(folder: Path) -> None:
    """A walk passes over a cfg that does not look like Darknet's; the same file named on the
    command line is linted, wherever it came first."""
    from dnlint.run.inputs import collect_inputs

    (folder / "odd.txt").write_bytes(GOOD)
    walked_first = collect_inputs((str(folder), str(folder / "m.cfg"),
                                   str(folder / "odd.txt")), [])
    assert [(Path(i.path).name, i.kind, i.explicit) for i in walked_first] == [
        ("m.cfg", "cfg", True), ("ok.cfg", "cfg", False), ("odd.txt", "cfg", True)]
