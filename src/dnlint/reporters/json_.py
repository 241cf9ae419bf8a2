"""``--format json``: one document, stable keys (``version`` 2), streamed file by file.

Version 2 keeps each file's entry to what was checked: ``layers`` (the layer table) and
``weights`` (the predicted layout) come with ``--layers``; ``weights`` also comes whenever a
weights file was checked against the cfg. Version 1 had both for every cfg that builds, which
made JSON the slowest format by far (the prediction and a 22 KB table per yolov4.cfg).

File names are shown as the text formats show them (:func:`dnlint.clean.shown_path`): a name
that is not valid UTF-8 has its bytes as ``\\xff`` escapes.
"""

from __future__ import annotations

from dnlint import __version__
from dnlint.clean import shown_path
from dnlint.cnumbers import to_float32
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.dialects import Dialect
from dnlint.network.memory import memory_json
from dnlint.reporters import ReportContext
from dnlint.result import FileResult, RunTotals

try:  # json.dumps's C string encoder (ensure_ascii), without importing json, which imports re
    from _json import encode_basestring_ascii as _encoder
except ImportError:  # an interpreter without the C accelerator
    from json.encoder import encode_basestring_ascii as _encoder
json_string = _encoder  # a JSON string literal of a str

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

    from dnlint.network.build import Network
    from dnlint.network.layers.base import Layer

SCHEMA_VERSION = 2


def diagnostic_json(d: Diagnostic, file_path: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": d.code,
        "severity": d.severity.value,
        "line": d.line,
        "column": d.column,
        "end_line": d.end_line,
        "end_column": d.end_column,
        "message": d.message,
    }
    if d.hint:
        entry["hint"] = d.hint
    if d.byte_offset is not None:  # a finding in a .weights file
        entry["byte_offset"], entry["byte_length"] = d.byte_offset, d.byte_length
    if d.path and d.path != file_path:
        entry["path"] = shown_path(d.path)  # e.g. a weights-file finding listed under its cfg
    if d.fix is not None:  # byte edits of the original file, as --fix applies them
        entry["fix"] = {"applicability": "safe" if d.fix.safe else "unsafe",
                        "edits": [{"start": e.start, "end": e.end,
                                   "content": e.text.decode("utf-8", "backslashreplace")}
                                  for e in d.fix.edits]}
    return entry


def file_json(result: FileResult, show_layers: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "path": shown_path(result.path),
        "dialect": result.dialect.value if result.dialect else None,
        "dialect_reason": result.dialect_reason,
        "diagnostics": [diagnostic_json(d, result.path) for d in result.diagnostics],
    }
    if show_layers and result.network is not None:
        entry["layers"] = [
            {
                "index": layer.index,
                "type": layer.type,
                "line": layer.line,
                "input": list(layer.input),
                "output": list(layer.output),
                "outputs": layer.outputs,
                "params": layer.params,
                "bflops": bflops_json(result.network, layer),
            }
            for layer in result.network.layers
        ]
        if result.dialect is not None:
            entry["memory"] = memory_json(result.network, result.dialect, entry["layers"])
    report = result.weights if show_layers else result.checked_weights
    if report is not None:
        entry["weights"] = report.to_json()
    if "dataset" in result.extra:  # --check-labels: a .data file's lists counted
        entry["dataset"] = result.extra["dataset"]
    return entry


def bflops_json(network: Network, layer: Layer) -> float:
    """A layer's BFLOPs for JSON: a C float (AlexeyAB's, hank-ai's ``l.bflops``) as the
    shortest decimal that reads back as the same float, not the 17 digits of its double."""
    value = network.layer_bflops(layer)
    if network.dialect is Dialect.PJ or value == 0:
        return value
    for digits in range(6, 10):
        shortest = float(f"{value:.{digits}g}")
        if to_float32(shortest) == value:
            return shortest
    return value


_INFINITY = float("inf")


def _dumps(value: Any) -> str:
    """``json.dumps(value, indent=2)``, for what :func:`indented_json` does not write itself."""
    import json

    return json.dumps(value, indent=2)


def indented_json(value: Any, newline: str = "\n") -> str:
    """``json.dumps(value, indent=2)`` with each of its new lines followed by what follows
    ``newline`` (the indentation of the place it goes), character for character.

    The standard library encodes with ``indent`` in pure Python, as generators nested per
    level: that cost a JSON report as much per file as half the lint. Here one call per
    container, the C string encoder for every string; what is neither str, number, bool,
    None, list, tuple nor dict with str keys goes to ``json.dumps`` itself (the same text,
    or its TypeError)."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = newline + "  "
        try:  # a key that is not a str: the string encoder's TypeError
            members = [json_string(key) + ": " + (json_string(item) if type(item) is str
                                              else indented_json(item, inner))
                       for key, item in value.items()]
        except TypeError:
            return _dumps(value).replace("\n", newline)
        return "{" + inner + ("," + inner).join(members) + newline + "}"
    if isinstance(value, str):
        return json_string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = newline + "  "
        return "[" + inner + ("," + inner).join([
            json_string(item) if type(item) is str else indented_json(item, inner)
            for item in value]) + newline + "]"
    return _dumps(value).replace("\n", newline)


def _float(value: float) -> str:
    """A float as ``json`` writes it (allow_nan: NaN and Infinity as JavaScript spells them)."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


class StreamedArray:
    """The items of a JSON array written one at a time, each the text ``json.dump(indent=2)``
    gives it at ``depth`` (the array's own nesting level), so that a streamed document reads
    exactly like one dumped whole."""

    def __init__(self, stream: TextIO, depth: int) -> None:
        self.stream = stream
        self.inner = "\n" + "  " * (depth + 1)
        self.outer = "\n" + "  " * depth
        self.count = 0

    def write(self, item: Any) -> None:
        self.stream.write(("," if self.count else "") + self.inner
                          + indented_json(item, self.inner))
        self.count += 1

    def write_all(self, items: list[Any]) -> None:
        """Several items, in one write, as :meth:`write` writes them one by one."""
        if not items:
            return
        inner = self.inner
        self.stream.write(("," if self.count else "") + inner
                          + ("," + inner).join([indented_json(item, inner) for item in items]))
        self.count += len(items)

    def closing(self) -> str:
        """The array's closing bracket, on a line of its own unless it is empty."""
        return self.outer + "]" if self.count else "]"


class JsonReporter:
    """One JSON document, written file by file: the same text ``json.dump(indent=2)`` gives."""

    def __init__(self, ctx: ReportContext) -> None:
        self.stream = ctx.stream
        self.show_layers = ctx.show_layers
        head = {"version": SCHEMA_VERSION, "tool": {"name": "dnlint", "version": __version__}}
        self.stream.write(indented_json(head)[:-2] + ',\n  "files": [')
        self.files = StreamedArray(self.stream, 1)

    def file(self, result: FileResult) -> None:
        self.files.write(file_json(result, self.show_layers))

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        summary = indented_json(summary_json(totals), "\n  ")
        self.stream.write(f'{self.files.closing()},\n  "summary": {summary}\n}}\n')


def summary_json(totals: RunTotals) -> dict[str, int]:
    return {
        "files": totals.files,
        "errors": totals.count(Severity.ERROR),
        "warnings": totals.count(Severity.WARNING),
        "infos": totals.count(Severity.INFO),
    }
