"""The pipeline for one file: bytes -> sections -> typed options -> layers -> cross-layer
checks -> diagnostics.

Weights checking is a later, optional stage (:mod:`dnlint.weights`), and reporters only ever
see a :class:`FileResult`.
"""

from __future__ import annotations

from dnlint.checks.cascade import suppress_cascades
from dnlint.checks.memory import check_common_card, check_memory, check_testing_block
from dnlint.checks.net_values import check_net
from dnlint.checks.whole_network import check_network
from dnlint.diagnostics import Diagnostic, Severity, Sink, replace, with_ends
from dnlint.dialects import Dialect
from dnlint.network.build import Network, build_network
from dnlint.network.dialect_guess import Detection, detect_dialect
from dnlint.read.darknet_reader import CfgDocument, read_cfg
from dnlint.result import FileResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dnlint.read.document import FindingCount, LexFinding
    from dnlint.weights.layout import WeightsReport

__all__ = ["FileResult", "lint_cfg_bytes", "lint_document"]


def lint_cfg_bytes(data: bytes, path: str, dialect: Dialect | None = None,
                   fold: bool = True) -> FileResult:
    """Lint one cfg given as bytes. ``dialect=None`` detects it. ``fold``: count, rather than
    list, a rule's findings past the first hundred (diagnostics.FOLDABLE) when the file holds
    no directive that could suppress some of them."""
    if dialect is Dialect.HANK:
        from dnlint.read.hank_reader import read_cfg_hank

        doc = read_cfg_hank(data)  # hank-ai's own lexer, not AlexeyAB's strip/read_option
    else:
        doc = read_cfg(data)
    sink = Sink(path, fold=fold and not doc.may_hold_directives())
    if dialect is None:
        detection = detect_dialect(doc) if not doc.fatal else Detection(Dialect.AB, "default")
        chosen, reason, guessed = detection.dialect, detection.reason, detection.guessed
        _report_detection(detection, doc, sink)
    else:
        chosen, reason, guessed = dialect, "chosen with --dialect", False
    network = lint_document(doc, chosen, sink)
    diagnostics = sink.sorted()
    if guessed and _may_depend_on_dialect(diagnostics):
        diagnostics = _say_guessed(diagnostics, doc, chosen)
    diagnostics = with_ends(diagnostics, doc.lines)
    result = FileResult(path, chosen, reason, diagnostics, network, doc)
    if network is not None and _load_flags(network, chosen):
        attach_prediction(result)  # what those flags do to every weights file (DN502-DN506)
    return result


def lint_document(doc: CfgDocument, dialect: Dialect, sink: Sink,
                  errors_only: bool = False) -> Network | None:
    """Everything after reading, in ``dialect``: the reader's findings that hold there, the
    network and the cross-layer checks. The document is only read, never changed, so one
    document serves both forks (:func:`_say_guessed`). ``errors_only``: a lint that only asks
    which lines fail leaves out the checks that can only warn (DN123 and DN124: the memory
    estimate of a large network is the costliest part of a second lint)."""
    for finding in doc.findings:
        _report_read(finding, dialect, sink)
    if doc.remade is not None:
        for finding in doc.remade(_counter(dialect, sink) if sink.fold else None):
            _report_read(finding, dialect, sink)
    _report_noted(doc, dialect, sink)
    network = build_network(doc, dialect, sink)
    if network is not None:
        check_net(network.net_values, dialect, sink)
        check_network(network, doc, dialect, sink)
        check_memory(network, dialect, sink)
        if not errors_only:
            check_testing_block(network, doc, dialect, sink)
            check_common_card(network, doc, dialect, sink)  # after DN124, whose cause it shares
        suppress_cascades(network, doc, sink)  # last: it drops what follows from a broken layer
    return network


def _report_read(finding: LexFinding, dialect: Dialect, sink: Sink) -> None:
    """One of the reader's findings, if it holds in ``dialect``, at its severity there."""
    if finding.only is not None and dialect not in finding.only:
        return
    override = _in_dialect(finding.by_dialect, dialect)
    sink.report(finding.code, finding.line, finding.column, finding.message, finding.hint,
                override)


def _in_dialect(by_dialect: dict[Dialect, Severity] | None,
                dialect: Dialect) -> Severity | None:
    """A finding's severity in ``dialect`` where it overrides its rule's (else None)."""
    return by_dialect.get(dialect) if by_dialect else None


def _counter(dialect: Dialect, sink: Sink) -> FindingCount:
    """What counts, without making it, a finding of the structure pass noted by line only
    (a repeated key's DN009, a bare key's DN006) where ``sink`` counts its rule already."""
    def count(code: str, by_dialect: dict[Dialect, Severity] | None, line: int,
              column: int | None) -> bool:
        return sink.count_one(code, _in_dialect(by_dialect, dialect), line, column)
    return count


def _report_noted(doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """The lexer's findings noted by line only (past a rule's first hundred). Where the sink
    counts them and they all hold alike, the first is reported and the others counted by
    their lines; else each line is read again to make its finding (in a file of a million
    such lines, reading each again was most of the lint)."""
    for code, numbers in (doc.unlisted or {}).items():
        first = doc.first_noted.get(code) if doc.first_noted is not None else None
        rest: Sequence[int] = numbers
        if first is not None and sink.fold:
            if first.only is not None and dialect not in first.only:
                continue  # none of them holds in this dialect
            _report_read(first, dialect, sink)
            rest = numbers[1:]
            override = _in_dialect(first.by_dialect, dialect)
            if sink.count_more(code, override, rest):
                continue
        for finding in doc.reread_lines(code, rest):
            _report_read(finding, dialect, sink)


def attach_prediction(result: FileResult) -> WeightsReport | None:
    """Predict ``result``'s weights layout, store it in ``result.weights`` and add the cfg-level
    weights findings (DN502-DN506) to ``result.diagnostics``. ``None`` when the cfg did not build.
    """
    from dnlint.weights.check import check_layout

    report = result.weights  # predicted on first use
    if report is not None and not result.extra.get("layout_checked"):
        result.extra["layout_checked"] = True
        result.add(check_layout(report))
    return report


_LOAD_FLAGS = ("dontload", "dontloadscales", "dontsave")


def _load_flags(network: Network, dialect: Dialect) -> bool:
    """Whether the weights layout has something to say about this cfg alone (check_layout):
    a load/save flag, or an original-Darknet deconvolutional layer its loader crashes on."""
    pj = dialect is Dialect.PJ  # once: an Enum member is a slow class attribute on 3.11
    for layer in network.layers.built():
        values = layer.values
        if values is None:
            continue
        if values.given_any(_LOAD_FLAGS):
            return True
        if pj and layer.type == "deconvolutional":
            return True
    return False


# Errors the original and AlexeyAB's Darknet share by construction: the same strip() and
# read_option, the same first-match lookup, and a section type that neither knows (DN020), a
# malformed header, whose whole line is that type (DN019), or a second [net] (DN022), which
# both build as an all-zero layer ("Type not recognized", parse_network_cfg); and no input
# size (DN106), which parse_net_options of both reads and refuses in the same lines. A file
# whose errors are all of
# these needs no second lint to learn that the other fork refuses it too (a tenth of a corpus
# run, and half of a file of a million unknown sections).
_SAME_IN_BOTH_FORKS = frozenset({"DN002", "DN003", "DN004", "DN005", "DN006", "DN007", "DN008",
                                 "DN009", "DN011", "DN019", "DN020", "DN022", "DN028",
                                 "DN106"})


def _may_depend_on_dialect(diagnostics: list[Diagnostic]) -> bool:
    """Whether some error could hold in the guessed dialect only."""
    return any(d.severity is Severity.ERROR and d.code not in _SAME_IN_BOTH_FORKS
               for d in diagnostics)


def _say_guessed(diagnostics: list[Diagnostic], doc: CfgDocument,
                 guess: Dialect) -> list[Diagnostic]:
    """Errors that hold only in the guessed dialect say so: the same file may be one the other
    fork builds (the original's resnet cfgs, which AlexeyAB's refuses).

    The other fork's errors come from the stages after reading, run again on the same
    document: both forks read a file with the same lexer (hank-ai's own is used only when
    named with --dialect), and detection has nothing to say there."""
    other = Dialect.PJ if guess is not Dialect.PJ else Dialect.AB
    # only which lines fail is read: no suggestion is worked out, and a flood of findings is
    # kept as their lines (a Diagnostic each doubled the memory of a file of unknown options)
    sink = Sink(fold=True, detail=False)
    there = FileResult("", other, "", sink.items, lint_document(doc, other, sink, True), doc)
    if there.network is not None and _load_flags(there.network, other):
        attach_prediction(there)  # a fork's loader may refuse the file too (DN502, DN503)
    refused = {(d.code, d.line) for d in there.diagnostics if d.severity is Severity.ERROR}
    builds = not refused and not sink.counted_errors()
    result = []
    for diag in diagnostics:
        if diag.severity is Severity.ERROR and (diag.code, diag.line) not in refused \
                and not sink.counted_error_at(diag.code, diag.line):
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

