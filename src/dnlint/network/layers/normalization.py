"""``[batchnorm]``, ``[normalization]``/``[lrn]`` and ``[l2norm]`` (pj): parse_batchnorm,
parse_normalization, parse_l2norm and their make_*_layer functions."""

from __future__ import annotations

from dnlint.dialects import Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import Block, LayerContext, LayerType
from dnlint.network.layers.passthrough import keep_carried
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Float, Int

NORMALIZATION_OPTIONS = (
    Float("alpha", 0.0001),
    Float("beta", 0.75),
    Float("kappa", 1.0),
    Int("size", 5, min=1),
    *GENERIC_LAYER_OPTIONS,
)


def build_batchnorm(ctx: LayerContext) -> None:
    """make_batchnorm_layer keeps the carried dims; its record is per carried channel:
    [pj] scales, rolling mean, rolling variance; [ab] biases first (load_batchnorm_weights)."""
    w, h, c = ctx.w, ctx.h, ctx.c
    ctx.output(w, h, c)
    stats = (Block("scales", c), Block("rolling_mean", c), Block("rolling_variance", c))
    if ctx.pj:
        ctx.weights(*stats)
    else:
        ctx.weights(Block("biases", c), *stats)


def build_normalization(ctx: LayerContext) -> None:
    """make_normalization_layer: local response normalization over the carried dims."""
    ctx.geometry(size=ctx.v.int("size"))
    ctx.output(ctx.w, ctx.h, ctx.c)


_BOTH = {Dialect.PJ: ("batchnorm",), Dialect.AB: ("batchnorm",)}
register(LayerType("batchnorm", _BOTH, GENERIC_LAYER_OPTIONS, build_batchnorm,
                   doc="batch normalization alone"))
register(LayerType("normalization", {d: ("lrn", "normalization") for d in (Dialect.PJ, Dialect.AB)},
                   NORMALIZATION_OPTIONS, build_normalization,
                   doc="local response normalization"))
register(LayerType("l2norm", {Dialect.PJ: ("l2norm",)}, GENERIC_LAYER_OPTIONS, keep_carried,
                   doc="L2 normalization of the inputs"))
