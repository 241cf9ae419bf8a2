"""Stage 3: typed sections -> the network Darknet builds, layer by layer.

Mirrors ``parse_network_cfg`` (src/parser.c): every section after the first becomes a layer,
each layer receives the previous layer's ``(out_w, out_h, out_c, outputs)``, and unknown
sections become all-zero layers. Nothing is allocated from cfg numbers: shapes are plain ints.
"""

from __future__ import annotations

from dnlint.cnumbers import INT32_MAX, to_float32
from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect, names
from dnlint.network.layers import by_section, section_dialects
from dnlint.network.layers.base import (
    Layer,
    LayerContext,
    Layers,
    LayerType,
    total_floats,
    zero_layer,
)
from dnlint.options.convert import Values, type_section
from dnlint.options.net_section import NetInfo, parse_net
from dnlint.options.value_checks import remember, suggest
from dnlint.read.darknet_reader import CfgDocument, Section


class Network:  # a plain class, not a dataclass: start-up (dataclasses imports inspect)
    __slots__ = ("dialect", "layers", "net", "net_values", "overflowed")

    def __init__(self, net: NetInfo, net_values: Values, layers: Layers,
                 overflowed: bool = False, dialect: Dialect = Dialect.AB) -> None:
        self.net = net
        self.net_values = net_values
        self.layers = layers
        # a layer's size overflowed a C int (DN312): the layers after it were not built, and
        # no weights layout can be predicted
        self.overflowed = overflowed
        self.dialect = dialect

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Network)
        return (self.net, self.net_values, self.layers, self.overflowed, self.dialect) == (
            other.net, other.net_values, other.layers, other.overflowed, other.dialect)

    def __repr__(self) -> str:
        return (f"Network(net={self.net!r}, net_values={self.net_values!r}, "
                f"layers={self.layers!r}, overflowed={self.overflowed!r}, "
                f"dialect={self.dialect!r})")

    @property
    def total_params(self) -> int:
        return sum(layer.params for layer in self.layers)

    def layer_bflops(self, layer: Layer) -> float:
        """A layer's BFLOPs as Darknet keeps them: AlexeyAB's and hank-ai's store the double
        in ``float l.bflops``; the original only prints the double."""
        return layer.bflops if self.dialect is Dialect.PJ else to_float32(layer.bflops)

    @property
    def total_bflops(self) -> float:
        """AlexeyAB's and hank-ai's "Total BFLOPS": each positive ``l.bflops`` added into a
        ``float`` in layer order (parse_network_cfg_custom), so the rounding is theirs
        (yolov3-voc.cfg: 65.442, not the 65.443 of an exact sum). The original Darknet prints
        no total: there it is the plain sum of the layers' doubles."""
        if self.dialect is Dialect.PJ:
            return sum(layer.bflops for layer in self.layers)
        total = 0.0
        for layer in self.layers:
            bflops = to_float32(layer.bflops)
            if bflops > 0:
                total = to_float32(total + bflops)
        return total


def build_network(doc: CfgDocument, dialect: Dialect, sink: Sink) -> Network | None:
    """Build every layer of ``doc``; ``None`` when there is no usable [net]. The cross-layer
    checks are a later stage (:func:`dnlint.lint.lint_cfg_bytes` runs them)."""
    if doc.fatal or not doc.sections:
        return None
    net, net_values = parse_net(doc.sections[0], dialect, sink)
    network = Network(net, net_values, Layers(doc.sections), dialect=dialect)
    carried = (net.width, net.height, net.channels, net.inputs)
    overflowed = False
    for index, section in enumerate(doc.layer_sections()):
        if overflowed:
            # Darknet's int sizes have wrapped: nothing after this can be computed, and a size
            # that doubles layer after layer would grow without bound (thousands of digits)
            network.layers.append(zero_layer(index, section.line, section.name, _NOTHING))
            continue
        layer, overflowed = _build_layer(index, section, dialect, net, network.layers, carried,
                                         sink)
        network.layers.append(layer)
        network.overflowed = overflowed
        facts = layer.facts  # Layer.next_shape, inlined: most layers have no facts
        carried = (facts is not None and facts.next_shape) or (*layer.output, layer.outputs)
    return network


_NOTHING = (0, 0, 0, 0)


def _build_layer(
    index: int,
    section: Section,
    dialect: Dialect,
    net: NetInfo,
    previous: Layers,
    carried: tuple[int, int, int, int],
    sink: Sink,
) -> tuple[Layer, bool]:
    """The layer, and whether one of its sizes overflows a C int (the build stops there)."""
    layer_type = _resolve_type(section, dialect, sink)
    if layer_type is None:
        layer = zero_layer(index, section.line, section.name, carried)
        return layer, _overflow(layer) is not None
    table = layer_type.tables.get(dialect) or layer_type.table(dialect)
    values = type_section(section, table, sink)
    ctx = LayerContext(index, layer_type.name, values, dialect, net, previous, carried, sink)
    layer_type.build(ctx)
    return ctx.layer, _check_overflow(ctx)


def _resolve_type(section: Section, dialect: Dialect, sink: Sink) -> LayerType | None:
    if section._at <= 0:  # not section.header_ok, without the property call
        return None  # the reader reported the malformed header
    name = section.name
    if name in ("net", "network"):
        sink.report(
            "DN022",
            section.line,
            section.column,
            f"a second [{name}] section: " + (
                f"hank-ai's Darknet stops: 'layer type \"{name}\" not recognized on line "
                f"#{section.line}'" if dialect is Dialect.HANK
                else "Darknet builds it as an unknown, all-zero layer"),
            "a cfg has exactly one [net], at the top",
        )
        return None
    layer_type = by_section(name, dialect)
    if layer_type is not None:
        return layer_type
    elsewhere = section_dialects().get(name)
    if elsewhere:
        sink.report(
            "DN021",
            section.line,
            section.column,
            f"[{name}] exists only in {names(elsewhere)}; "
            + (_hank_refuses(name) if dialect is Dialect.HANK
               else f"{dialect.label} does not know it and builds an all-zero layer"),
            "choose the dialect this cfg is for with --dialect",
        )
        return None
    guess = _suggest_section(name)
    sink.report(
        "DN020",
        section.line,
        section.column,
        f"unknown section [{name}]: " + (
            _hank_refuses(name) if dialect is Dialect.HANK else
            "Darknet prints 'Type not recognized' and builds an all-zero layer in its place"),
        f"did you mean [{guess}]?" if guess else None,
    )
    return None


_SUGGESTED: dict[str, str | None] = {}


def _suggest_section(name: str) -> str | None:
    """The section type ``name`` was probably meant to be: looked up once per name (up to
    MEMO_SIZE names), since passing every section name to the (cached) suggestion cost more
    than the rest of an unknown section's build."""
    if name in _SUGGESTED:
        return _SUGGESTED[name]
    return remember(_SUGGESTED, name, suggest(name, section_dialects()))


def _hank_refuses(name: str) -> str:
    """What get_layer_type_from_name (src-lib/darknet_enums.cpp) says before it aborts."""
    return f"hank-ai's Darknet stops: 'layer name \"{name}\" is not supported'"


def _check_overflow(ctx: LayerContext) -> bool:
    """DN312 for the first of a layer's sizes that a 32-bit C int cannot hold; the build stops
    after such a layer (:func:`build_network`). Whether there is one."""
    found = _overflow(ctx.layer)
    if found is None:
        return False
    what, value = found
    # at the value to edit: filters= (a digit too many) when it is what grew the size
    line, column = (ctx.layer.size_at() if what in ("outputs", "parameter count",
                                                     "output channels")
                    else ctx.values.line_of(None))
    ctx.sink.report(
        "DN312", line, column,
        f"the {what} of this layer is {value:,}, more than a 32-bit C int holds: Darknet's "
        "int arithmetic overflows; the layers after it are not built",
    )
    ctx.layer.broken = True
    return True


def _overflow(layer: Layer) -> tuple[str, int] | None:
    """The first of ``layer``'s sizes over INT32_MAX, as (what, value), or None. A zero width
    hides a channel count that doubles in ``outputs``: every dimension is checked. (The
    input of the first layer is [net]'s, whose own checks report it.)"""
    w, h, c = layer.output
    if layer.outputs <= INT32_MAX and total_floats(layer.saved) <= INT32_MAX \
            and w <= INT32_MAX and h <= INT32_MAX and c <= INT32_MAX:
        return None  # (total_floats: Layer.params without the property call)
    for what, value in (("outputs", layer.outputs), ("parameter count", layer.params),
                        ("output width", w), ("output height", h), ("output channels", c)):
        if value > INT32_MAX:
            return what, value
    return None
