"""A classifier's .data file: names= is checked only where the C code reads it.

train_classifier and validate_classifier_* (classifier.c, both forks) read labels=, never
names=; only classifier predict/try read names= (falling back to labels=). The detector's
commands (test, valid, map, demo; AlexeyAB's train -map) open names=, its default too."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.checks.data import read_data_file
from dnlint.cli import main

CLASSIFIER_CFG = ("[net]\nbatch=8\nsubdivisions=1\nwidth=32\nheight=32\nchannels=3\n\n"
                  "[convolutional]\nfilters=2\nsize=1\nactivation=linear\n\n[avgpool]\n\n"
                  "[softmax]\n")
CLASSIFIER_DATA = ("classes=2\ntrain=data/train.txt\nvalid=data/train.txt\n"
                   "labels=data/labels.txt\nbackup=backup/\ntop=2\n")


def run(*args: str) -> tuple[int, list[str]]:
    """(exit status, ["path:line CODE severity"]) of a concise run."""
    result = CliRunner().invoke(main, ["--format", "concise", "-q", *args])
    found = []
    for line in result.output.splitlines():
        where, _, rest = line.partition(": ")
        found.append(f"{where.rsplit(':', 1)[0]} {' '.join(rest.split(' ', 2)[:2])}")
    return result.exit_code, found


@pytest.fixture
def job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A classifier's training folder: data/labels.txt, data/train.txt, backup/, the images."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "backup").mkdir()
    (tmp_path / "data" / "labels.txt").write_text("cat\ndog\n")
    (tmp_path / "data" / "train.txt").write_text("img/cat_1.jpg\nimg/dog_1.jpg\n")
    (tmp_path / "model.cfg").write_text(CLASSIFIER_CFG)
    return tmp_path


def test_a_classifier_data_file_without_names_is_clean(job: Path) -> None:
    """The false alarm: the detector's default data/names.list was reported missing."""
    (job / "obj.data").write_text(CLASSIFIER_DATA)
    assert run("obj.data") == (0, [])
    assert run("obj.data", "model.cfg") == (0, [])
    assert run("--data", "obj.data", "model.cfg") == (0, [])


def test_a_classifier_names_file_that_is_missing_is_a_warning_at_its_line(job: Path) -> None:
    (job / "obj.data").write_text(CLASSIFIER_DATA + "names=data/short.names\n")
    assert run("obj.data") == (0, ["obj.data:7 DN414 warning:"])
    said = CliRunner().invoke(main, ["obj.data"]).output
    assert "names file 'data/short.names' (line 7) not found in" in said
    assert "classifier predict stops with \"Couldn't open file\"" in said


def test_a_classifier_names_that_is_a_directory_is_a_warning(job: Path) -> None:
    (job / "obj.data").write_text(CLASSIFIER_DATA + "names=data\n")
    assert run("obj.data") == (0, ["obj.data:7 DN414 warning:"])
    assert ("names=data is a directory: classifier predict cannot read names from it "
            "(training reads labels=)") in CliRunner().invoke(main, ["obj.data"]).output


def test_the_default_names_file_beside_a_classifier_cfg_is_not_compared(job: Path) -> None:
    """A data/names.list of another job beside a classifier's: its 3 names are not the
    classifier's classes (DN413 was reported against classes=2)."""
    (job / "data" / "names.list").write_text("a\nb\nc\n")
    (job / "obj.data").write_text("classes=2\ntrain=data/train.txt\nbackup=backup/\n")
    assert run("obj.data", "model.cfg") == (0, [])


def test_a_data_file_that_does_not_say_takes_the_cfgs_kind(job: Path) -> None:
    """classes=, train= and backup= only (labels= left at its default data/labels.list): with a
    classifier's cfg, no names file is opened, so its default missing is no finding (DN414 was
    an error); with a detector's cfg, or with no cfg, it stays one."""
    (job / "data" / "labels.list").write_text("cat\ndog\n")
    (job / "obj.data").write_text("classes=2\ntrain=data/train.txt\nbackup=backup/\n")
    assert run("obj.data", "model.cfg") == (0, [])
    (job / "img").mkdir()
    for name in ("cat_1", "dog_1"):
        (job / "img" / f"{name}.jpg").write_bytes(b"\xff\xd8")
    assert run("--check-labels", "obj.data", "model.cfg") == (0, [])
    assert run("obj.data") == (1, ["obj.data DN414 error:"])
    (job / "yolo.cfg").write_text("[net]\nbatch=8\nsubdivisions=1\nwidth=32\nheight=32\n"
                                  "channels=3\n\n[convolutional]\nfilters=21\nsize=1\n"
                                  "activation=linear\n\n[yolo]\nmask=0,1,2\nanchors=4,4, 8,8, "
                                  "16,16\nclasses=2\nnum=3\n")
    assert run("obj.data", "yolo.cfg") == (1, ["obj.data DN414 error:"])


def test_a_detector_data_file_still_needs_its_names(job: Path) -> None:
    """cfg/combine9k.data has labels= too, and eval=/map=: a detector's; its default names
    file is opened by detector test, so its absence stays an error."""
    (job / "obj.data").write_text("classes=2\ntrain=data/train.txt\nlabels=data/labels.txt\n"
                                  "backup=backup/\neval=coco\n")
    assert run("obj.data") == (1, ["obj.data DN414 error:"])


@pytest.mark.parametrize(("text", "classifier"), [
    ("classes=1000\ntrain=t\nlabels=l\nnames=n\ntop=5\n", True),  # cfg/imagenet1k.data
    ("classes=9418\ntrain=t\nlabels=l\nnames=n\neval=imagenet\nmap=m\n", False),  # combine9k
    ("classes=20\ntrain=t\nnames=n\n", False),  # cfg/voc.data
    ("classes=2\ntrain=t\n", False),  # nothing says: the detector's defaults apply
    ("tree=data/9k.tree\nclasses=9418\n", True),
])
def test_which_data_files_are_a_classifiers(tmp_path: Path, text: str, classifier: bool) -> None:
    path = tmp_path / "x.data"
    path.write_text(text)
    assert read_data_file(path).classifier is classifier
