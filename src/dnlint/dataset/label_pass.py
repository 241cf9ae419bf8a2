"""The label-file pass of ``--check-labels``, a detector's: for each listed image that exists
(the list pass, ``list_pass``, hands it over), the label path its fork derives
(``label_path``), the file read as ``read_boxes`` reads it (``label_file``), and each box as
the loader takes it (``fill_truth_detection``), counted into the list's summary.
"""

from __future__ import annotations

import os

from dnlint.checks.training_facts import TrainingFacts
from dnlint.dataset.folding import Folder
from dnlint.dataset.label_file import Box, LabelError, LabelFile, read_label_file
from dnlint.dataset.label_path import label_path
from dnlint.dataset.lists import exists
from dnlint.dataset.summary import ListSummary
from dnlint.dataset.words import (
    class_effect,
    coords_effect,
    missing_effect,
    shown,
    unreadable_effect,
    zero_effect,
)
from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect

# what each dialect's loader keeps per image when the cfg does not say (parse_yolo's default)
DEFAULT_MAX = {Dialect.PJ: 90, Dialect.AB: 200, Dialect.HANK: 200}
PJ_SMALLEST = 0.001  # the original's fill_truth_detection drops w or h below this


class LabelPass:
    """The label files of one list's images: the list's dialect (None: not known, so what the
    other forks would do is said), its summary and its folded findings."""

    def __init__(self, shown_list: str, dialect: Dialect | None, root: str,
                 facts: TrainingFacts | None, classes: int, summary: ListSummary,
                 fold: Folder) -> None:
        self.shown_list = shown_list
        self.dialect = dialect
        self.reader = dialect or Dialect.AB  # whose label path is read
        self.root = root
        self.prefix = os.path.join(root, "")  # root/: a relative path is prefix + path
        self.facts = facts
        self.classes = classes
        self.summary = summary
        self.fold = fold
        facts_max = facts.max_boxes if facts is not None else None
        self.max_boxes = facts_max or DEFAULT_MAX[self.reader]
        self.smallest = self._smallest()

    def _smallest(self) -> tuple[float, float, str]:
        """(w, h, how it is said) below which fill_truth_detection drops a box."""
        if self.reader is Dialect.PJ:
            return PJ_SMALLEST, PJ_SMALLEST, "0.001 (the original Darknet's limit)"
        facts = self.facts
        if facts is not None and facts.width and facts.height:
            return (1 / facts.width, 1 / facts.height,
                    f"one pixel of the {facts.width}x{facts.height} network")
        return 0.0, 0.0, ""

    def check(self, number: int, text: str) -> None:
        """The label file of the image listed as ``text`` on line ``number`` (found)."""
        wanted = label_path(text, self.reader)
        if self.reader is not Dialect.HANK and not wanted.endswith(".txt"):
            self._not_derived(number, text, wanted)
            return
        if self.dialect is None:
            self._other_forks_derive(number, text)
        where = wanted if wanted[:1] == "/" else self.prefix + wanted
        try:
            found = read_label_file(where)
        except LabelError as exc:
            if exc.kind == "missing":
                self._missing_label(number, text, wanted)
            else:
                self.summary.unreadable_labels += 1
                self.fold.report("DN431", wanted, None, f"the label path of '{shown(text)}' "
                                 f"({self.shown_list} line {number}) is {exc.reason}: "
                                 + unreadable_effect(exc.reason), "make it a text file of "
                                 "boxes (empty for an image without objects)")
            return
        self._boxes(wanted, found)

    def _not_derived(self, number: int, text: str, wanted: str) -> None:
        same = wanted == text
        self.summary.negatives += 1
        if self.reader is Dialect.PJ:
            effect = ("the original Darknet replaces only .jpg, .png, .JPG and .JPEG, so it "
                      + ("opens the image itself as the label file and finds no box: the "
                         "image trains as a negative, silently" if same else
                         f"reads '{shown(wanted)}' as the label file"))
        else:
            effect = ("AlexeyAB's Darknet prints \"Failed to infer label file name\" and "
                      + ("reads the image itself as the label file: no box, silently" if same
                         else f"reads '{shown(wanted)}'"))
        self.fold.report("DN439", self.shown_list, number, f"'{shown(text)}': {effect}",
                         "convert the image to .jpg or .png (and rename its label file), or "
                         "train with a fork that knows the extension")

    def _other_forks_derive(self, number: int, text: str) -> None:
        """No dialect known: the original Darknet would not turn this name into a .txt path
        (DN439, a warning naming it; hank-ai's always does, AlexeyAB's is the reader)."""
        theirs = label_path(text, Dialect.PJ)
        if theirs.endswith(".txt"):
            return
        what = ("the image itself" if theirs == text else f"'{shown(theirs)}'")
        self.fold.report("DN439", self.shown_list, number, f"'{shown(text)}': the original "
                         f"Darknet does not map this extension to .txt and would read {what} "
                         "as its label file", "convert the image to .jpg or .png, or train "
                         "with AlexeyAB's or hank-ai's Darknet (say which with --dialect)",
                         Severity.WARNING)

    def _missing_label(self, number: int, text: str, wanted: str) -> None:
        others = [(d, label_path(text, d)) for d in Dialect if d is not self.reader]
        there = [(d, p) for d, p in others if p != wanted and p != text
                 and exists(p if os.path.isabs(p) else os.path.join(self.root, p))]
        if there and self.dialect is None:
            self.summary.missing_labels += 1
            forks = " and ".join(d.label for d, _ in there)
            self.fold.report("DN440", wanted, None, f"no label file here for "
                             f"'{shown(text)}' ({self.shown_list} line {number}), where "
                             f"AlexeyAB's Darknet looks; {forks} would read "
                             f"'{shown(there[0][1])}'",
                             "lay the labels out for the fork you train with (say which with "
                             "--dialect)", Severity.WARNING)
            return
        self.summary.missing_labels += 1
        also = f"; {there[0][0].label} would read '{shown(there[0][1])}'" if there else ""
        self.fold.report("DN430", wanted, None, f"no label file for '{shown(text)}' "
                         f"({self.shown_list} line {number}): {missing_effect(self.dialect)}"
                         f"{also}", "create it (empty for an image without objects)",
                         Severity.WARNING if self.dialect is Dialect.AB else None)

    def _boxes(self, path: str, found: LabelFile) -> None:
        summary = self.summary
        if found.truncated:
            self.fold.report("DN431", path, None, f"label file of {found.size:,} bytes: only "
                             "its first 4 MiB (or 10,000 boxes) are checked (a label file holds "
                             "a few lines)",
                             "is this really a label file?", Severity.WARNING)
        if found.drift is not None:
            self.fold.report("DN433", path, found.drift, "this line does not hold exactly one "
                             "box (5 numbers): fscanf reads across lines, so every later box "
                             "takes its fields from the wrong columns",
                             "one box per line: class x y w h")
        elif found.stop is not None:
            line, text = found.stop
            self.fold.report("DN432", path, line, f"read_boxes stops at '{shown(text)}': "
                             f"{len(found.boxes)} box{'es' if len(found.boxes) != 1 else ''} "
                             "before it are used, every box from here on is lost",
                             "one box per line: class x y w h, separated by spaces")
        if not found.boxes:
            summary.negatives += 1
            return
        summary.labelled += 1
        summary.boxes += len(found.boxes)
        if len(found.boxes) > self.max_boxes:
            summary.dropped += len(found.boxes) - self.max_boxes
            self.fold.report("DN438", path, None, f"{len(found.boxes):,} boxes, more than the "
                             f"{self.max_boxes} the head keeps (max=): the loader keeps a "
                             "random subset each time it draws this image",
                             "raise max= in the last [yolo] (or [region]) section")
        per_class = summary.per_class
        classes = len(per_class)  # a class past the table goes the slow way, as _box counts it
        low_w, low_h, _ = self.smallest
        for box in found.boxes:
            class_id, x, y, w, h, _ = box
            if 0 <= class_id < classes and 0 < x <= 1 and 0 < y <= 1 and low_w <= w <= 1 \
                    and low_h <= h <= 1 and w > 0 and h > 0:
                per_class[class_id] += 1  # the usual box, checked at once
            else:
                self._box(path, box)

    def _box(self, path: str, box: Box) -> None:
        """A box the loader does not take as it is: which rule, and what the fork does."""
        summary = self.summary
        class_id, x, y, w, h, line = box
        if not 0 <= class_id < self.classes:
            summary.dropped += 1
            summary.not_a_class += 1
            self.fold.report("DN434", path, line, f"class id {class_id}, but classes="
                             f"{self.classes}: ids run from 0 to {self.classes - 1}; "
                             + class_effect(self.dialect, class_id < 0),
                             "renumber the class ids from 0, or raise classes (and the names "
                             "file) to match")
            return
        if x == 0 and y == 0:
            summary.dropped += 1
            self.fold.report("DN436", path, line, "box at x=0, y=0 (a placeholder?): "
                             + zero_effect(self.dialect), "an image without objects has an "
                             "empty label file")
            return
        if not (0 < x <= 1 and 0 < y <= 1 and 0 < w <= 1 and 0 < h <= 1):
            summary.dropped += 1
            self.fold.report("DN435", path, line, f"x={x:g} y={y:g} w={w:g} "
                             f"h={h:g}: label coordinates are the box centre and size as "
                             "fractions of the image, in (0, 1]; "
                             + coords_effect(self.dialect, w <= 0 or h <= 0),
                             "divide x and w by the image's width, y and h by its height")
            return
        low_w, low_h, said = self.smallest
        if w < low_w or h < low_h:
            summary.dropped += 1
            self.fold.report("DN437", path, line, f"box {w:g} x {h:g} is under "
                             f"{said}: fill_truth_detection drops it silently",
                             "drop the box, or train at a larger network size")
            return
        summary.count_class(class_id)
