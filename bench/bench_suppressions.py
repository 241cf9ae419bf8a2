"""Benchmark suppression directives on hostile files: the time per directive must stay flat.

Three shapes, each at N = 2,000, 8,000 and 16,000 (issue 10 measured 2.6 s, 28 s and 99 s for
the first before the scopes were indexed):

1. N ``# dnlint: disable-next-line=DN201`` lines, each before an unknown option;
2. N ``# dnlint: disable=DN2`` lines, each before an unknown option (ranges to the end);
3. N consecutive ``disable-next-line`` lines before one option (each once rescanned the rest).

Each figure is lint + suppressions (``apply_policy``), best of ``--rounds``.
Run: ``python bench/bench_suppressions.py [--rounds 3]``; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.settings.policy import Policy, apply_policy, selection_for

HEAD = "[net]\nbatch=1\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\nsize=1\n"

SHAPES: dict[str, Callable[[int], str]] = {
    "disable-next-line before each finding": lambda n: HEAD + "".join(
        f"# dnlint: disable-next-line=DN201\nbogus{i}=1\n" for i in range(n)),
    "disable= before each finding": lambda n: HEAD + "".join(
        f"# dnlint: disable=DN2\nbogus{i}=1\n" for i in range(n)),
    "consecutive directives before one option": lambda n: HEAD
    + "# dnlint: disable-next-line=DN201\n" * n + "bogus=1\n",
}


def best_time(text: str, rounds: int) -> float:
    data = text.encode()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        result = lint_cfg_bytes(data, "s.cfg", Dialect.AB)
        apply_policy(result, selection_for("s.cfg", Policy(), None))
        best = min(best, time.perf_counter() - start)
        assert not result.diagnostics, result.diagnostics[:3]
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("| shape | N | lint + suppress | per directive |")
    print("|---|---|---|---|")
    for name, make in SHAPES.items():
        for count in (2_000, 8_000, 16_000):
            seconds = best_time(make(count), args.rounds)
            print(f"| {name} | {count:,} | {seconds * 1000:.0f} ms | "
                  f"{seconds / count * 1e6:.1f} µs |")


if __name__ == "__main__":
    main()
