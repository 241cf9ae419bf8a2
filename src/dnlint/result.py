"""What linting one file produces: the record every later stage and every reporter reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dnlint.diagnostics import Diagnostic
from dnlint.dialects import Dialect

if TYPE_CHECKING:
    from dnlint.network import Network
    from dnlint.reader import CfgDocument
    from dnlint.weights.layout import WeightsReport


@dataclass
class FileResult:
    path: str
    dialect: Dialect | None
    dialect_reason: str
    diagnostics: list[Diagnostic]
    network: Network | None = None
    document: CfgDocument | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    _weights: WeightsReport | None = field(default=None, repr=False)
    _predicted: bool = field(default=False, repr=False)

    @property
    def weights(self) -> WeightsReport | None:
        """The weights layout of the network, predicted on first use (JSON, weights checks,
        --layers): most runs never need it."""
        if not self._predicted:
            self._predicted = True
            if self._weights is None and self.network is not None:
                from dnlint.weights.layout import predict_result

                self._weights = predict_result(self)
        return self._weights

    @weights.setter
    def weights(self, report: WeightsReport | None) -> None:
        self._weights, self._predicted = report, True

    def add(self, found: list[Diagnostic]) -> None:
        """Merge later stages' findings, keeping the report order (line, column, code)."""
        if found:
            self.diagnostics = sorted([*self.diagnostics, *found], key=Diagnostic.sort_key)
