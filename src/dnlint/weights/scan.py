"""``--scan``: read a .weights file's values and find NaN, Inf, zeros and absurd numbers.

The file is read in the loader's order (``load_weights_upto``), block by block, in chunks of at
most ``chunk_floats`` values, so memory stays bounded whatever the file's size. numpy is
imported here only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from dnlint.diagnostics import Diagnostic
from dnlint.network.layers.base import Block
from dnlint.weights.check import diagnostic
from dnlint.weights.header import WRITTEN_HEADER_BYTES, parse_header
from dnlint.weights.layout import FLOAT, LayerLayout, WeightsReport

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CHUNK_FLOATS = 1 << 20  # 4 MiB per read
ABSURD = 1e6
# show a progress bar on a terminal only for files at least this large
PROGRESS_BYTES = 64 * 1024 * 1024
# blocks whose being all zero means the layer computes nothing useful
_ZERO_MATTERS = frozenset({"weights", "scales"})


@dataclass
class BlockStats:
    """What one block of one layer holds."""

    layer: LayerLayout
    block: Block
    offset: int
    read: int = 0
    nan: int = 0
    inf: int = 0
    nonzero: int = 0
    absurd: int = 0
    nonpositive: int = 0
    max_abs: float = 0.0

    def add(self, chunk: npt.NDArray[np.float32]) -> None:
        import numpy as np

        self.read += int(chunk.size)
        self.nonzero += int(np.count_nonzero(chunk))
        magnitude = np.abs(chunk)
        finite = np.isfinite(chunk)
        nonfinite = int(chunk.size - np.count_nonzero(finite))
        if nonfinite:
            nan = int(np.count_nonzero(np.isnan(chunk)))
            self.nan += nan
            self.inf += nonfinite - nan
            magnitude = magnitude[finite]
        if magnitude.size:
            self.max_abs = max(self.max_abs, float(magnitude.max()))
            self.absurd += int(np.count_nonzero(magnitude > ABSURD))
        if self.block.name == "rolling_variance":
            self.nonpositive += int(np.count_nonzero(chunk <= 0))


@dataclass
class ScanResult:
    """Every block scanned, the floats read, and whether the file ended early."""

    blocks: list[BlockStats] = field(default_factory=list)
    floats: int = 0
    ended_early: bool = False


def scan_weights(
    report: WeightsReport,
    path: str | None = None,
    chunk_floats: int = CHUNK_FLOATS,
    progress: bool | None = None,
) -> list[Diagnostic]:
    """Scan the file at ``path`` (default ``report.path``) against ``report``'s load layout.

    Findings carry the cfg path and the layer's line, and name the block and its byte offset in
    the weights file. ``progress=None`` shows a rich progress bar when stderr is a terminal and
    the file is large.
    """
    name = path or report.path
    if name is None:
        raise ValueError("scan_weights needs a weights path")
    result = scan_values(report, name, chunk_floats, progress)
    return findings(report, name, result)


def scan_values(
    report: WeightsReport, path: str, chunk_floats: int = CHUNK_FLOATS,
    progress: bool | None = None,
) -> ScanResult:
    """Read every loaded block of ``path`` and collect its statistics."""
    result = ScanResult()
    with open(path, "rb") as stream:
        header = parse_header(stream.read(WRITTEN_HEADER_BYTES), report.dialect)
        if header is None or not header.complete:
            result.ended_early = True
            return result
        stream.seek(header.size)
        total = min(os.fstat(stream.fileno()).st_size, report.expected_bytes) - header.size
        with _progress(path, max(total, 0), progress) as advance:
            for layer in _loaded(report):
                offset = header.size + layer.load_offset - report.header_bytes
                for block in layer.loaded:
                    stats = BlockStats(layer, block, offset)
                    result.blocks.append(stats)
                    complete = _read_block(stream, stats, chunk_floats, advance)
                    result.floats += stats.read
                    offset += FLOAT * block.floats
                    if not complete:
                        result.ended_early = True
                        return result
    return result


def _loaded(report: WeightsReport) -> Iterator[LayerLayout]:
    for layer in report.layers:
        if layer.crash:
            return
        if layer.loaded_floats:
            yield layer


def _read_block(
    stream: IO[bytes], stats: BlockStats, chunk_floats: int, advance: Callable[[int], None]
) -> bool:
    import numpy as np

    remaining = stats.block.floats
    while remaining > 0:
        want = min(remaining, chunk_floats)
        chunk = np.fromfile(stream, dtype="<f4", count=want)
        if chunk.size:
            stats.add(chunk)
            advance(FLOAT * int(chunk.size))
        if chunk.size < want:
            return False
        remaining -= want
    return True


class _progress:
    """A rich progress bar on stderr, or nothing; used as ``with _progress(...) as advance``."""

    def __init__(self, path: str, total: int, wanted: bool | None) -> None:
        show = wanted if wanted is not None else (sys.stderr.isatty() and total >= PROGRESS_BYTES)
        self.path, self.total, self.show = path, total, show
        self.bar: object | None = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.show:
            return lambda _: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        # markup=False: the description is a file name ("[bold].weights" is a name, not a style)
        bar = Progress(TextColumn("scanning {task.description}", markup=False), BarColumn(),
                       DownloadColumn(),
                       TransferSpeedColumn(), TimeRemainingColumn(),
                       console=Console(stderr=True), transient=True)
        bar.start()
        task = bar.add_task(os.path.basename(self.path), total=self.total)
        self.bar = bar
        return lambda n: bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            from rich.progress import Progress

            assert isinstance(self.bar, Progress)
            self.bar.stop()


# --- findings -------------------------------------------------------------------------------
def findings(report: WeightsReport, path: str, result: ScanResult) -> list[Diagnostic]:
    """One diagnostic per layer and kind of problem, at the layer's cfg line."""
    if result.floats and all(s.nonzero == 0 for s in result.blocks):
        return [diagnostic("DN521", f"all {result.floats:,} floats read from {path} are zero: "
                           "the file was never filled with trained weights", path)]
    out: list[Diagnostic] = []
    by_layer: dict[int, list[BlockStats]] = {}
    for stats in result.blocks:
        by_layer.setdefault(stats.layer.index, []).append(stats)
    for blocks in by_layer.values():
        out += _layer_findings(report, path, blocks)
    return out


def _layer_findings(report: WeightsReport, path: str, blocks: list[BlockStats]) -> list[Diagnostic]:
    layer = blocks[0].layer
    where = f"layer {layer.index} [{layer.section}] in {os.path.basename(path)}"
    out = []
    checks: list[tuple[str, Callable[[BlockStats], str | None]]] = [
        ("DN520", _nan_inf), ("DN522", _variance), ("DN523", _absurd), ("DN521", _zero),
    ]
    for code, describe in checks:
        parts = [text for stats in blocks if (text := describe(stats))]
        if parts:
            out.append(diagnostic(code, f"{where}: " + "; ".join(parts), report.cfg_path,
                                  layer.line))
    return out


def _at(stats: BlockStats) -> str:
    return f"{stats.block.name!r} ({stats.block.floats:,} floats at byte {stats.offset:,})"


def _nan_inf(stats: BlockStats) -> str | None:
    if not stats.nan and not stats.inf:
        return None
    return f"{stats.nan:,} NaN and {stats.inf:,} infinite values in {_at(stats)}"


def _variance(stats: BlockStats) -> str | None:
    if not stats.nonpositive:
        return None
    return f"{stats.nonpositive:,} rolling variances <= 0 in {_at(stats)}"


def _absurd(stats: BlockStats) -> str | None:
    if not stats.absurd:
        return None
    return f"{stats.absurd:,} values above {ABSURD:g} in magnitude (max {stats.max_abs:.3g}) " \
           f"in {_at(stats)}"


def _zero(stats: BlockStats) -> str | None:
    if stats.nonzero or stats.read < stats.block.floats or stats.block.name not in _ZERO_MATTERS:
        return None
    return f"every value of {_at(stats)} is zero"
