"""Benchmark the whole command's peak memory on large training-job files: ``.data`` files and
names files of ``--size`` bytes (40 MB by default, the size that once took 1 GB).

Each case is linted by ``dnlint --no-config FILE`` in a process of its own, its report read
from a pipe and thrown away, as a user runs it. The figure is the process's peak resident
size (``ru_maxrss`` from ``os.wait4``) above the same command on a one-line ``.data`` file
(best of 3), and that difference over the file's size; CPU (user + sys) is the whole
command's. A names file is linted through a two-line ``.data`` file that names it (the names
file's own checks: blank lines, CRLF).

Run: ``python bench/bench_data_memory.py [--size 4e7] [--installed] [--case NAME ...]``.
Without ``--installed`` the sources under src/ are run. Prints a Markdown table;
docs/performance.md quotes it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench_memory import RUNNER  # the same small process that measures one run

ROOT = Path(__file__).resolve().parents[1]


def _keys(n: int) -> bytes:
    """A million unique keys and more: read_data_cfg keeps each; dnlint reads six."""
    return b"".join(b"k%d=v\n" % i for i in range(n // 9))[:n]


def _repeat(unit: bytes, n: int) -> bytes:
    return unit * max(1, n // len(unit))


# name -> (what it is, the .data file's bytes, the names file's bytes or None)
Case = tuple[str, Callable[[int], bytes], Callable[[int], bytes] | None]
CASES: dict[str, Case] = {
    "data-keys": ("a .data of unique short keys (k1=v, k2=v, ...)", _keys, None),
    "data-repeated": ("a .data repeating train=train.txt",
                      lambda n: b"classes=2\n" + _repeat(b"train=train.txt\n", n), None),
    "data-blank": ("a .data of whitespace-only lines",
                   lambda n: b"classes=2\n" + _repeat(b"  \t \n", n), None),
    "data-comments": ("a .data of comment lines",
                      lambda n: b"classes=2\n" + _repeat(b"# " + b"x" * 60 + b"\n", n), None),
    "data-one-line": ("a .data whose names= value is one line of the whole size",
                      lambda n: b"classes=2\nnames=" + b"x" * n + b"\n", None),
    "names-lines": ("a names file of one short name per line",
                    lambda n: b"classes=2\nnames=case.names\n",
                    lambda n: _repeat(b"cat\n", n)),
    "names-blank": ("a names file of blank lines (DN426 for the first ten, a count after)",
                    lambda n: b"classes=2\nnames=case.names\n", lambda n: b"\n" * n),
    "names-crlf": ("a names file with CRLF line ends",
                   lambda n: b"classes=2\nnames=case.names\n",
                   lambda n: _repeat(b"cat\r\n", n)),
}

def command(path: Path, installed: bool) -> tuple[int, float, int]:
    """(peak RSS in bytes, CPU seconds, exit status) of ``dnlint --no-config FILE``."""
    env = dict(os.environ)
    if not installed:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p)
    out = subprocess.run(
        [sys.executable, "-c", RUNNER, sys.executable, "-m", "dnlint", "--no-config",
         "--format", "concise", path.name], capture_output=True, text=True, env=env,
        check=True, cwd=path.parent).stdout.split()
    return int(out[0]) * 1024, float(out[1]), int(out[2])


def measure(case: Case, size: int, installed: bool) -> tuple[int, int, float]:
    """(the case's input bytes, peak RSS above a one-line .data file's, CPU seconds above)."""
    _, data, names = case
    with tempfile.TemporaryDirectory() as folder:
        base_path = Path(folder) / "base.data"
        base_path.write_bytes(b"classes=2\n")
        base = [command(base_path, installed) for _ in range(3)]
        path = Path(folder) / "case.data"
        path.write_bytes(data(size))
        size_in = path.stat().st_size
        if names is not None:
            names_path = Path(folder) / "case.names"
            names_path.write_bytes(names(size))
            size_in = names_path.stat().st_size
        rss, cpu, _ = command(path, installed)
    return size_in, rss - min(b[0] for b in base), cpu - min(b[1] for b in base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=float, default=4e7, help="bytes per file (default 4e7)")
    parser.add_argument("--installed", action="store_true",
                        help="run the installed dnlint, not the sources under src/")
    parser.add_argument("--case", action="append", choices=sorted(CASES),
                        help="run only these cases")
    args = parser.parse_args()
    print("| case | size | peak RSS above a one-line .data | per input byte | CPU |")
    print("|---|---|---|---|---|")
    for name in args.case or CASES:
        size, rss, cpu = measure(CASES[name], int(args.size), args.installed)
        print(f"| {CASES[name][0]} | {size / 1e6:.1f} MB | {rss / 1e6:.1f} MB | "
              f"**{rss / size:.2f}x** | {cpu:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
