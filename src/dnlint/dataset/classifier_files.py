"""A classifier's own files for ``--check-labels`` (``check`` reads them before the list pass):
the labels file ``train_classifier`` matches each image path against (DN447), and the
``[softmax] tree=`` file ``read_tree`` reads (DN449).
"""

from __future__ import annotations

import os
from pathlib import Path

from dnlint.checks.data import DataFile
from dnlint.checks.data_file import DataSettings, list_lines, resolve_path
from dnlint.cnumbers import c_atoi
from dnlint.dataset.classify import contained_pairs
from dnlint.dataset.folding import diagnostic
from dnlint.dataset.lists import first_lines
from dnlint.dataset.words import plural
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


def check_tree(tree: str, named_in: str, dialect: Dialect | None, settings: DataSettings,
               classes: int, sink: Sink, level: Severity | None = None) -> None:
    """DN449: a tree file (``[softmax] tree=``, or the original's ``.data`` tree=) as read_tree
    reads it (one "name parent" per line; the parent index defaults to -1) against the
    classes. ``named_in``: the file that names it, for a tree that cannot be read; ``level``:
    the errors' severity (a warning where only another fork reads the tree)."""
    root = settings.root if settings.root is not None else Path.cwd()
    path = Path(tree) if os.path.isabs(tree) else root / tree
    shown = tree if settings.root is None else str(path)
    try:
        parents = _tree_parents(path)
    except OSError as exc:
        sink.items.append(diagnostic("DN449", named_in, None, f"tree file {shown} cannot be "
                                     f"read ({exc.strerror or exc}): read_tree reads through "
                                     "a NULL file (a crash)", "fix the tree= path", level))
        return
    count = len(parents)
    if count != classes:
        sink.items.append(diagnostic("DN449", shown, None, f"{count:,} lines in the tree but "
                                     f"classes={classes}: " + _count_effect(count, classes),
                                     "make classes= the number of tree lines", level))
    if _parent_problems(parents, shown, dialect, sink, level):
        return
    looped = _first_loop(parents)
    if looped is not None:
        sink.items.append(diagnostic("DN449", shown, looped + 1, "this line's parents lead "
                                     "back to it: fill_hierarchy follows parents until -1, "
                                     "and this loop never ends", "list a parent for every "
                                     "class that ends at a root (-1)", level))


def _tree_parents(path: Path) -> list[int]:
    parents = []
    for _, raw, _ in list_lines(path):
        fields = raw.split()
        parent = -1
        if len(fields) > 1:
            parent = c_atoi(fields[1].decode("latin-1"))
        parents.append(parent)
        if len(parents) > MAX_TREE_LINES:
            break
    return parents


def _count_effect(count: int, classes: int) -> str:
    """What a tree of ``count`` lines does to a softmax of ``classes`` outputs (run on both
    forks: forward_softmax_layer's groups, fill_hierarchy's parent[])."""
    if count < classes:
        return (f"the tree's softmax normalises only its {count:,} outputs: the rest stay 0 "
                "(the loss is inf when their class is drawn), and fill_hierarchy reads "
                "parent[] past the tree")
    return (f"the tree's softmax reads and writes {plural(count - classes, 'value')} past the "
            "layer's input and output (heap corruption; training runs on)")


def _parent_problems(parents: list[int], shown: str, dialect: Dialect | None,
                     sink: Sink, level: Severity | None) -> bool:
    """The first parent out of the tree, the first the original Darknet writes before its
    line exists (True for either where it is an error: the heap is corrupt before a loop
    could matter), and the first root written unlike the others."""
    count = len(parents)
    for index, parent in enumerate(parents):
        if parent >= count:
            sink.items.append(diagnostic("DN449", shown, index + 1, f"parent {parent} is not a "
                                         f"line of the tree (0 to {count - 1}): read_tree "
                                         "writes outside its arrays (heap corruption: a crash "
                                         "while the network loads, or in its first iterations)",
                                         "use the line index of the parent, -1 for a root",
                                         level))
            return True
    corrupt = False
    if dialect is None or dialect is Dialect.PJ:
        # the original's read_tree sets child[parent] while child[] has one entry per line
        # read so far (tree.c); AlexeyAB's sets no child there
        ahead = next((i for i, parent in enumerate(parents) if parent > i), None)
        corrupt = ahead is not None and dialect is Dialect.PJ
        if ahead is not None:
            sink.items.append(diagnostic(
                "DN449", shown, ahead + 1, f"parent {parents[ahead]} comes after this line: "
                "the original Darknet's read_tree writes the parent's child entry before it "
                "has one, outside its array (heap corruption)", "list each parent before its "
                "children", Severity.WARNING if dialect is None else level))
    _mixed_roots(parents, shown, sink)
    return corrupt


def _mixed_roots(parents: list[int], shown: str, sink: Sink) -> None:
    """Roots written with two negative numbers: read_tree takes any negative parent as a
    root, and a new softmax group starts wherever a line's parent differs from the line
    before's, so -1 and -2 split siblings into groups of their own."""
    roots = {parent for parent in parents if parent < 0}
    if len(roots) < 2:
        return
    odd = next(i for i, parent in enumerate(parents) if parent < 0 and parent != -1)
    sink.items.append(diagnostic(
        "DN449", shown, odd + 1, f"parent {parents[odd]}: read_tree takes any negative parent "
        "as a root, but a new softmax group starts wherever the parent differs from the line "
        "before, so roots written with another number than the others' are not in their group",
        "write -1 for every root", Severity.WARNING))


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
