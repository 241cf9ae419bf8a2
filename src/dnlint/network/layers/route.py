"""``[route]``: parse_route + make_route_layer of both forks (ab: groups/group_id)."""

from __future__ import annotations

from dnlint.dialects import AB_AND_HANK, ALL
from dnlint.network.layers import register
from dnlint.network.layers.base import Layer, LayerContext, LayerType, cdiv
from dnlint.network.layers.facts import RouteMismatch
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Int, Ref

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

OPTIONS = (
    Ref("layers", many=True, required=True, doc="layers to concatenate (negative = relative)"),
    Int("groups", 1, only=AB_AND_HANK, doc="split each input into this many channel groups"),
    Int("group_id", 0, only=AB_AND_HANK, doc="which channel group to take"),
    Int("stream", -1, only=AB_AND_HANK),
    Int("wait_stream", -1, only=AB_AND_HANK),
    *GENERIC_LAYER_OPTIONS,
)

# Layer types that read only the flat ``inputs`` and so accept a 0x0x0 route (§layers).
FLAT_TYPES = frozenset({
    "connected", "softmax", "cost", "dropout", "active", "logxent", "l2norm", "empty", "rnn",
    "gru", "lstm", "detection", "contrastive",
})


def reference(ctx: LayerContext, raw: int, key: str, single: bool = True, quiet: bool = False,
              item: int | None = None) -> Layer | None:
    """The layer a reference reads, or ``None`` for Darknet's all-zero (or undefined) layer.

    Also S28: [ab] an antialiased layer hands its unblurred shape to references.
    ``quiet``: a bad reference is not reported (the caller counts them); ``item``: its
    position in the list, where a finding points."""
    target = ctx.resolve(raw, key, single, quiet, item)
    if target is None:
        ctx.layer.broken = True
        return None
    layer = ctx.target(target)
    if layer.next_shape is not None:
        w, h = layer.output[:2]
        nw, nh = layer.next_shape[:2]
        ctx.report(
            "DN329",
            f"{key}={raw} reads layer {target} ({layer.type}, antialiasing): Darknet gives it "
            f"its unblurred {w}x{h} shape, but the buffer holds the blurred {nw}x{nh} data",
            key,
        )
    return layer


def already_reported(ctx: LayerContext, *sources: Layer | None) -> bool:
    """True when a shape comparison would only repeat an earlier finding: a bad reference
    (DN302), a broken referenced layer, or a zero-sized input from a broken layer before."""
    if any(source is None or source.broken for source in sources):
        return True
    before_broken = bool(ctx.layers) and ctx.layers[-1].broken
    return before_broken and 0 in (ctx.w, ctx.h, ctx.c)


def build(ctx: LayerContext) -> None:
    v = ctx.v
    # the parsed list itself, not the copy v.list makes: a hostile line has millions of items
    # Sequence, not list: a long line's numbers are an array (a compiled list check refuses it)
    refs: Sequence[int] | None = v.get("layers") if v.given("layers") else None
    if not refs:
        ctx.layer.broken = True  # DN211 already reported: [pj] segfaults, [ab] stops
        return
    read, shapes = _references(ctx, refs)
    groups, group_id = (1, 0) if ctx.pj else (v.int("groups"), v.int("group_id"))
    # a long line's numbers come packed (cnumbers.Numbers): so do the layers they name
    if isinstance(refs, list):
        ctx.layer.refs = [_index(read.get(raw), raw) for raw in refs]  # a C loop, compiled
    else:  # a long list, packed
        from array import array

        # map, not a generator expression: compiled, that becomes a list of every item first
        ctx.layer.refs = array("i", map(_index, map(read.get, refs), refs))
    out_w, out_h, out_c = _concat(ctx, refs, read, shapes)
    outputs = 0
    for raw in refs:
        outputs += shapes[id(read.get(raw))][3]
    if groups != 1:
        ctx.layer.group = (group_id, groups)
        _check_groups(ctx, groups, group_id, list(shapes.values()))
        outputs = ctx.div(outputs, groups, "outputs / groups", "groups")
        out_c = cdiv(out_c, groups) if groups else 0
    ctx.output(out_w, out_h, out_c, outputs=outputs)
    first = read.get(refs[0])
    if first is not None:
        # [ab] parse_route: l.w, l.h = first.w, first.h, the first input's own (not its output)
        first_w, first_h, _ = first.dims_stored
        ctx.layer.stored_input = (first_w, first_h, out_c)


_Shapes = dict[int, tuple[int, int, int, int]]  # id(layer) (or of None) -> (w, h, c, outputs)


# Distinct bad items of one list remembered at most (each a set entry and an int object): past
# it, a further bad item is counted each time it occurs.
MAX_DISTINCT_BAD = 65_536


def _references(ctx: LayerContext, refs: Sequence[int]
                ) -> tuple[dict[int, Layer | None], _Shapes]:
    """The layer each distinct item of ``layers`` reads (an item missing from the map reads
    nothing: a bad reference), and the shape of each: each distinct item checked (and
    reported) once, so a line of a million commas is one lookup, not a million findings and
    tuples; and a line of a million distinct bad items is not a map of a million entries."""
    read: dict[int, Layer | None] = {}
    shapes: _Shapes = {id(None): shape_of(None)}
    single = len(refs) == 1
    seen_bad: set[int] = set()  # the distinct bad items after the first, which alone is reported
    more_bad = 0
    first_more: int | None = None
    for position, raw in enumerate(refs):
        if raw in read or raw in seen_bad:
            continue
        quiet = ctx.layer.broken  # one bad reference is reported in full, the rest counted
        layer = reference(ctx, int(raw), "layers", single, quiet, position)
        if quiet and layer is None:
            more_bad += 1
            first_more = raw if first_more is None else first_more
            if len(seen_bad) < MAX_DISTINCT_BAD:
                seen_bad.add(raw)
            continue
        read[raw] = layer
        shapes[id(layer)] = shape_of(layer)
    if more_bad:
        distinct = "distinct " if more_bad <= MAX_DISTINCT_BAD else ""
        ctx.report("DN302", f"layers has {more_bad:,} more {distinct}item(s) that point before "
                   f"layer 0 or at a layer not built yet (the next: {first_more})", "layers")
    return read, shapes


def _index(layer: Layer | None, raw: int) -> int:
    return layer.index if layer is not None else raw


def shape_of(layer: Layer | None) -> tuple[int, int, int, int]:
    if layer is None:
        return (0, 0, 0, 0)
    w, h, c = layer.output  # not (*output, outputs): compiled, that builds a list first
    return (w, h, c, layer.outputs)


def _concat(ctx: LayerContext, refs: Sequence[int], read: dict[int, Layer | None],
            shapes: _Shapes) -> tuple[int, int, int]:
    """parse_route: the first layer's w/h; channels add up while w/h match; a mismatch zeroes
    all three, and a later matching layer still adds its channels (Darknet's quirk)."""
    first = read.get(refs[0])
    first_w, first_h, out_c = shapes[id(first)][:3]
    out_w, out_h = first_w, first_h
    for position in range(1, len(refs)):
        layer = read.get(refs[position])
        w, h, c, _outputs = shapes[id(layer)]
        if (w, h) == (first_w, first_h):
            out_c += c
            continue
        out_w = out_h = out_c = 0
        # bad references are DN302 already; DN315 names the first mismatch only
        if first is not None and layer is not None and ctx.layer.route_mismatch is None:
            ctx.layer.route_mismatch = RouteMismatch(layer.index, w, h, first.index, first_w,
                                                     first_h)
    return out_w, out_h, out_c


def _check_groups(
    ctx: LayerContext, groups: int, group_id: int, shapes: list[tuple[int, int, int, int]]
) -> None:
    """S2: [ab] groups split every input's channels; group_id picks one slice."""
    if groups < 0:
        ctx.report("DN316", f"groups={groups} is negative: the route's sizes become negative",
                   "groups")
        ctx.layer.broken = True
        return
    if groups and not 0 <= group_id < groups:
        ctx.report(
            "DN316",
            f"group_id={group_id} is outside 0..{groups - 1}: Darknet copies a channel slice that "
            "does not exist (out-of-bounds reads)",
            "group_id",
        )
        ctx.layer.broken = True
    uneven = sorted({c for _, _, c, _ in shapes if groups and c % groups})
    if uneven:
        ctx.report(
            "DN316",
            f"groups={groups} does not divide the input channels {', '.join(map(str, uneven))}: "
            "Darknet floors each slice and the route mixes channels of different groups",
            "groups",
        )


register(
    LayerType(
        "route",
        {d: ("route",) for d in ALL},
        OPTIONS,
        build,
        doc="concatenate layers along channels",
    )
)
