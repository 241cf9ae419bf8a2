"""AlexeyAB's ``[history]`` (parse_history, make_history_layer in conv_lstm_layer.c) and
``[implicit]`` (parse_implicit, make_implicit_layer in representation_layer.c)."""

from __future__ import annotations

from dnlint.dialects import AB_ONLY
from dnlint.network.layers import register
from dnlint.network.layers.base import Block, LayerContext, LayerType
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Float, Int

HISTORY_OPTIONS = (
    Int("history_size", 4, min=1, doc="how many past inputs are stacked along the channels"),
    *GENERIC_LAYER_OPTIONS,
)

IMPLICIT_OPTIONS = (
    Float("mean", 0.0, doc="initial value of the learned weights"),
    Float("std", 0.2, min=0, doc="spread of the initial weights"),
    Int("filters", 128, min=1),
    Int("atoms", 1, min=1),
    *GENERIC_LAYER_OPTIONS,
)


def build_history(ctx: LayerContext) -> None:
    """w x h x c*history_size; no record."""
    size = ctx.v.int("history_size")
    if ctx.w <= 0 or ctx.h <= 0 or ctx.c <= 0:
        ctx.report(
            "DN374",
            f"[history] stacks images but receives {ctx.w}x{ctx.h}x{ctx.c} (flat {ctx.inputs}); "
            "Darknet does not check this and builds a zero-sized layer",
        )
        ctx.layer.broken = True
    ctx.output(ctx.w, ctx.h, ctx.c * size)


def build_implicit(ctx: LayerContext) -> None:
    """The input is ignored: 1 x atoms x filters learned values, stored as one weights block."""
    filters, atoms = ctx.v.int("filters"), ctx.v.int("atoms")
    ctx.layer.stored_input = (1, 1, 1)  # make_implicit_layer stores w = h = c = 1
    ctx.output(1, atoms, filters)
    ctx.geometry(filters=filters)
    ctx.weights(Block("weights", atoms * filters if atoms > 0 and filters > 0 else 0))


register(LayerType("history", {d: ("history",) for d in AB_ONLY}, HISTORY_OPTIONS,
                   build_history, doc="stacks the last inputs along the channels"))
register(LayerType("implicit", {d: ("implicit",) for d in AB_ONLY}, IMPLICIT_OPTIONS,
                   build_implicit, doc="learned constant tensor (YOLOR)"))
