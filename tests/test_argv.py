"""The console script's own reading of a plain command line (dnlint.argv): the same flags as
click's parse for every command line it takes, click for every other, and no click import
for a plain run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

import dnlint.about
import dnlint.cli
from dnlint import argv
from dnlint.cli import main
from dnlint.command import Flags

# read by click alone: they print and exit, or loop (--watch)
CLICK_ONLY = {"--help", "-h", "--version", "--explain", "--list-rules", "--show-settings",
              "--watch"}

SAME = [
    [],
    ["a.cfg"],
    ["a.cfg", "-", "b dir"],
    ["--format", "json", "a.cfg"],
    ["--format=sarif", "a.cfg"],
    ["--output-format", "junit", "a.cfg", "--layers"],
    ["--dialect", "ab", "--dialect", "pjreddie", "a.cfg"],  # the last one given wins
    ["--select", "DN2", "--select=DN401,unknown-option", "--ignore", "DN1", "x.cfg"],
    ["--extend-select", "DN7", "--extend-ignore", "DN2", "--per-file-ignores", "a/*:DN2"],
    ["--severity-override", "DN201=info", "--config", "c.toml", "--no-config"],
    ["--disable-directives", "--exclude", "a,b", "--extend-exclude", "c", "--force-exclude"],
    ["--respect-gitignore", "a.cfg"],
    ["--respect-gitignore", "--no-respect-gitignore", "a.cfg"],
    ["--stdin-filename", "x.cfg", "--color", "never", "--no-color", "-"],
    ["--fail-on", "info", "--strict", "--exit-zero", "--graph", "g.svg", "a.cfg"],
    ["--weights", "a.weights", "--weights", "b.weights", "--cfg", "a.cfg", "--weights-beside"],
    ["--weights-only", "--scan", "--data", "obj.data", "--data-root", "d", "--check-images"],
    ["--check-labels", "--target", "opencv", "--target=hank-onnx", "--gpu-memory", "8G"],
    ["--gpu-memory", "auto", "--gpu-memory=banana", "--statistics", "a.cfg"],  # run decides
    ["--fix", "--unsafe-fixes", "--fix-only", "--diff", "--add-suppressions", "a.cfg"],
    ["-v", "-q", "--verbose", "--quiet", "a.cfg"],
    ["-o", "report.txt", "a.cfg"],
    ["--output=report.txt", "a.cfg"],
    ["--output=", "a.cfg"],
    ["--select", "-x", "a.cfg"],  # click takes the next argument as the value, whatever it is
    ["--select", "--layers", "a.cfg"],
    ["--select=", "a.cfg"],
    ["a.cfg", "--", "--format", "-v"],  # after --, paths only
    ["--", "-"],
    ["--graph", "-", "a.cfg"],
    ["--color", "always", "--color=auto", "a.cfg"],
]
DECLINED = [
    ["--help"], ["-h"], ["a.cfg", "--version"], ["--version", "--version"],
    ["--explain", "DN201"], ["--list-rules"], ["--show-settings", "a.cfg"],
    ["--watch", "a.cfg"], ["-vq", "a.cfg"], ["-oreport.txt"], ["-o=report.txt", "a.cfg"],
    ["--format", "yaml", "a.cfg"], ["--format=", "a.cfg"], ["--dialect", "AB", "a.cfg"],
    ["--color", "yes"], ["--fail-on", "fatal"], ["--no-such-flag"], ["--layers=1", "a.cfg"],
    ["--no-color=", "a.cfg"], ["--form", "json"], ["--select"], ["a.cfg", "-o"], ["-5", "a.cfg"],
    ["---format", "json"], ["-V"],
]


class _Parsed(Exception):
    """Raised where the click command hands its parse over, to stop it there."""


def clicks_parse(args: list[str], monkeypatch: pytest.MonkeyPatch
                 ) -> tuple[tuple[str, ...], Flags]:
    seen: list[tuple[tuple[str, ...], Flags]] = []

    def parsed(paths: tuple[str, ...], flags: Flags) -> None:
        seen.append((paths, flags))
        raise _Parsed

    monkeypatch.setattr(dnlint.cli, "need_standard_streams", parsed)
    with pytest.raises(_Parsed):
        main.main(args, standalone_mode=False)
    assert len(seen) == 1
    return seen[0]


def clicks_error(args: list[str]) -> str:
    """What click says of ``args`` (a usage error: it never reaches the run)."""
    with pytest.raises(click.UsageError) as error:
        main.main(args, standalone_mode=False)
    return error.value.format_message()


def test_the_table_is_the_click_commands() -> None:
    """Every option click declares is in the table with its field and kind, or is one click
    alone reads; the choices are click's; only --format reads the environment."""
    table: dict[str, tuple[str, str]] = {}
    choices: dict[str, tuple[str, ...]] = {}
    for param in main.params:
        if not isinstance(param, click.Option):
            continue
        assert param.name is not None
        if set(param.opts) & CLICK_ONLY:
            assert not set(param.opts) & set(argv.OPTIONS)
            continue
        kind = "multiple" if param.multiple else "flag" if param.is_flag else "value"
        table.update((opt, (param.name, kind)) for opt in param.opts)
        table.update((opt, (param.name, "unflag")) for opt in param.secondary_opts)
        if isinstance(param.type, click.Choice):
            choices[param.name] = tuple(str(choice) for choice in param.type.choices)
        assert param.envvar == (argv.FORMAT_VARIABLE if param.name == "output_format" else None)
    assert table == argv.OPTIONS
    assert choices == argv.choices()
    assert set(Flags._fields) == {p.name for p in main.params if isinstance(p, click.Option)
                                  and p.name != "version"}


@pytest.mark.parametrize("args", SAME, ids=" ".join)
def test_the_same_flags_as_click(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                 tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(argv.FORMAT_VARIABLE, raising=False)
    assert argv.parse(args) == clicks_parse(args, monkeypatch)


def test_the_format_variable_as_click_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, fast in (("json", True), ("", True), ("yaml", False)):
        monkeypatch.setenv(argv.FORMAT_VARIABLE, value)
        parsed = argv.parse(["a.cfg"])
        assert (parsed is not None) == fast
        if parsed is not None:
            assert parsed == clicks_parse(["a.cfg"], monkeypatch)
            assert parsed[1].output_format == (value or "text")
    monkeypatch.setenv(argv.FORMAT_VARIABLE, "yaml")  # a flag given: click never reads it
    given = ["--format", "json", "a.cfg"]
    assert argv.parse(given) == clicks_parse(given, monkeypatch)


@pytest.mark.parametrize("args", DECLINED, ids=" ".join)
def test_everything_else_is_left_to_click(args: list[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(argv.FORMAT_VARIABLE, raising=False)
    assert argv.parse(args) is None


@pytest.mark.parametrize("args", [
    ["--format", "yaml", "a.cfg"], ["--dialect", "AB", "--dialect", "bogus"], ["--color", "yes"],
    ["--fail-on", "fatal"], ["--no-such-flag"], ["--layers=1"], ["--form", "json"],
    ["--select"], ["-5"], ["-oreport.txt", "-x"], ["-o=report.txt", "--format=", "a.cfg"],
], ids=" ".join)
def test_what_is_declined_for_an_error_is_an_error_to_click(args: list[str]) -> None:
    """A command line the fast reader declines because click refuses it: click does refuse
    it (so no command line click would take as it is gets the fast reader's own reading)."""
    assert argv.parse(args) is None
    assert clicks_error(args)


def test_an_output_that_is_a_directory_is_left_to_click(tmp_path: Path) -> None:
    """click.Path(dir_okay=False) refuses it with its own message."""
    assert argv.parse(["-o", str(tmp_path), "a.cfg"]) is None
    assert "is a directory" in clicks_error(["-o", str(tmp_path), "a.cfg"])
    assert argv.parse(["-o", str(tmp_path / "new.txt"), "a.cfg"]) is not None


def script(args: list[str], cwd: Path, *options: str,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    environment.pop(argv.FORMAT_VARIABLE, None)
    return subprocess.run([sys.executable, *options, "-m", "dnlint", *args], cwd=cwd,
                          env=environment, capture_output=True, text=True, check=False)


def imported(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line]


def test_a_plain_run_does_not_import_click(tmp_path: Path) -> None:
    (tmp_path / "m.cfg").write_text("[net]\nwidth=32\nheight=32\nchannels=3\n\n"
                                    "[convolutional]\nfilters=16\nsize=3\n")
    for args in (["--exit-zero", "m.cfg"], ["--format", "json", "--layers", "m.cfg"],
                 ["--version"]):
        done = script(args, tmp_path, "-X", "importtime")
        assert done.returncode == 0, done.stderr
        modules = imported(done)
        assert ("dnlint.command" in modules) == (args != ["--version"])
        assert not [name for name in modules if name.split(".")[0] == "click"], args
    for args in (["--help"], ["-vq", "m.cfg"]):
        assert "click" in imported(script(args, tmp_path, "-X", "importtime"))


def test_the_version_line_is_clicks(tmp_path: Path) -> None:
    done = script(["--version"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    with pytest.raises(SystemExit) as exit_:
        main.main(["--version"], prog_name="dnlint")
    assert exit_.value.code == 0
    assert done.stdout == f"{dnlint.about.version_line()}\n"
    assert done.stdout.startswith("dnlint 0.1.0 (")


def test_a_usage_error_found_after_parsing_is_clicks(tmp_path: Path) -> None:
    """The run raises it before anything runs; click reads the command line again and says
    it, exit status 2."""
    done = script(["--config", "c.toml", "--no-config", "m.cfg"], tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("Usage: python -m dnlint [OPTIONS] [PATHS]...\n"
                           "Try 'python -m dnlint --help' for help.\n\n"
                           "Error: --config and --no-config exclude each other\n")
    assert script([], tmp_path).stderr.endswith(
        "Error: no files given (try: dnlint model.cfg)\n")
    assert script(["--gpu-memory", "lots", "m.cfg"], tmp_path).stderr.endswith(
        "Error: --gpu-memory: 'lots' is not a size (try 8G, 11GiB, 6144M, or auto)\n")


def test_a_completion_request_goes_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shell completion is click's (its main answers it before any parse), as is a process
    without a standard stream."""
    assert argv.load(["a.cfg"]).__qualname__ == "load.<locals>.command"
    monkeypatch.setenv("_DNLINT_COMPLETE", "bash_source")
    assert argv.load(["a.cfg"]).__qualname__ == "_clicked.<locals>.clicked"
    assert argv.load(["--version"]).__qualname__ == "_clicked.<locals>.clicked"
    monkeypatch.delenv("_DNLINT_COMPLETE")
    monkeypatch.setattr(sys, "stdout", None)
    assert argv.load(["a.cfg"]).__qualname__ == "_clicked.<locals>.clicked"


def test_the_build_named_is_the_one_imported() -> None:
    """--version names the build by the files beside it; the import system took the same."""
    import dnlint.diagnostics

    compiled = (dnlint.diagnostics.__file__ or "").endswith((".so", ".pyd"))
    assert dnlint.about.build_description().endswith(
        f" ({'compiled with mypyc' if compiled else 'pure Python'}, Python "
        f"{'.'.join(str(part) for part in sys.version_info[:3])})")
