"""``--target opencv``: the DN6xx diagnostics, from :mod:`dnlint.targets.opencv_model`'s
import of the cfg compared with the network Darknet builds (:mod:`dnlint.network.build`)."""

from __future__ import annotations

from dnlint.diagnostics import Diagnostic, Sink, replace
from dnlint.dialects import Dialect
from dnlint.result import FileResult
from dnlint.targets.opencv_model import (
    IMPORTED,
    OcvNetwork,
    OcvSection,
    Shape,
    cpp_int,
    simulate,
)

# Options Darknet honours at inference that OpenCV's importer never reads, with the value
# that makes them harmless and what ignoring them does.
_IGNORED: dict[str, tuple[tuple[str, str, str], ...]] = {
    "convolutional": (
        ("dilation", "1", "the kernel is applied undilated"),
        ("binary", "0", "the weights are used unbinarized"),
        ("xnor", "0", "inputs and weights are used unbinarized"),
        ("share_index", "", "the layer reads weights of its own instead of sharing them"),
        ("antialiasing", "0", "the anti-aliasing blur after the layer is missing"),
    ),
    "maxpool": (("antialiasing", "0", "the anti-aliasing blur after the layer is missing"),),
    "upsample": (("scale", "1", "the output is not multiplied by scale"),),
    "shortcut": (
        ("weights_type", "none", "the inputs are summed without their learned weights (and "
         "the .weights file holds weights OpenCV does not read)"),
        ("weights_normalization", "none", "the input weights are not normalized"),
    ),
    "scale_channels": (("scale_wh", "0", "the scaling is per channel, not per position"),),
    "softmax": (
        ("temperature", "1", "the softmax is taken without the temperature"),
        ("tree", "", "a plain softmax replaces the hierarchical one"),
    ),
}
# Options OpenCV ignores that change the output shape: named in DN611's message.
_SHAPE_OPTIONS = {
    "convolutional": ("stride_x", "stride_y"),
    "maxpool": ("stride_x", "stride_y", "maxpool_depth", "out_channels"),
    "reorg": ("reverse",),
}
_DEFAULTS = {"upsample": ("stride", "Darknet's default stride is 2, OpenCV's 1"),
             "reorg": ("stride", "Darknet's default stride is 1, OpenCV's 2")}
# The Darknet layer types that read activation= (parse_convolutional, parse_connected,
# parse_shortcut, parse_scale_channels, parse_sam).
_ACTIVATED = frozenset({"convolutional", "connected", "shortcut", "scale_channels", "sam"})


def check_opencv(result: FileResult) -> list[Diagnostic]:
    """Every DN6xx diagnostic of one linted cfg."""
    assert result.document is not None
    darknet = _darknet_shapes(result)
    channels = {line: shape[0] for line, shape in darknet.items()}
    imported = simulate(result.document.lines, channels)
    sink = Sink()
    _report_refusals(imported, sink)
    for failure in imported.failures if imported.loads else ():  # refused: no forward pass
        sink.report(failure.code, failure.line, 1, failure.message,
                    "cv2.dnn loads this network, but net.forward() raises cv2.error")
    if result.dialect is not Dialect.PJ:  # the original Darknet does not read letter_box
        _net_processing(imported.net, sink)
    for section in imported.sections:
        _ignored_options(section, sink)
        _extra_activation(section, sink)
        _last_value_wins(section, sink)
    _shape_differences(imported, darknet, sink)
    return [replace(d, path=result.path) for d in sink.sorted()]


def _report_refusals(imported: OcvNetwork, sink: Sink) -> None:
    """Every refusal; an unknown layer type or activation once per file, with its count."""
    repeats: dict[tuple[str, str], int] = {}
    for refusal in imported.refusals:
        if refusal.subject:
            key = (refusal.code, refusal.subject)
            repeats[key] = repeats.get(key, 0) + 1
    reported: set[tuple[str, str]] = set()
    for refusal in imported.refusals:
        key = (refusal.code, refusal.subject)
        if refusal.subject and key in reported:
            continue
        reported.add(key)
        message = refusal.message
        more = repeats.get(key, 1) - 1 if refusal.subject else 0
        if more:
            message += f" (and {more} more section{'s' if more > 1 else ''} below)"
        sink.report(refusal.code, refusal.line, 1, message, _refusal_hint(refusal.code))


def _darknet_shapes(result: FileResult) -> dict[int, Shape]:
    """Darknet's output (channels, height, width) per section line."""
    if result.network is None:
        return {}
    return {layer.line: (layer.output[2], layer.output[1], layer.output[0])
            for layer in result.network.layers if all(layer.output)}  # not flat layers


def _refusal_hint(code: str) -> str:
    return {
        "DN601": "replace the layer with ones OpenCV imports, or deploy with Darknet",
        "DN602": "use an activation OpenCV imports (leaky, relu, mish, swish, logistic, tanh)",
        "DN603": "give classes, num, anchors (2*num values) and mask explicitly",
    }.get(code, "cv2.dnn.readNetFromDarknet refuses the cfg until this is fixed")


def _ignored_options(section: OcvSection, sink: Sink) -> None:
    for key, harmless, consequence in _IGNORED.get(section.type, ()):
        value = section.text(key, harmless)
        if value != harmless:
            sink.report("DN610", section.line_of(key), 1,
                        f"OpenCV ignores {key}={value} in [{section.type}]: {consequence}",
                        "remove the option, or check OpenCV's output against Darknet's")


def _net_processing(net: OcvSection, sink: Sink) -> None:
    """DN610 for [net]: the one option AlexeyAB's and hank's Darknet apply around the network
    at inference, letter_box (detector.c test_detector, demo.c, validate_detector_map). Every
    other [net] option parse_net_options reads is training-only (augmentation, the learning
    schedule, batching) or an input size that OpenCV reads too."""
    first = net.first.get("letter_box")
    if first is None or cpp_int(first[0]) == 0:
        return
    sink.report("DN610", first[1], 1,
                f"OpenCV ignores letter_box={first[0]} in [net]: Darknet letterboxes the image "
                "(resized keeping its aspect ratio, padded) before the network and maps the "
                "boxes back; a plain cv2.dnn.blobFromImage resize stretches it, and the boxes "
                "differ", "letterbox the image yourself before blobFromImage and undo it on "
                "the boxes, or train with letter_box=0")


def _extra_activation(section: OcvSection, sink: Sink) -> None:
    activation = section.text("activation", "linear")
    if activation == "linear" or section.type in _ACTIVATED or section.type not in IMPORTED:
        return
    sink.report("DN612", section.line_of("activation"), 1,
                f"OpenCV applies activation={activation} after [{section.type}]; Darknet's "
                f"[{section.type}] ignores it", "remove the activation line")


def _last_value_wins(section: OcvSection, sink: Sink) -> None:
    for key, (value, _line) in section.values.items():
        first, first_line = section.first[key]
        if first != value:
            sink.report("DN613", section.line_of(key), 1,
                        f"{key} is given twice: Darknet uses {first} (line {first_line}), "
                        f"OpenCV {value}", "keep one of the two lines")


def _shape_differences(imported: OcvNetwork, darknet: dict[int, Shape], sink: Sink) -> None:
    """DN611 where a layer's own rule differs: once per root cause, not on every layer after."""
    agreed = True
    for section, shape in zip(imported.sections, imported.shapes, strict=True):
        expected = darknet.get(section.line)
        if shape is None or expected is None:
            agreed = True  # OpenCV's shape is not modelled here (heads, connected): start over
            continue
        if shape == expected:
            agreed = True
            continue
        if agreed and not _repeated(section):  # DN613 already names the cause
            sink.report("DN611", section.line, 1,
                        f"OpenCV's [{section.type}] outputs {_fmt(shape)}, Darknet's "
                        f"{_fmt(expected)}{_cause(section)}",
                        "set the options OpenCV reads so both agree, or check the layers after")
        agreed = False


def _repeated(section: OcvSection) -> bool:
    return any(section.first[key][0] != value for key, (value, _) in section.values.items())


def _cause(section: OcvSection) -> str:
    default = _DEFAULTS.get(section.type)
    if default is not None and not section.has(default[0]):
        return f" ({default[1]}; {default[0]} is not given)"
    ignored = [f"{k}={section.text(k)}" for k in _SHAPE_OPTIONS.get(section.type, ())
               if section.has(k)]
    if ignored:
        return f" (OpenCV ignores {', '.join(ignored)})"
    if section.type == "route" and section.number("groups", 1) > 1:
        return " (OpenCV splits the sum of the inputs' channels evenly among them)"
    return ""


def _fmt(shape: Shape) -> str:
    return f"{shape[2]}x{shape[1]}x{shape[0]}"
