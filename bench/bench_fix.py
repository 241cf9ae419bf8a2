"""Benchmark ``--fix`` and ``--diff`` against the number of fixes: the time per fix must stay
flat (issue 29 measured minutes for thousands of inline comments before fixes were applied in
one pass over the file).

The file is a ``[net]`` and N ``[maxpool]`` layers, each with an inline comment after an option
(DN012: one fix per layer, the comment moved above its line), at N = 1,000 to 20,000. Each
figure is the whole command (``python -m dnlint --no-config --fix-only`` or ``--diff``, start-up
included) on a fresh copy of the file, best of ``--rounds``; the lint alone (no fix) is shown
beside it, since a fix pass lints the file again. Run: ``python bench/bench_fix.py
[--rounds 3] [--counts 1000,5000,20000]``; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HEAD = "[net]\nbatch=1\nwidth=64\nheight=64\nchannels=3\n"
LAYER = "\n[maxpool]\nsize=1 # keep the size\nstride=1\n"
FIXED_LAYER = "\n[maxpool]\n# keep the size\nsize=1\nstride=1\n"


def whole_command(flags: list[str], text: str, rounds: int) -> tuple[float, bytes]:
    """Best wall time of ``dnlint FLAGS FILE`` on a fresh copy of ``text``; the file after."""
    best, after = float("inf"), b""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "many.cfg")
        for _ in range(rounds):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "dnlint", "--no-config", "-q", *flags, path],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            best = min(best, time.perf_counter() - start)
            with open(path, "rb") as handle:
                after = handle.read()
    return best, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--counts", default="1000,2000,5000,10000,20000")
    args = parser.parse_args()
    print("| fixes | lint only | --fix-only | per fix | --diff | per fix |")
    print("|---|---|---|---|---|---|")
    for count in (int(c) for c in args.counts.split(",")):
        text = HEAD + LAYER * count
        lint, _ = whole_command(["--format", "concise"], text, args.rounds)
        fix, after = whole_command(["--fix-only"], text, args.rounds)
        assert after.decode() == HEAD + FIXED_LAYER * count, "the fix did not land"
        diff, _ = whole_command(["--diff"], text, args.rounds)
        print(f"| {count:,} | {lint * 1000:.0f} ms | {fix * 1000:.0f} ms | "
              f"{fix / count * 1e6:.0f} µs | {diff * 1000:.0f} ms | {diff / count * 1e6:.0f} µs |")


if __name__ == "__main__":
    main()
