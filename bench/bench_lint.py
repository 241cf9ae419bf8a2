"""Benchmark linting: the stock corpus against OpenCV's Darknet importer, start-up, and scaling.

1. Every cfg of ../shared/corpus in one process: wall time and per-file median for dnlint
   (read + full lint, as ``dnlint FILE`` does it) and, in the same run on the same files,
   OpenCV's ``cv2.dnn.readNetFromDarknet`` (OpenCV 4.x; ``pip install 'opencv-python-headless<5'``),
   when it is installed. Each file's figure is the best of ``--rounds`` runs; dnlint runs with
   the cycle collector paused, as a ``dnlint`` run does for all its files (``cli.run_paths``).
   The report says whether the installed dnlint is compiled (mypyc) or pure Python.
2. Start-up: ``dnlint --version`` and a one-file lint against a bare ``python -c pass``, best of
   ``--starts`` runs each, through the installed ``dnlint`` script.
3. Scaling: a cfg of 1k, 10k and 100k layers; the time per layer must stay flat.

Run: ``python bench/bench_lint.py [--corpus ../shared/corpus] [--rounds 5] [--starts 15]``.
Prints a Markdown report (machine, method, figures) for the README.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dnlint.dialects import Dialect
from dnlint.engine import Input, RunOptions, cycle_gc_paused, lint_input

ROOT = Path(__file__).resolve().parents[1]
LAYER = "[convolutional]\nbatch_normalize=1\nfilters=16\nsize=3\npad=1\nactivation=leaky\n\n"


def best_per_file(files: list[Path], action: Callable[[Path], bool], rounds: int
                  ) -> tuple[list[float], int]:
    """Best-of-``rounds`` seconds per file, and how many files ``action`` handled."""
    best = [float("inf")] * len(files)
    handled = 0
    for round_index in range(rounds):
        for i, path in enumerate(files):
            start = time.perf_counter()
            ok = action(path)
            best[i] = min(best[i], time.perf_counter() - start)
            handled += ok and round_index == 0
    return best, handled


def lint_file(path: Path) -> bool:
    lint_input(Input(str(path), "cfg"), RunOptions())
    return True


def opencv_file(path: Path) -> bool:
    import cv2

    try:
        cv2.dnn.readNetFromDarknet(str(path))
    except cv2.error:
        return False
    return True


def corpus_section(corpus: Path, rounds: int) -> list[str]:
    files = sorted(corpus.rglob("*.cfg"))
    if not files:
        return [f"(no cfg under {corpus}: corpus comparison skipped)"]
    with cycle_gc_paused():  # as a dnlint run does for all its files (cli.run_paths)
        start = time.perf_counter()
        for path in files:
            lint_file(path)
        wall = time.perf_counter() - start
        mine, _ = best_per_file(files, lint_file, rounds)
    rows = [
        f"Corpus: {len(files)} stock cfgs, one process, best of {rounds} per file.",
        "",
        "| tool | files handled | wall, first pass | per-file median | per-file max |",
        "|---|---|---|---|---|",
        f"| dnlint {_version()} ({_install_kind()}) | {len(files)} | {wall * 1000:.0f} ms | "
        f"{statistics.median(mine) * 1000:.2f} ms | {max(mine) * 1000:.2f} ms |",
    ]
    try:
        import cv2
    except ImportError:
        return [*rows, "", "(OpenCV is not installed: no side-by-side comparison)"]
    start = time.perf_counter()
    for path in files:
        opencv_file(path)
    cv_wall = time.perf_counter() - start
    theirs, parsed = best_per_file(files, opencv_file, rounds)
    ratio = statistics.median(mine) / statistics.median(theirs)
    rows.append(
        f"| OpenCV {cv2.__version__} readNetFromDarknet | {parsed} parsed | "
        f"{cv_wall * 1000:.0f} ms | {statistics.median(theirs) * 1000:.2f} ms | "
        f"{max(theirs) * 1000:.2f} ms |"
    )
    return [*rows, "", f"Per-file median ratio dnlint / OpenCV: **{ratio:.2f}**"]


def startup_section(starts: int) -> list[str]:
    script = shutil.which("dnlint", path=str(Path(sys.executable).parent)) or shutil.which("dnlint")
    if script is None:
        return ["(no installed dnlint script: start-up not measured)"]
    example = str(ROOT / "fixtures" / "examples" / "tiny-detector.cfg")
    env = {**os.environ, "NO_COLOR": "1"}

    def best(argv: list[str]) -> float:
        times = []
        for _ in range(starts):
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, env=env, check=False)
            times.append(time.perf_counter() - start)
        return min(times)

    bare = best([sys.executable, "-c", "pass"])
    version = best([script, "--version"])
    one = best([script, "--no-config", example])
    return [
        f"Start-up, best of {starts} (`{Path(script).name}` script, {_install_kind()}):",
        "",
        "| command | wall | over `python -c pass` |",
        "|---|---|---|",
        f"| `python -c pass` | {bare * 1000:.0f} ms | |",
        f"| `dnlint --version` | {version * 1000:.0f} ms | {(version - bare) * 1000:.0f} ms |",
        f"| `dnlint tiny-detector.cfg` | {one * 1000:.0f} ms | {(one - bare) * 1000:.0f} ms |",
    ]


def scaling_section() -> list[str]:
    rows = ["Scaling (one cfg of N convolutional layers on a 16x16 input, best of 3):", "",
            "| layers | lint time | per layer |", "|---|---|---|"]
    per_layer = []
    with tempfile.TemporaryDirectory() as folder:
        for count in (1_000, 10_000, 100_000):
            path = Path(folder) / f"n{count}.cfg"
            path.write_text("[net]\nwidth=16\nheight=16\nchannels=16\n\n" + LAYER * count)
            elapsed = math.inf
            for _ in range(3):  # best of 3: the first 1k-layer run also pays for warm-up
                start = time.perf_counter()
                result = lint_input(Input(str(path), "cfg"), RunOptions(dialect=Dialect.AB))
                elapsed = min(elapsed, time.perf_counter() - start)
                assert result.network is not None and len(result.network.layers) == count
                del result
            per_layer.append(elapsed / count)
            rows.append(f"| {count:,} | {elapsed * 1000:.0f} ms | {elapsed / count * 1e6:.1f} µs |")
    spread = max(per_layer) / min(per_layer)
    rows += ["", f"Largest / smallest time per layer: {spread:.2f} (1.0 is perfectly linear)"]
    return rows


def _version() -> str:
    from dnlint import __version__

    return __version__


def _install_kind() -> str:
    import dnlint
    import dnlint.reader

    location = Path(dnlint.__file__).resolve()
    where = "editable install" if ROOT in location.parents else "regular install"
    compiled = not dnlint.reader.__file__.endswith(".py")
    return f"{where}, {'compiled with mypyc' if compiled else 'pure Python'}"


def machine() -> str:
    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=15)
    args = parser.parse_args()
    report = [f"Machine: {machine()}.", ""]
    report += [*corpus_section(args.corpus, args.rounds), ""]
    report += [*startup_section(args.starts), ""]
    report += scaling_section()
    print("\n".join(report))


if __name__ == "__main__":
    main()
