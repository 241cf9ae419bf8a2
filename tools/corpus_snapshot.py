"""The whole command's output on every stock cfg, as one SHA-256 per file per format.

A refactoring that must not change behaviour is checked with it: the digest of the command's
report (exit status and standard output) on each cfg of the stock corpus, in each format
below, is compared with the one stored in ``fixtures/corpus_snapshot.json``.

    python tools/corpus_snapshot.py --check   # compare (exit 1 and the differences if any)
    python tools/corpus_snapshot.py --write   # regenerate the stored digests

When a change means to change the findings on the stock cfgs (a new rule, a fixed false
finding), regenerate the digests with ``--write`` in the same commit, and say why in its
message. ``tests/test_corpus_snapshot.py`` runs ``--check``'s comparison.

The corpus is ``../shared/corpus`` next to the clone, or ``$DNLINT_SHARED/corpus``. The
command runs in the corpus directory on relative paths, so the digests do not depend on where
the corpus is.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORED = ROOT / "fixtures" / "corpus_snapshot.json"

# format name -> the command's flags (each is run on one cfg at a time)
FORMATS: dict[str, tuple[str, ...]] = {
    "text": ("--no-color",),
    "concise": ("--format", "concise", "--no-color"),
    "json": ("--format", "json"),
    "layers": ("--layers", "--no-color"),
    "json-layers": ("--format", "json", "--layers"),
    "sarif": ("--format", "sarif"),
    # the opt-in checks a run can turn on: every target, a GPU memory budget, the recipe
    "opt-in": ("--format", "json", "--target", "opencv", "--target", "tensorrt-demos",
               "--target", "hank-onnx", "--gpu-memory", "8G", "--extend-select", "DN7"),
    # hank-ai's reader and getters, which the other formats (AlexeyAB's dialect) never run
    "hank": ("--format", "json", "--layers", "--dialect", "hank"),
}


def corpus_dir() -> Path:
    shared = os.environ.get("DNLINT_SHARED")
    return (Path(shared) if shared else ROOT.parent / "shared") / "corpus"


def stock_cfgs(corpus: Path) -> list[str]:
    """Every stock cfg, relative to ``corpus``, sorted."""
    return sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*.cfg"))


def run_command(args: list[str]) -> tuple[int, bytes]:
    """The ``dnlint`` command in this process, as the console script runs it (its own reading
    of the command line, click for the rest): its exit status and standard output."""
    from dnlint.argv import load

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            load(args)()
            status = 0
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue().encode("utf-8", "surrogateescape")


def digests(corpus: Path) -> dict[str, dict[str, str]]:
    """{cfg: {format: sha256 of "status\\n" + output}}."""
    table: dict[str, dict[str, str]] = {}
    before = os.getcwd()
    os.chdir(corpus)
    try:
        for cfg in stock_cfgs(corpus):
            row = table[cfg] = {}
            for name, flags in FORMATS.items():
                status, output = run_command([*flags, "--no-config", cfg])
                if name == "sarif":
                    output = without_machine_facts(output)
                row[name] = hashlib.sha256(b"%d\n" % status + output).hexdigest()
    finally:
        os.chdir(before)
    return table


def without_machine_facts(sarif: bytes) -> bytes:
    """A SARIF log without what depends on the machine rather than on the cfg: the run's
    working directory (where the corpus lies) and each rule's ``helpUri`` (read from the
    installed distribution's metadata, absent when dnlint runs from a bare source tree;
    ``tests/test_formats.py`` covers both)."""
    log = json.loads(sarif)
    for run in log["runs"]:
        for rule in run["tool"]["driver"]["rules"]:
            rule.pop("helpUri", None)
        for invocation in run["invocations"]:
            invocation.pop("workingDirectory", None)
    return json.dumps(log, indent=2).encode()


def differences(stored: dict[str, dict[str, str]],
                now: dict[str, dict[str, str]]) -> list[str]:
    """One line per cfg and format whose digest differs (or is only on one side)."""
    lines = []
    for cfg in sorted(stored.keys() | now.keys()):
        before, after = stored.get(cfg, {}), now.get(cfg, {})
        for name in sorted(before.keys() | after.keys()):
            if before.get(name) != after.get(name):
                lines.append(f"{cfg} [{name}]: {before.get(name, 'absent')[:12]} -> "
                             f"{after.get(name, 'absent')[:12]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="compare with the stored digests")
    action.add_argument("--write", action="store_true", help="store the digests anew")
    args = parser.parse_args(argv)
    corpus = corpus_dir()
    if not corpus.is_dir():
        print(f"no stock corpus at {corpus} (set DNLINT_SHARED)", file=sys.stderr)
        return 2
    now = digests(corpus)
    if args.write:
        STORED.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(now)} cfgs x {len(FORMATS)} formats to {STORED.relative_to(ROOT)}")
        return 0
    found = differences(json.loads(STORED.read_text()), now)
    for line in found:
        print(line)
    print(f"{len(found)} of {len(now) * len(FORMATS)} digests differ")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
