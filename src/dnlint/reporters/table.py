"""``--layers``: the network table, like Darknet's start-up print-out but computed exactly."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

from dnlint.clean import shown_path
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.network.memory import MemoryReport, memory_report
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


COLUMNS = ("#", "type", "filters/size/stride", "input", "output", "params", "BFLOPs", "memory",
           "line")
RIGHT = tuple(column in ("#", "params", "line", "BFLOPs", "memory") for column in COLUMNS)


def print_layer_table(file: FileResult, ctx: ReportContext) -> None:
    """``--layers``: one file's layer table, with totals in the caption (written as text
    without colour, :mod:`dnlint.reporters.plain_table`; rich draws the rest)."""
    if file.network is None:
        return
    network = file.network
    dialect = file.dialect.value if file.dialect else "?"
    title = f"{shown_path(file.path)} ({dialect})"
    memory = memory_of(file)
    per_layer = memory.train.layers if memory is not None else []
    rows = [_cells(layer, file, per_layer) for layer in network.layers]
    caption = (f"{len(network.layers)} layers, {network.total_params:,} parameters "
               f"({4 * network.total_params:,} bytes), {network.total_bflops:.3f} BFLOPs")
    if memory is not None:
        caption += "\n" + memory_caption(memory)
    if not ctx.color:
        from dnlint.reporters.plain_table import boxed

        text = boxed(title, COLUMNS, RIGHT, rows, caption)
        if text is not None:
            ctx.stream.write(text)
            return
    _print_rich(file, ctx, title, rows, caption)


def _cells(layer: Layer, file: FileResult, per_layer: Sequence[int]) -> tuple[str, ...]:
    network = file.network
    assert network is not None
    return (
        str(layer.index),
        layer.type,
        geometry(layer),
        input_shape(layer, network.layers),
        _shape(layer.output) + ("" if layer.outputs == _product(layer.output)
                                else f" ({layer.outputs})"),
        f"{layer.params:,}",
        f"{network.layer_bflops(layer):.3f}" if layer.bflops else "",
        _size(per_layer[layer.index]) if layer.index < len(per_layer) else "",
        str(layer.line),
    )


def _print_rich(file: FileResult, ctx: ReportContext, title: str,
                rows: Sequence[tuple[str, ...]], caption: str) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text  # every cell: a path or a section name is never markup

    assert file.network is not None
    console = Console(file=ctx.stream, force_terminal=ctx.color, no_color=not ctx.color,
                      highlight=False, width=200 if not ctx.color else None)
    table = Table(title=Text(title))
    for column, right in zip(COLUMNS, RIGHT, strict=True):
        table.add_column(column, justify="right" if right else "left")
    for layer, cells in zip(file.network.layers, rows, strict=True):
        table.add_row(*(Text(cell) for cell in cells), style="red" if layer.broken else None)
    table.caption = Text(caption)
    console.print(table)


def memory_caption(memory: MemoryReport) -> str:
    """The memory totals under the table: what the 'memory' column adds up to, and the rest."""
    mini = memory.mini_batch
    parts = [f"memory (CPU, training at mini-batch {mini}): {_size(memory.train.total)} "
             f"with a {_size(memory.train.workspace)} workspace"]
    if memory.dialect is not Dialect.PJ:
        parts.append(f"inference (detector test, mini-batch 1): {_size(memory.infer.total)}")
    resized = memory.resized
    at = f", at {resized[0]} x {resized[1]} for random" if resized else ""
    parts.append(f"GPU ≈{_size(memory.gpu_total(True))} to train{at}, "
                 f"≈{_size(memory.gpu_total(False))} to infer (estimate)")
    return "; ".join(parts)


def memory_of(file: FileResult) -> MemoryReport | None:
    if file.network is None or file.dialect is None:
        return None
    return memory_report(file.network, file.dialect)


def _size(size: int) -> str:
    """'1.2 GiB', '34.5 MiB', '12 KiB'."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def _product(shape: tuple[int, int, int]) -> int:
    w, h, c = shape
    return w * h * c
