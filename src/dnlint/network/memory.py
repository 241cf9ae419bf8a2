"""The memory Darknet allocates for a built network: per layer and in total, CPU and GPU.

A stage after the shape pass (it reads :class:`~dnlint.network.build.Network`, never the text).
Each layer type's arrays are counted the way its constructor allocates them (the make_*_layer
function cited beside each rule, in :mod:`dnlint.network.layer_memory`) and split into a
part fixed per layer (weights, updates, BN statistics) and a part per image of the batch the
layer is built for (outputs, deltas, BN ``x``/``x_norm``), so that any mini-batch can be priced
without building the network again.

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

from dnlint.dialects import Dialect
from dnlint.network.build import Network
from dnlint.network.layer_memory import (
    COSTS,
    FLOAT,
    GPU_COSTS,
    LAYER_STRUCT,
    NETWORK_STRUCT,
    Build,
    Cost,
    int_option,
    layer_cost,
    outputs_of,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

# the per-layer figures, for the readers of this module
__all__ = ["COSTS", "FLOAT", "GPU_COSTS", "Build", "Cost", "Memory", "MemoryReport", "build_of",
           "layer_cost", "layer_costs", "memory_json", "memory_report", "predict",
           "random_resize", "time_steps_of"]

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
            cost.per_image += FLOAT * outputs_of(layer)
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
        values = layer.values
        if values is None or (not values.given("stopbackward")
                              and not values.defaults.get("stopbackward")):
            continue  # not given, and a default that reads as 0: almost every layer
        stop = values.int("stopbackward")
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
        return 30 * (int_option(last, "coords", 4) + 1)
    if last.type == "iseg":
        w, h, _ = last.output
        return 90 * (w * h + 1)
    if last.type == "detection" and head is not None:
        side = int_option(last, "side", 7)
        return side * side * (1 + int_option(last, "coords", 1) + head.classes)
    return outputs_of(last)


class MemoryReport:
    """A network's memory in the builds users run: CPU (as measured from Darknet's own
    allocations) and GPU (an estimate), for training at the cfg's mini-batch or any other,
    and for inference (``detector test``)."""

    __slots__ = ("_gpu_infer", "_gpu_sums", "_gpu_train", "_infer", "_train", "dialect",
                 "mini_batch", "network", "resized")

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
        # per build (inference, training): the layers' costs summed, for gpu_total
        self._gpu_sums: list[Cost | None] = [None, None]
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
        return self._gpu_sum(train).workspace

    def _gpu_sum(self, train: bool) -> Cost:
        """The layers' device costs of one build summed (the workspace: the largest), worked
        out once: every term of Cost.at is linear in its factor, so the sum of the layers'
        figures at any batch is the summed cost's figure at that batch (check_budget asks up
        to four batches)."""
        index = 1 if train else 0
        total = self._gpu_sums[index]
        if total is None:
            costs = self.gpu_train if train else self.gpu_infer
            fixed = per_image = per_sequence = per_pair = 0
            workspace = costs[0].workspace if costs else 0
            for cost in costs:
                fixed += cost.fixed
                per_image += cost.per_image
                per_sequence += cost.per_sequence
                per_pair += cost.per_pair
                if cost.workspace > workspace:
                    workspace = cost.workspace
            total = Cost(fixed, per_image, workspace, per_sequence, per_pair)
            self._gpu_sums[index] = total
        return total

    def gpu_total(self, train: bool, mini_batch: int | None = None, resize: bool = True) -> int:
        """The device bytes of the layers and the shared workspace (no CUDA context). Training
        with ``random`` first resizes the network to its largest size (``resized``): the
        per-image arrays and the workspace grow with the area (``resize`` False: not)."""
        total = self._gpu_sum(train)
        steps = self.steps(train)
        batch = self._mini(train, mini_batch) * steps
        fixed = total.fixed
        per_batch = total.at(batch, steps) - fixed
        # the network's input on the device, and to train the truth (forward_backward_network_gpu)
        per_batch += FLOAT * batch * (max(self.network.net.inputs, 0)
                                      + (self._device_truths() if train else 0))
        workspace = total.workspace
        if train and resize and self.resized is not None:
            per_batch, workspace = self._scaled(per_batch), self._scaled(workspace)
        return fixed + per_batch + workspace

    def _device_truths(self) -> int:
        """net.truths per image: [ab] a head's max_boxes x (4 + 2), else as the original."""
        last = self.network.layers.last()
        if self.dialect is not Dialect.PJ and last is not None and last.type in (
                "yolo", "gaussian_yolo", "region"):
            return int_option(last, "max", 200) * 6
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
