"""Layers that rearrange an image: ``[upsample]``, ``[reorg]`` (pj REORG, ab REORG_OLD),
``[reorg3d]`` (ab REORG) and ``[crop]`` (parse_upsample, parse_reorg, parse_reorg_old,
parse_crop and their make_*_layer functions)."""

from __future__ import annotations

from dnlint.dialects import AB_AND_HANK, ALL, PJ_ONLY, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import LayerContext, LayerType, cdiv
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Float, Int

UPSAMPLE_OPTIONS = (
    Int("stride", 2, doc="scale factor; negative = downsample by |stride|"),
    Float("scale", 1.0),
    *GENERIC_LAYER_OPTIONS,
)
REORG_OPTIONS = (
    Int("stride", 1, doc="0 divides by zero (reported by the shape pass)"),
    Int("reverse", 0),
    Int("flatten", 0, only=PJ_ONLY),
    Int("extra", 0, only=PJ_ONLY, doc="extra outputs appended after the reorganized input"),
    *GENERIC_LAYER_OPTIONS,
)
CROP_OPTIONS = (
    Int("crop_height", 1, min=1),
    Int("crop_width", 1, min=1),
    Int("flip", 0),
    Float("angle", 0.0),
    Float("saturation", 1.0),
    Float("exposure", 1.0),
    Float("shift", 0.0),
    Int("noadjust", 0),
    *GENERIC_LAYER_OPTIONS,
)


def build_upsample(ctx: LayerContext) -> None:
    """make_upsample_layer: w*s x h*s, or w/|s| x h/|s| for a negative stride. No image check."""
    stride = ctx.v.int("stride")
    w, h, c = ctx.w, ctx.h, ctx.c
    ctx.geometry(stride=stride)
    if stride == 0:
        ctx.report(
            "DN307",
            "stride=0 makes the output 0x0: the next image layer stops or reads nothing",
            "stride",
        )
        ctx.layer.broken = True
    if stride < 0:
        factor = -stride
        _check_divisible(ctx, [("width", w), ("height", h)], factor, "downsample")
        out_w, out_h = cdiv(w, factor), cdiv(h, factor)
        if out_w < 1 or out_h < 1:
            ctx.report("DN307", f"downsampling {w}x{h} by {factor} gives {out_w}x{out_h}",
                       "stride")
            ctx.layer.broken = True
        ctx.output(out_w, out_h, c)
    else:
        ctx.output(w * stride, h * stride, c)


def _check_divisible(ctx: LayerContext, sizes: list[tuple[str, int]], by: int, what: str) -> None:
    """S24: sizes the stride does not divide are floored silently."""
    bad = [f"{name} {size}" for name, size in sizes if size % by]
    if bad:
        ctx.report(
            "DN328",
            f"{', '.join(bad)} not divisible by {by}: the {what} floors it and drops the rest",
            "stride",
        )


def build_reorg(ctx: LayerContext) -> None:
    """make_reorg_layer / make_reorg_old_layer: space-to-depth (or its reverse)."""
    v = ctx.v
    stride, reverse = v.int("stride"), v.int("reverse")
    ctx.geometry(stride=stride)
    if not ctx.need_image():
        return
    w, h, c = ctx.w, ctx.h, ctx.c
    if reverse:
        square = stride * stride
        _check_divisible(ctx, [("channels", c)], square, "reverse reorg")
        ctx.output(w * stride, h * stride, ctx.div(c, square, "channels / stride^2", "stride"))
    else:
        out_w = ctx.div(w, stride, "width / stride", "stride")
        out_h = ctx.div(h, stride, "height / stride", "stride") if stride else 0
        if stride:
            _check_divisible(ctx, [("width", w), ("height", h)], stride, "reorg")
        ctx.output(out_w, out_h, c * stride * stride)
    out_w, out_h = ctx.layer.output[:2]
    extra = v.int("extra") if ctx.pj else 0
    if extra:
        # [pj] make_reorg_layer: extra makes the layer flat, outputs = inputs + extra
        ctx.output(0, 0, 0, outputs=w * h * c + extra)
    if stride and (out_w < 1 or out_h < 1):
        ctx.report(
            "DN307",
            f"the output is {out_w}x{out_h}: a {w}x{h} input is smaller than stride={stride}",
            "stride",
        )
        ctx.layer.broken = True


def build_crop(ctx: LayerContext) -> None:
    """make_crop_layer: crop_width x crop_height x c. Nothing checks that the crop fits."""
    v = ctx.v
    cw, ch = v.int("crop_width"), v.int("crop_height")
    if not ctx.need_image():
        return
    too_big = [(k, size, have) for k, size, have in (("crop_width", cw, ctx.w),
                                                    ("crop_height", ch, ctx.h)) if size > have]
    for key, size, have in too_big:
        ctx.report(
            "DN327",
            f"{key}={size} is larger than the input's {have}: the crop offset goes negative and "
            "Darknet reads outside the image",
            key,
        )
    ctx.output(cw, ch, ctx.c)


register(LayerType("upsample", {d: ("upsample",) for d in ALL}, UPSAMPLE_OPTIONS,
                   build_upsample, doc="nearest-neighbour up- (or down-) sampling"))
register(LayerType("reorg", {Dialect.PJ: ("reorg",), **{d: ("reorg3d",) for d in AB_AND_HANK}},
                   REORG_OPTIONS, build_reorg, doc="space-to-depth reorganization"))
# [ab] [reorg] is the old variant; flatten/extra stay declared (pj only) so that a pj cfg read
# as ab is told they are ignored.
register(LayerType("reorg_old", {Dialect.AB: ("reorg",)}, REORG_OPTIONS, build_reorg,
                   doc="space-to-depth reorganization (the old AlexeyAB variant)"))
register(LayerType("crop", {Dialect.PJ: ("crop",), Dialect.AB: ("crop",)}, CROP_OPTIONS,
                   build_crop, doc="crop (and augment) the input"))
