"""``[net]``/``[network]``: its options (parse_net_options of each fork), typed, and what the
layers receive from them."""

from __future__ import annotations

from dnlint.diagnostics import Sink
from dnlint.dialects import AB_AND_HANK, AB_ONLY, PJ_ONLY, Dialect
from dnlint.options.convert import OptionTable, Values, type_section
from dnlint.options.schema import Enum, Float, FloatList, Int, IntList, Opt
from dnlint.read.darknet_reader import Section

_PJ_POLICIES = ("constant", "step", "exp", "poly", "steps", "sigmoid", "random")
POLICIES = {
    Dialect.PJ: _PJ_POLICIES,
    Dialect.AB: (*_PJ_POLICIES, "sgdr"),
    Dialect.HANK: (*_PJ_POLICIES, "sgdr"),
}

NET_OPTIONS: tuple[Opt, ...] = (
    Int("batch", 1, min=1),
    Int("subdivisions", 1),
    Int("time_steps", 1),
    Int("max_batches", 0, min=0),
    Float("learning_rate", 0.001, min=0),
    Float("momentum", 0.9),
    Float("decay", 0.0001),
    Int("height", 0, min=0),
    Int("width", 0, min=0),
    Int("channels", 0, min=0),
    Int("inputs", 0, min=0),
    Int("adam", 0),
    Float("B1", 0.9),
    Float("B2", 0.999),
    Float("eps", {Dialect.PJ: 1e-7, Dialect.AB: 1e-6, Dialect.HANK: 1e-6}),
    Enum("policy", POLICIES, "constant"),
    Int("burn_in", 0, min=0),
    Float("power", 4.0),
    Int("step", 1),
    Float("scale", 1.0),
    IntList("steps", stops_at_hash=True),
    FloatList("scales"),
    FloatList("seq_scales", only=AB_AND_HANK),
    Float("gamma", 1.0),
    Float("angle", 0.0),
    Float("aspect", 1.0),
    Float("saturation", 1.0),
    Float("exposure", 1.0),
    Float("hue", 0.0),
    Int("max_crop", 0, only=frozenset({Dialect.PJ, Dialect.AB})),
    Int("min_crop", 0, only=frozenset({Dialect.PJ, Dialect.AB})),
    Float("max_ratio", 0.0, only=PJ_ONLY),
    Float("min_ratio", 0.0, only=PJ_ONLY),
    Int("center", 0, only=PJ_ONLY),
    Int("notruth", 0, only=PJ_ONLY),
    Int("random", 0, only=PJ_ONLY),
    Float("clip", 0.0, only=PJ_ONLY),
    Float("learning_rate_min", 1e-5, only=AB_AND_HANK),
    Int("sgdr_cycle", 0, only=AB_AND_HANK),
    Int("sgdr_mult", 2, only=AB_AND_HANK),
    Int("track", 0, only=AB_AND_HANK),
    Int("augment_speed", 2, only=AB_AND_HANK),
    Int("sequential_subdivisions", 0, only=AB_AND_HANK),
    Int("try_fix_nan", 0, only=AB_AND_HANK),
    Int("weights_reject_freq", 0, only=AB_AND_HANK),
    Int("equidistant_point", 0, only=AB_AND_HANK),
    Float("badlabels_rejection_percentage", 0.0, only=AB_AND_HANK),
    Float("num_sigmas_reject_badlabels", 0.0, only=AB_AND_HANK),
    Float("ema_alpha", 0.0, only=AB_AND_HANK),
    Int("use_cuda_graph", 0, only=AB_AND_HANK),
    Int("dynamic_minibatch", 0, only=AB_AND_HANK),
    Int("optimized_memory", 0, only=AB_AND_HANK),
    Float("loss_scale", 1.0, only=AB_AND_HANK),
    Float("workspace_size_limit_MB", 1024.0, only=AB_AND_HANK),
    Int("flip", 1, only=AB_AND_HANK),
    Int("blur", 0, only=AB_AND_HANK),
    Int("gaussian_noise", 0, only=AB_AND_HANK),
    Int("mixup", 0, only=AB_AND_HANK),
    Int("cutmix", 0, only=AB_AND_HANK),
    Int("mosaic", 0, only=AB_AND_HANK),
    Int("letter_box", 0, only=AB_AND_HANK),
    Int("mosaic_bound", 0, only=AB_AND_HANK),
    Int("contrastive", 0, only=AB_AND_HANK),
    Int("contrastive_jit_flip", 0, only=AB_AND_HANK),
    Int("contrastive_color", 0, only=AB_AND_HANK),
    Int("unsupervised", 0, only=AB_ONLY),
    Float("label_smooth_eps", 0.0, only=AB_AND_HANK),
    Float("resize_step", 32.0, only=AB_AND_HANK),
    Float("adversarial_lr", 0.0, only=AB_AND_HANK),
    Float("max_chart_loss", 20.0, only=AB_AND_HANK),
    Int("attention", 0, only=AB_AND_HANK),
    Float("show_receptive_field", 0.0, only=AB_AND_HANK),
)


_NET_TABLES: dict[Dialect, OptionTable] = {}


class NetInfo:  # a plain class, not a dataclass: start-up (dataclasses imports inspect)
    """What layers need from [net]: the derived batch and the input geometry."""

    __slots__ = ("batch", "channels", "height", "inputs", "time_steps", "width")

    def __init__(self, width: int, height: int, channels: int, inputs: int, batch: int,
                 time_steps: int) -> None:
        self.width = width
        self.height = height
        self.channels = channels
        self.inputs = inputs
        self.batch = batch
        self.time_steps = time_steps

    def _fields(self) -> tuple[int, ...]:
        return (self.width, self.height, self.channels, self.inputs, self.batch,
                self.time_steps)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, NetInfo)
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"NetInfo(width={self.width!r}, height={self.height!r}, "
                f"channels={self.channels!r}, inputs={self.inputs!r}, batch={self.batch!r}, "
                f"time_steps={self.time_steps!r})")


def net_table(dialect: Dialect) -> OptionTable:
    """The [net] options of ``dialect`` (computed once per dialect)."""
    table = _NET_TABLES.get(dialect)
    if table is None:
        inside = {o.name: o for o in NET_OPTIONS if dialect in o.dialects}
        outside = {o.name: o for o in NET_OPTIONS if dialect not in o.dialects}
        table = _NET_TABLES[dialect] = OptionTable(inside, outside, dialect)
    return table


def parse_net(section: Section, dialect: Dialect, sink: Sink) -> tuple[NetInfo, Values]:
    """Type the [net] options and derive what the layers receive (the checks across [net]
    options are a later stage: :mod:`dnlint.checks.net_values`)."""
    values = type_section(section, net_table(dialect), sink)
    width, height, channels = values.int("width"), values.int("height"), values.int("channels")
    inputs = values.int("inputs") if values.given("inputs") else width * height * channels
    batch, subdivisions = values.int("batch"), values.int("subdivisions")
    time_steps = values.int("time_steps")
    mini_batch = batch // subdivisions if subdivisions > 0 else 0
    net_batch = mini_batch * time_steps
    if dialect is not Dialect.PJ:
        time_steps = max(time_steps, 1)
        net_batch = max(net_batch, 1, time_steps)
    return NetInfo(width, height, channels, inputs, net_batch, time_steps), values
