"""``--check-labels``: every image of a train= or valid= list, its label file as the dialect
derives it, and what the loader makes of each box (or, for a classifier, which labels its path
contains). One pass over the list; memory is the counters, the first findings of each rule,
and 8 bytes per listed path for the duplicate check.

A dialect given (``--dialect``, or the cfg's) is followed exactly. With none, the label file
is looked for where AlexeyAB's Darknet looks, and what another fork would do differently is
said (DN439, DN440).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from dnlint.checks.data import DataFile
from dnlint.checks.data_file import MAX_SHOWN, DataSettings, image_severity, list_lines, shown_dir
from dnlint.checks.training_facts import TrainingFacts
from dnlint.dataset.classify import LabelMatcher, contained_pairs
from dnlint.dataset.label_file import Box, LabelError, LabelFile, read_label_file
from dnlint.dataset.label_path import label_path
from dnlint.dataset.lists import encoding_problem, head, text_of
from dnlint.dataset.summary import ListSummary
from dnlint.diagnostics import Diagnostic, Severity, Sink, new_diagnostic
from dnlint.dialects import Dialect

# what each dialect's loader keeps per image when the cfg does not say (parse_yolo's default)
DEFAULT_MAX = {Dialect.PJ: 90, Dialect.AB: 200, Dialect.HANK: 200}
PJ_SMALLEST = 0.001  # the original's fill_truth_detection drops w or h below this
PROGRESS_AFTER = 1 << 20  # bytes of list: a shorter list finishes before a bar would help


class _Folder:
    """The first MAX_SHOWN findings of each rule are reported, the rest counted into one."""

    def __init__(self, sink: Sink, list_path: str) -> None:
        self.sink = sink
        self.list_path = list_path
        self.counts: dict[str, int] = {}
        self.first_more: dict[str, tuple[str, int | None, Severity | None]] = {}

    def report(self, code: str, path: str, line: int | None, message: str,
               hint: str | None = None, severity: Severity | None = None) -> None:
        count = self.counts.get(code, 0) + 1
        self.counts[code] = count
        if count <= MAX_SHOWN:
            self.sink.items.append(_diagnostic(code, path, line, message, hint, severity))
        elif count == MAX_SHOWN + 1:
            self.first_more[code] = (path, line, severity)

    def finish(self, what: dict[str, str]) -> None:
        for code, (path, line, severity) in self.first_more.items():
            more = self.counts[code] - MAX_SHOWN
            self.sink.items.append(_diagnostic(
                code, path, line, f"and {more:,} more {what.get(code, 'findings')} of "
                f"{self.list_path} like the ones above (dnlint lists the first {MAX_SHOWN})",
                None, severity))


def _diagnostic(code: str, path: str, line: int | None, message: str, hint: str | None,
                severity: Severity | None) -> Diagnostic:
    return new_diagnostic(code, line, 1 if line is not None else None, message, hint, path,
                          severity)


# how the folded finding of each rule names what it counts
FOLDED = {
    "DN420": "listed images not found", "DN430": "images without a label file",
    "DN431": "label paths that are not readable files", "DN432": "label files cut short",
    "DN433": "label files with shifted fields", "DN434": "boxes with a class out of range",
    "DN435": "boxes with coordinates out of range", "DN436": "placeholder boxes",
    "DN437": "boxes under one network pixel", "DN438": "label files over max boxes",
    "DN439": "images whose label path is not derived", "DN440": "labels found only where "
    "another fork looks", "DN441": "blank lines", "DN443": "duplicate paths",
    "DN444": "images found only from another folder", "DN446": "images without exactly one "
    "label",
}


class ListCheck:
    """One list's pass: settings, counters and the folded findings."""

    def __init__(self, list_path: Path, key: str, data: DataFile, settings: DataSettings,
                 facts: TrainingFacts | None, labels: list[str] | None, classes: int,
                 names: list[str], sink: Sink) -> None:
        self.list_path = list_path
        self.shown_list = str(list_path)
        self.key = key
        self.data = data
        self.settings = settings
        self.facts = facts
        self.dialect = settings.dialect or (facts.dialect if facts else None)
        self.reader = self.dialect or Dialect.AB  # whose label path is read
        self.classes = classes
        kind = "classifier" if labels is not None else "detector"
        self.summary = ListSummary(key, str(list_path), kind,
                                   len(labels) if labels is not None else classes, names
                                   if labels is None else labels)
        self.matcher = LabelMatcher(labels) if labels is not None else None
        self.root = str(settings.root) if settings.root is not None else os.getcwd()
        self.prefix = os.path.join(self.root, "")  # root/: a relative path is prefix + path
        self.elsewhere = tuple(dict.fromkeys((str(list_path.parent.absolute()),
                                              str(data.path.parent.absolute()))))
        self.fold = _Folder(sink, str(list_path))
        self.sink = sink
        self.hashes = array("q")  # hash() of each path: 8 bytes an image (duplicates)
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

    # --- the pass --------------------------------------------------------------------------

    def run(self) -> ListSummary:
        first = head(str(self.list_path))
        problem = encoding_problem(first)
        if problem is not None:
            what, fatal = problem
            self.sink.items.append(_diagnostic(
                "DN442", self.shown_list, 1, f"the {self.key} list is {what}: get_paths reads "
                "bytes, so " + ("no path of it names a file" if fatal else "the first path "
                                "starts with three invisible bytes and names no file"),
                "save the list as plain UTF-8 without a byte order mark", None))
            if fatal:
                return self.summary
        keeps_cr = self.dialect is Dialect.PJ
        with _progress(self.list_path) as advance:
            for number, raw, _ in list_lines(self.list_path):
                advance(len(raw) + 1)
                if number == 1 and problem is not None:
                    self.summary.images += 1
                    self.summary.missing_images += 1
                    continue
                self.line(number, raw, keeps_cr)
        self._duplicates(keeps_cr)
        self.fold.finish(FOLDED)
        self._report_classes()
        return self.summary

    def line(self, number: int, raw: bytes, keeps_cr: bool) -> None:
        if keeps_cr and raw.endswith(b"\r"):
            self.summary.images += 1
            return  # DN423: the original reads this path with its \r; nothing opens
        text = text_of(raw, keeps_cr)
        if not text:
            self.summary.blank += 1
            self._blank(number)
            return
        self.summary.images += 1
        self.hashes.append(hash(text))
        image = text if text[0] == "/" else self.prefix + text
        if not _exists(image):
            self._missing_image(number, text)
            return
        if self.matcher is not None:
            self._classify(number, text)
        else:
            self._labels(number, text, image)

    def _duplicates(self, keeps_cr: bool) -> None:
        """DN443: the hashes of the paths sorted once; only when two are equal is the list
        read again, to name the lines (a set of the repeated paths only)."""
        if len(self.hashes) < 2:
            return
        import numpy

        ordered = numpy.frombuffer(self.hashes, dtype=numpy.int64).copy()
        ordered.sort()
        same = ordered[1:] == ordered[:-1]
        if not same.any():
            return
        repeated = set(ordered[1:][same].tolist())
        seen: set[str] = set()
        for number, raw, _ in list_lines(self.list_path):
            text = text_of(raw, keeps_cr)
            if not text or hash(text) not in repeated or (keeps_cr and raw.endswith(b"\r")):
                continue
            if text in seen:
                self.summary.duplicates += 1
                self.fold.report("DN443", self.shown_list, number, f"'{_shown(text)}' is "
                                 "listed again: it is drawn twice as often as the other images",
                                 "list each image once")
            seen.add(text)

    def _blank(self, number: int) -> None:
        effect = {
            Dialect.PJ: "the original Darknet stops with \"Cannot load image\" when it draws it",
            Dialect.HANK: "hank-ai's Darknet stops (\"cannot load an image without a "
                          "filename\") when it draws it",
            Dialect.AB: "AlexeyAB's Darknet draws another line (a list of blank lines only "
                        "never ends)",
        }
        said = (effect[self.dialect] if self.dialect is not None else
                f"{effect[Dialect.PJ]}; so does hank-ai's; AlexeyAB's draws another line")
        self.fold.report("DN441", self.shown_list, number, f"blank line in the {self.key} "
                         f"list: {said}", "remove the blank line",
                         Severity.WARNING if self.dialect is Dialect.AB else None)

    def _missing_image(self, number: int, text: str) -> None:
        self.summary.missing_images += 1
        for folder in self.elsewhere:
            if _exists(os.path.join(folder, text)):
                self.fold.report("DN444", self.shown_list, number, f"listed image "
                                 f"'{_shown(text)}' is not in {shown_dir(Path(self.root))} but "
                                 f"is in {folder}: Darknet opens it from the folder it starts "
                                 "in", "write the paths relative to where darknet runs (or "
                                 "absolute), or tell dnlint that folder with --data-root",
                                 image_severity(self.dialect))
                return
        self.fold.report("DN420", self.shown_list, number, f"listed image '{_shown(text)}' not "
                         f"found in {shown_dir(Path(self.root))}",
                         "fix the path, or regenerate the list", image_severity(self.dialect))

    # --- detector labels -------------------------------------------------------------------

    def _labels(self, number: int, text: str, image: str) -> None:
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
                self.fold.report("DN431", wanted, None, f"the label path of '{_shown(text)}' "
                                 f"({self.shown_list} line {number}) is {exc.reason}: "
                                 + _unreadable_effect(exc.reason), "make it a text file of "
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
                         f"reads '{_shown(wanted)}' as the label file"))
        else:
            effect = ("AlexeyAB's Darknet prints \"Failed to infer label file name\" and "
                      + ("reads the image itself as the label file: no box, silently" if same
                         else f"reads '{_shown(wanted)}'"))
        self.fold.report("DN439", self.shown_list, number, f"'{_shown(text)}': {effect}",
                         "convert the image to .jpg or .png (and rename its label file), or "
                         "train with a fork that knows the extension")

    def _other_forks_derive(self, number: int, text: str) -> None:
        """No dialect known: the original Darknet would not turn this name into a .txt path
        (DN439, a warning naming it; hank-ai's always does, AlexeyAB's is the reader)."""
        theirs = label_path(text, Dialect.PJ)
        if theirs.endswith(".txt"):
            return
        what = ("the image itself" if theirs == text else f"'{_shown(theirs)}'")
        self.fold.report("DN439", self.shown_list, number, f"'{_shown(text)}': the original "
                         f"Darknet does not map this extension to .txt and would read {what} "
                         "as its label file", "convert the image to .jpg or .png, or train "
                         "with AlexeyAB's or hank-ai's Darknet (say which with --dialect)",
                         Severity.WARNING)

    def _missing_label(self, number: int, text: str, wanted: str) -> None:
        others = [(d, label_path(text, d)) for d in Dialect if d is not self.reader]
        there = [(d, p) for d, p in others if p != wanted and p != text
                 and _exists(p if os.path.isabs(p) else os.path.join(self.root, p))]
        if there and self.dialect is None:
            self.summary.missing_labels += 1
            forks = " and ".join(d.label for d, _ in there)
            self.fold.report("DN440", wanted, None, f"no label file here for "
                             f"'{_shown(text)}' ({self.shown_list} line {number}), where "
                             f"AlexeyAB's Darknet looks; {forks} would read "
                             f"'{_shown(there[0][1])}'",
                             "lay the labels out for the fork you train with (say which with "
                             "--dialect)", Severity.WARNING)
            return
        self.summary.missing_labels += 1
        also = f"; {there[0][0].label} would read '{_shown(there[0][1])}'" if there else ""
        self.fold.report("DN430", wanted, None, f"no label file for '{_shown(text)}' "
                         f"({self.shown_list} line {number}): {_missing_effect(self.dialect)}"
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
            self.fold.report("DN432", path, line, f"read_boxes stops at '{_shown(text)}': "
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
        per_class, classes = summary.per_class, self.classes
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
                             + _class_effect(self.dialect, class_id < 0),
                             "renumber the class ids from 0, or raise classes (and the names "
                             "file) to match")
            return
        if x == 0 and y == 0:
            summary.dropped += 1
            self.fold.report("DN436", path, line, "box at x=0, y=0 (a placeholder?): "
                             + _zero_effect(self.dialect), "an image without objects has an "
                             "empty label file")
            return
        if not (0 < x <= 1 and 0 < y <= 1 and 0 < w <= 1 and 0 < h <= 1):
            summary.dropped += 1
            self.fold.report("DN435", path, line, f"x={x:g} y={y:g} w={w:g} "
                             f"h={h:g}: label coordinates are the box centre and size as "
                             "fractions of the image, in (0, 1]; "
                             + _coords_effect(self.dialect, w <= 0 or h <= 0),
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

    # --- classifier ------------------------------------------------------------------------

    def _classify(self, number: int, text: str) -> None:
        assert self.matcher is not None
        found = self.matcher.matches(text)
        if len(found) == 1:
            self.summary.count_class(found[0])
            return
        self.summary.not_a_class += 1
        labels = self.matcher.labels
        named = ", ".join(f"'{labels[i]}'" for i in found[:4]) + (" ..." if len(found) > 4 else "")
        what = f"{len(found)} labels ({named})" if found else "no label"
        self.fold.report("DN446", self.shown_list, number, f"'{_shown(text)}' contains {what}: "
                         "fill_truth prints \"Too many or too few labels\" and the image trains "
                         f"with {'several classes' if found else 'no class'}",
                         "name each image's folder or file after exactly one label")

    # --- the class table -------------------------------------------------------------------

    def _report_classes(self) -> None:
        """DN445: a class of the train list without boxes (or far fewer), once per class."""
        summary = self.summary
        if self.key != "train" or summary.images == 0:
            return
        unit = "box" if summary.kind == "detector" else "image"
        counted = sum(summary.per_class)
        if counted == 0:
            return  # every image failed already: the findings above say why
        for class_id, flag in summary.flagged().items():
            name = summary.name(class_id)
            named = f" '{name}'" if name else ""
            count = summary.per_class[class_id]
            if flag == "none":
                self.sink.items.append(_diagnostic(
                    "DN445", self.shown_list, None, f"class {class_id}{named} has no {unit} in "
                    f"the train list ({_plural(counted, unit)} counted)",
                    f"add {unit}es of this class, or drop the class" if unit == "box" else
                    "add images of this class, or drop the class", None))
            else:
                self.sink.items.append(_diagnostic(
                    "DN445", self.shown_list, None, f"class {class_id}{named} has "
                    f"{_plural(count, unit)}, under a tenth of the median class's",
                    "add more of this class", Severity.INFO))


def _plural(count: int, unit: str) -> str:
    return f"{count:,} {unit}" + ("" if count == 1 else "es" if unit == "box" else "s")


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def _shown(text: str) -> str:
    shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return shown if len(shown) <= 200 else shown[:200] + "..."


def _missing_effect(dialect: Dialect | None) -> str:
    return {
        Dialect.PJ: "the original Darknet stops with \"Couldn't open file\" when it draws "
                    "this image",
        Dialect.HANK: "hank-ai's Darknet stops (\"failed to open annotation file\")",
        Dialect.AB: "AlexeyAB's Darknet appends it to bad.list and trains on the image as if "
                    "it had no objects",
    }.get(dialect, "the original Darknet and hank-ai's stop; AlexeyAB's trains on the image "  # type: ignore[arg-type]
                   "as if it had no objects")


def _unreadable_effect(reason: str) -> str:
    if reason == "a directory":
        return "fopen succeeds on a directory and fscanf reads nothing: the image trains " \
               "as a negative"
    if reason.startswith("a FIFO"):
        return "the loader thread blocks on it until something writes to it"
    if reason == "a character device":
        return "read_boxes reads it for as long as it gives bytes (/dev/zero: forever)"
    return "read_boxes cannot open it"


def _class_effect(dialect: Dialect | None, negative: bool) -> str:
    ab = ("AlexeyAB's Darknet loads it and its [yolo] layer skips it with a warning" if negative
          else "AlexeyAB's Darknet skips the box (\"Wrong annotation\")")
    return {
        Dialect.PJ: "the original Darknet trains with it, writing past the head's class "
                    "outputs",
        Dialect.AB: ab,
        Dialect.HANK: "hank-ai's Darknet stops (\"invalid class ID\")",
    }.get(dialect, "AlexeyAB's Darknet skips the box, hank-ai's stops, the original "  # type: ignore[arg-type]
                   "trains with it past its arrays")


def _zero_effect(dialect: Dialect | None) -> str:
    return {
        Dialect.PJ: "the original Darknet keeps the sentinel 999999 as a box and its [yolo] "
                    "layer writes far outside its outputs (a segmentation fault)",
        Dialect.AB: "AlexeyAB's Darknet skips it (\"Wrong annotation: x = 0, y = 0\")",
        Dialect.HANK: "hank-ai's Darknet stops (\"invalid coordinate\")",
    }.get(dialect, "AlexeyAB's Darknet skips it, hank-ai's stops, the original crashes")  # type: ignore[arg-type]


def _coords_effect(dialect: Dialect | None, empty: bool) -> str:
    hank = ("hank-ai's Darknet stops (\"invalid coordinate\")" if empty else
            "hank-ai's Darknet clamps it to the image and drops what is left under a pixel")
    return {
        Dialect.PJ: "the original Darknet clips the box to the image and trains on what is "
                    "left (often nothing)",
        Dialect.AB: "AlexeyAB's Darknet skips it (\"Wrong annotation\") or clips w and h to 1",
        Dialect.HANK: hank,
    }.get(dialect, "AlexeyAB's Darknet skips or clips it; " + hank)  # type: ignore[arg-type]


@contextmanager
def _progress(path: Path) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error for a long list when it is a terminal (rich, made
    only then), else nothing."""
    import sys

    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    if size < PROGRESS_AFTER or not sys.stderr.isatty():
        yield _ignore
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("checking {task.description}"), BarColumn(),
                  TimeRemainingColumn(), transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(path.name, total=size)
        pending = 0

        def advance(done: int) -> None:
            nonlocal pending
            pending += done
            if pending >= 1 << 16:
                bar.advance(task, pending)
                pending = 0

        yield advance


def _ignore(done: int) -> None:
    pass


# --- the data file's lists -------------------------------------------------------------------

DEFAULT_LABELS = "data/labels.list"  # train_classifier's labels= default
CLASSIFIER_CLASSES = 2  # train_classifier's classes= default
MAX_TREE_LINES = 1_000_000


def check_dataset(data: DataFile, settings: DataSettings, lists: list[tuple[str, Path]],
                  sink: Sink) -> list[dict[str, object]]:
    """Every list of ``lists`` ((key, file) of train= and valid=, already known readable), and
    a classifier's labels file and tree; the summaries for the report."""
    facts = settings.facts
    # with the cfg, its last layer decides; without it, the .data file's own keys
    kind = facts.kind if facts is not None else (
        "classifier" if data.classifier else "detector")
    labels: list[str] | None = None
    if kind == "classifier":
        classes = _data_int(data, "classes", CLASSIFIER_CLASSES)
        labels = _classifier_labels(data, settings, classes, sink)
        if facts is not None and facts.tree:
            _check_tree(facts, settings, classes, sink)
        if labels is None:
            return []
        names = labels
    else:
        from dnlint.checks.data import DEFAULT_CLASSES

        classes = (facts.classes if facts is not None and facts.classes is not None
                   else _data_int(data, "classes", DEFAULT_CLASSES))
        names = _names(data, settings, classes)
    summaries = []
    for key, path in lists:
        check = ListCheck(path, key, data, settings, facts, labels, classes, names, sink)
        try:
            summaries.append(check.run().to_json())
        except OSError:
            continue  # the list became unreadable since get_paths was checked (DN418)
    return summaries


def _data_int(data: DataFile, key: str, default: int) -> int:
    from dnlint.cnumbers import c_atoi

    entry = data.get(key)
    return c_atoi(entry[0]) if entry is not None else default


def _lines_of(path: Path, keeps_cr: bool, limit: int) -> list[str]:
    """The first ``limit`` lines of a text file as fgetl gives them."""
    out: list[str] = []
    for _, raw, _ in list_lines(path):
        if len(out) >= limit:
            break
        out.append(text_of(raw, keeps_cr))
    return out


def _names(data: DataFile, settings: DataSettings, classes: int) -> list[str]:
    """The names of the first ``classes`` classes, for the table ([] when not readable)."""
    from dnlint.checks.data import DEFAULT_NAMES
    from dnlint.checks.data_file import resolve_path

    entry = data.get("names")
    found = resolve_path(entry[0] if entry else DEFAULT_NAMES, data.path, settings.root).path
    if found is None:
        return []
    try:
        return _lines_of(found, settings.dialect is Dialect.PJ, max(classes, 0))
    except OSError:
        return []


def _classifier_labels(data: DataFile, settings: DataSettings, classes: int,
                       sink: Sink) -> list[str] | None:
    """train_classifier's get_labels(labels=): the labels fill_truth matches (the first
    ``classes`` lines), with DN447 for what makes the file unusable."""
    from dnlint.checks.data_file import resolve_path

    entry = data.get("labels")
    value, line = entry if entry is not None else (DEFAULT_LABELS, None)
    found = resolve_path(value, data.path, settings.root).path
    where = f"line {line}" if line is not None else "its default"
    if found is None:
        sink.report("DN447", line, 1 if line else None, f"labels file '{value}' ({where}) not "
                    "found: train_classifier stops with \"Couldn't open file\"",
                    "point labels= at the file of class labels, one per line")
        return None
    keeps_cr = settings.dialect is Dialect.PJ
    try:
        every = _lines_of(found, keeps_cr, max(classes, 0) + 1)  # one more says "too many"
    except OSError as exc:
        sink.report("DN447", line, 1 if line else None, f"labels file {found} cannot be read "
                    f"({exc.strerror or exc})")
        return None
    shown = str(found)
    labels = every[:max(classes, 0)]
    if len(every) < classes:
        sink.items.append(_diagnostic("DN447", shown, None, f"{len(every)} labels for classes="
                                      f"{classes}: fill_truth reads labels past the end of the "
                                      "list (a crash, or garbage matched against every path)",
                                      "one label per class, one per line", None))
        return None
    if len(every) > classes:
        sink.items.append(_diagnostic("DN447", shown, classes + 1, f"more lines than "
                                      f"classes={classes}: the labels from this line on are "
                                      "never matched", "set classes= to the number of labels",
                                      Severity.WARNING))
    blank = [i for i, label in enumerate(labels) if not label]
    if blank:
        sink.items.append(_diagnostic("DN447", shown, blank[0] + 1, "blank label: strstr finds "
                                      "an empty label in every path, so every image has this "
                                      "class too", "remove the blank line", None))
        return None
    if keeps_cr and any(label.endswith("\r") for label in labels):
        sink.items.append(_diagnostic("DN447", shown, 1, "CRLF line ends: the original Darknet "
                                      "keeps the \\r in every label, and no path contains it",
                                      "save the labels file with LF line ends", None))
        return None
    for inner, outer in contained_pairs(labels):
        sink.items.append(_diagnostic("DN447", shown, outer + 1, f"label '{labels[inner]}' "
                                      f"(line {inner + 1}) is inside '{labels[outer]}': every "
                                      f"path of '{labels[outer]}' matches both",
                                      "rename one of them", Severity.WARNING))
    return labels


def _check_tree(facts: TrainingFacts, settings: DataSettings, classes: int,
                sink: Sink) -> None:
    """DN449: [softmax] tree= as read_tree reads it (one "name parent" per line; the parent
    index defaults to -1) against the classes."""
    assert facts.tree is not None
    root = settings.root if settings.root is not None else Path.cwd()
    path = Path(facts.tree) if os.path.isabs(facts.tree) else root / facts.tree
    shown = facts.tree if settings.root is None else str(path)
    try:
        parents = []
        for _, raw, _ in list_lines(path):
            fields = raw.split()
            parent = -1
            if len(fields) > 1:
                from dnlint.cnumbers import c_atoi

                parent = c_atoi(fields[1].decode("latin-1"))
            parents.append(parent)
            if len(parents) > MAX_TREE_LINES:
                break
    except OSError as exc:
        sink.items.append(_diagnostic("DN449", facts.cfg, None, f"tree file {shown} cannot be "
                                      f"read ({exc.strerror or exc}): read_tree reads through "
                                      "a NULL file (a crash)", "fix tree= in [softmax]", None))
        return
    count = len(parents)
    if count != classes:
        sink.items.append(_diagnostic("DN449", shown, None, f"{count:,} lines in the tree but "
                                      f"classes={classes}: each line is one output of the "
                                      "softmax", "make classes= the number of tree lines",
                                      None))
    for index, parent in enumerate(parents):
        if parent >= count or parent < -1:
            sink.items.append(_diagnostic("DN449", shown, index + 1, f"parent {parent} is not a "
                                          f"line of the tree (0 to {count - 1}): read_tree "
                                          "writes outside its array", "use the line index of "
                                          "the parent, -1 for a root", None))
            return
    looped = _first_loop(parents)
    if looped is not None:
        sink.items.append(_diagnostic("DN449", shown, looped + 1, "this line's parents lead "
                                      "back to it: fill_hierarchy follows parents until -1, "
                                      "and this loop never ends", "list a parent for every "
                                      "class that ends at a root (-1)", None))


def _first_loop(parents: list[int]) -> int | None:
    """The first index whose chain of parents comes back on itself (in range: checked)."""
    state = [0] * len(parents)  # 0 not seen, 1 on the current chain, 2 ends at a root
    for start in range(len(parents)):
        chain = []
        node = start
        while node >= 0 and state[node] == 0:
            state[node] = 1
            chain.append(node)
            node = parents[node]
        if node >= 0 and state[node] == 1:
            return node
        for visited in chain:
            state[visited] = 2
    return None
