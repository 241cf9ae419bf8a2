"""Absolute layer references that are all off by the same amount: one layer added or removed.

resnet152_trident.cfg shares weights with ``share_index=166`` and so on, absolute indexes. One
layer deleted before them makes every one point at the wrong layer (DN304 on each line). They
are one root cause: the first DN304 stays, saying the others are off by the same amount, and
the rest are folded into it.
"""

from __future__ import annotations

from dnlint.diagnostics import Sink, replace
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dnlint.network.build import Network

_SHIFTS = (-1, 1, -2, 2)


def _shares_with(layer: Layer, other: Layer) -> bool:
    """Whether ``other`` is what ``layer`` meant to share: a convolution of the same filters and
    size (its input channels are not compared: the references that feed ``layer`` moved too)."""
    return (other.type == "convolutional"
            and other.filters == layer.filters
            and other.size == layer.size)


def check_shifted_shares(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink
                         ) -> None:
    refused = []
    for layer in network.layers.built():
        target = layer.shares
        if target is None or layer.values is None:
            continue
        line = layer.values.line_of("share_index")[0]
        found = next((d for d in sink.items if d.code == "DN304" and d.line == line), None)
        if found is not None:
            refused.append((layer, target, found))
    if len(refused) < 2:
        return
    layers = network.layers

    def explains(k: int) -> bool:
        """k fits at least two, and the ones it does not fit all name one layer (the removed
        layer itself, which no shift can find again)."""
        missed = {target for layer, target, _ in refused if not (
            0 <= target + k < layer.index and _shares_with(layer, layers[target + k]))}
        return len(refused) - sum(target in missed for _, target, _ in refused) >= 2 \
            and len(missed) <= 1

    shift = next((k for k in _SHIFTS if explains(k)), None)
    if shift is None:
        return
    first = refused[0][2]
    rest = [diag.line for _, _, diag in refused[1:]]
    lines = ", ".join(str(line) for line in rest[:12]) + (", ..." if len(rest) > 12 else "")
    others = (f"the {len(rest)} share_index values after it (lines {lines}) fit" if len(rest) > 1
              else f"the share_index after it (line {lines}) fits")
    folded = replace(first, message=(
        f"{first.message}; {others} when moved by {shift:+d}: was a layer added "
        "or removed before them?"), hint=(
        f"restore the layers as they were, or change every share_index from line {first.line} "
        f"on by {shift:+d}"))
    dropped = {id(diag) for _, _, diag in refused}
    sink.items[:] = [folded if diag is first else diag for diag in sink.items
                     if id(diag) not in dropped or diag is first]
