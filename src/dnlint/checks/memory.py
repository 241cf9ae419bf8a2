"""The memory a network needs (DN120-DN122): a check after the build, from
:mod:`dnlint.network.memory`'s prediction.

* DN120: one layer alone needs more device memory than a plausible card holds, even at
  mini-batch 1 (a typo that adds digits to ``filters=``);
* DN121 (``--gpu-memory``): the network needs more than the user's card at the cfg's
  mini-batch, and which ``subdivisions`` fits;
* DN122: an array of ``l.batch * l.outputs`` floats is counted in a 32-bit C int that
  overflows at the cfg's mini-batch (Darknet allocates the wrong size or fails);
* DN123 (no card size known): the network needs more than the largest common training card;
* DN124: the ``# Testing`` lines of ``[net]`` are the active ones and the ``# Training`` ones
  commented out, with a training batch written into the testing block (or, for a training
  job, batch=1 left in it). DN121 and DN123 say nothing more about such a file: one cause.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.network.build import Network
from dnlint.network.layers.base import Layer
from dnlint.network.memory import (
    Build,
    MemoryReport,
    build_of,
    layer_cost,
    memory_report,
    random_resize,
)
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

INT32_MAX: Final = 2**31 - 1
# More than one layer alone should ever need: the largest layer of any stock cfg needs about
# 3 GiB at mini-batch 1 (cspx-p7-mish.cfg); a digit too many in filters= needs ten times that.
PLAUSIBLE_CARD: Final = 16 * 2**30
GIB: Final = 2**30
# DN123: the largest memory of the cards commonly used to train, NVIDIA's A100 80GB and H100
# 80GB (an A100 80GB reports 81,920 MiB). Darknet trains the cfg's whole mini-batch on each card
# it is given and never splits a network across cards, so beyond this no common card runs it;
# a smaller figure (a 24 GiB RTX 4090) would flag stock cfgs that train as shipped on those.
COMMON_CARD: Final = 80 * GIB


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
    outputs, inputs = layer.outputs, layer.inputs  # max() of three: a call per layer
    arrays = outputs if outputs > inputs else inputs
    return 4 * (64 * (arrays if arrays > 0 else 0) * steps + 6 * layer.params) + 2**24 \
        > PLAUSIBLE_CARD


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


def check_budget(report: MemoryReport, budget: int, sink: Sink,
                 card: str | None = None, code: str = "DN121") -> None:
    """DN121: training at the cfg's mini-batch needs more than ``budget`` on the GPU
    (``card``: what the budget is, '--gpu-memory 8 GiB' unless said). DN123: the same
    against COMMON_CARD when no card is known."""
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
    column = values.line_of("subdivisions" if values.given("subdivisions") else "batch")[1]
    sink.report(
        code, line or 1, column if line else 1,
        f"training needs ≈{gib(need)} of GPU memory at mini-batch {mini} "
        f"(batch={batch}, subdivisions={subdivisions}{at}), more than "
        f"{card or '--gpu-memory ' + gib(budget)}",
        hint,
    )


def _subdivisions_for(batch: int, most: int) -> int:
    """The subdivisions that gives the largest mini-batch up to ``most``: a divisor of batch
    when one is near (as users write them), else the smallest that is enough."""
    for mini in range(most, max(most - 4096, 0), -1):
        if batch % mini == 0:
            return batch // mini
    return batch // (most + 1) + 1


# --- DN123: no card size known ----------------------------------------------------------------

def check_common_card(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """DN123 when training at the cfg's mini-batch needs more than COMMON_CARD (the run
    replaces it by DN121 when it knows the card: --gpu-memory, or nvidia-smi). The exact
    estimate is worked out only for the few networks a bound cannot clear."""
    if any(d.code in _OWN_CAUSE for d in sink.items):
        return  # one cause, one finding: the layer typo, the int overflow or the testing batch
    report = _report_if_large(network, dialect, COMMON_CARD)
    if report is not None:
        check_budget(report, COMMON_CARD, sink, card=f"the {gib(COMMON_CARD)} of the largest "
                     "common training card (no --gpu-memory given)", code="DN123")


# what already explains a network too large to train: DN123 says nothing more
_OWN_CAUSE = frozenset({"DN120", "DN122", "DN124"})


def _report_if_large(network: Network, dialect: Dialect, limit: int) -> MemoryReport | None:
    """The memory report when training may need more than ``limit``, else None (the cost of
    the exact estimate is paid only past a bound)."""
    values = network.net_values
    subdivisions = values.int("subdivisions")
    mini = values.int("batch") // subdivisions if subdivisions > 0 else 0
    if mini < 1 or network.overflowed or any(layer.broken for layer in network.layers):
        return None
    if _training_bound(network, dialect, mini) <= limit:
        return None
    return memory_report(network, dialect)


# Layer types whose device arrays for training hold at most 8 floats per output (or input)
# and image: twice the most that any layer of the stock cfgs and fixtures/memory/ keeps (a
# convolution with batch norm, mish and xnor: 4.25; pooling, routes, heads: 2 or 3). The
# recurrent types keep a few dozen (an lstm: 34) and get _may_be_huge's 64.
_FEW_ARRAYS: Final = frozenset({
    "convolutional", "connected", "batchnorm", "active", "deconvolutional", "normalization",
    "shortcut", "maxpool", "softmax", "yolo", "gaussian_yolo", "route", "upsample", "cost",
    "sam", "scale_channels", "detection", "region", "reorg", "reorg_old", "dropout", "crop",
    "avgpool", "local_avgpool", "empty", "silence", "implicit"})


def _training_bound(network: Network, dialect: Dialect, mini: int) -> int:
    """More than training at mini-batch ``mini`` can need on the device: the per-layer bound
    of :func:`_may_be_huge` for ``mini`` images (and the network's input and truth), grown by
    the area ``random`` resizes to. A [contrastive] layer's arrays grow with the square of the
    batch: no bound."""
    steps = max(network.net.time_steps, 1)
    arrays = params = 0
    for layer in network.layers:  # every plain lint runs this loop: no max() calls in it
        kind = layer.type
        if kind == "contrastive":
            return 2**62
        outputs, inputs = layer.outputs, layer.inputs
        size = outputs if outputs > inputs else inputs
        if size > 0:
            arrays += (8 if kind in _FEW_ARRAYS else 64) * size
        count = layer.params
        if count > 0:
            params += count
    per_image = arrays * steps + 2 * max(network.net.inputs, 0)
    resized = random_resize(network, dialect)
    width, height = network.net.width, network.net.height
    if resized is not None and width > 0 and height > 0:
        per_image = per_image * resized[0] * resized[1] // (width * height) + per_image
    return 4 * (per_image * mini + 6 * params) + 2**24 * (len(network.layers) + 1)


# --- DN124: the '# Testing' lines are the active ones -----------------------------------------

class TrainTestLayout:
    """[net] laid out as the stock cfgs are: a '# Testing' block and a '# Training' block, with
    the active batch (and subdivisions) in the testing one and the training ones commented
    out. (A plain class: a compiled NamedTuple is built by typing at import.)"""

    __slots__ = ("active", "commented", "testing")

    def __init__(self, testing: int, active: dict[str, int],
                 commented: dict[str, tuple[int, str]]) -> None:
        self.testing = testing  # the line of the '# Testing' comment
        self.active = active  # batch/subdivisions written in the testing block: key -> line
        self.commented = commented  # '#key=value' in the training block: (line, value)


def train_test_layout(network: Network, doc: CfgDocument) -> TrainTestLayout | None:
    """The layout when the active batch is written under '# Testing' and a '# Training' block
    holds batch= or subdivisions= commented out; else None."""
    values = network.net_values
    if not values.given("batch"):
        return None
    start = values.section.line
    lines = doc.sections.lines
    after = bisect_right(lines, start)
    end = lines[after] if after < len(lines) else None
    markers: list[int] = []  # lines of '# Testing' / '# Training' comments, in order
    kinds: list[str] = []  # 'testing' or 'training', for each marker
    assignments: list[tuple[int, str, str]] = []  # commented-out (line, key, value)
    for at, text in doc.comments.within(start, end):  # in line order
        body = text.lstrip("#; \t")
        word = body[:8].lower()
        if word in ("testing", "training") or word[:7] == "testing":
            markers.append(at)
            kinds.append(word[:7] if word[:7] == "testing" else word)
        elif body.startswith(("batch", "subdivisions")):
            key, equals, value = body.replace(" ", "").replace("\t", "").partition("=")
            if equals and key in ("batch", "subdivisions"):
                assignments.append((at, key, value))
    if not {"testing", "training"} <= set(kinds):
        return None

    def block(line: int) -> tuple[int, str] | None:
        """The marker a line is under (bisect: a hostile file may have a million)."""
        index = bisect_left(markers, line) - 1
        return (markers[index], kinds[index]) if index >= 0 else None

    active: dict[str, int] = {}
    for key in ("batch", "subdivisions"):
        if values.given(key):
            line = values.line_of(key)[0]
            found = block(line)
            if found is not None and found[1] == "testing":
                active[key] = line
    if "batch" not in active:
        return None
    commented: dict[str, tuple[int, str]] = {}
    for line, key, value in assignments:
        found = block(line)
        if found is not None and found[1] == "training":
            commented.setdefault(key, (line, value))
    if not commented:
        return None
    testing = block(active["batch"])
    assert testing is not None
    return TrainTestLayout(testing[0], active, commented)


def check_testing_block(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink,
                        training_job: bool = False) -> None:
    """DN124. In any lint: a training batch (batch > 1) written into the '# Testing' block,
    while the '# Training' values are commented out: training runs the testing block's
    subdivisions (often 1), a mini-batch no card may hold. In a training job (a .data with the
    cfg, ``training_job``): batch=1, the testing values, left active."""
    layout = train_test_layout(network, doc)
    if layout is None:
        return
    values = network.net_values
    batch, subdivisions = values.int("batch"), values.int("subdivisions")
    mini = batch // subdivisions if subdivisions > 0 else 0
    if training_job:
        if batch != 1:
            return  # a batch above 1 is the lint's own finding
    elif batch <= 1 or mini <= _meant_mini(layout, batch, subdivisions):
        return  # the testing values, or training values moved up unchanged: nothing grows
    elif not values.given("subdivisions"):
        return  # DN113: no subdivisions at all, the training one commented out
    key = "subdivisions" if "subdivisions" in layout.active else "batch"
    line, column = values.line_of(key)
    written = ", ".join(f"{k}={values.int(k)}" for k in ("batch", "subdivisions")
                        if k in layout.active)
    meant = ", ".join(f"#{k}={v}" for k, (_, v) in sorted(layout.commented.items()))
    lines = sorted(at for at, _ in layout.commented.values())
    at = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
    where = (f"{written} {'is' if len(layout.active) == 1 else 'are'} written under "
             f"'# Testing' (line {layout.testing}) and the '# Training' values are commented "
             f"out ({meant}, {at})")
    hint = ("comment out the '# Testing' values and uncomment the '# Training' ones "
            f"({meant.replace('#', '')})")
    if not training_job:
        sink.report("DN124", line, column, f"{where}: training runs a mini-batch of {mini} "
                    f"images{_need(network, dialect, mini)}", hint)
    elif any(layer.type in _HEADS for layer in network.layers):
        sink.report("DN124", line, column,
                    f"{where}: training runs at batch=1, the testing value (AlexeyAB's "
                    "train_detector stops: 'You set incorrect value batch=1 for Training!'; "
                    "the original trains one image at a time)", hint)
    else:
        sink.report("DN124", line, column, f"{where}: training runs at batch=1, the testing "
                    "value, one image at a time", hint)


_HEADS = frozenset({"yolo", "gaussian_yolo", "region", "detection"})


def _meant_mini(layout: TrainTestLayout, batch: int, subdivisions: int) -> int:
    """The mini-batch the commented-out '# Training' values give (a value not there: the
    active one)."""
    from dnlint.cnumbers import c_atoi

    meant_batch = c_atoi(layout.commented["batch"][1]) if "batch" in layout.commented else batch
    meant_sub = (c_atoi(layout.commented["subdivisions"][1]) if "subdivisions" in
                 layout.commented else subdivisions)
    return meant_batch // meant_sub if meant_sub > 0 else meant_batch


def _need(network: Network, dialect: Dialect, mini: int) -> str:
    """' (≈97 GiB of GPU memory, more than ...)': the estimate, when the network builds."""
    if mini < 1 or network.overflowed or any(layer.broken for layer in network.layers):
        return ""
    need = memory_report(network, dialect).gpu_total(True, mini)
    beyond = (f", more than the {gib(COMMON_CARD)} of the largest common training card"
              if need > COMMON_CARD else "")
    return f" (≈{gib(need)} of GPU memory{beyond})"
