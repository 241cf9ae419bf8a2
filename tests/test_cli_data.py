"""--data obj.data through the command line, and where weights findings say they belong."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from dnlint.cli import main

EXAMPLE = str(FIXTURES / "examples" / "tiny-detector.cfg")


def test_data_file_classes_against_every_head(tmp_path: Path) -> None:
    names = tmp_path / "obj.names"
    names.write_text("cat\ndog\nbird\n")
    data = tmp_path / "obj.data"
    data.write_text(f"classes=2\nnames={names}\n")
    result = CliRunner().invoke(main, ["--format", "concise", "--data", str(data), EXAMPLE])
    assert result.exit_code == 1
    lines = [line.split(": ", 2)[:2] for line in result.output.splitlines()[:-1]]
    # the same finding in both heads prints once in the text formats
    assert lines == [[f"{EXAMPLE}:95:9", "DN412 error"]]
    assert result.output.splitlines()[0].endswith("(and 1 more: line 137)")
    records = CliRunner().invoke(main, ["--format", "json", "--data", str(data), EXAMPLE])
    files = json.loads(records.output)["files"]
    # the .data file is an input of its own (checked first, and clean here)
    assert [(entry["path"], entry["diagnostics"]) for entry in files[:1]] == [(str(data), [])]
    found = files[1]["diagnostics"]
    assert [(d["code"], d["line"]) for d in found] == [("DN412", 95), ("DN412", 137)]


def test_matching_data_file_passes(tmp_path: Path) -> None:
    names = tmp_path / "obj.names"
    names.write_text("cat\ndog\nbird\n")
    data = tmp_path / "obj.data"
    data.write_text(f"classes=3\nnames={names}\n")
    result = CliRunner().invoke(main, ["--format", "concise", "--data", str(data), EXAMPLE])
    assert result.exit_code == 0, result.output


def test_missing_data_file_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--data", str(tmp_path / "none.data"), EXAMPLE])
    assert result.exit_code == 2


def test_json_names_the_weights_file_of_a_weights_finding(tmp_path: Path) -> None:
    weights = tmp_path / "tiny-detector.weights"
    weights.write_bytes(b"\0" * 64)
    result = CliRunner().invoke(main, ["--format", "json", EXAMPLE, "--weights", str(weights)])
    document = json.loads(result.output)
    entry = document["files"][0]
    assert entry["weights"]["expected_bytes"] == 3_244_692
    found = [d for d in entry["diagnostics"] if d["code"].startswith("DN5")]
    assert found and all(d["path"] == str(weights) for d in found)
    assert result.exit_code == 1


def test_json_has_the_prediction_without_a_weights_file_with_layers() -> None:
    result = CliRunner().invoke(main, ["--format", "json", "--layers", EXAMPLE])
    entry = json.loads(result.output)["files"][0]
    assert entry["weights"]["expected_bytes"] == entry["weights"]["saved_bytes"] == 3_244_692
    assert entry["weights"]["path"] is None and entry["weights"]["header"] is None
    assert sum(layer["params"] for layer in entry["layers"]) * 4 + 20 == 3_244_692


def test_weights_alone_follow_the_configured_dialect(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """[batchnorm] stores 3*c floats in the original: the config's dialect decides the size."""
    (tmp_path / ".dnlint.toml").write_text('dialect = "pjreddie"\n')
    (tmp_path / "m.cfg").write_text("[net]\nwidth=8\nheight=8\nchannels=3\n[batchnorm]\n")
    (tmp_path / "m.weights").write_bytes(struct.pack("<iiiQ", 0, 2, 0, 0) + b"\0" * 4 * 9)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--format", "json", "m.weights"])
    entry = json.loads(result.output)["files"][0]
    assert (entry["dialect"], entry["weights"]["expected_bytes"]) == ("pjreddie", 56)
    assert result.exit_code == 0, result.output


# --- hostile .data and names files: capped like a cfg, never read whole -------------------------

def _data_findings(data: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["--format", "concise", "--data", str(data), EXAMPLE])
    return result.exit_code, [line.split(": ", 1)[1] for line in result.output.splitlines()[:-1]]


def test_a_gigabyte_data_file_is_not_read(tmp_path: Path) -> None:
    data = tmp_path / "huge.data"
    with data.open("wb") as stream:
        stream.truncate(1 << 30)  # sparse: costs no disk, and reading it whole cost 1 GB
    code, lines = _data_findings(data)
    assert (code, lines) == (1, ["DN414 error: cannot read the data file: "
                                 "1,073,741,824 bytes, more than the 256 MiB limit"])


def test_a_gigabyte_names_file_is_not_read(tmp_path: Path) -> None:
    names = tmp_path / "huge.names"
    with names.open("wb") as stream:
        stream.truncate(1 << 30)
    data = tmp_path / "obj.data"
    data.write_text(f"classes=2\nnames={names}\n")
    code, lines = _data_findings(data)
    assert lines[0] == ("DN414 error: cannot read the names file: 1,073,741,824 bytes, "
                        "more than the 256 MiB limit")
    assert code == 1


def test_a_names_file_that_is_a_fifo_is_not_waited_on(tmp_path: Path) -> None:
    import os

    from dnlint.checks.data import count_names

    fifo = tmp_path / "obj.names"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        count_names(fifo)


@pytest.mark.parametrize(("text", "expected"), [
    (b"", (0, 0)), (b"\n", (1, 1)), (b"a", (1, 0)), (b"a\n", (1, 0)), (b"a\n\nb", (3, 1)),
    (b"a\r\n \t\r\nb\n", (3, 1)), (b"x" * 3_000_000 + b"\n" + b" " * 2_500_000, (2, 1)),
])
def test_names_are_counted_as_get_labels_does(tmp_path: Path, text: bytes,
                                              expected: tuple[int, int]) -> None:
    from dnlint.checks.data import count_names

    path = tmp_path / "obj.names"
    path.write_bytes(text)
    found = count_names(path)
    assert (found.names, found.blank) == expected


def _get_labels(data: bytes) -> tuple[int, int, int, list[int]]:
    """get_labels written plainly, one fgetl line at a time: (names, blank lines, lines that
    end with \\r, the first 11 blank lines)."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    blank = [n for n, line in enumerate(lines, start=1) if not line.strip()]
    return (len(lines), len(blank), sum(line.endswith(b"\r") for line in lines), blank[:11])


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from([b"cat", b"", b" ", b"\t\r", b"\r", b"dog\r", b"a b",
                                 b"\x0b", b"x" * 70]), max_size=60),
       st.integers(1, 64), st.booleans())
def test_names_are_counted_in_blocks_as_line_by_line(lines: list[bytes], block: int,
                                                     newline_at_end: bool) -> None:
    """Blocks of any size (down to one byte) count as a line-by-line reading does."""
    import tempfile

    from dnlint.checks import data as module

    text = b"\n".join(lines) + (b"\n" if newline_at_end and lines else b"")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "obj.names"
        path.write_bytes(text)
        saved, module.BLOCK_BYTES = module.BLOCK_BYTES, block
        try:
            found = module.count_names(path, 11)
        finally:
            module.BLOCK_BYTES = saved
    assert (found.names, found.blank, found.crlf, found.first_blank) == _get_labels(text)


def test_the_data_cap_is_the_cfg_cap() -> None:
    from dnlint.checks.data import MAX_DATA_BYTES
    from dnlint.read import MAX_CFG_BYTES

    assert MAX_DATA_BYTES == MAX_CFG_BYTES == 256 * 1024 * 1024


def _read_data_cfg(data: bytes) -> dict[str, tuple[str, int]]:
    """read_data_cfg written plainly, one line at a time (the model read_data_file must
    equal): every whitespace character removed, comments skipped, the first key with a value
    wins; the value gets a \\r mark when its raw line ends in one."""
    from dnlint.checks.data import DATA_KEYS

    options: dict[str, tuple[str, int]] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        line = raw.translate(None, b" \t\r")
        if not line or line[:1] in (b"#", b";") or b"=" not in line:
            continue
        key, value = line.decode("utf-8", "surrogateescape").split("=", 1)
        if key in DATA_KEYS and value and key not in options:
            options[key] = (value + ("\r" if raw.endswith(b"\r") else ""), number)
    return options


_DATA_LINES = [b"classes=2", b"train=data/train.txt", b"valid = data/v.txt", b"names=",
               b"#names=x", b";backup=b", b"  na mes =o bj.names  ", b"backup=\tbackup/\r",
               b"train=other", b"classes", b"= 3", b"k=v", b"", b"\r", b"names=\xff\xfe",
               b"x" * 300, b"backup=" + b"y" * 300, b"train=t\r  ", b"cla\rsses=4"]


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(_DATA_LINES), max_size=40), st.integers(1, 64),
       st.booleans())
def test_the_data_file_is_read_as_read_data_cfg_reads_it(
        lines: list[bytes], block: int, newline_at_end: bool) -> None:
    """Blocks of any size (down to one byte, so every line straddles them) give what a
    line-by-line reading gives, line numbers and CRLF marks included."""
    import tempfile

    from dnlint.checks import data as module

    text = b"\n".join(lines) + (b"\n" if newline_at_end else b"")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "obj.data"
        path.write_bytes(text)
        saved, module.BLOCK_BYTES = module.BLOCK_BYTES, block
        try:
            read = module.read_data_file(path)
        finally:
            module.BLOCK_BYTES = saved
    got = {key: (value + ("\r" if line in read.crlf_lines else ""), line)
           for key, (value, line) in read.options.items()}
    assert got == _read_data_cfg(text)


def test_a_large_data_file_is_read_without_an_object_per_line(tmp_path: Path) -> None:
    """4 MB of one-key lines (1 GB for 40 MB when each line was a string): Python's
    allocations while reading stay below the file's size."""
    import tracemalloc

    from dnlint.checks.data import read_data_file

    path = tmp_path / "obj.data"
    body = b"".join(b"k%d=v\n" % i for i in range(500_000))
    path.write_bytes(body + b"names=" + b"n" * 100_000 + b"\ntrain=t\r\n")
    tracemalloc.start()
    try:
        read = read_data_file(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert read.options == {"names": ("n" * 100_000, 500_001), "train": ("t", 500_002)}
    assert read.crlf_lines == {500_002}
    assert peak < len(body) // 4, peak
