#!/usr/bin/env python3
"""Put run.py's outputs together as fixtures/oracle/memory.json, totals only.

    python3 combine.py OUT.json SET:RUN.json... [--layers SET]

SET is the name of the set in OUT (`stock`, `mini_batch_4`); a later file's cfgs replace an
earlier one's of the same fork and set (a cfg measured again). The sets named by --layers keep
the per-layer lists and the rest (`net`) of runs made with --per-layer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KEPT = ("status", "exit", "batch", "total", "workspace", "files", "batch_forced")


def main() -> int:
    args = sys.argv[2:]
    with_layers: set[str] = set()
    while "--layers" in args:
        at = args.index("--layers")
        with_layers.add(args[at + 1])
        del args[at:at + 2]
    out: dict[str, dict[str, dict[str, object]]] = {}
    for item in args:
        name, _, path = item.partition(":")
        run = json.loads(Path(path).read_text())
        batch = run.get("batch", run.get("mini_batch", 1))
        entry = out.setdefault(name, {}).setdefault(
            run["fork"], {"batch": batch, "subdivisions": run.get("subdivisions", 1), "cfgs": {}})
        cfgs = entry["cfgs"]
        assert isinstance(cfgs, dict)
        for key, modes in run["cfgs"].items():
            kept = KEPT + (("net", "layers") if name in with_layers else ())
            cfgs[key] = {mode: {k: m[k] for k in kept if k in m} for mode, m in modes.items()}
    for sets in out.values():
        for entry in sets.values():
            cfgs = entry["cfgs"]
            assert isinstance(cfgs, dict)
            entry["cfgs"] = dict(sorted(cfgs.items()))
    Path(sys.argv[1]).write_text(_text(out))
    return 0


def _text(out: dict[str, dict[str, dict[str, object]]]) -> str:
    """JSON with one line per cfg: small, and a measurement changed is a line changed."""
    lines = ["{"]
    for i, (name, sets) in enumerate(out.items()):
        lines.append(f" {json.dumps(name)}: {{")
        for j, (fork, entry) in enumerate(sets.items()):
            cfgs = entry["cfgs"]
            assert isinstance(cfgs, dict)
            head = {k: v for k, v in entry.items() if k != "cfgs"}
            lines.append(f"  {json.dumps(fork)}: {json.dumps(head)[:-1]}, \"cfgs\": {{")
            rows = [f"   {json.dumps(key)}: {json.dumps(modes)}" for key, modes in cfgs.items()]
            lines.append(",\n".join(rows))
            lines.append("  }}" + ("," if j < len(sets) - 1 else ""))
        lines.append(" }" + ("," if i < len(out) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
