"""What linting one file produces: the record every later stage and every reporter reads."""

from __future__ import annotations

from dnlint.diagnostics import Diagnostic, Severity
from dnlint.dialects import Dialect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from dnlint.network.build import Network
    from dnlint.read.darknet_reader import CfgDocument
    from dnlint.weights.layout import WeightsReport


class FileResult:
    """One file's lint: its diagnostics, and what the reporters and later stages read.

    (A plain class, not a dataclass: every run creates the class at start-up, where a
    dataclass's generated methods cost about 1 ms.)"""

    def __init__(self, path: str, dialect: Dialect | None, dialect_reason: str,
                 diagnostics: list[Diagnostic], network: Network | None = None,
                 document: CfgDocument | None = None, extra: dict[str, Any] | None = None,
                 given: bool = True) -> None:
        self.path = path
        self.dialect = dialect
        self.dialect_reason = dialect_reason
        self.diagnostics = diagnostics
        self.network = network
        self.document = document
        self.extra: dict[str, Any] = {} if extra is None else extra
        self.given = given  # False for a cfg linted only to check the weights files that need it
        self._weights: WeightsReport | None = None
        self._predicted = False

    def __repr__(self) -> str:
        return (f"FileResult(path={self.path!r}, dialect={self.dialect!r}, "
                f"diagnostics={self.diagnostics!r})")

    @property
    def weights(self) -> WeightsReport | None:
        """The weights layout of the network, predicted on first use (JSON, weights checks,
        --layers): most runs never need it."""
        if not self._predicted:
            self._predicted = True
            if self._weights is None and self.network is not None \
                    and not self.network.overflowed:
                from dnlint.weights.layout import predict

                if self.dialect is not None:
                    self._weights = predict(self.network, self.dialect, self.path)
        return self._weights

    @weights.setter
    def weights(self, report: WeightsReport | None) -> None:
        self._weights, self._predicted = report, True

    @property
    def checked_weights(self) -> WeightsReport | None:
        """The weights layout if it was already predicted (never predicts: reporters ask this
        to avoid predicting a layout nobody asked for)."""
        return self._weights

    def add(self, found: list[Diagnostic]) -> None:
        """Merge later stages' findings, keeping the report order (line, column, code)."""
        if found:
            if self.document is not None:
                from dnlint.diagnostics import with_ends

                found = with_ends(found, self.document.lines)
            self.diagnostics = sorted([*self.diagnostics, *found], key=Diagnostic.sort_key)


class RunTotals:
    """What a run keeps of the files it reported: counts only, so memory stays flat."""

    def __init__(self) -> None:
        self.files = 0
        # counts in plain dicts: collections.Counter's import is start-up (issue 35)
        self.by_severity: dict[Severity, int] = {}
        self.by_code: dict[str, int] = {}
        self.fixed = 0  # findings --fix repaired (or --diff would)
        self.fixable = 0  # findings left with a safe fix (--fix repairs them)
        self.unsafe_fixable = 0  # findings left with an unsafe fix (--unsafe-fixes too)

    def add(self, result: FileResult) -> None:
        """Count the file, and the weights file checked with it (a run's files are cfgs and
        weights files alike)."""
        report = result.checked_weights
        self.files += int(result.given) + int(report is not None and report.path is not None)
        self.fixed += result.extra.get("fixed", 0)
        for diagnostic in result.diagnostics:
            severity, code = diagnostic.severity, diagnostic.code
            self.by_severity[severity] = self.by_severity.get(severity, 0) + 1
            self.by_code[code] = self.by_code.get(code, 0) + 1
            if diagnostic.fix is not None:
                if diagnostic.fix.safe:
                    self.fixable += 1
                else:
                    self.unsafe_fixable += 1

    def count(self, severity: Severity) -> int:
        return self.by_severity.get(severity, 0)

    @property
    def total(self) -> int:
        return sum(self.by_severity.values())

    def has(self, code: str) -> bool:
        return code in self.by_code
