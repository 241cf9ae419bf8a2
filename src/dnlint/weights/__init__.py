"""The weights stage (bytes → read → options → network → **weights** → checks → dataset →
settings/policy → reporters): predict a cfg's .weights layout from the built network, check a
file against it, scan values.

Public API (all pure functions of their arguments unless they say otherwise):

- :func:`dnlint.weights.layout.predict` (network, dialect) and ``FileResult.weights`` (a
  linted cfg, predicted on first use) give a :class:`~dnlint.weights.layout.WeightsReport`
  without reading any file; :func:`dnlint.weights.check.check_layout` gives the findings
  the layout alone implies (DN502-DN506).
- :func:`dnlint.weights.check.check_file` checks an actual file (stat + header read only).
- :func:`dnlint.weights.scan.scan_weights` reads the values (``--scan``), in bounded chunks.
- :func:`dnlint.weights.pairing.find_cfg` names the cfg a weights file belongs to.

The pipeline (:func:`dnlint.pipeline.check_weights_file`) puts these together for every face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.weights.layout import LayerLayout, WeightsReport, predict

if TYPE_CHECKING:
    from dnlint.read.darknet_reader import CfgDocument

__all__ = [
    "LayerLayout",
    "WeightsReport",
    "alternatives",
    "predict",
]


def alternatives(doc: CfgDocument, dialect: Dialect, report: WeightsReport) -> list[WeightsReport]:
    """The same cfg's prediction (``report``, in ``dialect``) in the other fork, when its
    layout differs there: a likely cause of a size that does not match."""
    from dnlint.network.build import build_network

    other = Dialect.PJ if dialect is not Dialect.PJ else Dialect.AB
    network = build_network(doc, other, Sink())
    if network is None:
        return []
    theirs = predict(network, other, report.cfg_path)
    return [] if theirs.expected_bytes == report.expected_bytes else [theirs]
