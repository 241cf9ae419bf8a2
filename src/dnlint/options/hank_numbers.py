"""How hank-ai's Darknet reads numbers and number lists (src-lib/darknet_cfg.cpp, f684e1d).

- A value is a number only when it is made of the characters ``-.0123456789`` alone
  (``CfgLine``): ``1e-4`` and ``+1`` are not numbers there. The number is ``std::stof`` of the
  value, i.e. the longest prefix ``strtof`` reads (``1.2.3`` is 1.2); a value ``stof`` rejects
  (``-``, ``.``, ``--1``, out of float range) stops the program while the file is read.
- ``find_int`` reads that float and truncates it toward zero, so integers pass through a C
  ``float`` (16777217 becomes 16777216) and 2.5 becomes 2 with a note on stdout.
- ``find_int_array``/``find_float_array`` take every maximal run of ``-0123456789`` (ints)
  or ``-.0123456789`` (floats) as one item, whatever separates the runs (commas, blanks,
  letters); empty items therefore vanish, and the list silently ends at the first run that
  ``stoi``/``stof`` rejects.
"""

from __future__ import annotations

import math
import re
import struct

HANK_NUMBER_CHARS = "-.0123456789"
_FLOAT_RUN = re.compile(r"[-.0-9]+")
_INT_RUN = re.compile(r"[-0-9]+")
_STOF_PREFIX = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_STOI_PREFIX = re.compile(r"-?[0-9]+")
_FLT_MIN = 1.1754943508222875e-38  # smallest normal float: below it strtof reports ERANGE
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def is_hank_number(value: str) -> bool:
    """Whether ``CfgLine`` tries to read ``value`` as a number."""
    return bool(value) and not value.strip(HANK_NUMBER_CHARS)


def stof_prefix(text: str) -> str:
    """The part of ``text`` that ``strtof`` reads ('' when it reads nothing)."""
    match = _STOF_PREFIX.match(text)
    return match.group() if match else ""


def hank_stof(text: str) -> float | None:
    """``std::stof`` of a run of ``-.0-9``: its value, or ``None`` where it throws."""
    prefix = stof_prefix(text)
    if not prefix:
        return None  # std::invalid_argument
    value = float(prefix)
    if not math.isfinite(value):
        return None
    narrowed = to_float32(value)
    if math.isinf(narrowed) or (value != 0.0 and abs(narrowed) < _FLT_MIN):
        return None  # overflow or underflow: std::out_of_range
    return value


def to_float32(value: float) -> float:
    """``value`` rounded to a C float (infinite when it does not fit)."""
    try:
        narrowed: float = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:  # older Pythons refuse to pack what rounds to infinity
        return math.copysign(math.inf, value)
    return narrowed


def hank_stoi(text: str) -> int | None:
    """``std::stoi`` of a run of ``-0-9``: its value, or ``None`` where it throws."""
    match = _STOI_PREFIX.match(text)
    if not match:
        return None
    digits = match.group()
    if len(digits.lstrip("-").lstrip("0")) > 10:
        return None  # far out of range (and int() refuses very long strings)
    value = int(digits)
    return value if INT32_MIN <= value <= INT32_MAX else None


def hank_int(value: str) -> int | None:
    """``find_int``: the float, truncated toward zero and cast to int (x86 gives INT32_MIN for
    what does not fit); ``None`` when ``value`` is not a number for hank."""
    if not is_hank_number(value):
        return None
    number = hank_stof(value)
    if number is None:
        return None
    whole = math.trunc(to_float32(number))
    return whole if INT32_MIN <= whole <= INT32_MAX else INT32_MIN


def hank_list(value: str, is_float: bool) -> tuple[list[float] | list[int], str | None]:
    """``find_float_array``/``find_int_array``: the items, and the run that ended the list early
    (``None`` when every run was read)."""
    if is_float:
        floats: list[float] = []
        for run in _FLOAT_RUN.findall(value):
            number = hank_stof(run)
            if number is None:
                return floats, run
            floats.append(number)
        return floats, None
    ints: list[int] = []
    for run in _INT_RUN.findall(value):
        item = hank_stoi(run)
        if item is None:
            return ints, run
        ints.append(item)
    return ints, None
