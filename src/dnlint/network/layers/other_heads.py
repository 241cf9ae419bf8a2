"""The heads that do not box objects: ``[iseg]`` (the original Darknet's instance
segmentation) and ``[contrastive]`` (AlexeyAB's embedding loss): parse_iseg, parse_contrastive
and their make_*_layer. Neither stores weights.
"""

from __future__ import annotations

from dnlint.cnumbers import FLT_MAX
from dnlint.dialects import AB_AND_HANK, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import Layer, LayerContext, LayerType
from dnlint.network.layers.detection import check_channels
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Float, Int, Ref

ISEG_OPTIONS = (
    Int("classes", 20, min=0),
    Int("ids", 32, min=0),
    *GENERIC_LAYER_OPTIONS,
)

CONTRASTIVE_OPTIONS = (
    Int("classes", 1000, min=0),
    Ref("yolo_layer", default=0, doc="the [yolo] layer whose boxes are compared"),
    Float("temperature", 1.0),
    Float("cls_normalizer", 1.0),
    Float("max_delta", FLT_MAX),
    Int("contrastive_neg_max", 3),
    *GENERIC_LAYER_OPTIONS,
)


# --- [iseg] (original Darknet) --------------------------------------------------------------
def build_iseg(ctx: LayerContext) -> None:
    """make_iseg_layer: w x h x (classes + ids); asserts outputs == inputs."""
    classes, ids = ctx.v.int("classes"), ctx.v.int("ids")
    channels = classes + ids
    ctx.output(ctx.w, ctx.h, channels)
    alternative = None
    if ctx.c - ids >= 1:
        alternative = f"set classes={ctx.c - ids} (line {ctx.v.line_of('classes')[0]})"
    check_channels(ctx, f"classes={classes} and ids={ids} ({classes}+{ids})", channels,
                    alternative)


# --- [contrastive] (AlexeyAB's) -------------------------------------------------------------
def build_contrastive(ctx: LayerContext) -> None:
    """make_contrastive_layer: flat, outputs = inputs, out dims 0."""
    ctx.output(0, 0, 0, outputs=ctx.inputs)
    yolo = _contrastive_yolo(ctx)
    if yolo is None:
        return
    head = yolo.head
    n = (len(head.mask) if head is not None else 0) or 1
    cells = n * ctx.h * ctx.w
    size = ctx.div(ctx.inputs, cells, f"inputs/(anchors*h*w) = {ctx.inputs}/({n}*{ctx.h}*{ctx.w})")
    if not cells:
        return
    theirs = head.embedding_size if head is not None else 0
    if size != theirs:
        ctx.report(
            "DN416",
            f"the embedding size here is {ctx.inputs}/({n}*{ctx.h}*{ctx.w}) = {size} but the "
            f"[yolo] layer {yolo.index} has {theirs}"
            + ("" if theirs else " (it has no embedding_layer)")
            + f"; {ctx.dialect.label} stops with an error",
            "yolo_layer",
            hint="point the [yolo]'s embedding_layer and this layer's input at the same "
            "[convolutional]",
        )
    elif ctx.inputs % cells:
        ctx.report(
            "DN417",
            f"the {ctx.inputs} inputs are not a multiple of {n} anchors * {ctx.h}x{ctx.w}: the "
            f"embedding size is floored to {size}",
        )


def _contrastive_yolo(ctx: LayerContext) -> Layer | None:
    raw = ctx.v.int("yolo_layer")
    index = ctx.index + raw if raw < 0 else raw
    if index == 0:
        given = ctx.v.given("yolo_layer")
        ctx.report(
            "DN415",
            ("yolo_layer resolves to 0" if given else "no yolo_layer")
            + f": {ctx.dialect.label} dereferences a NULL layer (segmentation fault)",
            "yolo_layer" if given else None,
            hint="set yolo_layer to the [yolo] layer this layer belongs to, e.g. yolo_layer=-2",
        )
        ctx.layer.broken = True
        return None
    target = ctx.resolve(raw, "yolo_layer")
    if target is None:
        ctx.layer.broken = True
        return None
    other = ctx.target(target)
    if other.type != "yolo":
        ctx.report(
            "DN415",
            f"yolo_layer points at layer {target}, a {other.type} layer, not a [yolo]; "
            f"{ctx.dialect.label} stops with an error",
            "yolo_layer",
        )
        ctx.layer.broken = True
        return None
    return other


# --- registration ---------------------------------------------------------------------------
register(LayerType("iseg", {Dialect.PJ: ("iseg",)}, ISEG_OPTIONS, build_iseg,
                   doc="instance segmentation head"))
register(LayerType("contrastive", {d: ("contrastive",) for d in AB_AND_HANK},
                   CONTRASTIVE_OPTIONS, build_contrastive, doc="contrastive embedding loss"))
