"""Detection heads: ``[yolo]``, ``[Gaussian_yolo]``, ``[region]`` and ``[detection]``
(parse_yolo, parse_gaussian_yolo, parse_region, parse_detection and their make_*_layer of both
forks). The other heads, ``[iseg]`` and ``[contrastive]``, are :mod:`.other_heads`'s.

None of them stores weights. Each one checks that the layer before hands it exactly the number
of values its options describe, and the message says which number to change.
"""

from __future__ import annotations

from dnlint.cnumbers import FLT_MAX
from dnlint.diagnostics import Severity
from dnlint.dialects import AB_AND_HANK, ALL, PJ_ONLY, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import Layer, LayerContext, LayerType
from dnlint.network.layers.facts import HeadInfo
from dnlint.options.schema import (
    GENERIC_LAYER_OPTIONS,
    Float,
    FloatList,
    Int,
    IntList,
    Opt,
    Ref,
    Str,
)
from dnlint.options.value_checks import suggest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

PJ_AND_AB = frozenset({Dialect.PJ, Dialect.AB})

# The strings parse_yolo/parse_gaussian_yolo compare against (src/parser.c of AlexeyAB's fork),
# and what hank-ai's name tables accept (§enums).
_AB_IOU_LOSS = ("mse", "giou", "diou", "ciou", "iou")  # anything else becomes IOU silently
_HANK_IOU_LOSS = ("iou", "giou", "mse", "diou", "ciou")
_THRESH_KINDS = ("iou", "giou", "diou", "ciou")
_NMS_YOLO = ("default", "greedynms", "diounms")
_NMS_GAUSSIAN = (*_NMS_YOLO, "cornersnms")
_YOLO_POINTS = ("center", "left_top", "right_bottom")
# how hank-ai's get_*_from_name (src-lib/darknet_enums.cpp) names each in its refusal
_HANK_NOUNS = {"iou_loss": "IoU loss", "iou_thresh_kind": "IoU loss", "nms_kind": "NMS kind",
               "yolo_point": "YOLO point type"}


def _random() -> tuple[Opt, ...]:
    """``random``: an int in the original Darknet, a float (resize factor) in AlexeyAB's."""
    return (Int("random", 0, only=PJ_ONLY), Float("random", 0.0, only=AB_AND_HANK))


_AB_YOLO_COMMON = (
    Float("max_delta", FLT_MAX, only=AB_AND_HANK),
    IntList("counters_per_class", only=AB_AND_HANK, stops_at_hash=True),
    Float("label_smooth_eps", 0.0, only=AB_AND_HANK, min=0, max=1),
    Float("scale_x_y", 1.0, only=AB_AND_HANK),
    Int("objectness_smooth", 0, only=AB_AND_HANK),
    Float("iou_normalizer", 0.75, only=AB_AND_HANK),
    Float("obj_normalizer", 1.0, only=AB_AND_HANK),
    Float("cls_normalizer", 1.0, only=AB_AND_HANK),
    Float("delta_normalizer", 1.0, only=AB_AND_HANK),
    Str("iou_loss", "mse", only=AB_AND_HANK, doc="mse, giou, diou or ciou"),
    Str("iou_thresh_kind", "iou", only=AB_AND_HANK, doc="iou, giou, diou or ciou"),
    Float("beta_nms", 0.6, only=AB_AND_HANK),
    Str("nms_kind", "default", only=AB_AND_HANK, doc="default, greedynms or diounms"),
    Float("resize", 1.0, only=AB_AND_HANK),
    Float("iou_thresh", 1.0, only=AB_AND_HANK),
)

_YOLO_BASE = (
    Int("classes", 20, min=0),
    Int("num", 1, min=1, doc="total number of anchors"),
    IntList("mask", stops_at_hash=True, doc="the anchor indices this head predicts"),
    Int("max", {Dialect.PJ: 90, Dialect.AB: 200, Dialect.HANK: 200}, min=1),
    Float("jitter", 0.2),
    Float("ignore_thresh", 0.5),
    Float("truth_thresh", 1.0),
    *_random(),
    Str("map", path=True),
)

YOLO_OPTIONS = (
    *_YOLO_BASE,
    FloatList("anchors", stops_at_hash=True),
    *_AB_YOLO_COMMON,
    Int("show_details", 1, only=frozenset({Dialect.AB})),
    Int("new_coords", 0, only=AB_AND_HANK),
    Int("focal_loss", 0, only=AB_AND_HANK),
    Int("track_history_size", 5, only=AB_AND_HANK),
    Float("sim_thresh", 0.8, only=AB_AND_HANK),
    Int("dets_for_track", 1, only=AB_AND_HANK),
    Int("dets_for_show", 1, only=AB_AND_HANK),
    Float("track_ciou_norm", 0.01, only=AB_AND_HANK),
    Ref("embedding_layer", only=AB_AND_HANK),
    *GENERIC_LAYER_OPTIONS,
)

GAUSSIAN_OPTIONS = (
    *_YOLO_BASE,
    FloatList("anchors"),
    *_AB_YOLO_COMMON,
    Float("uc_normalizer", 1.0),
    Str("yolo_point", "center", doc="center, left_top or right_bottom"),
    *GENERIC_LAYER_OPTIONS,
)

REGION_OPTIONS = (
    Int("coords", 4, min=0),
    Int("classes", 20, min=0),
    Int("num", 1, min=1),
    Int("max", {Dialect.PJ: 30, Dialect.AB: 200, Dialect.HANK: 200}, min=1),
    Int("log", 0),
    Int("sqrt", 0),
    Int("softmax", 0),
    Int("background", 0, only=PJ_ONLY),
    Int("focal_loss", 0, only=AB_AND_HANK),
    Float("jitter", 0.2),
    Float("resize", 1.0, only=AB_AND_HANK),
    Int("rescore", 0),
    Float("thresh", 0.5),
    Int("classfix", 0),
    Int("absolute", 0),
    *_random(),
    Float("coord_scale", 1.0),
    Float("object_scale", 1.0),
    Float("noobject_scale", 1.0),
    Float("mask_scale", 1.0),
    Float("class_scale", 1.0),
    Int("bias_match", 0),
    Str("tree", path=True),
    Str("map", path=True),
    FloatList("anchors"),
    *GENERIC_LAYER_OPTIONS,
)

DETECTION_OPTIONS = (
    Int("coords", 1, min=0),
    Int("classes", 1, min=0),
    Int("rescore", 0),
    Int("num", 1, min=1),
    Int("side", 7, min=1),
    Int("softmax", 0),
    Int("sqrt", 0),
    Int("max", {Dialect.PJ: 90, Dialect.AB: 200}, min=1),
    Float("coord_scale", 1.0),
    Int("forced", 0),
    Float("object_scale", 1.0),
    Float("noobject_scale", 1.0),
    Float("class_scale", 1.0),
    Float("jitter", 0.2),
    Float("resize", 1.0, only=AB_AND_HANK),
    *_random(),
    Int("reorg", 0),
    *GENERIC_LAYER_OPTIONS,
)

# --- the size relation ------------------------------------------------------------------------
def _refusal(ctx: LayerContext) -> str:
    if ctx.pj:
        return "the original Darknet aborts on assert(l.outputs == params.inputs)"
    return f"{ctx.dialect.label} stops with an error"


def _previous(ctx: LayerContext) -> Layer | None:
    return ctx.layers[-1] if ctx.layers else None


def _key_line(layer: Layer, key: str) -> int:
    return layer.values.line_of(key)[0] if layer.values is not None else layer.line


def _filters_hint(ctx: LayerContext, channels: int) -> str | None:
    """'set filters=N at line L' when the layer before is a convolution that can give N."""
    before = _previous(ctx)
    if before is None or before.type != "convolutional" or before.unknown:
        return None
    return f"set filters={channels} at line {_key_line(before, 'filters')}"


def check_channels(
    ctx: LayerContext, what: str, channels: int, alternative: str | None
) -> bool:
    """The head needs ``channels`` per cell; the layer before gives ``ctx.c`` (w, h carried)."""
    if ctx.rejected(*_HEAD_SIZES):
        ctx.layer.broken = True
        return False  # a size option is already reported out of range
    if (ctx.w <= 0 or ctx.h <= 0) and not (ctx.w * ctx.h == 0 and ctx.inputs == 0):
        # (a 0x0 input of 0 values passes the C check, outputs == inputs: the zeroed layer
        # of an unknown section before it; the head builds, with no grid)
        before = _previous(ctx)
        ctx.layer.broken = True
        if before is not None and before.broken:
            return False  # the broken layer before was reported already; no cascade
        ctx.report(
            "DN401",
            f"[{ctx.values.section.name}] needs an image input of {channels} channels but "
            f"receives {ctx.w}x{ctx.h}x{ctx.c} (flat {ctx.inputs}): its outputs "
            f"{ctx.w}*{ctx.h}*{channels} cannot equal its inputs; {_refusal(ctx)}",
        )
        return False
    outputs = ctx.w * ctx.h * channels
    if outputs == ctx.inputs:
        return True
    hints = [h for h in (_filters_hint(ctx, channels), alternative) if h]
    ctx.report(
        "DN401",
        f"[{ctx.values.section.name}] with {what} needs {channels} channels from the layer "
        f"before, which gives {ctx.c} ({ctx.w}x{ctx.h}x{ctx.c}, {ctx.inputs} values "
        f"instead of {outputs}); {_refusal(ctx)}",
        _first_given(ctx, ("classes", "mask", "num")),
        hint=" or ".join(hints) if hints else None,
    )
    ctx.layer.broken = True
    return False


_HEAD_SIZES = ("classes", "num", "coords", "mask", "side", "ids")


def _first_given(ctx: LayerContext, keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if ctx.v.given(k)), None)


def _per_anchor_hint(ctx: LayerContext, n: int, extra: int, key: str = "classes") -> str | None:
    """The classes value that would make ``n*(classes+extra)`` equal the channels received."""
    if n > 0 and ctx.c % n == 0 and ctx.c // n - extra >= 1:
        return f"set {key}={ctx.c // n - extra} (line {ctx.v.line_of(key)[0]})"
    return None


# --- masks and anchors ------------------------------------------------------------------------
def _mask(ctx: LayerContext, num: int) -> Sequence[int]:
    """parse_yolo_mask: the given mask, else 0..num-1 (a range: num may be absurdly large)."""
    given = ctx.v.list("mask")
    if given is None:
        return range(max(num, 0))
    return [int(x) for x in given]


def _check_mask(ctx: LayerContext, mask: Sequence[int], num: int) -> None:
    if not ctx.v.given("mask") or ctx.rejected("num", "mask"):
        return
    outside = [m for m in mask if m < 0 or m >= num]
    if outside and _num_too_low(ctx, mask, num):
        return  # one root cause, num: the anchors finding (DN404) says it and hints num
    if outside:
        ctx.report_item(
            "DN402",
            f"mask value{'s' if len(outside) > 1 else ''} {', '.join(map(str, outside))} "
            f"{'are' if len(outside) > 1 else 'is'} not an anchor index: num={num} anchors "
            f"means 0..{num - 1}; Darknet reads anchors outside its array",
            "mask", _position(mask, outside[0]),
            hint=f"raise num (line {ctx.v.line_of('num')[0]}) or fix the mask",
        )
    times: dict[int, int] = {}
    for m in mask:
        times[m] = times.get(m, 0) + 1
    repeated = sorted(m for m, count in times.items() if count > 1)
    if repeated:
        ctx.report_item(
            "DN403",
            f"mask repeats anchor {', '.join(map(str, repeated))}: the head predicts the same "
            "anchor twice per cell",
            "mask", _position(mask, repeated[0], after=_position(mask, repeated[0])),
        )


def _position(values: Sequence[int], value: int, after: int = -1) -> int:
    """The index of ``value`` in ``values`` past index ``after`` (where a finding points)."""
    for index in range(after + 1, len(values)):
        if values[index] == value:
            return index
    return 0


def _num_too_low(ctx: LayerContext, mask: Sequence[int], num: int) -> bool:
    """More anchor pairs than num, and a given mask that indexes them all: num is the one line
    to edit (the mask and the anchors agree with each other)."""
    anchors = ctx.v.sequence("anchors")
    if not anchors or len(anchors) % 2 or not ctx.v.given("mask") or ctx.rejected("anchors"):
        return False
    pairs = len(anchors) // 2
    return pairs > num and all(0 <= m < pairs for m in mask)


def _check_anchors(ctx: LayerContext, num: int, overflows: bool,
                   mask: Sequence[int] | None = None) -> Sequence[float]:
    """``anchors`` fill a 2*num array initialised to 0.5 (make_yolo_layer/make_region_layer).
    Returns the values given (slots beyond them hold 0.5), as parsed: floats in a list, or in a
    packed array for a long line (not copied: a copy made a float object of each)."""
    anchors: Sequence[float] | None = ctx.v.sequence("anchors")
    if ctx.rejected("num", "anchors"):
        return anchors or []
    if anchors is None:
        ctx.report(
            "DN404",
            f"no anchors: all {2 * num} anchor values stay at Darknet's placeholder 0.5",
            hint=f"give {num} width,height pairs in anchors=",
        )
        return []
    values = anchors
    if len(values) < 2 * num:
        ctx.report(
            "DN404",
            f"{len(values)} anchor values for num={num}: the last {2 * num - len(values)} of the "
            f"{2 * num} slots stay at Darknet's placeholder 0.5",
            "anchors",
            hint=_anchor_hint(ctx, len(values), num, mask),
        )
    elif len(values) > 2 * num:
        consequence = (
            "Darknet writes them past the end of its anchor array (heap overflow)"
            if overflows
            else f"{ctx.dialect.label} ignores the extra {len(values) - 2 * num}"
        )
        beyond = sorted({m for m in mask or () if m >= num})
        if beyond and mask is not None and _num_too_low(ctx, mask, num):
            consequence += (f", and mask value{'s' if len(beyond) > 1 else ''} "
                            f"{', '.join(map(str, beyond))} read{'' if len(beyond) > 1 else 's'} "
                            "anchors outside its array")
        # values the fork ignores and no mask index reaches change nothing: a warning
        harmless = not overflows and not beyond
        ctx.report_item(  # at the surplus values, from the first past 2*num to the last
            "DN404",
            f"{len(values)} anchor values but num={num} has room for {2 * num}: {consequence}",
            "anchors", max(2 * num, 0),
            hint=_anchor_hint(ctx, len(values), num, mask),
            last=len(values) - 1,
            severity=Severity.WARNING if harmless else None,
        )
    return values


def _anchor_hint(ctx: LayerContext, count: int, num: int, mask: Sequence[int] | None) -> str:
    """Lowering or raising num to the pairs given is right only when the head names its mask
    (num then changes neither its filters nor its anchors' meaning) and every mask index stays
    below the new num; otherwise the anchors are what must change."""
    if count % 2:
        return f"anchors are width,height pairs; {count} values is not a whole number of pairs"
    pairs = count // 2
    if (mask is not None and ctx.v.given("mask") and pairs > 0
            and all(0 <= m < pairs for m in mask)):
        return f"set num={pairs} (line {ctx.v.line_of('num')[0]}) or give 2*num values"
    if count < 2 * num:
        return f"give {2 * num} values: {num} width,height pairs, one per anchor of num={num}"
    return f"keep the first {2 * num} values: {num} width,height pairs for num={num}"


def _check_counters(ctx: LayerContext, classes: int) -> None:
    counters = ctx.v.list("counters_per_class")
    if counters is not None and len(counters) != classes:
        ctx.report(
            "DN406",
            f"counters_per_class has {len(counters)} values but classes={classes}; "
            f"{ctx.dialect.label} stops with an error",
            "counters_per_class",
        )


def _check_kind(ctx: LayerContext, key: str, allowed: tuple[str, ...], fallback: str) -> None:
    if not ctx.v.given(key):
        return
    value = ctx.v.str(key) or ""
    if ctx.dialect is Dialect.HANK:
        allowed = {
            "iou_loss": _HANK_IOU_LOSS,
            "nms_kind": _NMS_GAUSSIAN,
            "iou_thresh_kind": _HANK_IOU_LOSS,  # read with the same name table as iou_loss
            "yolo_point": _YOLO_POINTS,
        }[key]
    if value in allowed:
        return
    listed = [a for a in allowed if a != "iou" or key != "iou_loss" or ctx.dialect is Dialect.HANK]
    guess = suggest(value, listed)
    if ctx.dialect is Dialect.HANK:
        consequence = f"hank-ai's Darknet stops: '{_HANK_NOUNS[key]} \"{value}\" is not supported'"
    else:
        consequence = f"AlexeyAB's Darknet uses {fallback}"
    ctx.report(
        "DN407",
        f"unknown {key} '{value}': {consequence}",
        key,
        hint=f"did you mean '{guess}'?" if guess else "one of: " + ", ".join(listed),
    )


def _check_kinds(ctx: LayerContext, gaussian: bool) -> None:
    if ctx.pj:
        return
    _check_kind(ctx, "iou_loss", _AB_IOU_LOSS, "IOU without a message")
    _check_kind(ctx, "iou_thresh_kind", _THRESH_KINDS, "iou")
    _check_kind(ctx, "nms_kind", _NMS_GAUSSIAN if gaussian else _NMS_YOLO, "default")
    if gaussian:
        _check_kind(ctx, "yolo_point", _YOLO_POINTS, "center without a message")


# --- [yolo] and [Gaussian_yolo] ---------------------------------------------------------------
def _yolo_like(ctx: LayerContext, coords: int, gaussian: bool) -> HeadInfo:
    """make_yolo_layer / make_gaussian_yolo_layer: w x h x n*(classes + coords + 1)."""
    v = ctx.v
    classes, num = v.int("classes"), v.int("num")
    mask = _mask(ctx, num)
    n = len(mask)
    channels = n * (classes + coords + 1)
    ctx.output(ctx.w, ctx.h, channels)
    what = f"classes={classes} and {n} mask{'s' if n != 1 else ''}"
    per = f"{n}*({classes}+{coords + 1})"
    check_channels(ctx, f"{what} ({per})", channels, _per_anchor_hint(ctx, n, coords + 1))
    _check_mask(ctx, mask, num)
    overflows = gaussian or ctx.dialect is not Dialect.AB
    anchors = _check_anchors(ctx, num, overflows, mask)
    if not ctx.pj:
        _check_counters(ctx, classes)
    _check_kinds(ctx, gaussian)
    head = ctx.layer.head = HeadInfo(classes, num, mask, anchors, (n, coords + 1))
    return head


def build_yolo(ctx: LayerContext) -> None:
    head = _yolo_like(ctx, 4, gaussian=False)
    _check_max_boxes(ctx, 90)
    if not ctx.pj:
        size = _embedding(ctx, len(head.mask))
        if size is not None:
            ctx.layer.head = HeadInfo(head.classes, head.num, head.mask, head.anchors,
                                      head.per_anchor, embedding_size=size)


def _check_max_boxes(ctx: LayerContext, slot: int) -> None:
    """[pj] the truth slot is fixed (90 boxes for yolo, 30 for region); max is not."""
    boxes = ctx.v.int("max")
    if ctx.pj and boxes > slot:
        ctx.report(
            "DN405",
            f"max={boxes}: the original Darknet keeps room for {slot} truth boxes per image in "
            f"[{ctx.values.section.name}] but loads max boxes into it (heap overflow in "
            "training)",
            "max",
            hint=f"use max={slot} or fewer",
        )


def _embedding(ctx: LayerContext, n: int) -> int | None:
    """[ab] ``embedding_layer``: embedding_size = filters of that layer / n (parse_yolo);
    ``None`` when there is none to compute."""
    if not ctx.v.given("embedding_layer"):
        return None
    target = ctx.resolve(ctx.v.int("embedding_layer"), "embedding_layer")
    if target is None:
        ctx.layer.broken = True
        return None
    filters = ctx.target(target).filters
    if filters is None or n <= 0:
        return None
    if filters % n:
        ctx.report(
            "DN417",
            f"embedding_layer {target} has filters={filters}, not a multiple of the {n} "
            f"anchors of this head: the embedding size is floored to {filters // n}",
            "embedding_layer",
            severity=Severity.ERROR if ctx.dialect is Dialect.HANK else None,
        )
    return filters // n


def build_gaussian_yolo(ctx: LayerContext) -> None:
    _yolo_like(ctx, 8, gaussian=True)


# --- [region] -------------------------------------------------------------------------------
def build_region(ctx: LayerContext) -> None:
    """make_region_layer: w x h x num*(classes + coords + 1); no mask, every anchor used."""
    v = ctx.v
    classes, num, coords = v.int("classes"), v.int("num"), v.int("coords")
    channels = num * (classes + coords + 1)
    ctx.output(ctx.w, ctx.h, channels)
    check_channels(
        ctx,
        f"num={num}, classes={classes} and coords={coords} ({num}*({classes}+{coords}+1))",
        channels,
        _per_anchor_hint(ctx, num, coords + 1),
    )
    anchors = _check_anchors(ctx, num, overflows=ctx.pj)
    _check_max_boxes(ctx, 30)
    ctx.layer.head = HeadInfo(classes, num, range(max(num, 0)), anchors, (num, coords + 1))


# --- [detection] ----------------------------------------------------------------------------
def build_detection(ctx: LayerContext) -> None:
    """make_detection_layer: flat; asserts side*side*((1+coords)*num + classes) == inputs."""
    v = ctx.v
    side, coords, num, classes = v.int("side"), v.int("coords"), v.int("num"), v.int("classes")
    expected = side * side * ((1 + coords) * num + classes)
    ctx.layer.stored_input = (side, side, 0)  # make_detection_layer stores w = h = side, c = 0
    ctx.output(0, 0, 0, outputs=ctx.inputs)
    ctx.layer.head = HeadInfo(classes, num)
    if expected == ctx.inputs:
        return
    ctx.layer.broken = True
    before = _previous(ctx)
    if before is not None and before.broken:
        return  # reported at the broken layer before
    ctx.report(
        "DN401",
        f"[detection] with side={side}, coords={coords}, num={num} and classes={classes} needs "
        f"{side}*{side}*((1+{coords})*{num}+{classes}) = {expected} inputs but receives "
        f"{ctx.inputs}; Darknet aborts on its assert",
        _first_given(ctx, ("classes", "side", "num")),
        hint=_detection_hint(ctx, expected),
    )


def _detection_hint(ctx: LayerContext, expected: int) -> str | None:
    before = _previous(ctx)
    if before is None:
        return None
    if before.type == "connected":
        return f"set output={expected} at line {_key_line(before, 'output')}"
    if before.type == "convolutional" and ctx.w * ctx.h and expected % (ctx.w * ctx.h) == 0:
        return f"set filters={expected // (ctx.w * ctx.h)} at line {_key_line(before, 'filters')}"
    return None


# --- registration ---------------------------------------------------------------------------
register(LayerType("yolo", {d: ("yolo",) for d in ALL}, YOLO_OPTIONS, build_yolo,
                   doc="YOLOv3+ detection head"))
register(LayerType("gaussian_yolo", {d: ("Gaussian_yolo",) for d in AB_AND_HANK},
                   GAUSSIAN_OPTIONS, build_gaussian_yolo, doc="Gaussian YOLOv3 head"))
register(LayerType("region", {d: ("region",) for d in ALL}, REGION_OPTIONS, build_region,
                   doc="YOLOv2 detection head"))
register(LayerType("detection", {d: ("detection",) for d in PJ_AND_AB}, DETECTION_OPTIONS,
                   build_detection, doc="YOLOv1 detection head"))
