"""What a list's check counts: images, label files, boxes per class. Counters only, so memory
stays flat in the number of images; ``to_json`` and ``table`` are what the reports show."""

from __future__ import annotations

from statistics import median
from typing import Any

from dnlint.records import NamedTuple

# a class with fewer boxes than this share of the median class's is flagged
FEW = 0.1
# classes counted one by one at most: classes=50000000 must not allocate a table of that size
# (the stock cfgs have up to 9,418, yolo9000's); past it the boxes are counted in one number
# and no class is flagged
MAX_CLASS_TABLE = 1 << 16


# the counters of ListSummary a listed line adds to (a repeated path adds them again)
COUNTERS = ("images", "blank", "duplicates", "missing_images", "labelled", "negatives",
            "missing_labels", "unreadable_labels", "boxes", "dropped", "past_table",
            "not_a_class")


class SparseCounts:
    """A class table that holds only the classes counted: what one image adds."""

    __slots__ = ("counts", "length")

    def __init__(self, length: int) -> None:
        self.counts: dict[int, int] = {}
        self.length = length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, class_id: int) -> int:
        return self.counts.get(class_id, 0)

    def __setitem__(self, class_id: int, count: int) -> None:
        self.counts[class_id] = count


class Contribution(NamedTuple):
    """What one listed image added to a summary, to add again where the list repeats it (a
    tuple: images that add the same can share one)."""

    counters: tuple[int, ...]  # in the order of COUNTERS
    classes: tuple[tuple[int, int], ...]  # (class id, count) of each class counted

    def add_to(self, summary: ListSummary) -> None:
        for name, count in zip(COUNTERS, self.counters, strict=True):
            if count:
                setattr(summary, name, getattr(summary, name) + count)
        per_class = summary.per_class
        for class_id, count in self.classes:
            per_class[class_id] += count


class ListSummary:
    """The counts of one train= or valid= list (``kind``: "detector" or "classifier")."""

    def __init__(self, key: str, path: str, kind: str, classes: int,
                 names: list[str]) -> None:
        self.key = key
        self.path = path
        self.kind = kind
        self.names = names
        self.images = 0  # lines with a path
        self.blank = 0
        self.duplicates = 0
        self.missing_images = 0
        self.labelled = 0  # label files with at least one box
        self.negatives = 0  # label files without a box (empty: an image without objects)
        self.missing_labels = 0
        self.unreadable_labels = 0
        self.boxes = 0
        self.dropped = 0  # boxes the loader skips or never reads
        self.classes = max(classes, 0)
        self.per_class = [0] * min(self.classes, MAX_CLASS_TABLE)
        self.past_table = 0  # boxes (or images) of classes past MAX_CLASS_TABLE
        self.not_a_class = 0  # boxes (or images) with no class in range

    def count_class(self, class_id: int) -> None:
        if 0 <= class_id < len(self.per_class):
            self.per_class[class_id] += 1
        elif len(self.per_class) <= class_id < self.classes:
            self.past_table += 1
        else:
            self.not_a_class += 1

    @property
    def tabled(self) -> bool:
        """Whether every class is counted on its own (classes= within MAX_CLASS_TABLE)."""
        return len(self.per_class) == self.classes

    def name(self, class_id: int) -> str:
        return self.names[class_id] if class_id < len(self.names) else ""

    def flagged(self) -> dict[int, str]:
        """Class id -> "none" (no box or image) or "few" (under a tenth of the median)."""
        counts = self.per_class
        if not counts or self.images == 0 or not self.tabled:
            return {}
        middle = median(counts)
        flags = {}
        for class_id, count in enumerate(counts):
            if count == 0:
                flags[class_id] = "none"
            elif count < middle * FEW:
                flags[class_id] = "few"
        return flags

    def to_json(self) -> dict[str, Any]:
        unit = "boxes" if self.kind == "detector" else "images"
        flags = self.flagged()
        entry: dict[str, Any] = {
            "list": self.key, "path": self.path, "kind": self.kind, "images": self.images,
            "missing_images": self.missing_images, "blank_lines": self.blank,
            "duplicates": self.duplicates,
        }
        if self.kind == "detector":
            entry.update(labelled=self.labelled, negatives=self.negatives,
                         missing_labels=self.missing_labels,
                         unreadable_labels=self.unreadable_labels, boxes=self.boxes,
                         dropped_boxes=self.dropped)
        entry["not_a_class"] = self.not_a_class
        entry["classes"] = [{"id": i, "name": self.name(i), unit: count,
                             "flag": flags.get(i)} for i, count in enumerate(self.per_class)]
        if not self.tabled:  # only a hostile classes= gets here
            entry["classes_not_listed"] = {"classes": self.classes - len(self.per_class),
                                           unit: self.past_table}
        return entry


class ImageCounts(ListSummary):
    """What one image adds to a list's summary: a summary of the same classes whose table
    holds only the classes counted."""

    def __init__(self, summary: ListSummary) -> None:
        super().__init__(summary.key, summary.path, summary.kind, 0, summary.names)
        self.classes = summary.classes
        self.sparse = SparseCounts(len(summary.per_class))
        self.per_class = self.sparse  # type: ignore[assignment]

    def contribution(self) -> Contribution:
        """These counts, to add to the list's (again where the list repeats the image)."""
        return Contribution(tuple(getattr(self, name) for name in COUNTERS),
                            tuple((i, n) for i, n in self.sparse.counts.items() if n))
