"""Measure "one root cause, one error" over the stock corpus and broken variants of it.

1. False errors: every stock cfg that Darknet's own code builds (``status: ok`` in the oracle
   files of ../shared/oracle), linted with the dialect that built it, and with ``auto`` for the
   fork's own cfgs. Goal: 0 errors.
2. Errors per root cause: every stock detector with one mistake put in:
   - ``resize``: width or height +8, +16, +32 or +64 (a root cause only where the shape pass sees
     a merge join two sizes; elsewhere the variant must stay free of new errors);
   - ``classes``: classes=3 in one head (a root cause);
   - ``delete``: one layer section removed (a root cause where it gives any new error: some
     deletions leave a network Darknet builds);
   - ``generated``: integers written the way annotation tools do (``max_batches=500200.0``,
     ``steps=400000.0,450000.0``): Darknet reads them exactly, so no new error.
   The figure is new errors (against the stock file) per variant with a root cause; goal 1.0.
3. Warnings on the stock corpus, per code, each with its justification (the rule's ``stock``
   text in docs/rules.md); a code without one is listed as unjustified.

Run: ``python bench/bench_root_causes.py [--shared ../shared] [--details]``. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dnlint.checks.input_size import joins_different_sizes
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult
from dnlint.rules import get_rule

ORACLES = {  # oracle file -> (corpus fork, dialect that built it)
    "pjreddie.json": ("pjreddie", Dialect.PJ),
    "alexeyab.json": ("alexeyab", Dialect.AB),
    "pjreddie-cfgs-on-alexeyab.json": ("pjreddie", Dialect.AB),
}
FORKS = {"alexeyab": Dialect.AB, "pjreddie": Dialect.PJ}
HEAD = re.compile(rb"(?m)^\[(yolo|Gaussian_yolo|region)\]")
Finding = tuple[str, int | None]


def errors(result: FileResult) -> list[Finding]:
    return [(d.code, d.line) for d in result.diagnostics if d.severity.value == "error"]


def lint(data: bytes, dialect: Dialect | None) -> FileResult:
    return lint_cfg_bytes(data, "variant.cfg", dialect)


# --- 1. false errors ----------------------------------------------------------------------------
def false_errors(shared: Path) -> list[tuple[str, str, int, list[str]]]:
    """(oracle, dialect, files built, 'cfg: codes' of those with errors) per oracle and dialect."""
    rows = []
    for name, (fork, dialect) in ORACLES.items():
        oracle = json.loads((shared / "oracle" / name).read_text())
        built = [key for key, entry in oracle.items() if entry["status"] == "ok"]
        modes: list[Dialect | None] = [dialect, None] if FORKS[fork] is dialect else [dialect]
        for mode in modes:
            flagged = []
            for key in built:
                found = errors(lint((shared / "corpus" / fork / key).read_bytes(), mode))
                if found:
                    flagged.append(f"{fork}/{key}: " + ", ".join(f"{c}@{n}" for c, n in found))
            rows.append((name, mode.value if mode else "auto", len(built), flagged))
    return rows


# --- 2. variants --------------------------------------------------------------------------------
def set_first(data: bytes, key: bytes, value: bytes, after: int = 0) -> bytes:
    pattern = re.compile(rb"(?m)^(" + key + rb"[ \t]*=[ \t]*)([^\s#]*)")
    found = pattern.search(data, after)
    if found is None:
        return data
    return data[:found.start(2)] + value + data[found.end(2):]


def variants(data: bytes) -> Iterator[tuple[str, bytes, int, int]]:
    """(label, variant, first removed line, lines removed): a deletion shifts later lines."""
    for key in (b"width", b"height"):
        found = re.search(rb"(?m)^" + key + rb"[ \t]*=[ \t]*(\d+)", data)
        if found:
            for delta in (8, 16, 32, 64):
                value = str(int(found.group(1)) + delta).encode()
                yield f"resize {key.decode()}+{delta}", set_first(data, key, value), 0, 0
    for number, head in enumerate(HEAD.finditer(data)):
        yield f"classes head {number}", set_first(data, b"classes", b"3", head.end()), 0, 0
    starts = [m.start() for m in re.finditer(rb"(?m)^\[", data)][1:]
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(data)
        first = data.count(b"\n", 0, start) + 1
        yield f"delete layer {index}", data[:start] + data[end:], first, data.count(
            b"\n", start, end)
    generated = re.sub(rb"(?m)^(max_batches[ \t]*=[ \t]*)(\d+)", rb"\1\2.0", data)
    generated = re.sub(rb"(?m)^(steps[ \t]*=[ \t]*)([\d,]+)",
                       lambda m: m.group(1) + b",".join(s + b".0" for s in m.group(2).split(b",")),
                       generated)
    yield "generated", generated, 0, 0


def root_causes(shared: Path) -> list[tuple[str, str, int, int]]:
    """(cfg, variant, root causes put in (0 or 1), new errors) for every variant."""
    rows = []
    for fork, dialect in FORKS.items():
        for path in sorted((shared / "corpus" / fork / "cfg").glob("*.cfg")):
            data = path.read_bytes()
            if not HEAD.search(data):
                continue
            stock = Counter(errors(lint(data, dialect)))
            for label, changed, removed_at, removed in variants(data):
                result = lint(changed, dialect)
                found = Counter((code, line + removed if removed and line and line >= removed_at
                                 else line) for code, line in errors(result))
                new = sum((found - stock).values())
                if label.startswith("resize"):
                    roots = int(result.network is not None
                                and joins_different_sizes(result.network))
                elif label.startswith("delete"):
                    roots = int(new > 0)
                else:
                    roots = int(label.startswith("classes"))
                rows.append((f"{fork}/{path.name}", label, roots, new))
    return rows


# --- 3. warnings --------------------------------------------------------------------------------
def stock_warnings(shared: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for fork, dialect in FORKS.items():
        for path in sorted((shared / "corpus" / fork / "cfg").rglob("*.cfg")):
            result = lint(path.read_bytes(), dialect)
            counts.update(d.code for d in result.diagnostics if d.severity.value == "warning")
    return counts


def report(shared: Path, details: bool) -> str:
    out = ["# One root cause, one error: measurements", ""]
    out += ["## False errors on cfgs Darknet builds (goal 0)", "",
            "| oracle | dialect | cfgs built | cfgs with errors | errors |",
            "|---|---|---|---|---|"]
    flagged_all = []
    for name, mode, built, flagged in false_errors(shared):
        count = sum(len(line.split(": ", 1)[1].split(", ")) for line in flagged)
        out.append(f"| {name} | {mode} | {built} | {len(flagged)} | {count} |")
        flagged_all += [f"- {mode}: {line}" for line in flagged]
    out += ["", *flagged_all, ""] if flagged_all else [""]

    rows = root_causes(shared)
    out += ["## Errors per root cause (goal 1.0)", "",
            "| variant | variants | with a root cause | new errors | errors per root cause "
            "| missed | errors without a root cause |", "|---|---|---|---|---|---|---|"]
    for kind in ("resize", "classes", "delete", "generated", "all"):
        chosen = [r for r in rows if kind == "all" or r[1].startswith(kind)]
        rooted = [r for r in chosen if r[2]]
        found = [r for r in rooted if r[3]]
        per = statistics.fmean(r[3] for r in found) if found else float("nan")
        missed = len(rooted) - len(found)
        stray = sum(r[3] for r in chosen if not r[2])
        out.append(f"| {kind} | {len(chosen)} | {len(rooted)} | {sum(r[3] for r in rooted)} | "
                   f"{per:.3f} | {missed} | {stray} |")
    spread = Counter(r[3] for r in rows if r[2])
    out += ["", "New errors per rooted variant: "
            + ", ".join(f"{n} error(s): {spread[n]}" for n in sorted(spread)), ""]
    if details:
        out += [f"- {cfg} {label}: {new} new error(s)" for cfg, label, roots, new in rows
                if (roots and new != 1) or (not roots and new)]
        out.append("")

    out += ["## Warnings on the stock corpus (each justified in docs/rules.md)", "",
            "| code | name | count | justification |", "|---|---|---|---|"]
    for code, count in stock_warnings(shared).most_common():
        rule = get_rule(code)
        out.append(f"| {code} | {rule.name} | {count} | {rule.stock or '**unjustified**'} |")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--details", action="store_true",
                        help="list every variant that is not exactly one error per root cause")
    args = parser.parse_args(argv)
    if not (args.shared / "oracle").is_dir():
        print(f"{args.shared}: no oracle/ and corpus/ here (use --shared)", file=sys.stderr)
        return 2
    sys.stdout.write(report(args.shared, args.details))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
