"""Layers that keep the flat ``inputs``: ``[dropout]``, ``[activation]``, ``[logistic]`` (pj),
``[empty]``/``[silence]`` (ab), ``[softmax]`` and ``[cost]`` (parse_dropout, parse_activation,
parse_logistic, the EMPTY branch of parse_network_cfg, parse_softmax, parse_cost)."""

from __future__ import annotations

import math

from dnlint.dialects import AB_AND_HANK, AB_ONLY, ALL, PJ_ONLY, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import LayerContext, LayerType
from dnlint.network.layers.route import already_reported
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Activation, Enum, Float, Int, Str

DROPOUT_OPTIONS = (
    Float("probability", {Dialect.PJ: 0.5, Dialect.AB: 0.2, Dialect.HANK: 0.2},
          doc="fraction of inputs dropped while training"),
    Int("dropblock", 0, only=AB_AND_HANK),
    Float("dropblock_size_rel", 0.0, only=AB_AND_HANK, min=0),
    Float("dropblock_size_abs", 0.0, only=AB_AND_HANK, min=0, doc="read as float, kept as int"),
    *GENERIC_LAYER_OPTIONS,
)
ACTIVATION_OPTIONS = (Activation("linear"), *GENERIC_LAYER_OPTIONS)
NO_OPTIONS = GENERIC_LAYER_OPTIONS
SOFTMAX_OPTIONS = (
    Int("groups", 1),
    Float("temperature", 1.0),
    Str("tree", path=True, doc="softmax tree file (hierarchical classes)"),
    Float("spatial", 0.0),
    Int("noloss", 0),
    *GENERIC_LAYER_OPTIONS,
)
_PJ_COSTS = ("sse", "masked", "smooth", "seg", "L1", "wgan")
_AB_COSTS = ("sse", "masked", "smooth")
_HANK_COSTS = ("sse", "masked", "smooth", "l1", "seg", "wgan")  # all_names_and_cost_types
COST_OPTIONS = (
    Enum("type", {Dialect.PJ: _PJ_COSTS, Dialect.AB: _AB_COSTS, Dialect.HANK: _HANK_COSTS},
         "sse"),
    Float("scale", 1.0),
    Float("ratio", 0.0),
    Float("noobj", 1.0, only=PJ_ONLY),
    Float("thresh", 0.0, only=PJ_ONLY),
    *GENERIC_LAYER_OPTIONS,
)


def keep_carried(ctx: LayerContext) -> None:
    """Out dims = carried dims (possibly 0), outputs = the carried flat inputs."""
    ctx.output(ctx.w, ctx.h, ctx.c, outputs=ctx.inputs)


def _not_first(ctx: LayerContext) -> None:
    if ctx.index == 0:
        ctx.report(
            "DN324",
            f"[{ctx.v.section.name}] is the first layer: it reuses the previous layer's buffers "
            "and Darknet reads layer -1, which does not exist",
        )
        ctx.layer.broken = True


def build_dropout(ctx: LayerContext) -> None:
    v = ctx.v
    _not_first(ctx)
    probability = v.float("probability")
    if not 0.0 <= probability < 1.0:
        ctx.report(
            "DN325",
            f"probability={probability:g}: Darknet scales the kept inputs by 1/(1 - p) = "
            + ("infinity" if probability == 1.0 else f"{_scale(probability)}"),
            "probability",
        )
    flat = not (ctx.w > 0 and ctx.h > 0 and ctx.c > 0)
    if not ctx.pj and v.int("dropblock") and flat:
        # Darknet stops here whether or not the flat input is an earlier error's consequence
        # (then only that error is reported)
        ctx.layer.broken = True
        if not already_reported(ctx):
            ctx.report(
                "DN326",
                f"dropblock=1 on a {ctx.w}x{ctx.h}x{ctx.c} input: {ctx.dialect.label} stops "
                "with 'DropBlock - there must be positive values'",
                "dropblock",
            )
    if not ctx.pj:
        _check_dropblock_sizes(ctx)
    keep_carried(ctx)
    if ctx.pj or not v.int("dropblock"):
        ctx.layer.stored_input = (0, 0, 0)  # make_dropout_layer sets l.w, l.h only for DropBlock


def _check_dropblock_sizes(ctx: LayerContext) -> None:
    """[ab] parse_dropout clamps an absolute size to the input and drops a relative one."""
    v = ctx.v
    written = v.float("dropblock_size_abs")
    if not math.isfinite(written):
        return  # inf/nan: C's (int) of it is undefined; the option stage reports the value
    size_abs = int(written)
    if ctx.w > 0 and ctx.h > 0 and (size_abs > ctx.w or size_abs > ctx.h):
        ctx.report(
            "DN332",
            f"dropblock_size_abs={size_abs} is larger than the {ctx.w}x{ctx.h} input: "
            f"{ctx.dialect.label} clamps it to {min(ctx.w, ctx.h)}",
            "dropblock_size_abs",
        )
        size_abs = min(ctx.w, ctx.h)
    if size_abs and v.float("dropblock_size_rel"):
        ctx.report(
            "DN332",
            f"dropblock_size_rel and dropblock_size_abs are both set: {ctx.dialect.label} uses "
            f"only dropblock_size_abs={size_abs}",
            "dropblock_size_rel",
        )


def _scale(probability: float) -> str:
    return f"{1.0 / (1.0 - probability):g}"


def build_empty(ctx: LayerContext) -> None:
    _not_first(ctx)
    keep_carried(ctx)


def build_softmax(ctx: LayerContext) -> None:
    """make_softmax_layer: outputs = inputs, no out dims; asserts inputs % groups == 0."""
    groups = ctx.v.int("groups")
    if groups == 0:
        ctx.div(ctx.inputs, 0, "inputs % groups", "groups")
    elif groups < 0 or ctx.inputs % groups:
        ctx.report(
            "DN323",
            f"groups={groups} does not divide the {ctx.inputs} inputs; make_softmax_layer "
            "asserts inputs % groups == 0",
            "groups",
        )
        ctx.layer.broken = True
    ctx.output(0, 0, 0, outputs=ctx.inputs)


def build_cost(ctx: LayerContext) -> None:
    ctx.output(0, 0, 0, outputs=ctx.inputs)
    ctx.layer.stored_input = (0, 0, 0)  # make_cost_layer leaves l.w, l.h, l.c at 0


register(LayerType("dropout", {d: ("dropout",) for d in ALL}, DROPOUT_OPTIONS, build_dropout,
                   doc="dropout (training only)"))
register(LayerType("active", {Dialect.PJ: ("activation",), Dialect.AB: ("activation",)},
                   ACTIVATION_OPTIONS, keep_carried, doc="an activation function alone"))
register(LayerType("logxent", {Dialect.PJ: ("logistic",)}, NO_OPTIONS, keep_carried,
                   doc="logistic activation with cross-entropy loss"))
register(LayerType("empty", {d: ("empty", "silence") for d in AB_ONLY}, NO_OPTIONS, build_empty,
                   doc="does nothing"))
register(LayerType("softmax", {d: ("soft", "softmax") for d in ALL}, SOFTMAX_OPTIONS,
                   build_softmax, doc="softmax over groups of inputs"))
register(LayerType("cost", {d: ("cost",) for d in ALL}, COST_OPTIONS, build_cost,
                   doc="a loss on the inputs"))
