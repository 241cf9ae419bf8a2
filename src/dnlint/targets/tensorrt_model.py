"""What jkjung-avt/tensorrt_demos (commit c7c7f035) does with a cfg, without running it.

The tool's route to TensorRT is ``yolo/yolo_to_onnx.py`` (its own cfg parser, a handful of
whole-file line scans, an ONNX graph builder that reads the weights) and then
``yolo/plugins.py`` with the YOLO plugin (``plugins/yolo_layer.cu``). :func:`convert` walks the
same steps in the same order on the cfg text and returns what stops them (``refusals``, each
with the DN62x code and line) and what they silently do differently from Darknet (``changes``).
Line numbers in comments (``Y:NNN``, ``P:NN``, ``C:NNN``) are those of the pinned commit.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field

COMMIT = "c7c7f035c7d29ed3ccdf0bd66d9cb06ff493a2db"
SUPPORTED = ("net", "convolutional", "maxpool", "shortcut", "route", "upsample", "yolo")
ACTIVATIONS = ("leaky", "mish", "swish", "logistic", "linear")  # Y:745-827
REQUIRED = {  # the keys each node builder indexes without a default
    "net": ("channels", "height", "width"),  # Y:651-653
    "convolutional": ("size", "stride", "filters", "activation"),  # Y:694-696, Y:745
    "maxpool": ("stride", "size"),  # Y:979-980
    "upsample": ("stride",),  # Y:941
    "shortcut": ("from", "activation"),  # Y:840-841
    "route": ("layers",),  # Y:866
}
MAX_ANCHORS = 6  # C:331
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # TensorRT's dimensions and attributes: int32
FLOAT_MAX = 3.4028234663852886e38  # an ONNX float attribute: a 32-bit float
MULTIPLIERS = (64, 32, 16, 8)  # C:354

Value = int | float | str | list[int] | None


@dataclass
class Finding:
    code: str
    line: int
    message: str


@dataclass
class TrtSection:
    """One section as the tool's parser reads it: values typed as ``_parse_params`` types them,
    the last occurrence of a key winning (a dict)."""

    type: str
    line: int
    values: dict[str, Value] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    raw: dict[str, tuple[int, str]] = field(default_factory=dict)  # [yolo]: key -> (line, text)

    def line_of(self, key: str) -> int:
        return self.lines.get(key, self.line)


@dataclass
class TrtConversion:
    sections: list[TrtSection] = field(default_factory=list)
    refusals: list[Finding] = field(default_factory=list)
    changes: list[Finding] = field(default_factory=list)
    floats_read: int | None = None  # what the weight loader reads after the header

    @property
    def accepted(self) -> bool:
        return not self.refusals


class _Stop(Exception):
    """The tool raised: the conversion ends here."""

    def __init__(self, code: str, line: int, message: str) -> None:
        super().__init__(message)
        self.finding = Finding(code, line, message)


class _Lines:
    """Line numbers of offsets met in increasing order: counted once over the text, not from
    its start at every section (which is quadratic in the number of sections)."""

    def __init__(self, text: str) -> None:
        self.text, self.offset, self.line = text, 0, 1

    def at(self, offset: int) -> int:
        if offset < self.offset:
            return self.text.count("\n", 0, offset) + 1
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


# -- stage 1a: DarkNetParser.parse_cfg_file (Y:221-300) ---------------------------------------

def parse(text: str) -> list[TrtSection]:
    """The sections as ``DarkNetParser`` reads them; raises :class:`_Stop` where it raises."""
    sections: list[TrtSection] = []
    lines = _Lines(text)
    pos = 0
    while True:
        start = pos
        bracket = text.find("[", start)
        # '#[' is a commented-out section: look for the next '[' (Y:233-236)
        while bracket > start and text[bracket - 1] == "#":
            start = bracket + 1
            bracket = text.find("[", start)
        if bracket < 0:
            if start < len(text) and text.endswith("#"):
                raise _Stop("DN621", lines.at(len(text) - 1),
                            "the file ends in '#' after the last section: the parser's "
                            "'#[' skip indexes past the end (IndexError)")
            return sections
        close = text.find("]", bracket + 1)
        line = lines.at(bracket)
        if close < 0:
            raise _Stop("DN621", line, "a '[' without a closing ']': 'no closing bracket!'")
        layer_type = text[bracket + 1:close]
        if layer_type not in SUPPORTED:
            raise _Stop("DN620", line, f"'{_short(layer_type)} layer not supported!'")
        nxt = text.find("\n[", close + 1)
        block = text[close + 1:nxt if nxt >= 0 else len(text)]
        section = TrtSection(layer_type, line)
        if layer_type != "yolo":  # [yolo] lines are never parsed (Y:268)
            _parse_block(section, block, line)
        else:
            _keep_raw(section, block, line)
        sections.append(section)
        if nxt < 0:
            return sections
        pos = nxt + 1


def _short(text: str) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= 40 else text[:37] + "..."


def _parse_block(section: TrtSection, block: str, line: int) -> None:
    skip = ("steps", "scales") if section.type == "net" else ()
    for number, raw in enumerate(block.split("\n")):
        stripped = raw.lstrip()
        param = stripped.split("#")[0]
        if not param:
            continue
        where = line + number
        if "[" in param:  # Y:279
            raise _Stop("DN621", where, f"a '[' inside an option line ({_short(param)!r}): the "
                        "parser's assert '[' not in param_line fails")
        squeezed = param.replace(" ", "")
        parts = squeezed.split("=")
        if len(parts) != 2:  # Y:285
            raise _Stop("DN621", where, f"{_short(param.strip())!r} is not one 'key=value': "
                        f"the parser's split('=') gives {len(parts)} parts (ValueError)")
        key, raw_value = parts
        if not raw_value:  # Y:286
            raise _Stop("DN621", where, f"{key}= has no value: the parser asserts one")
        if key in skip:
            continue
        section.values[key] = _typed(key, raw_value, where)
        section.lines[key] = where


def _keep_raw(section: TrtSection, block: str, line: int) -> None:
    for number, raw in enumerate(block.split("\n")):
        key, equals, value = raw.split("#")[0].partition("=")
        if equals and key.strip() not in section.raw:
            section.raw[key.strip()] = (line + number, value.replace(" ", "").strip())


def _typed(key: str, raw: str, line: int) -> Value:
    """``_parse_params``'s typing (Y:288-299)."""
    try:
        if key == "layers":
            return [int(index) for index in raw.split(",")]
        if raw.isalpha():
            return raw
        if raw.isdigit() or (raw[0] == "-" and raw[1:].isdigit()):
            return int(raw)
        return float(raw)
    except ValueError:
        kind = "a list of integers" if key == "layers" else "a number or a word of letters"
        raise _Stop("DN622", line, f"{key}={_short(raw)}: the parser reads a value that is not "
                    f"all letters as {kind}, and this one is not (ValueError)") from None


# -- stage 1b: the whole-file line scans of main() (Y:86-171) ---------------------------------

@dataclass
class _Heads:
    classes: int
    anchors: list[list[float]]
    yolo_lines: list[int]
    pan: bool


def _scan_heads(text: str, sections: list[TrtSection]) -> _Heads:
    raw_lines = text.split("\n")
    stripped = [raw.strip() for raw in raw_lines]
    classes_at = [i for i, s in enumerate(stripped) if s.startswith("classes=")]
    if len({stripped[i] for i in classes_at}) != 1:  # Y:129
        first_head = next((s.line for s in sections if s.type == "yolo"), 1)
        if not classes_at:
            raise _Stop("DN628", first_head, "no line begins with 'classes=' (spaces around '=' "
                        "do not count): the tool's assert on the class count fails")
        differing = next(i for i in classes_at if stripped[i] != stripped[classes_at[0]])
        raise _Stop("DN628", differing + 1, f"{stripped[differing]!r} differs from line "
                    f"{classes_at[0] + 1} ({stripped[classes_at[0]]!r}): the tool asserts that "
                    "every 'classes=' line is the same")
    last = classes_at[-1]
    try:
        classes = int(stripped[last].split("=")[-1].strip())
    except ValueError:
        raise _Stop("DN628", last + 1, f"{stripped[last]!r}: the tool reads the class count with "
                    "int() (ValueError)") from None
    _output_convs(sections)
    yolo_at = [i for i, raw in enumerate(raw_lines) if raw.startswith("[yolo]")]
    mask_at = [i for i, raw in enumerate(raw_lines) if raw.startswith("mask")]
    anchors_at = [i for i, raw in enumerate(raw_lines) if raw.startswith("anchors")]
    where = yolo_at[0] + 1 if yolo_at else 1
    for name, found in (("mask", mask_at), ("anchors", anchors_at)):
        if len(found) != len(yolo_at):  # Y:145-146
            raise _Stop("DN629", found[len(yolo_at)] + 1 if len(found) > len(yolo_at) else where,
                        f"{len(found)} lines begin with '{name}' (no indentation) but "
                        f"{len(yolo_at)} with '[yolo]': the tool asserts as many")
    anchor_list = _literal(raw_lines[anchors_at[0]].split("=")[-1], anchors_at[0] + 1) \
        if anchors_at else []
    anchors: list[list[float]] = []
    for index in mask_at:
        mask = _literal(stripped[index].split("=")[-1], index + 1)
        head: list[float] = []
        for m in mask:
            if not isinstance(m, int) or not -len(anchor_list) <= 2 * m + 1 < len(anchor_list):
                raise _Stop("DN629", index + 1, f"mask value {m} picks no anchor pair of the "
                            f"first 'anchors' line (line {anchors_at[0] + 1}), which the tool "
                            "uses for every head (IndexError)")
            pair = anchor_list[2 * m], anchor_list[2 * m + 1]
            if not all(-FLOAT_MAX <= v <= FLOAT_MAX for v in pair):
                raise _Stop("DN629", anchors_at[0] + 1, f"mask value {m} picks an anchor "
                            "that is not a finite 32-bit float, as the YOLO plugin stores "
                            "anchors")
            head += [float(pair[0]), float(pair[1])]
        anchors.append(head)
    if not anchors:  # Y:164
        raise _Stop("DN630", 1, "no [yolo] head: the tool asserts at least one 'mask' line")
    counts = [len(a) // 2 for a in anchors]
    if len(set(counts)) != 1:  # Y:165
        differing = next(i for i, c in enumerate(counts) if c != counts[0])
        raise _Stop("DN629", mask_at[differing] + 1, f"this head has {counts[differing]} "
                    f"masks, the first {counts[0]}: the tool asserts every head has as many")
    bare = [i for i, s in enumerate(stripped) if s in ("[yolo]", "[upsample]")]
    heads = sum(1 for i in bare if stripped[i] == "[yolo]")
    upsamples = len(bare) - heads
    parsed_heads = sum(1 for s in sections if s.type == "yolo")
    if parsed_heads not in (2, 3, 4):  # Y:1031-1040: output_tensor_shapes is never bound
        raise _Stop("DN630", where, f"{parsed_heads} [yolo] heads: the tool converts 2, 3 or "
                    "4 (UnboundLocalError)")
    if heads not in (2, 3, 4) or upsamples not in (heads - 1, 0):  # Y:94-95
        raise _Stop("DN630", where, f"{heads} '[yolo]' and {upsamples} '[upsample]' lines: "
                    "the tool asserts 2 to 4 heads and as many upsamples as heads - 1, or none")
    return _Heads(classes, anchors, [i + 1 for i in yolo_at], stripped[bare[0]] == "[upsample]")


def _literal(text: str, line: int) -> list[int | float]:
    """``eval('[%s]' % text)`` on a list of numbers, as the tool reads mask and anchors."""
    try:
        value = ast.literal_eval(f"[{text}\n]")
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise _Stop("DN629", line, f"{_short(text.strip())!r} is not a Python list of numbers: "
                    "the tool eval()s it (SyntaxError)") from None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise _Stop("DN629", line, f"{_short(text.strip())!r} is not a list of numbers")
    return list(value)


def _output_convs(sections: list[TrtSection]) -> None:
    """get_output_convs (Y:113-121): the section before each head."""
    for before, section in itertools.pairwise(sections):
        if section.type != "yolo":
            continue
        if before.type != "convolutional":
            raise _Stop("DN627", section.line, f"the section before this [yolo] is "
                        f"[{before.type}]: the tool asserts a [convolutional]")
        activation = before.values.get("activation")
        if activation is None:
            raise _Stop("DN623", before.line, "[convolutional] has no activation= line: the "
                        "tool reads it without a default (KeyError 'activation')")
        if activation not in ("linear", "logistic"):
            raise _Stop("DN627", before.line_of("activation"), f"activation={activation} on "
                        "the [convolutional] before a [yolo]: the tool takes only linear or "
                        "logistic there ('unexpected activation')")


# -- stage 1c: GraphBuilderONNX (Y:560-1000) ---------------------------------------------------

@dataclass
class _Node:
    name: str
    channels: int | float
    size: tuple[int, int] | None  # (height, width) as ONNX shape inference gives them

    @property
    def created(self) -> bool:  # MajorNodeSpecs.created_onnx_node
        return isinstance(self.channels, int) and self.channels > 0


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[_Node] = []
        self.route_spec = 0
        self.floats = 0

    def previous(self, section: TrtSection, target: int = 0) -> _Node:
        """_get_previous_node_specs (Y:666-686)."""
        try:
            if target == 0 and self.route_spec != 0:
                node = self.nodes[self.route_spec]
                self.route_spec = 0
                if "dummy" in node.name:
                    raise _Stop("DN626", section.line, "this section reads a single-input "
                                "[route] to a [route] or [yolo], which the tool cannot follow")
            else:
                node = self.nodes[target] if target else self.nodes[-1]
        except IndexError:
            raise _Stop("DN625", section.line, f"the layer index {target} is outside the "
                        "network as the tool counts it (IndexError)") from None
        if not node.created:
            raise _Stop("DN625", section.line, "the layer this section reads made no node in "
                        "the tool's graph")
        return node


def _need(section: TrtSection, key: str) -> Value:
    if key not in section.values:
        raise _Stop("DN623", section.line, f"[{section.type}] has no {key}= line: Darknet "
                    f"has a default, the tool reads it without one (KeyError '{key}')")
    return section.values[key]


def _int(section: TrtSection, key: str) -> int:
    """A value the graph is built with: an integer TensorRT can hold (its dimensions and
    attributes are 32-bit), else the conversion stops here."""
    value = _need(section, key)
    if not isinstance(value, int):
        raise _Stop("DN622", section.line_of(key), f"{key}={_short(str(value))}: the tool "
                    "builds the graph with it and needs an integer")
    if not INT_MIN <= value <= INT_MAX:
        raise _Stop("DN622", section.line_of(key), f"{key}={_short(str(value))} is outside "
                    "the 32-bit integers TensorRT builds the network with")
    return value


def _float(section: TrtSection, key: str) -> float:
    """A value the tool reads with float(): finite and within a 32-bit float's range."""
    value = _need(section, key)
    if not isinstance(value, (int, float)):
        raise _Stop("DN622", section.line_of(key), f"{key}={_short(str(value))}: the tool "
                    "reads it with float() (ValueError)")
    if not -FLOAT_MAX <= value <= FLOAT_MAX:  # also false for nan
        raise _Stop("DN622", section.line_of(key), f"{key}={_short(str(value))} is not a "
                    "finite 32-bit float, which the ONNX graph stores it as")
    return float(value)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b) if b > 0 else a


def _conv(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    previous = graph.previous(section)
    size, stride = _int(section, "size"), _int(section, "stride")
    filters = _int(section, "filters")
    activation = _need(section, "activation")
    bn = section.values.get("batch_normalize", 0)
    if not isinstance(bn, (int, float)):
        raise _Stop("DN622", section.line_of("batch_normalize"), f"batch_normalize={bn}: the "
                    "tool compares it with 0 (TypeError)")
    if activation not in ACTIVATIONS:
        raise _Stop("DN624", section.line_of("activation"), f"'{activation} activation not "
                    "supported' (the tool converts leaky, mish, swish, logistic and linear)")
    in_channels = int(previous.channels)
    graph.floats += filters * (4 if bn > 0 else 1) + filters * in_channels * size * size
    out = None
    if previous.size is not None and stride > 0:
        out = (_ceil_div(previous.size[0], stride), _ceil_div(previous.size[1], stride))
    return _Node(name, filters, out)


def _maxpool(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    stride = _int(section, "stride")
    _int(section, "size")
    previous = graph.previous(section)
    out = None
    if previous.size is not None and stride > 0:
        out = (_ceil_div(previous.size[0], stride), _ceil_div(previous.size[1], stride))
    return _Node(name, previous.channels, out)


def _upsample(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    stride = _float(section, "stride")
    previous = graph.previous(section)
    out = None
    if previous.size is not None:
        out = (int(previous.size[0] * stride), int(previous.size[1] * stride))
    return _Node(name, previous.channels, out)


def _shortcut(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    source = _int(section, "from")
    activation = _need(section, "activation")
    if activation != "linear":  # Y:842
        raise _Stop("DN625", section.line_of("activation"), f"activation={activation} on a "
                    "[shortcut]: the tool asserts linear")
    first = graph.previous(section)
    second = graph.previous(section, source)
    if first.channels != second.channels:  # Y:847
        raise _Stop("DN625", section.line, f"the [shortcut] adds {second.channels} channels to "
                    f"{first.channels}: the tool asserts equal channel counts")
    return _Node(name, first.channels, first.size)


def _route(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    layers = _need(section, "layers")
    if isinstance(layers, int):
        layers = [layers]
    if not isinstance(layers, list):
        raise _Stop("DN622", section.line_of("layers"), f"layers={layers}: not a list of "
                    "integers")
    if len(layers) == 1:
        if "groups" in section.values:
            return _route_group(graph, section, name, layers[0])
        if layers[0] < 0:
            graph.route_spec = layers[0] - 1
        elif layers[0] > 0:
            graph.route_spec = layers[0] + 1
        return _Node(name + "_dummy", 1, None)
    if "groups" in section.values:  # Y:907
        raise _Stop("DN626", section.line_of("groups"), "groups on a [route] of several layers: "
                    "'groups not implemented for multiple-input route layer!'")
    channels: int | float = 0
    size = None
    for number, index in enumerate(layers):
        node = graph.previous(section, index + 1 if index > 0 else index)
        channels += node.channels
        size = node.size if number == 0 else size
    return _Node(name, channels, size)


def _route_group(graph: _Graph, section: TrtSection, name: str, index: int) -> _Node:
    if "group_id" not in section.values:  # Y:871
        raise _Stop("DN626", section.line_of("groups"), "groups without group_id on a "
                    "[route]: the tool asserts group_id is given (Darknet's default is 0)")
    groups, group_id = _int(section, "groups"), _int(section, "group_id")
    if not group_id < groups:
        raise _Stop("DN626", section.line_of("group_id"), f"group_id={group_id} is not less "
                    f"than groups={groups}: the tool asserts it")
    node = graph.previous(section, index + 1 if index > 0 else index)
    if groups == 0 or node.channels % groups:
        raise _Stop("DN626", section.line_of("groups"), f"groups={groups} does not divide the "
                    f"{node.channels} channels of the routed layer: the tool asserts it does")
    return _Node(name, int(node.channels) // groups, node.size)


def _yolo(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    return _Node(name + "_dummy", 1, None)


def _net(graph: _Graph, section: TrtSection, name: str, conv: TrtConversion) -> _Node:
    raise _Stop("DN620", section.line, "a second [net] section: the tool has no node builder "
                "for it ('layer of type net not supported')")


_NODE_MAKERS = {"convolutional": _conv, "maxpool": _maxpool, "upsample": _upsample,
                "shortcut": _shortcut, "route": _route, "yolo": _yolo, "net": _net}


# -- stage 2: plugins.add_yolo_plugins and yolo_layer.cu (P:50-130, C:120-122, C:331-356) -----

def _plugins(text: str, sections: list[TrtSection], heads: _Heads,
             sizes: list[tuple[int, int] | None], channels: list[int | float]) -> None:
    height, width = _int(sections[0], "height"), _int(sections[0], "width")
    strides = _assumed_strides(len(heads.anchors), heads.pan)
    raw_lines = text.split("\n")
    scale_at = [i for i, raw in enumerate(raw_lines) if raw.startswith("scale_x_y")]
    first = heads.yolo_lines[0]
    if scale_at and len(scale_at) != len(heads.yolo_lines):  # P:29
        raise _Stop("DN631", scale_at[0] + 1, f"{len(scale_at)} 'scale_x_y' lines for "
                    f"{len(heads.yolo_lines)} heads: the tool asserts one per head, or none")
    scales = []
    for index in scale_at:
        try:
            scales.append(float(raw_lines[index].strip().split("=")[-1]))
        except ValueError:
            raise _Stop("DN622", index + 1, "scale_x_y: the tool reads it with float() "
                        "(ValueError)") from None
    if any(scale < 1.0 for scale in scales):  # P:90
        low = next(i for i, s in zip(scale_at, scales, strict=True) if s < 1.0)
        raise _Stop("DN631", low + 1, "scale_x_y below 1.0: the tool refuses it ('bad "
                    "scale_x_y')")
    coords_at = [i for i, raw in enumerate(raw_lines) if raw.startswith("new_coords")]
    if coords_at and len(coords_at) != len(heads.yolo_lines):  # P:44
        raise _Stop("DN631", coords_at[0] + 1, f"{len(coords_at)} 'new_coords' lines for "
                    f"{len(heads.yolo_lines)} heads: the tool asserts one per head, or none")
    for number, (anchors, stride) in enumerate(zip(heads.anchors, strides, strict=False)):
        line = heads.yolo_lines[number] if number < len(heads.yolo_lines) else first
        grid = (height // stride, width // stride)
        if grid[1] == 0:
            raise _Stop("DN631", line, f"width={width} is less than the stride {stride} the "
                        "tool assumes for this head (ZeroDivisionError)")
        count = len(anchors) // 2
        if not 0 < count <= MAX_ANCHORS:
            raise _Stop("DN631", line, f"{count} anchors in this head: the YOLO plugin asserts "
                        f"1 to {MAX_ANCHORS} (yolo_layer.cu:331)")
        if grid[0] <= 0:
            raise _Stop("DN631", line, f"height={height} gives this head a grid of 0 rows "
                        "(yolo_layer.cu:351)")
        if not (anchors[0] > 0 and anchors[1] > 0):
            raise _Stop("DN631", line, "the head's first anchor is not positive: the YOLO "
                        "plugin asserts it is (yolo_layer.cu:352)")
        if heads.classes <= 0:
            raise _Stop("DN631", line, f"classes={heads.classes}: the YOLO plugin asserts "
                        "classes > 0 (yolo_layer.cu:353)")
        if width // grid[1] not in MULTIPLIERS:
            raise _Stop("DN631", line, f"width={width} is not a multiple of {stride}: the "
                        f"plugin's input multiplier {width // grid[1]} is not 8, 16, 32 or 64 "
                        "(yolo_layer.cu:354)")
        _check_head_input(line, heads, count, grid, sizes[number], channels[number])


def _check_head_input(line: int, heads: _Heads, count: int, grid: tuple[int, int],
                      size: tuple[int, int] | None, channels: int | float) -> None:
    """YoloLayerPlugin::getOutputDimensions (C:120-122) on the head's input tensor."""
    if channels != (heads.classes + 5) * count:
        raise _Stop("DN631", line, f"the [convolutional] before this head has {channels} "
                    f"filters; the YOLO plugin asserts (classes + 5) x anchors = "
                    f"({heads.classes} + 5) x {count} = {(heads.classes + 5) * count} "
                    "(yolo_layer.cu:120)")
    if size is not None and size != grid:
        raise _Stop("DN632", line, f"this head's grid is {size[1]}x{size[0]}, but the tool "
                    f"assumes {grid[1]}x{grid[0]} from the head order (yolo_layer.cu:121-122)")


def _assumed_strides(count: int, pan: bool) -> list[int]:
    """Y:1031-1043: the strides the tool gives the heads, in file order."""
    strides = {2: [32, 16], 3: [32, 16, 8], 4: [64, 32, 16, 8]}[count]
    return strides[::-1] if pan else strides


# -- the whole tool ---------------------------------------------------------------------------

def convert(text: str) -> TrtConversion:
    """Walk yolo_to_onnx.py then plugins.py over ``text`` (the cfg, newlines normalized)."""
    result = TrtConversion()
    try:
        result.sections = parse(text)
        heads = _scan_heads(text, result.sections)
        graph = _Graph()
        _build_into(result, graph)
        result.floats_read = graph.floats
        outputs = [i for i, s in enumerate(result.sections) if s.type == "yolo"]
        sizes = [graph.nodes[i - 1].size for i in outputs]
        channels = [graph.nodes[i - 1].channels for i in outputs]
        _plugins(text, result.sections, heads, sizes, channels)
    except _Stop as stop:
        result.refusals.append(stop.finding)
    return result


def _build_into(result: TrtConversion, graph: _Graph) -> None:
    sections = result.sections
    if not sections or sections[0].type != "net":
        raise _Stop("DN623", sections[0].line if sections else 1, "the first section is not "
                    "[net]: the tool looks up '000_net' (KeyError)")
    net = sections[0]
    for key in REQUIRED["net"]:
        _need(net, key)
    # the input tensor's dimensions (Y:651-660): integers, as every size after them
    size = (_int(net, "height"), _int(net, "width"))
    graph.nodes.append(_Node("000_net", _int(net, "channels"), size))
    for index, section in enumerate(sections[1:], 1):
        name = f"{index:03d}_{section.type}"
        graph.nodes.append(_NODE_MAKERS[section.type](graph, section, name, result))
