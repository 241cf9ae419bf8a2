"""The pipeline for one file: bytes -> sections -> typed options -> layers -> cross-layer
checks -> diagnostics.

Weights checking is a later, optional stage (:mod:`dnlint.weights`), and reporters only ever
see a :class:`FileResult`.
"""

from __future__ import annotations

from dataclasses import replace

from dnlint.checks.cascade import suppress_cascades
from dnlint.checks.network import check_network
from dnlint.detect import Detection, detect_dialect
from dnlint.diagnostics import Diagnostic, Severity, Sink
from dnlint.dialects import Dialect
from dnlint.network import Network, build_network
from dnlint.policy import may_hold_directives
from dnlint.reader import CfgDocument, read_cfg
from dnlint.result import FileResult

__all__ = ["FileResult", "lint_cfg_bytes"]


def lint_cfg_bytes(data: bytes, path: str, dialect: Dialect | None = None,
                   fold: bool = True) -> FileResult:
    """Lint one cfg given as bytes. ``dialect=None`` detects it. ``fold``: count, rather than
    list, a rule's findings past the first hundred (diagnostics.FOLDABLE) when the file holds
    no directive that could suppress some of them."""
    if dialect is Dialect.HANK:
        from dnlint.hank_reader import read_cfg_hank

        doc = read_cfg_hank(data)  # hank-ai's own lexer, not AlexeyAB's strip/read_option
    else:
        doc = read_cfg(data)
    sink = Sink(path, fold=fold and not may_hold_directives(doc.lines))
    if dialect is None:
        detection = detect_dialect(doc) if not doc.fatal else Detection(Dialect.AB, "default")
        chosen, reason, guessed = detection.dialect, detection.reason, detection.guessed
        _report_detection(detection, doc, sink)
    else:
        chosen, reason, guessed = dialect, "chosen with --dialect", False
    for finding in doc.findings:
        if finding.only is not None and chosen not in finding.only:
            continue
        override = finding.by_dialect.get(chosen) if finding.by_dialect else None
        sink.report(finding.code, finding.line, finding.column, finding.message, finding.hint,
                    override)
    network = build_network(doc, chosen, sink)
    if network is not None:
        check_network(network, doc, chosen, sink)
        suppress_cascades(network, doc, sink)  # last: it drops what follows from a broken layer
    diagnostics = sink.sorted()
    if guessed and _may_depend_on_dialect(diagnostics):
        diagnostics = _say_guessed(diagnostics, data, chosen)
    result = FileResult(path, chosen, reason, diagnostics, network, doc)
    if network is not None and _load_flags(network, chosen):
        from dnlint.weights import attach_prediction

        attach_prediction(result)  # what those flags do to every weights file (DN502-DN506)
    return result


_LOAD_FLAGS = ("dontload", "dontloadscales", "dontsave")


def _load_flags(network: Network, dialect: Dialect) -> bool:
    """Whether the weights layout has something to say about this cfg alone (check_layout):
    a load/save flag, or an original-Darknet deconvolutional layer its loader crashes on."""
    for layer in network.layers:
        values = layer.values
        if values is None:
            continue
        first = values.section.first  # a quick look before the exact question
        if ("dontload" in first or "dontloadscales" in first or "dontsave" in first) and any(
            values.given(flag) for flag in _LOAD_FLAGS
        ):
            return True
        if dialect is Dialect.PJ and layer.type == "deconvolutional":
            return True
    return False


# Errors the original and AlexeyAB's Darknet share by construction: the same strip() and
# read_option, the same first-match lookup. A file whose errors are all of these needs no
# second lint to learn that the other fork refuses it too (a tenth of a corpus run).
_SAME_IN_BOTH_FORKS = frozenset({"DN002", "DN003", "DN004", "DN005", "DN006", "DN007", "DN008",
                                 "DN009", "DN011", "DN028"})


def _may_depend_on_dialect(diagnostics: list[Diagnostic]) -> bool:
    """Whether some error could hold in the guessed dialect only."""
    return any(d.severity is Severity.ERROR and d.code not in _SAME_IN_BOTH_FORKS
               for d in diagnostics)


def _say_guessed(diagnostics: list[Diagnostic], data: bytes, guess: Dialect) -> list[Diagnostic]:
    """Errors that hold only in the guessed dialect say so: the same file may be one the other
    fork builds (the original's resnet cfgs, which AlexeyAB's refuses)."""
    other = Dialect.PJ if guess is not Dialect.PJ else Dialect.AB
    there = lint_cfg_bytes(data, "", other).diagnostics
    refused = {(d.code, d.line) for d in there if d.severity is Severity.ERROR}
    builds = not refused
    result = []
    for diag in diagnostics:
        if diag.severity is Severity.ERROR and (diag.code, diag.line) not in refused:
            verdict = "builds this file" if builds else "accepts this line"
            diag = replace(diag, message=(
                f"{diag.message} (only in {guess.label}, guessed for this file: "
                f"{other.label} {verdict}; use --dialect {other.value} if that is what you run)"))
        result.append(diag)
    return result


def _report_detection(detection: Detection, doc: CfgDocument, sink: Sink) -> None:
    line = doc.sections[0].line if doc.sections else None
    if detection.conflicting:
        sink.report("DN025", line, 1, f"this cfg mixes the dialects ({detection.reason}); "
                    f"checking it as {detection.dialect.value}",
                    "name the dialect with --dialect")
    elif detection.ambiguous:
        sink.report("DN026", line, 1, "the dialect decides this network's shapes or weights ("
                    + "; ".join(detection.ambiguous) + "); nothing in the file says which fork it "
                    "is for, so it is checked as alexeyab", "name the dialect with --dialect")

