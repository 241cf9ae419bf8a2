"""Benchmark the weights stage.

1. The size check (stat + 1 KiB header read) costs the same on a small file and on a
   multi-GB sparse file.
2. ``--scan`` throughput in MB/s and its peak memory on a large file of real (random) floats.

Run: ``.venv/bin/python bench/bench_weights.py [--sparse-gb 8] [--scan-mb 512] [--dir DIR]``.
Files go to a temporary directory (or ``--dir``) and are removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import resource
import struct
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.weights.check import check_file
from dnlint.weights.layout import WeightsReport
from dnlint.weights.scan import scan_values

# one 3x3, 1024 -> 1024 convolution with batch norm: 9,441,280 floats (37.8 MB)
_LAYER = "[convolutional]\nbatch_normalize=1\nfilters=1024\nsize=3\npad=1\nactivation=leaky\n\n"


def network(layers: int) -> WeightsReport:
    text = "[net]\nwidth=8\nheight=8\nchannels=1024\n\n" + _LAYER * layers
    report = lint_cfg_bytes(text.encode(), "bench.cfg", Dialect.AB).weights
    assert report is not None
    return report


def write_header(path: Path) -> None:
    path.write_bytes(struct.pack("<iiiQ", 0, 2, 5, 0))


def timed(action: Callable[[], object], repeat: int) -> float:
    """Best of ``repeat`` runs, in microseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best * 1e6


def bench_size_check(folder: Path, sparse_gb: float) -> None:
    report = network(2)
    small, big = folder / "small.weights", folder / "big.weights"
    write_header(small)
    with small.open("ab") as stream:
        stream.truncate(report.expected_bytes)
    write_header(big)
    with big.open("ab") as stream:
        stream.truncate(int(sparse_gb * 1024**3))
    for name, path in (("small", small), (f"{sparse_gb:g} GB sparse", big)):
        size = path.stat().st_size
        micros = timed(lambda p=path: check_file(report.fresh(), p), 200)  # type: ignore[misc]
        print(f"size check, {name:>14} file ({size:>14,} bytes): {micros:8.1f} us")


def bench_scan(folder: Path, megabytes: int) -> None:
    per_layer = network(1).expected_payload
    layers = max(1, (megabytes * 1024 * 1024) // per_layer)
    report = network(layers)
    path = folder / "scan.weights"
    write_header(path)
    rng = np.random.default_rng(0)
    with path.open("ab") as stream:
        left = report.expected_payload // 4
        while left:
            count = min(left, 1 << 22)
            rng.standard_normal(count, dtype=np.float32).tofile(stream)
            left -= count
    check_file(report, path)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    start = time.perf_counter()
    result = scan_values(report, str(path), progress=False)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    size_mb = path.stat().st_size / 1e6
    print(f"scan: {size_mb:,.0f} MB, {result.floats:,} floats in {seconds:.2f} s = "
          f"{size_mb / seconds:,.0f} MB/s")
    print(f"scan: peak traced allocation {peak / 1e6:.1f} MB; process max RSS "
          f"{rss_before / 1024:.0f} MB before the scan, {rss_after / 1024:.0f} MB after "
          f"(file is {size_mb:,.0f} MB)")
    baseline = numpy_read_seconds(path)
    print(f"numpy reading the same file into memory (np.fromfile): {baseline:.2f} s = "
          f"{size_mb / baseline:,.0f} MB/s; scan / numpy time: {seconds / baseline:.2f}")


def numpy_read_seconds(path: Path) -> float:
    """The baseline: numpy reading the whole payload into one array (memory grows with it)."""
    start = time.perf_counter()
    values = np.fromfile(path, dtype="<f4", offset=20)
    elapsed = time.perf_counter() - start
    del values
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sparse-gb", type=float, default=8.0)
    parser.add_argument("--scan-mb", type=int, default=512)
    parser.add_argument("--dir", default=None,
                        help="where to write the files (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        bench_size_check(Path(folder), args.sparse_gb)
        bench_scan(Path(folder), args.scan_mb)
        os.sync()


if __name__ == "__main__":
    main()
