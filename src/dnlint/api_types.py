"""The typed results of dnlint's Python API (:mod:`dnlint.api`): what a notebook or another
tool reads of a lint, as plain frozen records that keep no reference to dnlint's internals
(the parsed document, the network) once read. A :class:`LintResult` of a lint builds its
layer table and weights prediction when one of them is first read (most callers read only
the findings): until both are read, it keeps the lint's network."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dnlint.severity import Severity

if TYPE_CHECKING:
    from dnlint.diagnostics import Diagnostic
    from dnlint.network.layers.base import Layer
    from dnlint.result import FileResult
    from dnlint.weights.layout import WeightsReport

__all__ = ["Edit", "Finding", "Fix", "LayerRow", "LintResult", "Severity"]


@dataclass(frozen=True)
class Edit:
    """Replace bytes ``start:end`` of the file as it was read with ``content``."""

    start: int
    end: int
    content: str


@dataclass(frozen=True)
class Fix:
    """The edits that repair a finding; ``applicability`` is ``"safe"`` (``dnlint --fix``
    applies it) or ``"unsafe"`` (only with ``--unsafe-fixes``: the intent could differ)."""

    applicability: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Finding:
    """One finding. Lines and columns count from 1; ``end_column`` is the column just after
    the span (as SARIF and editors count). A finding about a whole file has no line; one in a
    ``.weights`` file has ``byte_offset``/``byte_length`` instead, and ``path`` names it."""

    code: str
    name: str
    severity: Severity
    message: str
    path: str
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    hint: str | None = None
    byte_offset: int | None = None
    byte_length: int | None = None
    fix: Fix | None = None

    @classmethod
    def of(cls, diagnostic: Diagnostic) -> Finding:
        from dnlint.rules import find_rule

        rule = find_rule(diagnostic.code)
        fix = None
        if diagnostic.fix is not None:
            fix = Fix("safe" if diagnostic.fix.safe else "unsafe",
                      tuple(Edit(e.start, e.end, e.text.decode("utf-8", "backslashreplace"))
                            for e in diagnostic.fix.edits))
        return cls(diagnostic.code, rule.name if rule else "", diagnostic.severity,
                   diagnostic.message, diagnostic.path, diagnostic.line, diagnostic.column,
                   diagnostic.end_line, diagnostic.end_column, diagnostic.hint,
                   diagnostic.byte_offset, diagnostic.byte_length, fix)


@dataclass(frozen=True)
class LayerRow:
    """One row of the layer table (``dnlint --layers``), as Darknet computes it. Shapes are
    (width, height, channels). ``refs`` are the layers a route, shortcut, sam or
    scale_channels reads; ``group`` a grouped route's (group_id, groups)."""

    index: int
    type: str
    line: int
    input: tuple[int, int, int]
    output: tuple[int, int, int]
    outputs: int
    params: int
    bflops: float
    filters: int | None = None
    size: int | None = None
    stride: tuple[int, int] | None = None
    refs: tuple[int, ...] = ()
    group: tuple[int, int] | None = None
    broken: bool = False

    @classmethod
    def of(cls, layer: Layer) -> LayerRow:
        return cls(layer.index, layer.type, layer.line, layer.input, layer.output,
                   layer.outputs, layer.params, layer.bflops, layer.filters, layer.size,
                   layer.stride, tuple(layer.refs or ()), layer.group, layer.broken)


# LintResult.of: the lint its built fields are made from, under a name no field has
_PENDING = "_pending"


class _Built:
    """A field of :class:`LintResult` (``layers``, ``weights``) that a record made by
    :meth:`LintResult.of` builds from its lint when first read; a record made by its
    constructor holds what it was given. Default: None."""

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, record: LintResult | None, owner: type | None = None) -> Any:
        if record is None:
            return None  # the field's default, as the dataclass reads it
        state = record.__dict__
        if self.name in state:
            return state[self.name]
        result = state.get(_PENDING)
        if result is None:
            raise AttributeError(self.name)
        if self.name == "layers":
            network = result.network
            value = (tuple([LayerRow.of(layer) for layer in network.layers])
                     if network is not None else None)
        else:
            value = result.weights
        state[self.name] = value
        if "layers" in state and "weights" in state:
            del state[_PENDING]  # nothing of the lint is kept any more
        return value

    def __set__(self, record: LintResult, value: Any) -> None:
        record.__dict__[self.name] = value


@dataclass(frozen=True)
class LintResult:
    """What linting one cfg gives: its findings (those of the weights files checked with it
    too), the dialect it was read as and why, the layer table and the weights prediction
    (:class:`dnlint.weights.layout.WeightsReport`: the exact byte count ``load_weights``
    reads, per layer, and what the checked file holds), the last two ``None`` when the cfg
    does not build a network."""

    path: str
    findings: tuple[Finding, ...]
    dialect: str | None = None
    dialect_reason: str = ""
    layers: tuple[LayerRow, ...] | None = None  # a _Built: see below the class
    weights: WeightsReport | None = field(default=None, repr=False)  # a _Built too

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        """No error: Darknet reads the file as it says (warnings allowed, as the exit status
        of ``dnlint`` without ``--strict``)."""
        return not self.errors

    @classmethod
    def of(cls, result: FileResult, extra: list[FileResult] | None = None) -> LintResult:
        """The record of ``result``, whose ``layers`` and ``weights`` are built from it when
        first read (then it is dropped): the layer rows and the weights layout cost a tenth
        of the lint of a large cfg, and most callers read only the findings."""
        diagnostics = [*result.diagnostics, *(d for more in extra or () for d in more.diagnostics)]
        record = cls(result.path, tuple(Finding.of(d) for d in diagnostics),
                     result.dialect.value if result.dialect is not None else None,
                     result.dialect_reason)
        state = record.__dict__  # the defaults __init__ stored make way for the lint
        del state["layers"], state["weights"]
        state[_PENDING] = result
        return record

    def __getstate__(self) -> dict[str, Any]:
        """Every field, built (pickle, copy): never the lint a lazy field is built from."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


# The fields the dataclass made, with their default (None) in __init__, read and written
# through a _Built from now on (the frozen __init__'s object.__setattr__ goes through it too).
for _name in ("layers", "weights"):
    _built = _Built()
    _built.__set_name__(LintResult, _name)
    setattr(LintResult, _name, _built)
del _name, _built


