"""Benchmark peak memory against input size, over hostile and ordinary cfgs.

Each case writes a cfg of about ``--size`` bytes. Two measures of it, each in a fresh process:

1. The whole command, what a user pays: ``dnlint --no-config FILE`` (the dialect detected,
   both forks asked when an error may hold in one only, the report written to a pipe that is
   read and thrown away): its peak resident size (``ru_maxrss`` from ``os.wait4``) above that
   of the same command on a one-layer cfg, and the same for the case made 4 KB small. Memory
   per input byte, the goal's measure, is the difference of the two peaks over the
   difference of the sizes: what each byte more costs, without the modules that the case's
   findings load once (the rule registry, the fixers, difflib: a few MB whatever the size).
   Its CPU time (user + sys) is above the one-layer cfg's.
2. The core: read, lint (``--dialect alexeyab``) and policy in one interpreter with dnlint
   already imported: the peak resident size (VmHWM, reset before reading; Linux) above the
   resident size before reading; with ``--tracemalloc``, from a second run, the tracemalloc
   peak (Python allocations only: deterministic, but slower).

The generators are those of tests/test_robustness.py and the hostile inputs of issue 10:
a long line of commas, many tiny sections, long lines of numbers, many odd options.

Run: ``python bench/bench_memory.py [--size 4e6] [--format text] [--tracemalloc]
[--installed] [--case NAME ...]``. Without ``--installed`` the sources under src/ are run
(pure Python); with it, the dnlint this interpreter has installed (compiled, for a regular
install). Prints a Markdown table; the README's robustness section quotes its largest ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NET = b"[net]\nwidth=8\nheight=8\nchannels=3\n"
CONV = b"[convolutional]\nfilters=2\nsize=1\nactivation=linear\n"


def _repeat(unit: bytes, size: int) -> bytes:
    return unit * max(1, size // len(unit))


def _numbers(size: int, start: int, step: int) -> bytes:
    """``start,start+step,...`` of about ``size`` bytes, no trailing comma."""
    parts: list[bytes] = []
    total, value = 0, start
    while total < size:
        part = b"%d," % value
        parts.append(part)
        total += len(part)
        value += step
    return b"".join(parts)[:-1]


def _hidden_keys(size: int) -> bytes:
    count = max(1, size // 16)  # 'kNNNNN\n' and 'kNNNNN=1\n': about 16 bytes a key
    return (b"".join(b"k%d\n" % i for i in range(count))
            + b"".join(b"k%d=1\n" % i for i in range(count)))


CASES: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "commas": ("one line of commas in [route] layers=",
               lambda n: NET + CONV + b"[route]\nlayers=" + _repeat(b",", n) + b"-1\n"),
    "route-line": ("test_megabyte_line: layers=-1,-1,... (all valid)",
                   lambda n: NET + CONV + b"[route]\nlayers=" + _repeat(b"-1,", n) + b"-1\n"),
    "odd-refs": ("layers=1,3,5,...: every reference points forward (DN302 each)",
                 lambda n: NET + CONV + b"[route]\nlayers=" + _numbers(n, 1, 2) + b"\n"),
    "odd-anchors": ("anchors=1,3,5,...: one long list of floats",
                    lambda n: NET + CONV + b"[yolo]\nmask=0\nanchors=" + _numbers(n, 1, 2)
                    + b"\n"),
    "tiny-sections": ("[x] repeated: an unknown section (DN020) per 4 bytes",
                      lambda n: NET + _repeat(b"[x]\n", n)),
    "bad-headers": ("[ repeated: a malformed section header (DN019) per 2 bytes",
                    lambda n: NET + _repeat(b"[\n", n)),
    "hidden-keys": ("k1, k2, ... (bare keys, DN006 each), then k1=1, k2=1, ... that they hide",
                    lambda n: NET + CONV + _hidden_keys(n)),
    "empty-values": ("'=' repeated: an empty value (DN007) per 2 bytes",
                     lambda n: NET + CONV + _repeat(b"=\n", n)),
    "slash-lines": ("'//' repeated: a '//' line (DN035) per 3 bytes",
                    lambda n: NET + CONV + _repeat(b"//\n", n)),
    "glued-numbers": ("'a=1 2' repeated: two numbers glued (DN028), a repeated key (DN009)",
                      lambda n: NET + CONV + _repeat(b"a=1 2\n", n)),
    "bare-keys": ("'a' repeated: a line without '=' (DN006) per 2 bytes",
                  lambda n: NET + CONV + _repeat(b"a\n", n)),
    "repeated-keys": ("'size=1' repeated: a repeated key (DN009) per 7 bytes",
                      lambda n: NET + CONV + _repeat(b"size=1\n", n)),
    "directive-codes": ("'# dnlint: disable=' naming x0, x1, ...: an unknown code (DN902) each",
                        lambda n: b"# dnlint: disable=" + b",".join(
                            b"x%d" % i for i in range(max(2, n // 7))) + b"\n" + NET + CONV),
    "short-comments": ("'#' repeated: a comment per 2 bytes",
                       lambda n: NET + CONV + _repeat(b"#\n", n)),
    "activations": ("test_hundred_thousand_sections: [activation] layers",
                    lambda n: NET + _repeat(b"[activation]\nactivation=relu\n", n)),
    "unknown-options": ("x1=1, x3=3, ...: an unknown option (DN201) per line",
                        lambda n: NET + CONV + b"\n".join(
                            b"x%d=%d" % (i, i) for i in range(1, max(3, n // 5), 2)) + b"\n"),
    "comments": ("test_fifty_megabyte_cfg: a small network drowned in comment lines",
                 lambda n: NET + CONV + _repeat(b"# " + b"x" * 97 + b"\n", n)),
    "stock-like": ("conv layers as in the stock cfgs",
                   lambda n: NET + _repeat(b"[convolutional]\nbatch_normalize=1\nfilters=16\n"
                                           b"size=3\npad=1\nactivation=leaky\n\n", n)),
}

_CHILD = r"""
import gc, os, sys
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.settings.policy import Policy, apply_policy, selection_for
import dnlint.network.layers, dnlint.rules  # noqa: F401 - imported lazily by a first lint otherwise
lint_cfg_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n", "w.cfg")
trace = sys.argv[2] == "1"
if trace:
    import tracemalloc
    tracemalloc.start()
gc.collect()
def status(field):
    with open("/proc/self/status") as lines:
        return next(int(l.split()[1]) * 1024 for l in lines if l.startswith(field + ":"))
# reset the high-water mark (Linux >= 4.0), or the imports' peak would hide the lint's under it
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")
base = status("VmRSS")
import time
start = time.process_time()
with open(sys.argv[1], "rb") as stream:
    data = stream.read()
result = lint_cfg_bytes(data, sys.argv[1], Dialect.AB)
apply_policy(result, selection_for(sys.argv[1], Policy(), None))
cpu = time.process_time() - start
peak = status("VmHWM")
traced = tracemalloc.get_traced_memory()[1] if trace else 0
print(peak - base, traced, len(result.diagnostics), cpu)
"""


def measure(data: bytes, trace: bool) -> tuple[int, int, int, float]:
    """(peak RSS above the baseline, tracemalloc peak, diagnostics, CPU seconds) of linting
    ``data`` in the core; the RSS and the time from a run without tracemalloc, whose own
    bookkeeping would inflate both."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.cfg"
        path.write_bytes(data)
        rss, _, count, cpu = _child(path, False)
        traced = _child(path, True)[1] if trace else 0
    return rss, traced, count, cpu


def _env() -> dict[str, str]:
    if INSTALLED:
        return dict(os.environ)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p)}


def _child(path: Path, trace: bool) -> tuple[int, int, int, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path), "1" if trace else "0"],
                         capture_output=True, text=True, env=_env(), check=True).stdout
    rss, traced, count, cpu = out.split()
    return int(rss), int(traced), int(count), float(cpu)


# Runs the command and reports its peak RSS (KiB), CPU seconds and exit status. A process of its
# own, started small: Linux hands a forked child the parent's high-water mark, so the
# benchmark's own memory (the generated cases) would otherwise be the peak of every run.
RUNNER = r"""
import os, subprocess, sys
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
while process.stdout.read(1 << 16):
    pass
_, status, usage = os.wait4(process.pid, 0)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))
"""


def command(path: Path, fmt: str) -> tuple[int, float, int]:
    """(peak RSS in bytes, CPU seconds, exit status) of ``dnlint --no-config FILE`` as a
    process of its own, its report read from a pipe and thrown away."""
    out = subprocess.run(
        [sys.executable, "-c", RUNNER, sys.executable, "-m", "dnlint", "--no-config",
         "--format", fmt, str(path)], capture_output=True, text=True, env=_env(), check=True
    ).stdout.split()
    return int(out[0]) * 1024, float(out[1]), int(out[2])


def command_above_baseline(data: bytes, small: bytes, fmt: str
                           ) -> tuple[int, int, float, int]:
    """:func:`command` on ``data`` and on ``small`` (the same case at a few KB), each less the
    same command on a one-layer cfg (best of 3 for the two small ones): (peak RSS of ``data``,
    peak RSS of ``small``, CPU seconds of ``data``, exit status of ``data``)."""
    with tempfile.TemporaryDirectory() as folder:
        tiny, little, case = (Path(folder) / name for name in ("tiny.cfg", "small.cfg",
                                                                "case.cfg"))
        tiny.write_bytes(NET + CONV)
        little.write_bytes(small)
        case.write_bytes(data)
        base = [command(tiny, fmt) for _ in range(3)]
        floor = min(b[0] for b in base)
        small_rss = min(command(little, fmt)[0] for _ in range(3))
        rss, cpu, status = command(case, fmt)
    return rss - floor, small_rss - floor, cpu - min(b[1] for b in base), status


SMALL = 4096  # the size of each case's small twin: the modules its findings load, not its bytes


INSTALLED = False


def main() -> None:
    global INSTALLED
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=float, default=4e6, help="bytes per case (default 4e6)")
    parser.add_argument("--format", default="text", help="report format of the whole command")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also report the core's tracemalloc peak (slower)")
    parser.add_argument("--installed", action="store_true",
                        help="run the installed dnlint, not the sources under src/")
    parser.add_argument("--case", action="append", choices=sorted(CASES),
                        help="run only these cases")
    args = parser.parse_args()
    INSTALLED = args.installed
    size = int(args.size)
    import dnlint

    where = "installed" if INSTALLED else "sources under src/"
    print(f"Peak memory above the baseline, per input byte ({size / 1e6:.0f} MB per case; "
          f"dnlint {dnlint.__version__}, {where}; whole command: `dnlint --no-config --format "
          f"{args.format} FILE`, peak RSS and CPU above a one-layer cfg's, per input byte "
          f"against the case at {SMALL // 1024} KB; core: read, lint and policy in-process"
          f"{', and tracemalloc' if args.tracemalloc else ''}):\n")
    traced_head = " core traced |" if args.tracemalloc else ""
    print(f"| case | input | command peak RSS | the case at {SMALL // 1024} KB | "
          f"**per input byte** | command CPU | MB/s | core RSS ratio |{traced_head} findings |")
    print("|---|---|---|---|---|---|---|---|" + ("---|" if args.tracemalloc else "") + "---|")
    worst = 0.0
    for name in args.case or list(CASES):
        what, make = CASES[name]
        data, small = make(size), make(SMALL)
        rss, small_rss, cpu, _ = command_above_baseline(data, small, args.format)
        core_rss, traced, count, _ = measure(data, args.tracemalloc)
        # what each byte more costs: the small twin pays the modules the findings load
        ratio = (rss - small_rss) / (len(data) - len(small))
        worst = max(worst, ratio)
        traced_cell = f" {traced / len(data):.1f}x |" if args.tracemalloc else ""
        print(f"| {name}: {what} | {len(data) / 1e6:.1f} MB | {rss / 1e6:.0f} MB | "
              f"{small_rss / 1e6:.0f} MB | **{ratio:.1f}x** | {cpu:.2f} s | "
              f"{len(data) / 1e6 / max(cpu, 1e-3):.1f} | {core_rss / len(data):.1f}x |"
              f"{traced_cell} {count:,} |")
    print(f"\nWorst memory per input byte of the whole command: **{worst:.1f}x**.")


if __name__ == "__main__":
    main()
