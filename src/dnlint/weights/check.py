"""Check a cfg's weights layout, and an actual .weights file against it (stat + header only).

The file check never reads the payload: its cost is one ``stat`` and one read of the first
kilobyte, whatever the file's size. Everything else is arithmetic on the prediction.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from dnlint.diagnostics import Diagnostic, Severity, new_diagnostic
from dnlint.dialects import Dialect
from dnlint.read.sniff import SNIFF_BYTES, identify
from dnlint.weights.header import WRITTEN_HEADER_BYTES, Header, parse_header, seen_bytes
from dnlint.weights.layout import FLOAT, LayerLayout, WeightsReport

# Layer types whose record size or order differs between the forks (§weights-records).
FORK_SENSITIVE = frozenset({"batchnorm", "rnn", "gru", "lstm", "crnn"})
_HEADS = frozenset({"yolo", "gaussian_yolo", "region"})
# What each fork's save_weights writes as (major, minor, revision).
_WRITERS = {(0, 2, 0): Dialect.PJ, (0, 2, 5): Dialect.AB}


def diagnostic(
    code: str,
    message: str,
    path: str,
    line: int | None = None,
    hint: str | None = None,
    severity: Severity | None = None,
    region: tuple[int, int] | None = None,
) -> Diagnostic:
    """A weights finding; ``region`` is the (offset, length) of the bytes it is about."""
    return new_diagnostic(code, line, 1 if line else None, message, hint, path, severity, region)


# --- the cfg alone --------------------------------------------------------------------------
def check_layout(report: WeightsReport) -> list[Diagnostic]:
    """What the cfg's load flags and layer types do to any weights file (W1, W2, W4, W5)."""
    found: list[Diagnostic] = []
    later_loads = False  # one pass from the end: does any later layer read floats?
    for lay in reversed(report.layers):
        found += _flag_diagnostics(report, lay, later_loads)
        later_loads = later_loads or bool(lay.loaded_floats)
    return sorted(found, key=Diagnostic.sort_key)


def _flag_diagnostics(report: WeightsReport, lay: LayerLayout, later: bool) -> list[Diagnostic]:
    path, out = report.cfg_path, []
    code = _crash_code(lay)
    if code:
        out.append(diagnostic(code, f"layer {lay.index} [{lay.section}]: {lay.crash}; no "
                              "weights file can be loaded with this cfg", path, lay.line,
                              "add dontload=1 to this layer" if code == "DN502" else None))
    for note in lay.notes:
        if note.startswith("dontloadscales"):
            out.append(diagnostic(
                "DN504", f"layer {lay.index} [{lay.section}]: {note}; the saver wrote them, so "
                "this layer's weights and every later layer are read from the wrong offset",
                path, lay.line, "remove dontloadscales, or convert the file for it"))
        elif note.startswith("dontload=") and lay.saved and later:
            out.append(diagnostic(
                "DN505", f"layer {lay.index} [{lay.section}]: {note}, but save_weights writes "
                f"its {lay.saved_floats:,} floats, so the later layers read them as their own",
                path, lay.line, _dontload_hint(report.dialect)))
        elif note.startswith("dontsave=") and lay.loaded:
            out.append(diagnostic(
                "DN506", f"layer {lay.index} [{lay.section}]: {note}, but load_weights still "
                f"reads {lay.loaded_floats:,} floats for it: a file this cfg saves does not "
                "load back with it", path, lay.line, "set dontload=1 as well"))
    return out


def _crash_code(lay: LayerLayout) -> str | None:
    # an unknown section is already an error of its own (DN019-DN022) in the cfg alone; that
    # the loader dies on it is said only when a weights file is checked (_unknown_layer_crashes)
    return "DN502" if lay.crash and lay.type == "deconvolutional" else None


def _unknown_layer_crashes(report: WeightsReport, path: str) -> list[Diagnostic]:
    return [
        diagnostic("DN503", f"layer {lay.index} [{lay.section}] (cfg line {lay.line}): "
                   f"{lay.crash}; load_weights dies before reading this file",
                   path, None, "fix the section name in the cfg")
        for lay in report.layers
        if lay.crash and lay.values is None
    ]


def _dontload_hint(dialect: Dialect) -> str:
    if dialect is Dialect.PJ:
        return "set dontsave=1 as well, or move the layer after all layers that load"
    return "only the last layers with weights can be skipped this way"


# --- an actual file -------------------------------------------------------------------------
def check_file(
    report: WeightsReport,
    path: str | os.PathLike[str],
    alternatives: Iterable[WeightsReport] = (),
) -> list[Diagnostic]:
    """Check a .weights file's header and size against ``report``; never reads the payload.

    Records ``path``, ``actual_bytes`` and ``header`` on ``report`` and returns the findings,
    each with the weights file as its path and the byte offset in the message.
    ``alternatives`` are predictions of the same cfg in other dialects, to name a likely cause.
    Raises ``OSError`` when the file cannot be read.
    """
    name = os.fspath(path)
    size = os.stat(name).st_size
    with open(name, "rb") as stream:
        head = stream.read(SNIFF_BYTES)
    report.path, report.actual_bytes = name, size
    found = _check_format(head, size, name)
    if found is not None:
        return [found]
    header = parse_header(head, report.dialect)
    assert header is not None  # _check_format rejects files under 12 bytes
    # shown as read, absurd or not; a header the file ends inside has no seen to show
    report.header = header if header.complete else None
    found_header = _check_header(header, size, report, name)
    if header.is_absurd() or not header.complete:
        return found_header
    return found_header + _check_size(report, header, size, name, tuple(alternatives))


def _check_format(head: bytes, size: int, path: str) -> Diagnostic | None:
    what = identify(head)
    if what is not None:
        kind, hint = what
        return diagnostic("DN513", f"not a Darknet weights file: this is {kind} "
                          f"({size:,} bytes)", path, hint=hint, region=(0, size))
    if size < 12:
        return diagnostic("DN510", f"the file has {size} bytes, fewer than the 12 of the version "
                          "header: Darknet reads uninitialised version numbers and no weights",
                          path, hint="the download or copy was interrupted", region=(0, size))
    return None


def _check_header(header: Header, size: int, report: WeightsReport, path: str) -> list[Diagnostic]:
    out = []
    if header.is_absurd():
        kind = "negative" if header.is_negative() else "absurd"
        out.append(diagnostic(
            "DN511", f"the header at byte 0 reads version {header.version}: {kind} numbers no "
            "Darknet writes (0.1.0, 0.2.0, 0.2.5); this file has no Darknet header", path,
            hint="was it written by another tool, or did it lose its first bytes?",
            region=(0, min(size, 12))))
        return out
    if not header.complete:
        out.append(diagnostic(
            "DN510", f"the file has {size} bytes and ends inside the header: version "
            f"{header.version} is followed by a {header.seen_bytes}-byte seen at byte 12", path,
            region=(0, size)))
        return out
    if header.forks_disagree() or header.transpose:
        widths = {d: seen_bytes(header.major, header.minor, d) for d in (Dialect.PJ, Dialect.AB)}
        out.append(diagnostic(
            "DN512", f"header version {header.version} at byte 0: connected weights are read "
            f"transposed, and the original Darknet reads a {widths[Dialect.PJ]}-byte seen where "
            f"AlexeyAB's reads {widths[Dialect.AB]} bytes ({report.dialect.value}: "
            f"{header.seen_bytes}, so the weights start at byte {header.size})", path,
            hint="rewrite the header as 0.2.x after transposing the connected weights",
            region=(0, header.size)))
    out += _check_writer(header, report, path)
    return out


def _check_writer(header: Header, report: WeightsReport, path: str) -> list[Diagnostic]:
    writer = _WRITERS.get((header.major, header.minor, header.revision))
    reader = Dialect.AB if report.dialect is Dialect.HANK else report.dialect
    if writer is None or writer is reader:
        return []
    sensitive = sorted({lay.type for lay in report.layers if lay.type in FORK_SENSITIVE})
    if not sensitive:
        return []
    return [diagnostic(
        "DN517", f"header version {header.version} is what {writer.label} writes, but the file "
        f"is read as {report.dialect.value}, and the layout of "
        f"{', '.join('[' + t + ']' for t in sensitive)} differs between the forks", path,
        hint=f"check with --dialect {writer.value} if the file comes from that fork",
        region=(0, 12))]


def _check_size(
    report: WeightsReport,
    header: Header,
    size: int,
    path: str,
    alternatives: tuple[WeightsReport, ...],
) -> list[Diagnostic]:
    if not report.loadable:
        return _unknown_layer_crashes(report, path)  # no size can be right
    payload = size - header.size
    expected = report.expected_payload
    if payload == expected:
        return []
    causes = likely_causes(report, header, payload, alternatives)
    hint = "; ".join(causes) if causes else None
    if payload > expected:
        surplus = payload - expected
        return [diagnostic(
            "DN516", f"{size:,} bytes, but load_weights reads {header.size + expected:,} "
            f"({report.dialect.value}, {header.size}-byte header): {_amount(surplus)} left over "
            f"from byte {header.size + expected:,}" + _hank_surplus(report, header.size + expected,
                                                                   size), path,
            hint=hint or "were these weights trained with this very cfg (same layers, filters, "
            "classes)?", region=(header.size + expected, surplus))]
    return [_short_file(report, payload, size, path, hint)]


def _short_file(
    report: WeightsReport, payload: int, size: int, path: str, hint: str | None
) -> Diagnostic:
    hank = Severity.ERROR if report.dialect is Dialect.HANK else None
    if payload == 0:  # no backbone is empty: the save or the copy stopped after the header
        return diagnostic(
            "DN514", f"the file has only its {size}-byte header and no weights: load_weights "
            f"reads {_amount(report.expected_payload)} after it", path,
            hint="the file is empty or truncated: download or copy it again")
    loaded = [lay for lay in report.layers if lay.loaded_floats]
    covered = [lay for lay in loaded if _end(lay) <= payload]
    if any(_end(lay) == payload for lay in loaded):
        rest = loaded[len(covered):]
        end = f"layer {covered[-1].index} (line {covered[-1].line})"
        fate = (_hank_short_read(rest[0].loaded[0].floats, 0)[2:] if hank and rest
                else f"the weights of {_span(rest)} stay random")
        return diagnostic(
            "DN515", f"{size:,} bytes end exactly after {end}: a partial file (a pretrained "
            f"backbone) with the weights of {_span(covered)}; {fate} "
            f"({_amount(report.expected_payload - payload)} missing)", path,
            hint=hint or ("use the complete file: hank-ai's load_weights reads only whole ones"
                          if hank else
                          "fine to start training from; for inference use the complete file"),
            severity=hank, region=(size, 0))
    inside = next(lay for lay in loaded if _start(lay) <= payload < _end(lay))
    block, missing_in_block = _block_at(inside, payload - _start(inside))
    return diagnostic(
        "DN514", f"the file ends at byte {size:,}, inside layer {inside.index} "
        f"[{inside.section}] (line {inside.line}), in its {block!r} block: "
        f"{_floats(_end(inside) - payload)} of the layer are missing "
        f"({missing_in_block} in that block), {_amount(report.expected_payload - payload)} in all"
        + (_hank_short_read(*_block_read(inside, payload - _start(inside))) if hank else ""),
        path, hint=hint or "the file is truncated: download or copy it again", severity=hank,
        region=(size - payload + _start(inside), payload - _start(inside)))


def _hank_surplus(report: WeightsReport, position: int, size: int) -> str:
    """hank-ai's load_weights_upto compares ftell with the file size after the last layer."""
    if report.dialect is not Dialect.HANK:
        return ""
    return (f"; hank-ai's Darknet refuses the file: 'weights file is larger than expected' "
            f"(pos={position}, filesize={size})")


def _hank_short_read(wanted: int, got: int) -> str:
    """hank-ai's xfread stops at the first block it cannot read whole."""
    return (f"; hank-ai's Darknet refuses the file: 'expected to read {wanted} fields, but only "
            f"read {got}'")


def _block_read(lay: LayerLayout, offset: int) -> tuple[int, int]:
    """(floats the block at ``offset`` asks for, whole floats the file still has for it)."""
    at = 0
    for block in lay.loaded:
        if offset < at + FLOAT * block.floats:
            return block.floats, (offset - at) // FLOAT
        at += FLOAT * block.floats
    return lay.loaded[-1].floats, lay.loaded[-1].floats


def _start(lay: LayerLayout) -> int:
    return lay.load_offset - WRITTEN_HEADER_BYTES


def _end(lay: LayerLayout) -> int:
    return lay.load_end - WRITTEN_HEADER_BYTES


def _block_at(lay: LayerLayout, offset: int) -> tuple[str, str]:
    at = 0
    for block in lay.loaded:
        at += FLOAT * block.floats
        if offset < at:
            return block.name, _floats(at - offset)
    return lay.loaded[-1].name, "0 floats"


def _floats(nbytes: int) -> str:
    whole, part = divmod(nbytes, FLOAT)
    return f"{whole:,} float{'s' if whole != 1 else ''}" + (f" and {part} bytes" if part else "")


def _amount(nbytes: int) -> str:
    return f"{nbytes:,} bytes ({_floats(nbytes)})"


def _span(layers: list[LayerLayout]) -> str:
    if not layers:
        return "no layers"
    if len(layers) == 1:
        return f"layer {layers[0].index}"
    return f"{len(layers)} layers ({layers[0].index}-{layers[-1].index})"


# --- why a size is off ----------------------------------------------------------------------
def likely_causes(
    report: WeightsReport,
    header: Header,
    payload: int,
    alternatives: tuple[WeightsReport, ...] = (),
) -> list[str]:
    """Explanations that account for the size difference exactly."""
    delta = payload - report.expected_payload
    causes = []
    if report.saved_payload != report.expected_payload and payload == report.saved_payload:
        causes.append("the file is exactly what save_weights writes for this cfg; the loader "
                      "reads less because of " + "; ".join(report.differences()))
    causes += _seen_cause(report, header, delta)
    causes += [f"the file fits this cfg as {alt.dialect.value} exactly ({alt.expected_bytes:,} "
               "bytes with a 20-byte header): choose that dialect with --dialect"
               for alt in alternatives
               if alt.loadable and alt.expected_payload == payload]
    if delta % FLOAT == 0:
        causes += _classes_cause(report, delta // FLOAT) or _filters_cause(report, delta // FLOAT)
    return causes


def _seen_cause(report: WeightsReport, header: Header, delta: int) -> list[str]:
    other = 12 - header.seen_bytes  # 4 <-> 8
    # a 4-byte reading of an 8-byte seen leaves 4 bytes in front of the floats, and back
    if delta != other - header.seen_bytes:
        return []
    return [f"the header (version {header.version}) makes {report.dialect.value} read a "
            f"{header.seen_bytes}-byte seen, but the layers fit exactly after a {other}-byte "
            "one: the version in the header does not match the writer"]


def _classes_cause(report: WeightsReport, delta: int) -> list[str]:
    """Does a different ``classes`` in every detection head account for ``delta`` floats?"""
    per_class, classes = 0, set()
    layers = report.layers
    for position, lay in enumerate(layers):
        if lay.type.lower() not in _HEADS or position == 0:
            continue
        anchors, head_classes = _head_shape(lay)
        per_filter = _per_filter(layers[position - 1])
        if anchors is None or per_filter is None:
            return []
        per_class += anchors * per_filter
        classes.add(head_classes)
    if not per_class or len(classes) != 1 or delta % per_class:
        return []
    (current,) = classes
    fitted = current + delta // per_class
    if fitted < 1:
        return []
    return [f"the file fits classes={fitted} in every detection head (this cfg has "
            f"classes={current}): the cfg was edited for a different dataset, or the file was "
            "trained for another one"]


def _filters_cause(report: WeightsReport, delta: int) -> list[str]:
    """Does a different filter/output count of the last layer with weights account for it?"""
    loaded = [lay for lay in report.layers if lay.loaded_floats]
    if not loaded:
        return []
    last = loaded[-1]
    per_filter = _per_filter(last)
    count = _filters(last)
    if per_filter is None or count is None or delta % per_filter:
        return []
    fitted = count + delta // per_filter
    if fitted < 1:
        return []
    key = "filters" if last.type == "convolutional" else "output"
    return [f"the file fits {key}={fitted} in layer {last.index} (line {last.line}; the cfg has "
            f"{key}={count}), the last layer with weights: a classifier trained for "
            "another number of classes?"]


def _head_shape(lay: LayerLayout) -> tuple[int | None, int]:
    values = lay.values
    if values is None:
        return None, 0
    classes = values.int("classes")
    if lay.type.lower() == "region":
        return values.int("num"), classes
    mask = values.list("mask")
    return (len(mask) if mask else values.int("num")), classes


def _filters(lay: LayerLayout) -> int | None:
    values = lay.values
    if values is None:
        return None
    if lay.type == "convolutional":
        return values.int("filters")
    if lay.type == "connected":
        return values.int("output")
    return None


def _per_filter(lay: LayerLayout) -> int | None:
    """Floats per output filter, for convolutional and connected layers without numload."""
    count = _filters(lay)
    if not count or not lay.loaded_floats or lay.loaded_floats % count or lay.notes:
        return None
    return lay.loaded_floats // count

