"""The memory Darknet allocates for a built network: per layer and in total, CPU and GPU.

A stage after the shape pass (it reads :class:`~dnlint.network.build.Network`, never the text).
Each layer type's arrays are counted the way its constructor allocates them (the make_*_layer
function cited beside each rule) and split into a part fixed per layer (weights, updates, BN
statistics) and a part per image of the batch the layer is built for (outputs, deltas, BN
``x``/``x_norm``), so that any mini-batch can be priced without building the network again.

Two builds are modelled:

* **inference**, as ``detector test`` builds the network: AlexeyAB's
  ``parse_network_cfg_custom(cfg, 1, 1)`` (mini-batch 1, ``train = 0``: no deltas, updates,
  EMA copies or BN training buffers); the original Darknet has no inference-only build, its
  ``parse_network_cfg`` allocates the training arrays at the cfg's mini-batch, and
  ``set_batch_network(net, 1)`` changes no allocation;
* **training**, as ``detector train`` builds it: ``parse_network_cfg`` at mini-batch
  ``batch / subdivisions`` (times ``time_steps``).

All figures are Python ints computed from the shapes: nothing is allocated by their size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from dnlint.dialects import Dialect
from dnlint.network.build import Network
from dnlint.network.layers.base import Layer

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


def _int(layer: Layer, name: str, default: int = 0) -> int:
    values = layer.values
    return values.int(name) if values is not None else default


def _str(layer: Layer, name: str) -> str:
    values = layer.values
    text = values.str(name) if values is not None else None
    return text or ""


def _outputs(layer: Layer) -> int:
    return max(layer.outputs, 0)


# ---------------------------------------------------------------------------------- the types


def _convolutional(layer: Layer, b: Build) -> Cost:
    """make_convolutional_layer (both forks); the workspace is get_workspace_size (im2col of
    one image: out_h*out_w*size*size*c/groups floats)."""
    w, h, c = layer.input
    n = max(_int(layer, "filters", 1), 0)
    size = _int(layer, "size", 1)
    xnor = _int(layer, "xnor") != 0
    # [ab] xnor disables groups (make_convolutional_layer)
    groups = 1 if xnor and not b.pj else max(_int(layer, "groups", 1), 1)
    out_w, out_h, _ = layer.output
    antialiasing = 0 if b.pj else _int(layer, "antialiasing")
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
    size = _int(layer, "size", 1)
    pad = _int(layer, "padding") if not _int(layer, "pad") else size // 2
    dilation = max(_int(layer, "dilation", 1), 1)
    span = size + (size - 1) * (dilation - 1)
    return w + 2 * pad - span + 1, h + 2 * pad - span + 1


def _conv_arrays(layer: Layer, b: Build, n: int, nweights: int, outputs: int, inputs: int,
                 xnor: bool, plain: bool = False, sub: bool = False) -> Cost:
    """The arrays of make_convolutional_layer; ``plain``: no BN, binary, adam or swish (a
    blur); ``sub``: a recurrent layer's convolution (its BN and activation, no adam)."""
    cost = Cost()
    shared = not plain and not b.pj and layer.shares is not None
    bn = not plain and _int(layer, "batch_normalize") != 0
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
    if not plain and not sub and _int(layer, "binary"):
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
    return _connected_arrays(b, max(layer.inputs, 0), _outputs(layer),
                             _int(layer, "batch_normalize") != 0)


def _recurrent_parts(layer: Layer, b: Build, parts: list[tuple[int, int]]) -> Cost:
    """Sub-layers: each a connected layer (inputs, outputs) in its own layer struct."""
    bn = _int(layer, "batch_normalize") != 0
    cost = Cost()
    for inputs, outputs in parts:
        cost.fixed += LAYER_STRUCT[b.dialect]
        cost.add(_connected_arrays(b, inputs, outputs, bn))
    return cost


def _rnn(layer: Layer, b: Build) -> Cost:
    """make_rnn_layer: input, self and output connected layers, and the state."""
    inputs, outputs = max(layer.inputs, 0), _outputs(layer)
    if b.pj:
        cost = _recurrent_parts(layer, b, [(inputs, outputs), (outputs, outputs),
                                           (outputs, outputs)])
        cost.per_sequence += FLOAT * 2 * outputs  # state, prev_state
        return cost
    hidden = _int(layer, "hidden", 1)
    cost = _recurrent_parts(layer, b, [(inputs, hidden), (hidden, hidden), (hidden, outputs)])
    cost.per_sequence += FLOAT * hidden * (b.time_steps + 1)
    return cost


def _gru(layer: Layer, b: Build) -> Cost:
    """make_gru_layer: six connected layers, output, delta and seven state vectors."""
    inputs, outputs = max(layer.inputs, 0), _outputs(layer)
    cost = _recurrent_parts(layer, b, [(inputs, outputs), (outputs, outputs)] * 3)
    cost.per_image += FLOAT * 2 * outputs  # output, delta
    cost.per_sequence += FLOAT * 7 * outputs  # state, prev, forgot state and delta, r, z, h
    return cost


def _lstm(layer: Layer, b: Build) -> Cost:
    """make_lstm_layer: eight connected layers and the cell's state vectors."""
    inputs, outputs = max(layer.inputs, 0), _outputs(layer)
    cost = _recurrent_parts(layer, b, [(inputs, outputs)] * 4 + [(outputs, outputs)] * 4)
    cost.per_image += FLOAT * 2 * outputs  # output, cell_cpu
    cost.per_sequence += FLOAT * 14 * outputs  # state, prev state and cell, f i g o c h, temps
    return cost


def _crnn(layer: Layer, b: Build) -> Cost:
    """make_crnn_layer: input, self and output convolutions (in their own layer structs) on
    the input's width and height, and the state (hidden x (time_steps + 1) per sequence)."""
    w, h, c = layer.input
    if b.pj:
        hidden, out, size, groups = (_int(layer, "hidden_filters", 1),
                                     _int(layer, "output_filters", 1), 3, 1)
    else:
        hidden, out = _int(layer, "hidden", 1), _int(layer, "output", 1)
        size, groups = _int(layer, "size", 3), max(_int(layer, "groups", 1), 1)
    cost = _sub_convs(layer, b, [(c, hidden), (hidden, hidden), (hidden, out)], size, groups)
    cost.per_sequence += FLOAT * w * h * hidden * (b.time_steps + 1)
    return cost


def _conv_lstm(layer: Layer, b: Build) -> Cost:
    """[ab] make_conv_lstm_layer: four U convolutions of the input, four W convolutions of the
    state (one of twice the channels with ``bottleneck``), three V (``peephole``), each in its
    own layer struct (the seven W and V structs always); output and cell per image, 15 state
    vectors per sequence."""
    c = layer.input[2]
    n = _int(layer, "output", 1)
    size, groups = _int(layer, "size", 3), max(_int(layer, "groups", 1), 1)
    convs = [(c, n)] * 4
    convs += [(2 * n, n)] if _int(layer, "bottleneck") else [(n, n)] * 4
    if _int(layer, "peephole"):
        convs += [(n, n)] * 3
    cost = _sub_convs(layer, b, convs, size, groups)
    cost.fixed += LAYER_STRUCT[b.dialect] * (11 - len(convs))  # the structs left empty
    outputs = _outputs(layer)
    cost.per_image += FLOAT * 2 * outputs
    cost.per_sequence += FLOAT * 15 * outputs
    return cost


def _sub_convs(layer: Layer, b: Build, convs: list[tuple[int, int]], size: int, groups: int
               ) -> Cost:
    """A recurrent layer's convolutions (channels in, filters), each in its own layer struct,
    on its input's width and height giving its output's; the workspace is their largest."""
    w, h, _ = layer.input
    out_w, out_h, _ = layer.output
    xnor = _int(layer, "xnor") != 0
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
    outputs, c = _outputs(layer), layer.output[2]
    if b.pj:
        return Cost(FLOAT * c * 8, FLOAT * 2 * outputs)
    return Cost(FLOAT * c * 10, FLOAT * 4 * outputs)


def _deconvolutional(layer: Layer, b: Build) -> Cost:
    """make_deconvolutional_layer: weights and updates, biases and updates, output and delta;
    [pj] BN and adam as a convolution's, a workspace of its im2col of the output; [ab] its own
    col_image (h*w*size*size*n)."""
    w, h, c = layer.input
    out_w, out_h, n = layer.output
    size = _int(layer, "size", 1)
    nweights = c * n * size * size
    outputs = out_w * out_h * n
    cost = Cost(FLOAT * 2 * (nweights + n), FLOAT * 2 * outputs)
    if b.pj:
        if _int(layer, "batch_normalize"):
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
    return Cost(0, FLOAT * 4 * _outputs(layer))


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
    ids = max(_int(layer, "ids", 32), 0)
    sums = 90 * FLOAT * ids if ids else 0
    return Cost(FLOAT + 90 * FLOAT + 90 * 8 + sums, FLOAT * 2 * _outputs(layer))


def _implicit(layer: Layer, b: Build) -> Cost:
    """[ab] make_implicit_layer: weights and updates, output and delta, all of its outputs."""
    outputs = _outputs(layer)
    return Cost(FLOAT * 2 * outputs, FLOAT * 2 * outputs)


def _history(layer: Layer, b: Build) -> Cost:
    """[ab] make_history_layer: output, delta and the previous state."""
    return Cost(0, FLOAT * 3 * _outputs(layer))


def _output_delta(layer: Layer, b: Build) -> Cost:
    """output and delta of l.outputs floats per image (route, upsample, reorg, sam,
    scale_channels, avgpool ...)."""
    return Cost(0, FLOAT * 2 * _outputs(layer))


def _shortcut(layer: Layer, b: Build) -> Cost:
    """make_shortcut_layer: [ab] delta only for training; weights when weights_type is set;
    activation_input for swish and mish."""
    outputs = _outputs(layer)
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
    outputs = _outputs(layer)
    if b.pj:
        return Cost(0, 3 * FLOAT * outputs)
    arrays = 1  # output
    if b.train:
        arrays += 1 if layer.type == "local_avgpool" else 2  # delta, and a maxpool's indexes
    return Cost(0, FLOAT * arrays * outputs)


def _route(layer: Layer, b: Build) -> Cost:
    """make_route_layer: output and delta; parse_route: the layer and size arrays."""
    count = len(layer.refs or ())
    return Cost(2 * FLOAT * count, FLOAT * 2 * _outputs(layer))


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
    return Cost(0, FLOAT * _outputs(layer))


def _yolo(layer: Layer, b: Build) -> Cost:
    """make_yolo_layer: output, delta, [ab] labels and class_ids; biases, mask, cost."""
    head = layer.head
    total = head.num if head is not None else 0
    n = len(head.mask) if head is not None else 0
    outputs = _outputs(layer)
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
    if _int(layer, "yolo_layer") == 0:
        w, h, _ = layer.input
        cost.per_image += FLOAT
        cost.per_pair += 3 * FLOAT * (w * h) ** 2
    return cost


def _region(layer: Layer, b: Build) -> Cost:
    head = layer.head
    n = head.num if head is not None else 0
    return Cost(FLOAT * (1 + 4 * n), FLOAT * 2 * _outputs(layer))


def _detection(layer: Layer, b: Build) -> Cost:
    return Cost(FLOAT, FLOAT * 2 * _outputs(layer))


def _local(layer: Layer, b: Build) -> Cost:
    """make_local_layer: weights per location, biases per output; the im2col workspace."""
    c = layer.input[2]
    out_w, out_h, n = layer.output
    size = _int(layer, "size", 1)
    locations = out_w * out_h
    weights = c * n * size * size * locations
    cost = Cost(FLOAT * 2 * (weights + _outputs(layer)), FLOAT * 2 * out_w * out_h * n)
    im2col = out_h * out_w * size * size * c
    if b.pj:
        cost.workspace = im2col  # [pj] in bytes, though it holds floats (local_layer.c)
    else:
        cost.fixed += FLOAT * im2col  # [ab] col_image, its own
    return cost


COSTS: Final[dict[str, Callable[[Layer, Build], Cost]]] = {
    "convolutional": _convolutional,
    "connected": _connected,
    "batchnorm": _batchnorm,
    "deconvolutional": _deconvolutional,
    "normalization": _normalization,
    "active": _activation,
    "logxent": _logistic,
    "l2norm": _l2norm,
    "iseg": _iseg,
    "implicit": _implicit,
    "history": _history,
    "empty": _no_arrays,
    "contrastive": _contrastive,
    "crnn": _crnn,
    "conv_lstm": _conv_lstm,
    "rnn": _rnn,
    "gru": _gru,
    "lstm": _lstm,
    "shortcut": _shortcut,
    "route": _route,
    "maxpool": _maxpool,
    "local_avgpool": _maxpool,
    "avgpool": _output_delta,
    "upsample": _output_delta,
    "reorg": _output_delta,
    "reorg_old": _output_delta,
    "sam": _output_delta,
    "scale_channels": _output_delta,
    "softmax": _softmax,
    "cost": _cost,
    "dropout": _dropout,
    "crop": _crop,
    "yolo": _yolo,
    "gaussian_yolo": _yolo,
    "region": _region,
    "detection": _detection,
    "local": _local,
}


# ---------------------------------------------------------------------------------- the GPU


def _convolutional_gpu(layer: Layer, b: Build) -> Cost:
    """[ab] make_convolutional_layer's ``#ifdef GPU`` branch with cuDNN: weights and biases
    (their updates when training), output (delta, BN's ``x`` and swish/mish's input when
    training), BN's statistics; no EMA copies and no ``x_norm`` on the device."""
    if b.pj:
        return _convolutional(layer, b)  # the original mirrors every array on the device
    cost = Cost()
    n = max(_int(layer, "filters", 1), 0)
    size = _int(layer, "size", 1)
    xnor = _int(layer, "xnor") != 0
    groups = 1 if xnor else max(_int(layer, "groups", 1), 1)
    w, h, c = layer.input
    out_w, out_h, _ = layer.output
    if _int(layer, "antialiasing"):
        out_w, out_h = _host_output(layer)
        blurred = layer.next_shape
        cost.per_image += FLOAT * (blurred[3] if blurred is not None else out_w * out_h * n)
    outputs = out_w * out_h * n
    nweights = (c // groups) * n * size * size
    train = 2 if b.train else 1
    if layer.shares is None:
        cost.fixed += FLOAT * (nweights + n) * train
        if _int(layer, "batch_normalize"):
            cost.fixed += FLOAT * n * (7 if b.train else 3)
    cost.per_image += FLOAT * outputs * train
    if b.train and _int(layer, "batch_normalize"):
        cost.per_image += FLOAT * outputs
    if b.train and _str(layer, "activation") in _SWISH_LIKE:
        cost.per_image += FLOAT * outputs
    if _int(layer, "binary") or xnor:
        cost.fixed += FLOAT * nweights
    if xnor:
        cost.fixed += FLOAT * n
        cost.per_image += FLOAT * w * h * c
    if b.adam:
        cost.fixed += FLOAT * (2 * nweights + 4 * n)
    cost.workspace = out_h * out_w * size * size * (c // groups) * FLOAT
    return cost


def _yolo_gpu(layer: Layer, b: Build) -> Cost:
    """[ab] make_yolo_layer: output, output_avg and delta on the device."""
    if b.pj:
        return _yolo(layer, b)
    return Cost(0, FLOAT * 3 * _outputs(layer))


GPU_COSTS: Final[dict[str, Callable[[Layer, Build], Cost]]] = {
    "convolutional": _convolutional_gpu,
    "yolo": _yolo_gpu,
}


# ---------------------------------------------------------------------------------- the network


class Memory:
    """The predicted allocation of one build (CPU): per layer, the workspace and the total."""

    __slots__ = ("batch", "layers", "net", "total", "train", "workspace")

    def __init__(self, train: bool, batch: int, layers: list[int], workspace: int, net: int
                 ) -> None:
        self.train = train
        self.batch = batch  # the l.batch the layers are built for
        self.layers = layers
        self.workspace = workspace
        self.net = net  # the network's own arrays and the layers array, workspace excluded
        self.total = sum(layers) + workspace + net


def build_of(network: Network, dialect: Dialect, train: bool) -> Build:
    """What the layer constructors of ``network`` are told in the build ``train`` says."""
    return Build(dialect, train, network.net_values.int("adam") != 0,
                 time_steps_of(network, dialect, train))


def time_steps_of(network: Network, dialect: Dialect, train: bool) -> int:
    """[net] time_steps; AlexeyAB's inference build passes 1 (parse_network_cfg_custom)."""
    return 1 if not train and dialect is not Dialect.PJ else max(network.net.time_steps, 1)


def layer_cost(layer: Layer, b: Build, gpu: bool = False) -> Cost:
    """One layer's :class:`Cost`: the CPU build's host arrays, or with ``gpu`` the device
    arrays of the CUDA build (the types without a rule of their own in GPU_COSTS mirror their
    host arrays: output, delta and the rest)."""
    if layer.unknown:
        return Cost()
    rule = (GPU_COSTS.get(layer.type) if gpu else None) or COSTS.get(layer.type)
    return rule(layer, b) if rule is not None else Cost()


def layer_costs(network: Network, dialect: Dialect, train: bool, gpu: bool = False
                ) -> list[Cost]:
    """Each layer's :class:`Cost` in the build ``train`` says (:func:`layer_cost`). [ab] The
    layers before the last ``stopbackward=1`` are built for inference even when training, and
    get a delta only when a later layer sends one back to them (``keep_delta_gpu``); hank-ai's
    freezes at any non-zero stopbackward."""
    b = build_of(network, dialect, train)
    frozen = _last_stop_backward(network, dialect) if train and dialect is not Dialect.PJ else -1
    if frozen <= 0:
        return [layer_cost(layer, b, gpu) for layer in network.layers]
    inference = build_of(network, dialect, False)
    keep = _kept_deltas(network, frozen)
    costs = []
    for layer in network.layers:
        if layer.index >= frozen:
            costs.append(layer_cost(layer, b, gpu))
            continue
        cost = layer_cost(layer, inference, gpu)
        if layer.index in keep and layer.type in _DELTA_ONLY_TO_TRAIN:
            cost.per_image += FLOAT * _outputs(layer)
        costs.append(cost)
    return costs


# the types whose delta AlexeyAB's constructors allocate only when training
_DELTA_ONLY_TO_TRAIN: Final = frozenset({"convolutional", "shortcut", "maxpool",
                                         "local_avgpool"})
# the types parse_network_cfg_custom marks keep_delta_gpu themselves
_KEEP_OWN_DELTA: Final = frozenset({"cost", "region", "yolo", "gaussian_yolo", "softmax",
                                    "contrastive"})


def _last_stop_backward(network: Network, dialect: Dialect) -> int:
    """The index of the last layer with stopbackward=1 ([ab]) or any non-zero stopbackward
    (hank-ai's Darknet::CfgFile), -1 when none."""
    last = -1
    for layer in network.layers:
        if layer.values is None:
            continue
        stop = layer.values.int("stopbackward")
        if stop == 1 or (stop and dialect is Dialect.HANK):
            last = layer.index
    return last


def _kept_deltas(network: Network, frozen: int) -> set[int]:
    """[ab] The frozen layers parse_network_cfg_custom gives a delta after all: those a route
    or shortcut after the freeze reads, those any scale_channels or sam reads, and the heads."""
    keep: set[int] = set()
    for layer in network.layers:
        refs = layer.refs or ()
        sends_back = layer.type in ("scale_channels", "sam") or (
            layer.type in ("route", "shortcut") and layer.index >= frozen)
        if sends_back:
            keep.update(refs)
        elif layer.type in _KEEP_OWN_DELTA:
            keep.add(layer.index)
    return keep


def predict(network: Network, dialect: Dialect, train: bool, batch: int | None = None
            ) -> Memory:
    """The bytes Darknet's CPU build allocates for ``network``; ``batch`` is l.batch (the
    mini-batch times time_steps; default: what the build itself uses)."""
    if batch is None:
        batch = network.net.batch if train or dialect is Dialect.PJ else 1
    costs = layer_costs(network, dialect, train)
    steps = time_steps_of(network, dialect, train)
    per_layer = [cost.at(batch, steps) for cost in costs]
    workspace = max((cost.workspace for cost in costs), default=0)
    net = len(costs) * LAYER_STRUCT[dialect] + NETWORK_STRUCT[dialect]
    net += _policy_arrays(network, dialect)
    if dialect is Dialect.PJ:
        net += 8 + 4 + 4  # make_network: seen, t, cost
        net += FLOAT * batch * (max(network.net.inputs, 0) + _truths(network))
    else:
        net += 8 + 4 * 8  # make_network: seen and eight counters
    return Memory(train, batch, per_layer, workspace, net)


def _policy_arrays(network: Network, dialect: Dialect) -> int:
    """parse_net_options: steps and scales ([ab] and seq_scales) of one int or float per item
    of ``steps`` (its commas plus one; [ab] up to a '#'), for policy=steps ([ab] or sgdr)."""
    values = network.net_values
    policy = values.str("policy") or "constant"
    if policy != "steps" and (dialect is Dialect.PJ or policy != "sgdr"):
        return 0
    option = values.option("steps")
    text = option.value if option is not None else None
    if text is None:
        return 0
    if dialect is not Dialect.PJ:
        text = text.split("#", 1)[0]
    return FLOAT * (text.count(",") + 1) * (2 if dialect is Dialect.PJ else 3)


def _truths(network: Network) -> int:
    """[pj] net->truths: the last layer's outputs, or its l.truths when it sets one."""
    last = network.layers.last()
    if last is None:
        return 0
    head = last.head
    if last.type == "yolo":
        return 90 * (4 + 1)
    if last.type == "region" and head is not None:
        return 30 * (_int(last, "coords", 4) + 1)
    if last.type == "iseg":
        w, h, _ = last.output
        return 90 * (w * h + 1)
    if last.type == "detection" and head is not None:
        side = _int(last, "side", 7)
        return side * side * (1 + _int(last, "coords", 1) + head.classes)
    return _outputs(last)


class MemoryReport:
    """A network's memory in the builds users run: CPU (as measured from Darknet's own
    allocations) and GPU (an estimate), for training at the cfg's mini-batch or any other,
    and for inference (``detector test``)."""

    __slots__ = ("_gpu_infer", "_gpu_train", "_infer", "_train", "dialect", "mini_batch",
                 "network", "resized")

    def __init__(self, network: Network, dialect: Dialect) -> None:
        self.network = network
        self.dialect = dialect
        values = network.net_values
        subdivisions = values.int("subdivisions")
        self.mini_batch = max(values.int("batch") // subdivisions, 0) if subdivisions > 0 else 0
        if dialect is not Dialect.PJ:
            self.mini_batch = max(self.mini_batch, 1)
        # each of the four figures is worked out when first asked for: the lint's own check
        # (DN123) needs only the GPU training one
        self._train: Memory | None = None
        self._infer: Memory | None = None
        self._gpu_train: list[Cost] | None = None
        self._gpu_infer: list[Cost] | None = None
        self.resized = random_resize(network, dialect)

    @property
    def train(self) -> Memory:
        if self._train is None:
            self._train = predict(self.network, self.dialect, True)
        return self._train

    @property
    def infer(self) -> Memory:
        if self._infer is None:
            self._infer = predict(self.network, self.dialect, False)
        return self._infer

    @property
    def gpu_train(self) -> list[Cost]:
        if self._gpu_train is None:
            self._gpu_train = layer_costs(self.network, self.dialect, True, gpu=True)
        return self._gpu_train

    @property
    def gpu_infer(self) -> list[Cost]:
        if self._gpu_infer is None:
            self._gpu_infer = layer_costs(self.network, self.dialect, False, gpu=True)
        return self._gpu_infer

    def steps(self, train: bool) -> int:
        return time_steps_of(self.network, self.dialect, train)

    def gpu_layers(self, train: bool, mini_batch: int | None = None) -> list[int]:
        """Each layer's device bytes (an estimate) at ``mini_batch`` (default: the build's),
        at the cfg's width and height."""
        costs = self.gpu_train if train else self.gpu_infer
        steps = self.steps(train)
        batch = self._mini(train, mini_batch) * steps
        return [cost.at(batch, steps) for cost in costs]

    def gpu_workspace(self, train: bool) -> int:
        costs = self.gpu_train if train else self.gpu_infer
        return max((cost.workspace for cost in costs), default=0)

    def gpu_total(self, train: bool, mini_batch: int | None = None, resize: bool = True) -> int:
        """The device bytes of the layers and the shared workspace (no CUDA context). Training
        with ``random`` first resizes the network to its largest size (``resized``): the
        per-image arrays and the workspace grow with the area (``resize`` False: not)."""
        costs = self.gpu_train if train else self.gpu_infer
        steps = self.steps(train)
        batch = self._mini(train, mini_batch) * steps
        fixed = per_batch = 0
        for cost in costs:
            fixed += cost.fixed
            per_batch += cost.at(batch, steps) - cost.fixed
        # the network's input on the device, and to train the truth (forward_backward_network_gpu)
        per_batch += FLOAT * batch * (max(self.network.net.inputs, 0)
                                      + (self._device_truths() if train else 0))
        workspace = self.gpu_workspace(train)
        if train and resize and self.resized is not None:
            per_batch, workspace = self._scaled(per_batch), self._scaled(workspace)
        return fixed + per_batch + workspace

    def _device_truths(self) -> int:
        """net.truths per image: [ab] a head's max_boxes x (4 + 2), else as the original."""
        last = self.network.layers.last()
        if self.dialect is not Dialect.PJ and last is not None and last.type in (
                "yolo", "gaussian_yolo", "region"):
            return _int(last, "max", 200) * 6
        return _truths(self.network)

    def largest_mini_batch(self, budget: int) -> int:
        """The largest training mini-batch whose estimate fits ``budget`` (0: none does). The
        estimate is linear in the mini-batch, so this is one division, for any batch."""
        base = self.gpu_total(True, 0)
        step = self.gpu_total(True, 1) - base
        if budget < base + step:
            return 0
        return (budget - base) // step if step > 0 else 2**31 - 1

    def _scaled(self, size: int) -> int:
        width, height = self.network.net.width, self.network.net.height
        if self.resized is None or width <= 0 or height <= 0:
            return size
        return size * self.resized[0] * self.resized[1] // (width * height)

    def _mini(self, train: bool, mini_batch: int | None) -> int:
        if mini_batch is not None:
            return mini_batch
        return self.mini_batch if train or self.dialect is Dialect.PJ else 1


def random_resize(network: Network, dialect: Dialect) -> tuple[int, int] | None:
    """The largest width and height training resizes to when a head has ``random``
    (train_detector): [ab] ``roundl(coef * size / resize_step + 1) * resize_step`` with
    coef 1.4 for random=1, else random's value; [pj] 608 x 608 when that is larger."""
    coef = 0.0
    for layer in network.layers:
        if layer.type in ("yolo", "gaussian_yolo", "region") and layer.values is not None:
            coef = max(coef, layer.values.float("random"))
    if not 0 < coef < 1e6:  # also NaN: Darknet's resize would be nonsense, not a size
        return None
    width, height = network.net.width, network.net.height
    if dialect is Dialect.PJ:
        return (608, 608) if width * height < 608 * 608 else None
    if coef == 1.0:
        coef = 1.4
    step = network.net_values.float("resize_step")  # 32 unless given
    if not 0 < step < 1e9 or width <= 0 or height <= 0:  # 0, negative, NaN: not a size
        return None

    def largest(size: int) -> int:
        return int(_round_half_away(coef * size / step + 1) * step)

    resized = (largest(width), largest(height))
    return resized if resized[0] * resized[1] > width * height else None


def _round_half_away(value: float) -> int:
    """C's roundl: halves away from zero."""
    whole = int(value)
    return whole + 1 if value - whole >= 0.5 else whole


def memory_report(network: Network, dialect: Dialect) -> MemoryReport:
    return MemoryReport(network, dialect)


def memory_json(network: Network, dialect: Dialect, layers: list[dict[str, Any]]
                ) -> dict[str, Any]:
    """The JSON report's ``memory`` (totals) and each entry of ``layers`` its ``memory``
    (bytes: CPU training and inference, GPU estimates of both)."""
    report = memory_report(network, dialect)
    gpu_train, gpu_infer = report.gpu_layers(True), report.gpu_layers(False)
    for entry, train, infer, g_train, g_infer in zip(
            layers, report.train.layers, report.infer.layers, gpu_train, gpu_infer,
            strict=True):
        entry["memory"] = {"cpu_train": train, "cpu_infer": infer, "gpu_train": g_train,
                           "gpu_infer": g_infer}
    return {
        "mini_batch": report.mini_batch,
        "cpu": {"train": report.train.total, "infer": report.infer.total,
                "workspace": report.train.workspace, "infer_batch": report.infer.batch},
        "gpu": {"train": report.gpu_total(True), "infer": report.gpu_total(False),
                "workspace": report.gpu_workspace(True), "estimate": True,
                "random_resize": list(report.resized) if report.resized else None},
    }
