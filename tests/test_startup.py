"""Start-up stays light: no click for a command line the console script reads itself
(dnlint.argv), no numpy, no rich without colour, no TOML parser without a config, no typing
in any output format; and ``--version`` imports none of the command (not even dataclasses or
inspect).

Each probe runs in a temporary directory, so it must be checked that it ran the copy of dnlint
under test: the sources when PYTHONPATH points at them, else the installed (maybe compiled) one.
A relative PYTHONPATH would silently switch the probe to the installed copy.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from dnlint.reporters import FORMATS

HEAVY = ("numpy", "rich", "tomllib", "tomli", "jsonschema", "xml.etree.ElementTree",
         # each costs a few ms, needed only with a configuration file, -o, a misspelling or
         # a weights file (issue 13: start-up)
         "pathlib", "tempfile", "difflib", "dnlint.weights",
         # only for a file that spells "dnlint:" (a directive, or a misplaced one)
         "dnlint.settings.directives",
         # the language server is a program of its own (dnlint-lsp)
         "dnlint.lsp",
         # the click command: --help, usage errors and the rarer flags only (issue 35)
         "click", "dnlint.cli",
         # 11.4M instructions of a compiled run's 80M: a module's typing names are the type
         # checker's (TYPE_CHECKING = False), overload is dnlint.records' (issue 35)
         "typing",
         # 29M instructions of a compiled run's 62M over python -c pass (issue 35): re imports
         # enum, which imports functools and collections; dnlint.strenum stands for enum,
         # collections.abc's classes come from _collections_abc, array only for long files
         "re", "enum", "functools", "collections", "contextlib", "array", "json",
         "urllib.parse")
# what ``--version`` does not need either: the command, and the standard library's costly
# modules (inspect is dataclasses' import; enum and re the probe's own json needs)
NOT_FOR_VERSION = ("dataclasses", "inspect", "importlib.util",
                   "dnlint.command", "dnlint.diagnostics", "dnlint.dialects")
# the command run in a probe process, its arguments a JSON list in argv[1]
RUN_COMMAND = """
sys.argv = ["dnlint", *sys.argv[1:]]
try:
    from dnlint.argv import main
    main()
except SystemExit:
    pass
"""
# (json is imported after the command: it imports re, which the command must not)
PROBE = """
import sys
""" + RUN_COMMAND + """
import dnlint
sys.stderr.write("\\nPACKAGE " + dnlint.__file__)
sys.stderr.write("\\nMODULES " + repr(sorted(m for m in {heavy!r} if m in sys.modules)))
"""
CFG = "[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\nsize=3\n"


def loaded(args: list[str], cwd: Path, watched: tuple[str, ...] = HEAVY) -> list[str]:
    """Which of ``watched`` a process running the console script's command imports."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=watched), *args],
                          capture_output=True, text=True, cwd=cwd, check=False)
    assert "PACKAGE " in done.stderr, done.stderr
    ran = Path(done.stderr.rsplit("PACKAGE ", 1)[1].split("\n", 1)[0]).resolve().parent
    assert ran == copy_under_test(), f"the probe ran {ran}, not the copy under test"
    modules: list[str] = ast.literal_eval(done.stderr.rsplit("MODULES ", 1)[1].strip())
    return modules


def copy_under_test() -> Path:
    """The dnlint package a subprocess should import: the first PYTHONPATH entry holding one
    (resolved from this process's directory, as the suite's own imports were), else the one
    this process imported."""
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry and (Path(entry) / "dnlint" / "__init__.py").is_file():
            return (Path(entry) / "dnlint").resolve()
    import dnlint

    return Path(dnlint.__file__).resolve().parent


@pytest.fixture()
def cwd(tmp_path: Path) -> Path:
    (tmp_path / "m.cfg").write_text(CFG)
    return tmp_path


def test_version_imports_nothing_heavy(cwd: Path) -> None:
    assert loaded(["--version"], cwd, HEAVY + NOT_FOR_VERSION) == []


def test_the_probe_sees_click_and_the_command(cwd: Path) -> None:
    """The probe itself works: a command line left to click imports it."""
    assert loaded(["--help"], cwd, ("click", "dnlint.cli", "inspect")) == [
        "click", "dnlint.cli", "inspect"]
    assert loaded(["--version", "m.cfg"], cwd, ("click", "typing")) == ["click", "typing"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_linting_one_cfg_imports_nothing_heavy(cwd: Path, fmt: str) -> None:
    assert loaded(["--no-color", "--format", fmt, "m.cfg"], cwd) == []


def test_a_fixable_finding_imports_no_dataclasses_typing_or_re(cwd: Path) -> None:
    """The text report works out a fixable finding's edit to mark it [*] (dnlint.fixes): its
    records are plain classes (dataclasses imports inspect, 72M instructions) and its patterns
    are compiled on first use."""
    (cwd / "m.cfg").write_bytes(b"\xef\xbb\xbf" + CFG.encode())  # DN014, fixable
    watched = ("dnlint.fixes", "dataclasses", "inspect", "typing", "re", "enum")
    assert loaded(["--no-color", "m.cfg"], cwd, watched) == ["dnlint.fixes"]


def test_a_misspelt_option_imports_no_difflib_re_or_array(cwd: Path) -> None:
    """DN201's suggestion (dnlint.close_match) and its rename fix, marked [*], read the name
    without difflib or a regex; the fix's line starts of a small file are a list."""
    (cwd / "m.cfg").write_text(CFG.replace("filters=16", "filter=16"))
    watched = ("dnlint.fixes", "difflib", "re", "enum", "array", "collections")
    assert loaded(["--no-color", "m.cfg"], cwd, watched) == ["dnlint.fixes"]


def test_a_cfg_that_starts_with_a_blank_line_imports_no_re(cwd: Path) -> None:
    """The sniffer asks whether a file that starts with a blank is blank throughout (DN001)
    without a regex."""
    (cwd / "m.cfg").write_text("\n  \n" + CFG)
    assert loaded(["--no-color", "m.cfg"], cwd, ("re", "enum")) == []


def test_colour_loads_rich_and_a_config_loads_the_toml_parser(cwd: Path) -> None:
    """The probe itself works: the modules appear when they are needed."""
    assert "rich" in loaded(["--color", "always", "m.cfg"], cwd)
    (cwd / ".dnlint.toml").write_text('ignore = ["DN1"]\n')
    assert {"tomllib", "tomli"} & set(loaded(["--no-color", "m.cfg"], cwd))


def test_pyproject_without_our_table_does_not_load_the_toml_parser(cwd: Path) -> None:
    (cwd / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert loaded(["--no-color", "m.cfg"], cwd) == []
    # a project that uses dnlint names it: as a dependency it is still not a table of ours
    (cwd / "pyproject.toml").write_text('[project]\nname = "x"\n'
                                        'optional-dependencies.dev = ["dnlint>=0.1"]\n')
    assert loaded(["--no-color", "m.cfg"], cwd) == []


def test_a_comment_that_names_dnlint_does_not_load_the_directive_parser(cwd: Path) -> None:
    """As the bundled example's first line does ("written for dnlint's examples")."""
    (cwd / "m.cfg").write_text("# checked by dnlint; DNLINT's examples\n" + CFG)
    assert loaded(["--no-color", "m.cfg"], cwd) == []
    (cwd / "m.cfg").write_text("# DNLint \t: disable=DN2\n" + CFG)
    directives = ("dnlint.settings.directives",)
    assert loaded(["--no-color", "m.cfg"], cwd, directives) == list(directives)


# what a clean one-file run must not compile (issue 35): each pattern is compiled on first use
DEFERRED_PATTERNS = ("_STRTOD", "_FLOAT_RUN", "_INT_RUN", "_STOF_PREFIX",
                     "_STOI_PREFIX")
COMPILED_PROBE = """
import json, re, sys
before = set(re._cache)  # the probe's own (json's)
""" + RUN_COMMAND + """
sys.stderr.write("\\nPATTERNS " + json.dumps([str(key[1]) for key in re._cache
                                             if key not in before]))
"""


def test_a_clean_run_compiles_no_regex_it_does_not_use(cwd: Path) -> None:
    import dnlint.clean
    import dnlint.cnumbers
    import dnlint.rules

    deferred = [getattr(dnlint.cnumbers, name) for name in DEFERRED_PATTERNS]
    deferred += [dnlint.clean._LONG_TOKEN]
    assert all(isinstance(pattern, str) for pattern in deferred)
    done = subprocess.run([sys.executable, "-c", COMPILED_PROBE, "--no-color", "m.cfg"],
                          capture_output=True,
                          text=True, cwd=cwd, check=False)
    compiled = json.loads(done.stderr.rsplit("PATTERNS ", 1)[1])
    assert [pattern for pattern in deferred if pattern in compiled] == []
    # a clean run compiles none: it does not even import re (HEAVY), but where a probe or a
    # library has, its functions must not compile what they only need for rarer input
    assert compiled == []


def _compiled_modules() -> set[Path]:
    """The sources setup.py compiles with mypyc (its COMPILED list)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    entries = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign)
                   and getattr(node.targets[0], "id", "") == "COMPILED")
    found: set[Path] = set()
    for entry in entries:
        path = ROOT / "src" / entry
        found |= set(path.glob("*.py")) if entry.endswith("/") else {path}
    return found


def test_interpreted_records_skip_typings_field_checks() -> None:
    """An interpreted module's NamedTuple comes from dnlint.records: typing's compiles each
    field's annotation twice (a 47-field Flags: 94 compile() calls at every start). mypyc builds
    a compiled module's with typing's own whatever it is imported as."""
    compiled = _compiled_modules()
    assert ROOT / "src" / "dnlint" / "cnumbers.py" in compiled  # the list is read
    typing_records = [path.relative_to(ROOT).as_posix()
                      for path in sorted((ROOT / "src" / "dnlint").rglob("*.py"))
                      if path not in compiled and path.name != "records.py"
                      and re.search(r"^from typing import .*\bNamedTuple\b", path.read_text(),
                                    re.MULTILINE)]
    assert typing_records == []
