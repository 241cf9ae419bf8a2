"""How Darknet turns text into numbers: glibc's ``atoi``/``atof``/``strtol`` as the C forks call
them, the C++ ``std::stof``/``std::stoi`` of hank-ai's parser, and how each dialect cuts a
comma list into items. Everything in dnlint that reads option text as a number uses them,
except the option stage's fast paths for short plain ASCII decimals (``_plain_decimal`` in
options.py, ``_small_int``/``_short_decimal`` in options_hank.py), which
tests/test_cnumbers.py checks against these functions.

Every function here is checked against the C behaviour table, tests/cbehaviour/c_numbers.tsv
and c_lists.tsv, which a small C program (tests/cbehaviour/cnumbers.c) prints from glibc
itself. The format document says the same in prose: §c-numbers and §lists for the C forks,
§hank-lexer for hank-ai.

The C forks (``option_find_int``/``option_find_float``, src/option_list.c):

- an integer is ``atoi``: ``(int) strtol(text, NULL, 10)``. strtol skips C white space, reads
  an optional sign and decimal digits, stops at anything else, and saturates at the limits of
  a 64-bit ``long``; the cast to ``int`` then keeps the low 32 bits (``4294967297`` is 1);
- a float is ``atof``, i.e. ``strtod``: decimal with an exponent, hexadecimal (``0x1p3``),
  ``inf``/``infinity``/``nan`` in any case, after white space; the ``double`` is then assigned
  to a C ``float``, rounded to nearest (so past ``FLT_MAX`` by more than half a step: inf).
- a list (``mask``, ``layers``, ``anchors``, ``steps`` ...) has one item more than it has
  commas; each item is read where the walk stands, so an empty item is 0. AlexeyAB's parser
  stops counting commas at the first ``#`` for a few lists (the ``stops_at_hash`` options).

hank-ai's Darknet (src-lib/darknet_cfg.cpp, f684e1d):

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
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Callable, Iterable, Iterator
    from fractions import Fraction
    from typing import Any, Final, TypeAlias, TypeVar

    Number = TypeVar("Number", int, float)  # a TypeVar is the type checker's alone

INT32_MIN: Final = -2147483648
INT32_MAX: Final = 2147483647
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1  # a C long on the 64-bit systems Darknet runs on
FLT_MAX: Final = 3.4028234663852886e38
FLT_MIN = 1.1754943508222875e-38  # the smallest normal float

# isspace() in the C locale (Darknet never calls setlocale)
C_SPACE = " \t\n\v\f\r"
_SPACE = "[ \t\n\v\f\r]*"
# [0-9], never \d: a Python str pattern's \d also matches other scripts' digits, which C does not
_DIGITS = "0123456789"
_DECIMAL = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_PLAIN_FLOAT_CHARS = _DIGITS + "+-.eE"
# what the common plain decimal does not need is compiled when first used (re.match's cache):
# its compilation is a fifth of all of a run's regular expressions (start-up, issue 35)
_STRTOD = (
    _SPACE
    + r"(?P<sign>[+-]?)(?:"
    + r"(?P<hex>0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
    + r"|(?P<word>[iI][nN][fF]|[nN][aA][nN])"
    + r"|(?P<decimal>"
    + _DECIMAL
    + "))"
)



def is_plain_int(text: str) -> bool:
    """Whether the whole of ``text`` is a plain decimal integer (``[+-]?[0-9]+``), which every
    reader reads the same."""
    digits = text[1:] if text.startswith(("+", "-")) else text
    return digits.isdigit() and digits.isascii()  # isdigit alone takes other scripts' digits


def is_plain_float(text: str) -> bool:
    """Whether the whole of ``text`` is a plain decimal number (``1``, ``-.5``, ``1e-3``):
    ``[+-]?`` and _DECIMAL, which is what Python's ``float`` reads of a text made of these
    characters alone (no blanks, underscores, words or other scripts' digits)."""
    if not text or text.lstrip(_PLAIN_FLOAT_CHARS):
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


# --- the C forks: glibc --------------------------------------------------------------------
def c_strtol(text: str) -> int:
    """``strtol(text, NULL, 10)``: saturated to a C ``long``; 0 when no digits lead the text.

    (``int()`` alone refuses strings of more than 4300 digits: long ones are cut short.)
    """
    number = text.lstrip(C_SPACE)
    negative = number.startswith("-")
    if negative or number.startswith("+"):
        number = number[1:]
    run = len(number) - len(number.lstrip(_DIGITS))  # the digits that lead (ASCII only)
    if run == 0:
        return 0
    digits = number[:run].lstrip("0")
    if len(digits) > 19:
        return LONG_MIN if negative else LONG_MAX
    value = int(digits or "0")
    return max(LONG_MIN, -value) if negative else min(LONG_MAX, value)


def c_atoi(text: str) -> int:
    """``atoi``: glibc's ``(int) strtol``, which keeps the low 32 bits of the saturated long."""
    value = c_strtol(text) & 0xFFFFFFFF
    return value - 2**32 if value > INT32_MAX else value


def c_atof(text: str) -> float:
    """``atof``, i.e. ``strtod(text, NULL)``: the double the longest readable prefix gives."""
    if is_plain_float(text):
        return float(text)  # the common plain decimal: atof reads all of it
    import re  # here: a clean run imports no re (start-up)
    match = re.match(_STRTOD, text)
    if match is None:
        return 0.0
    negative = match.group("sign") == "-"
    word = match.group("word")
    if word is not None:
        value = math.inf if word[0] in "iI" else math.nan
    elif match.group("hex") is not None:
        try:
            value = float.fromhex(match.group("hex"))
        except OverflowError:  # past the double range: strtod gives inf (and ERANGE)
            value = math.inf
    else:
        value = float(match.group("decimal"))  # correctly rounded, as glibc's strtod
    return -value if negative else value  # negation, not * -1: the sign of a nan too


def to_float32(value: float) -> float:
    """C's assignment of a double to a ``float``: rounded to nearest, infinite past the range."""
    try:
        narrowed: float = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:  # struct refuses what rounds to infinity
        return math.copysign(math.inf, value)
    return narrowed


def c_float(text: str) -> float:
    """``option_find_float``: ``atof``'s double assigned to a C float (rounded twice)."""
    return to_float32(c_atof(text))


def fits_c_float(value: float) -> bool:
    """Whether assigning the double ``value`` to a C ``float`` keeps it finite."""
    return math.isfinite(value) and (abs(value) <= FLT_MAX or math.isfinite(to_float32(value)))


def c_int_of_float(value: float) -> int:
    """C's ``(int)`` of a float or double: truncation toward zero. Out of range (and for inf
    and nan) C leaves it undefined; x86's conversion instruction gives ``INT_MIN``."""
    if not math.isfinite(value):
        return INT32_MIN
    whole = math.trunc(value)
    return whole if INT32_MIN <= whole <= INT32_MAX else INT32_MIN


# --- lists of the C forks ------------------------------------------------------------------
# past this length a list's items are cut one at a time: split() made every piece a string at
# once (about 50 bytes each, 17 times the bytes of a line like '-1,-1,...')
LONG_LIST: Final = 4096


def comma_items(value: str) -> Iterable[str]:
    """The comma-separated pieces of ``value`` (``split(",")``; lazily for a very long line)."""
    return value.split(",") if len(value) < LONG_LIST else _pieces(value)


def _pieces(value: str) -> Iterator[str]:
    """``value.split(",")``, one piece at a time."""
    start = 0
    while True:
        end = value.find(",", start)
        if end < 0:
            yield value[start:]
            return
        yield value[start:end]
        start = end + 1


# A list option's numbers: a list, or for a long line an array (C ints or doubles, as atoi and
# atof give them): a list spends a pointer per item, and a float object per float, so a line
# of commas cost 8 bytes of list per byte of input
# (a string: typing would compile "array[Any]" into a ForwardRef, and a process's first
# compile() builds every ast node type, ~5 ms of start-up; array is not subscriptable < 3.12)
Numbers: TypeAlias = "list[Any] | array[Any]"


def packed(numbers: Iterable[Any], is_float: bool) -> array[Any]:
    """``numbers`` in an array of C doubles (``is_float``) or C ints."""
    # imported here: the array module imports collections (start-up)
    from array import array

    return array("d" if is_float else "i", numbers)


def c_list(value: str, convert: Callable[[str], Number], stops_at_hash: bool) -> Numbers:
    """The C forks' list walk (``parse_yolo_mask``, ``parse_route``...): one item per comma plus
    one, each read with ``convert`` (:func:`c_atoi` or :func:`c_atof`) where the walk stands.

    Reading a piece cut at the comma gives what atoi/atof give reading on past it, since both
    stop at a comma. ``stops_at_hash``: AlexeyAB's count stops at the first ``#``; the items
    before it are the same, and the last one's reading stops at the ``#`` as well.
    """
    if stops_at_hash and "#" in value:
        value = value[: value.index("#")]
    if len(value) >= LONG_LIST:
        return packed(map(convert, _pieces(value)), convert is c_atof)
    return [convert(piece) for piece in value.split(",")]


# --- hank-ai: C++ std::stof / std::stoi ----------------------------------------------------
HANK_NUMBER_CHARS = "-.0123456789"
# hank-ai's own (compiled when first used, as _STRTOD)
_FLOAT_RUN = r"[-.0-9]+"
_INT_RUN = r"[-0-9]+"
_STOF_PREFIX = r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)"
_STOI_PREFIX = r"-?[0-9]+"


def is_hank_number(value: str) -> bool:
    """Whether ``CfgLine`` tries to read ``value`` as a number."""
    return bool(value) and not value.strip(HANK_NUMBER_CHARS)


def stof_prefix(text: str) -> str:
    """The part of a run of ``-.0-9`` that ``strtof`` reads ('' when it reads nothing)."""
    import re  # here: a clean run imports no re (start-up)
    match = re.match(_STOF_PREFIX, text)
    return match.group() if match else ""


def hank_stof(text: str) -> float | None:
    """``std::stof`` of a run of ``-.0-9``: ``None`` where ``stof`` throws (nothing read:
    invalid_argument; ``ERANGE``: out_of_range), else the number read, as the double nearest
    the decimal (what it says, for messages and comparisons; :func:`hank_float` is the float
    hank-ai holds)."""
    prefix = stof_prefix(text)
    if not prefix or _strtof_refuses(prefix):
        return None
    return float(prefix)


def hank_float(text: str) -> float | None:
    """``std::stof`` of a run of ``-.0-9``: the C float it returns, ``None`` where it throws."""
    prefix = stof_prefix(text)
    if not prefix or _strtof_refuses(prefix):
        return None
    return strtof_decimal(prefix)


def _strtof_refuses(decimal: str) -> bool:
    """Whether glibc's ``strtof`` sets ``ERANGE`` for ``decimal``: the float overflows, or is
    subnormal (or zero) and not exact."""
    value = strtof_decimal(decimal)
    if math.isinf(value):
        return True
    if abs(value) >= FLT_MIN or not decimal.strip("-.0"):
        return False  # a normal float, or an exact zero
    return value == 0 or _exact(decimal) != _exact(value)


# strtof of the decimals read before (a network repeats its few numbers, and working one out
# can take exact fractions: 30,000 instructions for '0.1'); short texts only, bounded
_STRTOF: Final[dict[str, float]] = {}
_STRTOF_SIZE: Final = 4096


def strtof_decimal(decimal: str) -> float:
    """``strtof`` of a plain decimal: the float nearest it, rounded once (ties to even).

    Rounding to a double first and then to a float, as ``(float) atof`` does, differs only
    when the double falls exactly halfway between two floats: there the exact decimal decides.
    """
    known = _STRTOF.get(decimal)
    if known is not None:
        return known
    value = _strtof_decimal(decimal)
    if len(decimal) <= 64:
        if len(_STRTOF) >= _STRTOF_SIZE:
            _STRTOF.clear()
        _STRTOF[decimal] = value
    return value


def _strtof_decimal(decimal: str) -> float:
    wide = float(decimal)
    narrowed = to_float32(wide)
    if narrowed == wide or not math.isfinite(wide):
        return narrowed
    other = _float32_neighbour(narrowed, wide)
    if 2 * _exact(wide) != _exact(_past_max(narrowed)) + _exact(_past_max(other)):
        return narrowed  # not a tie: rounding once or twice gives the same float
    exact = _exact(decimal)
    if exact == _exact(wide):
        return narrowed  # a true tie: to even, as the conversion of the double did
    return other if (exact > _exact(wide)) == (other > narrowed) else narrowed


def _exact(number: str | float) -> Fraction:
    """The exact value of a decimal string or a double (any number of digits)."""
    # imported here: fractions (and decimal) cost milliseconds of start-up, for a rare path
    from decimal import Decimal
    from fractions import Fraction

    return Fraction(Decimal(number))


def _past_max(value: float) -> float:
    """``value``, with infinity standing for the float one step past ``FLT_MAX``, where
    rounding to nearest starts to give infinity."""
    return math.copysign(2.0**128, value) if math.isinf(value) else value


def _float32_neighbour(value: float, toward: float) -> float:
    """The float next to the float ``value`` in the direction of ``toward``."""
    if math.isinf(value):
        return math.copysign(FLT_MAX, value)
    bits: int = struct.unpack("<I", struct.pack("<f", value))[0]
    bits += 1 if abs(toward) > abs(value) else -1  # magnitude up or down: sign and magnitude
    if value == 0:
        bits = 1 | (0x80000000 if toward < 0 else 0)
    neighbour: float = struct.unpack("<f", struct.pack("<I", bits))[0]
    return neighbour


def hank_stoi(text: str) -> int | None:
    """``std::stoi`` of a run of ``-0-9``: its value, or ``None`` where it throws."""
    import re  # here: a clean run imports no re (start-up)
    match = re.match(_STOI_PREFIX, text)
    if not match:
        return None
    digits = match.group()
    magnitude = digits.lstrip("-").lstrip("0")
    if len(magnitude) > 10:
        return None  # far out of range (and int() refuses very long strings)
    value = -int(magnitude or "0") if digits[0] == "-" else int(magnitude or "0")
    return value if INT32_MIN <= value <= INT32_MAX else None


def hank_int(value: str) -> int | None:
    """``find_int``: the float, truncated toward zero and cast to int (x86 gives INT32_MIN for
    what does not fit); ``None`` when ``value`` is not a number for hank."""
    if not is_hank_number(value):
        return None
    number = hank_float(value)
    return None if number is None else c_int_of_float(number)


def hank_list(value: str, is_float: bool) -> tuple[list[float] | list[int], str | None]:
    """``find_float_array``/``find_int_array``: the items, and the run that ended the list early
    (``None`` when every run was read)."""
    import re  # here: a clean run imports no re (start-up)
    if is_float:
        return _hank_runs(re.findall(_FLOAT_RUN, value), hank_stof)
    return _hank_runs(re.findall(_INT_RUN, value), hank_stoi)


def _hank_runs(
    runs: list[str], read: Callable[[str], Number | None]
) -> tuple[list[Number], str | None]:
    items: list[Number] = []
    for run in runs:
        item = read(run)
        if item is None:
            return items, run
        items.append(item)
    return items, None
