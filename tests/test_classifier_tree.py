"""DN449 by fork: what each read_tree does with a tree, from [softmax] tree= and from the
.data file's tree= (read by the original Darknet's train_classifier only). Each case was run
on both forks' classifier train (CPU builds, AddressSanitizer) before it was written down."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CLASSIFIER_CFG
from dnlint.cli import main

CLASSIFIER = CLASSIFIER_CFG
AHEAD = ("t.tree:1:1: DN449 {level}: parent 2 comes after this line: the original Darknet's "
         "read_tree writes the parent's child entry before it has one, outside its array "
         "(heap corruption) (hint: list each parent before its children)")
SHORT = ("t.tree: DN449 {level}: 2 lines in the tree but classes=3: the tree's softmax "
         "normalises only its 2 outputs: the rest stay 0 (the loss is inf when their class is "
         "drawn), and fill_hierarchy reads parent[] past the tree (hint: make classes= the "
         "number of tree lines)")

IGNORED = ("cls.data:5:1: DN449 warning: tree=t.tree is read by the original Darknet's "
           "train_classifier only: AlexeyAB's ignores it (no tree is used) (hint: give the tree "
           "as tree= in the cfg's [softmax] section)")


def tree_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tree: str, where: str,
                  *dialect: str, cfg_given: bool = True) -> list[str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "a.jpg").write_bytes(b"\xff\xd8")
    (tmp_path / "train.list").write_text("img/a.jpg\n")
    (tmp_path / "labels.txt").write_text("a\nb\nc\n")
    (tmp_path / "backup").mkdir()
    (tmp_path / "t.tree").write_text(tree)
    data = "classes=3\ntrain=train.list\nlabels=labels.txt\nbackup=backup/\n"
    cfg = CLASSIFIER
    if where == "data":
        data += "tree=t.tree\n"
    else:
        cfg += "tree=t.tree\n"
    (tmp_path / "cls.data").write_text(data)
    (tmp_path / "cls.cfg").write_text(cfg)
    result = CliRunner().invoke(main, ["--no-color", "--format", "concise", "-q", *dialect,
                                       "--check-labels", "cls.data",
                                       *(["cls.cfg"] if cfg_given else [])])
    return [line for line in result.output.splitlines() if "DN449" in line]


@pytest.mark.parametrize(("dialect", "found"), [
    (("--dialect", "pjreddie"), [AHEAD.format(level="error")]),
    ((), []),  # the cfg reads as AlexeyAB's (the dialect auto-detected)
    (("--dialect", "alexeyab"), []),
])
def test_a_parent_after_its_child_is_the_originals_heap_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dialect: tuple[str, ...],
        found: list[str]) -> None:
    assert tree_findings(tmp_path, monkeypatch, "a 2\nb -1\nc -1\n", "cfg", *dialect) == found


@pytest.mark.parametrize(("dialect", "cfg_given", "found"), [
    (("--dialect", "pjreddie"), True, [SHORT.format(level="error")]),
    ((), False, [SHORT.format(level="warning")]),  # no cfg, no dialect: which fork is not known
    ((), True, [IGNORED]),  # the cfg reads as AlexeyAB's
    (("--dialect", "alexeyab"), True, [IGNORED]),  # its train_classifier has no tree= option
])
def test_the_data_files_tree_is_the_originals_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dialect: tuple[str, ...],
        cfg_given: bool, found: list[str]) -> None:
    assert tree_findings(tmp_path, monkeypatch, "a -1\nb 0\n", "data", *dialect,
                         cfg_given=cfg_given) == found


def test_a_tree_named_in_both_files_is_checked_once(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    found = tree_findings(tmp_path, monkeypatch, "a -1\nb 0\n", "data", "--dialect",
                          "pjreddie")
    assert found == [SHORT.format(level="error")]
    (tmp_path / "cls.cfg").write_text(CLASSIFIER + "tree=t.tree\n")
    result = CliRunner().invoke(main, ["--no-color", "--format", "concise", "-q", "--dialect",
                                       "pjreddie", "--check-labels", "cls.data", "cls.cfg"])
    assert [line for line in result.output.splitlines() if "DN449" in line] == found


def test_a_loop_the_original_already_corrupts_on_is_one_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # b's parent is c, listed after it: read_tree's heap write comes before fill_hierarchy
    found = tree_findings(tmp_path, monkeypatch, "a -1\nb 2\nc 1\n", "cfg", "--dialect",
                          "pjreddie")
    assert [line.split(": ", 2)[:2] for line in found] == [["t.tree:2:1", "DN449 error"]]
    assert "comes after this line" in found[0]


def test_alexeyabs_train_uses_the_cfgs_tree_not_the_data_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree_findings(tmp_path, monkeypatch, "a -1\nb 0\nc 0\n", "data")
    (tmp_path / "cfg.tree").write_text("a -1\nb 0\nc 0\n")
    (tmp_path / "cls.cfg").write_text(CLASSIFIER + "tree=cfg.tree\n")
    result = CliRunner().invoke(main, ["--no-color", "--format", "concise", "-q", "--dialect",
                                       "alexeyab", "--check-labels", "cls.data", "cls.cfg"])
    assert [line for line in result.output.splitlines() if "DN449" in line] == [
        "cls.data:5:1: DN449 warning: tree=t.tree is read by the original Darknet's "
        "train_classifier only: AlexeyAB's ignores it (the cfg's [softmax] tree=cfg.tree is "
        "the one used) (hint: give the tree as tree= in the cfg's [softmax] section)"]
