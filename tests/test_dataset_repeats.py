"""A path listed more than once (DN443): counted each time, checked once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import classifier_job, detector_job
from dnlint.cli import main
from dnlint.dataset import label_pass
from dnlint.dataset.summary import COUNTERS, ImageCounts, ListSummary


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["--no-color", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    entry: dict[str, Any] = json.loads(result.output)["files"][0]
    return entry


def found(entry: dict[str, Any]) -> list[tuple[str, str | None, int | None]]:
    return [(d["code"], d.get("path"), d["line"]) for d in entry["diagnostics"]]


@pytest.fixture
def job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    detector_job(tmp_path)
    for name, label in {"a": "0 0.5 0.5 0.2 0.2\n7 0.5 0.5 0.2 0.2\n2 0.5 0.5 0.2 0.2\n",
                        "b": "1 0.5 0.5 0.2 0.2\n", "c": ""}.items():
        (tmp_path / "img" / f"{name}.jpg").write_bytes(b"\xff\xd8")
        (tmp_path / "img" / f"{name}.txt").write_text(label)
    return tmp_path


def test_a_repeated_image_counts_again_and_its_findings_are_not_repeated(job: Path) -> None:
    (job / "train.txt").write_text(
        "img/a.jpg\nimg/b.jpg\nimg/a.jpg\nimg/c.jpg\nimg/gone.jpg\nimg/a.jpg\nimg/gone.jpg\n"
        "img/c.jpg\n")
    entry = run_json("--dialect", "alexeyab", "--check-labels", "obj.data", "model.cfg")
    # the bad class of a.txt once, not once per listing; the missing image once
    assert found(entry) == [
        ("DN434", "img/a.txt", 2), ("DN443", "train.txt", 3), ("DN420", "train.txt", 5),
        ("DN443", "train.txt", 6), ("DN443", "train.txt", 7), ("DN443", "train.txt", 8)]
    summary = entry["dataset"][0]
    assert {key: summary[key] for key in (
        "images", "missing_images", "duplicates", "labelled", "negatives", "boxes",
        "dropped_boxes", "not_a_class")} == {
        "images": 8, "missing_images": 2, "duplicates": 4, "labelled": 4, "negatives": 2,
        "boxes": 10, "dropped_boxes": 3, "not_a_class": 3}
    assert [c["boxes"] for c in summary["classes"]] == [3, 1, 3]


def test_a_label_file_listed_many_times_is_read_once(job: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    real = label_pass.read_label_file

    def counted(path: str) -> Any:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(label_pass, "read_label_file", counted)
    (job / "train.txt").write_text("img/a.jpg\nimg/b.jpg\n" * 200)
    entry = run_json("--dialect", "alexeyab", "--check-labels", "obj.data", "model.cfg")
    assert sorted(reads) == [str(job / "img" / "a.txt"), str(job / "img" / "b.txt")]
    summary = entry["dataset"][0]
    assert (summary["images"], summary["duplicates"], summary["boxes"]) == (400, 398, 800)
    assert [c["boxes"] for c in summary["classes"]] == [200, 200, 200]


def test_a_classifier_counts_a_repeated_image_again(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    classifier_job(tmp_path, ("cat", "dog", "bird"), ("cat", "bird", "cat", "bird", "dog"),
                   ("cat", "dog"))
    entry = run_json("--dialect", "alexeyab", "--check-labels", "cls.data", "cls.cfg")
    assert found(entry) == [("DN446", "train.list", 2), ("DN443", "train.list", 3),
                            ("DN443", "train.list", 4)]
    summary = entry["dataset"][0]
    assert (summary["images"], summary["duplicates"], summary["not_a_class"]) == (5, 2, 2)
    assert [c["images"] for c in summary["classes"]] == [2, 1]


def test_what_an_image_adds_names_every_counter() -> None:
    summary = ListSummary("train", "t", "detector", 3, [])
    counters = {name for name, value in vars(summary).items()
                if isinstance(value, int) and name != "classes"}
    assert set(COUNTERS) == counters
    scratch = ImageCounts(summary)
    scratch.per_class[2] += 5
    scratch.boxes += 5
    scratch.contribution().add_to(summary)
    scratch.contribution().add_to(summary)
    assert (summary.per_class, summary.boxes) == ([0, 0, 10], 10)


@pytest.mark.parametrize("numpy_past", [0, 1 << 18])
def test_the_repeated_hashes_are_found_either_way(numpy_past: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from array import array

    from dnlint.dataset import list_pass

    monkeypatch.setattr(list_pass, "NUMPY_SORT_PAST", numpy_past)
    values = array("q", [5, -3, 2**63 - 1, 7, -3, 5, 5, -2**63, 2**63 - 1, 0])
    assert list_pass._repeated(values) == {5, -3, 2**63 - 1}
    assert list_pass._repeated(array("q", [1, 2, 3])) == set()
    assert list_pass._repeated(array("q")) == set()
