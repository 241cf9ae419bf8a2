"""Benchmark linting: the whole command against OpenCV's Darknet importer, the core, start-up,
and scaling.

1. End to end, what a user pays: the installed ``dnlint`` script as a separate process in every
   output format, over the stock cfgs of ../shared/corpus that OpenCV 4.x's
   ``cv2.dnn.readNetFromDarknet`` accepts (``pip install 'opencv-python-headless<5'``). A
   figure is the CPU time (user + sys, from ``os.wait4``) of the whole process, best of
   ``--rounds``; the report goes through a pipe the benchmark reads and discards, and the
   nearest configuration is searched for as in a plain ``dnlint`` run. Per-file cost =
   (CPU of one run over all N files - CPU of a run over the first file) / (N - 1), so the
   interpreter's start-up and imports cancel out. OpenCV, in the same benchmark run: CPU time
   (``time.process_time``) of a loop calling ``readNetFromDarknet`` on the same N files, in a
   process of its own with ``cv2.setNumThreads(1)`` (3 loops a round, best of all), divided by
   N; its import and process start are not counted. Rounds interleave OpenCV and the formats.
2. Start-up: a one-file text run of the ``dnlint`` script, CPU and wall, over a bare
   ``python -c pass``, best of ``--starts``; ``dnlint --version`` too.
3. Many files: the whole corpus copied N times into a temporary directory, one text run
   over the directory each: CPU time per file and peak memory (``ru_maxrss``) of the process.
   Then memory against the number of files in every format: ``--files`` counts (1,000 and
   4,000 by default) of files cycled from the corpus, every other one with ``activation=``
   misspelt (a finding per layer: 72 in a yolov4.cfg), one run per format and count; the
   peak RSS must not grow with the count (results stream, issue 10).
4. The core alone, in this process: read + lint of each file (``lint_input``, as a run does
   before policy and report), best of ``--rounds`` per file; no process, policy or report.
5. Scaling in one file: a cfg of 1k, 10k and 100k layers; the time per layer must stay flat.
6. Instructions (``valgrind --tool=callgrind``, which counts the same on a busy machine; the
   section is skipped without valgrind): per file, a whole ``dnlint --format F`` process over
   the files of 1. less one over the first, / (N - 1), in every output format, against a
   process looping ``readNetFromDarknet`` over the same files less one over the first; and
   start-up, a one-file run of the bundled example in every format less ``python -c pass``.
7. The layer tables: the whole command ``dnlint --layers`` on one cfg of 10,000 convolutional
   layers, text and JSON (and each without ``--layers``), CPU best of ``--rounds``; the cost of
   a row = (with ``--layers`` - without) / 10,000.

The report says whether the installed dnlint is compiled (mypyc) or pure Python; run the
benchmark with the interpreter of the environment dnlint is installed in.

Run: ``python bench/bench_lint.py [--corpus ../shared/corpus] [--rounds 5] [--starts 15]
[--files 1000,4000] [--memory-only] [--only end-to-end,startup,layers,...]``.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dnlint.dialects import Dialect
from dnlint.run.engine import Input, RunOptions, cycle_gc_paused, lint_input

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ("text", "concise", "json", "sarif", "github", "junit")
SECTIONS = ("end-to-end", "startup", "instructions", "layers", "many-files", "memory", "core",
            "scaling")
COPIES = (1, 4, 16)
# CPU time of the parse loop alone, in a process of its own (one thread, best of N rounds)
OPENCV_LOOP = """
import sys, time
import cv2
cv2.setNumThreads(1)
files, rounds = sys.argv[2:], int(sys.argv[1])
best = float("inf")
for _ in range(rounds):
    start = time.process_time()
    for path in files:
        cv2.dnn.readNetFromDarknet(path)
    best = min(best, time.process_time() - start)
print(best)
"""
# a cfg with one finding (DN103): reporting it loads the rule registry
WARNED = ("[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3\n\n"
          "[convolutional]\nfilters=16\nsize=3\nactivation=leaky\n")
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
        f"The core alone: read + lint (`lint_input`, no policy, no report, no process start) of "
        f"each of the {len(files)} stock cfgs in this process, best of {rounds} per file; "
        f"OpenCV's `readNetFromDarknet` on the same files the same way.",
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


@dataclass(frozen=True)
class Usage:
    """What one finished process cost: CPU (user + sys) and wall seconds, peak RSS in KiB."""

    cpu: float
    wall: float
    max_rss: int


def run_process(argv: Sequence[str], cwd: str | None = None) -> Usage:
    """Run ``argv`` (in ``cwd``) with its standard output read (and dropped) through a pipe."""
    env = {**os.environ, "NO_COLOR": "1"}
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                               cwd=cwd)
    assert process.stdout is not None
    while process.stdout.read(1 << 16):
        pass
    _, _, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = 0  # reaped by wait4 above
    process.stdout.close()
    return Usage(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss)


def best_usage(argv: Sequence[str], rounds: int, cwd: str | None = None) -> Usage:
    """The least CPU and the least wall time (each the best of ``rounds``), the largest RSS."""
    runs = [run_process(argv, cwd) for _ in range(rounds)]
    return Usage(min(u.cpu for u in runs), min(u.wall for u in runs), max(u.max_rss for u in runs))


def dnlint_script() -> str | None:
    return shutil.which("dnlint", path=str(Path(sys.executable).parent)) or shutil.which("dnlint")


def opencv_accepted(files: list[Path]) -> list[Path] | None:
    """The files ``readNetFromDarknet`` loads, or ``None`` without OpenCV."""
    try:
        import cv2  # noqa: F401 (present or not decides)
    except ImportError:
        return None
    return [path for path in files if opencv_file(path)]


def opencv_per_file(files: list[Path], rounds: int) -> float:
    """OpenCV's CPU seconds per file: the parse loop only, one thread, best of ``rounds``."""
    argv = [sys.executable, "-c", OPENCV_LOOP, str(rounds), *map(str, files)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return float(done.stdout) / len(files)


def end_to_end_section(corpus: Path, rounds: int) -> list[str]:
    script = dnlint_script()
    files = sorted(corpus.rglob("*.cfg"))
    accepted = opencv_accepted(files)
    if script is None or not accepted:
        why = "no installed dnlint script" if script is None else "no OpenCV or no corpus"
        return [f"({why}: end-to-end comparison skipped)"]
    import cv2

    names = [str(path) for path in accepted]
    # rounds interleave OpenCV and the formats, so that a busy spell of a shared machine falls
    # on all of them; OpenCV's process runs its loop 3 times a round
    runs: dict[str, list[tuple[Usage, Usage]]] = {name: [] for name in FORMATS}
    opencv = math.inf
    for _ in range(rounds):
        opencv = min(opencv, opencv_per_file(accepted, 3))
        for name in FORMATS:
            command = [script, "--format", name]
            runs[name].append((run_process([*command, names[0]]),
                               run_process([*command, *names])))
    rows = [
        f"End to end: the `dnlint` script ({_install_kind()}) on the {len(accepted)} stock cfgs "
        f"of the corpus that OpenCV {cv2.__version__} loads; whole-process CPU (user + sys), "
        f"best of {rounds}; per file = (all files - first file) / {len(accepted) - 1}. OpenCV: "
        f"CPU of its `readNetFromDarknet` loop alone, one thread, best of {rounds * 3}: "
        f"**{opencv * 1000:.3f} ms** per file. Rounds interleave OpenCV and the formats.",
        "",
        "| format | one file | all files | dnlint per file | ratio to OpenCV |",
        "|---|---|---|---|---|",
    ]
    for name in FORMATS:
        one = min(first.cpu for first, _ in runs[name])
        every = min(whole.cpu for _, whole in runs[name])
        per_file = (every - one) / (len(names) - 1)
        rows.append(f"| {name} | {one * 1000:.0f} ms | {every * 1000:.0f} ms | "
                    f"{per_file * 1000:.3f} ms | **{per_file / opencv:.2f}** |")
    return rows


def startup_section(starts: int) -> list[str]:
    script = dnlint_script()
    if script is None:
        return ["(no installed dnlint script: start-up not measured)"]
    bare = best_usage([sys.executable, "-c", "pass"], starts)
    version = best_usage([script, "--version"], starts)
    with tempfile.TemporaryDirectory() as folder:  # outside the repository: no configuration
        example = Path(folder) / "tiny-detector.cfg"
        shutil.copyfile(ROOT / "fixtures" / "examples" / "tiny-detector.cfg", example)
        # run in that directory too: a configuration found from the working directory (this
        # repository's pyproject.toml names dnlint) is not what the row measures
        one = best_usage([script, str(example)], starts, folder)
        warned = Path(folder) / "warned.cfg"
        warned.write_text(WARNED)
        finding = best_usage([script, str(warned)], starts, folder)
    rows = [
        f"Start-up: whole processes, best of {starts} each for CPU (user + sys) and for wall "
        f"(`{Path(script).name}` script, {_install_kind()}, {_script_kind(script)}); the "
        "one-file run is a text run of "
        "the bundled `tiny-detector.cfg` (clean) in a directory with no configuration file:",
        "",
        "| command | CPU | over `python -c pass` | wall | over `python -c pass` |",
        "|---|---|---|---|---|",
        f"| `python -c pass` | {bare.cpu * 1000:.0f} ms | | {bare.wall * 1000:.0f} ms | |",
    ]
    for label, usage in (("`dnlint --version`", version),
                         ("`dnlint tiny-detector.cfg`", one),
                         ("`dnlint warned.cfg` (one warning: loads its rule's family)", finding)):
        cpu, wall = usage.cpu - bare.cpu, usage.wall - bare.wall
        rows.append(f"| {label} | {usage.cpu * 1000:.0f} ms | {cpu * 1000:.0f} ms | "
                    f"{usage.wall * 1000:.0f} ms | {wall * 1000:.0f} ms |")
    return rows


def instructions(argv: Sequence[str]) -> int:
    """The instructions a whole process of ``argv`` runs, as callgrind counts them, run in an
    empty directory (no configuration file: the figures are dnlint's defaults)."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["valgrind", "--tool=callgrind",
                               f"--callgrind-out-file={folder}/out", *argv],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "NO_COLOR": "1"}, cwd=folder, check=False)
    counted = [line for line in done.stderr.splitlines() if "Collected :" in line]
    if not counted:
        raise RuntimeError(f"callgrind counted nothing for {argv[:3]}: {done.stderr[-300:]}")
    return int(counted[-1].rsplit(":", 1)[1])


def instructions_section(corpus: Path) -> list[str]:
    script = dnlint_script()
    accepted = opencv_accepted(sorted(corpus.rglob("*.cfg")))
    if shutil.which("valgrind") is None or script is None or not accepted:
        return ["(no valgrind, dnlint script, OpenCV or corpus: instruction counts skipped)"]
    names = [str(path) for path in accepted]
    loop = "import sys, cv2\nfor name in sys.argv[1:]:\n    cv2.dnn.readNetFromDarknet(name)"

    def per_file(command: list[str]) -> float:
        return (instructions([*command, *names]) - instructions([*command, names[0]])) / (
            len(names) - 1)

    opencv = per_file([sys.executable, "-c", loop])
    rows = [f"Instructions (callgrind, {_install_kind()}, {_script_kind(script)}): per file "
            "= (a whole process over the "
            f"{len(names)} stock cfgs OpenCV loads - one over the first) / {len(names) - 1}; "
            f"OpenCV's `readNetFromDarknet` loop the same way: **{opencv / 1e6:.2f} M** per file.",
            "", "| what | instructions | ratio to OpenCV |", "|---|---|---|"]
    for name in FORMATS:
        cost = per_file([script, "--format", name])
        rows.append(f"| per file, `--format {name}` | {cost / 1e6:.2f} M | "
                    f"**{cost / opencv:.2f}** |")
    bare = instructions([sys.executable, "-c", "pass"])
    with tempfile.TemporaryDirectory() as folder:  # outside the repository: no configuration
        example = Path(folder) / "tiny-detector.cfg"
        shutil.copyfile(ROOT / "fixtures" / "examples" / "tiny-detector.cfg", example)
        for name in FORMATS:
            start = instructions([script, "--format", name, str(example)]) - bare
            rows.append(f"| start-up over `python -c pass`, `--format {name}` "
                        f"tiny-detector.cfg | {start / 1e6:.1f} M | |")
    return rows


def many_files_section(corpus: Path, rounds: int) -> list[str]:
    """The corpus copied N times into one directory, one text run over it per N."""
    script = dnlint_script()
    files = sorted(corpus.rglob("*.cfg"))
    if script is None or not files:
        return ["(no installed dnlint script or no corpus: many-files run skipped)"]
    rows = [f"Many files: the {len(files)} stock cfgs copied N times into one directory, one text "
            f"run over it; whole-process CPU best of {rounds}, peak RSS of the process:", "",
            "| copies | files | CPU | CPU per file | peak RSS |", "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        made = 0
        for copies in COPIES:
            while made < copies:
                _copy_corpus(files, corpus, Path(folder) / f"copy{made:03d}")
                made += 1
            count = copies * len(files)
            usage = best_usage([script, folder], rounds)
            rows.append(f"| {copies} | {count:,} | {usage.cpu:.2f} s | "
                        f"{usage.cpu / count * 1000:.3f} ms | {usage.max_rss / 1024:.0f} MB |")
    return rows


def memory_by_format_section(corpus: Path, counts: Sequence[int]) -> list[str]:
    """Peak RSS of one run over N files, in every format: streaming keeps it flat in N."""
    script = dnlint_script()
    files = sorted(corpus.rglob("*.cfg"))
    if script is None or not files or not counts:
        return ["(no installed dnlint script or no corpus: memory by format skipped)"]
    sources = [path.read_bytes() for path in files]
    rows = [f"Memory by format: N files cycled from the {len(files)} stock cfgs, every other one "
            "with `activation=` misspelt (a finding per layer); one run per format, peak RSS "
            "of the process (and its CPU per file):", "",
            "| files | findings | " + " | ".join(FORMATS) + " |",
            "|---|---|" + "---|" * len(FORMATS)]
    peaks: dict[str, list[float]] = {fmt: [] for fmt in FORMATS}
    with tempfile.TemporaryDirectory() as folder:
        made = findings = 0
        for count in sorted(counts):
            while made < count:
                data = sources[made % len(sources)]
                if made % 2:
                    findings += data.count(b"activation=")
                    data = data.replace(b"activation=", b"activaton=")
                (Path(folder) / f"f{made:05d}.cfg").write_bytes(data)
                made += 1
            cells = []
            for fmt in FORMATS:
                usage = run_process([script, "--format", fmt, folder])
                peaks[fmt].append(usage.max_rss / 1024)
                cells.append(f"{usage.max_rss / 1024:.0f} MB ({usage.cpu / count * 1000:.2f} ms)")
            rows.append(f"| {count:,} | {findings:,} | " + " | ".join(cells) + " |")
    if len(counts) > 1:
        growth = ", ".join(f"{fmt} {max(p) / min(p):.2f}" for fmt, p in peaks.items())
        rows += ["", f"Largest / smallest peak RSS per format (1.0 is flat): {growth}"]
    return rows


def _copy_corpus(files: list[Path], corpus: Path, target: Path) -> None:
    for path in files:
        destination = target / path.relative_to(corpus)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)


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


def layer_tables_section(rounds: int, count: int = 10_000) -> list[str]:
    """The whole command with and without ``--layers`` on one cfg of ``count`` layers."""
    script = dnlint_script()
    if script is None:
        return ["(no installed dnlint script: layer tables not measured)"]
    rows = [f"The layer tables: the whole command (`{Path(script).name}` script, "
            f"{_install_kind()}) on one cfg of {count:,} convolutional layers, CPU best of "
            f"{rounds}; per row = (with `--layers` - without) / {count:,}:", "",
            "| format | without `--layers` | with `--layers` | per row |", "|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"n{count}.cfg"
        path.write_text("[net]\nwidth=16\nheight=16\nchannels=16\n\n" + LAYER * count)
        for fmt in ("text", "json"):
            command = [script, "--format", fmt, "--exit-zero", str(path)]
            plain = best_usage(command, rounds)
            table = best_usage([*command, "--layers"], rounds)
            per_row = (table.cpu - plain.cpu) / count
            rows.append(f"| {fmt} | {plain.cpu * 1000:.0f} ms | {table.cpu * 1000:.0f} ms | "
                        f"{per_row * 1e6:.1f} µs |")
    return rows


def _version() -> str:
    from dnlint import __version__

    return __version__


def _install_kind() -> str:
    import dnlint
    import dnlint.read.darknet_reader

    location = Path(dnlint.__file__).resolve()
    where = "editable install" if ROOT / "src" in location.parents else "regular install"
    compiled = not dnlint.read.darknet_reader.__file__.endswith(".py")
    return f"{where}, {'compiled with mypyc' if compiled else 'pure Python'}"


def _script_kind(script: str) -> str:
    """Whether the installer's console script imports ``re`` itself (pip before 25.0 wrote
    one that does: about 13 ms on this machine, whatever the program)."""
    try:
        text = Path(script).read_text(errors="replace")
    except OSError:
        return "its script unreadable"
    if "\nimport re\n" in text:
        return "a console script that imports re (pip < 25)"
    return "a console script without re (pip >= 25)"


def machine() -> str:
    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def _counts(text: str) -> tuple[int, ...]:
    return tuple(n for n in (int(part) for part in text.split(",") if part.strip()) if n > 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--files", type=_counts, default=(1_000, 4_000),
                        help="file counts of the memory-by-format runs, e.g. 250,1000 "
                             "(0: skip them)")
    parser.add_argument("--memory-only", action="store_true",
                        help="run only the memory-by-format section")
    parser.add_argument("--only", type=lambda text: set(text.split(",")), default=None,
                        help="run only these sections, comma-separated: "
                             + ", ".join(SECTIONS))
    args = parser.parse_args()
    report = [f"Machine: {machine()}."]
    chosen = {"memory"} if args.memory_only else args.only or set(SECTIONS)
    sections: dict[str, Callable[[], list[str]]] = {
        "end-to-end": lambda: end_to_end_section(args.corpus, args.rounds),
        "startup": lambda: startup_section(args.starts),
        "instructions": lambda: instructions_section(args.corpus),
        "layers": lambda: layer_tables_section(args.rounds),
        "many-files": lambda: many_files_section(args.corpus, args.rounds),
        "memory": lambda: memory_by_format_section(args.corpus, args.files),
        "core": lambda: corpus_section(args.corpus, args.rounds),
        "scaling": scaling_section,
    }
    for name in SECTIONS:
        if name in chosen:
            report += ["", *sections[name]()]
    print("\n".join(report))


if __name__ == "__main__":
    main()
