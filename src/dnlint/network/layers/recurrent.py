"""Recurrent layers: ``[rnn]``, ``[gru]``, ``[lstm]``, ``[crnn]`` and AlexeyAB's ``[conv_lstm]``
(parse_rnn/gru/lstm/crnn/conv_lstm and make_*_layer of both forks).

Their weights are the records of their sub-layers, written back to back by save_weights_upto:
connected records for rnn/gru/lstm, convolutional records for crnn/conv_lstm. The forks write
the gru and lstm sub-layers in different orders (same totals), and differ in rnn (AlexeyAB's
``hidden``) and crnn (key names, kernel and the swapped width/height of the original).
"""

from __future__ import annotations

from dnlint.dialects import AB_AND_HANK, AB_ONLY, ALL, PJ_AND_AB, PJ_ONLY
from dnlint.network.layers import register
from dnlint.network.layers.base import Block, LayerContext, LayerType
from dnlint.network.layers.connected import connected_record
from dnlint.network.layers.convolutional import conv_out, conv_record
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Activation, Float, Int

# --- records ----------------------------------------------------------------------------------


def fc_record(prefix: str, inputs: int, outputs: int, bn: bool) -> tuple[Block, ...]:
    """A connected sub-layer's F(in, out, bn) record, named after the sub-layer."""
    return _named(prefix, connected_record(inputs, outputs, bn))


def _named(prefix: str, record: tuple[Block, ...]) -> tuple[Block, ...]:
    return tuple(Block(f"{prefix}.{b.name}", b.floats) for b in record)


def sub_conv(prefix: str, cin: int, n: int, size: int, groups: int, bn: bool) -> tuple[Block, ...]:
    """A sub-convolution's K(cin, n, size, groups, bn) record, named after the sub-layer."""
    return _named(prefix, conv_record(cin, n, size, groups, bn))


# --- options ----------------------------------------------------------------------------------

RNN_OPTIONS = (
    Int("output", 1, min=1),
    Int("hidden", 1, only=AB_AND_HANK, min=1, doc="size of the recurrent state"),
    Activation("logistic"),
    Int("batch_normalize", 0),
    Int("logistic", 0, only=AB_AND_HANK, min=0, max=2,
        doc="1: logistic, 2: loggy activation on the self connection"),
    Int("shortcut", 0),
    *GENERIC_LAYER_OPTIONS,
)

GRU_OPTIONS = (
    Int("output", 1, min=1),
    Int("batch_normalize", 0),
    Int("tanh", 0, only=PJ_ONLY),
    *GENERIC_LAYER_OPTIONS,
)

LSTM_OPTIONS = (
    Int("output", 1, min=1),
    Int("batch_normalize", 0),
    *GENERIC_LAYER_OPTIONS,
)

_AB_CONV_KEYS = (
    Int("size", 3, only=AB_AND_HANK, min=1),
    Int("stride", 1, only=AB_AND_HANK, min=1),
    Int("dilation", 1, only=AB_AND_HANK, min=1),
    Int("pad", 0, only=AB_AND_HANK, doc="non-zero: padding = size/2"),
    Int("padding", 0, only=AB_AND_HANK, min=0),
    Int("groups", 1, only=AB_AND_HANK, min=1),
    Int("xnor", 0, only=AB_AND_HANK),
)

CRNN_OPTIONS = (
    Int("output_filters", 1, only=PJ_ONLY, min=1),
    Int("hidden_filters", 1, only=PJ_ONLY, min=1),
    Int("output", 1, only=AB_AND_HANK, min=1),
    Int("hidden", 1, only=AB_AND_HANK, min=1),
    *_AB_CONV_KEYS,
    Activation("logistic"),
    Int("batch_normalize", 0),
    Int("shortcut", 0),
    *GENERIC_LAYER_OPTIONS,
)

CONV_LSTM_OPTIONS = (
    *_AB_CONV_KEYS,
    Int("output", 1, min=1),
    Activation("linear"),
    Activation("tanh", name="lstm_activation"),
    Int("batch_normalize", 0),
    Int("peephole", 0),
    Int("bottleneck", 0),
    Int("state_constrain", None, doc="default time_steps*32"),
    Int("shortcut", 0),
    Float("time_normalizer", 1.0),
    *GENERIC_LAYER_OPTIONS,
)


def _stores_no_image(ctx: LayerContext) -> None:
    """make_rnn/gru/lstm_layer leave l.w, l.h, l.c at 0: AlexeyAB's end-of-parse average
    (S29) does not count these layers, whatever they receive."""
    ctx.layer.stored_input = (0, 0, 0)


# --- [rnn] ----------------------------------------------------------------------------------
def build_rnn(ctx: LayerContext) -> None:
    """make_rnn_layer: three connected sub-layers input, self, output (BN flag on each)."""
    v = ctx.v
    output, bn = v.int("output"), bool(v.int("batch_normalize"))
    _stores_no_image(ctx)
    if ctx.pj:
        hidden = output
        ctx.output(0, 0, 0, outputs=output)
    else:
        hidden = v.int("hidden")
        ctx.output(1, 1, output)
        if not v.given("hidden") and output != 1:
            ctx.report(
                "DN373",
                f"no 'hidden': {ctx.dialect.label} gives this rnn a state of 1 value between "
                f"its {ctx.inputs} inputs and {output} outputs (the original Darknet uses "
                f"output={output})",
                hint=f"add hidden={output}",
            )
    ctx.weights(
        *fc_record("input_layer", ctx.inputs, hidden, bn),
        *fc_record("self_layer", hidden, hidden, bn),
        *fc_record("output_layer", hidden, output, bn),
    )


# --- [gru] ----------------------------------------------------------------------------------
def build_gru(ctx: LayerContext) -> None:
    """make_gru_layer: six linear connected sub-layers; out dims stay 0 in both forks."""
    v = ctx.v
    output, bn = v.int("output"), bool(v.int("batch_normalize"))
    _stores_no_image(ctx)
    ctx.output(0, 0, 0, outputs=output)
    state = [fc_record(f"w{g}", output, output, bn) for g in "zrh"]
    inputs = [fc_record(f"u{g}", ctx.inputs, output, bn) for g in "zrh"]
    # save_weights_upto: the original writes wz, wr, wh, uz, ur, uh; AlexeyAB's writes
    # input_z, input_r, input_h, then state_z, state_r, state_h.
    order = [*state, *inputs] if ctx.pj else [*inputs, *state]
    ctx.weights(*(b for record in order for b in record))


# --- [lstm] ---------------------------------------------------------------------------------
def build_lstm(ctx: LayerContext) -> None:
    """make_lstm_layer: eight linear connected sub-layers, W (state) before U (input)."""
    v = ctx.v
    output, bn = v.int("output"), bool(v.int("batch_normalize"))
    _stores_no_image(ctx)
    if ctx.pj:
        ctx.output(0, 0, 0, outputs=output)
    else:
        ctx.output(1, 1, output)
    gates = "ifog" if ctx.pj else "figo"  # save_weights_upto's gate order in each fork
    ctx.weights(
        *(b for g in gates for b in fc_record(f"w{g}", output, output, bn)),
        *(b for g in gates for b in fc_record(f"u{g}", ctx.inputs, output, bn)),
    )


# --- [crnn] ---------------------------------------------------------------------------------
def _flat_input(ctx: LayerContext) -> bool:
    """[crnn]/[conv_lstm]/[history] use w, h, c unchecked; a flat input gives empty layers."""
    if ctx.w > 0 and ctx.h > 0 and ctx.c > 0:
        return False
    ctx.layer.broken = True
    if ctx.layers and ctx.layers[-1].broken:
        return True  # reported at the broken layer before
    ctx.report(
        "DN374",
        f"[{ctx.values.section.name}] works on an image but receives {ctx.w}x{ctx.h}x{ctx.c} "
        f"(flat {ctx.inputs}); Darknet does not check this and builds a zero-sized layer",
    )
    return True


def build_crnn(ctx: LayerContext) -> None:
    if ctx.pj:
        _crnn_pj(ctx)
    else:
        _crnn_ab(ctx)


def _crnn_pj(ctx: LayerContext) -> None:
    """The original: three 3x3/1 pad 1 convs; parse_crnn swaps w and h (make_crnn_layer(h, w))."""
    v = ctx.v
    out_f, hid_f = v.int("output_filters"), v.int("hidden_filters")
    bn = bool(v.int("batch_normalize"))
    _flat_input(ctx)
    ctx.output(ctx.h, ctx.w, out_f)
    ctx.geometry(filters=out_f, size=3, stride=(1, 1))
    if ctx.w != ctx.h:
        ctx.report(
            "DN370",
            f"the original Darknet passes width and height to the crnn layer swapped: this "
            f"{ctx.w}x{ctx.h} input comes out {ctx.h}x{ctx.w}",
            hint="use a square input, or AlexeyAB's Darknet",
        )
    ctx.weights(
        *sub_conv("input_layer", ctx.c, hid_f, 3, 1, bn),
        *sub_conv("self_layer", hid_f, hid_f, 3, 1, bn),
        *sub_conv("output_layer", hid_f, out_f, 3, 1, bn),
    )
    _conv_bflops(ctx, ctx.w, ctx.h)


def _conv_geometry(ctx: LayerContext) -> tuple[int, int, int, int]:
    """(size, stride, padding, groups) of AlexeyAB's crnn/conv_lstm sub-convolutions."""
    v = ctx.v
    size, stride = v.int("size"), v.int("stride")
    padding = size // 2 if v.int("pad") else v.int("padding")
    groups = 1 if v.int("xnor") else max(v.int("groups"), 1)  # make_convolutional_layer
    return size, stride, padding, groups


def _spatial_out(ctx: LayerContext, size: int, stride: int, padding: int) -> tuple[int, int]:
    if ctx.w <= 0 or ctx.h <= 0:
        return 0, 0
    return (
        conv_out(ctx, ctx.w, padding, size, stride, "width"),
        conv_out(ctx, ctx.h, padding, size, stride, "height"),
    )


def _preserve_hint(size: int) -> str:
    if size % 2 == 0:
        return "use an odd size with pad=1 and stride=1"
    return "set pad=1 (padding = size/2) and stride=1"


def _crnn_ab(ctx: LayerContext) -> None:
    """AlexeyAB's: output/hidden/size/pad keys; asserts the convs keep the spatial size."""
    v = ctx.v
    out_f, hid_f = v.int("output"), v.int("hidden")
    bn = bool(v.int("batch_normalize"))
    size, stride, padding, groups = _conv_geometry(ctx)
    flat = _flat_input(ctx)
    out_w, out_h = _spatial_out(ctx, size, stride, padding)
    ctx.output(out_w, out_h, out_f)
    ctx.geometry(filters=out_f, size=size, stride=stride)
    if not flat and hid_f and (out_w, out_h) != (ctx.w, ctx.h):
        ctx.report(
            "DN371",
            f"the crnn convolutions turn {ctx.w}x{ctx.h} into {out_w}x{out_h} (size={size}, "
            f"stride={stride}, padding={padding}); AlexeyAB's make_crnn_layer asserts that they "
            "keep the size (abort, or garbage in release builds)",
            _first_given(ctx, ("pad", "padding", "size", "stride")),
            hint=_preserve_hint(size),
        )
        ctx.layer.broken = True
    ctx.weights(
        *sub_conv("input_layer", ctx.c, hid_f, size, groups, bn),
        *sub_conv("self_layer", hid_f, hid_f, size, groups, bn),
        *sub_conv("output_layer", hid_f, out_f, size, groups, bn),
    )
    _conv_bflops(ctx, out_w, out_h)


def _conv_bflops(ctx: LayerContext, out_w: int, out_h: int) -> None:
    """The sum of the sub-convolutions' 2*nweights*out_h*out_w (make_crnn/conv_lstm_layer)."""
    weights = sum(b.floats for b in ctx.layer.saved if b.name.endswith(".weights"))
    ctx.layer.bflops = 2.0 * weights * out_w * out_h / 1e9


def _first_given(ctx: LayerContext, keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if ctx.v.given(k)), None)


# --- [conv_lstm] (AlexeyAB's) ---------------------------------------------------------------
def build_conv_lstm(ctx: LayerContext) -> None:
    """make_conv_lstm_layer: U (input) convs, W (state) convs, optional V (peephole) convs."""
    v = ctx.v
    out_f = v.int("output")
    bn = bool(v.int("batch_normalize"))
    peephole, bottleneck = bool(v.int("peephole")), bool(v.int("bottleneck"))
    size, stride, padding, groups = _conv_geometry(ctx)
    flat = _flat_input(ctx)
    out_w, out_h = _spatial_out(ctx, size, stride, padding)
    ctx.output(out_w, out_h, out_f)
    ctx.geometry(filters=out_f, size=size, stride=stride)
    if not flat and (out_w, out_h) != (ctx.w, ctx.h):
        ctx.report(
            "DN372",
            f"the conv_lstm convolutions turn {ctx.w}x{ctx.h} into {out_w}x{out_h} (size="
            f"{size}, stride={stride}, padding={padding}), but its state convolutions run on "
            "that output as if it were the input size; nothing checks this and the buffers "
            "disagree",
            _first_given(ctx, ("pad", "padding", "size", "stride")),
            hint=_preserve_hint(size),
        )
        ctx.layer.broken = True
    blocks: list[Block] = []
    if peephole:  # save_weights_upto: vf, vi, vo, then wf[, wi, wg, wo], then uf, ui, ug, uo
        for g in "fio":
            blocks += sub_conv(f"v{g}", out_f, out_f, size, groups, bn)
    blocks += sub_conv("wf", 2 * out_f if bottleneck else out_f, out_f, size, groups, bn)
    if not bottleneck:
        for g in "igo":
            blocks += sub_conv(f"w{g}", out_f, out_f, size, groups, bn)
    for g in "figo":
        blocks += sub_conv(f"u{g}", ctx.c, out_f, size, groups, bn)
    ctx.weights(*blocks)
    _conv_bflops(ctx, out_w, out_h)


# --- registration ---------------------------------------------------------------------------
register(LayerType("rnn", {d: ("rnn",) for d in ALL}, RNN_OPTIONS, build_rnn,
                   doc="fully connected recurrent layer"))
register(LayerType("gru", {d: ("gru",) for d in PJ_AND_AB}, GRU_OPTIONS, build_gru,
                   doc="gated recurrent unit"))
register(LayerType("lstm", {d: ("lstm",) for d in ALL}, LSTM_OPTIONS, build_lstm,
                   doc="long short-term memory"))
register(LayerType("crnn", {d: ("crnn",) for d in ALL}, CRNN_OPTIONS, build_crnn,
                   doc="convolutional recurrent layer"))
register(LayerType("conv_lstm", {d: ("conv_lstm",) for d in AB_ONLY}, CONV_LSTM_OPTIONS,
                   build_conv_lstm, doc="convolutional LSTM"))
