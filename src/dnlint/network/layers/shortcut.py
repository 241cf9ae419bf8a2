"""``[shortcut]`` (both forks), ``[scale_channels]`` and ``[sam]`` (ab): parse_shortcut,
parse_scale_channels, parse_sam and their make_*_layer functions."""

from __future__ import annotations

from dnlint.diagnostics import Severity
from dnlint.dialects import AB_AND_HANK, ALL, PJ_ONLY, Dialect
from dnlint.network.layers import register
from dnlint.network.layers.base import Block, Layer, LayerContext, LayerType
from dnlint.network.layers.route import already_reported, reference
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Activation, Enum, Float, Int, Ref

_AB_WEIGHTS = ("none", "per_feature", "per_layer", "per_channel")
_HANK_WEIGHTS = ("none", "per_feature", "per_channel")
_NORMALIZATIONS = ("none", "relu", "avg_relu", "softmax")

SHORTCUT_OPTIONS = (
    Ref("from", required=True, only=PJ_ONLY, doc="the layer to add (only one in this dialect)"),
    Ref("from", many=True, required=True, only=AB_AND_HANK, doc="the layers to add"),
    Activation("linear"),
    Float("alpha", 1.0, only=PJ_ONLY),
    Float("beta", 1.0, only=PJ_ONLY),
    Enum("weights_type", {Dialect.AB: _AB_WEIGHTS, Dialect.HANK: _HANK_WEIGHTS}, "none",
         only=AB_AND_HANK),
    Enum("weights_normalization", {d: _NORMALIZATIONS for d in AB_AND_HANK}, "none",
         only=AB_AND_HANK),
    *GENERIC_LAYER_OPTIONS,
)
_HANK_ONLY = frozenset({Dialect.HANK})
SCALE_CHANNELS_OPTIONS = (
    Ref("from", required=True, doc="the layer to scale"),
    Int("scale_wh", 0),
    Activation("linear"),
    *GENERIC_LAYER_OPTIONS,
)
SAM_OPTIONS = (
    Ref("from", required=True, doc="the layer to scale"),
    Activation("linear"),
    *GENERIC_LAYER_OPTIONS,
)


def build_shortcut(ctx: LayerContext) -> None:
    """Output = the carried shape, outputs = w*h*c (make_shortcut_layer)."""
    w, h, c = ctx.w, ctx.h, ctx.c
    if ctx.pj:
        raw = ctx.v.get("from")
        sources = [reference(ctx, int(raw), "from")] if raw is not None else []
        for source in sources:
            if not already_reported(ctx, source):
                _check_pj_ratio(ctx, source)
    else:
        raws = ctx.v.list("from") or []
        single = len(raws) == 1
        sources = [reference(ctx, int(raw), "from", single) for raw in raws]
        for source in sources:
            if not already_reported(ctx, source):
                _check_ab_size(ctx, source)
    if not sources:
        ctx.layer.broken = True  # DN211 already reported: Darknet segfaults
    ctx.layer.refs = [s.index for s in sources if s is not None]
    ctx.output(w, h, c)
    if not ctx.pj:
        _shortcut_weights(ctx, len(sources))


def _check_pj_ratio(ctx: LayerContext, source: Layer | None) -> None:
    """S11: shortcut_cpu asserts W1/W2 == H1/H2 and W2/W1 == H2/H1 (C division)."""
    w1, h1, _ = source.output if source else (0, 0, 0)
    w2, h2 = ctx.w, ctx.h
    if 0 in (w1, h1, w2, h2):
        ctx.report(
            "DN305",
            f"the shortcut adds a {w1}x{h1} layer onto a {w2}x{h2} input: shortcut_cpu divides "
            "by a zero side at the first forward pass (SIGFPE)",
            "from",
        )
        ctx.layer.broken = True
        return
    if w1 // w2 != h1 // h2 or w2 // w1 != h2 // h1:
        ctx.report(
            "DN317",
            f"from-layer {w1}x{h1} and input {w2}x{h2} are not an integer scale of each other: "
            "the original Darknet's shortcut_cpu asserts at the first forward pass",
            "from",
        )
        ctx.layer.broken = True


def _check_ab_size(ctx: LayerContext, source: Layer | None) -> None:
    """S12: [ab] parse_shortcut asserts every from-layer has the carried w and h."""
    w1, h1, c1 = source.output if source else (0, 0, 0)
    index = source.index if source else "?"
    if (w1, h1) != (ctx.w, ctx.h):
        ctx.report(
            "DN318",
            f"from-layer {index} is {w1}x{h1} but the input is {ctx.w}x{ctx.h}: "
            f"{ctx.dialect.label} asserts equal sizes in parse_shortcut (Makefile builds abort, "
            "release builds add misaligned data)",
            "from",
            "a shortcut across a strided layer needs a matching projection; the original "
            "Darknet's ResNet cfgs only build with --dialect pjreddie",
        )
        ctx.layer.broken = True
    elif c1 != ctx.c:
        ctx.report(
            "DN319",
            f"from-layer {index} has {c1} channels, the input {ctx.c}: only the first "
            f"{min(c1, ctx.c)} channels are added",
            "from",
        )


def _shortcut_weights(ctx: LayerContext, count: int) -> None:
    """[ab] weights_type: (n+1) weights per_feature, (n+1)*c per_channel (make_shortcut_layer);
    S13: the normalization check runs whenever weights_type is not none."""
    v = ctx.v
    kind = v.str("weights_type") or "none"
    normalization = v.str("weights_normalization") or "none"
    weighted = kind in ("per_feature", "per_layer", "per_channel")
    if weighted and ctx.dialect is Dialect.AB and normalization not in _NORMALIZATIONS[1:]:
        ctx.report(
            "DN320",
            f"weights_type={kind} with weights_normalization={normalization}: AlexeyAB's "
            "parse_shortcut accepts only relu, avg_relu or softmax here and stops with "
            "'Incorrect weights_normalization'",
            "weights_normalization" if v.given("weights_normalization") else "weights_type",
            "add weights_normalization=softmax (or relu, avg_relu)",
        )
    nweights = 0
    if kind in ("per_feature", "per_layer"):
        nweights = count + 1
    elif kind == "per_channel":
        nweights = (count + 1) * ctx.c
    ctx.weights(Block("weights", nweights))
    bflops = ctx.w * ctx.h * ctx.c * count / 1e9
    ctx.layer.bflops = bflops * 2 if kind != "none" else bflops


def _source(ctx: LayerContext) -> Layer | None:
    raw = ctx.v.get("from")
    if raw is None:
        ctx.layer.broken = True  # DN211 already reported: atoi(NULL) segfaults
        return None
    return reference(ctx, int(raw), "from")


def _check_activation(ctx: LayerContext) -> None:
    activation = ctx.v.str("activation")
    if activation in ("swish", "mish"):
        hank = ctx.dialect is Dialect.HANK
        ctx.report(
            "DN322",
            f"[{ctx.v.section.name}] does not support activation={activation}: "
            + ("hank-ai's Darknet stops" if hank else
               "AlexeyAB's Darknet says so and runs without the buffer it needs"),
            "activation",
            severity=Severity.ERROR if hank else None,
        )


def build_scale_channels(ctx: LayerContext) -> None:
    """make_scale_channels_layer: output = the from-layer's dims."""
    source = _source(ctx)
    _check_activation(ctx)
    if source is not None:
        _asserted(ctx, source, _scale_channels_problem(ctx, source.output))
    ctx.layer.refs = [source.index] if source else []
    ctx.output(*(source.output if source else (0, 0, 0)))


def _asserted(ctx: LayerContext, source: Layer | None, problem: str | None) -> None:
    """A shape make_*_layer asserts: the layer is broken whether or not the shapes are an
    earlier error's consequence (then only that error is reported)."""
    if problem is None:
        return
    ctx.layer.broken = True
    if not already_reported(ctx, source):
        ctx.report("DN321", f"{problem}; Darknet only asserts this (release builds read out "
                            "of bounds)", "from")


def _scale_channels_problem(ctx: LayerContext, source: tuple[int, int, int]) -> str | None:
    """What make_scale_channels_layer asserts and this layer breaks: a 1x1 input with the
    from-layer's channels, or, with scale_wh, a one-channel input of the from-layer's size."""
    w2, h2, c2 = source
    if ctx.v.int("scale_wh"):
        if ctx.c != 1:
            return f"the input has {ctx.c} channels, not 1 (scale_wh=1)"
        if (w2, h2) != (ctx.w, ctx.h):
            return f"the input is {ctx.w}x{ctx.h}, the from-layer {w2}x{h2}"
        return None
    if (ctx.w, ctx.h) != (1, 1):
        return f"the input is {ctx.w}x{ctx.h}, not 1x1 (scale_wh=0 scales whole channels)"
    if c2 != ctx.c:
        return f"the input has {ctx.c} channels, the from-layer {c2}"
    return None


def build_sam(ctx: LayerContext) -> None:
    """make_sam_layer: output = the from-layer's dims, which must equal the input's."""
    source = _source(ctx)
    _check_activation(ctx)
    shape = source.output if source else (0, 0, 0)
    if source is not None and shape != (ctx.w, ctx.h, ctx.c):
        w2, h2, c2 = shape
        _asserted(ctx, source, f"the from-layer is {w2}x{h2}x{c2}, the input "
                               f"{ctx.w}x{ctx.h}x{ctx.c}")
    ctx.layer.refs = [source.index] if source else []
    ctx.output(*shape)


register(LayerType("shortcut", {d: ("shortcut",) for d in ALL}, SHORTCUT_OPTIONS,
                   build_shortcut, doc="residual addition"))
register(LayerType("scale_channels", {d: ("scale_channels",) for d in AB_AND_HANK},
                   SCALE_CHANNELS_OPTIONS, build_scale_channels,
                   doc="multiply a layer by per-channel (or per-pixel) factors"))
register(LayerType("sam", {d: ("sam",) for d in AB_AND_HANK}, SAM_OPTIONS, build_sam,
                   doc="spatial attention: element-wise multiply"))
