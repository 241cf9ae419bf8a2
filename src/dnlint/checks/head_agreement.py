"""Checks across the detection heads of one network (S31, S32; anchors shared by masks)."""

from __future__ import annotations

from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.network.layers.facts import HeadInfo
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import TypeVar

    from dnlint.network.build import Network

    T = TypeVar("T")

# Layer types that predict boxes (their info carries classes, num, and for yolo kinds the mask).
MASKED_TYPES = ("yolo", "gaussian_yolo")
MAX_LISTED = 4096  # masks longer than this are absurd; the size check has reported them
MAX_SHOWN = 12
# the classes= of the shipped cfgs (COCO, VOC): what a head the user forgot to edit still says
STOCK_CLASSES = frozenset({80, 20})


def heads(network: Network) -> tuple[Layer, ...]:
    """The detection heads the builder completed (each has its :class:`HeadInfo`)."""
    return network.layers.heads()


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

    Which value is meant: a value other than the stock data sets' (COCO's 80, VOC's 20) is the
    user's edit, and the heads still at the stock value are the ones the edit missed; the
    hint must not undo the edit because more heads were left as shipped. Among the rest, the
    value most heads' filters fit, then the most common one, then the first head's. A head
    whose layer before already fits that value has one root cause, its classes line: its
    filter-count finding (DN401) would repeat it."""
    found = heads(network)
    if not found:
        return
    counts = _counted(head_of(layer).classes for layer in found)
    first = head_of(found[0]).classes
    edited = any(value not in STOCK_CLASSES for value in counts)
    classes = max(counts, key=lambda value: (edited and value not in STOCK_CLASSES,
                                             sum(_fits(layer, value) for layer in found),
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
                "" if fits else _filters_edit(network, layer, classes)),
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


def _filters_edit(network: Network, layer: Layer, classes: int) -> str:
    """The edit of the layer before that goes with ``classes``: 'and set filters=N at line L'
    when it is a convolution (as DN401 says it), else in words."""
    per_anchor = head_of(layer).per_anchor
    before = network.layers[layer.index - 1] if layer.index > 0 else None
    if per_anchor is None or before is None or before.type != "convolutional" \
            or before.values is None or not before.values.given("filters"):
        return ", and the filters of the layer before to match"
    n, extra = per_anchor
    return f" and set filters={n * (classes + extra)} at line {before.values.line_of('filters')[0]}"


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


def check_anchors_agree(network: Network, doc: CfgDocument, dialect: Dialect,
                        sink: Sink) -> None:
    """Heads that index one anchor list (the same num) but carry different anchors: each head
    reads its own copy, so a mask index means a different box in each (anchors recomputed for
    the data set and pasted into one head only). The list most heads carry is the reference,
    then the first head's."""
    groups: dict[int, list[Layer]] = {}
    misread = _misread_anchor_lines(sink)
    for layer in heads(network):
        if layer.type in MASKED_TYPES and len(head_of(layer).anchors) <= 2 * MAX_LISTED \
                and line_of(layer, "anchors")[0] not in misread:
            groups.setdefault(head_of(layer).num, []).append(layer)
    for members in groups.values():
        lists = _counted(tuple(head_of(layer).anchors) for layer in members)
        if len(lists) < 2:
            continue
        order = [tuple(head_of(layer).anchors) for layer in members]
        reference = max(lists, key=lambda value: (lists[value], -order.index(value)))
        owner = members[order.index(reference)]
        for layer in members:
            if tuple(head_of(layer).anchors) == reference:
                continue
            line, column = line_of(layer, "anchors")
            sink.report(
                "DN427",
                line,
                column,
                f"anchors differ from those of the head at line {owner.line}: each head reads "
                "its own list, so the same mask index means a different box in each head",
                "copy the same anchors= line into every head",
            )


def check_mask_order(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """Masks in reverse order of stride: a head on a finer grid (smaller stride, meant for
    small objects) given larger anchors than a head on a coarser grid. Compared by the mean
    anchor area of each head's mask, between heads of different grid sizes. Only heads with a
    grid of their own are compared: one behind a layer that could not be built has the 0x0
    grid (or worse) that layer left, a consequence of its error, not a size to compare."""
    misread = _misread_anchor_lines(sink)
    found = [layer for layer in heads(network) if layer.type in MASKED_TYPES
             and line_of(layer, "anchors")[0] not in misread]
    if len(found) < 2:
        return
    unbuilt = _behind_unbuilt(network, doc, sink)
    found = [layer for layer in found if layer.input[0] > 0 and layer.input[1] > 0
             and not unbuilt(layer.index)]
    sized = [(layer.input[0] * layer.input[1], _mean_area(layer), layer) for layer in found]
    usable = [(cells, area, layer) for cells, area, layer in sized if area is not None]
    for cells, area, layer in usable:
        coarser = [(other_area, other) for other_cells, other_area, other in usable
                   if other_cells < cells and other_area is not None and area is not None
                   and other_area < area]
        if not coarser:
            continue
        other = min(coarser, key=lambda pair: pair[0])[1]
        line, column = line_of(layer, "mask")
        sink.report(
            "DN428",
            line,
            column,
            f"this head's grid is {layer.input[0]}x{layer.input[1]} but its mask holds larger "
            f"anchors than the {other.input[0]}x{other.input[1]} head at line {other.line}: "
            "the finest grid should predict the smallest anchors",
            "swap the masks so that the mask of smaller anchors goes to the head on the "
            "larger grid",
        )


def _behind_unbuilt(network: Network, doc: CfgDocument, sink: Sink) -> Callable[[int], bool]:
    """Whether a layer could not be built or reads (through others) one that could not: the
    layers whose shape findings :mod:`dnlint.checks.cascade` drops as consequences."""
    from dnlint.checks.cascade import LineMap, analyse

    if not any(layer.broken for layer in network.layers) and not any(
            d.severity is Severity.ERROR for d in sink.items):
        return lambda index: False  # the common case: nothing broken, no walk
    return analyse(network, sink.items, LineMap(doc)).dead


def _misread_anchor_lines(sink: Sink) -> set[int]:
    """Lines that already carry an error (a glued number, a bad list item): the anchors read
    there are that error's consequence, not a choice to compare."""
    return {d.line for d in sink.items if d.line is not None and d.severity is Severity.ERROR}


def _mean_area(layer: Layer) -> float | None:
    """The mean width x height of the anchors this head predicts (None when a mask index
    lies outside the given anchors, a finding of its own, or there is no mask)."""
    info = head_of(layer)
    anchors, mask = info.anchors, info.mask
    if not mask or len(mask) > MAX_LISTED:
        return None
    areas = []
    for index in mask:
        if index < 0 or 2 * index + 1 >= len(anchors):
            return None
        areas.append(anchors[2 * index] * anchors[2 * index + 1])
    return sum(areas) / len(areas)


def _counted(values: Iterable[T]) -> dict[T, int]:
    """How often each value occurs, in the order of first occurrence (collections.Counter's
    import is start-up: issue 35)."""
    counts: dict[T, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts
