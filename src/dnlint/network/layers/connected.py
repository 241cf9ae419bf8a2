"""``[connected]``/``[conn]``: parse_connected + make_connected_layer of both forks."""

from __future__ import annotations

from dnlint.dialects import ALL
from dnlint.network.layers import register
from dnlint.network.layers.base import Block, LayerContext, LayerType
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Activation, Int

OPTIONS = (
    Int("output", 1, min=1, doc="number of outputs"),
    Activation("logistic"),
    Int("batch_normalize", 0),
    *GENERIC_LAYER_OPTIONS,
)

_BN = ("scales", "rolling_mean", "rolling_variance")


def connected_record(inputs: int, output: int, bn: bool) -> tuple[Block, ...]:
    """The F(in, out, bn) record: biases, weights, then the BN values (after the weights,
    unlike convolutional; save_connected_weights)."""
    blocks = [Block("biases", output), Block("weights", inputs * output)]
    if bn:
        blocks += [Block(name, output) for name in _BN]
    return tuple(blocks)


def build(ctx: LayerContext) -> None:
    """The input is flat: an image input is flattened to its ``outputs``."""
    v = ctx.v
    output = v.int("output")
    bn = bool(v.int("batch_normalize"))
    ctx.output(1, 1, output, outputs=output)
    # make_connected_layer stores l.w = l.h = 1 whatever it receives: AlexeyAB's end-of-parse
    # average (S29) never counts it
    ctx.layer.stored_input = (1, 1, ctx.inputs)
    record = connected_record(ctx.inputs, output, bn)
    loaded = record
    if bn and v.int("dontloadscales"):
        # load_connected_weights skips the BN values the writer stored
        loaded = tuple(b for b in record if b.name not in _BN)
    ctx.weights(*record, loaded=loaded)


register(
    LayerType(
        "connected",
        {d: ("conn", "connected") for d in ALL},
        OPTIONS,
        build,
        doc="fully connected",
    )
)
