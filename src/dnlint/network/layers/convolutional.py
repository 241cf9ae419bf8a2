"""``[convolutional]``/``[conv]``: parse_convolutional + make_convolutional_layer of both forks."""

from __future__ import annotations

from dnlint.dialects import ALL, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import Block, LayerContext, LayerType, shared_geometry
from dnlint.network.layers.facts import Geometry
from dnlint.options.schema import (
    AB_AND_HANK,
    GENERIC_LAYER_OPTIONS,
    Activation,
    Float,
    Int,
    Ref,
)
from dnlint.options.value_checks import remember

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from dnlint.read.section_text import SectionText

OPTIONS = (
    Int("filters", 1, min=1, doc="number of output channels"),
    Int("size", 1, min=1, doc="kernel size"),
    Int("stride", 1),  # 0 is DN305 (SIGFPE), negative strides collapse the output (DN307)
    Int("stride_x", -1, only=AB_AND_HANK),
    Int("stride_y", -1, only=AB_AND_HANK),
    Int("pad", 0, doc="non-zero: padding = size/2"),
    Int("padding", 0, min=0),
    Int("groups", 1, min=1),
    Int("dilation", 1, only=AB_AND_HANK, min=1),
    Activation("logistic"),
    Int("batch_normalize", 0),
    Int("cbn", 0, only=AB_AND_HANK),
    Int("binary", 0),
    Int("xnor", 0),
    Int("flipped", 0),
    Float("dot", 0.0),
    Int("antialiasing", 0, only=AB_AND_HANK, min=0, max=2),
    Ref("share_index", only=AB_AND_HANK),
    Int("bin_output", 0, only=AB_AND_HANK),
    Int("sway", 0, only=AB_AND_HANK),
    Int("rotate", 0, only=AB_AND_HANK),
    Int("stretch", 0, only=AB_AND_HANK),
    Int("stretch_sway", 0, only=AB_AND_HANK),
    Int("grad_centr", 0, only=AB_AND_HANK),
    Int("coordconv", 0, only=AB_AND_HANK),
    Float("assisted_excitation", 0.0, only=AB_AND_HANK),
    Float("angle", 15.0, only=AB_AND_HANK),
    Float("reverse", 0.0, only=AB_AND_HANK),
    Int("stream", -1, only=AB_AND_HANK),
    Int("wait_stream", -1, only=AB_AND_HANK),
    *GENERIC_LAYER_OPTIONS,
)


_RECORDS: Final[dict[tuple[int, int, int, int, bool], tuple[Block, ...]]] = {}


def conv_record(cin: int, n: int, size: int, groups: int, bn: bool) -> tuple[Block, ...]:
    """The K(cin, n, k, g, bn) record: biases, [BN scales, mean, variance], weights.

    Cached (up to MEMO_SIZE): blocks are never changed once built, and a network repeats the
    same few records (five blocks per layer were a quarter of a stock cfg's memory per input
    byte)."""
    key = (cin, n, size, groups, bn)
    found = _RECORDS.get(key)
    if found is None:
        found = remember(_RECORDS, key, _conv_blocks(cin, n, size, groups, bn))
    return found


def _conv_blocks(cin: int, n: int, size: int, groups: int, bn: bool) -> tuple[Block, ...]:
    weights = Block("weights", (cin // groups) * n * size * size if groups else 0)
    if bn:
        return (Block("biases", n), Block("scales", n), Block("rolling_mean", n),
                Block("rolling_variance", n), weights)
    return Block("biases", n), weights


def conv_out(ctx: LayerContext, extent: int, pad: int, size: int, stride: int, axis: str) -> int:
    """(extent + 2*pad - size)/stride + 1 with C truncation; flags shapes that collapse."""
    numerator = extent + 2 * pad - size
    if stride > 0 and numerator >= 0:
        return numerator // stride + 1  # the common case: C and Python division agree
    out = ctx.div(numerator, stride, f"the {axis} stride") + 1
    if numerator < 0 or out < 1:
        ctx.report(
            "DN307",
            f"output {axis} is {out} (({extent} + 2*{pad} - {size})/{stride} + 1): the input is "
            f"too small for a {size}x{size} kernel; the network is too deep for this input size",
            "size",
        )
        ctx.layer.broken = True
    return out


def _groups(ctx: LayerContext, groups: int) -> int:
    if ctx.pj:
        if groups == 0:
            ctx.report("DN308", "groups=0: the original Darknet divides by it (SIGFPE)", "groups")
        return groups
    if ctx.v.get("xnor"):
        return 1
    return max(groups, 1)


def _check_groups(ctx: LayerContext, groups: int, filters: int) -> None:
    if groups <= 1:
        return
    if ctx.c % groups or filters % groups:
        ctx.report(
            "DN309",
            f"groups={groups} does not divide the {ctx.c} input channels and {filters} filters; "
            f"Darknet floors {ctx.c}/{groups} to {ctx.c // groups} channels per group",
            "groups",
        )


_DEFORMATIONS = ("sway", "rotate", "stretch", "stretch_sway")


def _check_deform(ctx: LayerContext, size: int) -> None:
    deform = [k for k in _DEFORMATIONS if ctx.v.get(k)]
    if len(deform) > 1:
        ctx.report(
            "DN314",
            f"{', '.join(deform)} are set together; AlexeyAB's Darknet allows only one of sway, "
            "rotate, stretch, stretch_sway",
            deform[1],
        )
    elif deform and size == 1:
        ctx.report(
            "DN314",
            f"{deform[0]}=1 needs size >= 3; AlexeyAB's Darknet stops with an error",
            deform[0],
        )


# What a convolution's build worked out, by its section's shared text, the dialect and its
# input (w, h, c, inputs): the kernel, the output, its size, BFLOPs and weight blocks
Built = tuple[Geometry, tuple[int, int, int], int, float, tuple[Block, ...]]
_BUILT: Final[dict[tuple[SectionText, Dialect, int, int, int, int], Built]] = {}


def build(ctx: LayerContext) -> None:
    """A convolution built once per text and input: a network repeats its blocks (61% of the
    stock cfgs' convolutions repeat an earlier one of the same file, text and input alike). A
    section the reader made from a shared text (:attr:`Section.text`) types to the same
    values, and this build reads nothing else but its input (no other layer, no [net]), so a
    build that reported nothing and set no rarer fact (share_index, antialiasing, numload,
    dontloadscales) is kept and handed to the next one of the same text and input."""
    text = ctx.v.section.text
    if text is None:
        _build(ctx)
        return
    key = (text, ctx.dialect, ctx.w, ctx.h, ctx.c, ctx.inputs)
    layer = ctx.layer
    found = _BUILT.get(key)
    if found is not None:
        geometry, output, outputs, bflops, saved = found
        layer.geometry = geometry
        layer.output = layer.input if output == layer.input else output
        layer.outputs = outputs
        layer.bflops = bflops
        layer.saved = saved
        return
    made = ctx.sink.made
    _build(ctx)
    kernel = layer.geometry
    if ctx.sink.made == made and not layer.broken and layer.facts is None and kernel is not None:
        remember(_BUILT, key, (kernel, layer.output, layer.outputs, layer.bflops, layer.saved))


def _build(ctx: LayerContext) -> None:
    """parse_convolutional + make_convolutional_layer."""
    d = ctx.v.merged()  # every option of the dialect, parsed or default (hot path: no getters)
    pj = ctx.pj
    # every one an Int option: typed, so the arithmetic and tests below are on C integers
    filters: int = d["filters"]
    size: int = d["size"]
    stride: int = d["stride"]
    sx = sy = stride
    pad_flag: int = d["pad"]
    padding: int = d["padding"]
    pad = size // 2 if pad_flag else padding
    groups: int = d["groups"]
    xnor: int = d["xnor"]
    if groups != 1 or xnor:
        groups = _groups(ctx, groups)
    batch_normalize: int = d["batch_normalize"]
    bn = batch_normalize != 0
    dilation = 1
    antialiasing = 0
    if not pj:
        stride_x: int = d["stride_x"]
        stride_y: int = d["stride_y"]
        if stride_x >= 1:
            sx = stride_x
        if stride_y >= 1:
            sy = stride_y
        if size != 1:
            dilation = d["dilation"]
        antialiasing = d["antialiasing"]
        cbn: int = d["cbn"]
        bn = bn or cbn != 0
        if d["sway"] or d["rotate"] or d["stretch"] or d["stretch_sway"]:
            _check_deform(ctx, size)
    layer = ctx.layer
    layer.geometry = shared_geometry(filters, size, (sx, sy))  # ctx.geometry, inlined
    if not (ctx.w > 0 and ctx.h > 0 and ctx.c > 0) and not ctx.need_image():
        return
    _check_groups(ctx, groups, filters)
    if size % 2 == 0 and pad_flag:
        ctx.report(
            "DN310",
            f"even size={size} with pad=1 pads {size // 2} on each side, so the output grows by "
            "one pixel per stride",
            "size",
        )
    if dilation > 1 and size != 2 * pad + 1:
        ctx.report(
            "DN311",
            f"dilation={dilation} with size={size} and padding {pad}: Darknet declares the output "
            "from the undilated kernel but computes with the dilated one, so the buffers disagree",
            "dilation",
        )
    if sx == 0 or sy == 0:
        ctx.div(ctx.w, 0, "the output size (w + 2*pad - size)/stride", "stride")
        return
    run_sx, run_sy = (1, 1) if antialiasing else (sx, sy)
    # conv_out's common case inlined (a positive stride, a kernel that fits): a call per axis
    w, h = ctx.w, ctx.h
    numerator = w + 2 * pad - size
    out_w = (numerator // run_sx + 1 if run_sx > 0 and numerator >= 0
             else conv_out(ctx, w, pad, size, run_sx, "width"))
    numerator = h + 2 * pad - size
    out_h = (numerator // run_sy + 1 if run_sy > 0 and numerator >= 0
             else conv_out(ctx, h, pad, size, run_sy, "height"))
    shape = (out_w, out_h, filters)  # ctx.output, inlined
    layer.output = layer.input if shape == layer.input else shape
    layer.outputs = out_w * out_h * filters
    if antialiasing:
        blur_size, blur_pad = (2, 0) if antialiasing == 2 else (3, 1)
        next_w = conv_out(ctx, out_w, blur_pad, blur_size, sx, "width")
        next_h = conv_out(ctx, out_h, blur_pad, blur_size, sy, "height")
        layer.next_shape = (next_w, next_h, filters, next_w * next_h * filters)
    nweights = (ctx.c // groups) * filters * size * size if groups else 0
    layer.bflops = (2.0 * nweights * out_h * out_w) / 1e9 / (32 if xnor else 1)
    if not pj and ctx.v.given("share_index"):
        _shared(ctx, filters, size)
        return
    record = conv_record(ctx.c, filters, size, groups, bn)
    if (pj and d["numload"]) or (bn and d["dontloadscales"]):
        ctx.record(record, loaded=_loaded_record(ctx, filters, size, groups, bn, record))
    else:
        ctx.record(record)


def _loaded_record(
    ctx: LayerContext,
    filters: int,
    size: int,
    groups: int,
    bn: bool,
    record: tuple[Block, ...],
) -> tuple[Block, ...]:
    """load_convolutional_weights: ``numload`` [pj] and ``dontloadscales`` change what is read."""
    v = ctx.v
    count = filters
    if ctx.pj and v.int("numload"):
        count = v.int("numload")
        if count > filters:
            ctx.report(
                "DN501",
                f"numload={count} is larger than filters={filters}: the original Darknet reads "
                "past the end of the layer's arrays (heap overflow)",
                "numload",
            )
        record = conv_record(ctx.c, count, size, groups, bn)
    if bn and v.int("dontloadscales"):
        record = tuple(b for b in record if b.name not in {"scales", "rolling_mean",
                                                              "rolling_variance"})
    return record


def _shared(ctx: LayerContext, filters: int, size: int) -> None:
    """[ab] ``share_index``: the layer uses another layer's weights and stores none."""
    target = ctx.resolve(ctx.v.int("share_index"), "share_index")
    if target is None:
        ctx.layer.broken = True
        return
    other = ctx.target(target)
    same = (
        other.type == "convolutional"
        and other.filters == filters
        and other.size == size
        and other.input[2] == ctx.c
    )
    if not same:
        ctx.report(
            "DN304",
            f"share_index points at layer {target} ({other.type}), whose size, channels or "
            "filters differ; AlexeyAB's Darknet stops with an error",
            "share_index",
        )
    ctx.layer.shares = target


register(
    LayerType(
        "convolutional",
        {d: ("conv", "convolutional") for d in ALL},
        OPTIONS,
        build,
        doc="2-D convolution",
    )
)


# --- [deconvolutional] (pj only) and [local] --------------------------------------------------

DECONV_OPTIONS = (
    Int("filters", 1, min=1, doc="number of output channels"),
    Int("size", 1, min=1, doc="kernel size"),
    Int("stride", 1, min=1),
    Activation("logistic"),
    Int("batch_normalize", 0),
    Int("pad", 0, doc="non-zero: padding = size/2"),
    Int("padding", 0, min=0),
    *GENERIC_LAYER_OPTIONS,
)


def build_deconvolutional(ctx: LayerContext) -> None:
    """[pj] parse_deconvolutional + make_deconvolutional_layer: (w-1)*stride + size - 2*pad."""
    v = ctx.v
    filters, size, stride = v.int("filters"), v.int("size"), v.int("stride")
    pad = size // 2 if v.int("pad") else v.int("padding")
    ctx.geometry(filters=filters, size=size, stride=stride)
    if not ctx.need_image():
        return
    if size % 2 == 0 and v.int("pad"):
        ctx.report(
            "DN310",
            f"even size={size} with pad=1 pads {size // 2} on each side: the output is "
            f"(h-1)*{stride} instead of h*{stride}",
            "size",
        )
    out_w = (ctx.w - 1) * stride + size - 2 * pad
    out_h = (ctx.h - 1) * stride + size - 2 * pad
    if out_w < 1 or out_h < 1:
        ctx.report("DN307", f"the output is {out_w}x{out_h} ((w-1)*{stride} + {size} - 2*{pad})",
                   "padding" if v.given("padding") else "size")
        ctx.layer.broken = True
    ctx.output(out_w, out_h, filters)
    bn = bool(v.int("batch_normalize"))
    # the weights layout reports that the original's loader crashes on it (DN502)
    ctx.weights(*conv_record(ctx.c, filters, size, 1, bn))


LOCAL_OPTIONS = (
    Int("filters", 1, min=1, doc="number of output channels"),
    Int("size", 1, min=1, doc="kernel size"),
    Int("stride", 1, min=1),
    Int("pad", 0, min=0, doc="padding amount; the shape treats it as a flag"),
    Activation("logistic"),
    *GENERIC_LAYER_OPTIONS,
)


def build_local(ctx: LayerContext) -> None:
    """parse_local + make_local_layer: unshared weights for every output location."""
    v = ctx.v
    filters, size, stride, pad = v.int("filters"), v.int("size"), v.int("stride"), v.int("pad")
    ctx.geometry(filters=filters, size=size, stride=stride)
    if not ctx.need_image():
        return
    if pad and size != 2 * pad + 1:
        ctx.report(
            "DN330",
            f"pad={pad} with size={size}: local_out_height treats pad as 1 pixel of shrink, the "
            f"computation pads {pad} pixels, so the declared and computed shapes disagree",
            "pad",
        )
    shrink = 1 if pad else size  # local_out_height/local_out_width
    out_w = _local_out(ctx, ctx.w, shrink, stride, "width")
    out_h = _local_out(ctx, ctx.h, shrink, stride, "height")
    ctx.output(out_w, out_h, filters)
    locations = out_w * out_h
    ctx.weights(
        Block("biases", locations * filters),
        Block("weights", ctx.c * filters * size * size * locations),
    )


def _local_out(ctx: LayerContext, extent: int, shrink: int, stride: int, axis: str) -> int:
    out = ctx.div(extent - shrink, stride, f"the {axis} stride", "stride") + 1
    if stride and (extent - shrink < 0 or out < 1):
        ctx.report("DN307", f"output {axis} is {out}: the input is too small for size "
                   f"{ctx.v.int('size')}", "size")
        ctx.layer.broken = True
    return out


register(
    LayerType(
        "deconvolutional",
        {Dialect.PJ: ("deconv", "deconvolutional")},
        DECONV_OPTIONS,
        build_deconvolutional,
        doc="transposed 2-D convolution",
    )
)
register(
    LayerType(
        "local",
        {Dialect.PJ: ("local",), Dialect.AB: ("local",)},
        LOCAL_OPTIONS,
        build_local,
        doc="locally connected (unshared) convolution",
    )
)
