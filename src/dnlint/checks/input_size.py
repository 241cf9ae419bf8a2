"""The multiple the input width and height must be, computed from the network itself (DN411).

Two paths that merge again ([route], [shortcut], [sam], [scale_channels]) must arrive at the
same size. Every strided layer on the way down divides the size (rounding when it does not
divide evenly), and an [upsample] on the way back multiplies it again, so the two paths agree
for every input size when that size is a multiple of the product of the strides on the way down
to the merge. The multiple of the whole network is the least common multiple over its merges.

When a merge's two sides have the same nominal scale (they would match at a valid size) but
different sizes, the input size is the root cause: one error on the ``width`` or ``height``
line, and the merge's own shape error is dropped (the cascade pass then notes what follows).
"""

from __future__ import annotations

from dnlint.checks.cascade import NET, LineMap, analyse, layer_inputs
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from dnlint.network.build import Network

# The shape errors a merge of mismatched sizes reports, and the warning of a stride that
# does not divide the size (both only repeat a wrong input size).
MERGE_ERRORS = frozenset({"DN315", "DN317", "DN318", "DN321"})
SIZE_WARNINGS = frozenset({"DN328"})
# Layers whose output size does not depend on their input size (flat or global).
# (Final: C statics under mypyc, not a globals dict look-up per layer)
_UPSAMPLING: Final = frozenset({"upsample", "deconvolutional"})
_REORGS: Final = frozenset({"reorg", "reorg_old", "reorg3d"})
_SAME_SIZE: Final = frozenset({"route", "shortcut", "sam", "scale_channels"})
_HEADS: Final = frozenset({"yolo", "gaussian_yolo", "region", "detection"})
_UNIT_STRIDE: Final = (1, 1)
_HANK_MULTIPLE = 32  # hank-ai's Darknet refuses other sizes for [yolo]/[region] networks


_MACHINE: Final = 1 << 62  # below it, a compiled int is a C integer (mypyc's tagged ints)
Ratio = tuple[int, int]  # numerator, denominator (reduced): a Fraction is ten times slower
ONE: Final[Ratio] = (1, 1)


class Scale:
    """Per axis: how many input pixels one pixel of this layer spans (None: the size does not
    depend on the input), and the multiple the input must be for the way here to divide.

    (A plain class, not a dataclass: one is made per layer, and a dataclass's generated
    ``__init__`` stays interpreted Python even when this module is compiled.)"""

    __slots__ = ("need_x", "need_y", "x", "y")

    def __init__(self, x: Ratio | None, y: Ratio | None, need_x: int = 1,
                 need_y: int = 1) -> None:
        self.x = x
        self.y = y
        self.need_x = need_x
        self.need_y = need_y


class Multiples:
    """What the input size must be a multiple of: for the merges to agree (``merge_*``), and
    for every head's grid to cover the image evenly as well (``grid_*``).

    (A plain class, not a dataclass: creating a dataclass costs every run's start-up.)"""

    __slots__ = ("grid_x", "grid_y", "merge_x", "merge_y", "scales")

    def __init__(self, merge_x: int, merge_y: int, grid_x: int, grid_y: int,
                 scales: list[Scale]) -> None:
        self.merge_x = merge_x
        self.merge_y = merge_y
        self.grid_x = grid_x
        self.grid_y = grid_y
        self.scales = scales


def _gcd(a: int, b: int) -> int:
    """math.gcd, compiled for machine-sized integers: a call to it boxed both and went through
    the module's globals (a third of compute_multiples). Larger ones (a hostile chain of
    strides) go to math.gcd, whose Lehmer steps are 25 times faster there than Euclid's."""
    if not (-_MACHINE < a < _MACHINE and -_MACHINE < b < _MACHINE):
        from math import gcd

        return gcd(a, b)
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


def _lcm(a: int, b: int) -> int:
    """math.lcm of two integers (0 when either is 0), compiled as gcd is."""
    if a == b or b == 1:
        return abs(a)  # the common calls (most joins and heads agree): no division
    if a == 1:
        return abs(b)
    if a == 0 or b == 0:
        return 0
    return abs(a // _gcd(a, b) * b)


def _reverse(layer: Layer) -> bool:
    """Whether a reorg runs backwards (depth-to-space), as parse_reorg reads it."""
    return layer.values is not None and layer.values.int("reverse") != 0


def _factor(layer: Layer) -> tuple[Ratio | None, Ratio | None]:
    """How much ``layer`` divides each axis (a ratio below 1 enlarges it)."""
    if layer.type in _SAME_SIZE:
        return ONE, ONE  # the size of the layer it reads (or adds to)
    stride = layer.stride
    if stride is not None:
        sx, sy = stride
        if sx == sy == 1:
            return ONE, ONE
        if 0 in (sx, sy):
            return None, None
        if layer.type in _UPSAMPLING:
            return _up(sx), _up(sy)
        if layer.type in _REORGS and _reverse(layer):
            return (1, abs(sx)), (1, abs(sy))
        return (abs(sx), 1), (abs(sy), 1)
    (iw, ih, _), (ow, oh, _) = layer.input, layer.output
    if (ow, oh) == (iw, ih):
        return ONE, ONE
    if (ow, oh) == (1, 1) or 0 in (iw, ih, ow, oh):
        return None, None  # flat or global: the size stops mattering here
    return _ratio(iw, ow), _ratio(ih, oh)


def _up(stride: int) -> Ratio:
    """[upsample] stride s enlarges by s; a negative stride divides by |s|."""
    return (1, stride) if stride > 0 else (-stride, 1)


def _ratio(before: int, after: int) -> Ratio:
    if before >= after:
        return (round(before / after), 1)
    return (1, round(after / before))


def _times(a: Ratio, b: Ratio) -> Ratio:
    num, den = a[0] * b[0], a[1] * b[1]
    common = _gcd(num, den)
    return (num // common, den // common)


def _axis(scale: Ratio | None, factor: Ratio | None, need: int) -> tuple[Ratio | None, int]:
    if scale is None or factor is None:
        return None, need
    if factor == ONE:
        return scale, need
    product = _times(scale, factor)
    # dividing needs the size here to be a multiple of the factor: the input a multiple of
    # the new scale's numerator
    return product, _lcm(need, product[0]) if factor[0] > factor[1] else need


def _through(scale: Scale, fx: Ratio | None, fy: Ratio | None) -> Scale:
    x, need_x = _axis(scale.x, fx, scale.need_x)
    y, need_y = _axis(scale.y, fy, scale.need_y)
    return Scale(x, y, need_x, need_y)


def merged_inputs(layer: Layer) -> list[int]:
    """The layers a merge joins (empty for a layer that joins nothing)."""
    inputs = layer_inputs(layer)
    if layer.type == "route" and len(inputs) > 1:
        return inputs
    if layer.type in ("shortcut", "sam") or (
        layer.type == "scale_channels" and layer.values is not None
        and layer.values.int("scale_wh")
    ):
        return inputs
    return []


def compute_multiples(network: Network) -> Multiples:
    start = Scale(ONE, ONE)
    scales: list[Scale] = []
    merge_x = merge_y = grid_x = grid_y = 1
    before = start  # the scale of the layer before ([net]'s for the first)
    for layer in network.layers:
        kind = layer.type
        if kind not in _SAME_SIZE:  # reads the layer before only: the common case
            geometry = layer.geometry
            # a stride of 1 (most convolutions) keeps the scale: _factor's first answer
            if geometry is None or geometry.stride != _UNIT_STRIDE:
                fx, fy = _factor(layer)
                if fx != ONE or fy != ONE:  # by value: compiled, a Ratio is a new tuple each time
                    before = _through(before, fx, fy)
            scales.append(before)
            if kind in _HEADS:
                grid_x, grid_y = _lcm(grid_x, before.need_x), _lcm(grid_y, before.need_y)
            continue
        spatial = [s for s in (_scale_at(scales, start, i) for i in merged_inputs(layer))
                   if s.x is not None and s.y is not None]
        if len(spatial) > 1:
            need_x = need_y = 1
            for joined in spatial:
                need_x, need_y = _lcm(need_x, joined.need_x), _lcm(need_y, joined.need_y)
            merge_x, merge_y = _lcm(merge_x, need_x), _lcm(merge_y, need_y)
            first = (_scale_at(scales, start, layer_inputs(layer)[0]) if kind == "route"
                     else spatial[0])
            before = Scale(first.x, first.y, need_x, need_y)
        else:
            inputs = layer_inputs(layer)
            source = _scale_at(scales, start, inputs[0]) if inputs else Scale(None, None)
            if kind in ("sam", "scale_channels") and len(inputs) > 1:
                source = _scale_at(scales, start, inputs[1])  # the from-layer's size
            fx, fy = _factor(layer)
            before = _through(source, fx, fy)
        scales.append(before)
    return Multiples(merge_x, merge_y, _lcm(merge_x, grid_x), _lcm(merge_y, grid_y), scales)


def _scale_at(scales: list[Scale], start: Scale, index: int) -> Scale:
    return start if index == NET else scales[index]


class BrokenMerge:
    """A merge refused only because of the input size, and the two sizes it joins."""

    __slots__ = ("layer", "sizes")

    def __init__(self, layer: Layer, sizes: tuple[tuple[int, int], tuple[int, int]]) -> None:
        self.layer = layer
        self.sizes = sizes


def _joined_sizes(network: Network, layer: Layer) -> list[tuple[int, int]]:
    sizes = []
    for index in merged_inputs(layer):
        if index == NET:
            sizes.append((network.net.width, network.net.height))
        elif index == layer.index - 1 and layer.type != "route":
            sizes.append(layer.input[:2])  # what the merge receives (ab: after antialiasing)
        else:
            sizes.append(network.layers[index].output[:2])
    return sizes


def joins_different_sizes(network: Network) -> bool:
    """The shape pass's own answer: some merge receives two different sizes (the measure the
    tests and bench/bench_root_causes.py hold DN411 against)."""
    return any(len(set(_joined_sizes(network, layer))) > 1 for layer in network.layers)


def size_broken_merges(network: Network, multiples: Multiples, sink: Sink,
                       lines: LineMap) -> list[BrokenMerge]:
    """Merges that refuse their inputs only because the input size is not a multiple."""
    taint = analyse(network, sink.items, lines)
    erred = {lines.layer_at(d.line) for d in sink.items
             if d.code in MERGE_ERRORS and d.severity is Severity.ERROR}
    found = []
    for layer in network.layers:
        if layer.index not in erred or taint.tainted(layer.index):
            continue
        inputs = merged_inputs(layer)
        scales = [multiples.scales[i] if i != NET else None for i in inputs]
        nominal = {(s.x, s.y) for s in scales if s is not None}
        sizes = _joined_sizes(network, layer)
        differing = [s for s in sizes[1:] if s != sizes[0]]
        if len(nominal) == 1 and None not in next(iter(nominal)) and differing:
            found.append(BrokenMerge(layer, (sizes[0], differing[0])))
    return found


def check_input_size(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """DN411: the input size against the multiple this network needs."""
    if not network.layers or network.net.width <= 0 or network.net.height <= 0:
        return
    merge_error = any(d.code in MERGE_ERRORS and d.severity is Severity.ERROR
                      for d in sink.items)
    if not merge_error and _watched_head(network, dialect) is None:
        return  # nothing to say: spare the walk over the layers
    lines = LineMap(doc)
    multiples = compute_multiples(network)
    broken = size_broken_merges(network, multiples, sink, lines) if merge_error else []
    if broken and _report_breaking_size(network, multiples, broken, sink, lines):
        return
    _report_uneven_grid(network, multiples, dialect, sink)


def _watched_head(network: Network, dialect: Dialect) -> str | None:
    """The head type the network ends in, where the dialect checks the input size for it."""
    if dialect is Dialect.PJ:
        return None
    last = network.layers[-1].type
    watched = ("yolo", "region") if dialect is Dialect.HANK else ("yolo", "region", "detection")
    return last if last in watched else None


def _report_breaking_size(network: Network, multiples: Multiples, broken: list[BrokenMerge],
                          sink: Sink, lines: LineMap) -> bool:
    width, height = network.net.width, network.net.height
    off = [(key, value, need) for key, value, need in (
        ("width", width, multiples.merge_x), ("height", height, multiples.merge_y))
        if value % need]
    if not off:
        return False  # the sizes are right: the merges are a design mistake, reported as such
    first = broken[0]
    (aw, ah), (bw, bh) = first.sizes
    key = off[0][0]
    needs = " and ".join(f"{k} to be a multiple of {need}" for k, _, need in off)
    use = " and ".join(_nearest(k, value, need, len(off) > 1) for k, value, need in off)
    line, column = network.net_values.line_of(key)
    edits = " and ".join(f"set {k}={_closest(value, need)} (line "
                         f"{network.net_values.line_of(k)[0]})" for k, value, need in off)
    sink.report(
        "DN411", line, column,
        f"this network needs {needs} (layer {first.layer.index} joins {aw}x{ah} with {bw}x{bh}); "
        f"use {use}",
        edits, Severity.ERROR,
    )
    merges = {merge.layer.index for merge in broken}
    for merge in broken:
        merge.layer.size_root = True
        merge.layer.broken = True
    sink.items[:] = [
        d for d in sink.items
        if not (d.code in MERGE_ERRORS and lines.layer_at(d.line) in merges)
        and d.code not in SIZE_WARNINGS
    ]
    return True


def _closest(value: int, need: int) -> int:
    below = value // need * need
    return below if below > 0 and value - below < below + need - value else below + need


def _nearest(key: str, value: int, need: int, named: bool) -> str:
    below, above = value // need * need, (value // need + 1) * need
    sizes = f"{below} or {above}" if below > 0 else f"{above}"
    return f"{key}={sizes}" if named else sizes


def _report_uneven_grid(network: Network, multiples: Multiples, dialect: Dialect,
                        sink: Sink) -> None:
    """A size the network builds with but whose head grid does not cover the image evenly
    (AlexeyAB warns at the end of parse_network_cfg_custom; hank-ai refuses all but 32s)."""
    last = _watched_head(network, dialect)
    if last is None:
        return
    width, height = network.net.width, network.net.height
    need_x, need_y = multiples.grid_x, multiples.grid_y
    if dialect is Dialect.HANK:
        need_x, need_y = _lcm(need_x, _HANK_MULTIPLE), _lcm(need_y, _HANK_MULTIPLE)
    hank_refuses = dialect is Dialect.HANK and (
        width % _HANK_MULTIPLE or height % _HANK_MULTIPLE or min(width, height) < _HANK_MULTIPLE)
    if not hank_refuses and width % need_x == 0 and height % need_y == 0:
        return
    width_off = width % need_x or (hank_refuses and (width % _HANK_MULTIPLE or width < 32))
    key = "width" if width_off else "height"
    if hank_refuses:
        consequence = "hank-ai's Darknet stops with an error (it also needs at least 32)"
        severity: Severity | None = Severity.ERROR
    else:
        consequence = "the head's grid does not cover the image evenly"
        severity = None
    line, column = network.net_values.line_of(key)
    sink.report(
        "DN411", line, column,
        f"width={width} and height={height} for a network that ends in [{last}]: width must "
        f"be a multiple of {need_x} and height of {need_y}; {consequence}",
        f"use width={_round(width, need_x)} and height={_round(height, need_y)}",
        severity,
    )


def _round(value: int, need: int) -> int:
    return max(need, (value + need // 2) // need * need)
