"""What OpenCV 4.x's Darknet importer makes of a cfg: its own reading of the lines, the layers
it imports, the checks it stops at, and the shape each imported layer produces.

Mirrors ReadDarknetFromCfgStream (modules/dnn/src/darknet/darknet_io.cpp) and populateNet
(darknet_importer.cpp). The importer reads the text itself, differently from Darknet: every
character outside '!'..'z' is dropped from each line, and a repeated key keeps its last value.
Each refusal is recorded as a :class:`Refusal`; the simulation goes on after one (with the
channel count Darknet gives an unknown layer) so that independent problems are all reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from dnlint.cnumbers import INT32_MAX, INT32_MIN, c_strtol

_OUTSIDE = re.compile(r"[^!-z]+")  # escapeString keeps ' ' < c <= 'z'
_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")

IMPORTED = frozenset({
    "convolutional", "connected", "maxpool", "avgpool", "crop", "softmax", "route", "dropout",
    "cost", "reorg", "region", "shortcut", "scale_channels", "sam", "upsample", "yolo",
})
ACTIVATIONS = frozenset({"relu", "leaky", "swish", "silu", "mish", "logistic", "tanh"})

Shape = tuple[int, int, int]  # (channels, height, width), as OpenCV's NCHW without N


@dataclass
class Refusal:
    """Where and why OpenCV stops importing: a DN60x code, a line, a message."""

    code: str
    line: int
    message: str
    subject: str = ""  # the layer type or activation: reported once per file


@dataclass
class OcvSection:
    """A section as OpenCV stores it: its type and, per key, the last value and its line."""

    type: str
    line: int
    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    first: dict[str, tuple[str, int]] = field(default_factory=dict)

    def set(self, key: str, value: str, line: int) -> None:
        self.values[key] = (value, line)
        self.first.setdefault(key, (value, line))

    def has(self, key: str) -> bool:
        return key in self.values

    def text(self, key: str, default: str = "") -> str:
        found = self.values.get(key)
        return found[0] if found else default

    def number(self, key: str, default: int) -> int:
        found = self.values.get(key)
        return cpp_int(found[0]) if found else default

    def real(self, key: str, default: float) -> float:
        found = self.values.get(key)
        return cpp_float(found[0]) if found else default

    def line_of(self, key: str) -> int:
        found = self.values.get(key)
        return found[1] if found else self.line


@dataclass
class OcvNetwork:
    """The result: sections, refusals, and per section the imported output and its shape."""

    net: OcvSection
    sections: list[OcvSection]
    refusals: list[Refusal] = field(default_factory=list)
    # what loads but fails on the first forward (shape inference): DN614 warnings
    failures: list[Refusal] = field(default_factory=list)
    # per section: the name of the OpenCV layer whose output stands for it (fused_layer_names)
    outputs: list[str | None] = field(default_factory=list)
    # per section: the shape OpenCV's layers produce for it, None where dnlint does not model it
    shapes: list[Shape | None] = field(default_factory=list)

    @property
    def loads(self) -> bool:
        return not self.refusals


def cpp_int(text: str) -> int:
    """``std::stringstream >> int``: a leading integer, 0 when there is none, saturated (to a
    C long first, as strtol does, then to an int: the same for any length of digits)."""
    return max(INT32_MIN, min(INT32_MAX, c_strtol(text)))


def cpp_float(text: str) -> float:
    """``std::stringstream >> float``: a leading decimal number, 0 when there is none."""
    match = _FLOAT.match(text)
    return float(match.group()) if match else 0.0


def cpp_fields(text: str) -> list[str]:
    """getNumbers' fields: split at ',' with std::getline, which drops one trailing empty one."""
    parts = text.split(",")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def read_sections(lines: Sequence[str]) -> OcvNetwork:
    """The reading loop of ReadDarknetFromCfgStream, with the line of every section and key."""
    net = OcvSection("net", 1)
    sections: list[OcvSection] = []
    refusals: list[Refusal] = []
    in_net, stray = False, False
    for number, raw in enumerate(lines, start=1):
        line = _OUTSIDE.sub("", raw)
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            if line == "[net]":
                in_net = True
                continue
            in_net = False
            end = line.find("]")
            if end < 0:
                refusals.append(Refusal("DN606", number, "section line without ']': OpenCV "
                                        "asserts 'layer_type_size < line.size()'"))
            sections.append(OcvSection(line[1:end] if end >= 0 else line[1:], number))
            continue
        name, sep, value = line.partition("=")
        if not sep:
            refusals.append(Refusal("DN606", number, f"'{line}' has no '=': OpenCV asserts "
                                    "'separator_index < line.size()'"))
            continue
        if not name or not value:
            continue
        if in_net:
            net.set(name, value, number)
        elif sections:
            sections[-1].set(name, value, number)
        elif not stray:
            stray = True
            refusals.append(Refusal("DN606", number, "option before the first section: OpenCV "
                                    "files it under a nameless layer and stops with 'Unknown "
                                    "layer type: '"))
    if not sections and not stray:
        refusals.append(Refusal("DN606", 1, "no layer section: OpenCV looks up the last layer, "
                                "creates a nameless one and stops with 'Unknown layer type: '"))
    return OcvNetwork(net, sections, refusals)


@dataclass
class _State:
    """The importer's bookkeeping while it walks the sections."""

    channels: int
    height: int
    width: int
    out_channels: list[int]
    fused: list[str] = field(default_factory=list)  # fused_layer_names
    shapes_by_name: dict[str, Shape | None] = field(default_factory=dict)
    layer_id: int = 0
    last: str = "data"
    failures: list[Refusal] = field(default_factory=list)


def simulate(lines: Sequence[str], darknet_channels: dict[int, int] | None = None) -> OcvNetwork:
    """Read ``lines`` as OpenCV does and walk its import. ``darknet_channels`` maps a section's
    line to Darknet's output channels, used to go on past a section OpenCV cannot import."""
    result = read_sections(lines)
    width = result.net.number("width", 416)
    height = result.net.number("height", 416)
    channels = result.net.number("channels", 3)
    if not (width > 0 and height > 0 and channels > 0):
        result.refusals.append(Refusal(
            "DN604", result.net.line_of("width" if width <= 0 else "height" if height <= 0
                                        else "channels"),
            f"OpenCV asserts width > 0, height > 0 and channels > 0 in [net] (reads {width}, "
            f"{height}, {channels})"))
    state = _State(channels, height, width, [0] * len(result.sections))
    state.shapes_by_name["data"] = (channels, height, width)
    regions = 0
    for index, section in enumerate(result.sections):
        before = len(result.refusals)
        _import(index, section, state, result.refusals)
        if len(result.refusals) > before and section.type not in IMPORTED:
            state.channels = (darknet_channels or {}).get(section.line, state.channels)
            _push(state, f"unknown_{index}", None)
        _activation(section, state, result.refusals)
        if section.type == "region":
            regions += 1
            if regions == 2:
                result.refusals.append(Refusal(
                    "DN607", section.line, "a second [region]: OpenCV names both "
                    "'detection_out' and stops with 'Duplicate blobs produced by multiple "
                    "sources'"))
        state.out_channels[index] = state.channels
        name = state.fused[-1] if state.fused else None
        result.outputs.append(name)
        refused = len(result.refusals) > before  # no shape to compare where OpenCV stops
        result.shapes.append(state.shapes_by_name.get(name) if name and not refused else None)
    result.failures = state.failures
    return result


def _push(state: _State, name: str, shape: Shape | None) -> None:
    state.fused.append(name)
    state.shapes_by_name[name] = shape
    state.last = name
    state.layer_id += 1


def _at(state: _State, index: int, section: OcvSection, key: str,
        refusals: list[Refusal]) -> str | None:
    """fused_layer_names.at(index), which throws std::out_of_range past the imported layers."""
    if 0 <= index < len(state.fused):
        return state.fused[index]
    refusals.append(Refusal("DN605", section.line_of(key),
                            f"{key} resolves to layer {index}, which OpenCV has not imported "
                            f"yet (only {len(state.fused)} before this one): "
                            "'vector::_M_range_check'"))
    return None


def _import(index: int, section: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    kind = section.type
    handler = _HANDLERS.get(kind)
    if handler is None:
        refusals.append(Refusal("DN601", section.line,
                                f"OpenCV cannot import [{kind}]: 'Unknown layer type: {kind}'",
                                kind))
        return
    handler(index, section, state, refusals)


def _convolutional(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    size, stride = s.number("size", -1), s.number("stride", 1)
    filters, groups = s.number("filters", -1), s.number("groups", 1)
    padding = size // 2 if s.number("pad", 0) else s.number("padding", 0)
    problem = None
    if s.number("flipped", 0) == 1:
        problem = ("flipped", "flipped=1: 'Transpose the convolutional weights is not "
                   "implemented'")
    elif stride <= 0:
        problem = ("stride", f"stride={stride}: OpenCV asserts stride > 0")
    elif size <= 0 or filters <= 0:
        key = "size" if size <= 0 else "filters"
        problem = (key, f"{key}={size if size <= 0 else filters}: OpenCV asserts size > 0 and "
                   "filters > 0")
    elif state.channels <= 0:
        problem = ("", f"the input has {state.channels} channels: OpenCV asserts more than 0")
    elif groups == 0:
        problem = ("groups", "groups=0: OpenCV computes channels % groups and dies of a "
                   "division by zero (SIGFPE)")
    elif state.channels % abs(groups):
        problem = ("groups", f"groups={groups} does not divide the {state.channels} input "
                   "channels: OpenCV asserts it does")
    if problem is not None:
        key, message = problem
        refusals.append(Refusal("DN604", s.line_of(key) if key else s.line, message))
    shape = state.shapes_by_name.get(state.last)
    out: Shape | None = None
    if shape is not None and stride > 0 and size > 0:
        out = (filters, (shape[1] - size + 2 * padding) // stride + 1,
               (shape[2] - size + 2 * padding) // stride + 1)
    state.channels = filters
    _push(state, f"conv_{state.layer_id}", out)


def _connected(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    output = s.number("output", 1)
    if output <= 0:
        refusals.append(Refusal("DN604", s.line_of("output"),
                                f"output={output}: OpenCV asserts output > 0"))
    state.channels = output
    _push(state, f"fullyConnected_{state.layer_id}", None)  # a 2-D blob in OpenCV


def _maxpool(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    size, stride = s.number("size", 2), s.number("stride", 2)
    padding = s.number("padding", size - 1)
    if stride <= 0:
        refusals.append(Refusal("DN604", s.line_of("stride"),
                                f"stride={stride}: OpenCV asserts stride > 0"))
    shape = state.shapes_by_name.get(state.last)
    out: Shape | None = None
    if shape is not None and stride > 0:
        out = (shape[0], (shape[1] + padding - size) // stride + 1,
               (shape[2] + padding - size) // stride + 1)
    _push(state, f"pool_{state.layer_id}", out)


def _avgpool(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    shape = state.shapes_by_name.get(state.last)
    _push(state, f"avgpool_{state.layer_id}", (shape[0], 1, 1) if shape else None)


def _crop(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    height, width = s.number("crop_height", 0), s.number("crop_width", 0)
    if height <= 0 or width <= 0:
        key = "crop_height" if height <= 0 else "crop_width"
        refusals.append(Refusal("DN604", s.line_of(key),
                                f"{key} must be given and > 0 for OpenCV (CV_CheckGT)"))
    shape = state.shapes_by_name.get(state.last)
    out = (shape[0], height, width) if shape else None
    name = f"crop_{state.layer_id}"
    if not s.number("noadjust", 0):  # setCrop adds a Scale layer, under an id of its own
        state.layer_id += 1
        name = f"adjust_crop_{state.layer_id}"
    _push(state, name, out)


def _softmax(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    groups = s.number("groups", 1)
    if groups != 1:
        refusals.append(Refusal("DN604", s.line_of("groups"), f"groups={groups}: 'Softmax from "
                                "Darknet with groups != 1' is not implemented in OpenCV"))
    _push(state, f"softmax_{state.layer_id}", state.shapes_by_name.get(state.last))


def _route(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    text = s.text("layers")
    if not text:
        refusals.append(Refusal("DN605", s.line, "[route] without layers=: OpenCV asserts "
                                "it is given"))
        _push(state, f"identity_{state.layer_id}", None)
        return
    sources = []
    for value in (cpp_int(f) for f in cpp_fields(text)):
        resolved = value if value >= 0 else value + index
        if not 0 <= resolved < len(state.out_channels):
            refusals.append(Refusal("DN605", s.line_of("layers"),
                                    f"layers={text} resolves to layer {resolved}, outside the "
                                    f"{len(state.out_channels)} layers: OpenCV asserts"))
            _push(state, f"identity_{state.layer_id}", None)
            return
        sources.append(resolved)
    state.channels = sum(state.out_channels[k] for k in sources)
    groups = s.number("groups", 1)
    if groups > 1:
        _grouped_route(s, state, sources, groups, refusals)
        return
    names = [_at(state, k, s, "layers", refusals) for k in sources]
    shapes = [state.shapes_by_name.get(n) if n else None for n in names]
    prefix = "identity" if len(sources) == 1 else "concat"
    _push(state, f"{prefix}_{state.layer_id}", _concat(shapes))


def _grouped_route(s: OcvSection, state: _State, sources: list[int], groups: int,
                   refusals: list[Refusal]) -> None:
    """One Slice layer per source (each pushed as a layer of its own), then a Concat whose
    inputs OpenCV finds by shifting the source indices by their count."""
    state.channels //= groups
    split = state.channels // len(sources)
    group_id = s.number("group_id", 0)
    for k in sources:
        name = _at(state, k, s, "layers", refusals)
        shape = state.shapes_by_name.get(name) if name else None
        out = None
        if shape is not None:
            begin = split * group_id
            out = (max(0, min(shape[0], begin + split) - max(0, begin)), shape[1], shape[2])
        _push(state, f"slice_{state.layer_id}", out)
    if len(sources) > 1:
        names = [_at(state, k + len(sources), s, "layers", refusals) for k in sources]
        shapes = [state.shapes_by_name.get(n) if n else None for n in names]
        _push(state, f"concat_{state.layer_id}", _concat(shapes))


def _concat(shapes: list[Shape | None]) -> Shape | None:
    known = [x for x in shapes if x is not None]
    if len(known) < len(shapes) or any(x[1:] != known[0][1:] for x in known):
        return None
    return (sum(x[0] for x in known), known[0][1], known[0][2])


def _dropout(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    if index == 0:
        refusals.append(Refusal("DN605", s.line, f"[{s.type}] as the first layer: OpenCV "
                                "wires it to the layer before, which does not exist "
                                "('vector::_M_range_check')"))
        _push(state, f"identity_{state.layer_id}", state.shapes_by_name.get("data"))
        return
    name = _at(state, index - 1, s, "", refusals)
    _push(state, f"identity_{state.layer_id}", state.shapes_by_name.get(name) if name else None)


def _reorg(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    stride = s.number("stride", 2)
    if stride <= 0:
        refusals.append(Refusal("DN604", s.line_of("stride"),
                                f"stride={stride}: OpenCV asserts stride > 0"))
        _push(state, f"reorg_{state.layer_id}", None)
        return
    state.channels *= stride * stride
    shape = state.shapes_by_name.get(state.last)
    out = (shape[0] * stride * stride, shape[1] // stride, shape[2] // stride) if shape else None
    _push(state, f"reorg_{state.layer_id}", out)


def _head(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    """[region] and [yolo]: the assertions on classes, num, anchors (and mask)."""
    is_yolo = s.type == "yolo"
    classes, num = s.number("classes", -1), s.number("num", -1)
    anchors = s.text("anchors")
    mask = s.text("mask")
    count = len(cpp_fields(anchors))
    problem = None
    if not anchors:
        problem = ("", "anchors= is missing: OpenCV asserts it is given")
    elif is_yolo and not mask:
        problem = ("", "mask= is missing: OpenCV asserts it is given (Darknet would use "
                   "0..num-1)")
    elif classes <= 0:
        problem = ("classes", f"classes={classes}: OpenCV asserts classes > 0" if s.has("classes")
                   else "classes= is missing: OpenCV asserts classes > 0 (Darknet uses 20)")
    elif num <= 0:
        problem = ("num", f"num={num}: OpenCV asserts num > 0" if s.has("num")
                   else "num= is missing: OpenCV asserts num > 0 (Darknet uses 1)")
    elif count != 2 * num:
        problem = ("anchors", f"anchors holds {count} values, num={num} needs {2 * num}: "
                   "OpenCV asserts num * 2 == anchors count")
    elif is_yolo:
        for m in (cpp_int(f) for f in cpp_fields(mask)):
            if not (m >= 0 and m * 2 + 1 < count):
                problem = ("mask", f"mask value {m} picks no anchor pair of the {count // 2}: "
                           "OpenCV asserts it does")
                break
    if problem is not None:
        key, message = problem
        refusals.append(Refusal("DN603", s.line_of(key) if key else s.line, message))
    if not is_yolo and problem is None:
        failure = _region_failure(s)
        if failure is not None:
            state.failures.append(failure)
    name = f"yolo_{state.layer_id}" if is_yolo else "detection_out"
    _push(state, name, None)


def _region_failure(s: OcvSection) -> Refusal | None:
    """What OpenCV's Region layer asserts when it is created (region_layer.cpp, the
    RegionLayerImpl constructor, in this order), at the first forward: the importer loads it."""
    coords = s.number("coords", 4)
    if coords != 4:
        return Refusal("DN614", s.line_of("coords"), f"[region] with coords={coords}: OpenCV "
                       "loads it but its Region layer asserts coords == 4 on the first forward")
    if s.number("softmax", 0) != 1:
        where = f"softmax={s.text('softmax')}" if s.has("softmax") else "no softmax=1"
        return Refusal("DN614", s.line_of("softmax"), f"[region] with {where}: OpenCV loads "
                       "it but its Region layer asserts softmax (Darknet's default is 0) on "
                       "the first forward")
    if s.has("tree"):
        return Refusal("DN614", s.line_of("tree"), "[region] with tree= (YOLO9000): OpenCV "
                       "loads it but its Region layer stops with 'Yolo9000 is not "
                       "implemented' on the first forward")
    return None


def _from(s: OcvSection, index: int, state: _State, refusals: list[Refusal]) -> str | None:
    text = s.text("from")
    if not text:
        refusals.append(Refusal("DN605", s.line, f"[{s.type}] without from=: OpenCV asserts "
                                "it is given"))
        return None
    value = cpp_int(text)  # std::atoi: the first index only
    return _at(state, value + index if value < 0 else value, s, "from", refusals)


def _shortcut(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    beta = s.real("beta", 0.0)
    if beta != 0:
        refusals.append(Refusal("DN604", s.line_of("beta"),
                                f"beta={s.text('beta')}: 'Non-zero beta' is not implemented "
                                "in OpenCV"))
    source = _from(s, index, state, refusals)
    shape = state.shapes_by_name.get(state.last)
    other = state.shapes_by_name.get(source) if source else None
    if shape is not None and other is not None and shape[1:] != other[1:]:
        # Eltwise sums same-sized inputs only; Darknet's shortcut samples the larger one
        state.failures.append(Refusal(
            "DN614", s.line_of("from"), f"[shortcut] adds a {other[2]}x{other[1]} input to a "
            f"{shape[2]}x{shape[1]} one: OpenCV's Eltwise asserts equal sizes on the first "
            "forward (Darknet samples the larger input)"))
    _push(state, f"shortcut_{state.layer_id}", shape)


def _scale_channels(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    source = _from(s, index, state, refusals)
    _push(state, f"scale_channels_{state.layer_id}",
          state.shapes_by_name.get(source) if source else None)


def _sam(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    _from(s, index, state, refusals)
    _push(state, f"sam_{state.layer_id}", state.shapes_by_name.get(state.last))


def _upsample(index: int, s: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    stride = s.number("stride", 1)
    shape = state.shapes_by_name.get(state.last)
    out = (shape[0], shape[1] * stride, shape[2] * stride) if shape and stride > 0 else None
    _push(state, f"upsample_{state.layer_id}", out)


def _activation(section: OcvSection, state: _State, refusals: list[Refusal]) -> None:
    activation = section.text("activation", "linear")
    if activation == "linear" or section.type not in IMPORTED:
        return
    if activation not in ACTIVATIONS:
        refusals.append(Refusal("DN602", section.line_of("activation"),
                                f"activation={activation}: 'Unsupported activation' in OpenCV "
                                f"(it knows {', '.join(sorted(ACTIVATIONS))} and linear)",
                                activation))
        return
    # setActivation replaces the section's output with the activation layer, same shape
    name = f"{activation}_{state.layer_id}"
    state.shapes_by_name[name] = state.shapes_by_name.get(state.last)
    state.last = name
    if state.fused:
        state.fused[-1] = name


_HANDLERS = {
    "convolutional": _convolutional, "connected": _connected, "maxpool": _maxpool,
    "avgpool": _avgpool, "crop": _crop, "softmax": _softmax, "route": _route,
    "dropout": _dropout, "cost": _dropout, "reorg": _reorg, "region": _head, "yolo": _head,
    "shortcut": _shortcut, "scale_channels": _scale_channels, "sam": _sam,
    "upsample": _upsample,
}
