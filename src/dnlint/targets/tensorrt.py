"""``--target tensorrt-demos``: the DN620-DN639 diagnostics, from
:mod:`dnlint.targets.tensorrt_model`'s walk of the tool compared with the network Darknet
builds."""

from __future__ import annotations

from dnlint.diagnostics import Diagnostic, Sink, replace
from dnlint.dialects import Dialect
from dnlint.result import FileResult
from dnlint.targets.tensorrt_model import (
    FLOAT_MAX,
    INT_MAX,
    INT_MIN,
    TrtConversion,
    TrtSection,
    convert,
)

_HINTS = {
    "DN620": "replace the layer with ones tensorrt_demos converts, or deploy another way",
    "DN621": "write the line as key=value (comments after '#')",
    "DN622": "use a value the tool can type: an integer, a float or a word of letters",
    "DN623": "write the option out, with the value Darknet defaults to",
    "DN624": "use leaky, mish, swish, logistic or linear",
    "DN625": "make the shortcut linear between layers of equal channel counts",
    "DN626": "give group_id, or split the route into one-input routes",
    "DN627": "put a [convolutional] with activation=linear right before each [yolo]",
    "DN628": "write classes=N (no spaces) in every [yolo], all the same",
    "DN629": "give every [yolo] a mask= and an anchors= line, unindented, of equal length",
    "DN630": "use 2 to 4 [yolo] heads",
    "DN631": "change the head so the YOLO plugin accepts it",
    "DN632": "order the heads as the tool assumes, at strides 32, 16, 8 (or reversed)",
}
# Darknet's conv options the tool never reads, with the value that makes them harmless (None:
# any value)
_Ignored = tuple[tuple[str, int | None, str], ...]
_CONV_IGNORED: _Ignored = (("dilation", 1, "the kernel is applied undilated"),
                 ("xnor", 0, "inputs and weights are used unbinarized"),
                 ("binary", 0, "the weights are used unbinarized"),
                 ("antialiasing", 0, "the anti-aliasing blur after the layer is missing"),
                 ("stride_x", None, "the tool strides by stride= in both directions"),
                 ("stride_y", None, "the tool strides by stride= in both directions"))
_POOL_IGNORED: _Ignored = (("maxpool_depth", 0, "the tool pools over space only"),
                 ("stride_x", None, "the tool strides by stride= in both directions"),
                 ("stride_y", None, "the tool strides by stride= in both directions"),
                 ("antialiasing", 0, "the anti-aliasing blur after the layer is missing"))


def check_tensorrt(result: FileResult) -> list[Diagnostic]:
    """Every DN62x/DN63x diagnostic of one linted cfg."""
    assert result.document is not None
    conversion = convert("\n".join(result.document.lines))
    sink = Sink()
    for refusal in conversion.refusals:
        sink.report(refusal.code, refusal.line, 1, refusal.message,
                    _HINTS.get(refusal.code, "tensorrt_demos stops here until this is fixed"))
    if conversion.accepted:  # what it would convert differently, once it converts
        _first_head_anchors(conversion, sink)
        if result.dialect is not Dialect.PJ:  # the original Darknet does not read it
            _letter_box(conversion.sections[0], sink)
        _weights(result, conversion, sink)
        for section in conversion.sections:
            _ignored(section, sink)
    return [replace(d, path=result.path, message=_named(d.message)) for d in sink.sorted()]


def _named(message: str) -> str:
    """Each message names the tool: several targets may report on one line."""
    return message if message.startswith("tensorrt_demos") else f"tensorrt_demos: {message}"


def _first_head_anchors(conversion: TrtConversion, sink: Sink) -> None:
    raw = [(s.line, _anchors_text(s)) for s in conversion.sections if s.type == "yolo"]
    if not raw or raw[0][1] is None:
        return
    for _line, text in raw[1:]:
        first = raw[0][1]
        if text is not None and text[1] != first[1]:
            sink.report("DN635", text[0], 1, "this head's anchors differ from the first "
                        f"head's (line {first[0]}): tensorrt_demos decodes every head "
                        "with the first anchors line, so this head's boxes get other sizes",
                        "give every [yolo] the same anchors line, as Darknet's stock cfgs do")
            return


def _letter_box(net: TrtSection, sink: Sink) -> None:
    if _number(net, "letter_box", 0):
        sink.report("DN636", net.line_of("letter_box"), 1,
                    f"letter_box={net.values['letter_box']} in [net]: Darknet letterboxes the "
                    "image at inference; tensorrt_demos' trt_yolo.py stretches it unless run "
                    "with --letter_box, and the boxes differ",
                    "run trt_yolo.py (and eval_yolo.py) with -l/--letter_box")


def _anchors_text(section: TrtSection) -> tuple[int, str] | None:
    return section.raw.get("anchors")  # [yolo] lines are not parsed by the tool: raw text


def _weights(result: FileResult, conversion: TrtConversion, sink: Sink) -> None:
    """DN633 where the tool reads past what Darknet wrote. (It reads less only for a weighted
    [shortcut], whose weights_type value its parser already refuses: DN622.) Not for a cfg
    Darknet cannot build: it writes no weights, and the count up to the broken layer is no
    file's (a negative stride read as DN633's grouped convolutions)."""
    network = result.network
    if network is None or conversion.floats_read is None:
        return
    if any(layer.broken for layer in network.layers.built()):
        return  # Darknet stops building it: no weights file to compare (the cfg's errors say why)
    report = result.weights
    if report is None:
        return
    darknet = (report.expected_bytes - report.header_bytes) // 4
    grouped = [s for s in conversion.sections if s.type == "convolutional"
               and _number(s, "groups", 1) not in (0, 1)]
    if conversion.floats_read > darknet:
        where = grouped[0] if grouped else None
        sink.report("DN633", where.line_of("groups") if where else 1, 1,
                    f"tensorrt_demos reads {conversion.floats_read:,} floats of weights, Darknet "
                    f"writes {darknet:,} for this cfg"
                    + (f": groups={_number(where, 'groups', 1)} is ignored, the tool reads "
                       "filters x input channels x size x size" if where else "")
                    + "; the conversion stops with 'buffer is too small'",
                    "deploy grouped convolutions another way, or convert without groups")


def _number(section: TrtSection, key: str, default: int) -> int | float:
    """A numeric option of a converted section, ``default`` for a word or a number outside
    what the tool's graph can hold (an infinite float, an integer past 32 bits)."""
    value = section.values.get(key, default)
    if isinstance(value, int) and INT_MIN <= value <= INT_MAX:
        return value
    if isinstance(value, float) and -FLOAT_MAX <= value <= FLOAT_MAX:
        return value
    return default


def _ignored(section: TrtSection, sink: Sink) -> None:
    if section.type == "convolutional":
        table = _CONV_IGNORED
        size = _number(section, "size", 1)
        pad = _number(section, "pad", 0)
        padding = size // 2 if pad else _number(section, "padding", 0)
        if size > 1 and size % 2 == 1 and padding != size // 2:
            key = "padding" if "padding" in section.values and not pad else "pad"
            sink.report("DN638", section.line_of(key), 1,
                        f"Darknet pads this {size}x{size} convolution by {padding}; "
                        f"tensorrt_demos always pads SAME (by {size // 2}): the output size "
                        "and every value differ", "set pad=1, or deploy another way")
    elif section.type == "maxpool":
        table = _POOL_IGNORED
        size = _number(section, "size", 1)
        if "padding" in section.values and _number(section, "padding", 0) != size - 1:
            sink.report("DN638", section.line_of("padding"), 1,
                        f"padding={section.values['padding']}: tensorrt_demos ignores it and "
                        "pads SAME_UPPER, as Darknet's default padding=size-1 does",
                        "remove the option, or deploy another way")
    elif section.type == "upsample":
        stride = _number(section, "stride", 2)
        if stride < 0:
            sink.report("DN638", section.line_of("stride"), 1,
                        f"stride={stride}: Darknet down-samples by {-stride}; tensorrt_demos "
                        "resizes by a negative scale", "use a [maxpool] to down-sample")
        return
    else:
        return
    for key, harmless, consequence in table:
        if key in section.values and (harmless is None or
                                      _number(section, key, harmless) != harmless):
            sink.report("DN638", section.line_of(key), 1,
                        f"tensorrt_demos ignores {key}={section.values[key]} in "
                        f"[{section.type}]: {consequence}",
                        "remove the option, or check the converted model against Darknet")
