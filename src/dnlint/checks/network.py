"""Checks over the whole built network (§6.4 of the reference: S29, S30, S32, ...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dnlint.checks.heads import check_classes_agree, check_input_multiple_of_32, check_masks
from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.layers.route import check_route_sizes
from dnlint.reader import CfgDocument

if TYPE_CHECKING:
    from dnlint.network import Network


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
        Dialect.HANK: "hank-ai's Darknet stops with an error",
    }[dialect]
    sink.report("DN005", net.line, net.column,
                f"[{net.name}] is not followed by any layer: {consequence}")


def check_avg_outputs(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """S29: [ab] averages outputs over layers whose input is wider and taller than 1."""
    if dialect is Dialect.PJ or not network.layers:
        return
    if any(layer.input[0] > 1 and layer.input[1] > 1 for layer in network.layers):
        return
    net = doc.sections[0]
    sink.report(
        "DN313",
        net.line,
        net.column,
        f"no layer receives an input wider and taller than 1: {dialect.label} divides by the "
        "number of such layers at the end of parse_network_cfg and dies of SIGFPE",
        "this network builds only with the original Darknet (--dialect pjreddie)",
    )


def check_cost_is_last(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """A [cost] layer's output holds its per-value errors, not the predictions it received."""
    layers = network.layers
    for layer in layers[:-1]:
        if layer.type != "cost":
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


NETWORK_CHECKS: tuple[Callable[[Network, CfgDocument, Dialect, Sink], None], ...] = (
    check_has_layers,
    check_cost_is_last,
    check_avg_outputs,
    check_route_sizes,
    check_classes_agree,
    check_masks,
    check_input_multiple_of_32,
)
