"""What each layer type allocates, per layer: the arrays of its constructor (the make_*_layer
function cited beside each rule), CPU and GPU, as a :class:`Cost` (fixed + per image).

:mod:`dnlint.network.memory` adds them up for a network and a build.
"""

from __future__ import annotations

from dnlint.cnumbers import c_int_of_float
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.options.convert import Values
from dnlint.read.darknet_reader import UNPARSED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

FLOAT: Final = 4  # sizeof(float) == sizeof(int) == sizeof(uint32_t)
# sizeof(layer) and sizeof(network) of the CPU builds on x86-64 (pjreddie, AlexeyAB): a layer
# struct is allocated for each sub-layer (rnn, gru, lstm, crnn, antialiasing) and the layers array
LAYER_STRUCT: Final = {Dialect.PJ: 1184, Dialect.AB: 2616, Dialect.HANK: 2616}
NETWORK_STRUCT: Final = {Dialect.PJ: 272, Dialect.AB: 0, Dialect.HANK: 0}
_SWISH_LIKE: Final = frozenset({"swish", "mish", "hard_mish"})


class Cost:
    """Bytes one layer allocates: ``fixed`` + ``per_image`` x the batch it is built for
    (``l.batch``: the mini-batch times ``time_steps``) + ``per_sequence`` x the mini-batch
    (a recurrent layer's state: l.batch / time_steps) + ``per_pair`` x l.batch squared (a
    contrastive layer's similarity matrices), and the workspace it asks for."""

    __slots__ = ("fixed", "per_image", "per_pair", "per_sequence", "workspace")

    def __init__(self, fixed: int = 0, per_image: int = 0, workspace: int = 0,
                 per_sequence: int = 0, per_pair: int = 0) -> None:
        self.fixed = fixed
        self.per_image = per_image
        self.per_sequence = per_sequence
        self.per_pair = per_pair
        self.workspace = workspace

    def add(self, other: Cost) -> None:
        self.fixed += other.fixed
        self.per_image += other.per_image
        self.per_sequence += other.per_sequence
        self.per_pair += other.per_pair
        self.workspace = max(self.workspace, other.workspace)

    def at(self, batch: int, steps: int) -> int:
        """The bytes at l.batch ``batch`` built for ``steps`` time steps."""
        return (self.fixed + self.per_image * batch + self.per_sequence * (batch // max(steps, 1))
                + self.per_pair * batch * batch)

    def __repr__(self) -> str:
        return (f"Cost(fixed={self.fixed}, per_image={self.per_image}, "
                f"per_sequence={self.per_sequence}, per_pair={self.per_pair}, "
                f"workspace={self.workspace})")


class Build:
    """What a layer's constructor is told: the dialect, ``train`` (AlexeyAB's inference build
    skips the training arrays; the original always allocates them), [net] ``adam``."""

    __slots__ = ("adam", "dialect", "time_steps", "train")

    def __init__(self, dialect: Dialect, train: bool, adam: bool, time_steps: int) -> None:
        self.dialect = dialect
        self.train = train or dialect is Dialect.PJ
        self.adam = adam
        self.time_steps = time_steps

    @property
    def pj(self) -> bool:
        return self.dialect is Dialect.PJ


def int_option(layer: Layer, name: str, default: int = 0) -> int:
    values = layer.values
    return values.int(name) if values is not None else default


def read_ints(values: Values, names: tuple[str, ...]) -> list[int]:
    """``values.int(name)`` of each of ``names``, in one call: a convolution reads seven, and
    the calls were most of the cost of the lint's memory check (Values.get inlined: the first
    option of the key when typed, else the table's default)."""
    shared = values.shared
    given = values.section.first if shared is None else {}
    # a dict when the section has two options or more (compiled: a dict's own get)
    first = given if isinstance(given, dict) else dict(given)
    defaults = values.defaults
    found: list[int] = []
    for name in names:
        if shared is not None:
            value = shared.get(name, UNPARSED)  # an unmade section's values (Values.shared)
        else:
            option = first.get(name)
            value = option.parsed if option is not None else UNPARSED
        if value is UNPARSED:
            value = defaults.get(name)
        if type(value) is not int:
            value = (0 if value is None else c_int_of_float(value) if type(value) is float
                     else int(value))
        found.append(value)
    return found


def _str(layer: Layer, name: str) -> str:
    values = layer.values
    text = values.str(name) if values is not None else None
    return text or ""


def outputs_of(layer: Layer) -> int:
    return max(layer.outputs, 0)


# ---------------------------------------------------------------------------------- the types


def _convolutional(layer: Layer, b: Build) -> Cost:
    """make_convolutional_layer (both forks); the workspace is get_workspace_size (im2col of
    one image: out_h*out_w*size*size*c/groups floats)."""
    w, h, c = layer.input
    n = max(int_option(layer, "filters", 1), 0)
    size = int_option(layer, "size", 1)
    xnor = int_option(layer, "xnor") != 0
    # [ab] xnor disables groups (make_convolutional_layer)
    groups = 1 if xnor and not b.pj else max(int_option(layer, "groups", 1), 1)
    out_w, out_h, _ = layer.output
    antialiasing = 0 if b.pj else int_option(layer, "antialiasing")
    if antialiasing:
        out_w, out_h = _host_output(layer)
    outputs = out_w * out_h * n
    nweights = (c // groups) * n * size * size
    cost = _conv_arrays(layer, b, n, nweights, outputs, w * h * c, xnor)
    if xnor and not b.pj:
        src_align = out_h * out_w
        bit_align = src_align + (32 - src_align % 32)
        cost.fixed += FLOAT * n + FLOAT * ((c // 32) * w * h + 1)
        k = size * size * c
        cost.fixed += (k + (256 - k % 256)) * bit_align // 8
        cost.workspace = max(c * w * h * FLOAT, bit_align * size * size * c * FLOAT)
    else:
        cost.workspace = out_h * out_w * size * size * (c // groups) * FLOAT
    if antialiasing:
        # the blur: a depthwise convolution of the host's output, in its own layer struct
        blur = 2 if antialiasing == 2 else 3
        cost.fixed += LAYER_STRUCT[b.dialect]
        blurred = layer.next_shape
        blur_outputs = blurred[3] if blurred is not None else outputs
        cost.add(_conv_arrays(layer, b, n, n * blur * blur, blur_outputs, outputs, False,
                              plain=True))
    return cost


def _host_output(layer: Layer) -> tuple[int, int]:
    """[ab] an antialiased convolution's own output (stride 1; the blur strides)."""
    w, h, _ = layer.input
    size = int_option(layer, "size", 1)
    pad = int_option(layer, "padding") if not int_option(layer, "pad") else size // 2
    dilation = max(int_option(layer, "dilation", 1), 1)
    span = size + (size - 1) * (dilation - 1)
    return w + 2 * pad - span + 1, h + 2 * pad - span + 1


def _conv_arrays(layer: Layer, b: Build, n: int, nweights: int, outputs: int, inputs: int,
                 xnor: bool, plain: bool = False, sub: bool = False) -> Cost:
    """The arrays of make_convolutional_layer; ``plain``: no BN, binary, adam or swish (a
    blur); ``sub``: a recurrent layer's convolution (its BN and activation, no adam)."""
    cost = Cost()
    shared = not plain and not b.pj and layer.shares is not None
    bn = not plain and int_option(layer, "batch_normalize") != 0
    if b.pj:
        cost.fixed += FLOAT * (2 * nweights + 2 * n)
        cost.per_image += FLOAT * 2 * outputs
        if bn:
            cost.fixed += FLOAT * 8 * n
            cost.per_image += FLOAT * 2 * outputs
    else:
        if not shared:
            cost.fixed += FLOAT * (nweights + n)
            if b.train:
                cost.fixed += FLOAT * 2 * (nweights + n)  # updates and the EMA copies
        cost.per_image += FLOAT * outputs * (2 if b.train else 1)
        if bn:
            if not shared:
                cost.fixed += FLOAT * n * (9 if b.train else 3)
            if b.train:
                cost.per_image += FLOAT * 2 * outputs
        if not plain and _str(layer, "activation") in _SWISH_LIKE:
            cost.per_image += FLOAT * outputs
    if not plain and not sub and int_option(layer, "binary"):
        cost.fixed += FLOAT * nweights + nweights + FLOAT * n
    if xnor:
        cost.fixed += FLOAT * nweights
        cost.per_image += FLOAT * inputs
    if not plain and not sub and b.adam:
        cost.fixed += FLOAT * (2 * nweights + 4 * n)
    return cost


def _connected_arrays(b: Build, inputs: int, outputs: int, bn: bool) -> Cost:
    """make_connected_layer: output, delta, weights, biases and their updates; BN's buffers;
    [pj] adam's moments."""
    cost = Cost(FLOAT * 2 * (inputs * outputs + outputs), FLOAT * 2 * outputs)
    if b.pj and b.adam:
        cost.fixed += FLOAT * (2 * inputs * outputs + 4 * outputs)
    if bn:
        cost.fixed += FLOAT * 8 * outputs
        cost.per_image += FLOAT * 2 * outputs
    return cost


def _connected(layer: Layer, b: Build) -> Cost:
    return _connected_arrays(b, max(layer.inputs, 0), outputs_of(layer),
                             int_option(layer, "batch_normalize") != 0)


def _recurrent_parts(layer: Layer, b: Build, parts: list[tuple[int, int]]) -> Cost:
    """Sub-layers: each a connected layer (inputs, outputs) in its own layer struct."""
    bn = int_option(layer, "batch_normalize") != 0
    cost = Cost()
    for inputs, outputs in parts:
        cost.fixed += LAYER_STRUCT[b.dialect]
        cost.add(_connected_arrays(b, inputs, outputs, bn))
    return cost


def _rnn(layer: Layer, b: Build) -> Cost:
    """make_rnn_layer: input, self and output connected layers, and the state."""
    inputs, outputs = max(layer.inputs, 0), outputs_of(layer)
    if b.pj:
        cost = _recurrent_parts(layer, b, [(inputs, outputs), (outputs, outputs),
                                           (outputs, outputs)])
        cost.per_sequence += FLOAT * 2 * outputs  # state, prev_state
        return cost
    hidden = int_option(layer, "hidden", 1)
    cost = _recurrent_parts(layer, b, [(inputs, hidden), (hidden, hidden), (hidden, outputs)])
    cost.per_sequence += FLOAT * hidden * (b.time_steps + 1)
    return cost


def _gru(layer: Layer, b: Build) -> Cost:
    """make_gru_layer: six connected layers, output, delta and seven state vectors."""
    inputs, outputs = max(layer.inputs, 0), outputs_of(layer)
    cost = _recurrent_parts(layer, b, [(inputs, outputs), (outputs, outputs)] * 3)
    cost.per_image += FLOAT * 2 * outputs  # output, delta
    cost.per_sequence += FLOAT * 7 * outputs  # state, prev, forgot state and delta, r, z, h
    return cost


def _lstm(layer: Layer, b: Build) -> Cost:
    """make_lstm_layer: eight connected layers and the cell's state vectors."""
    inputs, outputs = max(layer.inputs, 0), outputs_of(layer)
    cost = _recurrent_parts(layer, b, [(inputs, outputs)] * 4 + [(outputs, outputs)] * 4)
    cost.per_image += FLOAT * 2 * outputs  # output, cell_cpu
    cost.per_sequence += FLOAT * 14 * outputs  # state, prev state and cell, f i g o c h, temps
    return cost


def _crnn(layer: Layer, b: Build) -> Cost:
    """make_crnn_layer: input, self and output convolutions (in their own layer structs) on
    the input's width and height, and the state (hidden x (time_steps + 1) per sequence)."""
    w, h, c = layer.input
    if b.pj:
        hidden, out, size, groups = (int_option(layer, "hidden_filters", 1),
                                     int_option(layer, "output_filters", 1), 3, 1)
    else:
        hidden, out = int_option(layer, "hidden", 1), int_option(layer, "output", 1)
        size, groups = int_option(layer, "size", 3), max(int_option(layer, "groups", 1), 1)
    cost = _sub_convs(layer, b, [(c, hidden), (hidden, hidden), (hidden, out)], size, groups)
    cost.per_sequence += FLOAT * w * h * hidden * (b.time_steps + 1)
    return cost


def _conv_lstm(layer: Layer, b: Build) -> Cost:
    """[ab] make_conv_lstm_layer: four U convolutions of the input, four W convolutions of the
    state (one of twice the channels with ``bottleneck``), three V (``peephole``), each in its
    own layer struct (the seven W and V structs always); output and cell per image, 15 state
    vectors per sequence."""
    c = layer.input[2]
    n = int_option(layer, "output", 1)
    size, groups = int_option(layer, "size", 3), max(int_option(layer, "groups", 1), 1)
    convs = [(c, n)] * 4
    convs += [(2 * n, n)] if int_option(layer, "bottleneck") else [(n, n)] * 4
    if int_option(layer, "peephole"):
        convs += [(n, n)] * 3
    cost = _sub_convs(layer, b, convs, size, groups)
    cost.fixed += LAYER_STRUCT[b.dialect] * (11 - len(convs))  # the structs left empty
    outputs = outputs_of(layer)
    cost.per_image += FLOAT * 2 * outputs
    cost.per_sequence += FLOAT * 15 * outputs
    return cost


def _sub_convs(layer: Layer, b: Build, convs: list[tuple[int, int]], size: int, groups: int
               ) -> Cost:
    """A recurrent layer's convolutions (channels in, filters), each in its own layer struct,
    on its input's width and height giving its output's; the workspace is their largest."""
    w, h, _ = layer.input
    out_w, out_h, _ = layer.output
    xnor = int_option(layer, "xnor") != 0
    cost = Cost()
    for c_in, n in convs:
        nweights = (c_in // groups) * n * size * size
        cost.fixed += LAYER_STRUCT[b.dialect]
        part = _conv_arrays(layer, b, n, nweights, out_w * out_h * n, w * h * c_in, xnor,
                            sub=True)
        part.workspace = out_w * out_h * size * size * (c_in // groups) * FLOAT
        cost.add(part)
    return cost


def _batchnorm(layer: Layer, b: Build) -> Cost:
    """make_batchnorm_layer: output and delta ([ab] and x, x_norm); vectors of channels:
    scales, biases, mean, variance, rolling mean and variance, [pj] 2 updates, [ab] 4."""
    outputs, c = outputs_of(layer), layer.output[2]
    if b.pj:
        return Cost(FLOAT * c * 8, FLOAT * 2 * outputs)
    return Cost(FLOAT * c * 10, FLOAT * 4 * outputs)


def _deconvolutional(layer: Layer, b: Build) -> Cost:
    """make_deconvolutional_layer: weights and updates, biases and updates, output and delta;
    [pj] BN and adam as a convolution's, a workspace of its im2col of the output; [ab] its own
    col_image (h*w*size*size*n)."""
    w, h, c = layer.input
    out_w, out_h, n = layer.output
    size = int_option(layer, "size", 1)
    nweights = c * n * size * size
    outputs = out_w * out_h * n
    cost = Cost(FLOAT * 2 * (nweights + n), FLOAT * 2 * outputs)
    if b.pj:
        if int_option(layer, "batch_normalize"):
            cost.fixed += FLOAT * 8 * n
            cost.per_image += FLOAT * 2 * outputs
        if b.adam:
            cost.fixed += FLOAT * (2 * nweights + 4 * n)
        cost.workspace = FLOAT * h * w * size * size * n
    else:
        cost.fixed += FLOAT * h * w * size * size * n
    return cost


def _normalization(layer: Layer, b: Build) -> Cost:
    """make_normalization_layer (lrn): output, delta, squared, norms."""
    return Cost(0, FLOAT * 4 * outputs_of(layer))


def _activation(layer: Layer, b: Build) -> Cost:
    """make_activation_layer: output and delta; [pj] of sizeof(float*) each (8 bytes)."""
    return Cost(0, (16 if b.pj else 8) * max(layer.inputs, 0))


def _logistic(layer: Layer, b: Build) -> Cost:
    """[pj] make_logistic_layer: loss, output, delta, and the cost."""
    return Cost(FLOAT, FLOAT * 3 * max(layer.inputs, 0))


def _l2norm(layer: Layer, b: Build) -> Cost:
    """[pj] make_l2norm_layer: output, scales and delta of its inputs."""
    return Cost(0, FLOAT * 3 * max(layer.inputs, 0))


def _iseg(layer: Layer, b: Build) -> Cost:
    """[pj] make_iseg_layer: output and delta; the cost; 90 counts, 90 pointers to sums of
    ``ids`` floats each."""
    ids = max(int_option(layer, "ids", 32), 0)
    sums = 90 * FLOAT * ids if ids else 0
    return Cost(FLOAT + 90 * FLOAT + 90 * 8 + sums, FLOAT * 2 * outputs_of(layer))


def _implicit(layer: Layer, b: Build) -> Cost:
    """[ab] make_implicit_layer: weights and updates, output and delta, all of its outputs."""
    outputs = outputs_of(layer)
    return Cost(FLOAT * 2 * outputs, FLOAT * 2 * outputs)


def _history(layer: Layer, b: Build) -> Cost:
    """[ab] make_history_layer: output, delta and the previous state."""
    return Cost(0, FLOAT * 3 * outputs_of(layer))


def _output_delta(layer: Layer, b: Build) -> Cost:
    """output and delta of l.outputs floats per image (route, upsample, reorg, sam,
    scale_channels, avgpool ...)."""
    return Cost(0, FLOAT * 2 * outputs_of(layer))


def _shortcut(layer: Layer, b: Build) -> Cost:
    """make_shortcut_layer: [ab] delta only for training; weights when weights_type is set;
    activation_input for swish and mish."""
    outputs = outputs_of(layer)
    if b.pj:
        return Cost(0, FLOAT * 2 * outputs)
    cost = Cost(0, FLOAT * outputs * (2 if b.train else 1))
    weights_type = _str(layer, "weights_type")
    count = len(layer.refs or ())
    c = layer.output[2]
    nweights = {"per_feature": count + 1, "per_channel": (count + 1) * c}.get(weights_type, 0)
    cost.fixed += FLOAT * nweights * (2 if b.train else 1)
    if _str(layer, "activation") in ("swish", "mish"):
        cost.per_image += FLOAT * outputs
    # parse_shortcut: the arrays of the layers it reads (index, size, output and delta pointers)
    cost.fixed += count * (4 + 4 + 8 + 8)
    return cost


def _maxpool(layer: Layer, b: Build) -> Cost:
    """make_maxpool_layer: indexes, output and delta ([ab] indexes and delta when training)."""
    outputs = outputs_of(layer)
    if b.pj:
        return Cost(0, 3 * FLOAT * outputs)
    arrays = 1  # output
    if b.train:
        arrays += 1 if layer.type == "local_avgpool" else 2  # delta, and a maxpool's indexes
    return Cost(0, FLOAT * arrays * outputs)


def _route(layer: Layer, b: Build) -> Cost:
    """make_route_layer: output and delta; parse_route: the layer and size arrays."""
    count = len(layer.refs or ())
    return Cost(2 * FLOAT * count, FLOAT * 2 * outputs_of(layer))


def _softmax(layer: Layer, b: Build) -> Cost:
    """make_softmax_layer: loss, output and delta per image, and the cost."""
    return Cost(FLOAT, FLOAT * 3 * max(layer.inputs, 0))


def _cost(layer: Layer, b: Build) -> Cost:
    return Cost(FLOAT, FLOAT * 2 * max(layer.inputs, 0))


def _dropout(layer: Layer, b: Build) -> Cost:
    """make_dropout_layer: the random mask (output and delta are the layer before's)."""
    return Cost(0, FLOAT * max(layer.inputs, 0))


def _no_arrays(layer: Layer, b: Build) -> Cost:
    """[ab] [empty]/[silence]: output and delta are the previous layer's."""
    return Cost()


def _crop(layer: Layer, b: Build) -> Cost:
    return Cost(0, FLOAT * outputs_of(layer))


def _yolo(layer: Layer, b: Build) -> Cost:
    """make_yolo_layer: output, delta, [ab] labels and class_ids; biases, mask, cost."""
    head = layer.head
    total = head.num if head is not None else 0
    n = len(head.mask) if head is not None else 0
    outputs = outputs_of(layer)
    cost = Cost(FLOAT * (1 + 2 * total + n + 2 * n), FLOAT * 2 * outputs)
    if not b.pj and layer.type == "yolo":
        w, h, _ = layer.output
        cost.per_image += 2 * FLOAT * w * h * n
        if layer.values is not None and layer.values.given("counters_per_class"):
            cost.fixed += FLOAT * max(head.classes if head is not None else 0, 0)
        if head is not None and head.embedding_size:
            # parse_yolo: embedding_output, the embedding layer's outputs (n x embedding_size
            # channels on this head's grid)
            cost.per_image += FLOAT * w * h * n * head.embedding_size
    return cost


def _contrastive(layer: Layer, b: Build) -> Cost:
    """[ab] make_contrastive_layer: output and delta of its inputs, loss and cost; without a
    yolo_layer, labels and three similarity matrices of (l.batch x w x h) squared floats."""
    inputs = max(layer.inputs, 0)
    cost = Cost(2 * FLOAT, FLOAT * 2 * inputs)
    if int_option(layer, "yolo_layer") == 0:
        w, h, _ = layer.input
        cost.per_image += FLOAT
        cost.per_pair += 3 * FLOAT * (w * h) ** 2
    return cost


def _region(layer: Layer, b: Build) -> Cost:
    head = layer.head
    n = head.num if head is not None else 0
    return Cost(FLOAT * (1 + 4 * n), FLOAT * 2 * outputs_of(layer))


def _detection(layer: Layer, b: Build) -> Cost:
    return Cost(FLOAT, FLOAT * 2 * outputs_of(layer))


def _local(layer: Layer, b: Build) -> Cost:
    """make_local_layer: weights per location, biases per output; the im2col workspace."""
    c = layer.input[2]
    out_w, out_h, n = layer.output
    size = int_option(layer, "size", 1)
    locations = out_w * out_h
    weights = c * n * size * size * locations
    cost = Cost(FLOAT * 2 * (weights + outputs_of(layer)), FLOAT * 2 * out_w * out_h * n)
    im2col = out_h * out_w * size * size * c
    if b.pj:
        cost.workspace = im2col  # [pj] in bytes, though it holds floats (local_layer.c)
    else:
        cost.fixed += FLOAT * im2col  # [ab] col_image, its own
    return cost


COSTS: Final[dict[str, Callable[[Layer, Build], Cost]]] = {
    "convolutional": _convolutional, "connected": _connected, "batchnorm": _batchnorm,
    "deconvolutional": _deconvolutional, "normalization": _normalization, "active": _activation,
    "logxent": _logistic, "l2norm": _l2norm, "iseg": _iseg, "implicit": _implicit,
    "history": _history, "empty": _no_arrays, "contrastive": _contrastive, "crnn": _crnn,
    "conv_lstm": _conv_lstm, "rnn": _rnn, "gru": _gru, "lstm": _lstm, "shortcut": _shortcut,
    "route": _route, "maxpool": _maxpool, "local_avgpool": _maxpool, "avgpool": _output_delta,
    "upsample": _output_delta, "reorg": _output_delta, "reorg_old": _output_delta,
    "sam": _output_delta, "scale_channels": _output_delta, "softmax": _softmax, "cost": _cost,
    "dropout": _dropout, "crop": _crop, "yolo": _yolo, "gaussian_yolo": _yolo, "region": _region,
    "detection": _detection, "local": _local,
}


# ---------------------------------------------------------------------------------- the GPU


def _convolutional_gpu(layer: Layer, b: Build) -> Cost:
    """[ab] make_convolutional_layer's ``#ifdef GPU`` branch with cuDNN: weights and biases
    (their updates when training), output (delta, BN's ``x`` and swish/mish's input when
    training), BN's statistics; no EMA copies and no ``x_norm`` on the device."""
    if b.dialect is _PJ:
        return _convolutional(layer, b)  # the original mirrors every array on the device
    values = layer.values
    if values is not None:
        n, size, xnor, groups, antialiasing, bn, binary = read_ints(values, _CONV_GPU_OPTIONS)
        swish = b.train and (values.str("activation") or "") in _SWISH_LIKE
    else:
        n, size, xnor, groups, antialiasing, bn, binary = 1, 1, 0, 1, 0, 0, 0
        swish = False
    n = max(n, 0)
    groups = 1 if xnor else max(groups, 1)
    w, h, c = layer.input
    out_w, out_h, _ = layer.output
    fixed = per_image = 0
    if antialiasing:
        out_w, out_h = _host_output(layer)
        blurred = layer.next_shape
        per_image += FLOAT * (blurred[3] if blurred is not None else out_w * out_h * n)
    outputs = out_w * out_h * n
    nweights = (c // groups) * n * size * size
    train = 2 if b.train else 1
    if layer.shares is None:
        fixed += FLOAT * (nweights + n) * train
        if bn:
            fixed += FLOAT * n * (7 if b.train else 3)
    per_image += FLOAT * outputs * train
    if b.train and bn:
        per_image += FLOAT * outputs
    if swish:
        per_image += FLOAT * outputs
    if binary or xnor:
        fixed += FLOAT * nweights
    if xnor:
        fixed += FLOAT * n
        per_image += FLOAT * w * h * c
    if b.adam:
        fixed += FLOAT * (2 * nweights + 4 * n)
    return Cost(fixed, per_image, out_h * out_w * size * size * (c // groups) * FLOAT)


# what _convolutional_gpu reads, in its order
_CONV_GPU_OPTIONS: Final = ("filters", "size", "xnor", "groups", "antialiasing",
                            "batch_normalize", "binary")
_PJ: Final = Dialect.PJ


def _yolo_gpu(layer: Layer, b: Build) -> Cost:
    """[ab] make_yolo_layer: output, output_avg and delta on the device."""
    if b.pj:
        return _yolo(layer, b)
    return Cost(0, FLOAT * 3 * outputs_of(layer))


GPU_COSTS: Final[dict[str, Callable[[Layer, Build], Cost]]] = {
    "convolutional": _convolutional_gpu,
    "yolo": _yolo_gpu,
}


def layer_cost(layer: Layer, b: Build, gpu: bool = False) -> Cost:
    """One layer's :class:`Cost`: the CPU build's host arrays, or with ``gpu`` the device
    arrays of the CUDA build (the types without a rule of their own in GPU_COSTS mirror their
    host arrays: output, delta and the rest)."""
    if layer.unknown:
        return Cost()
    rule = (GPU_COSTS.get(layer.type) if gpu else None) or COSTS.get(layer.type)
    return rule(layer, b) if rule is not None else Cost()
