"""``--layers``: the network table, like Darknet's start-up print-out but computed exactly."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

from dnlint.clean import shown_path
from dnlint.network.layers.base import Layer
from dnlint.reporters import ReportContext
from dnlint.result import FileResult


def _shape(shape: tuple[int, int, int]) -> str:
    w, h, c = shape
    return f"{w} x {h} x {c}"


def geometry(layer: Layer) -> str:
    """'16 3x3 /2' for a convolution, the indices for a route: what the layer does."""
    parts = []
    if layer.filters is not None:
        parts.append(str(layer.filters))
    if layer.size is not None:
        parts.append(f"{layer.size}x{layer.size}")
    if layer.stride is not None:
        sx, sy = layer.stride
        parts.append(f"/{sx}" if sx == sy else f"/{sx}x{sy}")
    if layer.refs is not None:
        parts.append(" ".join(str(i) for i in islice(layer.refs, MAX_REFS_SHOWN))
                     + (" ..." if len(layer.refs) > MAX_REFS_SHOWN else ""))
    if layer.group is not None and layer.group[1] > 1:
        group_id, groups = layer.group
        parts.append(f"{group_id}/{groups}")  # as make_route_layer's caller prints it
    return " ".join(parts)


MAX_REFS_SHOWN = 8  # the layers of a route listed in its row (a hostile line names millions)


def input_shape(layer: Layer, layers: Sequence[Layer]) -> str:
    """The input column: for a route, the outputs of the layers it joins ('26 x 26 x 256 +
    26 x 26 x 512'); for any other layer its input shape."""
    if layer.type != "route" or not layer.refs:
        return _shape(layer.input)
    shown = [_shape(layers[i].output) if 0 <= i < layer.index else f"layer {i}?"
             for i in islice(layer.refs, MAX_REFS_SHOWN)]
    more = len(layer.refs) - len(shown)
    return " + ".join(shown) + (f" + {more} more" if more > 0 else "")


def print_layer_table(file: FileResult, ctx: ReportContext) -> None:
    """``--layers``: one file's layer table, with totals in the caption."""
    if file.network is None:
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(file=ctx.stream, force_terminal=ctx.color, no_color=not ctx.color,
                      highlight=False, width=200 if not ctx.color else None)
    dialect = file.dialect.value if file.dialect else "?"
    table = Table(title=f"{shown_path(file.path)} ({dialect})")
    for column in ("#", "type", "filters/size/stride", "input", "output", "params", "BFLOPs",
                   "line"):
        table.add_column(column, justify="right" if column in ("#", "params", "line",
                                                                "BFLOPs") else "left")
    for layer in file.network.layers:
        table.add_row(
            str(layer.index),
            layer.type,
            geometry(layer),
            input_shape(layer, file.network.layers),
            _shape(layer.output) + ("" if layer.outputs == _product(layer.output)
                                    else f" ({layer.outputs})"),
            f"{layer.params:,}",
            f"{layer.bflops:.3f}" if layer.bflops else "",
            str(layer.line),
            style="red" if layer.broken else None,
        )
    network = file.network
    table.caption = (f"{len(network.layers)} layers, {network.total_params:,} parameters "
                     f"({4 * network.total_params:,} bytes), "
                     f"{network.total_bflops:.3f} BFLOPs")
    console.print(table)


def _product(shape: tuple[int, int, int]) -> int:
    w, h, c = shape
    return w * h * c
