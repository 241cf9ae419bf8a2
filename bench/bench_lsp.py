"""Benchmark dnlint-lsp: how long after a keystroke the editor has the new diagnostics.

The server runs as an editor runs it (``python -m dnlint.lsp --stdio``, a separate process
on pipes); this process is the client. The document is the stock ``yolov4-p6.cfg``
(2,297 lines, ../shared/corpus/alexeyab/cfg). Each round sends one incremental
``didChange`` of one character (the last digit of the first ``filters=`` value toggled:
the shapes of every layer after it are computed anew) and times, on the wall clock, from
just before the frame is written until the ``publishDiagnostics`` of that version is read;
the server lints in process. With ``--edits N`` each ``didChange`` carries N such
one-character edits of that digit, in order (as an editor sends a multi-cursor edit or a
replace-all), the last one leaving the round's value. The
figure is the median (and the 90th percentile) over ``--rounds`` changes, after ``--warmup``
changes that are not counted. A pulling client is timed the same way: the change, then a
``textDocument/diagnostic`` request until its answer.

Run: ``python bench/bench_lsp.py [--cfg PATH] [--rounds 200] [--warmup 20] [--edits 1]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from dnlint.lsp.rpc import Writer, read_message

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("DNLINT_SHARED") or ROOT.parent / "shared")
DEFAULT_CFG = SHARED / "corpus" / "alexeyab" / "cfg" / "yolov4-p6.cfg"


class Session:
    def __init__(self, pull: bool) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                          env.get("PYTHONPATH")]))
        self.process = subprocess.Popen([sys.executable, "-m", "dnlint.lsp", "--stdio"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.writer = Writer(self.process.stdin)
        self.reader = self.process.stdout
        self.next_id = 0
        capabilities: dict[str, Any] = {"textDocument": {"publishDiagnostics": {}}}
        if pull:
            capabilities["textDocument"]["diagnostic"] = {}
        self.request("initialize", {"processId": os.getpid(), "capabilities": capabilities})
        self.writer.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self.writer.send({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                          "params": params})
        while True:
            message = read_message(self.reader)
            if message is None:
                raise SystemExit("the server stopped")
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def notify(self, method: str, params: Any) -> None:
        self.writer.send({"jsonrpc": "2.0", "method": method, "params": params})

    def published(self, uri: str, version: int) -> list[Any]:
        while True:
            message = read_message(self.reader)
            if message is None:
                raise SystemExit("the server stopped")
            params = message.get("params") or {}
            if (message.get("method") == "textDocument/publishDiagnostics"
                    and params.get("uri") == uri and params.get("version") == version):
                return list(params["diagnostics"])

    def close(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=30)


def toggle_point(text: str) -> tuple[int, int]:
    """(line, character) of the last digit of the first ``filters=`` value."""
    for number, line in enumerate(text.split("\n")):
        if line.startswith("filters="):
            return number, len(line.rstrip()) - 1
    raise SystemExit("no filters= line to edit")


def measure(cfg: Path, rounds: int, warmup: int, pull: bool,
            edits: int = 1) -> tuple[list[float], int]:
    text = cfg.read_text("utf-8")
    line, character = toggle_point(text)
    digit = text.split("\n")[line][character]
    other = "7" if digit != "7" else "3"
    session = Session(pull)
    uri = cfg.resolve().as_uri()
    session.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "darknet", "version": 0, "text": text}})
    found = 0
    if not pull:
        found = len(session.published(uri, 0))
    times = []
    for version in range(1, warmup + rounds + 1):
        final, opposite = (other, digit) if version % 2 else (digit, other)
        # counted back from the last edit, which leaves the round's value
        changes = [{"range": {"start": {"line": line, "character": character},
                              "end": {"line": line, "character": character + 1}},
                    "text": opposite if back % 2 else final}
                   for back in reversed(range(edits))]
        start = time.perf_counter()
        session.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
        if pull:
            session.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        else:
            session.published(uri, version)
        elapsed = time.perf_counter() - start
        if version > warmup:
            times.append(elapsed)
    session.close()
    return times, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cfg", type=Path, default=DEFAULT_CFG)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--edits", type=int, default=1,
                        help="one-character edits in each didChange (default 1)")
    args = parser.parse_args()
    if not args.cfg.is_file():
        raise SystemExit(f"{args.cfg} not found (set DNLINT_SHARED or pass --cfg)")
    lines = args.cfg.read_bytes().count(b"\n")
    print(f"## dnlint-lsp: change -> diagnostics, {args.cfg.name} ({lines:,} lines)\n")
    print(f"Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs; {args.rounds} changes of {args.edits:,} one-character "
          f"edit(s) each after {args.warmup} not counted; wall clock, client and server "
          "on pipes.\n")
    print("| client | median | p90 | max |")
    print("|---|---:|---:|---:|")
    for pull in (False, True):
        times, _ = measure(args.cfg, args.rounds, args.warmup, pull, args.edits)
        times.sort()
        median = statistics.median(times) * 1000
        p90 = times[int(len(times) * 0.9) - 1] * 1000
        kind = "pull (textDocument/diagnostic)" if pull else "push (publishDiagnostics)"
        print(f"| {kind} | {median:.1f} ms | {p90:.1f} ms | {times[-1] * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
