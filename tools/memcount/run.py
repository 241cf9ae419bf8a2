#!/usr/bin/env python3
"""Run memcount over cfgs and write the allocation counts as one small JSON file.

    python3 run.py FORK ORACLE_ROOT OUT.json CFG_OR_DIR... --key-base DIR \
        [--batch B --subdivisions S] [--exe memcount-FORK] [--per-layer]

Each cfg is copied into a temporary folder with `batch` and `subdivisions` of its [net]
rewritten (by the oracle harness's own `rewrite_cfg`, from ORACLE_ROOT/harness/oracle.py) to
B and S (1 and 1 by default, as the oracle), and parsed by memcount-FORK (built by build.sh
into ORACLE_ROOT/build/FORK unless --exe says where) with the fork's source tree as working
directory, as the oracle does. AlexeyAB is measured twice: `infer`
(parse_network_cfg_custom(cfg, 1, 1): mini-batch 1 whatever the cfg says) and `train`
(mini-batch B / S); pjreddie once (`train`: its parser always allocates the training arrays).
Each measurement keeps the batch the layers were built for, the total, the workspace and the
bytes of the data files the cfg names (`files`); --per-layer keeps the per-layer lists too.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def measure(exe: Path, cfg: Path, mode: str, cwd: Path) -> dict[str, object]:
    try:
        done = subprocess.run(
            [str(exe), str(cfg), mode], cwd=cwd, capture_output=True, timeout=120, check=False
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    lines = [ln for ln in done.stdout.decode("latin-1").splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"status": "error", "exit": done.returncode}
    return {"status": "ok", **json.loads(lines[-1])}


def measure_cfg(exe: Path, cfg: Path, fork: str, batch: int, subdivisions: int, mode: str,
                cwd: Path, tmp: Path, rewrite: Any) -> dict[str, object]:
    """One cfg with batch and subdivisions rewritten, in one mode."""
    data, _ = rewrite(cfg.read_bytes(), fork, batch, subdivisions)
    work = tmp / cfg.name
    work.write_bytes(data)
    return measure(exe, work, mode, cwd)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("fork", choices=["pjreddie", "alexeyab", "hank"])
    ap.add_argument("oracle_root", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--key-base", type=Path, required=True)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--subdivisions", type=int, default=1)
    ap.add_argument("--exe", type=Path,
                    help="memcount binary (default ORACLE_ROOT/build/FORK/memcount-FORK)")
    ap.add_argument("--per-layer", action="store_true", help="keep the per-layer lists")
    args = ap.parse_args()
    sys.path.insert(0, str(args.oracle_root / "harness"))
    from oracle import rewrite_cfg  # the harness's own rewrite

    exe = args.exe or args.oracle_root / "build" / args.fork / f"memcount-{args.fork}"
    src = args.oracle_root / args.fork
    cfgs: list[Path] = []
    for p in args.paths:
        cfgs.extend(sorted(p.rglob("*.cfg")) if p.is_dir() else [p])
    modes = ["train"] if args.fork == "pjreddie" else ["infer", "train"]
    out: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for cfg in cfgs:
            key = cfg.resolve().relative_to(args.key_base.resolve()).as_posix()
            entry: dict[str, object] = {}
            for mode in modes:
                result = measure_cfg(exe, cfg, args.fork, args.batch, args.subdivisions, mode,
                                     src, Path(tmp), rewrite_cfg)
                if result["status"] != "ok" and args.batch == 1 and args.fork != "pjreddie":
                    # as the oracle: AlexeyAB refuses contrastive=1 below a [net] mini-batch
                    # of 2 (inference still builds for 1)
                    second = measure_cfg(exe, cfg, args.fork, 2, 1, mode, src, Path(tmp),
                                         rewrite_cfg)
                    if second["status"] == "ok":
                        result = {**second, "batch_forced": 2}
                if not args.per_layer:
                    for detail in ("layers", "net", "peak", "mode"):
                        result.pop(detail, None)
                entry[mode] = result
            out[key] = entry
            print(key, {m: r.get("total", r["status"]) for m, r in entry.items()}, flush=True)
    text = json.dumps({"fork": args.fork, "batch": args.batch,
                       "subdivisions": args.subdivisions, "cfgs": out}, indent=1)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
