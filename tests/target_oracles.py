"""The real deployment tools' verdicts, stored and re-run: what tests/test_target_oracles.py
compares dnlint's predictions with.

``tests/targets/<tool>.json`` holds, for the tool's pinned commit, ``accept`` or ``refuse`` for
every stock cfg (keys ``<fork>/cfg/NAME.cfg`` under ../shared/corpus) and for every single-line
mutant of :data:`MUTATIONS` (keys ``<base>--<mutation>``). The mutants are rebuilt from the
stock cfgs here, so only their names and verdicts are stored.

Re-run the tools and rewrite the stored verdicts (tool set-up: ../shared/targets/README.md)::

    python tests/target_oracles.py tensorrt-demos --git /path/to/tensorrt_demos.git \\
        --venv /path/to/venv
    python tests/target_oracles.py hank-onnx --tool /path/to/darknet_onnx_export \\
        --venv /path/to/venv

(``DNLINT_LIVE_TARGETS=1`` makes tests/test_target_oracles.py do the same run and compare
without writing.)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
STORED = HERE / "targets"
Mutation = Callable[[str], str]


def _shared() -> Path:
    env = os.environ.get("DNLINT_SHARED")
    return Path(env) if env else HERE.parent.parent / "shared"


SHARED = _shared()
CORPUS = SHARED / "corpus"
RUNNERS = SHARED / "targets"


def sub_first(pattern: str, replacement: str) -> Mutation:
    def mutate(text: str) -> str:
        return re.sub(pattern, replacement, text, count=1, flags=re.MULTILINE)
    return mutate


def after_first(section: str, line: str) -> Mutation:
    """Add ``line`` right after the first ``[section]`` header."""
    return sub_first(rf"^(\[{section}\][^\n]*)$", rf"\1\n{line}")


def nth_section(section: str, n: int, line: str) -> Mutation:
    """Add ``line`` right after the n-th (0-based) ``[section]`` header."""
    def mutate(text: str) -> str:
        found = list(re.finditer(rf"^\[{section}\][^\n]*$", text, flags=re.MULTILINE))
        if len(found) <= n:
            return text
        end = found[n].end()
        return text[:end] + "\n" + line + text[end:]
    return mutate


def nth_line(pattern: str, n: int, line: str) -> Mutation:
    """Replace the n-th (0-based) line that begins with ``pattern`` by ``line``."""
    def mutate(text: str) -> str:
        found = list(re.finditer(rf"^{pattern}[^\n]*$", text, flags=re.MULTILINE))
        if len(found) <= n:
            return text
        return text[:found[n].start()] + line + text[found[n].end():]
    return mutate


def drop_first(pattern: str) -> Mutation:
    return sub_first(rf"^{pattern}[^\n]*\n", "")


# tensorrt_demos: each changes, adds or removes one line; names say what
TRT_MUTATIONS: dict[str, Mutation] = {
    "type-avgpool": sub_first(r"^\[maxpool\]", "[avgpool]"),
    "type-conv-alias": sub_first(r"^\[convolutional\]", "[conv]"),
    "type-network": sub_first(r"^\[net\]", "[network]"),
    "preamble-bracket": lambda text: "# layers [0] to [3] are the stem\n" + text,
    "preamble-hash-bracket": lambda text: "#[old]\n" + text,
    "semicolon-comment": after_first("convolutional", "; the stem"),
    "double-equals": after_first("convolutional", "pad=1=1"),
    "empty-value": after_first("convolutional", "pad="),
    "bracket-in-value": after_first("convolutional", "pad=1 [x]"),
    "activation-relu6": sub_first(r"^activation\s*=\s*leaky", "activation=relu6"),
    "activation-hard-mish": sub_first(r"^activation\s*=\s*leaky", "activation=hard_mish"),
    "activation-relu": sub_first(r"^activation\s*=\s*leaky", "activation=relu"),
    "activation-tanh": sub_first(r"^activation\s*=\s*leaky", "activation=tanh"),
    "activation-swish": sub_first(r"^activation\s*=\s*leaky", "activation=swish"),
    "activation-mish": sub_first(r"^activation\s*=\s*leaky", "activation=mish"),
    "stride-float": sub_first(r"^stride\s*=\s*1\s*$", "stride=1.0"),
    "from-list": sub_first(r"^from\s*=\s*-3", "from=-3,-2"),
    "drop-conv-stride": sub_first(r"^(\[convolutional\]\n(?:[^\[\n]+\n)*?)stride\s*=[^\n]*\n",
                                  r"\1"),
    "drop-conv-activation": drop_first(r"activation\s*="),
    "drop-net-channels": drop_first(r"channels\s*="),
    "drop-upsample-stride": sub_first(r"^\[upsample\]\nstride\s*=[^\n]*$", "[upsample]"),
    "shortcut-leaky": sub_first(r"^(from\s*=\s*-3\n)activation\s*=\s*linear",
                                r"\1activation=leaky"),
    "shortcut-weighted": after_first("shortcut", "weights_type=per_channel"),
    "drop-group-id": drop_first(r"group_id\s*="),
    "group-id-too-big": sub_first(r"^group_id\s*=\s*1", "group_id=2"),
    "head-conv-leaky": sub_first(r"^activation\s*=\s*linear(\n\s*\n\[yolo\])",
                                 r"activation=leaky\1"),
    "classes-spaced": sub_first(r"^classes\s*=\s*(\d+)", r"classes = \1"),
    "classes-differ": sub_first(r"^classes\s*=\s*80", "classes=79"),
    "mask-shorter": sub_first(r"^mask\s*=\s*(\d+)\s*,\s*(\d+)\s*,\s*\d+", r"mask=\1,\2"),
    "mask-indented": sub_first(r"^mask", " mask"),
    "anchors-differ": nth_line(r"anchors\s*=", 1, "anchors=12,16, 19,36, 40,28, 36,75, 76,55, "
                                                 "72,146"),
    "drop-scale-x-y": drop_first(r"scale_x_y\s*="),
    "scale-x-y-below-one": sub_first(r"^scale_x_y\s*=[^\n]*", "scale_x_y=0.9"),
    "new-coords-one-head": after_first("yolo", "new_coords=1"),
    "width-400": sub_first(r"^width\s*=\s*\d+", "width=400"),
    "head-filters": sub_first(r"^filters\s*=\s*255(\n\s*activation\s*=\s*linear\n\s*\n\[yolo\])",
                              r"filters=256\1"),
    "head-filters-later": sub_first(r"^filters\s*=\s*255(\n[^\[]*\n\[yolo\])", r"filters=256\1"),
    "grouped-conv": nth_section("convolutional", 1, "groups=2"),
    "dilation": nth_section("convolutional", 1, "dilation=2"),
    "xnor": nth_section("convolutional", 1, "xnor=1"),
    "maxpool-stride-1": sub_first(r"^(\[maxpool\]\nsize\s*=\s*2\n)stride\s*=\s*2",
                                  r"\1stride=1"),
    "yolo-gaussian": sub_first(r"^\[yolo\]", "[Gaussian_yolo]"),
}
# Mutations whose refusal happens where the runner cannot see it: yolo_layer.cu's asserts on the
# head's input (C:120-122) are emulated against the shapes ONNX infers, and yolo_to_onnx.py
# declares the outputs with the channels and grid it assumes, which shape inference keeps.
# With the declared shapes cleared, inference gives the real ones (256 channels; a 26x26 grid)
# that TensorRT's plugin asserts on. The stored verdict stays the runner's ("accept"); the test
# requires dnlint's DN631/DN632 on them instead of agreement.
TRT_EMULATION_BLIND = {
    "head-filters": "DN631",
    "head-filters-later": "DN631",
    "maxpool-stride-1": "DN632",
}
TRT_BASES = ("alexeyab/cfg/yolov4-tiny.cfg", "pjreddie/cfg/yolov3-tiny.cfg")
# the one stock cfg family with [shortcut] layers, converted only for the shortcut mutations
# (an accepted full-size conversion takes a minute)
TRT_SHORTCUT_BASE = "pjreddie/cfg/yolov3.cfg"
TRT_SHORTCUT_MUTATIONS = ("shortcut-leaky", "shortcut-weighted", "from-list")


def trt_mutants() -> dict[str, str]:
    """{key: cfg text} of every tensorrt_demos mutant that changes its base."""
    plan = [(base, name) for base in TRT_BASES for name in TRT_MUTATIONS
            if name not in TRT_SHORTCUT_MUTATIONS]
    plan += [(TRT_SHORTCUT_BASE, name) for name in TRT_SHORTCUT_MUTATIONS]
    return _mutants(plan, TRT_MUTATIONS)


# hank-ai's darknet_onnx_export: one line changed, added or removed, on cfgs hank's Darknet loads
HANK_MUTATIONS: dict[str, Mutation] = {
    "type-avgpool": sub_first(r"^\[maxpool\]", "[avgpool]"),
    "type-local-avgpool": sub_first(r"^\[maxpool\]", "[local_avgpool]"),
    "activation-swish": sub_first(r"^activation\s*=\s*leaky", "activation=swish"),
    "activation-relu": sub_first(r"^activation\s*=\s*leaky", "activation=relu"),
    "activation-tanh": sub_first(r"^activation\s*=\s*leaky", "activation=tanh"),
    "activation-elu": sub_first(r"^activation\s*=\s*leaky", "activation=elu"),
    "activation-mish": sub_first(r"^activation\s*=\s*leaky", "activation=mish"),
    "activation-logistic": sub_first(r"^activation\s*=\s*leaky", "activation=logistic"),
    "mask-four": sub_first(r"^mask\s*=\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)", r"mask=\1,\2,\3,0"),
    "maxpool-stride-1": sub_first(r"^(\[maxpool\]\nsize\s*=\s*2\n)stride\s*=\s*2",
                                  r"\1stride=1"),
    "maxpool-size-3": sub_first(r"^(\[maxpool\]\n)size\s*=\s*2", r"\1size=3"),
    "drop-maxpool-stride": sub_first(r"^(\[maxpool\]\nsize\s*=\s*\d+\n)stride\s*=[^\n]*\n",
                                     r"\1"),
    "drop-conv-stride": sub_first(r"^(\[convolutional\]\n(?:[^\[\n]+\n)*?)stride\s*=\s*1\n",
                                  r"\1"),
    "drop-conv-size-1x1": sub_first(r"^(\[convolutional\]\n(?:[^\[\n]+\n)*?)size\s*=\s*1\n",
                                    r"\1"),
    "conv-pad-0": sub_first(r"^pad\s*=\s*1", "pad=0"),
    "grouped-conv": nth_section("convolutional", 1, "groups=2"),
    "dilation": nth_section("convolutional", 1, "dilation=2"),
    "shortcut-across-channels": sub_first(r"^filters\s*=\s*64(\n(?:[^\[\n]*\n)*\s*\n\[shortcut\])",
                                          r"filters=32\1"),
    "group-id-too-big": sub_first(r"^group_id\s*=\s*1", "group_id=2"),
    "route-concat-groups": sub_first(r"^(layers\s*=\s*-1\s*,\s*-\d+)", r"\1\ngroups=2"),
    "scale-x-y": after_first("yolo", "scale_x_y=1.1"),
    "upsample-stride-4": sub_first(r"^(\[upsample\]\n)stride\s*=\s*2", r"\1stride=4"),
    "net-unused-option": after_first("net", "max_crop=256"),
}
HANK_BASES = ("alexeyab/cfg/yolov4-tiny.cfg", "alexeyab/cfg/yolov3-tiny.cfg",
              "alexeyab/cfg/yolov3.cfg")


def hank_mutants() -> dict[str, str]:
    """{key: cfg text} of every darknet_onnx_export mutant that changes its base."""
    return _mutants([(b, n) for b in HANK_BASES for n in HANK_MUTATIONS], HANK_MUTATIONS)


def _mutants(plan: list[tuple[str, str]], table: dict[str, Mutation]) -> dict[str, str]:
    found: dict[str, str] = {}
    for base, name in plan:
        source = CORPUS / base
        if not source.is_file():
            continue
        text = source.read_text(encoding="utf-8", errors="replace")
        changed = table[name](text)
        if changed != text:
            found[f"{base}--{name}"] = changed
    return found


def stock_cfgs(forks: tuple[str, ...]) -> dict[str, Path]:
    return {f"{fork}/{path.relative_to(CORPUS / fork)}": path
            for fork in forks for path in sorted((CORPUS / fork / "cfg").rglob("*.cfg"))}


def load_stored(tool: str) -> dict[str, dict[str, str]]:
    path = STORED / f"{tool}.json"
    data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return data


# -- running the real tools -------------------------------------------------------------------

def run_tensorrt_demos(cfgs: dict[str, Path], git_dir: str, venv: str, dialect: str,
                       dnlint: str) -> dict[str, str]:
    """accept/refuse per key, from ../shared/targets/tensorrt_demos/run.sh."""
    return _run_runner(["bash", str(RUNNERS / "tensorrt_demos" / "run.sh"), git_dir],
                       ["--dialect", dialect], cfgs, venv, dnlint)


def run_hank_onnx(cfgs: dict[str, Path], tool: str, venv: str, dnlint: str) -> dict[str, str]:
    """accept/refuse per key from ../shared/targets/hank_onnx/run.sh: accepted means the
    export succeeded AND onnxruntime loads and runs the model."""
    return _run_runner(["bash", str(RUNNERS / "hank_onnx" / "run.sh"), tool], [], cfgs, venv,
                       dnlint)


def _run_runner(command: list[str], extra: list[str], cfgs: dict[str, Path], venv: str,
                dnlint: str) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        names = {str(path): key for key, path in cfgs.items()}
        env = {**os.environ, "VENV": venv}
        subprocess.run([*command, str(out), "--dnlint", dnlint, *extra, *names],
                       check=True, env=env)
        results = json.loads(out.read_text())
    verdicts = {}
    for path, entry in results.items():
        if path.startswith("_"):
            continue
        verdicts[names[path]] = _verdict(entry)
    return verdicts


def _verdict(entry: dict[str, object]) -> str:
    """accept/refuse; ``artifact`` for hank's refusal of the runner's one-line .names file on
    a cfg without a detection head (not the tool's refusal: ../shared/targets/hank_onnx)."""
    if "load_names()" in str(entry.get("message", "")):
        return "artifact"
    if entry.get("status") != "accept":
        return "refuse"
    for stage in ("stage2", "stage3"):
        later = entry.get(stage)
        if isinstance(later, dict) and later.get("status") != "accept":
            return "refuse"
    return "accept"


def emulation_blind(key: str) -> str | None:
    """The rule dnlint reports on a tensorrt_demos mutant the runner cannot judge, if any."""
    return TRT_EMULATION_BLIND.get(key.rpartition("--")[2]) if "--" in key else None


def regenerate(tool: str, args: argparse.Namespace) -> dict[str, object]:
    dnlint = f"{sys.executable} -m dnlint"
    if tool == "tensorrt-demos":
        verdicts: dict[str, str] = {}
        for fork in ("alexeyab", "pjreddie"):
            cfgs = stock_cfgs((fork,))
            cfgs.update(_write_mutants({k: v for k, v in trt_mutants().items()
                                        if k.startswith(fork + "/")}, args.work))
            verdicts.update(run_tensorrt_demos(cfgs, args.git, args.venv, fork, dnlint))
        meta = {"tool": "jkjung-avt/tensorrt_demos", "commit":
                "c7c7f035c7d29ed3ccdf0bd66d9cb06ff493a2db",
                "runner": "shared/targets/tensorrt_demos/run.sh (stage 1 yolo_to_onnx.py, "
                          "stage 2 plugins.py with the yolo_layer.cu asserts emulated)"}
    else:
        cfgs = stock_cfgs(("alexeyab",))
        cfgs.update(_write_mutants(hank_mutants(), args.work))
        verdicts = run_hank_onnx(cfgs, args.tool_path, args.venv, dnlint)
        meta = {"tool": "hank-ai/darknet darknet_onnx_export", "commit":
                "f684e1d75d4594298c8e73acc727ba6cf2e81c60",
                "runner": "shared/targets/hank_onnx/run.sh (export, onnx full check, "
                          "onnxruntime run)"}
    artifacts = {k: "hank refused the runner's one-line .names file" for k, v in verdicts.items()
                 if v == "artifact"}
    kept = {k: v for k, v in sorted(verdicts.items()) if v != "artifact"}
    data: dict[str, object] = {"_meta": meta, "verdicts": kept}
    if tool == "hank-onnx":
        data["runner_artifacts"] = artifacts
    return data


def _write_mutants(mutants: dict[str, str], work: str) -> dict[str, Path]:
    folder = Path(work)
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for number, (key, text) in enumerate(sorted(mutants.items())):
        path = folder / f"mutant{number}.cfg"
        path.write_text(text, encoding="utf-8")
        written[key] = path
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", choices=("tensorrt-demos", "hank-onnx"))
    parser.add_argument("--git", help="tensorrt_demos git repository (or bare mirror)")
    parser.add_argument("--tool", dest="tool_path", help="darknet_onnx_export")
    parser.add_argument("--venv", required=True, help="venv with onnx (and onnxruntime)")
    parser.add_argument("--work", default=tempfile.mkdtemp(), help="folder for the mutants")
    parser.add_argument("--out", help="where to write (default: tests/targets/<tool>.json)")
    args = parser.parse_args()
    data = regenerate(args.target, args)
    out = Path(args.out) if args.out else STORED / f"{args.target}.json"
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}: {len(data['verdicts'])} verdicts")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
