"""An ignore file (.gitignore, .ignore) a walk meets that exists but cannot be read (a symbolic
link loop, permission denied, a FIFO) is a DN029 of that file and exit 2 at the end; the walk
goes on without its patterns and still lints every other file. Real files, links and
permissions; the permission case runs as ``nobody`` in a forked child when the suite runs as
root (root reads any file)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import as_nobody
from dnlint.cli import main
from dnlint.run.inputs import collect_inputs

CFG = "[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=4\nsize=1\n" \
      "activation=linear\n"


def lint(*args: str) -> tuple[int, list[tuple[str, str, str]]]:
    result = CliRunner().invoke(main, ["--no-config", "--format", "json", *args])
    files = json.loads(result.stdout)["files"]
    return result.exit_code, [(f["path"], d["code"], d["message"])
                              for f in files for d in f["diagnostics"]]


@pytest.fixture()
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """a/m.cfg and b/n.cfg in a git work tree (the walk reads ignore files up to its top)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    for name in ("a/m.cfg", "b/n.cfg"):
        (tmp_path / name).parent.mkdir()
        (tmp_path / name).write_text(CFG)
    return tmp_path


LOOP = "cannot read: Too many levels of symbolic links"


def test_a_link_loop_is_a_dn029_and_the_walk_goes_on(tree: Path) -> None:
    (tree / "a" / ".gitignore").symlink_to(".gitignore")
    assert lint(".") == (2, [("a/.gitignore", "DN029", LOOP)])
    # both cfgs were linted (no finding of their own): the walk went on
    result = CliRunner().invoke(main, ["--no-config", "--format", "json", "."])
    assert sorted(f["path"] for f in json.loads(result.stdout)["files"]) == [
        "a/.gitignore", "a/m.cfg", "b/n.cfg"]


def test_its_patterns_are_missing_not_the_rest(tree: Path) -> None:
    (tree / "b" / ".ignore").symlink_to(".ignore")
    (tree / "b" / ".gitignore").write_text("n.cfg\n")  # still read: n.cfg stays ignored
    result = CliRunner().invoke(main, ["--no-config", "--format", "json", "."])
    assert result.exit_code == 2
    assert [f["path"] for f in json.loads(result.stdout)["files"]] == ["a/m.cfg", "b/.ignore"]


def test_an_ignore_file_of_the_walk_root_is_named_as_the_walk_names_files(tree: Path) -> None:
    (tree / ".ignore").symlink_to(".ignore")
    assert lint(".") == (2, [(".ignore", "DN029", LOOP)])


def test_one_dn029_however_many_paths_lie_below_it(tree: Path) -> None:
    (tree / ".gitignore").symlink_to(".gitignore")
    assert lint("a", "b") == (2, [(str(tree / ".gitignore"), "DN029", LOOP)])


def test_a_fifo_named_gitignore_does_not_hang_the_walk(tree: Path) -> None:
    os.mkfifo(tree / "a" / ".gitignore")
    assert lint(".") == (2, [("a/.gitignore", "DN029", "cannot read: not a regular file")])


def test_absent_dangling_or_directory_ignore_files_are_none(tree: Path) -> None:
    (tree / "a" / ".gitignore").symlink_to("nowhere")
    (tree / "b" / ".gitignore").mkdir()
    assert lint(".") == (0, [])


def test_force_exclude_reports_it_for_a_named_file(tree: Path) -> None:
    (tree / "a" / ".gitignore").symlink_to(".gitignore")
    assert lint("--force-exclude", "a/m.cfg") == (2, [(str(tree / "a" / ".gitignore"),
                                                       "DN029", LOOP)])


def test_without_gitignore_respect_nothing_is_read(tree: Path) -> None:
    (tree / "a" / ".gitignore").symlink_to(".gitignore")
    assert lint("--no-respect-gitignore", ".") == (0, [])


def problems(root: Path) -> list[tuple[str, str, str]]:
    return [(i.path, i.kind, i.reason) for i in collect_inputs((str(root),), [])]


def test_a_denied_ignore_file_is_a_dn029() -> None:
    with tempfile.TemporaryDirectory() as name:  # pytest's own are root's alone
        root = Path(name)
        os.chmod(root, 0o755)
        (root / "m.cfg").write_text(CFG)
        (root / ".gitignore").write_text("m.cfg\n")
        os.chmod(root / ".gitignore", 0)
        if os.geteuid() == 0:
            found = [tuple(item) for item in as_nobody(lambda: problems(root))]
        else:
            found = problems(root)
    assert found == [(str(root / ".gitignore"), "problem", "cannot read: Permission denied"),
                     (str(root / "m.cfg"), "cfg", "")]
