"""dnlint.dataset: label paths per dialect, the bounded label reader, the list traps, a
classifier's labels, the folded findings and the summary, on small data sets built here."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CLASSIFIER_CFG, DETECTOR_CFG, classifier_job, detector_job
from dnlint.cli import main
from dnlint.dataset.classify import LabelMatcher, contained_pairs
from dnlint.dataset.label_file import MAX_LABEL_BYTES, LabelError, parse_boxes, read_label_file
from dnlint.dataset.label_path import label_path
from dnlint.dataset.lists import encoding_problem
from dnlint.dialects import Dialect

PJ, AB, HANK = Dialect.PJ, Dialect.AB, Dialect.HANK
CFG = DETECTOR_CFG
BOX = "0 0.5 0.5 0.2 0.2\n"


# --- label paths ---------------------------------------------------------------------------

@pytest.mark.parametrize(("image", "dialect", "label"), [
    ("data/img/a.jpg", PJ, "data/img/a.txt"),
    ("data/images/a.jpg", PJ, "data/labels/a.txt"),
    ("my_images/set/images/a.png", PJ, "my_labels/set/images/a.txt"),  # the first, anywhere
    ("drawings/a.png", PJ, "dlabelsings/a.txt"),  # "raw" inside a word
    ("VOC/JPEGImages/a.jpg", PJ, "VOC/labels/a.txt"),
    ("a.jpg.d/b.jpg", PJ, "a.txt.d/b.jpg"),  # the first .jpg, not the extension
    ("data/a.jpeg", PJ, "data/a.jpeg"),  # not mapped: the image is its own label file
    ("data/a.bmp", PJ, "data/a.bmp"),
    ("data/images/a.jpg", AB, "data/images/a.txt"),  # a plain images/ folder stays
    ("coco/images/train2017/a.jpg", AB, "coco/labels/train2017/a.txt"),
    ("VOC/JPEGImages/a.JPEG", AB, "VOC/labels/a.txt"),
    ("a.jpg.d/b.jpg", AB, "a.jpg.d/b.txt"),  # only at the end
    ("data/a.bmp", AB, "data/a.txt"),
    ("data/a.webp", AB, "data/a.webp"),  # "Failed to infer label file name"
    (" data/a.png\t", AB, "data/a.txt"),  # trim()
    ("data/images/a.webp", HANK, "data/images/a.txt"),
    ("v1.2/a", HANK, "v1.txt"),  # the last '.', in a folder name
    ("noext", HANK, "noext.txt"),
])
def test_label_path(image: str, dialect: Dialect, label: str) -> None:
    assert label_path(image, dialect) == label


# --- the reader ------------------------------------------------------------------------------

def test_boxes_and_their_lines() -> None:
    found = parse_boxes(b"0 0.5 0.5 0.1 0.1\r\n\n2 .25 +0.75 1e-1 0.2\n")
    assert found.boxes == [
        (0, 0.5, 0.5, 0.1, 0.1, 1), (2, 0.25, 0.75, 0.1, 0.2, 3)]
    assert found.stop is None and found.drift is None


def test_a_sixth_number_shifts_the_next_boxes() -> None:
    found = parse_boxes(b"0 0.5 0.5 0.1 0.1 0.9\n1 0.2 0.2 0.1 0.1\n")
    assert [(b[0], b[1], b[5]) for b in found.boxes] == [(0, 0.5, 1), (0, 0.9, 1)]
    assert found.drift == 1
    assert found.stop == (2, "0.1 0.1")


@pytest.mark.parametrize(("data", "boxes", "stop"), [
    (b"0,0.5,0.5,0.1,0.1\n", 0, (1, "0,0.5,0.5,0.1,0.1")),
    (b"0 0.5 0.5 0.1 0.1\ncat 0.5 0.5 0.1 0.1\n", 1, (2, "cat 0.5 0.5 0.1 0.1")),
    (b"\xef\xbb\xbf0 0.5 0.5 0.1 0.1\n", 0, (1, "\ufeff0 0.5 0.5 0.1 0.1")),
    (b"", 0, None),
    (b" \n\t\n", 0, None),
])
def test_where_fscanf_stops(data: bytes, boxes: int, stop: tuple[int, str] | None) -> None:
    found = parse_boxes(data)
    assert (len(found.boxes), found.stop) == (boxes, stop)


def test_plain_lines_then_the_scanner() -> None:
    found = parse_boxes(b"0 nan inf 0.1 0.1\n0 0x1p-1 0.5 0.1 0.1\n")  # scanf reads hex floats
    assert found.boxes[1] == (0, 0.5, 0.5, 0.1, 0.1, 2)
    assert (found.stop, found.drift) == (None, None)
    many = parse_boxes(BOX.encode() * 20_000 + b"x\n")  # the scanner's cap counts its own boxes
    assert (len(many.boxes), many.stop, many.truncated) == (20_000, (20_001, "x"), False)
    digits = parse_boxes(b"0 " + b"1" * 4_000_000 + b" x")  # one match per conversion
    assert (digits.boxes, digits.stop) == ([], (1, "0 " + "1" * 38))
    tokens = parse_boxes(b"0 " * 2_000_000)  # 400,000 boxes across one line: the first 10,000
    assert (len(tokens.boxes), tokens.drift, tokens.truncated) == (10_000, 1, True)


def test_a_class_id_is_a_c_int() -> None:
    assert parse_boxes(b"4294967297 0.5 0.5 0.1 0.1").boxes[0][0] == 1  # wraps as an int
    assert parse_boxes(b"0.7 0.5 0.5 0.1").boxes[0][1] == 0.7  # %d stops at the '.'


def test_hostile_label_paths(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.txt"
    zero.symlink_to("/dev/zero")
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    (tmp_path / "dir.txt").mkdir()
    reasons = {}
    for name in ("fifo.txt", "zero.txt", "loop.txt", "dir.txt", "none.txt"):
        with pytest.raises(LabelError) as caught:
            read_label_file(str(tmp_path / name))
        reasons[name] = (caught.value.kind, caught.value.reason)
    assert reasons == {
        "fifo.txt": ("unreadable", "a FIFO (named pipe)"),
        "zero.txt": ("unreadable", "a character device"),
        "loop.txt": ("unreadable", "a symbolic link loop"),
        "dir.txt": ("unreadable", "a directory"),
        "none.txt": ("missing", "no such file"),
    }


def test_a_huge_label_file_is_read_only_so_far(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as out:
        out.write(BOX.encode() * 10)
        out.truncate(64 * 1024 * 1024)  # sparse: 64 MiB, zeros after the boxes
    found = read_label_file(str(huge))
    assert (len(found.boxes), found.truncated, found.size) == (10, True, 64 * 1024 * 1024)
    assert found.stop == (11, "\x00" * 40)
    assert MAX_LABEL_BYTES == 4 * 1024 * 1024


@pytest.mark.parametrize("tail", [b"0 0.5 0.5 0.2 0.", b"0 0.5 0.5 0.2 ", b"0 0.5 0.5 0.2 0.2",
                                  b"0 0.5 0.5 0.2 1e"])
def test_a_box_cut_at_the_read_limit_is_not_a_finding(tail: bytes) -> None:
    """The file goes on past the bytes read: its last number may be longer ('0.' of '0.25'),
    so a box or a stop that runs into the cut is neither counted nor reported."""
    found = parse_boxes(BOX.encode() * 3 + tail, cut=True)
    assert (len(found.boxes), found.stop, found.drift) == (3, None, None)
    stopped = parse_boxes(BOX.encode() * 3 + b"0,0.5 0.5", cut=True)  # a comma: a real stop
    assert (len(stopped.boxes), stopped.stop) == (3, (4, "0,0.5 0.5"))


def test_a_large_label_file_of_boxes_is_one_warning(job: Path) -> None:
    """54 MB of good boxes: the 4 MiB read ends inside line 233,017 ('0 0.5 0.5 0.2 0.'),
    which was reported as h=0 (DN435) before."""
    images(job, {"a": BOX * 3_000_000})
    assert [(line.split(": ", 2)[0], line.split(": ", 2)[1]) for line in
            concise("--dialect", "alexeyab", "--check-labels", "obj.data", "model.cfg")
            if "img/a.txt" in line] == [
        ("img/a.txt", "DN431 warning"), ("img/a.txt", "DN438 warning")]
    assert parse_boxes((BOX * 3_000_000).encode()[:MAX_LABEL_BYTES], cut=True).boxes[-1][5] \
        == 233_016


# --- lists -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("first", "problem"), [
    ("a.jpg\n".encode("utf-16"), ("UTF-16 (little-endian) text with a byte order mark", True)),
    ("a.jpg\n".encode("utf-16-be"), ("UTF-16 or UTF-32 text (no byte order mark)", True)),
    ("a.jpg\n".encode("utf-32"), ("UTF-32 (little-endian) text with a byte order mark", True)),
    (b"\xef\xbb\xbfa.jpg\n", ("a UTF-8 byte order mark", False)),
    (b"a.jpg\n", None),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(1, 200)), ("not text (it holds zero "
                                                                     "bytes)", True)),
])
def test_list_encodings(first: bytes, problem: tuple[str, bool] | None) -> None:
    assert encoding_problem(first) == problem


# --- classifiers -----------------------------------------------------------------------------

def test_labels_match_as_strstr_finds_them() -> None:
    labels = ["cat", "bobcat", "dog"]
    assert LabelMatcher(labels).matches("train/bobcat/1.jpg") == [0, 1]
    assert LabelMatcher(labels).matches("train/dog/1.jpg") == [2]
    assert LabelMatcher(labels).matches("train/bird/1.jpg") == []
    assert contained_pairs(labels) == [(0, 1)]


def test_many_labels_match_the_same_way() -> None:
    labels = [f"n{i:05d}" for i in range(1000)] + ["n0004"]  # 1,001 labels: the lookup path
    assert LabelMatcher(labels).matches("train/n00042/n00042_1.JPEG") == [42, 1000]
    assert LabelMatcher(["", "x", *labels]).matches("a/x") == [0, 1]  # "" is in every path


@pytest.mark.parametrize("seed", range(40))
def test_both_ways_of_matching_find_what_strstr_finds(seed: int) -> None:
    """Labels of many lengths and long paths take the search (their slices took a minute for
    150 paths, found by fuzzing); few lengths take the slices: the same labels either way."""
    import random

    rng = random.Random(seed)
    alphabet = "ab/"
    labels = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
              for _ in range(rng.randrange(65, 200))]
    matcher = LabelMatcher(labels)
    for size in (0, 1, 5, 30, 400, 3000):
        path = "".join(rng.choice(alphabet) for _ in range(size))
        assert matcher.matches(path) == [i for i, label in enumerate(labels) if label in path]


def test_the_cheaper_way_is_chosen() -> None:
    imagenet = LabelMatcher([f"n{i:08d}" for i in range(1000)])
    assert not imagenet._search_is_cheaper(len("train/n01440764/n01440764_10026.JPEG"))
    lengths = LabelMatcher(["q" * n for n in range(1, 701)])
    assert lengths._search_is_cheaper(3800)


# --- whole runs ------------------------------------------------------------------------------

def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--no-color", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def concise(*args: str) -> list[str]:
    return run("--format", "concise", "-q", *args)[1].splitlines()


@pytest.fixture
def job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A detector job in the working directory: 3 classes, img/ with labels beside."""
    monkeypatch.chdir(tmp_path)
    detector_job(tmp_path)
    return tmp_path


def images(root: Path, labels: dict[str, str | None], listed: str | None = None) -> None:
    """img/<name>.jpg for each name, its label (None: no label file), and train.txt."""
    for name, label in labels.items():
        (root / "img" / f"{name}.jpg").write_bytes(b"\xff\xd8")
        if label is not None:
            (root / "img" / f"{name}.txt").write_text(label)
    (root / "train.txt").write_text(
        listed if listed is not None else "".join(f"img/{n}.jpg\n" for n in labels))


def test_the_summary_counts_and_flags(job: Path) -> None:
    images(job, {"a": BOX * 3, "b": BOX + "1 0.5 0.5 0.2 0.2\n", "c": "", "d": None})
    status, output = run("--dialect", "alexeyab", "--check-labels", "obj.data", "model.cfg")
    assert output.splitlines() == [
        "img/d.txt: DN430 warning: no label file for 'img/d.jpg' (train.txt line 4): "
        "AlexeyAB's Darknet appends it to bad.list and trains on the image as if it had no "
        "objects",
        "  = hint: create it (empty for an image without objects)",
        "",
        "train.txt: DN445 warning: class 2 'bird' has no box in the train list (5 boxes "
        "counted)",
        "  = hint: add boxes of this class, or drop the class",
        "",
        "train list train.txt: 4 images, 2 labelled, 1 negative, 1 without a label file, "
        "0 missing; 5 boxes",
        "     id  name  boxes",
        "      0  cat       4",
        "      1  dog       1",
        "      2  bird      0  <- none",
        "",
        "Found 2 problems (2 warnings) in 2 files.",
    ]
    assert status == 0


def test_the_summary_in_json(job: Path) -> None:
    images(job, {"a": BOX * 3 + "7 0.5 0.5 0.2 0.2\n", "b": "2 0.5 0.5 0.2 0.2\n"})
    status, output = run("--format", "json", "--dialect", "alexeyab", "--check-labels",
                         "obj.data", "model.cfg")
    entry = json.loads(output)["files"][0]
    assert entry["path"] == "obj.data"
    assert [(d["code"], d.get("path"), d["line"]) for d in entry["diagnostics"]] == [
        ("DN445", "train.txt", None), ("DN434", "img/a.txt", 4)]
    assert entry["dataset"] == [{
        "list": "train", "path": "train.txt", "kind": "detector", "images": 2,
        "missing_images": 0, "blank_lines": 0, "duplicates": 0, "labelled": 2, "negatives": 0,
        "missing_labels": 0, "unreadable_labels": 0, "boxes": 5, "dropped_boxes": 1,
        "not_a_class": 1,
        "classes": [{"id": 0, "name": "cat", "boxes": 3, "flag": None},
                    {"id": 1, "name": "dog", "boxes": 0, "flag": "none"},
                    {"id": 2, "name": "bird", "boxes": 1, "flag": None}]}]
    assert status == 1


def test_findings_of_one_kind_fold(job: Path) -> None:
    images(job, {f"{i:02d}": None for i in range(25)})
    lines = concise("--dialect", "pjreddie", "--check-labels", "obj.data")
    assert len(lines) == 11  # the first 10, then one for the rest
    assert lines[0].startswith("img/00.txt: DN430 error: no label file for 'img/00.jpg' "
                               "(train.txt line 1): the original Darknet stops")
    assert lines[9].startswith("img/09.txt: DN430 error: no label file for 'img/09.jpg' ")
    assert lines[10] == ("img/10.txt: DN430 error: and 15 more images without a label file of "
                         "train.txt like the ones above (dnlint lists the first 10)")


def test_list_traps(job: Path) -> None:
    images(job, {"a": BOX, "b": BOX}, "img/a.jpg\n\nimg/b.jpg\nimg/a.jpg\nb.jpg\n")
    (job / "sub").mkdir()
    (job / "sub" / "b.jpg").write_bytes(b"\xff\xd8")
    (job / "obj.data").write_text("classes=3\ntrain=train.txt\nvalid=sub/valid.txt\n"
                                  "names=obj.names\nbackup=backup/\n")
    (job / "sub" / "valid.txt").write_text("b.jpg\n")
    dn445 = ["train.txt: DN445 warning: class 1 'dog' has no box in the train list (3 boxes "
             "counted) (hint: add boxes of this class, or drop the class)",
             "train.txt: DN445 warning: class 2 'bird' has no box in the train list (3 boxes "
             "counted) (hint: add boxes of this class, or drop the class)"]
    assert concise("--dialect", "hank", "--check-labels", "obj.data") == [  # line order
        *dn445,
        f"sub/valid.txt:1:1: DN444 error: listed image 'b.jpg' is not in {job} but is in "
        f"{job / 'sub'}: Darknet opens it from the folder it starts in (hint: write the paths "
        "relative to where darknet runs (or absolute), or tell dnlint that folder with "
        "--data-root)",
        "train.txt:2:1: DN441 error: blank line in the train list: hank-ai's Darknet stops "
        "(\"cannot load an image without a filename\") when it draws it (hint: remove the "
        "blank line)",
        "train.txt:4:1: DN443 warning: 'img/a.jpg' is listed again: it is drawn twice as often "
        "as the other images (hint: list each image once)",
        f"train.txt:5:1: DN420 error: listed image 'b.jpg' not found in {job} (hint: fix the "
        "path, or regenerate the list)",
    ]


def test_a_utf16_list_is_one_finding(job: Path) -> None:
    images(job, {"a": BOX})
    (job / "train.txt").write_bytes("img/a.jpg\n".encode("utf-16"))
    assert concise("--dialect", "alexeyab", "--check-labels", "obj.data") == [
        "train.txt:1:1: DN442 error: the train list is UTF-16 (little-endian) text with a byte "
        "order mark: get_paths reads bytes, so no path of it names a file (hint: save the list "
        "as plain UTF-8 without a byte order mark)"]


def test_without_a_dialect_every_fork_is_described(job: Path) -> None:
    (job / "data" / "images").mkdir(parents=True)
    (job / "data" / "labels").mkdir()
    (job / "data" / "images" / "a.jpg").write_bytes(b"\xff\xd8")
    (job / "data" / "labels" / "a.txt").write_text(BOX)
    (job / "data" / "images" / "b.jpeg").write_bytes(b"\xff\xd8")
    (job / "data" / "images" / "b.txt").write_text(BOX)
    (job / "train.txt").write_text("data/images/a.jpg\ndata/images/b.jpeg\n")
    lines = concise("--check-labels", "obj.data")
    assert [line.split(": ", 1)[1].split(" ", 1)[0] for line in lines] == [
        "DN440", "DN445", "DN445", "DN439"]
    assert lines == [
        "data/images/a.txt: DN440 warning: no label file here for 'data/images/a.jpg' "
        "(train.txt line 1), where AlexeyAB's Darknet looks; the original Darknet (pjreddie) "
        "would read 'data/labels/a.txt' (hint: lay the labels out for the fork you train with "
        "(say which with --dialect))",
        "train.txt: DN445 warning: class 1 'dog' has no box in the train list (1 box counted) "
        "(hint: add boxes of this class, or drop the class)",
        "train.txt: DN445 warning: class 2 'bird' has no box in the train list (1 box counted) "
        "(hint: add boxes of this class, or drop the class)",
        "train.txt:2:1: DN439 warning: 'data/images/b.jpeg': the original Darknet does not map "
        "this extension to .txt and would read 'data/labels/b.jpeg' as its label file "
        "(hint: convert the image to .jpg or .png, or train with AlexeyAB's or hank-ai's "
        "Darknet (say which with --dialect))",
    ]


def test_nothing_is_written_to_the_data_set(job: Path) -> None:
    images(job, {"a": "0 0 0 0 0\n", "b": "9 0.5 0.5 0.2 0.2\n", "c": None})
    before = sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in job.rglob("*"))
    run("--dialect", "alexeyab", "--check-labels", "obj.data", "model.cfg")
    after = sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in job.rglob("*"))
    assert after == before  # no bad.list, no bad_label.list, nothing touched


def test_hostile_label_files_in_a_run(job: Path) -> None:
    images(job, {"a": None, "b": None, "c": None})
    os.mkfifo(job / "img" / "a.txt")
    (job / "img" / "b.txt").symlink_to("/dev/zero")
    (job / "img" / "c.txt").symlink_to(job / "img" / "c.txt")
    assert [[*line.split(": ", 2)[:2], line.split(" is ", 1)[1].split(":")[0]]
            for line in concise("--dialect", "alexeyab", "--check-labels", "obj.data")
            if "DN431" in line] == [
        ["img/a.txt", "DN431 error", "a FIFO (named pipe)"],
        ["img/b.txt", "DN431 error", "a character device"],
        ["img/c.txt", "DN431 error", "a symbolic link loop"],
    ]
    # /dev/zero is no endless read: fscanf stops at the zero byte (both forks trained the
    # image as a negative: fixtures/oracle/labels-cases.json, label-dev-zero)
    assert [line for line in concise("--dialect", "alexeyab", "--check-labels", "obj.data")
            if line.startswith("img/b.txt")] == [
        "img/b.txt: DN431 error: the label path of 'img/b.jpg' (train.txt line 2) is a "
        "character device: fscanf reads it and stops at its first byte that is not a number "
        "(/dev/zero: at once, so the image trains as a negative, silently); a device that "
        "waits for input blocks the loader thread (hint: make it a text file of boxes (empty "
        "for an image without objects))"]
    # every image is counted once: 3 images, 3 with a label path that cannot be read
    assert run("--dialect", "alexeyab", "--check-labels", "obj.data")[1].splitlines()[-7] == (
        "train list train.txt: 3 images, 0 labelled, 0 negatives, 0 without a label file, 3 "
        "with one that cannot be read, 0 missing; 0 boxes")


CLASSIFIER = CLASSIFIER_CFG


def test_a_classifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    # no names=: classifier training never reads it (test_data_classifier.py)
    classifier_job(tmp_path, ("cat", "bobcat", "dog", "bird"), ("cat", "bobcat", "dog", "bird"),
                   ("cat", "bobcat", "dog"))
    status, output = run("--format", "concise", "--dialect", "alexeyab", "--check-labels",
                         "cls.data", "cls.cfg")
    assert [line.split(": ", 1)[1].split(" ", 1)[0] for line in output.splitlines()[:5]] == [
        "DN445", "DN446", "DN447", "DN446", "4"]  # then the summary: "...: 4 images"
    assert output.splitlines() == [
        "train.list: DN445 warning: class 1 'bobcat' has no image in the train list (2 images "
        "counted) (hint: add images of this class, or drop the class)",
        "train.list:2:1: DN446 error: 'train/bobcat/1.jpg' contains 2 labels ('cat', 'bobcat'): "
        "fill_truth prints \"Too many or too few labels\" and the image trains with several "
        "classes (hint: name each image's folder or file after exactly one label)",
        "labels.txt:2:1: DN447 warning: label 'cat' (line 1) is inside 'bobcat': every path of "
        "'bobcat' matches both (hint: rename one of them)",
        "train.list:4:1: DN446 error: 'train/bird/1.jpg' contains no label: fill_truth prints "
        "\"Too many or too few labels\" and the image trains with no class (hint: name each "
        "image's folder or file after exactly one label)",
        "train list train.list: 4 images, 0 missing, 2 without exactly one label",
        "     id  name    images",
        "      0  cat          1",
        "      1  bobcat       0  <- none",
        "      2  dog          1",
        "",
        "Found 4 problems (2 errors, 2 warnings) in 2 files.",
    ]
    assert status == 1


@pytest.mark.parametrize(("labels", "tree", "found"), [
    ("a\nb\n", None, ["labels.txt: DN447 error: 2 labels for classes=3: fill_truth reads "
                        "labels past the end of the list (a crash, or garbage matched against "
                        "every path) (hint: one label per class, one per line)"]),
    ("a\nb\nc\nd\ne\n", None, ["labels.txt:4:1: DN447 warning: more lines than classes=3: "
                                  "the labels from this line on are never matched (hint: set "
                                  "classes= to the number of labels)"]),
    ("a\n\nb\n", None, ["labels.txt:2:1: DN447 error: blank label: strstr finds an empty "
                          "label in every path, so every image has this class too (hint: "
                          "remove the blank line)"]),
    ("a\nb\nc\n", "a -1\nb 0\nc 2\n", ["t.tree:3:1: DN449 error: this line's parents lead "
                                          "back to it: fill_hierarchy follows parents until "
                                          "-1, and this loop never ends (hint: list a parent "
                                          "for every class that ends at a root (-1))"]),
    ("a\nb\nc\n", "a -1\nb 7\nc 0\n", ["t.tree:2:1: DN449 error: parent 7 is not a line of "
                                          "the tree (0 to 2): read_tree writes outside its "
                                          "arrays (heap corruption: a crash while the network "
                                          "loads, or in its first iterations) (hint: use the "
                                          "line index of the parent, -1 for a root)"]),
    ("a\nb\nc\n", "a -1\nb 0\n", ["t.tree: DN449 error: 2 lines in the tree but classes=3: "
                                     "the tree's softmax normalises only its 2 outputs: the "
                                     "rest stay 0 (the loss is inf when their class is "
                                     "drawn), and fill_hierarchy reads parent[] past the tree "
                                     "(hint: make classes= the number of tree lines)"]),
    ("a\nb\nc\n", "a -1\nb 0\nc 0\nd 0\n", [
        "t.tree: DN449 error: 4 lines in the tree but classes=3: the tree's softmax reads and "
        "writes 1 value past the layer's input and output (heap corruption; training runs "
        "on) (hint: make classes= the number of tree lines)"]),
    ("a\nb\nc\n", "a -1\nb -2\nc 1\n", [
        "t.tree:2:1: DN449 warning: parent -2: read_tree takes any negative parent as a root, "
        "but a new softmax group starts wherever the parent differs from the line before, so "
        "roots written with another number than the others' are not in their group (hint: "
        "write -1 for every root)"]),
    ("a\nb\nc\n", "a -2\nb -2\nc 1\n", []),  # every root the same: one group, as with -1
    ("a\nb\nc\n", "a 2\nb -1\nc 1\n", []),  # AlexeyAB's read_tree: a later parent is fine
])
def test_classifier_labels_and_trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     labels: str, tree: str | None, found: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "a.jpg").write_bytes(b"\xff\xd8")
    (tmp_path / "train.list").write_text("img/a.jpg\n")
    (tmp_path / "labels.txt").write_text(labels)
    (tmp_path / "backup").mkdir()
    (tmp_path / "cls.data").write_text("classes=3\ntrain=train.list\nlabels=labels.txt\n"
                                       "names=labels.txt\nbackup=backup/\n")
    cfg = CLASSIFIER
    if tree is not None:
        (tmp_path / "t.tree").write_text(tree)
        cfg += "tree=t.tree\n"
    (tmp_path / "cls.cfg").write_text(cfg)
    lines = concise("--dialect", "alexeyab", "--check-labels", "cls.data", "cls.cfg")
    assert [line for line in lines if "DN447" in line or "DN449" in line] == found


def test_a_progress_bar_only_on_a_terminal(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from dnlint.dataset import list_pass

    listed = tmp_path / "train.txt"
    listed.write_bytes(b"img/a.jpg\n" * 200_000)  # 2 MB: over PROGRESS_AFTER

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown = Terminal()
    monkeypatch.setattr("sys.stderr", shown)
    with list_pass._progress(listed) as advance:
        advance(listed.stat().st_size)
    assert "checking train.txt" in shown.getvalue()
    quiet = io.StringIO()  # not a terminal: nothing at all
    monkeypatch.setattr("sys.stderr", quiet)
    with list_pass._progress(listed) as advance:
        advance(listed.stat().st_size)
    assert quiet.getvalue() == ""


def test_one_job_with_every_label_problem(job: Path) -> None:
    """Each kind once, by code, in report order (file-level findings first, then by line)."""
    images(job, {"a": "0 0.5 0.5 0.2 0.2 0.97\n1 0.5 0.5 0.2 0.2\n",  # a sixth column
                 "b": BOX, "c": "2 0.5 0.5 0.2 0.2\n"},
           "img/a.jpg\nimg/b.jpg\nimg/b.jpg\nimg/c.jpg\nc.jpg\n")
    (job / "data").mkdir()
    (job / "data" / "c.jpg").write_bytes(b"\xff\xd8")
    (job / "obj.data").write_text("classes=3\ntrain=train.txt\nvalid=data/valid.txt\n"
                                  "names=obj.names\nbackup=backup/\n")
    (job / "data" / "valid.txt").write_text("c.jpg\n")
    found = [(line.split(":", 1)[0], line.split(": ", 1)[1].split(" ", 1)[0])
             for line in concise("--dialect", "alexeyab", "--check-labels", "obj.data")]
    assert found == [("train.txt", "DN445"), ("img/a.txt", "DN433"),
                     ("data/valid.txt", "DN444"), ("train.txt", "DN443"),
                     ("train.txt", "DN420")]


def test_a_binary_list_is_one_finding_at_its_first_line(job: Path) -> None:
    """An image (or any binary file) named as the list: one DN442 at line 1, said as not text
    (it was "the train list is zero bytes", which reads as an empty file)."""
    images(job, {"a": BOX})
    (job / "train.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    assert [line.split(" (hint")[0] for line in concise("--dialect", "alexeyab",
                                                         "--check-labels", "obj.data")] == [
        "train.txt:1:1: DN442 error: the train list is not text (it holds zero bytes): "
        "get_paths reads bytes, so no path of it names a file"]


def test_a_class_with_far_fewer_boxes_is_flagged(job: Path) -> None:
    """Under a tenth of the median class's boxes: an info finding (DN445, the list as a whole)
    and '<- few' in the table, "few" in the JSON."""
    images(job, {"a": BOX * 20 + "1 0.5 0.5 0.2 0.2\n" * 20, "b": "2 0.5 0.5 0.2 0.2\n"})
    status, output = run("--dialect", "alexeyab", "--check-labels", "obj.data", "model.cfg")
    assert output.splitlines() == [
        "train.txt: DN445 info: class 2 'bird' has 1 box, under a tenth of the median class's",
        "  = hint: add more of this class",
        "",
        "train list train.txt: 2 images, 2 labelled, 0 negatives, 0 without a label file, "
        "0 missing; 41 boxes",
        "     id  name  boxes",
        "      0  cat      20",
        "      1  dog      20",
        "      2  bird      1  <- few",
        "",
        "Found 1 problem (1 info) in 2 files.",
    ]
    assert status == 0
    _, json_output = run("--format", "json", "--dialect", "alexeyab", "--check-labels",
                         "obj.data", "model.cfg")
    classes = json.loads(json_output)["files"][0]["dataset"][0]["classes"]
    assert [c["flag"] for c in classes] == [None, None, "few"]


def test_a_huge_classes_count_is_not_a_table_of_that_size(job: Path) -> None:
    """classes=50000000 allocated a list of fifty million counters (6.8 GB in all, found by
    fuzzing): the first MAX_CLASS_TABLE are counted one by one, the rest in one number."""
    import tracemalloc

    from dnlint.dataset.summary import MAX_CLASS_TABLE

    (job / "obj.data").write_text(
        "classes=50000000\ntrain=train.txt\nnames=obj.names\nbackup=backup/\n")
    images(job, {"a": BOX + "49999999 0.5 0.5 0.2 0.2\n70000 0.5 0.5 0.2 0.2\n"})
    tracemalloc.start()
    try:
        _, output = run("--check-labels", "obj.data")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20
    assert output.splitlines()[-4:-2] == [
        "train list train.txt: 1 images, 1 labelled, 0 negatives, 0 without a label file, "
        "0 missing; 3 boxes",
        f"  (50,000,000 classes: too many to count one by one; 2 of its boxes in a class "
        f"past the first {MAX_CLASS_TABLE:,})",
    ]
    _, output = run("--format", "json", "--check-labels", "obj.data")
    summary = json.loads(output)["files"][0]["dataset"][0]
    assert summary["classes_not_listed"] == {"classes": 50_000_000 - MAX_CLASS_TABLE,
                                             "boxes": 2}
    assert len(summary["classes"]) == MAX_CLASS_TABLE
    assert summary["classes"][0]["boxes"] == 1
    assert not any(c["flag"] for c in summary["classes"])
