"""What a packager and a new user see: one version, the licence, a complete sdist, the build
that ``--version`` names. The sdist and the wheels themselves are built and tested by .ci/run
(``.ci/check_dist.py``) and the release workflow."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import dnlint
import dnlint.diagnostics
from dnlint.cli import main

ROOT = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once() -> None:
    """pyproject.toml reads the version from the package, so the two cannot disagree."""
    project = pyproject()["project"]
    setuptools = pyproject()["tool"]["setuptools"]  # type: ignore[index]
    assert isinstance(project, dict) and "version" not in project
    assert project["dynamic"] == ["version"]
    assert setuptools["dynamic"]["version"] == {"attr": "dnlint.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", dnlint.__version__)


def test_the_installed_metadata_has_the_same_version() -> None:
    try:
        installed = importlib.metadata.version("dnlint")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("dnlint is not installed (the tests run on a bare source tree)")
    assert installed == dnlint.__version__


def test_the_changelog_has_an_unreleased_section_above_the_releases() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.MULTILINE)
    assert headings and headings[0] == "Unreleased"


def test_the_licence_is_mit_as_declared() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_the_classifiers_name_every_python_that_ci_tests() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict) and project["requires-python"] == ">=3.10"
    versions = {c.rsplit(" :: ", 1)[1] for c in project["classifiers"]
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    # 3.14 is the web page's Python (Pyodide): CI runs the pure wheel's lint there, in Node
    pyodide = {"3.14"}
    assert versions == {"3.10", "3.11", "3.12", "3.13"} | pyodide
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "npm --prefix web test" in ci
    versions -= pyodide
    assert set(re.findall(r"(?:python3_dir|find_python) (3\.\d+)\)", ci)) == versions
    cibuildwheel = pyproject()["tool"]["cibuildwheel"]  # type: ignore[index]
    built = set(re.findall(r"cp3(\d+)-", cibuildwheel["build"]))
    assert {f"3.{minor}" for minor in built} == versions


def test_version_says_which_build_runs() -> None:
    result = CliRunner().invoke(main, ["--version"])
    compiled = (dnlint.diagnostics.__file__ or "").endswith((".so", ".pyd"))
    build = "compiled with mypyc" if compiled else "pure Python"
    python = ".".join(str(part) for part in sys.version_info[:3])
    assert result.output == f"dnlint {dnlint.__version__} ({build}, Python {python})\n"
    assert result.exit_code == 0


def test_the_sdist_takes_what_the_tests_and_the_readme_need() -> None:
    """MANIFEST.in grafts every folder the suite and the README's commands read."""
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split()
    for folder in ("tests", "fixtures", "docs", "bench"):
        assert folder in manifest[manifest.index("graft"):], folder
    for name in ("CHANGELOG.md", ".pre-commit-hooks.yaml", ".ci"):
        assert name in manifest, name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"dnlint --layers (\S+)", readme)
    assert first is not None and (ROOT / first.group(1)).is_file()
