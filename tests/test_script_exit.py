"""The console script ends with os._exit after flushing (dnlint.script.run, for start-up): the
report, the exit status and an output file must be exactly what main() gives in process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import need_shared
from dnlint import __version__
from dnlint.cli import build_description, main

WARNED = ("[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3\n\n"
          "[convolutional]\nfilters=16\nsize=3\nactivation=leaky\n")
BROKEN = "[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\nsize=3\nfoo=1\n"


def script(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m dnlint ARGS`` with the test run's own sources (PYTHONPATH is inherited)."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "dnlint", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, check=False)


def in_process(args: list[str], cwd: Path) -> tuple[int, str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
    finally:
        os.chdir(old)
    return result.exit_code, result.output


def test_statuses_and_reports_are_those_of_main(tmp_path: Path) -> None:
    (tmp_path / "warned.cfg").write_text(WARNED)
    (tmp_path / "broken.cfg").write_text(BROKEN)
    for args, status in ((["warned.cfg"], 0), (["broken.cfg"], 1), (["missing.cfg"], 2),
                         (["--strict", "warned.cfg"], 1), (["--no-such-flag"], 2),
                         (["--version"], 0)):
        done = script(args, tmp_path)
        assert done.returncode == status, (args, done.stderr)
        if args != ["--no-such-flag"]:  # click writes usage errors to stderr
            assert (done.returncode, done.stdout) == in_process(args, tmp_path)


def test_a_large_report_through_a_pipe_is_whole(tmp_path: Path) -> None:
    corpus = need_shared() / "corpus"
    args = ["--format", "json", "--exit-zero", str(corpus)]
    done = script(args, tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > 10_000
    assert (done.returncode, done.stdout) == in_process(args, tmp_path)


def test_an_output_file_is_committed(tmp_path: Path) -> None:
    (tmp_path / "broken.cfg").write_text(BROKEN)
    done = script(["--format", "junit", "-o", "report.xml", "broken.cfg"], tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    report = (tmp_path / "report.xml").read_text()
    assert report.endswith("</testsuites>\n") and 'failures="1"' in report


FULL = "/dev/full"


def to_full(args: list[str], cwd: Path, stderr_full: bool = False) -> tuple[int, bytes]:
    """``python -m dnlint ARGS >/dev/full`` (and ``2>/dev/full``): the status and stderr."""
    with open(FULL, "w") as full:
        proc = subprocess.run([sys.executable, "-m", "dnlint", *args], cwd=cwd, stdout=full,
                              stderr=full if stderr_full else subprocess.PIPE, timeout=120,
                              check=False)
    return proc.returncode, proc.stderr or b""


@pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["--list-rules"],
                                  ["--list-rules", "--format", "json"], ["--explain", "DN201"]])
def test_every_command_on_a_full_stdout_is_one_line_and_exit_2(tmp_path: Path,
                                                               args: list[str]) -> None:
    """They printed a traceback (OSError ENOSPC) and exited 1; a lint run already did this."""
    assert to_full(args, tmp_path) == (
        2, b"dnlint: cannot write to standard output: No space left on device\n")


@pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")
@pytest.mark.parametrize(("args", "status"), [(["--help"], 2), (["--no-such-flag"], 2),
                                              (["missing.cfg"], 2), (["broken.cfg"], 2)])
def test_a_full_stderr_too_keeps_the_exit_status(tmp_path: Path, args: list[str],
                                                 status: int) -> None:
    """With both streams on a full disk nothing can be said, but the status still says it
    (the one-line error's own write failed and escaped as a traceback, exit 1)."""
    (tmp_path / "broken.cfg").write_text(BROKEN)
    assert to_full(args, tmp_path, stderr_full=True) == (status, b"")


def _closed(args: list[str], cwd: Path, closed: tuple[int, ...]) -> tuple[int, bytes, bytes]:
    """``python -m dnlint ARGS`` started with the descriptors ``closed`` closed, as a shell's
    ``<&-``, ``>&-`` or ``2>&-`` starts it; its status, standard output and error (what was
    open of them)."""
    def close() -> None:
        for fd in closed:
            os.close(fd)

    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "dnlint", *args], capture_output=True,
                          cwd=cwd, env=env, check=False, preexec_fn=close)
    return done.returncode, done.stdout, done.stderr


def test_a_closed_standard_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert _closed(["-"], tmp_path, (0,)) == (
        2, b"", b"dnlint: cannot read standard input: it is closed\n")
    assert _closed(["--stdin-filename", "m.cfg"], tmp_path, (0,)) == (
        2, b"", b"dnlint: cannot read standard input: it is closed\n")
    assert _closed(["-"], tmp_path, (0, 2)) == (2, b"", b"")


def test_a_closed_standard_output_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "warned.cfg").write_text(WARNED)
    for args in (["warned.cfg"], ["--fix-only", "warned.cfg"], ["--diff", "warned.cfg"],
                 ["--explain", "DN001"], ["-o", "out.txt", "--explain", "DN001"],
                 ["--list-rules"], ["--help"], ["-h"], ["-qh"], ["--version"],
                 ["--show-settings", "warned.cfg"]):
        assert _closed(args, tmp_path, (1,)) == (
            2, b"", b"dnlint: cannot write to standard output: it is closed\n"), args
    assert _closed(["warned.cfg"], tmp_path, (1, 2)) == (2, b"", b"")
    assert (tmp_path / "warned.cfg").read_text() == WARNED  # nothing fixed either


def test_help_and_version_with_every_stream_closed_exit_2_in_silence(tmp_path: Path) -> None:
    for args in (["--help"], ["--version"]):
        assert _closed(args, tmp_path, (1, 2)) == (2, b"", b""), args


def test_help_and_version_print_as_before_when_standard_output_is_open(tmp_path: Path) -> None:
    version = build_description() % {"prog": "dnlint", "version": __version__}
    assert _closed(["--version"], tmp_path, ()) == (0, f"{version}\n".encode(), b"")
    status, out, err = _closed(["--help"], tmp_path, (0,))
    assert (status, out.splitlines()[0], err) == (
        0, b"Usage: python -m dnlint [OPTIONS] [PATHS]...", b"")


def _lsp_closed(args: list[str], cwd: Path, closed: tuple[int, ...]) -> tuple[int, bytes, bytes]:
    """The ``dnlint-lsp`` console script (dnlint.lsp.run) started with ``closed`` closed."""
    def close() -> None:
        for fd in closed:
            os.close(fd)

    done = subprocess.run([sys.executable, "-c", "from dnlint.lsp import run; run()", *args],
                          capture_output=True, cwd=cwd, check=False, preexec_fn=close,
                          timeout=60)
    return done.returncode, done.stdout, done.stderr


def test_the_language_server_with_a_closed_stream_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert _lsp_closed([], tmp_path, (1,)) == (
        2, b"", b"dnlint-lsp: cannot write to standard output: it is closed\n")
    assert _lsp_closed([], tmp_path, (0,)) == (
        2, b"", b"dnlint-lsp: cannot read standard input: it is closed\n")
    assert _lsp_closed([], tmp_path, (0, 2)) == (2, b"", b"")
    assert _lsp_closed(["--version"], tmp_path, (2,)) == (0, b"", b"")  # says it on stderr


def test_a_report_to_a_file_needs_no_standard_output(tmp_path: Path) -> None:
    (tmp_path / "warned.cfg").write_text(WARNED)
    assert _closed(["-q", "-o", "out.txt", "warned.cfg"], tmp_path, (1,)) == (0, b"", b"")
    assert (tmp_path / "out.txt").read_text().startswith("warned.cfg:")


def test_a_closed_standard_error_does_not_change_the_status(tmp_path: Path) -> None:
    assert _closed(["missing.cfg"], tmp_path, (2,)) == (
        2, b"missing.cfg: DN029 error: no such file or directory\n"
           b"Found 1 problem (1 error) in 1 file.\n", b"")
