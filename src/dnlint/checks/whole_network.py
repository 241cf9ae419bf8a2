"""Checks over the whole built network (§silent-shapes: S29, S30, S32, ...)."""

from __future__ import annotations

from dnlint.checks.head_agreement import (
    check_anchors_agree,
    check_classes_agree,
    check_mask_order,
    check_masks,
)
from dnlint.checks.input_size import check_input_size
from dnlint.checks.net_surprises import check_unreached_steps, check_whole_batch
from dnlint.checks.shifted import check_shifted_shares
from dnlint.checks.truth_slot import check_truth_stride
from dnlint.diagnostics import Severity, Sink, replace
from dnlint.dialects import Dialect
from dnlint.network.layers.route import FLAT_TYPES
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dnlint.network.build import Network
    from dnlint.network.layers.base import Layer


def check_network(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    for check in NETWORK_CHECKS:
        check(network, doc, dialect, sink)


def check_has_layers(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    if network.layers:
        return
    net = doc.sections[0]
    consequence = {
        Dialect.PJ: "the original Darknet reads the layer before its array",
        Dialect.AB: "AlexeyAB's Darknet then divides by zero (SIGFPE)",
        Dialect.HANK: "hank-ai's Darknet stops: 'cannot create a network from empty "
                      "configuration file'",
    }[dialect]
    sink.report("DN005", net.line, net.column,
                f"[{net.name}] is not followed by any layer: {consequence}")


def check_avg_outputs(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """S29: [ab] averages outputs over the layers whose own l.w and l.h, as their make_*_layer
    stores them, exceed 1 (the avg_counter loop of parse_network_cfg_custom): a connected
    layer stores 1x1, [rnn], [lstm], [gru], [cost] and a plain [dropout] 0x0, whatever they
    receive, and the zeroed layer of an unknown section 0x0.

    When that zeroed layer is why the parse reaches the division (every other layer builds),
    the crash is its consequence: said in the unknown section's own error, not as a DN313 of
    its own (one root cause, one error)."""
    if dialect is Dialect.PJ or not network.layers:
        return
    if any(layer.broken and not layer.unknown for layer in network.layers.built()):
        return  # Darknet stops (or misbuilds) at the broken layer first: that is the root
    if any(w > 1 and h > 1 for w, h, _ in (layer.dims_stored for layer in network.layers.built())):
        return
    zeroed = next((layer for layer in network.layers if layer.unknown), None)
    if zeroed is not None:
        if dialect is Dialect.AB:  # hank-ai's Darknet stops at the unknown name itself
            _name_the_crash(zeroed, sink)
        return
    net = doc.sections[0]
    sink.report(
        "DN313",
        net.line,
        net.column,
        f"no layer is wider and taller than 1 (connected, recurrent and cost layers count as "
        f"1x1 or 0x0 whatever they receive): {dialect.label} divides by the number of such "
        "layers at the end of parse_network_cfg and dies of SIGFPE",
        "add a layer on an image input (convolutional, maxpool, ...) or build it with the "
        "original Darknet (--dialect pjreddie)",
    )


def _name_the_crash(zeroed: Layer, sink: Sink) -> None:
    """Add to the error on the zeroed layer's section (unknown, of the other fork, a second
    [net], a malformed header) that AlexeyAB's Darknet dies of it at the end of the parse."""
    for at, diagnostic in enumerate(sink.items):
        if diagnostic.line == zeroed.line and diagnostic.severity is Severity.ERROR \
                and diagnostic.code.startswith("DN0"):
            sink.items[at] = replace(diagnostic, message=(
                f"{diagnostic.message}; that layer is 0x0 and no other is wider and taller "
                "than 1, so AlexeyAB's Darknet then divides by zero at the end of "
                "parse_network_cfg (avg_outputs / avg_counter) and dies of SIGFPE"))
            return


def check_cost_is_last(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """A [cost] layer's output holds its per-value errors, not the predictions it received."""
    layers = network.layers
    for layer in layers.built():
        if layer.type != "cost" or layer.index == len(layers) - 1:
            continue
        after = layers[layer.index + 1]
        sink.report(
            "DN375",
            after.line,
            1,
            f"[{after.section_name}] follows the [cost] layer {layer.index} (line {layer.line}): "
            "it receives the cost's per-value errors instead of the predictions, and Darknet "
            "takes the network's output from the last layer that is not a cost layer",
            "put [cost] last",
        )
        return


def check_route_sizes(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """S1: a route over mismatched sizes is 0x0x0 with non-zero outputs; only a flat consumer
    (connected, softmax, ...) can use it, anything else is an error."""
    layers = network.layers
    for layer in layers.built():
        mismatch = layer.route_mismatch
        if mismatch is None or layer.values is None:
            continue
        after = layers[layer.index + 1] if layer.index + 1 < len(layers) else None
        flat = after is None or after.type in FLAT_TYPES
        other, w, h = mismatch.layer, mismatch.w, mismatch.h
        first, fw, fh = mismatch.first, mismatch.first_w, mismatch.first_h
        line, column = layer.values.line_of("layers")
        consumer = f"the next layer ({after.type})" if after else "nothing"
        sink.report(
            "DN315",
            line,
            column,
            f"layer {other} is {w}x{h} but the first layer, {first}, is {fw}x{fh}: Darknet makes "
            "this route "
            f"0x0x0 (outputs {layer.outputs}); {consumer} "
            + ("reads it as a flat vector" if flat else "then sees no image"),
            "resize (upsample, maxpool, stride) the inputs to the same width and height",
            None if not flat else Severity.WARNING,
        )


NETWORK_CHECKS: tuple[Callable[[Network, CfgDocument, Dialect, Sink], None], ...] = (
    check_has_layers,
    check_truth_stride,
    check_cost_is_last,
    check_avg_outputs,
    check_route_sizes,
    check_classes_agree,
    check_masks,
    check_anchors_agree,
    check_mask_order,
    check_input_size,
    check_shifted_shares,
    check_whole_batch,
    check_unreached_steps,
)
