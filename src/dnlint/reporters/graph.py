"""``--graph FILE``: the layer graph as Graphviz DOT (or SVG/PNG/PDF through ``dot``).

One node per layer with its index, type, output shape and cfg line; an edge for the data flow:
the previous layer for ordinary layers, the referenced layers for ``[route]``, and both for
``[shortcut]``/``[sam]``/``[scale_channels]`` (dashed). Layers with an error are red, with a
warning yellow. Several cfgs give one cluster each.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from dnlint.clean import shown_path
from dnlint.diagnostics import Severity
from dnlint.network.layers.base import Layer
from dnlint.reporters.table import geometry
from dnlint.result import FileResult
from dnlint.run.outputs import AtomicOutput, atomic_text, refuse_input, same_output

RENDERED = (".svg", ".png", ".pdf")
# Graphviz's layout can take minutes on a long network whose shortcuts reach far back: a run
# must end, and the DOT source is still there to render at leisure
DOT_SECONDS = 60.0
_FILL = {Severity.ERROR: "#f8d7da", Severity.WARNING: "#fff3cd"}
_BORDER = {Severity.ERROR: "#c0392b", Severity.WARNING: "#b7950b"}
_MERGING = ("shortcut", "sam", "scale_channels")


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_HEAD = [
    "digraph dnlint {",
    "  rankdir=TB;",
    '  node [shape=box, style="rounded,filled", fillcolor="white", fontname="monospace", '
    "fontsize=10];",
    "  edge [fontname=\"monospace\", fontsize=9];",
]


def to_dot(files: Iterable[FileResult]) -> str:
    collector = GraphCollector()
    for file in files:
        collector.add(file)
    return collector.dot()


class GraphCollector:
    """Builds the DOT text cluster by cluster while a run streams its results (only the text
    is kept, never a file's network)."""

    def __init__(self) -> None:
        self.lines = list(_HEAD)
        self.count = 0

    def add(self, file: FileResult) -> None:
        report = file.checked_weights
        if report is not None and report.path == file.path:
            return  # a further weights file of a cfg already drawn
        self.lines += _cluster(self.count, file)
        self.count += 1

    def dot(self) -> str:
        return "\n".join([*self.lines, "}"]) + "\n"

    def write(self, path: str, inputs: set[tuple[int, int]],
              others: Sequence[str] = ()) -> str | None:
        """Write the graph (see :func:`write_graph`)."""
        return write_graph(self.dot(), path, inputs, others)


def _cluster(number: int, file: FileResult) -> list[str]:
    dialect = file.dialect.value if file.dialect else "?"
    label = quote(f"{shown_path(file.path)} ({dialect})")
    out = [f"  subgraph cluster_{number} {{", f"    label={label};"]
    prefix = f"f{number}_"
    if file.network is None:
        out.append(f"    {prefix}none [label={quote('no network: see the errors')}, "
                   f'fillcolor="{_FILL[Severity.ERROR]}"];')
        return [*out, "  }"]
    net = file.network.net
    entry = quote(f"input\n{net.width} x {net.height} x {net.channels}")
    out.append(f"    {prefix}input [label={entry}, shape=ellipse];")
    layers = file.network.layers
    levels = _levels(file, layers)
    for layer in layers:
        out.append(f"    {prefix}{layer.index} {_node(layer, levels.get(layer.index))};")
    for layer in layers:
        out += [f"    {edge}" for edge in _edges(prefix, layer)]
    return [*out, "  }"]


def _node(layer: Layer, level: Severity | None) -> str:
    w, h, c = layer.output
    shape = f"{w} x {h} x {c}" if layer.is_image else f"{layer.outputs} values"
    what = geometry(layer)
    label = f"{layer.index} {layer.type}{' ' + what if what else ''}\n{shape}\nline {layer.line}"
    attrs = [f"label={quote(label)}"]
    if level is not None:
        attrs += [f'fillcolor="{_FILL[level]}"', f'color="{_BORDER[level]}"', "penwidth=2"]
    return "[" + ", ".join(attrs) + "]"


def _levels(file: FileResult, layers: Sequence[Layer]) -> dict[int, Severity]:
    """The worst severity of the diagnostics inside each layer's section."""
    starts = [layer.line for layer in layers]
    levels: dict[int, Severity] = {}
    for d in file.diagnostics:
        if d.line is None or d.severity is Severity.INFO:
            continue
        position = bisect_right(starts, d.line) - 1  # the layer whose section holds the line
        if position < 0:
            continue
        index = layers[position].index
        old = levels.get(index)
        if old is None or d.severity.rank > old.rank:
            levels[index] = d.severity
    for layer in layers:
        if layer.broken:
            levels[layer.index] = Severity.ERROR
    return levels


def _edges(prefix: str, layer: Layer) -> list[str]:
    previous = f"{prefix}{layer.index - 1}" if layer.index else f"{prefix}input"
    here = f"{prefix}{layer.index}"
    if layer.type == "route":
        refs = references(layer)
        return [f"{prefix}{r} -> {here} [color=\"#2471a3\", label=\"route\"];" for r in refs]
    edges = [f"{previous} -> {here};"]
    if layer.type in _MERGING:
        edges += [f"{prefix}{r} -> {here} [style=dashed, color=\"#7d3c98\", "
                  f"label={quote(layer.type)}];" for r in references(layer)]
    return edges


def references(layer: Layer) -> list[int]:
    """The layers a route/shortcut/scale_channels/sam reads, as its builder resolved them
    (with Darknet's atoi and bounds); references the builder rejected draw nothing."""
    return [i for i in layer.refs or () if 0 <= i < layer.index]


def write_graph(dot: str, path: str, inputs: set[tuple[int, int]],
                others: Sequence[str] = ()) -> str | None:
    """Write ``dot`` to ``path`` (rendered through Graphviz for .svg/.png/.pdf), atomically and
    never over one of the run's ``inputs``; returns a note for the user when it could not be
    rendered as asked. Without Graphviz the DOT source goes to ``path`` with .dot, unless a
    file of that name exists already or is one of the run's ``others`` outputs (the report):
    then nothing is written."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in RENDERED:
        with atomic_text(path, inputs, "the graph") as handle:
            handle.write(dot)
        return None
    program = shutil.which("dot")
    if program is None:
        return _fallback(dot, path, inputs, others, "Graphviz 'dot' not found")
    refuse_input(path, inputs, "the graph")
    output = AtomicOutput(path, "the graph")
    output.stream.close()
    try:
        done = subprocess.run([program, f"-T{suffix[1:]}", "-o", output.temp or path],
                              input=dot.encode(), capture_output=True, check=False,
                              timeout=DOT_SECONDS)
    except subprocess.TimeoutExpired:  # run() has killed it
        output.discard()
        return _fallback(dot, path, inputs, others,
                         f"'dot' did not finish in {DOT_SECONDS:g} s (a long network with "
                         "far-reaching shortcuts)")
    if done.returncode != 0:
        output.discard()
        why = done.stderr.decode(errors="replace").strip()
        return _fallback(dot, path, inputs, others, f"'dot' failed ({why})")
    output.commit(inputs)
    return None


def _fallback(dot: str, path: str, inputs: set[tuple[int, int]], others: Sequence[str],
              why: str) -> str:
    fallback = os.path.splitext(path)[0] + ".dot"
    if os.path.lexists(fallback):
        return (f"{why}: {shown_path(path)} not written, and {shown_path(fallback)} exists "
                "already (not replaced)")
    if any(same_output(fallback, other) for other in others):
        return (f"{why}: {shown_path(path)} not written, and {shown_path(fallback)} is "
                "another output of this run (not replaced)")
    with atomic_text(fallback, inputs, "the graph") as handle:
        handle.write(dot)
    return f"{why}: wrote the DOT source to {shown_path(fallback)} instead of {shown_path(path)}"
