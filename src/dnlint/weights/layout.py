"""Where every layer's record lies in a .weights file, as Darknet saves and loads it.

Mirrors ``save_weights_upto`` and ``load_weights_upto`` (src/parser.c) of each fork: both walk
the layers in order and write or read the record of each layer with weights. A layer's own
record (``Layer.saved``, ``Layer.loaded``) comes from its layer type; the flags that decide
whether the loop visits the layer at all (``dontload``, [pj] ``dontsave``) and the layers the
original loader dies on are handled here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dnlint.diagnostics import Diagnostic
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Block, Layer, total_floats
from dnlint.options.convert import Values
from dnlint.weights.header import WRITTEN_HEADER_BYTES, Header

if TYPE_CHECKING:
    from dnlint.network.build import Network

FLOAT = 4


@dataclass(frozen=True)
class LayerLayout:
    """One layer's place in the file: offsets count from byte 0 with the 20-byte header."""

    index: int
    type: str
    line: int
    section: str
    saved: tuple[Block, ...]
    loaded: tuple[Block, ...]
    save_offset: int
    load_offset: int
    # why saved and loaded differ here, e.g. "dontload=1 (line 12)"
    notes: tuple[str, ...] = ()
    # why the loader dies on this layer ([pj] deconvolutional, unknown types); None when it loads
    crash: str | None = None
    # the layer's typed options, to explain size differences; None for unknown sections
    values: Values | None = field(default=None, compare=False, repr=False)

    @property
    def saved_floats(self) -> int:
        return total_floats(self.saved)

    @property
    def loaded_floats(self) -> int:
        return total_floats(self.loaded)

    @property
    def load_end(self) -> int:
        return self.load_offset + FLOAT * self.loaded_floats

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "type": self.type,
            "line": self.line,
            "save_offset": self.save_offset,
            "saved_floats": self.saved_floats,
            "load_offset": self.load_offset,
            "loaded_floats": self.loaded_floats,
            "blocks": [{"name": b.name, "floats": b.floats} for b in self.loaded],
            "notes": list(self.notes),
            "crash": self.crash,
        }


@dataclass
class WeightsReport:
    """The prediction for one cfg, and what was found in an actual file when one was checked.

    ``expected_bytes`` is what ``load_weights`` consumes (a file of exactly that size loads
    exactly); ``saved_bytes`` is what ``save_weights`` writes. Both count the 20-byte header
    that every fork writes; a file with an old 16-byte header needs 4 bytes less.
    """

    dialect: Dialect
    cfg_path: str
    layers: list[LayerLayout]
    expected_bytes: int
    saved_bytes: int
    header_bytes: int = WRITTEN_HEADER_BYTES
    path: str | None = None
    actual_bytes: int | None = None
    header: Header | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def weighted(self) -> list[LayerLayout]:
        """Layers that the loader reads something for (or dies on)."""
        return [lay for lay in self.layers if lay.loaded_floats or lay.crash]

    @property
    def crash(self) -> LayerLayout | None:
        """The first layer the loader dies on, if any."""
        return next((lay for lay in self.layers if lay.crash), None)

    @property
    def loadable(self) -> bool:
        return self.crash is None

    @property
    def expected_payload(self) -> int:
        return self.expected_bytes - self.header_bytes

    @property
    def saved_payload(self) -> int:
        return self.saved_bytes - self.header_bytes

    def fresh(self) -> WeightsReport:
        """The same prediction with no file checked yet."""
        return WeightsReport(self.dialect, self.cfg_path, self.layers, self.expected_bytes,
                             self.saved_bytes, self.header_bytes)

    def differences(self) -> list[str]:
        """Why expected_bytes and saved_bytes differ: one line per layer that makes them."""
        return [
            f"layer {lay.index} [{lay.section}] line {lay.line}: " + "; ".join(lay.notes)
            for lay in self.layers
            if lay.notes
        ]

    def to_json(self, layers: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "expected_bytes": self.expected_bytes,
            "saved_bytes": self.saved_bytes,
            "header_bytes": self.header_bytes,
            "path": self.path,
            "actual_bytes": self.actual_bytes,
            "header": self.header.to_json() if self.header else None,
            "loadable": self.loadable,
            "differences": self.differences(),
        }
        if layers:
            data["layers"] = [lay.to_json() for lay in self.layers if lay.saved or lay.loaded
                              or lay.crash or lay.notes]
        return data


def predict(network: Network, dialect: Dialect, cfg_path: str = "") -> WeightsReport:
    """The file layout of ``network`` in ``dialect``: no file is read."""
    layouts: list[LayerLayout] = []
    save_at = load_at = WRITTEN_HEADER_BYTES
    crashed = False
    for layer in network.layers:
        layout = _layout(layer, dialect, save_at, load_at)
        layouts.append(layout)
        save_at += FLOAT * layout.saved_floats
        if not crashed:
            load_at += FLOAT * layout.loaded_floats
        # the loader dies on this layer: it consumes nothing more
        crashed = crashed or layout.crash is not None
    return WeightsReport(dialect, cfg_path, layouts, load_at, save_at)


def _layout(layer: Layer, dialect: Dialect, save_at: int, load_at: int) -> LayerLayout:
    saved, loaded = layer.saved, layer.loaded
    notes: list[str] = []
    if layer.shares is not None:
        # [ab] share_index: the loop skips a layer whose share_layer is set
        saved, loaded = (), ()
    dontsave = dialect is _PJ and _flag(layer, "dontsave")
    dontload = _flag(layer, "dontload")
    if dontsave and saved:
        notes.append(f"dontsave={dontsave} {_at(layer, 'dontsave')}: not saved")
        saved = ()
    if dontload and loaded:
        notes.append(f"dontload={dontload} {_at(layer, 'dontload')}: not loaded")
        loaded = ()
    if not dontload and saved != loaded:
        notes += _record_notes(layer, saved, loaded)
    crash = None if dontload else _crash(layer, dialect)
    if crash:
        loaded = ()
    return LayerLayout(layer.index, layer.type, layer.line, layer.section_name, saved, loaded,
                       save_at, load_at, tuple(notes), crash, layer.values)


# Enum members are slow class attributes on Python 3.11: the per-layer path uses this.
_PJ = Dialect.PJ


def _record_notes(layer: Layer, saved: tuple[Block, ...], loaded: tuple[Block, ...]) -> list[str]:
    """Name the flag that makes the layer type's loaded record differ from its saved one."""
    notes = []
    if dontloadscales := _flag(layer, "dontloadscales"):
        notes.append(f"dontloadscales={dontloadscales} {_at(layer, 'dontloadscales')}: "
                     "batch-norm scales, rolling mean and variance not loaded")
    if (numload := _flag(layer, "numload")) and _has_option(layer, "numload"):
        notes.append(f"numload={numload} {_at(layer, 'numload')}: loads {numload} filters")
    if not notes:
        diff = total_floats(saved) - total_floats(loaded)
        notes.append(f"the loader reads {-diff:+d} floats relative to the saver")
    return notes


def _crash(layer: Layer, dialect: Dialect) -> str | None:
    """The original loader's SIGFPEs: load_convolutional_weights divides by l.groups == 0."""
    for block in layer.loaded:
        if block.floats < 0:
            return "a negative float count: the loader's fread asks for a huge read"
    if dialect is not _PJ:
        return None
    if layer.unknown:
        return ("the unknown section is a zeroed layer of type CONVOLUTIONAL with groups 0; "
                "load_convolutional_weights divides by it (SIGFPE)")
    if layer.type == "deconvolutional":
        return ("load_weights reads [deconvolutional] with load_convolutional_weights, which "
                "divides by l.groups, never set for it (0): SIGFPE")
    return None


def _has_option(layer: Layer, name: str) -> bool:
    return layer.values is not None and name in layer.values.specs


def _flag(layer: Layer, name: str) -> int:
    """A generic per-layer int option, 0 when the dialect does not read it."""
    if not _has_option(layer, name):
        return 0
    assert layer.values is not None
    return layer.values.int(name)


def _at(layer: Layer, name: str) -> str:
    if layer.values is None:
        return f"(layer line {layer.line})"
    return f"(line {layer.values.line_of(name)[0]})"
