"""``--target hank-onnx``: the DN640-DN659 diagnostics. Will hank-ai Darknet's
``darknet_onnx_export`` (commit f684e1d7, src-onnx/darknet_onnx.cpp) export this cfg, and will
onnxruntime load what it writes?

The tool first loads the cfg and weights with hank's own Darknet, so everything the hank
dialect refuses stops it (DN640, from dnlint's ``--dialect hank`` lint: not re-implemented
here). It then writes one ONNX node per section from the cfg text (with its own defaults) and
the weights of the layers Darknet built. :func:`check_hank_onnx` follows the same steps and,
for what the export accepts, the tensor shapes ONNX infers from the written attributes: where
they disagree with the weights or with each other, the export prints "done!" and onnxruntime
refuses the model (DN645). Source lines (``O:NNN``) are those of the pinned commit.
"""

from __future__ import annotations

from dnlint.diagnostics import Diagnostic, Severity, Sink, replace
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.network.build import Network
from dnlint.network.layers.base import Layer
from dnlint.result import FileResult

COMMIT = "f684e1d75d4594298c8e73acc727ba6cf2e81c60"
EXPORTED = ("convolutional", "route", "maxpool", "upsample", "yolo", "shortcut")  # O:552-612
ACTIVATIONS = ("logistic", "leaky", "relu", "mish", "linear")  # O:721-768
FLOAT_MAX = 3.4028234663852886e38  # an ONNX float attribute (the Resize scale)
MASKS_PER_HEAD = 3  # O:1199-1204, with box post-processing (the default)
Shape = tuple[int, int, int]  # channels, height, width


class _Invalid(Exception):
    """The exported model is one onnxruntime refuses: the first node where it shows."""

    def __init__(self, layer: Layer, message: str) -> None:
        super().__init__(message)
        self.layer = layer
        self.message = message


def check_hank_onnx(result: FileResult) -> list[Diagnostic]:
    """Every DN64x/DN65x diagnostic of one linted cfg."""
    assert result.document is not None
    sink = Sink()
    hank = _hank_lint(result)
    if hank is not result:
        _load_refusals(hank, sink)
    if hank.network is not None and not _refused(hank):
        _export(hank.network, sink)
    return [replace(d, path=result.path, message=_named(d.message)) for d in sink.sorted()]


def _named(message: str) -> str:
    """Each message names the tool: several targets may report on one line."""
    return message if message.startswith("hank") else f"hank's ONNX export: {message}"


def _hank_lint(result: FileResult) -> FileResult:
    """The file as hank's Darknet reads it: ``result`` itself under ``--dialect hank``."""
    if result.dialect is Dialect.HANK:
        return result
    assert result.document is not None
    data = "\n".join(result.document.lines).encode("utf-8", "surrogateescape")
    return lint_cfg_bytes(data, result.path, Dialect.HANK)


def _refused(hank: FileResult) -> bool:
    return any(d.severity is Severity.ERROR for d in hank.diagnostics)


def _load_refusals(hank: FileResult, sink: Sink) -> None:
    """DN640: hank's Darknet stops before the export starts (its first error; dnlint's
    ``--dialect hank`` lint names the rule)."""
    errors = [d for d in hank.diagnostics if d.severity is Severity.ERROR]
    if not errors:
        return
    first = errors[0]
    more = f" (and {len(errors) - 1} more hank-dialect errors)" if len(errors) > 1 else ""
    sink.report("DN640", first.line or 1, first.column or 1,
                f"hank's Darknet, which the export tool loads the cfg with, refuses it: "
                f"{first.code} {first.message}{more}",
                f"run dnlint --dialect hank on the file and fix what it reports "
                f"(dnlint --explain {first.code})")


def _export(network: Network, sink: Sink) -> None:
    layers = list(network.layers)
    refusals = _export_refusals(layers, sink)
    if refusals or network.overflowed or any(layer.broken for layer in layers):
        # a layer Darknet could not build has no shape to compare: its own error says why
        return
    shapes: list[Shape] = []
    try:
        _onnx_shapes(network, layers, shapes)
    except _Invalid as invalid:
        _report_invalid(invalid, layers, shapes, sink)
        return
    _differences(network, layers, shapes, sink)
    if network.net_values.int("letter_box", 0):
        sink.report("DN653", network.net_values.line_of("letter_box")[0] or 1, 1,
                    "letter_box=1 in [net]: hank's Darknet letterboxes the image at inference, "
                    "the exported model does not say so, and a caller that stretches the "
                    "image gets other boxes", "letterbox the image before the model, and undo "
                    "it on the boxes")
    for layer in layers:
        _ignored(network, layer, sink)


def _export_refusals(layers: list[Layer], sink: Sink) -> int:
    """DN641-DN644: where the export tool throws (O:552-612, O:690-768, O:818-837, O:1199)."""
    found = 0
    unsupported: dict[str, list[Layer]] = {}
    for layer in layers:
        if layer.type not in EXPORTED:
            unsupported.setdefault(layer.section_name, []).append(layer)
            continue
        values = layer.values
        if values is None:
            continue
        if layer.type in ("convolutional", "shortcut"):
            activation = values.str("activation") or "linear"
            if activation not in ACTIVATIONS:
                found += 1
                sink.report("DN642", values.line_of("activation")[0] or layer.line, 1,
                            f"activation={activation}: the export tool writes logistic, leaky, "
                            "relu, mish and linear only ('activation type N ... is not "
                            "supported')", "use one of those, or deploy another way")
        elif layer.type == "yolo":
            masks = values.list("mask") or []
            if len(masks) != MASKS_PER_HEAD:
                found += 1
                sink.report("DN643", layer.line, 1,
                            f"{len(masks)} masks in this [yolo]: the export tool expects "
                            f"{MASKS_PER_HEAD} per head ('expected 3 masks per YOLO head')",
                            "use 3 masks per head, or export with -noboxes and decode the "
                            "boxes yourself")
        elif layer.type == "route" and len(layer.refs or ()) == 1:
            found += _route_group(layer, sink)
    for name, group in unsupported.items():
        found += 1
        more = f" (and {len(group) - 1} more below)" if len(group) > 1 else ""
        sink.report("DN641", group[0].line, 1,
                    f"the export tool has no node for [{name}]: 'layer type ... is not "
                    f"supported in this version of the Darknet/YOLO ONNX export tool'{more}",
                    "export only convolutional, route, maxpool, upsample, shortcut and yolo")
    return found


def _route_group(layer: Layer, sink: Sink) -> int:
    values = layer.values
    assert values is not None
    if not (values.given("groups") or values.given("group_id")):
        return 0
    groups, group_id = values.int("groups", 1), values.int("group_id", 0)
    if groups >= 1 and 0 <= group_id < groups:
        return 0
    sink.report("DN644", values.line_of("group_id" if groups >= 1 else "groups")[0], 1,
                f"groups={groups} group_id={group_id}: the export tool needs groups >= 1 and "
                "0 <= group_id < groups ('invalid number of groups' / 'invalid group number')",
                "give a group_id below groups")
    return 1


# -- the exported graph's shapes ---------------------------------------------------------------

def _onnx_shapes(network: Network, layers: list[Layer], shapes: list[Shape]) -> None:
    """Each layer's output as ONNX shape inference computes it from what the tool writes,
    appended to ``shapes`` up to the first node that makes the model invalid."""
    net = network.net
    for layer in layers:
        source = shapes[-1] if shapes else (net.channels, net.height, net.width)
        shapes.append(_node_shape(layer, source, shapes, layers))


def _report_invalid(invalid: _Invalid, layers: list[Layer], shapes: list[Shape],
                    sink: Sink) -> None:
    """DN645 at the root cause: the first layer whose exported output already differs from
    Darknet's (the tool's own padding or defaults), else where the model breaks."""
    for layer, shape in zip(layers, shapes, strict=False):
        if layer.type in ("convolutional", "maxpool", "upsample", "route") \
                and shape != _darknet(layer):
            sink.report("DN645", layer.line, 1,
                        f"the exported [{layer.type}] outputs {_fmt(shape)}, Darknet's "
                        f"{_fmt(_darknet(layer))}{_why(layer)}; the model breaks at line "
                        f"{invalid.layer.line} ({invalid.message}): the export prints 'done!', "
                        "but onnxruntime refuses the model",
                        "give the options so both agree, or deploy another way")
            return
    sink.report("DN645", invalid.layer.line, 1,
                f"{invalid.message}: the export prints 'done!', but onnxruntime refuses the "
                "model", "change the cfg so both agree, or deploy another way")


def _why(layer: Layer) -> str:
    values = layer.values
    if values is None:
        return ""
    missing = [k for k in ("size", "stride") if not values.given(k)]
    if missing and layer.type in ("convolutional", "maxpool"):
        return (f" ({' and '.join(missing)} not given: the tool's defaults are size=3 and "
                "stride=2)")
    if layer.type == "maxpool":
        size = values.int("size")
        return (f" (the tool pads (size-1)/2 = {(size - 1) // 2} on each side; Darknet pads "
                f"size-1 = {size - 1} in all)")
    if layer.type == "convolutional" and not values.int("pad", 0):
        return " (the tool ignores padding=)"
    if layer.type == "route" and values.given("groups"):
        return " (groups= on a [route] of several layers is not written: a plain Concat)"
    return ""


def _darknet(layer: Layer) -> Shape:
    return (layer.output[2], layer.output[1], layer.output[0])


def _node_shape(layer: Layer, source: Shape, shapes: list[Shape],
                layers: list[Layer]) -> Shape:
    values = layer.values
    assert values is not None
    if layer.type == "convolutional":
        return _conv_shape(layer, source)
    if layer.type == "maxpool":
        size, stride = _given(layer, "size", 3), _given(layer, "stride", 2)  # O:914-915
        pad = (size - 1) // 2
        return (source[0], _out(source[1], size, stride, pad, layer, "maxpool"),
                _out(source[2], size, stride, pad, layer, "maxpool"))
    if layer.type == "upsample":
        scale = values.float("stride", 2.0) if values.given("stride") else 2.0
        if not 0 < scale <= FLOAT_MAX:  # also false for nan
            raise _Invalid(layer, f"stride={scale:g} becomes a Resize by a scale that is not "
                           "a positive finite float")
        return (source[0], int(source[1] * scale), int(source[2] * scale))
    if layer.type == "route":
        return _route_shape(layer, shapes, layers)
    if layer.type == "shortcut":
        return _add_shape(layer, source, shapes)
    if layer.type == "yolo":
        if source != _darknet(layer):
            raise _Invalid(layer, f"the head's input is {_fmt(source)} in the exported model; "
                           f"the box decoding is written for Darknet's {_fmt(_darknet(layer))}")
        return source
    return _darknet(layer)


def _given(layer: Layer, key: str, default: int) -> int:
    """The tool's find_int(key, default): its own default, not Darknet's."""
    values = layer.values
    assert values is not None
    return values.int(key) if values.given(key) else default


def _out(size: int, kernel: int, stride: int, pad: int, layer: Layer, what: str) -> int:
    out = (size + 2 * pad - kernel) // stride + 1 if stride > 0 else 0
    if out <= 0:
        raise _Invalid(layer, f"the {what} leaves no output ({size} wide, kernel {kernel}, "
                       f"stride {stride}, pad {pad})")
    return out


def _conv_shape(layer: Layer, source: Shape) -> Shape:
    """O:621-667: stride default 2, size default 3, pads (size-1)/2 only with pad=1, group 1,
    dilation 1; the weights keep Darknet's shape (filters, channels/groups, size, size)."""
    values = layer.values
    assert values is not None
    size, stride = _given(layer, "size", 3), _given(layer, "stride", 2)
    darknet_size = layer.size or 1
    groups = max(values.int("groups", 1), 1)
    if size != darknet_size:
        raise _Invalid(layer, f"the export tool writes a {size}x{size} kernel (its default "
                       f"size is 3) for Darknet's {darknet_size}x{darknet_size} weights")
    in_channels = layer.input[2] // groups
    if source[0] != in_channels:
        cause = (f"groups={groups} is written as an ungrouped convolution"
                 if groups > 1 else f"its input has {source[0]} channels")
        raise _Invalid(layer, f"{cause}, but the weights are for {in_channels} input channels")
    pad = (size - 1) // 2 if values.int("pad", 0) else 0
    return (layer.filters or 0, _out(source[1], size, stride, pad, layer, "convolution"),
            _out(source[2], size, stride, pad, layer, "convolution"))


def _route_shape(layer: Layer, shapes: list[Shape], layers: list[Layer]) -> Shape:
    refs = list(layer.refs or ())
    values = layer.values
    assert values is not None
    if not refs or not all(0 <= ref < len(shapes) for ref in refs):
        raise _Invalid(layer, "the Concat has an input the exported graph does not hold")
    inputs = [shapes[ref] for ref in refs]
    if len(inputs) == 1:
        if not (values.given("groups") or values.given("group_id")):
            return inputs[0]
        groups, group_id = values.int("groups", 1), values.int("group_id", 0)
        per_group = layers[refs[0]].output[2] // groups  # Darknet's channels (O:874-877)
        start = min(group_id * per_group, inputs[0][0])
        end = min(start + per_group, inputs[0][0])
        return (end - start, inputs[0][1], inputs[0][2])
    first = inputs[0]
    for ref, shape in zip(refs[1:], inputs[1:], strict=True):
        if shape[1:] != first[1:]:
            raise _Invalid(layer, f"the Concat joins {_fmt(first)} and {_fmt(shape)} (layer "
                           f"{ref}): their sizes differ in the exported model")
    return (sum(shape[0] for shape in inputs), first[1], first[2])


def _add_shape(layer: Layer, source: Shape, shapes: list[Shape]) -> Shape:
    """O:672-687: Add(previous, from): numpy-style broadcasting or an invalid model."""
    refs = list(layer.refs or ())
    other = shapes[refs[0]] if refs else source
    out = []
    for a, b in zip(source, other, strict=True):
        if a != b and 1 not in (a, b):
            raise _Invalid(layer, f"the Add of {_fmt(source)} and {_fmt(other)} (Darknet adds "
                           "inputs of different sizes; ONNX needs them equal)")
        out.append(max(a, b))
    return (out[0], out[1], out[2])


def _fmt(shape: Shape) -> str:
    return f"{shape[2]}x{shape[1]}x{shape[0]}"


# -- what the export changes silently ----------------------------------------------------------

def _differences(network: Network, layers: list[Layer], shapes: list[Shape],
                 sink: Sink) -> None:
    """DN650: the first layer whose exported output differs from Darknet's, when the model
    stays loadable."""
    for layer, shape in zip(layers, shapes, strict=True):
        if layer.type in ("convolutional", "maxpool") and shape != _darknet(layer):
            sink.report("DN650", layer.line, 1,
                        f"the exported [{layer.type}] outputs {_fmt(shape)}, Darknet's "
                        f"{_fmt(_darknet(layer))}{_why(layer)}: the ONNX model computes another "
                        "network", "give size= and stride= explicitly")
            return


def _ignored(network: Network, layer: Layer, sink: Sink) -> None:
    values = layer.values
    if values is None:
        return
    checks: list[tuple[str, bool, str]] = []
    if layer.type == "convolutional":
        checks = [("dilation", values.int("dilation", 1) != 1, "the kernel is applied "
                   "undilated"),
                  ("padding", values.given("padding") and not values.int("pad", 0),
                   "the tool pads only for pad=1")]
    elif layer.type == "shortcut":
        checks = [("weights_type", (values.str("weights_type") or "none") != "none",
                   "the inputs are added without their learned weights")]
        if len(layer.refs or ()) > 1:
            checks.append(("from", True, "only the first from= layer is added"))
    elif layer.type == "yolo":
        checks = [("scale_x_y", values.float("scale_x_y", 1.0) != 1.0, "the boxes are "
                   "decoded as plain YOLOv3, without the scaling"),
                  ("new_coords", values.int("new_coords", 0) != 0, "the boxes are decoded "
                   "as plain YOLOv3, not with the new coordinates")]
        if layer.output[0] and network.net.width % layer.output[0]:
            sink.report("DN652", values.line_of("anchors")[0] or layer.line, 1,
                        f"the export tool scales this head's anchors by width/grid = "
                        f"{network.net.width}/{layer.output[0]} in integers "
                        f"({network.net.width // layer.output[0]}): the box sizes differ "
                        "from Darknet's", "use an input width that is a multiple of the grid")
    for key, applies, consequence in checks:
        if applies:
            sink.report("DN651", values.line_of(key)[0] or layer.line, 1,
                        f"the export tool ignores {key}= in [{layer.type}]: {consequence}",
                        "remove the option, or check the ONNX model against Darknet")
