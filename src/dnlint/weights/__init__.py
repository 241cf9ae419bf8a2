"""The weights stage: predict a cfg's .weights layout, check a file against it, scan values.

Public API (all pure functions of their arguments unless they say otherwise):

- :func:`dnlint.weights.layout.predict` (network, dialect) and ``FileResult.weights`` (a
  linted cfg, predicted on first use) give a :class:`~dnlint.weights.layout.WeightsReport`
  without reading any file;
  :func:`attach_prediction` also records it on the result, with the cfg-level findings.
- :func:`dnlint.weights.check.check_file` checks an actual file (stat + header read only).
- :func:`dnlint.weights.scan.scan_weights` reads the values (``--scan``), in bounded chunks.
- :func:`dnlint.weights.pairing.find_cfg` names the cfg a weights file belongs to.

The run loop (:mod:`dnlint.run.engine`) puts these together for the command line.
"""

from __future__ import annotations

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.result import FileResult
from dnlint.weights.check import check_layout
from dnlint.weights.layout import LayerLayout, WeightsReport, predict

__all__ = [
    "LayerLayout",
    "WeightsReport",
    "alternatives",
    "attach_prediction",
    "predict",
]


def attach_prediction(result: FileResult) -> WeightsReport | None:
    """Predict ``result``'s weights layout, store it in ``result.weights`` and add the cfg-level
    weights findings (DN502-DN506) to ``result.diagnostics``. ``None`` when the cfg did not build.
    """
    report = result.weights  # predicted on first use
    if report is not None and not result.extra.get("layout_checked"):
        result.extra["layout_checked"] = True
        result.add(check_layout(report))
    return report


def alternatives(result: FileResult) -> list[WeightsReport]:
    """The same cfg's prediction in the other fork, when its layout differs there."""
    from dnlint.network.build import build_network

    if result.document is None or result.dialect is None or result.weights is None:
        return []
    other = Dialect.PJ if result.dialect is not Dialect.PJ else Dialect.AB
    network = build_network(result.document, other, Sink())
    if network is None:
        return []
    report = predict(network, other, result.path)
    if report.expected_bytes == result.weights.expected_bytes:
        return []
    return [report]
