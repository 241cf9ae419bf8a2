"""The list pass of ``--check-labels``: one train= or valid= list read once, line by line, as
``get_paths`` reads it (``lists``): blank lines, images not found, duplicates, a classifier's
label in each path (``classify``), and for a detector each image's label file (the label-file
pass, ``label_pass``); then the class table (DN445). Memory is the counters, the first findings
of each rule (``folding``), 8 bytes per listed path while the paths listed more than once are
found (a first read of the list), and what each of those adds to the counts.

A path listed again (DN443) is drawn again by Darknet, so it counts again, but it is not
checked again: its image and label file were checked where it was first listed, and what that
added to the counts is added once more (a 30,000-box label file listed 200 times was read 200
times; its findings were repeated as often).

A dialect given (``--dialect``, or the cfg's) is followed exactly. With none, the label file
is looked for where AlexeyAB's Darknet looks, and what another fork would do differently is
said (DN439, DN440).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

from dnlint.checks.data import DataFile
from dnlint.checks.data_file import DataSettings, image_severity, list_lines, shown_dir
from dnlint.checks.training_facts import TrainingFacts
from dnlint.dataset.classify import LabelMatcher
from dnlint.dataset.folding import FOLDED, Folder, diagnostic
from dnlint.dataset.label_pass import LabelPass
from dnlint.dataset.lists import encoding_problem, exists, head, text_of
from dnlint.dataset.summary import Contribution, ImageCounts, ListSummary
from dnlint.dataset.words import plural, shown
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect

NUMPY_SORT_PAST = 1 << 18  # paths: where numpy's sort costs less memory than sorted()
PROGRESS_AFTER = 1 << 20  # bytes of list: a shorter list finishes before a bar would help


class ListCheck:
    """One list's pass: settings, counters and the folded findings."""

    def __init__(self, list_path: Path, key: str, data: DataFile, settings: DataSettings,
                 facts: TrainingFacts | None, labels: list[str] | None, classes: int,
                 names: list[str], sink: Sink) -> None:
        self.list_path = list_path
        self.shown_list = str(list_path)
        self.key = key
        self.dialect = settings.dialect or (facts.dialect if facts else None)
        kind = "classifier" if labels is not None else "detector"
        self.summary = ListSummary(key, str(list_path), kind,
                                   len(labels) if labels is not None else classes, names
                                   if labels is None else labels)
        self.matcher = LabelMatcher(labels) if labels is not None else None
        self.root = str(settings.root) if settings.root is not None else os.getcwd()
        self.prefix = os.path.join(self.root, "")  # root/: a relative path is prefix + path
        self.elsewhere = tuple(dict.fromkeys((str(list_path.parent.absolute()),
                                              str(data.path.parent.absolute()))))
        self.fold = Folder(sink, str(list_path))
        self.sink = sink
        self.repeated: set[int] = set()  # hash() of each path listed more than once
        self.earlier: dict[str, Contribution] = {}  # such a path: what it added to the counts
        self.alike: dict[Contribution, Contribution] = {}  # one of each, shared
        self.label_files = LabelPass(self.shown_list, self.dialect, self.root, facts, classes,
                                     self.summary, self.fold) if labels is None else None

    # --- the pass --------------------------------------------------------------------------

    def run(self) -> ListSummary:
        first = head(str(self.list_path))
        problem = encoding_problem(first)
        if problem is not None:
            what, fatal = problem
            self.sink.items.append(diagnostic(
                "DN442", self.shown_list, 1, f"the {self.key} list is {what}: get_paths reads "
                "bytes, so " + ("no path of it names a file" if fatal else "the first path "
                                "starts with three invisible bytes and names no file"),
                "save the list as plain UTF-8 without a byte order mark", None))
            if fatal:
                return self.summary
        keeps_cr = self.dialect is Dialect.PJ
        self.repeated = self._repeated_hashes(keeps_cr)
        with _progress(self.list_path) as advance:
            for number, raw, _ in list_lines(self.list_path):
                advance(len(raw) + 1)
                if number == 1 and problem is not None:
                    self.summary.images += 1
                    self.summary.missing_images += 1
                    continue
                self.line(number, raw, keeps_cr)
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
        if self.repeated and hash(text) in self.repeated:
            self._listed_again(number, text)
        else:
            self._image(number, text)

    def _image(self, number: int, text: str) -> None:
        """The image listed as ``text`` (not blank) on line ``number``, and its label."""
        image = text if text[0] == "/" else self.prefix + text
        if not exists(image):
            self._missing_image(number, text)
            return
        if self.label_files is not None:
            self.label_files.check(number, text)
        else:
            self._classify(number, text)

    def _repeated_hashes(self, keeps_cr: bool) -> set[int]:
        """The hash() of each path listed more than once (and of any that collides with
        another): the list read once for it, its hashes sorted once."""
        hashes = array("q")  # 8 bytes a path, for this read only
        for _, raw, _ in list_lines(self.list_path):
            if keeps_cr and raw.endswith(b"\r"):
                continue
            text = text_of(raw, keeps_cr)
            if text:
                hashes.append(hash(text))
        return _repeated(hashes)

    def _listed_again(self, number: int, text: str) -> None:
        """DN443 for a path listed before, which counts again as it did the first time; the
        first time, the image is checked and what it adds is kept."""
        earlier = self.earlier.get(text)
        if earlier is None:
            added = self._counted_apart(number, text)
            self.earlier[text] = self.alike.setdefault(added, added)
            return
        self.summary.duplicates += 1
        earlier.add_to(self.summary)
        self.fold.report("DN443", self.shown_list, number, f"'{shown(text)}' is listed again: "
                         "it is drawn twice as often as the other images",
                         "list each image once")

    def _counted_apart(self, number: int, text: str) -> Contribution:
        """Check the image into a scratch summary, add that to the list's, and return it."""
        summary = self.summary
        scratch = ImageCounts(summary)
        self.summary = scratch
        if self.label_files is not None:
            self.label_files.summary = scratch
        try:
            self._image(number, text)
        finally:
            self.summary = summary
            if self.label_files is not None:
                self.label_files.summary = summary
        added = scratch.contribution()
        added.add_to(summary)
        return added

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
            if exists(os.path.join(folder, text)):
                self.fold.report("DN444", self.shown_list, number, f"listed image "
                                 f"'{shown(text)}' is not in {shown_dir(Path(self.root))} but "
                                 f"is in {folder}: Darknet opens it from the folder it starts "
                                 "in", "write the paths relative to where darknet runs (or "
                                 "absolute), or tell dnlint that folder with --data-root",
                                 image_severity(self.dialect))
                return
        self.fold.report("DN420", self.shown_list, number, f"listed image '{shown(text)}' not "
                         f"found in {shown_dir(Path(self.root))}",
                         "fix the path, or regenerate the list", image_severity(self.dialect))

    # --- classifier ------------------------------------------------------------------------

    def _classify(self, number: int, text: str) -> None:
        assert self.matcher is not None
        found = self.matcher.matches(text)
        if len(found) == 1:
            self.summary.count_class(found[0])
            return
        labels = self.matcher.labels
        if not found and len(labels) == 1 and self.dialect is Dialect.PJ:
            return  # the original's fill_truth: with one class, no label is a negative, silently
        self.summary.not_a_class += 1
        named = ", ".join(f"'{labels[i]}'" for i in found[:4]) + (" ..." if len(found) > 4 else "")
        what = f"{len(found)} labels ({named})" if found else "no label"
        self.fold.report("DN446", self.shown_list, number, f"'{shown(text)}' contains {what}: "
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
                self.sink.items.append(diagnostic(
                    "DN445", self.shown_list, None, f"class {class_id}{named} has no {unit} in "
                    f"the train list ({plural(counted, unit)} counted)",
                    f"add {unit}es of this class, or drop the class" if unit == "box" else
                    "add images of this class, or drop the class", None))
            else:
                self.sink.items.append(diagnostic(
                    "DN445", self.shown_list, None, f"class {class_id}{named} has "
                    f"{plural(count, unit)}, under a tenth of the median class's",
                    "add more of this class", Severity.INFO))



def _repeated(hashes: array[int]) -> set[int]:
    """The values that occur more than once. sorted() makes a Python int of each (about
    50 bytes a path for the moment), numpy's sort keeps 8 but its import costs 16 MB and
    0.2 s of CPU: numpy only for a list long enough that it costs less."""
    if len(hashes) <= NUMPY_SORT_PAST:
        ordered = sorted(hashes)
        return {value for value, following in pairwise(ordered) if value == following}
    import numpy

    values = numpy.frombuffer(hashes, dtype=numpy.int64).copy()
    values.sort()
    same = values[1:] == values[:-1]
    return set(values[1:][same].tolist())


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
