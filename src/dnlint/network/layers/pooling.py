"""``[maxpool]``, ``[local_avgpool]`` and ``[avgpool]``: parse_maxpool, parse_local_avgpool,
parse_avgpool and make_maxpool_layer/make_avgpool_layer of both forks."""

from __future__ import annotations

from dnlint.dialects import AB_AND_HANK, ALL, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import LayerContext, LayerType
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Int, Opt

_POOL_OPTIONS: tuple[Opt, ...] = (
    Int("stride", 1, doc="0 divides by zero; negative strides are reported by the shape"),
    Int("stride_x", None, only=AB_AND_HANK, doc="defaults to stride"),
    Int("stride_y", None, only=AB_AND_HANK, doc="defaults to stride"),
    Int("size", None, min=1, doc="pool window; defaults to stride"),
    Int("padding", None, min=0, doc="total padding; defaults to size - 1"),
)

MAXPOOL_OPTIONS = (
    *_POOL_OPTIONS,
    Int("maxpool_depth", 0, only=AB_AND_HANK),
    Int("out_channels", 1, only=AB_AND_HANK, min=1),
    Int("antialiasing", 0, only=AB_AND_HANK, min=0),
    Int("maxpool_zero_nonmax", 0, only=AB_AND_HANK),
    *GENERIC_LAYER_OPTIONS,
)

LOCAL_AVGPOOL_OPTIONS = (*_POOL_OPTIONS, *GENERIC_LAYER_OPTIONS)

AVGPOOL_OPTIONS = GENERIC_LAYER_OPTIONS


def pool_out(ctx: LayerContext, extent: int, padding: int, size: int, stride: int,
             axis: str) -> int:
    """make_maxpool_layer: (extent + padding - size)/stride + 1, ``padding`` being the total."""
    numerator = extent + padding - size
    out = ctx.div(numerator, stride, f"the {axis} stride", "stride") + 1
    if numerator < 0 or out < 1:
        ctx.report(
            "DN307",
            f"output {axis} is {out} (({extent} + {padding} - {size})/{stride} + 1): the input "
            f"is too small for a {size}x{size} window",
            "size",
        )
        ctx.layer.broken = True
    return out


def _pool_params(ctx: LayerContext) -> tuple[int, int, int, int]:
    """(size, stride_x, stride_y, padding) with the defaults of parse_maxpool."""
    v = ctx.v
    stride = v.int("stride")
    sx, sy = stride, stride
    if not ctx.pj:
        sx, sy = v.int("stride_x", stride), v.int("stride_y", stride)
    size = v.int("size", stride)
    padding = v.int("padding", size - 1)
    return size, sx, sy, padding


def build_maxpool(ctx: LayerContext) -> None:
    build_pool(ctx, avgpool=False)


def build_local_avgpool(ctx: LayerContext) -> None:
    build_pool(ctx, avgpool=True)


def build_pool(ctx: LayerContext, avgpool: bool) -> None:
    v = ctx.v
    size, sx, sy, padding = _pool_params(ctx)
    depth = 0 if ctx.pj or avgpool else v.int("maxpool_depth")
    antialiasing = 0 if ctx.pj or avgpool else v.int("antialiasing")
    ctx.geometry(size=size, stride=(sx, sy))
    if not ctx.need_image():
        return
    run_sx, run_sy = (1, 1) if antialiasing else (sx, sy)
    if 0 in (sx, sy):
        key = "stride" if v.int("stride") == 0 else ("stride_x" if sx == 0 else "stride_y")
        ctx.div(1, 0, "the pool stride", key)
        return
    if depth:
        # [ab] maxpool_depth pools across channels: size and stride are not used
        out_w, out_h, out_c = ctx.w, ctx.h, v.int("out_channels")
    else:
        out_w = pool_out(ctx, ctx.w, padding, size, run_sx, "width")
        out_h = pool_out(ctx, ctx.h, padding, size, run_sy, "height")
        out_c = ctx.c
    ctx.output(out_w, out_h, out_c)
    if not ctx.pj:
        ctx.layer.bflops = size * size * ctx.c * out_h * out_w / 1e9
    if antialiasing:
        _blur(ctx, antialiasing, out_w, out_h, out_c, sx, sy)


def _blur(ctx: LayerContext, antialiasing: int, out_w: int, out_h: int, out_c: int,
          sx: int, sy: int) -> None:
    """[ab] make_maxpool_layer's blur layer: 3x3 (or 2x2 for antialiasing=2), padding 1 both
    times (unlike the convolutional blur, whose 2x2 kernel has padding 0)."""
    blur_size, blur_pad = (2, 1) if antialiasing == 2 else (3, 1)
    next_w = cdiv_out(ctx, out_w, blur_pad, blur_size, sx, "width")
    next_h = cdiv_out(ctx, out_h, blur_pad, blur_size, sy, "height")
    ctx.layer.next_shape = (next_w, next_h, out_c, next_w * next_h * out_c)


def cdiv_out(ctx: LayerContext, extent: int, pad: int, size: int, stride: int, axis: str) -> int:
    """The blur convolution's (extent + 2*pad - size)/stride + 1."""
    return pool_out(ctx, extent, 2 * pad, size, stride, axis)


def build_avgpool(ctx: LayerContext) -> None:
    """make_avgpool_layer: a global average, 1 x 1 x c."""
    if not ctx.need_image():
        return
    ctx.output(1, 1, ctx.c, outputs=ctx.c)


register(
    LayerType(
        "maxpool",
        {d: ("max", "maxpool") for d in ALL},
        MAXPOOL_OPTIONS,
        build_maxpool,
        doc="max pooling",
    )
)
register(
    LayerType(
        "local_avgpool",
        {Dialect.AB: ("local_avg", "local_avgpool"), Dialect.HANK: ("local_avg", "local_avgpool")},
        LOCAL_AVGPOOL_OPTIONS,
        build_local_avgpool,
        doc="windowed average pooling",
    )
)
register(
    LayerType(
        "avgpool",
        {d: ("avg", "avgpool") for d in ALL},
        AVGPOOL_OPTIONS,
        build_avgpool,
        doc="global average pooling",
    )
)
