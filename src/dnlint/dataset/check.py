"""``--check-labels``, the data set's stage: after the checks of a ``.data`` file
(``dnlint.checks.data_file``), the pipeline hands its readable train= and valid= lists to
:func:`check_dataset`. It reads what the lists need from the ``.data`` file (the classes, their
names; a classifier's labels file and tree: ``classifier_files``) and runs the list pass
(``list_pass``) over each list; the summaries are what the reports show (``report``).
"""

from __future__ import annotations

from pathlib import Path

from dnlint.checks.data import DEFAULT_CLASSES, DEFAULT_NAMES, DataFile
from dnlint.checks.data_file import (
    DataSettings,
    job_kind,
    no_classifier_training,
    resolve_path,
)
from dnlint.cnumbers import c_atoi
from dnlint.dataset.classifier_files import CLASSIFIER_CLASSES, check_tree, classifier_labels
from dnlint.dataset.folding import diagnostic
from dnlint.dataset.list_pass import ListCheck
from dnlint.dataset.lists import first_lines
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect


def check_dataset(data: DataFile, settings: DataSettings, lists: list[tuple[str, Path]],
                  sink: Sink) -> list[dict[str, object]]:
    """Every list of ``lists`` ((key, file) of train= and valid=, already known readable), and
    a classifier's labels file and tree; the summaries for the report."""
    facts = settings.facts
    kind = job_kind(data, settings)
    labels: list[str] | None = None
    if kind == "classifier":
        if no_classifier_training(data, settings):
            return []  # hank-ai's: nothing reads the lists for it (DN429, the .data file's)
        classes = data_int(data, "classes", CLASSIFIER_CLASSES)
        labels = classifier_labels(data, settings, classes, sink)
        check_trees(data, settings, classes, sink)
        if labels is None:
            return []
        names = labels
    else:
        classes = (facts.classes if facts is not None and facts.classes is not None
                   else data_int(data, "classes", DEFAULT_CLASSES))
        names = names_of(data, settings, classes)
    summaries = []
    for key, path in lists:
        check = ListCheck(path, key, data, settings, facts, labels, classes, names, sink)
        try:
            summaries.append(check.run().to_json())
        except OSError:
            continue  # the list became unreadable since get_paths was checked (DN418)
    return summaries


def check_trees(data: DataFile, settings: DataSettings, classes: int, sink: Sink) -> None:
    """The classifier's trees read_tree reads: [softmax] tree=, and the .data file's tree=,
    which only the original Darknet's train_classifier reads (it replaces the cfg's; with
    AlexeyAB's, a warning that it is ignored)."""
    facts = settings.facts
    dialect = settings.dialect or (facts.dialect if facts is not None else None)
    if facts is not None and facts.tree:
        check_tree(facts.tree, facts.cfg, dialect, settings, classes, sink)
    entry = data.get("tree")
    if entry is None or not entry[0]:
        return
    if dialect is Dialect.AB:
        used = (f"the cfg's [softmax] tree={facts.tree} is the one used" if facts and facts.tree
                else "no tree is used")
        sink.items.append(diagnostic(
            "DN449", str(data.path), entry[1], f"tree={entry[0]} is read by the original "
            f"Darknet's train_classifier only: AlexeyAB's ignores it ({used})",
            "give the tree as tree= in the cfg's [softmax] section", Severity.WARNING))
    elif facts is None or entry[0] != facts.tree:
        check_tree(entry[0], str(data.path), dialect, settings, classes, sink,
                   Severity.WARNING if dialect is None else None)


def data_int(data: DataFile, key: str, default: int) -> int:
    entry = data.get(key)
    return c_atoi(entry[0]) if entry is not None else default


def names_of(data: DataFile, settings: DataSettings, classes: int) -> list[str]:
    """The names of the first ``classes`` classes, for the table ([] when not readable)."""
    entry = data.get("names")
    found = resolve_path(entry[0] if entry else DEFAULT_NAMES, data.path, settings.root).path
    if found is None:
        return []
    try:
        return first_lines(found, settings.dialect is Dialect.PJ, max(classes, 0))
    except OSError:
        return []

