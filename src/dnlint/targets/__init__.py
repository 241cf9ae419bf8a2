"""After the lint, before the settings and policy (each reads a ``FileResult``): deployment
targets (``--target``), rule families that ask whether another program loads the network the
way Darknet builds it. A target's module is imported only when it is selected, so a run
without ``--target`` pays nothing for it. The pipeline calls them
(:func:`dnlint.pipeline.complete`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dnlint.result import FileResult

TARGETS = ("opencv", "tensorrt-demos", "hank-onnx")


def parse_targets(values: object, where: str) -> tuple[str, ...]:
    """A list of target names (or one comma-separated string), each a known target."""
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{where}: target must be a list of names ({', '.join(TARGETS)})")
    found: list[str] = []
    for value in values:
        for name in (part.strip().lower() for part in value.split(",")):
            if name not in TARGETS:
                raise ValueError(f"{where}: unknown target {name!r} (known: "
                                 f"{', '.join(TARGETS)})")
            if name not in found:
                found.append(name)
    return tuple(found)


def check_targets(result: FileResult, targets: tuple[str, ...]) -> None:
    """Add every selected target's diagnostics to ``result``."""
    if result.document is None or result.document.fatal:
        return
    for target in targets:  # each target's module loads only when selected (start-up)
        if target == "opencv":
            from dnlint.targets.opencv import check_opencv

            result.add(check_opencv(result))
        elif target == "tensorrt-demos":
            from dnlint.targets.tensorrt import check_tensorrt

            result.add(check_tensorrt(result))
        elif target == "hank-onnx":
            from dnlint.targets.hank_onnx import check_hank_onnx

            result.add(check_hank_onnx(result))
