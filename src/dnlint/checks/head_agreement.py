"""Checks across the detection heads of one network (S31, S32; anchors shared by masks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.network.layers.facts import HeadInfo
from dnlint.read.darknet_reader import CfgDocument

if TYPE_CHECKING:
    from dnlint.network.build import Network

# Layer types that predict boxes (their info carries classes, num, and for yolo kinds the mask).
HEAD_TYPES = ("yolo", "gaussian_yolo", "region", "detection")
MASKED_TYPES = ("yolo", "gaussian_yolo")
MAX_LISTED = 4096  # masks longer than this are absurd; the size check has reported them
MAX_SHOWN = 12


def heads(network: Network) -> list[Layer]:
    """The detection heads the builder completed (each has its :class:`HeadInfo`)."""
    return [layer for layer in network.layers.built()
            if layer.type in HEAD_TYPES and layer.head is not None]


def head_of(layer: Layer) -> HeadInfo:
    """The head info of a layer that :func:`heads` lists."""
    if layer.head is None:
        raise ValueError(f"layer {layer.index} ([{layer.section_name}]) is not a built head")
    return layer.head


def line_of(layer: Layer, key: str) -> tuple[int, int]:
    if layer.values is None:
        return layer.line, 1
    return layer.values.line_of(key)


def describe(layer: Layer) -> str:
    return f"the [{layer.section_name}] at line {layer.line}"


def check_classes_agree(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """S32: one network predicts one label set; AlexeyAB's detector stops otherwise.

    The heads that differ from the value most heads' filters fit (then the most common one,
    then the first head's) are the mistake. A head whose layer before already fits that value
    has one root cause, its classes line: its filter-count finding (DN401) would repeat it."""
    found = heads(network)
    if not found:
        return
    counts = Counter(head_of(layer).classes for layer in found)
    first = head_of(found[0]).classes
    classes = max(counts, key=lambda value: (sum(_fits(layer, value) for layer in found),
                                             counts[value], value == first))
    reference = next(layer for layer in found if head_of(layer).classes == classes)
    for layer in found:
        if head_of(layer).classes == classes:
            continue
        line, column = line_of(layer, "classes")
        fits = _fits(layer, classes)
        sink.report(
            "DN408",
            line,
            column,
            f"classes={head_of(layer).classes} here but classes={classes} in "
            f"{describe(reference)}: every head of a network must predict the same classes",
            f"set classes={classes} (line {line})" + (
                "" if fits else ", and the filters of the layer before to match"),
        )
        if fits:
            sink.items[:] = [d for d in sink.items if not (d.code == "DN401" and d.line == line)]
        _drop_counters_that_fit(network, layer, classes, sink)


def _drop_counters_that_fit(network: Network, layer: Layer, classes: int, sink: Sink) -> None:
    """counters_per_class written for the common classes only repeats this head's mistake."""
    counters = layer.values.list("counters_per_class") if layer.values is not None else None
    if counters is None or len(counters) != classes:
        return
    after = network.layers[layer.index + 1].line if layer.index + 1 < len(network.layers) \
        else None
    sink.items[:] = [d for d in sink.items if not (
        d.code == "DN406" and d.line is not None and d.line >= layer.line
        and (after is None or d.line < after))]


def _fits(layer: Layer, classes: int) -> bool:
    """Whether the channels this head receives fit ``classes`` (its filters need no change)."""
    per_anchor = head_of(layer).per_anchor
    if per_anchor is None:
        return False
    n, extra = per_anchor
    return bool(layer.input[2] == n * (classes + extra))


def check_masks(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """Anchors predicted by two heads, or by none (the shipped yolov4-tiny.cfg has both)."""
    groups: dict[int, list[Layer]] = {}
    for layer in heads(network):
        if layer.type in MASKED_TYPES:
            groups.setdefault(head_of(layer).num, []).append(layer)
    for num, members in groups.items():
        _check_group(num, members, sink)


def _check_group(num: int, members: list[Layer], sink: Sink) -> None:
    """Heads with the same num index one anchor list (each head carries its own copy)."""
    if any(len(head_of(layer).mask) > MAX_LISTED for layer in members):
        return  # an absurd num, reported as a size mismatch already
    owner: dict[int, Layer] = {}
    for layer in members:
        mask = head_of(layer).mask
        shared = sorted({m for m in mask if m in owner and owner[m] is not layer})
        if shared:
            line, column = line_of(layer, "mask")
            others = sorted({owner[m].line for m in shared})
            sink.report(
                "DN409",
                line,
                column,
                f"anchor{'s' if len(shared) > 1 else ''} {', '.join(map(str, shared))} "
                f"{'are' if len(shared) > 1 else 'is'} also in the mask of the head at line"
                f"{'s' if len(others) > 1 else ''} {', '.join(map(str, others))}: both heads "
                "predict boxes for it",
            )
        for m in mask:
            owner.setdefault(m, layer)
    count = num - len([m for m in owner if 0 <= m < num])
    if count > 0:
        first = members[0]
        anchors = head_of(first).anchors
        line, column = line_of(first, "anchors")
        shown = _first_unowned(num, owner)
        pairs = ", ".join(f"{i} ({_anchor(anchors, 2 * i)},{_anchor(anchors, 2 * i + 1)})"
                          for i in shown)
        more = f" and {count - len(shown)} more" if count > len(shown) else ""
        sink.report(
            "DN410",
            line,
            column,
            f"anchor{'s' if count > 1 else ''} {pairs}{more} of num={num} "
            f"{'are' if count > 1 else 'is'} in no head's mask: never predicted",
            "give every anchor to exactly one head, or remove it and lower num",
        )


def _first_unowned(num: int, owner: dict[int, Layer]) -> list[int]:
    """The first MAX_SHOWN anchor indexes below ``num`` that no mask names.

    An explicit loop bounded by MAX_SHOWN + len(owner): num can be 2**31 - 1, and a generator
    over range(num) handed to islice was evaluated to the end once compiled by mypyc.
    """
    shown: list[int] = []
    index = 0
    while index < num and len(shown) < MAX_SHOWN:
        if index not in owner:
            shown.append(index)
        index += 1
    return shown


def _anchor(anchors: Sequence[float], index: int) -> str:
    """An anchor value as Darknet holds it: the given one, else the 0.5 placeholder."""
    return f"{anchors[index] if index < len(anchors) else 0.5:g}"
