"""--add-suppressions (ruff's --add-noqa): a directive above each line with a finding, with a
reason placeholder; afterwards the file passes, and a second run adds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = ("[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3\n\n"
       "[convolutional]\nfilters=16\nfilter=3\nsize=3\nactivation=leeky\n\n"
       "[route]\nlayers = -1, 40\n\n[convolutional]\nfilters=4\nsize=1\n")
TODO = " -- TODO: say why this is right"
SUPPRESSED = ("[net]\nbatch=64\n# dnlint: disable-next-line=DN103" + TODO + "\n"
              "subdivisions=24\nwidth=32\nheight=32\nchannels=3\n\n"
              "[convolutional]\nfilters=16\n# dnlint: disable-next-line=DN201" + TODO + "\n"
              "filter=3\nsize=3\n# dnlint: disable-next-line=DN207" + TODO + "\n"
              "activation=leeky\n\n# dnlint: disable-next-line=DN390" + TODO + "\n"
              "[route]\n# dnlint: disable-next-line=DN302" + TODO + "\n"
              "layers = -1, 40\n\n[convolutional]\nfilters=4\nsize=1\n")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--dialect", "ab", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(CFG)
    return tmp_path


def test_adds_a_directive_above_each_line_and_the_file_then_passes(cwd: Path) -> None:
    assert run("--add-suppressions", "m.cfg") == (0, "Added 5 suppressions to 1 file.\n", "")
    assert (cwd / "m.cfg").read_text() == SUPPRESSED
    assert run("m.cfg") == (0, "All checks passed (1 file).\n", "")
    assert run("--add-suppressions", "m.cfg") == (0, "Added 0 suppressions.\n", "")
    assert (cwd / "m.cfg").read_text() == SUPPRESSED


def test_only_the_selected_rules_and_never_a_syntax_error(cwd: Path) -> None:
    (cwd / "m.cfg").write_text("batch=1\n" + CFG)  # an option before [net]: DN004, an error
    assert run("--add-suppressions", "--select", "DN0,DN2", "m.cfg")[:2] == (
        0, "Added 2 suppressions to 1 file.\n")
    text = (cwd / "m.cfg").read_text()
    assert text.startswith("batch=1\n[net]\n")  # DN004 cannot be suppressed: left as it is
    assert "disable-next-line=DN201" in text and "DN103" not in text


def test_keeps_crlf_line_endings(cwd: Path) -> None:
    (cwd / "m.cfg").write_bytes(CFG.replace("\n", "\r\n").encode())
    run("--add-suppressions", "--dialect", "ab", "--select", "DN201", "m.cfg")
    assert (cwd / "m.cfg").read_bytes() == CFG.replace(
        "filter=3\n", "# dnlint: disable-next-line=DN201" + TODO + "\nfilter=3\n").replace(
        "\n", "\r\n").encode()


def test_standard_input_gets_the_new_text_on_standard_output() -> None:
    code, out, err = run("--add-suppressions", "-", stdin=CFG)
    assert (code, out, err) == (0, SUPPRESSED, "Added 5 suppressions to 1 file.\n")


def test_not_with_fix() -> None:
    code, _, err = run("--add-suppressions", "--fix", "-", stdin=CFG)
    assert code == 2 and "--add-suppressions cannot be combined with --fix" in err


# -- the added lines follow the file: the reader's lines, its BOM, its line endings ------------

def _run_bytes(*args: str, stdin: bytes | None = None) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, ["--no-config", "--format", "concise", *args],
                                input=stdin)
    return result.exit_code, result.stdout_bytes, result.stderr


BARE_CR = (b"[net]\n# tuned for the\rsmall GPU\nbatch=64\nsubdivisions=24\nwidth=32\n"
           b"height=32\nchannels=3\n\n[maxpool]\nsize=2\nstride=2\n")


def test_a_bare_cr_in_a_comment_starts_no_line(cwd: Path) -> None:
    """Darknet (and the reader) split lines at LF only: the directive goes above the reader's
    line 4, not one line higher as a CR-splitting count put it."""
    (cwd / "m.cfg").write_bytes(BARE_CR)
    assert _run_bytes("--dialect", "ab", "--add-suppressions", "m.cfg")[0] == 0
    assert (cwd / "m.cfg").read_bytes() == BARE_CR.replace(
        b"subdivisions=24", b"# dnlint: disable-next-line=DN103" + TODO.encode()
        + b"\nsubdivisions=24")
    assert _run_bytes("--dialect", "ab", "m.cfg") == (0, b"All checks passed (1 file).\n", "")


def test_a_bom_stays_first_and_crlf_lines_get_crlf(cwd: Path) -> None:
    """A finding on line 1 of a BOM file: the directive goes after the BOM; in a CRLF file it
    ends in CRLF, and DN013 (at the first CRLF line, which a directive line would become) is
    suppressed for the whole file. Afterwards only the unsuppressible DN014 is left."""
    original = b"\xef\xbb\xbf[net]\r\nwidth=32\r\nheight=32\r\n\r\n[maxpool]\r\nsize=2\r\n"
    (cwd / "m.cfg").write_bytes(original)
    assert _run_bytes("--dialect", "ab", "--add-suppressions", "m.cfg")[:2] == (
        0, b"Added 2 suppressions to 1 file.\n")
    assert (cwd / "m.cfg").read_bytes() == (
        b"\xef\xbb\xbf# dnlint: disable-file=DN013" + TODO.encode() + b"\r\n"
        b"# dnlint: disable-next-line=DN106,DN390" + TODO.encode() + b"\r\n"
        + original[3:])
    code, out, _ = _run_bytes("--dialect", "ab", "-q", "m.cfg")
    assert (code, [line.split(b" ")[1] for line in out.splitlines()]) == (1, [b"DN014"])


def test_each_added_line_ends_as_the_line_below_it(cwd: Path) -> None:
    """Mixed endings: the directive takes its own line's ending; above a last line with
    none, the ending of the line before it."""
    original = (b"[net]\r\nbatch=64\r\nsubdivisions=24\nwidth=32\r\nheight=32\r\nchannels=3\r\n"
                b"\r\n[convolutional]\r\nfilters=8\r\nfilter=3")
    (cwd / "m.cfg").write_bytes(original)
    _run_bytes("--dialect", "ab", "--add-suppressions", "--select", "DN103,DN201", "m.cfg")
    assert (cwd / "m.cfg").read_bytes() == original.replace(
        b"subdivisions=24\n", b"# dnlint: disable-next-line=DN103" + TODO.encode()
        + b"\nsubdivisions=24\n").replace(
        b"filter=3", b"# dnlint: disable-next-line=DN201" + TODO.encode() + b"\r\nfilter=3")


@pytest.mark.parametrize("data", [
    CFG.encode("utf-16"),  # with its BOM
    CFG.encode("utf-16-le"),
    b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4,
    b"\x00" * 64,
])
def test_standard_input_that_cannot_be_annotated_is_echoed_unchanged(data: bytes) -> None:
    """As ``--fix -``: a pipe never loses the text; standard error says why."""
    code, out, err = _run_bytes("--add-suppressions", "-", stdin=data)
    assert (code, out) == (0, data)
    first = err.splitlines()[0]
    assert first.startswith("dnlint: <stdin>: no suppressions added (DN0") \
        and first.endswith("); the input is echoed unchanged")
    assert err.splitlines()[-1] == "Added 0 suppressions."



@pytest.mark.parametrize(("data", "said"), [
    (CFG.encode("utf-32"), "UTF-32 encoded; Darknet reads bytes and sees three NULs beside"),
    (b"\x00\x00\xfe\xff" + CFG.encode("utf-32-be"), "UTF-32 encoded; Darknet reads bytes and "
                                                    "sees three NULs beside"),
    (b"\xfe\xff" + CFG.encode("utf-16-be"), "UTF-16 encoded; Darknet reads bytes and sees NUL "
                                           "after"),
])
def test_a_wide_encoding_on_standard_input_is_named_and_echoed(data: bytes, said: str) -> None:
    """UTF-32 (either byte order) is named as such (its little-endian mark was called UTF-16,
    its big-endian one binary data), and echoed byte for byte."""
    code, out, err = _run_bytes("--add-suppressions", "-", stdin=data)
    assert (code, out) == (0, data)
    assert err.splitlines()[0] == (f"dnlint: <stdin>: no suppressions added (DN015 file is "
                                   f"{said} every character); the input is echoed unchanged")

def test_standard_input_with_nul_bytes_is_annotated_byte_for_byte() -> None:
    data = b"[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3 \x00x\n"
    code, out, _ = _run_bytes("--dialect", "ab", "--add-suppressions", "--select", "DN103",
                              "-", stdin=data)
    assert (code, out) == (0, data.replace(b"subdivisions", b"# dnlint: disable-next-line=DN103"
                                           + TODO.encode() + b"\nsubdivisions"))
