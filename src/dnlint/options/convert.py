"""Stage 2: sections -> typed options.

Checks every option of a section against its declaration (:mod:`dnlint.options.schema`) and produces
:class:`Values`: what Darknet's getters (``option_find_int``, ``atoi``, ``atof``, the hand-made
list parsers of src/parser.c) would actually read, so the shape pass sees Darknet's network,
not the one the text seems to describe.
"""

from __future__ import annotations

import builtins
import math

from dnlint.cnumbers import (
    FLT_MAX,
    INT32_MAX,
    INT32_MIN,
    LONG_LIST,
    Numbers,
    c_atof,
    c_atoi,
    c_int_of_float,
    c_list,
    c_strtol,
    comma_items,
    fits_c_float,
    is_plain_float,
    is_plain_int,
    packed,
)
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect
from dnlint.options.inline_comments import (
    comment_breaks,
    comment_prefix,
    comment_survives,
    comment_survives_list,
)
from dnlint.options.list_items import ZERO_FRACTION, check_list_items, item_span
from dnlint.options.schema import Kind, Opt
from dnlint.options.section_memo import (
    Typed,
    remember_typing,
    share_typing,
    text_of,
    typed_before,
)
from dnlint.options.value_checks import check_range, report_unknown_choice, report_unknown_option
from dnlint.read.darknet_reader import UNPARSED, Option, Section
from dnlint.read.document import Unmade, Unplain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, Final

# What a value looks like, to say how atoi/atof misread it (the reading is dnlint.cnumbers').
# [0-9], not \d, which matches other scripts' digits too; '[0-9]+(\.[0-9]*)?', not
# '[0-9]+\.?[0-9]*': the latter splits a run of digits in n ways (quadratic).
_INT_PREFIX = r"[ \t]*[+-]?[0-9]+"
_FLOAT_PREFIX = r"[+-]?([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?"


# Final: mypyc inlines them (a plain module global is a dict look-up on every option)
NUMBER_FLOAT: Final = 1
NUMBER_RANGED: Final = 2


class OptionTable:
    """The options one section type reads in one dialect, prepared once for typing and lookups."""

    __slots__ = ("bounds", "defaults", "dialect", "foreign", "lists", "numeric", "required",
                 "specs", "strings")

    def __init__(self, specs: dict[str, Opt], foreign: dict[str, Opt], dialect: Dialect) -> None:
        self.specs = specs
        # options only other dialects read, to say which dialect has them
        self.foreign = foreign
        self.dialect = dialect
        self.defaults: dict[str, Any] = {n: s.default_for(dialect) for n, s in specs.items()}
        self.required = tuple(spec for spec in specs.values() if spec.required)
        # numeric options, for the plain-decimal fast path of type_section: NUMBER_FLOAT and
        # NUMBER_RANGED flags (only ranged ones need a comparison)
        self.numeric: dict[str, int] = {
            name: (NUMBER_FLOAT if spec.kind is Kind.FLOAT else 0)
            | (NUMBER_RANGED if spec.min is not None or spec.max is not None else 0)
            for name, spec in specs.items()
            if spec.kind in (Kind.INT, Kind.REF, Kind.FLOAT)
        }
        # the ranged numeric options' (min, max), infinite where open: one chained comparison
        # tells a plain value in range (check_range reports one that is not)
        self.bounds: dict[str, tuple[float, float]] = {
            name: (-math.inf if spec.min is None else spec.min,
                   math.inf if spec.max is None else spec.max)
            for name, spec in specs.items()
            if name in self.numeric and self.numeric[name] & NUMBER_RANGED
        }
        # list options, for the fast path of a list of plain decimals: whether its items are
        # floats (the path _convert_list takes first)
        self.lists: dict[str, bool] = {
            name: spec.kind is Kind.FLOAT_LIST for name, spec in specs.items() if spec.is_list
        }
        if dialect is Dialect.HANK:
            # hank-ai reads every integer through a C float (find_int): no fast path there
            self.numeric = {}
            self.lists = {}
        # string options, for the fast path: the names valid in this dialect, or None for any
        self.strings: dict[str, frozenset[str] | None] = {
            name: spec.choices_for(dialect)
            for name, spec in specs.items()
            if spec.kind in (Kind.STR, Kind.ENUM, Kind.PATH)
        }


class Values:
    """The typed options of one section, read with Darknet's semantics.

    Each option :func:`type_section` parsed holds Darknet's value (``Option.parsed``: a dict
    of them per section cost more than the section's bytes); ``defaults`` (the table's, shared
    by every section of the type: never written) holds the declared default of every other one.
    A copy of all defaults per section cost kilobytes per layer, kept for the whole run; a
    builder that wants every option in one dict on its hot path asks :meth:`merged`.
    """

    __slots__ = ("defaults", "section", "shared", "specs", "typed")

    def __init__(self, section: Section, table: OptionTable) -> None:
        self.section = section
        self.specs: Mapping[str, Opt] = table.specs
        self.defaults: dict[str, Any] = table.defaults
        # what every section of the same table and text shares (dnlint.options.section_memo),
        # when it may
        self.typed: Typed | None = None
        # for a section whose options were never made (document.Unmade): its values by key,
        # every one given and parsed (Typed.by_key); None: read them off the options
        self.shared: dict[str, Any] | None = None

    @property
    def data(self) -> dict[str, Any]:
        """Each parsed option's value, by key: a new dict."""
        if self.shared is not None:
            return dict(self.shared)
        return {key: option.parsed for key, option in self.section.first.items()
                if option.parsed is not UNPARSED}

    def merged(self) -> dict[str, Any]:
        """Every declared option's value, parsed or default, for one build to read (never to
        write: sections of one text share it)."""
        typed = self.typed
        if typed is None or typed.lists:
            return self._merged()
        if typed.merged is None:
            typed.merged = self._merged()
        return typed.merged

    def _merged(self) -> dict[str, Any]:
        merged = self.defaults.copy()
        if self.shared is not None:
            merged.update(self.shared)
            return merged
        first = self.section._first  # Section.first without its Mapping view (hot: per layer)
        options = first.values() if type(first) is dict else self.section.first.values()
        for option in options:
            more = option._more  # Option.parsed inlined (a property call per option)
            parsed = more.parsed if type(more) is Unplain else more
            if parsed is not UNPARSED:
                merged[option.key] = parsed
        return merged

    def given(self, name: str) -> bool:
        """Whether Darknet finds a value for ``name`` (a bare ``key`` line hides later ones):
        exactly the options type_section parsed."""
        shared = self.shared
        if shared is not None:
            return name in shared  # all given, all declared
        first = self.section._first
        option = first.get(name) if type(first) is dict else self.section.find(name)
        return option is not None and option.value is not None and name in self.specs

    def given_any(self, names: tuple[builtins.str, ...]) -> bool:
        """Whether any of ``names`` is :meth:`given` (asked of every layer: a loop, where
        any() over a generator makes a generator object each call, compiled)."""
        for name in names:  # noqa: SIM110
            if self.given(name):
                return True
        return False

    def option(self, name: str) -> Option | None:
        return self.section.find(name)

    def line_of(self, name: str | None) -> tuple[int, int]:
        option = self.section.find(name) if name else None
        if option is not None:
            return option.line, option.value_column
        return self.section.line, self.section.column

    def item_span(self, name: str, index: int,
                  last: int | None = None) -> tuple[int, int, int] | None:
        """(line, column, end column) of item ``index`` (0-based) of the list ``name`` as
        written (``layers = -1, 40``: item 1 is ``40``), through item ``last`` when given;
        None when the option or the item is not there (see :func:`item_span`)."""
        option = self.section.find(name)
        return None if option is None else item_span(option, index, last)

    def get(self, name: str, default: Any = None) -> Any:
        """Darknet's value for ``name``: parsed when given, else ``default`` or the declared one."""
        # the hottest lookup (thousands per lint): given(), Section.find and Option.parsed
        # inlined, the option looked up once
        shared = self.shared
        if shared is not None:
            found = shared.get(name, UNPARSED)
            if found is UNPARSED:
                return default if default is not None else self.defaults.get(name)
            return found
        first = self.section._first
        option = first.get(name) if type(first) is dict else self.section.find(name)
        if option is None:
            return default if default is not None else self.defaults.get(name)
        if default is not None and (option.value is None or name not in self.specs):
            return default  # not given()
        more = option._more
        parsed = more.parsed if type(more) is Unplain else more
        return parsed if parsed is not UNPARSED else self.defaults.get(name)

    def int(self, name: str, default: int | None = None) -> int:
        if default is None:
            # get() inlined for the common call (no default): the memory estimate alone asks
            # a thousand and more per lint of a large network
            shared = self.shared
            value: Any = UNPARSED
            if shared is not None:
                value = shared.get(name, UNPARSED)
            else:
                first = self.section._first
                option = first.get(name) if type(first) is dict else self.section.find(name)
                if option is not None:
                    more = option._more
                    value = more.parsed if type(more) is Unplain else more
            if value is UNPARSED:
                value = self.defaults.get(name)
        else:
            value = self.get(name, default)
        if type(value) is builtins.int:
            return value  # the common case: no int() call
        if value is None:
            return 0
        if type(value) is builtins.float:
            return c_int_of_float(value)
        return int(value)

    def float(self, name: str, default: float | None = None) -> float:
        value = self.get(name, default)
        return float(value) if value is not None else 0.0

    def str(self, name: str, default: str | None = None) -> str | None:
        value = self.get(name, default)
        if type(value) is builtins.str:
            return value  # the common case: no str() call
        return None if value is None else str(value)

    def list(self, name: builtins.str) -> builtins.list[Any] | None:
        value = self.sequence(name)
        return list(value) if value is not None else None

    def sequence(self, name: builtins.str) -> Sequence[Any] | None:
        """The list given for ``name`` as it is stored, not a copy: a list, or for a long line
        a packed array (cnumbers.Numbers), which a copy would turn into objects again."""
        if self.shared is not None:
            return self.shared.get(name)  # every value given and parsed
        option = self.section.find(name) if self.given(name) else None
        return option.parsed if option is not None and option.parsed is not UNPARSED else None


def type_section(section: Section, table: OptionTable, sink: Sink) -> Values:
    """Check every option of ``section`` against ``table`` and return Darknet's values; a
    section of a table and text typed before shares that typing (:mod:`.section_memo`)."""
    same_text = section.text  # the reader made it from a text it had read: typed before?
    if same_text is not None:
        typed = same_text.memo.get(table)
        if typed is not None:
            unmade = section._first
            if type(unmade) is Unmade:
                return _unmade_typing(section, table, unmade, typed)
            return _shared_typing(section, table, section.made(), typed)
    first = section.made()
    if first is None and same_text is None:
        return _type_section(section, table, sink)
    text = text_of(first, table) if first is not None else None
    typed = typed_before(text) if text is not None else None
    if typed is not None:
        values = _shared_typing(section, table, first, typed)
    else:
        made = sink.made
        values = _type_section(section, table, sink)
        if sink.made != made or (text is None and same_text is None):
            return values
        # nothing reported: the next section of this text reports nothing
        typed = values.typed = remember_typing(text, first)
        if typed is None:
            return values
    if same_text is not None:
        same_text.memo[table] = typed  # OptionTables are few: one per type and dialect
    return values


def _unmade_typing(section: Section, table: OptionTable, unmade: Unmade,
                   typed: Typed) -> Values:
    """The typing of a section of a text typed before, its options left unmade: its values
    are read by key (Values.shared), and left for options made later (Section.made)."""
    values = Values(section, table)
    values.typed = typed
    shared = typed.by_key()
    if typed.lists:  # each section's lists its own, as share_typing gives them
        shared = {key: value.copy() if type(value) is list else value
                  for key, value in shared.items()}
    values.shared = unmade.values = shared
    return values


def _shared_typing(section: Section, table: OptionTable,
                   first: dict[str, Option] | Option | None, typed: Typed) -> Values:
    share_typing(first, typed)
    values = Values(section, table)
    values.typed = typed
    return values


def _type_section(section: Section, table: OptionTable, sink: Sink) -> Values:
    values = Values(section, table)
    specs, dialect = table.specs, table.dialect
    numeric, strings, bounds, lists = table.numeric, table.strings, table.bounds, table.lists
    # option_find returns the first occurrence of a key; the reader reports the others
    first = section._first  # Section.first without the property call for a dict
    for key, option in (first if type(first) is dict else section.first).items():
        value = option.value
        if value is None or not key:
            continue  # a bare key reads as missing and hides later duplicates (DN006)
        more = option._more  # Option.comment_at and .parsed inlined: properties, per option
        unplain = type(more) is Unplain
        if not unplain or more.comment_at < 0:
            # the common cases inlined: a plain decimal, a known name or a list of plain
            # decimals (_convert_list's first step), read alike everywhere
            parsed: object = None
            plan = numeric.get(key)
            if plan is not None:
                number: int | float | None = _SHORT_DECIMALS.get(value)
                if number is None:
                    number = _plain_decimal(value, plan & NUMBER_FLOAT != 0)
                elif plan & NUMBER_FLOAT:
                    number = float(number)
                if number is not None and plan & NUMBER_RANGED:
                    low, high = bounds[key]
                    if not low <= number <= high:
                        check_range(option, specs[key], number, sink)
                parsed = number
            elif key in strings:
                choices = strings[key]
                if choices is None or value in choices:
                    parsed = value
            elif key in lists:
                parsed = _plain_list(value, lists[key])
            if parsed is not None:
                if unplain:
                    more.parsed = parsed
                else:
                    option._more = parsed
                continue
        spec = specs.get(key)
        if spec is None:
            option.parsed = UNPARSED  # not read by this table
            if dialect is _HANK:
                _hank("unknown_hank")(option, section, specs, table.foreign, sink)
            else:
                report_unknown_option(option, section, specs, table.foreign, dialect, sink)
            continue
        option.parsed = _convert(option, spec, dialect, sink)
    for spec in table.required:
        if section.find(spec.name) is None:
            sink.report(
                "DN211",
                section.line,
                section.column,
                f"[{section.name}] needs '{spec.name}' ({spec.kind})",
                spec.doc or None,
            )
    return values


def _convert(option: Option, spec: Opt, dialect: Dialect, sink: Sink) -> Any:
    """The careful path: type_section has found ``option`` not to be a plain value."""
    if dialect is _HANK:
        return _hank("convert_hank")(option, spec, sink)
    value = option.value or ""
    kind = spec.kind
    if kind is _INT or kind is _REF:
        return _convert_int(option, value, spec, dialect, sink)
    if kind is _FLOAT:
        return _convert_float(option, value, spec, dialect, sink)
    if spec.is_list:
        return _convert_list(option, value, spec, dialect, sink)
    return _convert_string(option, value, spec, dialect, sink)


# Enum members are slow class attributes on Python 3.11 (EnumType defines __getattr__): the
# per-option path compares with these instead.
_INT: Final = Kind.INT
_REF: Final = Kind.REF
_FLOAT: Final = Kind.FLOAT
_HANK: Final = Dialect.HANK
# hank_convert's functions by name, imported on first use (hank_convert reads this module's
# helpers): compiled, an import statement in a function body costs a call every time it runs
# (7,700 instructions an unknown option)
_HANK_FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {}


def _hank(name: str) -> Callable[..., Any]:
    found = _HANK_FUNCTIONS.get(name)
    if found is None:
        from dnlint.options import hank_convert

        found = _HANK_FUNCTIONS[name] = getattr(hank_convert, name)
    return found


def _plain_list(value: str, is_float: bool) -> Numbers | None:
    """``10,13,16`` or ``-1,-4``: the items when every one is a plain decimal, else ``None``."""
    items: Numbers = [] if len(value) < LONG_LIST else packed((), is_float)
    for piece in comma_items(value):
        number = _plain_decimal(piece, is_float)
        if number is None:
            return None
        items.append(number)
    return items


# "64" -> 64: the short unsigned decimals seen so far, which cfgs repeat on almost every line
# (at most 11,110 of them: up to 4 digits); a hit skips isascii() and int()
_SHORT_DECIMALS: Final[dict[str, int]] = {}


def _plain_decimal(value: str, is_float: bool) -> int | float | None:
    """``64``, ``-12``, ``0.001``: a plain decimal that every dialect reads the same and that
    fits the C type (nothing to report), else ``None``."""
    known = _SHORT_DECIMALS.get(value)
    if known is not None:
        return float(known) if is_float else known
    if value.isdigit() and len(value) < 10 and value.isascii():
        number_i = int(value)  # the most common: 1, 64, 416
        if len(value) <= 4:
            _SHORT_DECIMALS[value] = number_i
        return float(number_i) if is_float else number_i
    digits = value[1:] if value[:1] == "-" else value
    if not digits.isascii():
        return None
    if is_float:
        if digits.replace(".", "", 1).isdigit():
            number_f = float(value)  # as atof reads it, '-0' included
            return number_f if abs(number_f) <= FLT_MAX else None
        return None
    if digits.isdigit():
        # '-1' (route layers=, shortcut from=): int() reads a short one as strtol does; a
        # long one may saturate a C long
        number = int(value) if len(digits) < 19 else c_strtol(value)
        return number if INT32_MIN <= number <= INT32_MAX else None
    return None


def _convert_int(option: Option, value: str, spec: Opt, dialect: Dialect, sink: Sink) -> int:
    result = c_atoi(value)
    body = comment_prefix(option, value)
    if body is not None and is_plain_int(body):
        comment_survives(option, result, sink)
        body_ok = True
    else:
        body = value
        body_ok = is_plain_int(body)
    if not body_ok:
        _bad_int(option, value, result, sink)
        return result
    if abs(c_strtol(body)) > INT32_MAX:
        sink.report(
            "DN206",
            option.line,
            option.value_column,
            f"{option.key}={body} does not fit a 32-bit C int (atoi gives {result})",
        )
        return result
    check_range(option, spec, result, sink)
    return result


def _bad_int(option: Option, value: str, result: int, sink: Sink) -> None:
    col = option.value_column
    import re  # here: a clean run imports no re (start-up)
    if re.match(ZERO_FRACTION, value):
        sink.report(
            "DN205",
            option.line,
            col,
            f"{option.key}={value} is written with a fraction; Darknet reads exactly {result}",
            f"write {option.key}={result}",
            Severity.WARNING,
        )
    elif is_plain_float(value):
        sink.report(
            "DN205",
            option.line,
            col,
            f"{option.key}={value} is not an integer; Darknet's atoi reads {result}",
            f"write {option.key}={result}",
        )
    elif re.match(_INT_PREFIX, value):
        sink.report(
            "DN204",
            option.line,
            col,
            f"{option.key}={value} has trailing text; Darknet's atoi reads {result}",
            f"write {option.key}={result}",
        )
    else:
        sink.report(
            "DN203",
            option.line,
            col,
            f"{option.key}={value} is not a number; Darknet's atoi silently reads 0",
        )


def _convert_float(option: Option, value: str, spec: Opt, dialect: Dialect, sink: Sink) -> float:
    result = c_atof(value)
    body = comment_prefix(option, value)
    if body is not None and is_plain_float(body):
        comment_survives(option, result, sink)
    else:
        body = value
        if not is_plain_float(body):
            import re  # here: a clean run imports no re (start-up)
            code = "DN204" if re.match(_FLOAT_PREFIX, body) else "DN203"
            reads = f"reads {result:g}" if result or math.isnan(result) else "silently reads 0"
            sink.report(
                code,
                option.line,
                option.value_column,
                f"{option.key}={value} is not a plain decimal number; Darknet's atof {reads}",
            )
            return result
    if not fits_c_float(result):
        sink.report(
            "DN206",
            option.line,
            option.value_column,
            f"{option.key}={body} overflows a C float (Darknet stores inf)",
        )
        return result
    check_range(option, spec, result, sink)
    return result


def _convert_string(option: Option, value: str, spec: Opt, dialect: Dialect, sink: Sink) -> str:
    if spec.kind is Kind.PATH and value.startswith("//", option.comment_at):
        return value  # 'data//voc.map': a doubled slash is still the same path, not a comment
    if option.comment_at > 0:
        comment_breaks(option, f"the string '{value}'", sink)
    choices = spec.choices_for(dialect)
    if choices is not None and value not in choices:
        report_unknown_choice(option, value, spec, dialect, choices, sink)
    return value


def _convert_list(option: Option, value: str, spec: Opt, dialect: Dialect, sink: Sink) -> Numbers:
    is_float = spec.kind is Kind.FLOAT_LIST
    if option.comment_at < 0:
        plain = _plain_list(value, is_float)
        if plain is not None:
            return plain  # every item a plain decimal: nothing to report
    stops = spec.stops_at_hash and dialect is Dialect.AB
    convert: Callable[[str], Any] = c_atof if is_float else c_atoi
    result = c_list(value, convert, stops)
    body = value
    at = option.comment_at
    if at > 0:
        body = value[:at]
        # AlexeyAB's walk of steps stops at a '#' but reads on past a ';' or '//'
        extra = len(result) - len(c_list(body, convert, False))
        if extra > 0:
            comment_breaks(
                option, f"the commas of the comment as {extra} extra list item(s)", sink
            )
        else:
            comment_survives_list(option, sink)
    check_list_items(option, body, is_float, spec.kind is Kind.REF_LIST, sink)
    return result
