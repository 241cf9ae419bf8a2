"""Fixers of detection heads: the ``filters=`` of the convolution before a head (DN401, safe:
the head is the intent, the user edited classes), and, unsafe, ``num`` raised to cover the
mask (DN402) and surplus anchors dropped (DN404). Which anchors to add, or which classes
value is right when the heads disagree, are choices: never fixed."""

from __future__ import annotations

from dnlint.checks.head_agreement import head_of, heads
from dnlint.diagnostics import Diagnostic
from dnlint.edits import Edit
from dnlint.fixes import FixContext, fixer
from dnlint.fixes.text import value_body
from dnlint.network.layers.base import Layer
from dnlint.read.darknet_reader import Option

# parse_yolo / parse_gaussian_yolo: (classes + extra) * len(mask) channels per cell
_PER_MASK = {"yolo": 5, "gaussian_yolo": 9}


def _head_at(ctx: FixContext, line: int) -> tuple[Layer, int] | None:
    """The head whose section holds ``line``, and its position among the network's layers."""
    section = ctx.section_at(line)
    found = ctx.layer_of(section) if section is not None else None
    return found if found is not None and found[0].head is not None else None


def _set_value(ctx: FixContext, option: Option, value: str) -> list[Edit] | None:
    """Replace the value of ``option``'s line (a single token, comment and spacing kept)."""
    text = ctx.source.text(option.line)
    if text is None or "=" not in text:
        return None
    start, end = value_body(text)
    if start >= end or any(space in text[start:end] for space in " \t"):
        return None
    edit = ctx.source.replace(option.line, start, end, value)
    return [edit] if edit else None


def _channels(head: Layer) -> int | None:
    """What the head needs from the layer before, per cell."""
    info, values = head.head, head.values
    if info is None or values is None:
        return None
    classes = info.classes
    if head.type in _PER_MASK:
        mask, num = list(info.mask), info.num
        if not mask or any(not 0 <= m < num for m in mask):
            return None  # the mask is wrong (DN402): the head's intent is unclear
        return (classes + _PER_MASK[head.type]) * len(mask)
    if head.type == "region":
        return info.num * (classes + values.int("coords") + 1)
    return None


@fixer("DN401")
def filters_before_head(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """``filters=`` of the [convolutional] just before the head, when every head of the
    network agrees on classes and this head's mask is valid."""
    found = _head_at(ctx, diagnostic.line or 0)
    network = ctx.result.network
    if found is None or network is None or found[1] == 0:
        return None
    head, position = found
    if len({head_of(layer).classes for layer in heads(network)}) != 1:
        return None  # the heads disagree (DN408): which classes is a choice
    channels = _channels(head)
    before = network.layers[position - 1]
    values = before.values
    if (channels is None or channels <= 0 or before.type != "convolutional" or values is None
            or not values.given("filters") or values.int("groups", 1) != 1):
        return None
    w, h, _ = before.output
    if w <= 0 or h <= 0 or (w, h) != head.input[:2] or before.output[2] == channels:
        return None
    option = values.option("filters")
    return _set_value(ctx, option, str(channels)) if option is not None else None


def _mask_and_num(head: Layer) -> tuple[list[int], int, Option, Option] | None:
    values = head.values
    if head.type not in _PER_MASK or values is None or not values.given("mask"):
        return None
    mask_values, num_option = values.list("mask"), values.option("num")
    anchors_option = values.option("anchors")
    if not mask_values or num_option is None or anchors_option is None:
        return None
    if not values.given("num") or not values.given("anchors"):
        return None
    return [int(m) for m in mask_values], values.int("num"), num_option, anchors_option


def _anchor_count(head: Layer) -> int:
    anchors = head.values.list("anchors") if head.values is not None else None
    return len(anchors) if anchors else 0


def _raise_num(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """Unsafe: ``num`` = the largest mask index + 1, when the anchors list already holds that
    many pairs (adding anchors is a choice)."""
    found = _head_at(ctx, diagnostic.line or 0)
    parts = _mask_and_num(found[0]) if found is not None else None
    if found is None or parts is None:
        return None
    mask, num, num_option, _ = parts
    wanted = max(mask) + 1
    if min(mask) < 0 or wanted <= num or _anchor_count(found[0]) < 2 * wanted:
        return None
    return _set_value(ctx, num_option, str(wanted))


@fixer("DN404")
def drop_surplus_anchors(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """Unsafe: anchors beyond 2*num dropped, when every mask index is below num (AlexeyAB's
    fork ignores them; the original writes them past its array); when a mask index needs them,
    num raised to cover the masks instead (the DN402 this finding absorbs)."""
    found = _head_at(ctx, diagnostic.line or 0)
    parts = _mask_and_num(found[0]) if found is not None else None
    if found is None or parts is None:
        return None
    mask, num, _, anchors_option = parts
    if mask and min(mask) >= 0 and max(mask) >= num:  # the masks need the anchors: raise num
        return _raise_num(diagnostic, ctx)
    if num <= 0 or any(not 0 <= m < num for m in mask):
        return None
    text = ctx.source.text(anchors_option.line)
    if text is None or "=" not in text:
        return None
    start, end = value_body(text)
    pieces = text[start:end].split(",")
    if len(pieces) <= 2 * num or any(not piece.strip(" \t") for piece in pieces):
        return None
    kept = ",".join(pieces[:2 * num])
    edit = ctx.source.replace(anchors_option.line, start + len(kept), end, "")
    return [edit] if edit else None
