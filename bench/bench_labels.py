"""Benchmark ``--check-labels`` against the number of images: time and peak memory of the
whole command must stay flat per image (issue 33: a 200,000-image data set in seconds, in
bounded memory).

Each data set is built in a temporary folder: N images (two-byte files: dnlint only looks for
them), one label file per image beside it (three boxes of three classes; every tenth image a
negative with an empty file), 1,000 images per folder, a train list, obj.data, the names file and
a one-[yolo] cfg. Each figure is the whole command (``python -m dnlint --no-config -q
--check-labels --dialect alexeyab obj.data model.cfg``, start-up included), from a warm cache
(one untimed run first), best of ``--rounds``: the wall time, and the CPU time (user + system,
which a loaded machine does not inflate); the peak is the child's maximum resident set
(``wait4``). Run: ``python bench/bench_labels.py [--rounds 3] [--counts 20000,100000,200000]
[--tmp /dev/shm]``; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

CFG = ("[net]\nbatch=64\nsubdivisions=16\nwidth=416\nheight=416\nchannels=3\n\n"
       "[convolutional]\nfilters=24\nsize=1\nactivation=linear\n\n[yolo]\nmask=0,1,2\n"
       "anchors=10,13, 16,30, 33,23\nclasses=3\nnum=3\n")
LABEL = b"0 0.512 0.431 0.210 0.180\n1 0.250 0.750 0.100 0.120\n2 0.800 0.300 0.050 0.060\n"
PER_FOLDER = 1000


def build(root: str, count: int) -> None:
    """The data set of ``count`` images under ``root``."""
    lines = []
    for index in range(count):
        folder = f"data/img/{index // PER_FOLDER:04d}"
        if index % PER_FOLDER == 0:
            os.makedirs(os.path.join(root, folder))
        stem = os.path.join(root, folder, f"{index:07d}")
        with open(stem + ".jpg", "wb") as image:
            image.write(b"\xff\xd8")
        with open(stem + ".txt", "wb") as label:
            label.write(b"" if index % 10 == 9 else LABEL)
        lines.append(f"{folder}/{index:07d}.jpg\n")
    with open(os.path.join(root, "data/train.txt"), "w", encoding="utf-8") as listed:
        listed.writelines(lines)
    with open(os.path.join(root, "data/obj.names"), "w", encoding="utf-8") as names:
        names.write("car\nbike\nperson\n")
    with open(os.path.join(root, "obj.data"), "w", encoding="utf-8") as data:
        data.write("classes=3\ntrain=data/train.txt\nnames=data/obj.names\nbackup=backup/\n")
    with open(os.path.join(root, "model.cfg"), "w", encoding="utf-8") as cfg:
        cfg.write(CFG)
    os.makedirs(os.path.join(root, "backup"))


def whole_command(root: str) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak resident KiB, exit status) of one run in ``root``. The
    CPU time (user + system) is what the command costs whatever else the machine runs."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "dnlint", "--no-config", "-q",
                              "--check-labels", "--dialect", "alexeyab", "obj.data",
                              "model.cfg"], cwd=root, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            os.waitstatus_to_exitcode(status))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--counts", default="20000,100000,200000")
    parser.add_argument("--tmp", default=None, help="where the data sets are built (a "
                        "tmpfs such as /dev/shm builds them fastest)")
    args = parser.parse_args()
    print("| images | wall time | CPU time | CPU per image | peak memory |")
    print("|---|---|---|---|---|")
    for count in (int(c) for c in args.counts.split(",")):
        with tempfile.TemporaryDirectory(dir=args.tmp) as root:
            build(root, count)
            status = whole_command(root)[3]  # warms the cache
            assert status == 0, f"the data set should be clean (exit status {status})"
            wall, cpu, peak = float("inf"), float("inf"), 0
            for _ in range(args.rounds):
                seconds, used, kib, _ = whole_command(root)
                wall, cpu, peak = min(wall, seconds), min(cpu, used), max(peak, kib)
        print(f"| {count:,} | {wall:.2f} s | {cpu:.2f} s | {cpu / count * 1e6:.1f} µs | "
              f"{peak / 1024:.0f} MiB |")


if __name__ == "__main__":
    main()
