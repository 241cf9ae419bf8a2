"""A .data file as the training job reads it: the files it names, and the folder Darknet
resolves them from.

``darknet detector train obj.data model.cfg`` reads the .data file with read_data_cfg, then
``train`` (and, with ``-map``, ``valid``) with get_paths, and saves into ``backup`` after the
first hundred iterations; ``detector test``/``valid``/``map`` (and AlexeyAB's ``train -map``)
read ``names`` with get_labels; ``classifier train`` reads ``labels``, never ``names``. Each
file is opened with ``fopen`` on the value as written, so a relative path is relative to the
directory Darknet is started from (the *root*: ``--data-root`` / ``data-root``; without it
dnlint tries the working directory, then the .data file's own folder, and says when only the
second one fits).

What differs between the forks is the carriage return: the original Darknet's fgetl and strip
keep a ``\\r`` (a file with CRLF line ends gives every path a trailing ``\\r``, which no file
has); AlexeyAB's and hank-ai's remove it. Only the keys that are present are checked, except
``names``, whose default the detector's commands open (not a classifier's .data, see
``DataFile.classifier``), and ``backup``, whose default ``/backup/``
training writes to.

Reads are bounded: the .data, names and list files are read in chunks up to the cap of a cfg,
and listed images are looked at only when asked (``check_images``).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dnlint.checks.data import (
    DEFAULT_NAMES,
    DataFile,
    DataFileError,
    chunks,
    count_names,
    path_exists,
    read_data_file,
)
from dnlint.checks.data import Resolved as Resolved  # re-exported: where it used to be
from dnlint.checks.data import resolve_path as resolve_path
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect

if TYPE_CHECKING:
    from dnlint.checks.training_facts import TrainingFacts

# read_data_cfg's defaults for what train_detector opens (AlexeyAB's detector.c; the original
# uses data/train.list for train)
DEFAULT_BACKUP = "/backup/"
MAX_SHOWN = 10  # findings per list file before the rest are counted in one
_ON_WINDOWS = os.sep == "\\"
PATH_KEYS = ("names", "train", "valid", "backup")


@dataclass(frozen=True)
class DataSettings:
    """How a data file is checked: the folder Darknet is started from (None: the working
    directory, then the .data file's own folder), the dialect (None: not known, every fork's
    view is described), whether the listed images are looked at, and whether their label
    files are read (``check_labels``: dnlint.dataset, with what the training cfg says in
    ``facts`` when a cfg comes with the .data file). ``cfg_kind`` tells, when asked, the kind
    of job ("detector", "classifier") of the cfg given with the .data file (None: no cfg, or
    it does not build); it is asked only when the .data file does not say (it lints the cfg)."""

    root: Path | None = None
    dialect: Dialect | None = None
    check_images: bool = False
    check_labels: bool = False
    facts: TrainingFacts | None = None
    cfg_kind: Callable[[], str | None] | None = None


def lint_data_file(path: Path, settings: DataSettings, sink: Sink
                   ) -> tuple[DataFile, list[tuple[str, Path]]] | None:
    """Report every problem of the .data file ``path`` (its own lines) and of the files it
    names; the parsed file and its readable lists ((key, file) of train= and valid=, which
    the later dataset stage reads with ``check_labels``), or None when it cannot be read."""
    try:
        data = read_data_file(path)
    except OSError as exc:
        sink.report("DN414", None, None, f"cannot read the data file: {_why(exc)}")
        return None
    job = _Job(data, settings, sink)
    job.check_crlf()
    job.check_classifier_trainer()
    job.check_names()
    job.check_list("train", Severity.ERROR)
    job.check_list("valid", Severity.WARNING)
    job.check_backup()
    job.say_base()
    return data, job.lists


class _Job:
    """The checks of one .data file, sharing its settings and what was resolved where."""

    def __init__(self, data: DataFile, settings: DataSettings, sink: Sink) -> None:
        self.data = data
        self.settings = settings
        self.sink = sink
        self.beside: list[tuple[str, int]] = []  # (key, line) found only beside the .data
        self.lists: list[tuple[str, Path]] = []  # (key, file) of the lists that can be read
        # the list files checked, by identity: valid= naming train's list (a common set-up)
        # is the same file, whose findings are reported once
        self.checked: set[object] = set()

    # --- resolution -----------------------------------------------------------------------

    def resolve(self, key: str, default: str | None) -> tuple[Resolved, int | None] | None:
        entry = self.data.get(key)
        if entry is None and default is None:
            return None
        value, line = entry if entry is not None else (default or "", None)
        if line is not None and self._keeps_cr(line):
            value += "\r"
        found = resolve_path(value, self.data.path, self.settings.root)
        if found.beside_data and line is not None:
            self.beside.append((key, line))
        return found, line

    def _keeps_cr(self, line: int) -> bool:
        """Whether the dialect reads this line's value with its \\r (the original's strip)."""
        return line in self.data.crlf_lines and self.settings.dialect is Dialect.PJ

    def check_crlf(self) -> None:
        """One finding for a .data file with CRLF line ends: the original Darknet reads each
        path with a trailing \r (an error there, a warning when the dialect is not known)."""
        dialect = self.settings.dialect
        if dialect is Dialect.AB or dialect is Dialect.HANK:
            return
        hit = [(line, key) for key, (_, line) in self.data.options.items()
               if key in PATH_KEYS and line in self.data.crlf_lines]
        if not hit:
            return
        hit.sort()
        keys = ", ".join(key for _, key in hit)
        plural = "s" if len(hit) > 1 else ""
        self.sink.report("DN423", hit[0][0], 1, "CRLF line ends: the original Darknet keeps the "
                         f"\\r at the end of {keys}, and cannot open the file{plural} they name "
                         "(AlexeyAB's and hank-ai's remove it)",
                         "save the .data file with LF line ends", _pj_only(dialect))

    def where(self, line: int | None) -> str:
        return f"line {line}" if line is not None else "its default"

    def missing(self, code: str, key: str, found: Resolved, line: int | None,
                severity: Severity | None = None) -> None:
        """A path that names nothing: said as precisely as the cause is known."""
        shown = found.value.rstrip("\r")
        if found.value.endswith("\r"):
            return  # the CRLF line ends are the cause (check_crlf)
        if "\\" in shown and not _ON_WINDOWS:
            self.sink.report("DN422", line, 1, f"{key}={shown} uses '\\' as a separator, which "
                             "only Windows has: fopen looks for one file of that whole name",
                             "write the path with '/' (every system accepts it)")
            return
        self.sink.report(code, line, 1, f"{key} file '{shown}' ({self.where(line)}) not "
                         f"found in {_folders(found.tried)}: {self._who_stops(key)}",
                         _root_hint(self.settings), severity)

    def _who_stops(self, key: str) -> str:
        """Which commands open ``key``'s file and stop without it."""
        if key != "names":
            return "Darknet stops with \"Couldn't open file\""
        if self.data.classifier:
            return "classifier predict stops with \"Couldn't open file\""
        # run, both forks: train_detector never opens names (AlexeyAB's only for -map, before
        # the first iteration); the original's file_error exits with status 0
        return ("detector test, valid, map and demo stop with \"Couldn't open file\" (the "
                "original Darknet with exit status 0), as AlexeyAB's train -map does before its "
                "first iteration; a plain detector train never opens it")

    # --- names, train and valid -----------------------------------------------------------

    def check_names(self) -> None:
        """``names`` where the C code reads it: the detector's test, valid, map and demo (and
        AlexeyAB's train -map) open it, its default too. A classifier's .data is read by
        train_classifier and validate_classifier_*, which read ``labels`` and never ``names``;
        only classifier predict/try read ``names`` when it is given (else ``labels``): a
        warning there, nothing when it is not given."""
        classifier = self.data.classifier
        if not classifier and self.data.get("names") is None:
            classifier = self._cfg_is_classifier()  # its default is the detector's only
        resolved = self.resolve("names", None if classifier else DEFAULT_NAMES)
        if resolved is None:
            return
        found, line = resolved
        level = Severity.WARNING if classifier else None
        if found.path is None:
            self.missing("DN414", "names", found, line, level)
            return
        problem = _not_a_file(found.path)
        if problem:
            reader = ("classifier predict cannot read names from it (training reads labels=)"
                      if classifier else "get_labels cannot read names from it")
            self.sink.report("DN414", line, 1, f"names={found.value.rstrip()} {problem}: "
                             f"{reader}", None, level)
            return
        names_sink = Sink(str(found.path))
        check_names_file(found.path, self.settings.dialect, names_sink)
        self.sink.items += names_sink.items

    def _cfg_is_classifier(self) -> bool:
        """Whether the cfg given with this .data file trains a classifier (a .data file of
        only classes=, train= and backup= can be either's)."""
        facts = self.settings.facts
        if facts is not None:
            return facts.kind == "classifier"
        kind = self.settings.cfg_kind
        return kind is not None and kind() == "classifier"

    def check_classifier_trainer(self) -> None:
        """DN429, once per job: hank-ai's Darknet cannot train a classifier at all, so the
        classifier's own checks (DN446, DN447: fill_truth, get_labels) are not reported."""
        if not no_classifier_training(self.data, self.settings):
            return
        entry = self.data.get("labels")
        line = entry[1] if entry is not None else 1
        self.sink.report("DN429", line, 1, "hank-ai's Darknet has no classifier training, "
                         "and this is a classifier's job: 'darknet classifier train' is no "
                         "command there (it prints the usage and exits with status 0) and "
                         "'detector train' trains detectors only",
                         "train the classifier with AlexeyAB's Darknet or the original "
                         "(--dialect alexeyab or pjreddie)")

    def check_list(self, key: str, severity: Severity) -> None:
        """``train`` (get_paths in train_detector: an error) or ``valid`` (read by -map and
        the valid/map commands only: a warning)."""
        resolved = self.resolve(key, None)
        if resolved is None:
            return
        found, line = resolved
        identity = _identity(found)
        if identity in self.checked:
            return  # the list train= names (checked, with its findings, already)
        self.checked.add(identity)
        level = None if severity is Severity.ERROR else severity
        if found.path is None:
            self.missing("DN418", key, found, line, level)
            return
        problem = _not_a_file(found.path)
        if problem:
            self.sink.report("DN418", line, 1, f"{key}={found.value.rstrip()} {problem}: "
                             "get_paths cannot read a list of images from it", None, level)
            return
        try:
            summary = check_list_file(found.path, self.settings, self.sink)
        except OSError as exc:
            self.sink.report("DN418", line, 1, f"cannot read the {key} list {found.path}: "
                             f"{_why(exc)}", None, level)
            return
        if summary.lines and (not self.lists or self.lists[0][1] != found.path):
            self.lists.append((key, found.path))
        if summary.lines == 0:
            self.sink.report("DN419", line, 1, f"the {key} list {found.path} is empty: Darknet "
                             "picks images at random from it (rand() % 0, a division by zero)",
                             "list one image path per line", level)

    # --- backup ---------------------------------------------------------------------------

    def check_backup(self) -> None:
        """Only for a .data file that trains (it has train=): save_weights opens
        backup/<cfg>_<n>.weights at the first save and stops with "Couldn't open file"."""
        if self.data.get("train") is None:
            return
        resolved = self.resolve("backup", DEFAULT_BACKUP)
        assert resolved is not None
        found, line = resolved
        shown = found.value.rstrip("\r")
        if found.value.endswith("\r") or ("\\" in shown and found.path is None):
            self.missing("DN421", "backup", found, line)
            return
        if found.path is None:
            problem = "does not exist"
        elif not found.path.is_dir():
            problem = "is not a directory"
        elif not os.access(found.path, os.W_OK | os.X_OK):
            problem = "is not writable"
        else:
            return
        default = "" if line is not None else " (no backup= line: the default)"
        self.sink.report("DN421", line, 1 if line else None,
                         f"backup folder '{shown}'{default} {problem}: training stops at its "
                         "first save (iteration 100 in the original Darknet, 100 or 1000 in "
                         "AlexeyAB's), after the GPU time before it",
                         "create the folder (mkdir -p) or point backup= at a writable one")

    # --- which folder ---------------------------------------------------------------------

    def say_base(self) -> None:
        """Once per file: paths that fit only the .data file's folder, not the working one."""
        if not self.beside:
            return
        self.beside.sort(key=lambda found: found[1])
        line = self.beside[0][1]
        keys = ", ".join(dict.fromkeys(k for k, _ in self.beside))
        self.sink.report("DN425", line, 1,
                         f"{keys} found relative to the .data file's folder "
                         f"{shown_dir(self.data.path.parent)}, not to the working directory "
                         f"{shown_dir(Path.cwd())}: Darknet resolves relative paths against "
                         "the directory it is started from",
                         "start darknet from that folder, or tell dnlint where it runs "
                         "(--data-root DIR, or data-root in the configuration)")


def job_kind(data: DataFile, settings: DataSettings) -> str:
    """What trains from this .data file ("detector", "classifier"): the cfg given with it
    (its last layer) when there is one, else the .data file's own keys
    (:attr:`DataFile.classifier`)."""
    if settings.facts is not None:
        return settings.facts.kind
    kind = settings.cfg_kind() if settings.cfg_kind is not None else None
    return kind or ("classifier" if data.classifier else "detector")


def no_classifier_training(data: DataFile, settings: DataSettings) -> bool:
    """A classifier's job in hank-ai's Darknet, which has none: its CLI has no ``classifier``
    command since a0dc0731 ("removed classification", classifier.cpp deleted). At f684e1d,
    src-cli/darknet_cli.cpp:546-591 dispatch no "classifier"; an unknown word is skipped by
    process_arguments (src-lib/darknet_cfg_and_state.cpp:240-278), "train" is only a function
    (src-lib/darknet_args_and_parms.cpp:146), so the command stays empty and main shows the
    usage (darknet_cli.cpp:546) and returns 0 (darknet_cli.cpp:600)."""
    facts = settings.facts
    dialect = settings.dialect or (facts.dialect if facts is not None else None)
    return dialect is Dialect.HANK and job_kind(data, settings) == "classifier"


def count_train_images(data_path: Path, root: Path | None) -> int | None:
    """How many lines the .data file's train list has (get_paths' plist->size), or None when
    either file cannot be read: the data file's own lint says why."""
    try:
        entry = read_data_file(data_path).get("train")
        found = resolve_path(entry[0], data_path, root).path if entry else None
        if found is None or _not_a_file(found):
            return None
        return sum(1 for _ in list_lines(found))
    except OSError:
        return None


def _identity(found: Resolved) -> object:
    """What tells two values naming the same file apart from two naming different ones: the
    file's device and inode, else (nothing found) the value as Darknet reads it."""
    if found.path is not None:
        try:
            info = os.stat(found.path)
            return info.st_dev, info.st_ino
        except (OSError, ValueError):
            pass
    return found.value


def _not_a_file(path: Path) -> str:
    """Why ``path`` cannot be read as a text file ("" when it can be tried)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"cannot be read ({_why(exc)})"
    if stat.S_ISDIR(mode):
        return "is a directory"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    if not os.access(path, os.R_OK):
        return "is not readable (permission denied)"
    return ""


# --- names files ----------------------------------------------------------------------------

def check_names_file(path: Path, dialect: Dialect | None, sink: Sink) -> int | None:
    """A names file's own lines (get_labels: one name per fgetl line): blank lines, which are
    counted as names (DN426), and CRLF line ends, which the original Darknet keeps in every
    name (DN424). The number of names, or None when the file cannot be read (DN414)."""
    try:
        found = count_names(path, MAX_SHOWN + 1)
    except OSError as exc:
        sink.report("DN414", None, None, f"cannot read the names file: {_why(exc)}")
        return None
    for number in found.first_blank[:MAX_SHOWN]:
        sink.report("DN426", number, 1, "blank line in the names file: get_labels counts it as "
                    "a class name, so every later name belongs to the next class id",
                    "remove the blank line")
    if found.blank > MAX_SHOWN:
        sink.report("DN426", found.first_blank[MAX_SHOWN], 1,
                    f"and {found.blank - MAX_SHOWN:,} more blank lines in the names file")
    crlf = found.crlf
    if crlf and dialect is not Dialect.AB and dialect is not Dialect.HANK:
        sink.report("DN424", 1, None, f"{crlf} line{'s' if crlf > 1 else ''} end with CRLF: "
                    "the original Darknet keeps the \\r in each name (labels print and draw "
                    "with it); AlexeyAB's and hank-ai's remove it",
                    "save the names file with LF line ends", _pj_only(dialect))
    return found.names


def _pj_only(dialect: Dialect | None) -> Severity | None:
    """A finding that holds in the original Darknet only: its rule's severity there, a warning
    when the dialect is not known."""
    return None if dialect is Dialect.PJ else Severity.WARNING


# --- list files (train=, valid=) --------------------------------------------------------------

@dataclass(frozen=True)
class ListSummary:
    lines: int


def check_list_file(path: Path, settings: DataSettings, sink: Sink) -> ListSummary:
    """A get_paths list: its CRLF line ends (the original keeps the \\r in every image path)
    and, with ``check_images``, whether each listed image exists (from the root, as load_data
    opens it). Raises OSError when it cannot be read."""
    list_sink = Sink(str(path))
    count = crlf = missing = 0
    first_crlf = 0
    folder = settings.root if settings.root is not None else Path.cwd()
    for number, raw, _ in list_lines(path):
        count = number
        if raw.endswith(b"\r"):
            crlf += 1
            first_crlf = first_crlf or number
        if settings.check_images and not settings.check_labels:  # else dnlint.dataset does
            missing += _check_image(raw, number, folder, settings.dialect, missing, list_sink)
    if missing > MAX_SHOWN:
        list_sink.report("DN420", None, None, f"and {missing - MAX_SHOWN:,} more listed images "
                         "not found", None, image_severity(settings.dialect))
    if crlf and settings.dialect is not Dialect.AB and settings.dialect is not Dialect.HANK:
        list_sink.report("DN423", first_crlf, None,
                         f"{crlf} of {count} lines end with CRLF: the original Darknet keeps the "
                         "\\r in every image path and stops at the first image it cannot open "
                         "(AlexeyAB's removes it)", "save the list with LF line ends",
                         _pj_only(settings.dialect))
    sink.items += list_sink.items
    return ListSummary(count)


def _check_image(raw: bytes, number: int, folder: Path, dialect: Dialect | None,
                 missing: int, sink: Sink) -> int:
    """1 when the image of this list line does not exist (reported while few are)."""
    text = raw.decode("utf-8", errors="surrogateescape")
    if dialect is Dialect.AB or dialect is Dialect.HANK:
        text = text.rstrip("\r")
    if not text.strip():
        return 0
    image = Path(text)
    if path_exists(image if image.is_absolute() else folder / image):
        return 0
    if missing < MAX_SHOWN:
        sink.report("DN420", number, 1, f"listed image '{text.rstrip(chr(13))}' not found in "
                    f"{shown_dir(folder)}", "fix the path, or regenerate the list",
                    image_severity(dialect))
    return 1


def image_severity(dialect: Dialect | None) -> Severity | None:
    """The original Darknet exits at a missing image and hank-ai's stops ("image filename
    does not exist", load_rgb_mat_image); AlexeyAB's trains on a blank 10x10 one."""
    return Severity.WARNING if dialect is Dialect.AB else None


def list_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, the line without its \\n, whether it ended with \\n), as fgetl splits
    a file, read in bounded chunks (data.chunks refuses a FIFO and caps the size)."""
    number = 0
    pending = b""
    for chunk in chunks(path):
        pieces = (pending + chunk).split(b"\n")
        pending = pieces.pop()
        if len(pending) > 1 << 20:
            pending = pending[-2:]  # an absurd line: only its end (a \r) still matters
        for piece in pieces:
            number += 1
            yield number, piece, True
    if pending:
        yield number + 1, pending, False


# --- messages ---------------------------------------------------------------------------------

def _why(exc: OSError) -> str:
    if isinstance(exc, DataFileError):
        return exc.strerror or str(exc)
    if exc.errno == errno.EISDIR:
        return "is a directory"
    return exc.strerror or str(exc)


def shown_dir(folder: Path) -> str:
    return str(folder) or "."


def _folders(tried: tuple[Path, ...]) -> str:
    if not tried:
        return "the file system (absolute path)"
    return " nor ".join(shown_dir(folder) for folder in tried)


def _root_hint(settings: DataSettings) -> str:
    if settings.root is not None:
        return "fix the path (it is resolved against --data-root / data-root)"
    return ("fix the path; if darknet runs from another folder, say which with --data-root DIR "
            "(or data-root in the configuration)")
