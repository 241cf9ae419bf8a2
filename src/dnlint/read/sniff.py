"""Recognise files that are neither Darknet weights nor cfgs, from their first bytes.

Used by the weights check (a zip renamed .weights) and by the readers (:func:`sniff_fatal`: a
binary, an empty file, UTF-16, HTML or a Git LFS pointer passed as cfg).

A Darknet file starts with three small little-endian int32, so its first bytes are mostly zero:
none of the signatures below can be a plausible Darknet header, and a text file cannot either.
"""

from __future__ import annotations

from dnlint.close_match import close_match
from dnlint.read.document import LexFinding

SNIFF_BYTES = 1024
_HTML_MARKERS = (b"<!doctype", b"<html", b"<?xml", b"<head", b"<body")
_LFS_MARKER = b"version https://git-lfs"
_BLANKS = b" \t\r\n"
_BLANK_START = frozenset(_BLANKS)
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 13))

# (prefix, what it is, what to do)
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"version https://git-lfs", "a Git LFS pointer, not the weights",
     "run 'git lfs pull' (or download the file itself)"),
    (b"\x89HDF\r\n\x1a\n", "an HDF5 file (Keras .h5?)", "convert it to Darknet weights first"),
    (b"\x93NUMPY", "a NumPy .npy array", "Darknet weights have no array header"),
    (b"\x1f\x8b", "a gzip archive", "decompress it first"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "extract it first"),
    (b"Rar!\x1a\x07", "a RAR archive", "extract it first"),
    (b"BZh", "a bzip2 archive", "decompress it first"),
    (b"\xfd7zXZ\x00", "an xz archive", "decompress it first"),
    (b"\x28\xb5\x2f\xfd", "a zstd archive", "decompress it first"),
    (b"%PDF", "a PDF document", "download the weights themselves"),
)


def identify(head: bytes) -> tuple[str, str] | None:
    """(what the file is, what to do) when ``head`` is clearly not a Darknet header."""
    for magic, what, hint in _MAGIC:
        if head.startswith(magic):
            return what, hint
    found = _zip(head) or _pickle(head) or _onnx(head) or _safetensors(head) or _tflite(head)
    return found or _text(head)


def _zip(head: bytes) -> tuple[str, str] | None:
    if not head.startswith(b"PK\x03\x04"):
        return None
    name_len = int.from_bytes(head[26:28], "little")
    name = head[30 : 30 + name_len]
    if name.endswith(b".pkl") or b"/data/" in name or b"archive/" in name:
        return "a PyTorch checkpoint (zip archive)", "export it to Darknet weights first"
    return "a zip archive", "extract it first"


def _pickle(head: bytes) -> tuple[str, str] | None:
    # torch.save's legacy format and plain pickles start with PROTO (0x80) and a version 2..5.
    if len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5:
        return "a Python pickle (a legacy PyTorch checkpoint?)", "export it to Darknet weights"
    return None


def _onnx(head: bytes) -> tuple[str, str] | None:
    # ModelProto: field 1 ir_version (varint, tag 0x08), then producer_name (tag 0x12) or
    # similar. A Darknet header never starts with 0x08 followed by a small version and 0x12/0x1a.
    if len(head) >= 4 and head[0] == 0x08 and head[1] < 0x20 and head[2] in (0x12, 0x1A, 0x3A):
        return "an ONNX model", "convert it to Darknet weights first"
    return None


def _safetensors(head: bytes) -> tuple[str, str] | None:
    if len(head) >= 10 and head[8:10] == b'{"':
        return "a safetensors file", "convert it to Darknet weights first"
    return None


def _tflite(head: bytes) -> tuple[str, str] | None:
    if head[4:8] == b"TFL3":
        return "a TensorFlow Lite model", "convert it to Darknet weights first"
    return None


def _text(head: bytes) -> tuple[str, str] | None:
    sample = head[:SNIFF_BYTES]
    if len(sample) < 12 or b"\x00" in sample:
        return None
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError:
        # a multi-byte character cut at the end of the sample is still text
        try:
            text = sample[:-3].decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not all(ch.isprintable() or ch in "\r\n\t" for ch in text):
        return None
    lowered = text.lstrip().lower()
    if lowered.startswith(("<!doctype html", "<html", "<?xml", "<head")) or "<html" in lowered:
        return ("an HTML page (a login or download page saved instead of the file?)",
                "download the file itself, e.g. with the direct link")
    if lowered.startswith("[net]") or lowered.startswith("[network]") or "\n[net]" in lowered:
        return "a Darknet .cfg file, not weights", "pass it with --cfg"
    if lowered.startswith("{") or lowered.startswith("["):
        return "a JSON or text file", "download the weights themselves"
    return "a text file", "download the weights themselves"


# Every section name a Darknet of any dialect reads ([net] and [network] too); a test keeps it
# equal to the layer registry's (a walk must not import every layer module to sniff a file).
DARKNET_SECTIONS = frozenset({
    "net", "network", "Gaussian_yolo", "activation", "avg", "avgpool", "batchnorm", "conn",
    "connected", "contrastive", "conv", "conv_lstm", "convolutional", "cost", "crnn", "crop",
    "deconv", "deconvolutional", "detection", "dropout", "empty", "gru", "history", "implicit",
    "iseg", "l2norm", "local", "local_avg", "local_avgpool", "logistic", "lrn", "lstm", "max",
    "maxpool", "normalization", "region", "reorg", "reorg3d", "rnn", "route", "sam",
    "scale_channels", "shortcut", "silence", "soft", "softmax", "upsample", "yolo",
})
_LOWER_SECTIONS = tuple(sorted(name.lower() for name in DARKNET_SECTIONS))
MAX_SECTIONS_SNIFFED = 64  # distinct section names a sniff compares, at most


def foreign_sections(text: bytes) -> list[str] | None:
    """The section names of an INI file that is clearly not a Darknet cfg (``setup.cfg``'s
    ``[metadata]``, ``[flake8]``, ``.bumpversion.cfg``'s ``[bumpversion]``), or None.

    Clearly: it has sections and none of them is one of Darknet's, in any case, nor close to
    one (``[convolutionl]``, ``[Net]``, ``[yolo ]``): a Darknet cfg with a typo is never taken
    for a foreign file. A file without any section is not clearly foreign either."""
    names: list[str] = []
    start = 0
    while start < len(text):
        # text.splitlines() a line at a time: a cfg's first section ends the sniff, and the
        # split of the whole head cost more than the rest of it. Cut at each '\n', then as
        # splitlines cuts (a lone '\r'); the blank lines this drops start no section.
        stop = text.find(b"\n", start)
        if stop < 0:
            stop = len(text)
        for raw in text[start:stop].splitlines():
            line = raw.strip().lstrip(b"\xef\xbb\xbf")
            if not line.startswith(b"["):
                continue
            name = line[1:].split(b"]", 1)[0].strip().decode("utf-8", "replace")
            if name not in names:
                names.append(name)
                if _darknet_like(name):
                    return None
                if len(names) >= MAX_SECTIONS_SNIFFED:
                    return names
        start = stop + 1
    return names or None


def _darknet_like(name: str) -> bool:
    lower = name.lower().replace(" ", "").replace("\t", "")
    if lower in _LOWER_SECTIONS or not lower:
        return True
    return close_match(lower, _LOWER_SECTIONS, cutoff=0.75) is not None


def _all_blank(data: bytes) -> bool:
    """Whether ``data`` holds only spaces, tabs, CRs and LFs, looked at a growing slice at a
    time: strip() copies the whole file, and a regex imports re and enum (5 ms, in every run
    of a file that starts with a blank line)."""
    start, step = 0, 256
    while start < len(data):
        if data[start:start + step].strip(_BLANKS):
            return False
        start += step
        step = min(step * 4, 1 << 20)
    return True


def sniff_fatal(data: bytes, findings: list[LexFinding]) -> bool:
    """Recognise inputs that are not a cfg at all; report them once and stop."""
    if not data or (data[0] in _BLANK_START and _all_blank(data)):
        findings.append(LexFinding("DN001", 1, 1, "file is empty", None))
        return True
    # UTF-32's byte-order marks (little-endian's begins as UTF-16's does)
    utf32 = data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
    if utf32 or data[:2] in (b"\xff\xfe", b"\xfe\xff") or _looks_utf16(data):
        wide = ("UTF-32", "three NULs beside") if utf32 else ("UTF-16", "NUL after")
        findings.append(
            LexFinding(
                "DN015",
                1,
                1,
                f"file is {wide[0]} encoded; Darknet reads bytes and sees {wide[1]} every "
                "character",
                "re-save the file as UTF-8 (or ASCII)",
            )
        )
        return True
    head = data[:4096].lstrip().lower()
    if head.startswith(_LFS_MARKER):
        findings.append(
            LexFinding(
                "DN018",
                1,
                1,
                "file is a Git LFS pointer, not a cfg: the real file was never downloaded",
                "run 'git lfs pull' to fetch the content",
            )
        )
        return True
    if head.startswith(_HTML_MARKERS):
        findings.append(
            LexFinding(
                "DN018",
                1,
                1,
                "file is an HTML/XML page, not a cfg (a web page saved instead of the raw file?)",
                "download the raw file (on GitHub: the 'Raw' button)",
            )
        )
        return True
    if _looks_binary(data[:4096]):
        known = identify(data[:SNIFF_BYTES])
        what = ("a Darknet .weights file" if _looks_like_weights(data)
                else known[0] if known else "binary data")
        findings.append(
            LexFinding("DN023", 1, 1, f"file is {what}, not a text cfg", None)
        )
        return True
    return False


def _looks_utf16(data: bytes) -> bool:
    sample = data[:512]
    if len(sample) < 8:
        return False
    odd_nuls = sample[1::2].count(0)
    even_nuls = sample[0::2].count(0)
    half = len(sample) // 2
    return max(odd_nuls, even_nuls) > 0.8 * half and min(odd_nuls, even_nuls) < 0.1 * half


def _looks_binary(sample: bytes) -> bool:
    control = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return control > max(8, len(sample) // 20)


def _looks_like_weights(data: bytes) -> bool:
    if len(data) < 16:
        return False
    major, minor = (int.from_bytes(data[i : i + 4], "little") for i in (0, 4))
    return major in (0, 1) and minor < 1100
