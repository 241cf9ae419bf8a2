"""A classifier's own files for ``--check-labels`` (``check`` reads them before the list pass):
the labels file ``train_classifier`` matches each image path against (DN447), and the
``[softmax] tree=`` file ``read_tree`` reads (DN449).
"""

from __future__ import annotations

import os
from pathlib import Path

from dnlint.checks.data import DataFile
from dnlint.checks.data_file import DataSettings, list_lines, resolve_path
from dnlint.checks.training_facts import TrainingFacts
from dnlint.cnumbers import c_atoi
from dnlint.dataset.classify import contained_pairs
from dnlint.dataset.folding import diagnostic
from dnlint.dataset.lists import first_lines
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect

DEFAULT_LABELS = "data/labels.list"  # train_classifier's labels= default
CLASSIFIER_CLASSES = 2  # train_classifier's classes= default
MAX_TREE_LINES = 1_000_000


def classifier_labels(data: DataFile, settings: DataSettings, classes: int,
                      sink: Sink) -> list[str] | None:
    """train_classifier's get_labels(labels=): the labels fill_truth matches (the first
    ``classes`` lines), with DN447 for what makes the file unusable."""
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
        every = first_lines(found, keeps_cr, max(classes, 0) + 1)  # one more says "too many"
    except OSError as exc:
        sink.report("DN447", line, 1 if line else None, f"labels file {found} cannot be read "
                    f"({exc.strerror or exc})")
        return None
    shown = str(found)
    labels = every[:max(classes, 0)]
    if len(every) < classes:
        sink.items.append(diagnostic("DN447", shown, None, f"{len(every)} labels for classes="
                                     f"{classes}: fill_truth reads labels past the end of the "
                                     "list (a crash, or garbage matched against every path)",
                                     "one label per class, one per line", None))
        return None
    if len(every) > classes:
        sink.items.append(diagnostic("DN447", shown, classes + 1, f"more lines than "
                                     f"classes={classes}: the labels from this line on are "
                                     "never matched", "set classes= to the number of labels",
                                     Severity.WARNING))
    blank = [i for i, label in enumerate(labels) if not label]
    if blank:
        sink.items.append(diagnostic("DN447", shown, blank[0] + 1, "blank label: strstr finds "
                                     "an empty label in every path, so every image has this "
                                     "class too", "remove the blank line", None))
        return None
    if keeps_cr and any(label.endswith("\r") for label in labels):
        sink.items.append(diagnostic("DN447", shown, 1, "CRLF line ends: the original Darknet "
                                     "keeps the \\r in every label, and no path contains it",
                                     "save the labels file with LF line ends", None))
        return None
    for inner, outer in contained_pairs(labels):
        sink.items.append(diagnostic("DN447", shown, outer + 1, f"label '{labels[inner]}' "
                                     f"(line {inner + 1}) is inside '{labels[outer]}': every "
                                     f"path of '{labels[outer]}' matches both",
                                     "rename one of them", Severity.WARNING))
    return labels


def check_tree(facts: TrainingFacts, settings: DataSettings, classes: int,
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
                parent = c_atoi(fields[1].decode("latin-1"))
            parents.append(parent)
            if len(parents) > MAX_TREE_LINES:
                break
    except OSError as exc:
        sink.items.append(diagnostic("DN449", facts.cfg, None, f"tree file {shown} cannot be "
                                     f"read ({exc.strerror or exc}): read_tree reads through "
                                     "a NULL file (a crash)", "fix tree= in [softmax]", None))
        return
    count = len(parents)
    if count != classes:
        sink.items.append(diagnostic("DN449", shown, None, f"{count:,} lines in the tree but "
                                     f"classes={classes}: each line is one output of the "
                                     "softmax", "make classes= the number of tree lines",
                                     None))
    for index, parent in enumerate(parents):
        if parent >= count or parent < -1:
            sink.items.append(diagnostic("DN449", shown, index + 1, f"parent {parent} is not a "
                                         f"line of the tree (0 to {count - 1}): read_tree "
                                         "writes outside its array", "use the line index of "
                                         "the parent, -1 for a root", None))
            return
    looped = _first_loop(parents)
    if looped is not None:
        sink.items.append(diagnostic("DN449", shown, looped + 1, "this line's parents lead "
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
