"""The memory a network needs (DN120-DN122): a check after the build, from
:mod:`dnlint.network.memory`'s prediction.

* DN120: one layer alone needs more device memory than a plausible card holds, even at
  mini-batch 1 (a typo that adds digits to ``filters=``);
* DN121 (``--gpu-memory``): the network needs more than the user's card at the cfg's
  mini-batch, and which ``subdivisions`` fits;
* DN122: an array of ``l.batch * l.outputs`` floats is counted in a 32-bit C int that
  overflows at the cfg's mini-batch (Darknet allocates the wrong size or fails).
"""

from __future__ import annotations

from typing import Final

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.network.build import Network
from dnlint.network.layers.base import Layer
from dnlint.network.memory import Build, MemoryReport, build_of, layer_cost

INT32_MAX: Final = 2**31 - 1
# More than one layer alone should ever need: the largest layer of any stock cfg needs about
# 3 GiB at mini-batch 1 (cspx-p7-mish.cfg); a digit too many in filters= needs ten times that.
PLAUSIBLE_CARD: Final = 16 * 2**30
GIB: Final = 2**30


def gib(size: int) -> str:
    """'9.7 GiB', '512 MiB': a byte count for people."""
    if size >= GIB:
        return f"{size / GIB:.1f}".removesuffix(".0") + " GiB"
    return f"{max(size, 0) / 2**20:.0f} MiB"


def check_memory(network: Network, dialect: Dialect, sink: Sink) -> None:
    """DN122 first (an overflow is an error), then DN120 for the layers it leaves alone."""
    overflowing = _check_overflow(network, sink)
    steps = max(network.net.time_steps, 1)
    build: Build | None = None
    for layer in network.layers:
        if layer.broken or layer.index in overflowing or not _may_be_huge(layer, steps):
            continue
        build = build or build_of(network, dialect, True)
        need = layer_cost(layer, build, gpu=True).at(steps, steps)  # mini-batch 1
        if need > PLAUSIBLE_CARD:
            line, column = layer.size_at()  # filters=, the value to edit
            sink.report(
                "DN120", line, column,
                f"this {layer.type} layer alone needs ≈{gib(need)} of GPU memory to train at "
                f"mini-batch 1 (output {layer.output[0]} x {layer.output[1]} x "
                f"{layer.output[2]}, {layer.params:,} parameters): more than a "
                f"{PLAUSIBLE_CARD // GIB} GiB card holds",
                "check filters= (a digit too many?) and the input size",
            )


def _may_be_huge(layer: Layer, steps: int) -> bool:
    """A bound on what any layer type allocates at mini-batch 1 (an lstm: about 50 arrays of
    its outputs; every type: under 6 copies of its weights), so that the exact count runs only
    for the few layers that could pass PLAUSIBLE_CARD (most files: none)."""
    arrays = max(layer.outputs, layer.inputs, 0) * steps
    return 4 * (64 * arrays + 6 * layer.params) + 2**24 > PLAUSIBLE_CARD


def _check_overflow(network: Network, sink: Sink) -> set[int]:
    """DN122: l.batch * l.outputs above INT32_MAX, reported once at the first such layer."""
    batch = network.net.batch
    if batch <= 1:
        return set()
    over = [layer for layer in network.layers
            if not layer.broken and layer.outputs > 0 and batch * layer.outputs > INT32_MAX]
    if not over:
        return set()
    first = over[0]
    steps = max(network.net.time_steps, 1)
    largest = max(layer.outputs for layer in over)
    fits = INT32_MAX // (largest * steps)  # the largest mini-batch that does not overflow
    others = f" (and {len(over) - 1} more layers)" if len(over) > 1 else ""
    values = network.net_values
    hint = (f"a mini-batch of at most {fits} (batch / subdivisions) keeps it in range"
            if fits >= 1 else "a smaller width/height")
    sink.report(
        "DN122", first.line, 1,
        f"at mini-batch {batch // steps} this layer's {first.outputs:,} outputs make "
        f"{batch * first.outputs:,} floats per array{others}: more than a 32-bit C int "
        f"holds, and Darknet computes the size of its output and delta arrays in int",
        hint + f" (batch={values.int('batch')}, subdivisions={values.int('subdivisions')})",
    )
    return {layer.index for layer in over}


def parse_size(text: str) -> int | None:
    """``--gpu-memory``: '8G', '8GB', '8GiB', '11.5G', '6144M' (binary units, as cards are
    sold) in bytes; None when it is not a size."""
    units = {"": GIB, "G": GIB, "GB": GIB, "GIB": GIB, "M": 2**20, "MB": 2**20, "MIB": 2**20,
             "T": 2**40, "TB": 2**40, "TIB": 2**40}
    cleaned = text.strip().upper().replace(" ", "")
    number = cleaned.rstrip("GIBMT")
    unit = cleaned[len(number):]
    if unit not in units:
        return None
    try:
        value = float(number)
    except ValueError:
        return None
    if not value > 0 or value > 2**20:  # NaN, negative, or beyond a petabyte
        return None
    return int(value * units[unit])


def check_budget(report: MemoryReport, budget: int, sink: Sink) -> None:
    """DN121: training at the cfg's mini-batch needs more than ``budget`` on the GPU."""
    mini = report.mini_batch
    if mini < 1 or any(layer.broken for layer in report.network.layers):
        return  # a network Darknet cannot build as written: its errors say why, not its size
    need = report.gpu_total(True, mini)
    if need <= budget:
        return
    values = report.network.net_values
    batch, subdivisions = values.int("batch"), values.int("subdivisions")
    line = values.line_of("subdivisions" if values.given("subdivisions") else "batch")[0]
    fits = report.largest_mini_batch(budget)
    if fits >= 1:
        better = _subdivisions_for(batch, min(fits, mini - 1))
        smaller = batch // better
        hint = (f"subdivisions={better} gives ≈{gib(report.gpu_total(True, smaller))} "
                f"(mini-batch {smaller})")
    else:
        hint = (f"even mini-batch 1 needs ≈{gib(report.gpu_total(True, 1))}: "
                "lower width and height")
    resized = report.resized
    at = f"; random resizes to {resized[0]} x {resized[1]} first" if resized else ""
    sink.report(
        "DN121", line or 1, 1,
        f"training needs ≈{gib(need)} of GPU memory at mini-batch {mini} "
        f"(batch={batch}, subdivisions={subdivisions}{at}), more than --gpu-memory "
        f"{gib(budget)}",
        hint,
    )


def _subdivisions_for(batch: int, most: int) -> int:
    """The subdivisions that gives the largest mini-batch up to ``most``: a divisor of batch
    when one is near (as users write them), else the smallest that is enough."""
    for mini in range(most, max(most - 4096, 0), -1):
        if batch % mini == 0:
            return batch // mini
    return batch // (most + 1) + 1
