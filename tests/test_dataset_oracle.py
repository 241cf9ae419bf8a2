"""--check-labels against what Darknet did: each case of fixtures/oracle/labels-cases.json
(rebuilt here in a temporary folder) gives exactly the findings that say what the fork did
(the fixture records how each verdict was obtained)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

ROOT = Path(__file__).resolve().parents[1]
CASES = {c["case"]: c for c in json.loads(
    (ROOT / "fixtures" / "oracle" / "labels-cases.json").read_text())["cases"]}
CFG = ("[net]\nbatch=2\nsubdivisions=1\nwidth=32\nheight=32\nchannels=3\nlearning_rate=0.001\n"
       "burn_in=0\nmax_batches=3\npolicy=constant\n\n[convolutional]\nfilters=21\nsize=1\n"
       "stride=1\nactivation=linear\n\n[yolo]\nmask=0,1,2\nanchors=4,4, 8,8, 16,16\nclasses=2\n"
       "num=3\nrandom=0\n{extra}\n")
PNG = bytes.fromhex("89504e470d0a1a0a")  # only looked for, never decoded

# case -> dialect -> the codes dnlint reports (in report order; DN448 is the cfg's own)
EXPECTED: dict[str, dict[str, list[str]]] = {
    "baseline": {"pjreddie": [], "alexeyab": [], "hank": []},
    "label-missing": {d: ["DN430", "DN430"] for d in ("pjreddie", "alexeyab", "hank")},
    "label-empty": {"pjreddie": [], "alexeyab": [], "hank": []},
    "class-out-of-range": {d: ["DN434", "DN434"] for d in ("pjreddie", "alexeyab", "hank")},
    "class-negative": {d: ["DN434", "DN434"] for d in ("pjreddie", "alexeyab", "hank")},
    "placeholder-zeros": {d: ["DN436", "DN436"] for d in ("pjreddie", "alexeyab", "hank")},
    "coords-over-one": {d: ["DN435", "DN435"] for d in ("pjreddie", "alexeyab", "hank")},
    "coords-pixels": {d: ["DN435", "DN435"] for d in ("pjreddie", "alexeyab", "hank")},
    "width-over-one": {d: ["DN435", "DN435"] for d in ("pjreddie", "alexeyab", "hank")},
    "fscanf-stop": {d: ["DN432", "DN432"] for d in ("pjreddie", "alexeyab", "hank")},
    "label-bom": {d: ["DN432", "DN432"] for d in ("pjreddie", "alexeyab", "hank")},
    "label-is-dir": {d: ["DN431", "DN431"] for d in ("pjreddie", "alexeyab", "hank")},
    "jpeg-ext": {"pjreddie": ["DN439", "DN439"], "alexeyab": [], "hank": []},
    "bmp-ext": {"pjreddie": ["DN439", "DN439"], "alexeyab": [], "hank": []},
    "images-labels-layout": {"pjreddie": [], "alexeyab": ["DN430", "DN430"],
                             "hank": ["DN430", "DN430"]},
    "images-beside-layout": {"pjreddie": ["DN430", "DN430"], "alexeyab": [], "hank": []},
    "raw-in-path": {"pjreddie": ["DN430", "DN430"], "alexeyab": [], "hank": []},
    # the concise format prints a repeated finding once ("and 7 more: lines ...")
    "blank-line": {d: ["DN441"] for d in ("pjreddie", "alexeyab", "hank")},
    "only-blank": {d: ["DN441"] for d in ("pjreddie", "alexeyab", "hank")},
    "list-bom": {d: ["DN442"] for d in ("pjreddie", "alexeyab", "hank")},
    "list-utf16": {d: ["DN442"] for d in ("pjreddie", "alexeyab", "hank")},
    "max-boxes-over": {"pjreddie": ["DN438", "DN438", "DN448"], "alexeyab": ["DN438", "DN438"],
                       "hank": ["DN438", "DN438"]},
    "max-under-90-batch": {"pjreddie": ["DN448"], "alexeyab": [], "hank": []},
    "tiny-box": {d: ["DN437", "DN437"] for d in ("pjreddie", "alexeyab", "hank")},
    "dot-in-folder": {"pjreddie": ["DN439", "DN439"], "alexeyab": ["DN439", "DN439"],
                      "hank": ["DN430", "DN430"]},
    # both trained on boxes whose fields come from the wrong columns: the second box's class
    # id is the '0' of 0.97, so class 1 gets no box (DN445)
    "six-columns": {d: ["DN445", "DN433", "DN433"] for d in ("pjreddie", "alexeyab", "hank")},
    # both hung on the FIFO (killed after 60 s); both trained /dev/zero as a negative
    "label-fifo": {d: ["DN431", "DN431"] for d in ("pjreddie", "alexeyab", "hank")},
    "label-dev-zero": {d: ["DN431", "DN431"] for d in ("pjreddie", "alexeyab", "hank")},
}


def build(root: Path, case: dict[str, object]) -> None:
    """The case's folder, as the recorded run had it."""
    (root / "backup").mkdir()
    for image in case["images"]:  # type: ignore[attr-defined]
        (root / image).parent.mkdir(parents=True, exist_ok=True)
        (root / image).write_bytes(PNG)
    for rel, content in case["labels"].items():  # type: ignore[attr-defined]
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict):  # a label path that is not a file
            if content["kind"] == "fifo":
                os.mkfifo(root / rel)
            elif content["kind"] == "link":
                (root / rel).symlink_to(content["to"])
            else:
                (root / rel).mkdir()
        else:
            (root / rel).write_bytes(content.encode("latin-1"))
    listed = case["list"]
    (root / "train.txt").write_bytes(
        listed.encode("latin-1") if isinstance(listed, str)
        else "".join(f"{p}\n" for p in case["images"]).encode())  # type: ignore[attr-defined]
    (root / "obj.names").write_text("a\nb\n")
    (root / "obj.data").write_text("classes=2\ntrain=train.txt\nnames=obj.names\nbackup=backup/\n")
    (root / "tiny.cfg").write_text(CFG.format(extra=case["cfg_extra"]))


def codes(root: Path, dialect: str) -> list[str]:
    result = CliRunner().invoke(main, ["--format", "concise", "-q", "--no-color", "--dialect",
                                       dialect, "--check-labels", "obj.data", "tiny.cfg"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return [line.split(": ", 1)[1].split(" ", 1)[0] for line in result.output.splitlines()
            if line]


def test_every_recorded_case_has_an_expectation() -> None:
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_findings_say_what_darknet_did(name: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    build(tmp_path, CASES[name])
    monkeypatch.chdir(tmp_path)
    for dialect, expected in EXPECTED[name].items():
        assert codes(tmp_path, dialect) == expected, (name, dialect)


# --- classifiers: fixtures/oracle/classifier-cases.json ---------------------------------------

CLASSIFIER_CASES = {c["case"]: c for c in json.loads(
    (ROOT / "fixtures" / "oracle" / "classifier-cases.json").read_text())["cases"]}
BOBCAT = [("train.list", None, "DN445"), ("train.list", 2, "DN446"), ("labels.txt", 2, "DN447"),
          ("train.list", 4, "DN446")]
# case -> dialect -> (file, line, code) of each finding, in report order (hank-ai's Darknet has
# no classifier training: the cases record the two forks that do)
CLASSIFIER_EXPECTED: dict[str, dict[str, list[tuple[str, int | None, str]]]] = {
    # both print "Too many or too few labels" for bobcat/ (2) and bird/ (0)
    "substring-and-missing": {"pjreddie": BOBCAT, "alexeyab": BOBCAT},
    # one class: the original takes a path without the label as a negative, silently
    "one-class": {"pjreddie": [], "alexeyab": [("train.list", 2, "DN446")]},
    # a blank label is in every path: every image has 2 labels in both
    "blank-label": {d: [("labels.txt", 2, "DN447")] for d in ("pjreddie", "alexeyab")},
    # labels[2] read past the list: both crash (SIGSEGV)
    "too-few-labels": {d: [("labels.txt", None, "DN447")] for d in ("pjreddie", "alexeyab")},
}


def test_every_recorded_classifier_case_has_an_expectation() -> None:
    assert sorted(CLASSIFIER_CASES) == sorted(CLASSIFIER_EXPECTED)
    for case in CLASSIFIER_CASES.values():  # what the expectations rest on
        observed = case["observed"]
        assert observed["pjreddie"]["status"] == observed["alexeyab"]["status"]


@pytest.mark.parametrize("name", sorted(CLASSIFIER_EXPECTED))
def test_the_classifier_findings_say_what_darknet_did(name: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    case = CLASSIFIER_CASES[name]
    (tmp_path / "backup").mkdir()
    for image in case["images"]:
        (tmp_path / image).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / image).write_bytes(PNG)
    for file, text in case["files"].items():
        (tmp_path / file).write_text(text)
    monkeypatch.chdir(tmp_path)
    for dialect, expected in CLASSIFIER_EXPECTED[name].items():
        result = CliRunner().invoke(main, ["--format", "concise", "-q", "--no-color",
                                           "--dialect", dialect, "--check-labels", "cls.data",
                                           "cls.cfg"])
        assert result.exception is None or isinstance(result.exception, SystemExit)
        found = []
        for line in result.output.splitlines():
            where, _, rest = line.partition(": ")
            file, _, at = where.partition(":")
            found.append((file, int(at.split(":")[0]) if at else None, rest.split(" ", 1)[0]))
        assert found == expected, (name, dialect)
