"""Which cfg a .weights file belongs to, and the weights stage of a command-line run.

``model.weights`` pairs with ``model.cfg`` beside it. Names Darknet itself produces are
understood too: ``darknet53.conv.74`` (a backbone cut by ``darknet partial``) and AlexeyAB's
training outputs ``model_final``, ``model_last``, ``model_best`` and ``model_10000`` all come
from ``model.cfg``. A guess is used only when it is unambiguous.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dnlint.diagnostics import Diagnostic
from dnlint.result import FileResult

if TYPE_CHECKING:
    from collections.abc import Callable

    from dnlint.engine import Input, RunOptions, RunResult

_CONV_CUT = re.compile(r"^(?P<stem>.+?)\.conv\.\d+$")
_TRAINING = re.compile(r"^(?P<stem>.+?)_(?:final|last|best|\d+)$")


@dataclass(frozen=True)
class CfgMatch:
    """The cfg found for a weights file (``cfg``), or why none was chosen."""

    cfg: str | None
    candidates: tuple[str, ...]
    reason: str


def cfg_stems(weights_name: str) -> list[str]:
    """The cfg stems a weights file name points at, most specific first."""
    name = os.path.basename(weights_name)
    stem = name[: -len(".weights")] if name.endswith(".weights") else name
    stems = [stem]
    for pattern in (_CONV_CUT, _TRAINING):
        found = pattern.match(stem)
        if found and found["stem"] not in stems:
            stems.append(found["stem"])
    return stems


def find_cfg(weights_path: str) -> CfgMatch:
    """Find the cfg beside ``weights_path`` (same directory), without reading any file."""
    folder = Path(weights_path).parent
    stems = cfg_stems(weights_path)
    for stem in stems:
        exact = folder / f"{stem}.cfg"
        if exact.is_file():
            return CfgMatch(str(exact), (str(exact),), f"same stem as {Path(weights_path).name}")
    base = stems[-1]
    if len(stems) > 1:
        # e.g. yolov4.conv.137 beside yolov4-custom.cfg only: a cfg built on that backbone
        near = sorted(str(p) for p in folder.glob(f"{_glob_escape(base)}*.cfg") if p.is_file())
        if len(near) == 1:
            return CfgMatch(near[0], tuple(near), f"the only cfg named {base}*")
        if near:
            return CfgMatch(None, tuple(near), f"several cfgs start with {base!r}")
    looked = ", ".join(f"{s}.cfg" for s in stems)
    return CfgMatch(None, (), f"no {looked} in {folder or '.'}")


def _glob_escape(text: str) -> str:
    return re.sub(r"([\[\]*?])", r"[\1]", text)


def pair_all(
    weights: list[str], cfg_results: list[FileResult], cfg_option: str | None
) -> list[tuple[str, str | FileResult]]:
    """Pair each weights file with a linted cfg, or a cfg path still to lint.

    Raises ``InputError`` when a weights file has no cfg and none can be found.
    """
    from dnlint.engine import InputError

    pairs: list[tuple[str, str | FileResult]] = []
    for path in dict.fromkeys(weights):
        if cfg_option:
            pairs.append((path, _known(cfg_option, cfg_results) or cfg_option))
            continue
        chosen = _among(path, cfg_results)
        if chosen is not None:
            pairs.append((path, chosen))
            continue
        match = find_cfg(path)
        if match.cfg is None:
            listed = f" ({', '.join(match.candidates)})" if match.candidates else ""
            raise InputError(f"{path}: which cfg does it belong to? {match.reason}{listed}; "
                             "name it with --cfg FILE (or give the cfg too)")
        pairs.append((path, _known(match.cfg, cfg_results) or match.cfg))
    return pairs


def _known(cfg: str, results: list[FileResult]) -> FileResult | None:
    target = os.path.realpath(cfg)
    return next((r for r in results if os.path.realpath(r.path) == target), None)


def _among(weights_path: str, results: list[FileResult]) -> FileResult | None:
    """The cfg given on the same command line: the only one, or the one with the same stem."""
    if len(results) == 1:
        return results[0]
    stems = cfg_stems(weights_path)
    same = [r for r in results if Path(r.path).stem in stems]
    if len(same) == 1:
        return same[0]
    if results:
        from dnlint.engine import InputError

        raise InputError(f"{weights_path}: several cfgs were given and none has its name; "
                         "check one pair at a time, or name the cfg with --cfg")
    return None


def attach_weights(
    run: RunResult,
    weights: list[str],
    options: RunOptions,
    lint_cfg: Callable[[Input], FileResult] | None = None,
) -> None:
    """The weights stage of a run: pair, predict, check each file (and scan with ``--scan``).

    The first weights file of a cfg is recorded on that cfg's entry; a further one gets an
    entry of its own (path = the weights file) carrying the same prediction.
    """
    from dnlint.engine import Input, lint_input, require_regular_file

    lint = lint_cfg or (lambda item: lint_input(item, options))
    cfg_results = list(run.files)
    for path, target in pair_all(weights, cfg_results, options.cfg):
        require_regular_file(path)
        if isinstance(target, str):
            target_result = lint(Input(target, "cfg"))
            run.files.append(target_result)
            cfg_results.append(target_result)
        else:
            target_result = target
        entry = _entry_for(run, target_result, path)
        entry.diagnostics.extend(check_weights_path(entry, path, options.scan))


def _entry_for(run: RunResult, cfg_result: FileResult, weights_path: str) -> FileResult:
    """The entry a weights file's findings go to: its cfg's, or a new one for a second file."""
    if cfg_result.weights is None or cfg_result.weights.path is None:  # predicted on first use
        return cfg_result
    extra = FileResult(weights_path, cfg_result.dialect, cfg_result.dialect_reason, [],
                       cfg_result.network, cfg_result.document)
    extra.weights = cfg_result.weights.fresh()
    run.files.append(extra)
    return extra


def check_weights_path(result: FileResult, path: str, scan: bool = False) -> list[Diagnostic]:
    """Check ``path`` against ``result``'s prediction (and scan it); the new diagnostics."""
    from dnlint.weights import alternatives
    from dnlint.weights.check import check_file, diagnostic

    report = result.weights
    if report is None:
        return [diagnostic("DN518", "not checked: the cfg does not build a network, so there is "
                           "nothing to compare the file with", path)]
    try:
        found = check_file(report, path, alternatives(result))
    except OSError as exc:
        from dnlint.engine import InputError

        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if scan and report.header is not None and not any(d.code in _UNREADABLE for d in found):
        from dnlint.weights.scan import scan_weights

        found += scan_weights(report)
    return found


# a file the scan cannot walk: not weights, or no usable header
_UNREADABLE = frozenset({"DN510", "DN511", "DN513"})
