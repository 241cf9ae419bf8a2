"""One root cause, one error: shape findings that only follow from an earlier broken layer.

Darknet builds layers in order and stops at the first it cannot build (parse_network_cfg), so a
layer whose input comes from a broken layer is never checked by Darknet either. Once a layer is
broken (its shape pass failed, or an error says its input or output is unusable), every layer
that reads it, directly or through others, is *tainted*: its shape findings are consequences,
not mistakes, and are dropped. Findings that do not come from the shapes (an unknown option, a
bad reference, anchors that do not pair up) stay, because they are independent mistakes.

For each root one note (DN390) says how many layers could not be checked and why.
"""

from __future__ import annotations

from bisect import bisect_right

from dnlint.diagnostics import Diagnostic, Severity, Sink
from dnlint.network.layers.base import Layer
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Final

    from dnlint.network.build import Network

NET: Final = -1  # the index that stands for [net], the input of layer 0

# Findings that follow from the shapes a layer receives: a consequence once its input is broken.
CONSEQUENCES = frozenset({
    "DN305", "DN306", "DN307", "DN309", "DN312", "DN313", "DN315", "DN316", "DN317", "DN318",
    "DN319", "DN321", "DN323", "DN326", "DN327", "DN328", "DN370", "DN371", "DN372", "DN374",
    "DN401", "DN416", "DN417",
})
# Errors in [net] that leave the network without an input (Darknet stops there), or with one
# whose size overflows a C int (DN312: every size computed from it is wrong).
NET_ROOTS = frozenset({"DN106", "DN027", "DN312"})
# [net] findings that only repeat an earlier one: hank's empty [net] also has no input size.
NET_REPEATS = {"DN106": "DN027"}
# Every code that can make a layer (or [net]) a root in analyse().
ROOT_CODES = CONSEQUENCES | NET_ROOTS | {"DN302"}
# Layers that add or join other layers to their input (their "layers" info lists them).
MERGING: Final = frozenset({"shortcut", "sam", "scale_channels"})
_SHORT_REFS: Final = 8  # up to this many references, a list beats a set


def layer_inputs(layer: Layer) -> list[int]:
    """The layers whose outputs ``layer`` reads (NET for the network input), each once, in
    the order of their first mention (a route of a million items names a few layers)."""
    referenced = _earlier_once(layer.refs, layer.index)
    if layer.type == "route":
        return referenced
    previous = layer.index - 1 if layer.index > 0 else NET
    return [previous, *referenced] if layer.type in MERGING else [previous]


def _earlier_once(refs: Sequence[int] | None, index: int) -> list[int]:
    """The references below ``index`` (and not negative), each once, in order. A short list is
    searched (most layers name one to four): ``dict.fromkeys`` cost a method call and a dict
    per merge, a sixth of the input-size check; a long one goes through a set."""
    if not refs:
        return []
    found: list[int] = []
    if len(refs) <= _SHORT_REFS:
        for i in refs:
            if 0 <= i < index and i not in found:
                found.append(i)
        return found
    seen: set[int] = set()
    for i in refs:
        if 0 <= i < index and i not in seen:
            seen.add(i)
            found.append(i)
    return found


class Taint:
    """Per layer: whether it is broken itself (a root), or reads a broken layer (tainted), and
    for tainted layers the root they depend on (NET for [net]). Stored per index in arrays,
    not dicts: a file of a million unknown sections taints a million layers.

    (A plain class, not a dataclass: creating a dataclass costs every run's start-up.)"""

    __slots__ = ("_dead", "_root", "any_tainted")

    def __init__(self, count: int) -> None:
        # imported here: the array module imports collections (start-up)
        from array import array

        self._dead = bytearray(count + 1)  # position index + 1: NET (-1) first
        self._root = array("L", [0]) * count  # a tainted layer's root + 2 (NET: 1), else 0
        self.any_tainted = False

    def dead(self, index: int) -> bool:
        return self._dead[index + 1] != 0

    def set_dead(self, index: int) -> None:
        self._dead[index + 1] = 1

    def tainted(self, index: int) -> bool:
        return index != NET and self._root[index] != 0

    def root(self, index: int) -> int:
        """The root of a tainted layer (NET for [net]); the layer itself when not tainted."""
        return self._root[index] - 2 if index != NET and self._root[index] else index

    def set_root(self, index: int, root: int) -> None:
        self._root[index] = root + 2
        self.any_tainted = True

    def roots(self) -> Iterator[tuple[int, int, int, int]]:
        """(root, first, last, count) of the layers tainted by each root, by root."""
        spans: dict[int, list[int]] = {}
        for index, stored in enumerate(self._root):
            if stored:
                span = spans.get(stored - 2)
                if span is None:
                    spans[stored - 2] = [index, index, 1]
                else:
                    span[1] = index
                    span[2] += 1
        for root, (first, last, count) in sorted(spans.items()):
            yield root, first, last, count


class LineMap:
    """Which layer (or NET) a line of the cfg belongs to."""

    def __init__(self, doc: CfgDocument) -> None:
        self.starts = doc.sections.lines[1:]  # where each layer's section starts

    def layer_at(self, line: int | None) -> int:
        if line is None:
            return NET
        return bisect_right(self.starts, line) - 1  # -1 (NET) before the first layer


def analyse(network: Network, items: list[Diagnostic], lines: LineMap) -> Taint:
    """Which layers are broken, and which depend on a broken layer."""
    erred: set[int] = set()
    net_dead = False
    for diag in items:
        if diag.severity is not Severity.ERROR:
            continue
        where = lines.layer_at(diag.line)
        if where == NET:
            net_dead = net_dead or diag.code in NET_ROOTS
        elif diag.code in CONSEQUENCES or diag.code == "DN302":
            erred.add(where)
    layers = network.layers
    taint = Taint(len(layers))
    if net_dead:
        taint.set_dead(NET)
    for layer in layers:
        sources = [i for i in layer_inputs(layer) if taint.dead(i)]
        if sources:
            taint.set_root(layer.index, min(taint.root(i) for i in sources))
        if sources or layer.broken or layer.index in erred:
            taint.set_dead(layer.index)
    return taint


def suppress_cascades(network: Network, doc: CfgDocument, sink: Sink) -> None:
    """Drop the shape findings of tainted layers; one DN390 note per root."""
    if not any(layer.broken for layer in network.layers) and not any(
        d.code in ROOT_CODES and d.severity is Severity.ERROR for d in sink.items
    ):
        return  # nothing is broken: the common case, spared the walk over the layers
    lines = LineMap(doc)
    taint = analyse(network, sink.items, lines)
    if not taint.any_tainted:
        return
    kept = []
    net_codes = {d.code for d in sink.items if lines.layer_at(d.line) == NET}
    for diag in sink.items:
        where = lines.layer_at(diag.line)
        consequence = diag.code in CONSEQUENCES and (
            taint.tainted(where) or (where == NET and diag.code == "DN313")
        )
        if where == NET and NET_REPEATS.get(diag.code) in net_codes:
            consequence = True
        if not consequence:
            kept.append(diag)
    sink.items[:] = kept
    _note_roots(network, taint, sink, overflow="DN312" in net_codes)


def _note_roots(network: Network, taint: Taint, sink: Sink, overflow: bool = False) -> None:
    for root, first, last, count in taint.roots():
        line = network.layers[root].line if root != NET else _net_line(network)
        sink.report("DN390", line, 1, f"{_span(first, last, count)} not checked: "
                    f"{'it depends' if count == 1 else 'they depend'} on "
                    f"{_describe_root(network, root, overflow)}")


def _net_line(network: Network) -> int:
    return network.net_values.section.line


def _describe_root(network: Network, root: int, overflow: bool = False) -> str:
    if root == NET:
        if overflow:
            return "the network input, whose size overflows a C int"
        return "the network input, which [net] does not define"
    layer = network.layers[root]
    why = ", which the input size breaks" if layer.size_root else ""
    return f"layer {root} ([{layer.section_name}], line {layer.line}){why}"


def _span(first: int, last: int, count: int) -> str:
    if count == 1:
        return f"layer {first}"
    if last - first + 1 == count:
        return f"layers {first}\u2013{last}"
    return f"{count} of the layers {first}\u2013{last}"
