"""Option declarations: the vocabulary every section type is described in.

A section type (``[net]`` or a layer) declares its options once, with :func:`Int`, :func:`Float`,
:func:`Str`, :func:`Enum`, :func:`IntList`, :func:`FloatList` and :func:`Ref`. The typed-option
stage (:mod:`dnlint.options.convert`) checks values against these declarations, and the layer
builders read the values through them.
"""

from __future__ import annotations

from dnlint.dialects import AB_AND_HANK, AB_ONLY, ALL, PJ_ONLY, Dialect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import ClassVar, Final


class Kind:
    """What an option's value is, as its name in messages: an :class:`Opt`'s ``kind`` is one
    of these strings, compared with ``is`` (plain constants: ``enum`` costs start-up)."""

    INT: ClassVar[str] = "int"
    FLOAT: ClassVar[str] = "float"
    STR: ClassVar[str] = "string"
    ENUM: ClassVar[str] = "enum"
    INT_LIST: ClassVar[str] = "int list"
    FLOAT_LIST: ClassVar[str] = "float list"
    REF: ClassVar[str] = "layer reference"
    REF_LIST: ClassVar[str] = "layer reference list"
    PATH: ClassVar[str] = "file path"


Default = object


class Opt:
    """One option a section reads: its type, default, dialects and valid range. Never changed
    after it is declared.

    (A plain class, not a frozen dataclass: creating that class cost every run about 1 ms of
    start-up, compiled or not.)"""

    __slots__ = ("choices", "default", "dialects", "doc", "fallback", "kind", "max", "min",
                 "name", "required", "stops_at_hash")

    def __init__(
        self,
        name: str,
        kind: str,
        default: Default | Mapping[Dialect, Default] = None,
        dialects: frozenset[Dialect] = ALL,
        required: bool = False,
        min: float | None = None,
        max: float | None = None,
        choices: Mapping[Dialect, frozenset[str]] | None = None,
        # ab counts list items only up to the first '#' for a few keys (parse_yolo,
        # parse_net_options)
        stops_at_hash: bool = False,
        doc: str = "",
        # what Darknet uses for an unknown enum value when that differs from the default
        # (get_activation: relu, whatever the layer's default activation)
        fallback: str | None = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.default = default
        self.dialects = dialects
        self.required = required
        self.min = min
        self.max = max
        self.choices = choices
        self.stops_at_hash = stops_at_hash
        self.doc = doc
        self.fallback = fallback

    def __repr__(self) -> str:
        return f"Opt({self.name!r}, {self.kind!r})"

    def default_for(self, dialect: Dialect) -> Default:
        default = self.default
        if type(default) is dict:  # per-dialect defaults are declared as dict literals
            return default.get(dialect)
        return default

    def choices_for(self, dialect: Dialect) -> frozenset[str] | None:
        if self.choices is None:
            return None
        return self.choices.get(dialect, frozenset())

    @property
    def is_list(self) -> bool:
        return self.kind in _LIST_KINDS


# module constants: Enum member lookups are slow on Python 3.11
_LIST_KINDS: Final = (Kind.INT_LIST, Kind.FLOAT_LIST, Kind.REF_LIST)


def _dialects(only: frozenset[Dialect] | None) -> frozenset[Dialect]:
    return ALL if only is None else only


def Int(
    name: str,
    default: Default | Mapping[Dialect, Default] = 0,
    *,
    only: frozenset[Dialect] | None = None,
    min: float | None = None,
    max: float | None = None,
    required: bool = False,
    doc: str = "",
) -> Opt:
    return Opt(name, Kind.INT, default, _dialects(only), required, min, max, doc=doc)


def Float(
    name: str,
    default: Default | Mapping[Dialect, Default] = 0.0,
    *,
    only: frozenset[Dialect] | None = None,
    min: float | None = None,
    max: float | None = None,
    doc: str = "",
) -> Opt:
    return Opt(name, Kind.FLOAT, default, _dialects(only), False, min, max, doc=doc)


def Str(
    name: str,
    default: str | None = None,
    *,
    only: frozenset[Dialect] | None = None,
    path: bool = False,
    doc: str = "",
) -> Opt:
    return Opt(name, Kind.PATH if path else Kind.STR, default, _dialects(only), doc=doc)


def Enum(
    name: str,
    choices: Mapping[Dialect, Iterable[str]],
    default: str | Mapping[Dialect, Default],
    *,
    only: frozenset[Dialect] | None = None,
    doc: str = "",
) -> Opt:
    frozen = {d: frozenset(c) for d, c in choices.items()}
    return Opt(name, Kind.ENUM, default, _dialects(only), choices=frozen, doc=doc)


def IntList(
    name: str,
    *,
    only: frozenset[Dialect] | None = None,
    required: bool = False,
    stops_at_hash: bool = False,
    doc: str = "",
) -> Opt:
    return _list(name, Kind.INT_LIST, only, required, stops_at_hash, doc)


def FloatList(
    name: str,
    *,
    only: frozenset[Dialect] | None = None,
    required: bool = False,
    stops_at_hash: bool = False,
    doc: str = "",
) -> Opt:
    return _list(name, Kind.FLOAT_LIST, only, required, stops_at_hash, doc)


def _list(
    name: str,
    kind: str,
    only: frozenset[Dialect] | None,
    required: bool,
    stops_at_hash: bool,
    doc: str,
) -> Opt:
    return Opt(name, kind, None, _dialects(only), required, stops_at_hash=stops_at_hash, doc=doc)


def Ref(
    name: str,
    *,
    many: bool = False,
    only: frozenset[Dialect] | None = None,
    required: bool = False,
    default: Default = None,
    doc: str = "",
) -> Opt:
    kind = Kind.REF_LIST if many else Kind.REF
    return Opt(name, kind, default, _dialects(only), required, doc=doc)


# Activation names of get_activation (src/activations.c) in each code base.
_PJ_ACTIVATIONS = frozenset(
    (
        "logistic", "loggy", "relu", "elu", "selu", "relie", "plse", "hardtan", "lhtan",
        "linear", "ramp", "leaky", "tanh", "stair",
    )
)
_AB_ACTIVATIONS = _PJ_ACTIVATIONS | frozenset(
    (
        "relu6", "gelu", "swish", "mish", "hard_mish", "revleaky", "normalize_channels",
        "normalize_channels_softmax", "normalize_channels_softmax_maxval",
    )
)
ACTIVATIONS: dict[Dialect, frozenset[str]] = {
    Dialect.PJ: _PJ_ACTIVATIONS,
    Dialect.AB: _AB_ACTIVATIONS,
    Dialect.HANK: _AB_ACTIVATIONS,
}


def Activation(
    default: str = "logistic", name: str = "activation"
) -> Opt:
    activation = Enum(name, ACTIVATIONS, default)
    activation.fallback = "relu"
    return activation


# Keys every layer section reads after its own (parse_network_cfg in each fork).
GENERIC_LAYER_OPTIONS: tuple[Opt, ...] = (
    Int("truth", 0, only=PJ_ONLY),
    Int("onlyforward", 0),
    Int("stopbackward", 0),
    Int("dontsave", 0, only=PJ_ONLY, doc="skip this layer when saving weights"),
    Int("dontload", 0, doc="skip this layer when loading weights"),
    Int("numload", 0, only=PJ_ONLY, min=0, doc="load only this many filters"),
    Int("dontloadscales", 0, doc="do not load batch-norm scales/mean/variance"),
    Float("learning_rate", 1.0),
    Float("smooth", 0.0, only=PJ_ONLY),
    Float("clip", 0.0, only=AB_AND_HANK),
    Int("dont_update", 0, only=AB_AND_HANK),
    Int("burnin_update", 0, only=AB_AND_HANK),
    Int("train_only_bn", 0, only=AB_AND_HANK),
)

__all__ = [
    "AB_AND_HANK",
    "AB_ONLY",
    "ACTIVATIONS",
    "ALL",
    "GENERIC_LAYER_OPTIONS",
    "PJ_ONLY",
    "Activation",
    "Enum",
    "Float",
    "FloatList",
    "Int",
    "IntList",
    "Kind",
    "Opt",
    "Ref",
    "Str",
]
