"""dnlint.cnumbers against the C behaviour table that glibc itself printed.

tests/cbehaviour/cnumbers.c prints c_numbers.tsv (atoi, strtol, atof, (float)atof, the int
cast of that float, std::stof, std::stoi for tricky inputs) and, with --lists, c_lists.tsv
(the items each dialect's list walk reads). Every row must equal dnlint's emulation. Where a C
compiler and an x86-64 glibc are present, the tables are also regenerated and compared, so a
stale committed table fails too.
"""

from __future__ import annotations

import math
import platform
import re
import shutil
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dnlint import cnumbers
from dnlint.cnumbers import (
    HANK_NUMBER_CHARS,
    c_atof,
    c_atoi,
    c_float,
    c_int_of_float,
    c_list,
    c_strtol,
    fits_c_float,
    hank_float,
    hank_int,
    hank_list,
    hank_stof,
    hank_stoi,
    is_plain_float,
    is_plain_int,
    stof_prefix,
    to_float32,
)
from dnlint.options.convert import _plain_decimal
from dnlint.options.hank_convert import _short_decimal, _small_int

HERE = Path(__file__).parent / "cbehaviour"
SOURCE = HERE / "cnumbers.c"
_ESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r", "v": "\v", "f": "\f"}


def unescape(field: str) -> str:
    """A table's input column back to the text: escapes to bytes, the bytes read as UTF-8."""
    out = bytearray()
    at = 0
    while at < len(field):
        char = field[at]
        if char != "\\":
            out += char.encode()
            at += 1
        elif field[at + 1] == "x":
            out.append(int(field[at + 2 : at + 4], 16))
            at += 4
        else:
            out += _ESCAPES[field[at + 1]].encode()
            at += 2
    return out.decode("utf-8")


def table(name: str) -> list[dict[str, str]]:
    lines = (HERE / name).read_text(encoding="ascii").split("\n")
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:] if line]


def same_double(value: float, printed: str) -> bool:
    """``value`` is exactly what C printed with ``%a`` (nan: its sign too)."""
    expected = float.fromhex(printed)
    if math.isnan(expected):
        return math.isnan(value) and math.copysign(1, value) == math.copysign(1, expected)
    return struct.pack("<d", value) == struct.pack("<d", expected)


NUMBERS = table("c_numbers.tsv")
LISTS = table("c_lists.tsv")


def row_id(row: dict[str, str]) -> str:
    shown = row["input"]
    return shown if len(shown) < 40 else f"{shown[:20]}...({len(shown)} chars)"


@pytest.mark.parametrize("row", NUMBERS, ids=row_id)
def test_glibc_conversions(row: dict[str, str]) -> None:
    text = unescape(row["input"])
    assert c_atoi(text) == int(row["atoi"])
    assert c_strtol(text) == int(row["strtol"])
    assert same_double(c_atof(text), row["atof"])
    narrowed = c_float(text)
    assert same_double(narrowed, row["float_atof"])
    assert fits_c_float(c_atof(text)) == math.isfinite(float.fromhex(row["float_atof"]))
    assert c_int_of_float(narrowed) == int(row["int_of_float"])


HANK_FLOATS = [row for row in NUMBERS if not unescape(row["input"]).strip(HANK_NUMBER_CHARS)]
HANK_INTS = [row for row in NUMBERS if not unescape(row["input"]).strip("-0123456789")]


@pytest.mark.parametrize("row", HANK_FLOATS, ids=row_id)
def test_hank_stof(row: dict[str, str]) -> None:
    """hank-ai's reader hands stof only runs of '-.0-9': every such row."""
    text = unescape(row["input"])
    value = hank_float(text)
    if row["stof"] in ("invalid_argument", "out_of_range"):
        assert value is None and hank_stof(text) is None
    else:
        assert value is not None and same_double(value, row["stof"])
        assert hank_stof(text) == float(stof_prefix(text))


@pytest.mark.parametrize("row", HANK_INTS, ids=row_id)
def test_hank_stoi(row: dict[str, str]) -> None:
    value = hank_stoi(unescape(row["input"]))
    assert value == (None if row["stoi"] in ("invalid_argument", "out_of_range")
                     else int(row["stoi"]))


def test_the_table_covers_the_hard_cases() -> None:
    """The rows the emulation once got wrong are in the table (not a tautology: a shrunk
    table would let them regress)."""
    inputs = {unescape(row["input"]) for row in NUMBERS}
    for text in ("\v7", "0x10", "\u0663", "9999999999999999999", "1.0000000596046448",
                 "3.40282356e38", "340282356779733661637539395458142568447.9", "-nan", "0" * 4400):
        assert text in inputs
    assert len(HANK_FLOATS) >= 60 and len(HANK_INTS) >= 30


def items(field: str, read: Callable[[str], float]) -> list[float]:
    return [read(item) for item in field.split(",")] if field else []


def same_items(got: list[float] | list[int], printed: list[float]) -> bool:
    return len(got) == len(printed) and all(
        struct.pack("<d", a) == struct.pack("<d", b) for a, b in zip(got, printed, strict=True)
    )


@pytest.mark.parametrize("row", LISTS, ids=row_id)
def test_list_walks(row: dict[str, str]) -> None:
    text = unescape(row["input"])
    assert c_list(text, c_atoi, False) == items(row["pj_ints"], int)
    assert same_items(c_list(text, c_atof, False), items(row["pj_floats"], float.fromhex))
    assert c_list(text, c_atoi, True) == items(row["ab_ints"], int)
    assert same_items(c_list(text, c_atof, True), items(row["ab_floats"], float.fromhex))
    hank_ints, int_stop = hank_list(text, False)
    assert hank_ints == items(row["hank_ints"], int)
    assert (int_stop or "") == unescape(row["hank_int_stop"])
    hank_floats, float_stop = hank_list(text, True)
    # the items are the doubles the runs say (for messages); the float each run gives is
    # test_hank_stof's: here, as floats, they are what hank-ai's list holds
    assert same_items([to_float32(item) for item in hank_floats],
                      items(row["hank_floats"], float.fromhex))
    assert (float_stop or "") == unescape(row["hank_float_stop"])


PLAIN_DECIMALS = st.from_regex(r"-?[0-9]{1,40}(\.[0-9]{0,12})?", fullmatch=True)


@given(PLAIN_DECIMALS)
def test_fast_paths_read_as_the_emulation(text: str) -> None:
    """The option stage reads plain decimals with int()/float() directly, for speed: whatever
    it accepts there must be what atoi/atof (and hank-ai's stof) give."""
    number = _plain_decimal(text, False)
    assert number is None or (type(number) is int and number == c_atoi(text))
    number_f = _plain_decimal(text, True)
    assert number_f is None or same_double(number_f, c_atof(text).hex())
    small = _small_int(text)
    assert small is None or small == hank_int(text)
    short = _short_decimal(text)
    assert short is None or short == hank_stof(text)


# what a plain number is: the grammar every reader reads the same (the option stage's fast
# path); the predicates are hand-written for start-up, so they are held to the regex here
PLAIN_INT_GRAMMAR = re.compile(r"[+-]?[0-9]+\Z")
NUMBERISH = st.text(st.sampled_from("+-.0123456789eE \t\n٣²x"), max_size=12)


@given(NUMBERISH)
def test_plain_number_predicates_are_the_grammar(text: str) -> None:
    assert is_plain_int(text) == bool(PLAIN_INT_GRAMMAR.match(text))
    decimal = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    assert is_plain_float(text) == bool(re.match(r"[+-]?" + decimal + r"\Z", text))


STRTOL_GRAMMAR = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+")


@given(st.text(st.sampled_from("+- \t\n\v\f\r0123456789٣²x"), max_size=25))
def test_strtol_reads_what_its_grammar_matches(text: str) -> None:
    """c_strtol scans without a regex (a run imports no re): the digits its grammar matches,
    saturated to a C long, else 0."""
    match = STRTOL_GRAMMAR.match(text)
    expected = 0 if match is None else max(-(2**63), min(2**63 - 1, int(match.group())))
    assert c_strtol(text) == expected


@pytest.mark.parametrize(("text", "plain_int", "plain_float"), [
    ("12", True, True), ("-3", True, True), ("+0", True, True), ("", False, False),
    ("+", False, False), ("1.", False, True), (".5e-3", False, True), ("٣", False, False),
    ("²", False, False), ("1\n", False, False), (" 1", False, False), ("1e", False, False),
])
def test_plain_numbers(text: str, plain_int: bool, plain_float: bool) -> None:
    assert (is_plain_int(text), is_plain_float(text)) == (plain_int, plain_float)


def _can_regenerate() -> str | None:
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None  # the int cast of an out-of-range float is x86's
    if platform.libc_ver()[0] != "glibc":
        return None
    return compiler


@pytest.mark.parametrize(("flags", "name"), [((), "c_numbers.tsv"), (("--lists",), "c_lists.tsv")])
def test_committed_tables_are_what_glibc_prints(
    tmp_path: Path, flags: tuple[str, ...], name: str
) -> None:
    compiler = _can_regenerate()
    if compiler is None:
        pytest.skip("needs cc and glibc on x86-64 to regenerate the table; the committed one "
                    "is used")
    program = tmp_path / "cnumbers"
    subprocess.run([compiler, "-O0", "-o", str(program), str(SOURCE)], check=True)
    printed = subprocess.run([str(program), *flags], check=True, capture_output=True).stdout
    assert printed == (HERE / name).read_bytes()


# halfway between two floats as doubles (the exact decimal decides), subnormal, huge, plain
_STRTOF_CASES = ["0.1", "1.00000005960464477539062500001", "1.000000059604644775390625",
                 "3.4028235677973366e38", "1e-45", "7e-46", "0.0005", "-2.5", "16777217"]


@given(st.one_of(st.sampled_from(_STRTOF_CASES),
                 st.floats(allow_nan=False, allow_infinity=False).map(repr),
                 st.decimals(allow_nan=False, allow_infinity=False, places=30).map(str)))
def test_strtof_read_again_is_strtof_worked_out(decimal: str) -> None:
    worked_out = cnumbers._strtof_decimal(decimal)
    first, again = cnumbers.strtof_decimal(decimal), cnumbers.strtof_decimal(decimal)
    assert struct.pack("<d", first) == struct.pack("<d", again) == struct.pack("<d", worked_out)


def test_strtof_memory_is_bounded() -> None:
    for number in range(cnumbers._STRTOF_SIZE + 10):
        cnumbers.strtof_decimal(f"{number}.5")
    assert 0 < len(cnumbers._STRTOF) <= cnumbers._STRTOF_SIZE
    assert cnumbers.strtof_decimal("1" * 80) == cnumbers._strtof_decimal("1" * 80)
    assert "1" * 80 not in cnumbers._STRTOF  # long texts are worked out each time
