"""How the ``--check-labels`` passes report: the first findings of each rule of one list as
they are, the rest folded into one finding that counts them (the list pass, ``list_pass``, and
the label-file pass, ``label_pass``, report through a :class:`Folder`).
"""

from __future__ import annotations

from dnlint.checks.data_file import MAX_SHOWN
from dnlint.diagnostics import Diagnostic, Severity, Sink, new_diagnostic


class Folder:
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
            self.sink.items.append(diagnostic(code, path, line, message, hint, severity))
        elif count == MAX_SHOWN + 1:
            self.first_more[code] = (path, line, severity)

    def finish(self, what: dict[str, str]) -> None:
        for code, (path, line, severity) in self.first_more.items():
            more = self.counts[code] - MAX_SHOWN
            self.sink.items.append(diagnostic(
                code, path, line, f"and {more:,} more {what.get(code, 'findings')} of "
                f"{self.list_path} like the ones above (dnlint lists the first {MAX_SHOWN})",
                None, severity))


def diagnostic(code: str, path: str, line: int | None, message: str, hint: str | None,
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

