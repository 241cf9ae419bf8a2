"""Bad input of any kind gives diagnostics (exit 1) or a one-line error (exit 2): never a
traceback, never a hang, never an error without a line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from dnlint.clean import clipped
from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.lint import FileResult, lint_cfg_bytes
from dnlint.run.inputs import is_weights_path
from dnlint.settings.policy import Policy, apply_policy, selection_for

SEEDS = sorted((FIXTURES / "examples").glob("*.cfg")) + sorted((FIXTURES / "rules").glob("*.cfg"))
SEED_TEXTS = [p.read_bytes() for p in SEEDS if p.read_bytes().isascii()]
NASTY_NUMBERS = ["0", "-1", "2147483648", "-2147483649", "1e309", "", "x", "1.5", "99999999999",
                 "0x10", "nan", "-", ",", "1,,2", "3,"]
SECTION_NAMES = ["net", "convolutional", "route", "shortcut", "yolo", "maxpool", "upsample",
                 "connected", "rnn", "crnn", "lstm", "gru", "region", "reorg", "softmax", "cost",
                 "dropout", "batchnorm", "sam", "scale_channels", "Gaussian_yolo", "deconv",
                 "local", "crop", "detection", "implicit", "conv_lstm", "history", "avgpool"]


def check_result(result: FileResult) -> None:
    for d in result.diagnostics:
        assert d.code != "DN000", d.message  # an internal failure is a bug, even if caught
        if d.severity is Severity.ERROR:
            assert d.line is not None and d.line >= 1, d


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(st.binary(max_size=2048), st.sampled_from([Dialect.PJ, Dialect.AB, Dialect.HANK, None]))
def test_arbitrary_bytes_never_raise(data: bytes, dialect: Dialect | None) -> None:
    check_result(lint_cfg_bytes(data, "fuzz.cfg", dialect))


def _mutate(lines: list[bytes], ops: list[tuple[int, int, int]]) -> list[bytes]:
    for op, a, b in ops:
        if not lines:
            break
        i, j = a % len(lines), b % len(lines)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[j])
        elif op == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and b"=" in lines[i]:
            key = lines[i].split(b"=", 1)[0]
            lines[i] = key + b"=" + NASTY_NUMBERS[b % len(NASTY_NUMBERS)].encode()
        elif op == 4 and lines[i].startswith(b"["):
            lines[i] = b"[" + SECTION_NAMES[b % len(SECTION_NAMES)].encode() + b"]"
        elif op == 5:
            lines.insert(i, b"[" + SECTION_NAMES[b % len(SECTION_NAMES)].encode() + b"]")
        elif op == 6 and b"=" in lines[i]:
            lines[i] = lines[i] + b",,"
    return lines


@FUZZ
@given(
    st.sampled_from(range(len(SEED_TEXTS))),
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 10**6), st.integers(0, 10**6)),
             max_size=12),
    st.sampled_from([Dialect.PJ, Dialect.AB, Dialect.HANK]),
)
def test_mutated_cfgs_never_raise(seed: int, ops: list[tuple[int, int, int]],
                                  dialect: Dialect) -> None:
    lines = _mutate(SEED_TEXTS[seed].split(b"\n"), ops)
    check_result(lint_cfg_bytes(b"\n".join(lines), "mutant.cfg", dialect))


def test_hundred_thousand_sections() -> None:
    body = b"[net]\nwidth=8\nheight=8\nchannels=3\n" + b"[activation]\nactivation=relu\n" * 100_000
    result = lint_cfg_bytes(body, "big.cfg", Dialect.AB)
    assert result.network is not None and len(result.network.layers) == 100_000
    check_result(result)


def test_megabyte_line() -> None:
    body = b"[net]\nwidth=8\nheight=8\nchannels=3\n[route]\nlayers=" + b"-1," * 350_000 + b"-1\n"
    result = lint_cfg_bytes(body, "long.cfg", Dialect.AB)
    check_result(result)


NET = b"[net]\nwidth=8\nheight=8\nchannels=3\nbatch=1\n"  # the adversarial line is line 6
CONV = b"[convolutional]\nfilters=2\n"
BACKTRACKING = [
    # each once made a regex backtrack: exponentially (spaced commas before a '#'), or
    # quadratically (a long run of digits that is not a number; a long gap in a directive)
    pytest.param(NET + b"subdivisions=" + b" ," * 5_000 + b"#\n" + CONV,
                 [("DN101", 6), ("DN203", 6)], id="spaced-commas-then-hash"),
    pytest.param(NET + b"subdivisions=" + b"1" * 300_000 + b"x\n" + CONV,
                 [("DN101", 6), ("DN204", 6)], id="long-digit-run-with-garbage"),
    pytest.param(NET + b"# dnlint: disable=DN101" + b" " * 300_000 + b"x\n" + CONV,
                 [("DN902", 6)],
                 id="long-gap-in-a-directive"),
]


@pytest.mark.parametrize(("body", "expected"), BACKTRACKING)
def test_adversarial_lines_are_linear(body: bytes, expected: list[tuple[str, int]]) -> None:
    """These finish in milliseconds; with the old patterns each ran for hours."""
    result = lint_cfg_bytes(body, "slow.cfg", Dialect.AB)
    apply_policy(result, selection_for("slow.cfg", Policy(), None))  # reads the directives
    check_result(result)
    assert [(d.code, d.line) for d in result.diagnostics] == expected


HOSTILE_VALUES = ["nan", "-nan", "inf", "-inf", "1e309", "-1e309", "1" * 5000, "-" + "1" * 5000,
                  "1" * 5000 + "x", "0x" + "f" * 5000, "1," * 3000 + "1"]


def _hostile_cases() -> list[tuple[Dialect, str, str]]:
    """Every option of every section type in every dialect that has it: (dialect, header, key)."""
    from dnlint.network.layers import all_types
    from dnlint.options.net_section import NET_OPTIONS

    cases = [(d, "net", o.name) for o in NET_OPTIONS for d in sorted(o.dialects)]
    for layer_type in all_types():
        for dialect, names in sorted(layer_type.sections.items()):
            cases += [(dialect, names[0], key) for key in sorted({o.name for o in
                                                                  layer_type.options})]
    return cases


def test_every_option_survives_hostile_values() -> None:
    """nan, inf, 5000-digit numbers (int() refuses them), long lists: in every option of every
    section type, each is a diagnostic at most, never an internal failure (DN000)."""
    failures = []
    for dialect, header, key in _hostile_cases():
        for value in HOSTILE_VALUES:
            line = f"{key}={value}\n"
            net = "[net]\nwidth=32\nheight=32\nchannels=3\nbatch=1\n"
            conv = "[convolutional]\nfilters=8\nsize=1\n"
            text = net + line + conv if header == "net" else net + conv + f"[{header}]\n" + line
            try:
                result = lint_cfg_bytes(text.encode(), "hostile.cfg", dialect)
                assert result.weights is not None or result.network is None
                check_result(result)
            except Exception as exc:  # collected, so one run names every failing case
                failures.append(f"{dialect.value} [{header}] {key}={value[:12]}: {exc!r}"[:200])
    assert failures == []


def test_deep_route_chain() -> None:
    chain = b"[route]\nlayers=-1\n" * 20_000
    body = b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n" + chain
    result = lint_cfg_bytes(body, "chain.cfg", Dialect.AB)
    assert result.network is not None and result.network.layers[-1].output == (8, 8, 2)
    check_result(result)


def test_huge_numbers_do_not_allocate() -> None:
    body = (b"[net]\nwidth=2000000000\nheight=2000000000\nchannels=2000000000\n"
            b"[convolutional]\nfilters=2000000000\nsize=1\n[connected]\noutput=2000000000\n")
    result = lint_cfg_bytes(body, "huge.cfg", Dialect.AB)
    assert "DN312" in {d.code for d in result.diagnostics}
    check_result(result)


DOUBLING = (b"[net]\nwidth=8\nheight=8\nchannels=3\n\n[convolutional]\nfilters=4\nsize=1\n"
            b"activation=linear\n" + b"\n[route]\nlayers=-1,-1\n" * 15000
            + b"\n[convolutional]\nfilters=4\nsize=1\nactivation=linear\n")


def test_a_size_that_doubles_stops_the_build_at_its_first_overflow() -> None:
    """Each route doubles the channels: 2**15000 once had 4,516 digits, too many to format
    (DN000). The build stops at the first layer past a C int: one DN312, and the layers after
    it are not checked (DN390)."""
    result = lint_cfg_bytes(DOUBLING, "double.cfg", Dialect.AB)
    check_result(result)
    assert [(d.code, d.line, d.message) for d in result.diagnostics] == [
        ("DN312", 77, "the outputs of this layer is 2,147,483,648, more than a 32-bit C int "
                      "holds: Darknet's int arithmetic overflows; the layers after it are not "
                      "built"),
        ("DN390", 77, "layers 24–15001 not checked: they depend on layer 23 ([route], line 77)")]
    network = result.network
    assert network is not None and network.overflowed and len(network.layers) == 15002
    assert max(max(layer.output) for layer in network.layers) == 2**25  # 4 * 2**23 channels
    assert result.weights is None  # no layout for a network Darknet cannot size


def test_weights_for_an_overflowing_cfg_are_not_checked(tmp_path: Path) -> None:
    (tmp_path / "double.cfg").write_bytes(DOUBLING)
    (tmp_path / "double.weights").write_bytes(bytes(1000))
    proc = run_cli("--no-config", "--format", "concise", "--dialect", "ab",
                   str(tmp_path / "double.cfg"), "--weights", str(tmp_path / "double.weights"))
    assert proc.returncode == 1
    assert proc.stdout.decode().splitlines()[0] == (
        f"{tmp_path}/double.weights: DN518 info: not checked: a size in the cfg overflows "
        "Darknet's int (DN312), so the layout of the file cannot be predicted")


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "dnlint", "--no-color", *args],
                          capture_output=True, input=stdin, timeout=120)


def assert_one_line_error(proc: subprocess.CompletedProcess[bytes]) -> None:
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert b"Traceback" not in proc.stderr
    assert len(err.strip().splitlines()) == 1, err


def assert_unreadable(proc: subprocess.CompletedProcess[bytes], path: str, reason: str) -> None:
    """The path is reported as a DN029 finding of its own, and the run exits 2."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert b"Traceback" not in proc.stderr and proc.stderr == b""
    assert f"{path}: DN029 error: {reason}\n" in proc.stdout.decode(), proc.stdout


def test_missing_path(tmp_path: Path) -> None:
    path = str(tmp_path / "nope.cfg")
    assert_unreadable(run_cli(path), path, "no such file or directory")


def test_path_through_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    path = str(tmp_path / "f" / "model.cfg")
    assert_unreadable(run_cli(path), path, "cannot read: Not a directory")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.cfg"
    os.mkfifo(fifo)
    assert_unreadable(run_cli(str(fifo)), str(fifo), "not a regular file")


def test_device_is_refused() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    assert_unreadable(run_cli("/dev/zero"), "/dev/zero", "not a regular file")


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="root reads files whatever their mode")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.cfg"
    path.write_text("[net]\n")
    path.chmod(0)
    assert_unreadable(run_cli(str(path)), str(path), "cannot read: Permission denied")


def test_binary_file_as_cfg(tmp_path: Path) -> None:
    path = tmp_path / "model.cfg"
    path.write_bytes(bytes(range(256)) * 64)
    proc = run_cli(str(path))
    assert proc.returncode == 1 and b"DN023" in proc.stdout and not proc.stderr


def test_directory_is_walked(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = x\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.cfg").write_text("[net]\nwidth=8\nheight=8\nchannels=3\n"
                                            "[convolutional]\nfilters=2\n")
    proc = run_cli(str(tmp_path))
    assert proc.returncode == 0, proc.stdout
    assert b"setup.cfg" not in proc.stdout and b"1 file" in proc.stdout


def test_stdin(tmp_path: Path) -> None:
    proc = run_cli("-", stdin=b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolution]\n")
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("<stdin>:5:1: DN020 error")


def test_inputs_are_never_written(tmp_path: Path) -> None:
    path = tmp_path / "m.cfg"
    path.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilter=2\n")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    run_cli(str(path), "--layers", "--format", "json")
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_fifty_megabyte_cfg(tmp_path: Path) -> None:
    """A 50 MB file (a small network drowned in comments and blank options) lints in seconds."""
    path = tmp_path / "big.cfg"
    filler = b"# " + b"x" * 97 + b"\n"
    with path.open("wb") as stream:
        stream.write(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n")
        stream.write(filler * (50 * 1024 * 1024 // len(filler)))
    proc = run_cli(str(path))
    assert proc.returncode == 0, proc.stdout[-500:]
    assert not proc.stderr


def test_weights_passed_as_cfg_and_cfg_as_weights(tmp_path: Path) -> None:
    cfg = tmp_path / "m.cfg"
    cfg.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n")
    weights = tmp_path / "w.cfg"
    weights.write_bytes(b"\0\0\0\0\2\0\0\0\5\0\0\0" + b"\0" * 200)
    as_cfg = run_cli(str(weights))
    assert as_cfg.returncode == 1 and b"DN023" in as_cfg.stdout
    assert b"Darknet .weights file" in as_cfg.stdout
    as_weights = run_cli(str(cfg), "--weights", str(cfg))
    assert as_weights.returncode == 1 and b"DN513" in as_weights.stdout


def test_three_byte_weights_file(tmp_path: Path) -> None:
    cfg = tmp_path / "m.cfg"
    cfg.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n")
    (tmp_path / "m.weights").write_bytes(b"abc")
    proc = run_cli(str(tmp_path / "m.weights"))
    assert proc.returncode == 1 and b"DN510" in proc.stdout and not proc.stderr


def test_unwritable_output_file(tmp_path: Path) -> None:
    cfg = tmp_path / "m.cfg"
    cfg.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n")
    assert_one_line_error(run_cli(str(cfg), "-o", str(tmp_path / "no" / "such" / "out.txt")))


def test_config_that_is_not_utf8(tmp_path: Path) -> None:
    cfg = tmp_path / "m.cfg"
    cfg.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n")
    (tmp_path / ".dnlint.toml").write_bytes(b"dialect = \"\xff\"\n")
    assert_one_line_error(run_cli(str(cfg)))


def test_walk_reports_a_dangling_link_and_skips_a_folder_named_cfg(tmp_path: Path) -> None:
    (tmp_path / "dangling.cfg").symlink_to(tmp_path / "missing.cfg")
    (tmp_path / "folder.cfg").mkdir()
    (tmp_path / "a.cfg").write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n"
                                     b"[convolutional]\nfilters=2\n")
    proc = run_cli(str(tmp_path))
    assert_unreadable(proc, str(tmp_path / "dangling.cfg"), "dangling symbolic link")
    assert proc.stdout.endswith(b"Found 1 problem (1 error) in 2 files.\n")


def test_a_cfg_named_like_a_partial_weights_file(tmp_path: Path) -> None:
    cfg = tmp_path / "yolov4.conv.cfg"
    cfg.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n")
    proc = run_cli(str(cfg))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(("name", "weights"), [
    ("yolov4.conv.137", True), ("d/yolov4.conv.137", True), ("a.conv.1.conv.29", True),
    ("x.conv.", False), ("yolov4.conv.cfg", False), ("yolov4.conv.13a", False),
    ("m.conv.\u0663", True),  # the old '\\d' took any script's digits, as isdecimal does
    ("m.weights", True), ("m.cfg", False), ("conv.137", False),
])
def test_which_names_are_weights(name: str, weights: bool) -> None:
    assert is_weights_path(name) is weights


def test_absurd_num_allocates_nothing() -> None:
    body = (b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=25\nsize=1\n"
            b"[region]\nnum=2000000000\nclasses=20\ncoords=4\n"
            b"[yolo]\nnum=2000000000\nclasses=20\n")
    result = lint_cfg_bytes(body, "num.cfg", Dialect.AB)
    check_result(result)
    assert {"DN401", "DN404"} <= {d.code for d in result.diagnostics}


def test_control_characters_never_reach_the_terminal() -> None:
    body = b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nactivation=le\x1b[31maky\n"
    result = lint_cfg_bytes(body, "esc.cfg", Dialect.AB)
    assert [d.code for d in result.diagnostics] == ["DN207"]
    assert all(d.message.isprintable() for d in result.diagnostics)


def test_a_known_binary_passed_as_cfg_is_named() -> None:
    """The reader names what the weights check would: here a PyTorch checkpoint."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02" + bytes(3000))
    result = lint_cfg_bytes(buffer.getvalue(), "model.cfg", Dialect.AB)
    assert [(d.code, d.line) for d in result.diagnostics] == [("DN023", 1)]
    assert "a PyTorch checkpoint" in result.diagnostics[0].message


def test_clipped_cuts_long_runs_and_long_messages() -> None:
    from dnlint.clean import MAX_MESSAGE, MAX_TOKEN, clipped

    assert MAX_TOKEN == 200
    assert clipped("unknown option 'x' in [net]") == "unknown option 'x' in [net]"
    run = "a" * 80 + "b" * 41 + "c" * 80  # 201 non-blanks: one over MAX_TOKEN
    assert clipped(f"key '{run}' is bad") == (
        f"key '{'a' * 79}...(43 characters)...{'c' * 79}' is bad")
    assert clipped("x" * 200) == "x" * 200
    words = clipped("ab " * 1000)  # 3000 characters of short words: cut as a whole
    assert len(words) <= MAX_MESSAGE
    assert words == ("ab " * 1000)[:980] + "...(1,040 characters)..." + ("ab " * 1000)[-980:]


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github", "junit"])
def test_a_megabyte_key_or_section_name_is_quoted_clipped(tmp_path: Path, fmt: str) -> None:
    """The snippet was clipped, but a message quoted the whole key or section name: a 1 MB key
    gave 1 MB of report, a 1 MB section name 2 MB (DN020 and DN390 each)."""
    def report(key: bytes, section: bytes) -> bytes:
        cfg = tmp_path / "m.cfg"
        cfg.write_bytes(b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n"
                        + key + b"=1\n[" + section + b"]\n")
        proc = run_cli("--format", fmt, str(cfg))
        assert proc.returncode == 1 and proc.stderr == b""
        return proc.stdout

    short = report(b"k", b"s")
    huge = report(b"k" * 1_000_000, b"s" * 1_000_000)
    assert len(huge) - len(short) < 2_000, len(huge) - len(short)  # the two quoted runs, cut
    key = "'" + "k" * 79 + "...(999,842 characters)..." + "k" * 79 + "'"  # quotes and all
    assert f"unknown option {key} in [convolutional]".encode() in huge
    section = "[" + "s" * 79 + "...(999,843 characters)..." + "s" * 78 + "]:"
    assert f"unknown section {section}".encode() in huge


# --- OS errors on a path: DN029 for that path, the other files still linted, exit 2 -------------

CLEAN = "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\nactivation=leaky\n"


def nest(root: Path, depth: int, cfg: str | None = None) -> None:
    """root/dd/dd/... ``depth`` levels deep, made relative to directory descriptors so that the
    whole path may be longer than PATH_MAX; ``cfg`` is written at the bottom as m.cfg."""
    root.mkdir()
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("dd", dir_fd=fd)
            inner = os.open("dd", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        if cfg is not None:
            out = os.open("m.cfg", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            with os.fdopen(out, "w") as handle:
                handle.write(cfg)
    finally:
        os.close(fd)


def unnest(root: Path) -> None:
    """Remove what :func:`nest` made, bottom up, by changing into each level in turn (the
    recursive shutil.rmtree of Python < 3.12 exceeds the recursion limit at this depth)."""
    home = os.open(".", os.O_RDONLY)
    try:
        os.chdir(root)
        depth = 0
        while os.path.isdir("dd"):
            os.chdir("dd")
            depth += 1
        for _ in range(depth):
            for name in os.listdir("."):
                os.unlink(name)
            os.chdir("..")
            os.rmdir("dd")
    finally:
        os.fchdir(home)
        os.close(home)


@pytest.fixture
def deep_root(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "deep"
    if (tmp_path / "deep").exists():
        unnest(tmp_path / "deep")


def run_in(cwd: Path | str, *args: str) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "dnlint", "--no-color", *args], cwd=cwd,
                          capture_output=True, timeout=300, text=True)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="PATH_MAX of Linux")
def test_a_walk_past_path_max_is_dn029_not_dn000(tmp_path: Path, deep_root: Path) -> None:
    """The configuration search of a directory deeper than PATH_MAX (ENAMETOOLONG) was an
    internal error (DN000, exit 3)."""
    nest(deep_root, 1500, CLEAN)
    (tmp_path / "ok.cfg").write_text(CLEAN)
    code, out, err = run_in(tmp_path, "deep", "ok.cfg")
    assert (code, err) == (2, "")
    first, summary = out.splitlines()
    path, _, message = first.partition(": DN029 error: ")
    assert path.startswith("deep/dd/") and set(path.split("/")[1:]) == {"dd"}
    assert len(path) >= 4096
    config = os.path.join(tmp_path, os.path.dirname(path), ".dnlint.toml")
    assert message == clipped(f"cannot read {config}: File name too long")  # cut in the middle
    assert summary == "Found 1 problem (1 error) in 2 files."


@pytest.mark.skipif(sys.platform != "linux", reason="PATH_MAX of Linux")
@pytest.mark.parametrize("how", ["named", "walked"])
def test_a_readable_cfg_whose_configuration_path_is_too_long(tmp_path: Path, deep_root: Path,
                                                              how: str) -> None:
    """A cfg read by a short relative path whose absolute directory is longer than PATH_MAX:
    its configuration cannot be looked for, which is a DN029 of that cfg."""
    nest(deep_root, 1200 + 200, CLEAN)
    cwd = os.path.join(tmp_path, "deep", *["dd"] * 1200)
    assert len(cwd) < 4096
    (Path(cwd) / "ok.cfg").write_text(CLEAN)
    relative = os.path.join(*["dd"] * 200, "m.cfg")
    code, out, err = run_in(cwd, *([relative, "ok.cfg"] if how == "named" else ["."]))
    config = os.path.join(cwd, os.path.dirname(relative), ".dnlint.toml")
    assert (code, err) == (2, "")
    assert out == (f"{relative}: DN029 error: "
                   + clipped(f"cannot read {config}: File name too long") + "\n"
                   "Found 1 problem (1 error) in 2 files.\n")


def test_a_link_loop_named_like_a_configuration_is_dn029(tmp_path: Path) -> None:
    """ELOOP on a .dnlint.toml was taken for "no configuration here": the file's settings
    silently came from a parent."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".dnlint.toml").symlink_to(".dnlint.toml")
    (tmp_path / "sub" / "m.cfg").write_text(CLEAN)
    (tmp_path / "ok.cfg").write_text(CLEAN)
    code, out, err = run_in(tmp_path, "sub/m.cfg", "ok.cfg")
    assert (code, err) == (2, "")
    assert out == (f"sub/m.cfg: DN029 error: cannot read {tmp_path}/sub/.dnlint.toml: Too many "
                   "levels of symbolic links\nFound 1 problem (1 error) in 2 files.\n")


def test_a_link_loop_as_the_cfg_is_dn029(tmp_path: Path) -> None:
    (tmp_path / "loop.cfg").symlink_to("loop.cfg")
    (tmp_path / "ok.cfg").write_text(CLEAN)
    for args, path in ((["loop.cfg", "ok.cfg"], "loop.cfg"), (["."], "loop.cfg")):
        code, out, err = run_in(tmp_path, *args)
        assert (code, err) == (2, "")
        assert out == (f"{path}: DN029 error: cannot read: Too many levels of symbolic links\n"
                       "Found 1 problem (1 error) in 2 files.\n")


def test_a_weights_name_too_long_to_pair_is_dn029(tmp_path: Path) -> None:
    """Looking for the cfg of a weights file whose name is longer than NAME_MAX raised out of
    the plan, and was reported as "cannot write the report to standard output"."""
    name = "a" * 300
    code, out, err = run_in(tmp_path, f"{name}.weights")
    assert (code, err) == (2, "")
    assert out == (f"{name}.weights: DN029 error: "
                   + clipped(f"cannot read {name}.cfg: File name too long") + "\n"
                   "Found 1 problem (1 error) in 1 file.\n")
    (tmp_path / "ok.cfg").write_text(CLEAN)  # with the only cfg given: checked against it
    code, out, err = run_in(tmp_path, f"{name}.weights", "ok.cfg")
    assert (code, err) == (2, "")
    assert out == (f"{name}.weights: DN029 error: cannot read: File name too long\n"
                   "Found 1 problem (1 error) in 1 file.\n")


# --- a cfg over the input cap is refused from its size, before any of it is read ----------------

def test_a_cfg_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A 300 MB sparse cfg was read up to the 256 MiB cap (280 MB peak) before DN023."""
    import tracemalloc

    from dnlint.run.inputs import MAX_CFG_BYTES, TooLarge, read_input

    path = tmp_path / "big.cfg"
    with open(path, "wb") as handle:
        handle.truncate(300 * 1000 * 1000)
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge):
            read_input(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    assert os.path.getsize(path) > MAX_CFG_BYTES
    code, out, err = run_in(tmp_path, "big.cfg")
    assert (code, err) == (1, "")
    assert out == ("big.cfg:1:1: DN023 error: file is larger than 256 MiB: not a cfg (a weights "
                   "file passed as the cfg?)\nFound 1 problem (1 error) in 1 file.\n")


def test_a_cfg_that_grows_past_the_cap_is_read_only_up_to_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fstat may see less than there is (a file being written): the read still stops at the
    limit and one byte, which tells the caller it is over."""
    from dnlint.run import inputs

    path = tmp_path / "m.cfg"
    path.write_bytes(b"x" * 100)
    with pytest.raises(inputs.TooLarge):
        inputs.read_input(str(path), limit=10)
    real = os.fstat
    monkeypatch.setattr(inputs.os, "fstat",
                        lambda fd: os.stat_result((*real(fd)[:6], 4, *real(fd)[7:])))
    assert inputs.read_input(str(path), limit=10) == b"x" * 11
