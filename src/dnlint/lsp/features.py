"""Hover, inlay hints, outline, go to definition, folding and completion: what the editor asks
about the text under the cursor, answered from the document's lint (its sections, the layers
built from them and their shapes)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from dnlint.dialects import Dialect

if TYPE_CHECKING:
    from dnlint.lsp.analysis import Analysis
    from dnlint.network.layers.base import Layer
    from dnlint.options.schema import Opt
    from dnlint.read.darknet_reader import Option, Section

MAX_SYMBOLS = 10_000  # an outline of a huge file froze editors (vscode-yaml #485)
MAX_HINTS = 10_000
_NET_NAMES = ("net", "network")
_REFERENCE_KEYS = ("layers", "from")
_CODE = re.compile(r"DN\d{1,3}", re.IGNORECASE)
_ITEM = re.compile(r"[^,]+")
_SYMBOL_NET, _SYMBOL_LAYER = 2, 23  # SymbolKind Module, Struct
_COMPLETION_PROPERTY, _COMPLETION_VALUE, _COMPLETION_CLASS = 10, 20, 7


def shape(output: tuple[int, int, int]) -> str:
    w, h, c = output
    return f"{w}x{h}x{c}"


class Cursor:
    """Where an LSP position falls in dnlint's terms: the line, its text, the column."""

    def __init__(self, analysis: Analysis, position: Any) -> None:
        doc = analysis.doc
        self.offset = doc.offset_at(position, analysis.encoding)
        self.line, column = doc.lf_line_column(self.offset)
        self.start, self.end = doc.lf_line_span(self.line)
        self.text = doc.text[self.start:self.end]
        self.index = max(0, min(column - 1, len(self.text)))  # 0-based, into ``text``


def _dialect(analysis: Analysis) -> Dialect:
    dialect = analysis.result.dialect
    return dialect if isinstance(dialect, Dialect) else Dialect.AB


def _is_net(analysis: Analysis, section: Section) -> bool:
    sections = analysis.sections()
    return bool(sections) and sections[0].line == section.line and section.name in _NET_NAMES


def _option_at(section: Section, line: int) -> Option | None:
    return next((o for o in section.options if o.line == line), None)


def _spec(analysis: Analysis, section: Section, key: str) -> tuple[Opt | None, bool]:
    """The declaration of ``key`` in ``section``'s type, and whether the document's dialect
    reads it (False: only another dialect's parser does)."""
    table = _table(analysis, section)
    if table is None:
        return None, False
    if key in table.specs:
        return table.specs[key], True
    return table.foreign.get(key), False


def _table(analysis: Analysis, section: Section) -> Any:
    dialect = _dialect(analysis)
    if _is_net(analysis, section):
        from dnlint.options.net_section import net_table

        return net_table(dialect)
    from dnlint.network.layers import by_section

    layer_type = by_section(section.name, dialect)
    return layer_type.table(dialect) if layer_type is not None else None


def _range(analysis: Analysis, start: int, end: int) -> dict[str, Any]:
    return analysis.doc.range_of(start, end, analysis.encoding)


def _header_range(analysis: Analysis, line: int) -> dict[str, Any]:
    start, end = analysis.doc.lf_line_span(line)
    return _range(analysis, start, end)


# --- hover ---------------------------------------------------------------------------------
def hover(analysis: Analysis, params: dict[str, Any]) -> Any:
    cursor = Cursor(analysis, params.get("position"))
    text = cursor.text
    stripped = text.lstrip()
    if stripped.startswith(("#", ";")):
        return _hover_code(analysis, cursor)
    section = analysis.section_at(cursor.line)
    if section is None:
        return None
    if section.line == cursor.line:
        return _markdown(_about_section(analysis, section),
                         _header_range(analysis, cursor.line))
    option = _option_at(section, cursor.line)
    if option is None:
        return None
    value_at = option.value_column - 1
    if cursor.index < value_at - 1 or option.value is None:
        return _markdown(_about_option(analysis, section, option), None)
    if option.key in _REFERENCE_KEYS:
        found = _reference_at(analysis, section, option, cursor)
        if found is not None:
            target, start, end = found
            return _markdown(_about_layer(target, "resolves to "),
                             _range(analysis, cursor.start + start, cursor.start + end))
    return _markdown(_about_option(analysis, section, option), None)


def _markdown(text: str | None, where: dict[str, Any] | None) -> Any:
    if not text:
        return None
    answer: dict[str, Any] = {"contents": {"kind": "markdown", "value": text}}
    if where is not None:
        answer["range"] = where
    return answer


def _hover_code(analysis: Analysis, cursor: Cursor) -> Any:
    if "dnlint" not in cursor.text:
        return None
    from dnlint.rules import find_rule

    for found in _CODE.finditer(cursor.text):
        if found.start() <= cursor.index <= found.end():
            rule = find_rule(found.group().upper())
            if rule is None:
                return None
            return _markdown(f"```text\n{rule.explanation()}\n```",
                             _range(analysis, cursor.start + found.start(),
                                    cursor.start + found.end()))
    return None


def _about_section(analysis: Analysis, section: Section) -> str:
    if _is_net(analysis, section):
        result = analysis.result
        dialect = result.dialect
        lines = [f"**[{section.name}]**: the network's options"]
        if dialect is not None:
            lines.append(f"Checked as **{dialect.label}** ({result.dialect_reason or 'given'}).")
        network = result.network
        if network is not None:
            net = network.net
            lines.append(f"Input {net.width}x{net.height}x{net.channels}, batch {net.batch}; "
                         f"{len(network.layers)} layers, {network.total_params:,} parameters, "
                         f"{network.total_bflops:.3f} BFLOPs.")
        return "\n\n".join(lines)
    layer = analysis.layer_of(section)
    if layer is None:
        return f"**[{section.name}]**: not built (see its diagnostics)"
    return _about_layer(layer, "")


def _about_layer(layer: Layer, lead: str) -> str:
    from dnlint.reporters.table import geometry

    what = geometry(layer)
    parts = [f"{lead}**#{layer.index} {layer.type}** `[{layer.section_name}]` (line "
             f"{layer.line})" + (f": {what}" if what else ""),
             f"input {shape(layer.input)} → output {shape(layer.output)}"
             + ("" if layer.outputs == _volume(layer.output) else f" ({layer.outputs} outputs)"),
             f"{layer.params:,} parameters" + (f", {layer.bflops:.3f} BFLOPs"
                                                if layer.bflops else "")]
    if layer.broken:
        parts.append("Darknet cannot build this layer as written: see its diagnostics.")
    return "\n\n".join(parts)


def _volume(output: tuple[int, int, int]) -> int:
    w, h, c = output
    return w * h * c


def _about_option(analysis: Analysis, section: Section, option: Option) -> str:
    from dnlint.options.schema import Kind

    dialect = _dialect(analysis)
    spec, read = _spec(analysis, section, option.key)
    if spec is None:
        return (f"**{option.key}**: `[{section.name}]` does not read this option in "
                f"{dialect.label}: Darknet ignores the line.")
    lines = [f"**{option.key}** ({spec.kind}) in `[{section.name}]`"]
    if spec.doc:
        lines.append(spec.doc)
    if not read:
        from dnlint.dialects import names

        lines.append(f"Not read by {dialect.label}: only {names(spec.dialects)} reads it.")
        return "\n\n".join(lines)
    facts = []
    default = spec.default_for(dialect)
    if spec.required:
        facts.append("required")
    elif default is not None and default != "":
        facts.append(f"default `{_shown(default)}`")
    if spec.min is not None or spec.max is not None:
        low = "" if spec.min is None else _shown(spec.min)
        high = "" if spec.max is None else _shown(spec.max)
        facts.append(f"range {low}..{high}")
    choices = spec.choices_for(dialect)
    if choices:
        facts.append("one of " + ", ".join(f"`{c}`" for c in sorted(choices)))
    if facts:
        lines.append("; ".join(facts).capitalize() + ".")
    value = (option.value or "").strip()
    if choices and value and value not in choices:
        instead = spec.fallback if spec.fallback is not None else default
        lines.append(f"`{value}` is not one of them in {dialect.label}: Darknet uses "
                     f"`{instead}` instead.")
    from dnlint.read.darknet_reader import UNPARSED

    parsed = option.parsed
    numeric = (Kind.INT, Kind.FLOAT, Kind.INT_LIST, Kind.FLOAT_LIST)
    if parsed is not UNPARSED and parsed is not None and spec.kind in numeric:
        shown = _shown(parsed)
        if shown != (option.value or "").strip():  # what atoi/atof make of it, when not it
            lines.append(f"Darknet reads this line as `{shown}`.")
    return "\n\n".join(lines)


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(_shown(v) for v in value[:32]) + ("..." if len(value) > 32 else "")
    return str(value)


# --- references ----------------------------------------------------------------------------
def _items(option: Option, text: str) -> list[tuple[int, int, str]]:
    """The comma-separated items of ``option``'s value on its line ``text``: (start, end,
    text) with offsets into the line, before any inline comment."""
    start = option.value_column - 1
    value = text[start:]
    for mark in "#;":
        if mark in value:
            value = value[:value.index(mark)]
    items = []
    for found in _ITEM.finditer(value):
        piece = found.group()
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            items.append((start + found.start() + lead,
                          start + found.start() + len(piece.rstrip()), piece.strip()))
    return items


def _reference_at(analysis: Analysis, section: Section, option: Option,
                  cursor: Cursor) -> tuple[Layer, int, int] | None:
    """The layer the reference under the cursor resolves to, and the item's span."""
    layer = analysis.layer_of(section)
    if layer is None:
        return None
    items = _items(option, cursor.text)
    for number, (start, end, item) in enumerate(items):
        if start <= cursor.index <= end:
            target = _resolve(analysis, layer, items, number, item)
            return (target, start, end) if target is not None else None
    return None


def _resolve(analysis: Analysis, layer: Layer, items: list[tuple[int, int, str]],
             number: int, item: str) -> Layer | None:
    refs = layer.refs
    if refs is not None and len(refs) == len(items):
        return analysis.layer(int(refs[number]))
    from dnlint.cnumbers import c_atoi

    index = c_atoi(item)
    if index < 0:
        index += layer.index  # parse_route / parse_shortcut: a negative index is relative
    return analysis.layer(index)


def definition(analysis: Analysis, params: dict[str, Any]) -> Any:
    cursor = Cursor(analysis, params.get("position"))
    section = analysis.section_at(cursor.line)
    if section is None:
        return None
    option = _option_at(section, cursor.line)
    if option is None or option.key not in _REFERENCE_KEYS:
        return None
    found = _reference_at(analysis, section, option, cursor)
    if found is None:
        return None
    return {"uri": analysis.doc.uri, "range": _header_range(analysis, found[0].line)}


# --- inlay hints, outline, folding -----------------------------------------------------------
def inlay_hints(analysis: Analysis, params: dict[str, Any]) -> Any:
    doc = analysis.doc
    where = params.get("range") if isinstance(params.get("range"), dict) else {}
    first = doc.offset_at(where.get("start"), analysis.encoding) if where else 0
    last = doc.offset_at(where.get("end"), analysis.encoding) if where else len(doc.text)
    hints = []
    for layer in analysis.layers():
        start, end = doc.lf_line_span(layer.line)
        if end < first or start > last:
            continue
        hints.append({"position": doc.position_at(end, analysis.encoding),
                      "label": f"#{layer.index} {shape(layer.output)}",
                      "kind": 1, "paddingLeft": True})
        if len(hints) >= MAX_HINTS:
            break
    return hints


def _section_extent(analysis: Analysis, sections: list[Section], at: int) -> tuple[int, int]:
    """The first and last dnlint line of section ``at``: its header to its last line that is
    neither blank nor a comment before the next section."""
    doc = analysis.doc
    first = sections[at].line
    last = (sections[at + 1].line - 1) if at + 1 < len(sections) else len(doc.lf_starts)
    while last > first:
        start, end = doc.lf_line_span(last)
        text = doc.text[start:end].strip()
        if text and not text.startswith(("#", ";")):
            break
        last -= 1
    return first, last


def symbols(analysis: Analysis, params: dict[str, Any]) -> Any:
    doc = analysis.doc
    sections = analysis.sections()
    out = []
    for at, section in enumerate(sections[:MAX_SYMBOLS]):
        first, last = _section_extent(analysis, sections, at)
        header = _header_range(analysis, first)
        whole = {"start": header["start"], "end": _range(analysis, *doc.lf_line_span(last))["end"]}
        if _is_net(analysis, section):
            name, kind, detail = f"[{section.name}]", _SYMBOL_NET, "network options"
        else:
            layer = analysis.layer_of(section)
            kind = _SYMBOL_LAYER
            if layer is None:
                name, detail = f"[{section.name}]", "not built"
            else:
                name = f"#{layer.index} {layer.type} {shape(layer.output)}"
                detail = f"[{section.name}] line {section.line}"
        out.append({"name": name, "detail": detail, "kind": kind, "range": whole,
                    "selectionRange": header})
    return out


def folding(analysis: Analysis, params: dict[str, Any]) -> Any:
    doc = analysis.doc
    sections = analysis.sections()
    out = []
    for at in range(min(len(sections), MAX_SYMBOLS)):
        first, last = _section_extent(analysis, sections, at)
        start = doc.position_at(doc.lf_line_span(first)[0], analysis.encoding)["line"]
        end = doc.position_at(doc.lf_line_span(last)[0], analysis.encoding)["line"]
        if end > start:
            out.append({"startLine": start, "endLine": end, "kind": "region"})
    return out


# --- completion --------------------------------------------------------------------------------
def completion(analysis: Analysis, params: dict[str, Any]) -> Any:
    cursor = Cursor(analysis, params.get("position"))
    before = cursor.text[:cursor.index]
    lead = before.lstrip(" \t")
    if lead.startswith(("#", ";")):
        return []
    if lead.startswith("["):
        return _section_names(analysis, cursor, len(before) - len(lead) + 1)
    section = analysis.section_at(cursor.line)
    if section is None or section.line == cursor.line:
        return []
    if "=" in before:
        key = before.split("=", 1)[0].strip()
        return _values(analysis, section, key, cursor, before.rindex("=") + 1)
    return _options(analysis, section, cursor, len(before) - len(lead))


def _edit(analysis: Analysis, cursor: Cursor, start: int, text: str) -> dict[str, Any]:
    end = cursor.index
    while end < len(cursor.text) and cursor.text[end] not in " \t=]#;,":
        end += 1
    return {"range": _range(analysis, cursor.start + start, cursor.start + end), "newText": text}


def _section_names(analysis: Analysis, cursor: Cursor, start: int) -> list[Any]:
    from dnlint.network.layers import section_table

    dialect = _dialect(analysis)
    closed = "]" in cursor.text[cursor.index:]
    names = sorted({"net", *section_table(dialect)})
    table = section_table(dialect)
    items = []
    for name in names:
        layer_type = table.get(name)
        doc = layer_type.doc if layer_type is not None else "the network's options"
        items.append({"label": name, "kind": _COMPLETION_CLASS,
                      "detail": layer_type.name if layer_type is not None else "[net]",
                      "documentation": {"kind": "markdown", "value": doc},
                      "textEdit": _edit(analysis, cursor, start, name + ("" if closed else "]"))})
    return items


def _options(analysis: Analysis, section: Section, cursor: Cursor, start: int) -> list[Any]:
    table = _table(analysis, section)
    if table is None:
        return []
    given = {o.key for o in section.options if o.line != cursor.line}
    dialect = _dialect(analysis)
    items = []
    for name, spec in sorted(table.specs.items()):
        if name in given:
            continue
        default = spec.default_for(dialect)
        detail = spec.kind + ("" if default in (None, "") else f" = {_shown(default)}")
        items.append({"label": name, "kind": _COMPLETION_PROPERTY, "detail": detail,
                      "documentation": {"kind": "markdown", "value": spec.doc or ""},
                      "textEdit": _edit(analysis, cursor, start, name + "=")})
    return items


def _values(analysis: Analysis, section: Section, key: str, cursor: Cursor,
            start: int) -> list[Any]:
    spec, read = _spec(analysis, section, key)
    if spec is None or not read:
        return []
    choices = spec.choices_for(_dialect(analysis))
    if not choices:
        return []
    default = spec.default_for(_dialect(analysis))
    while start < cursor.index and cursor.text[start] in " \t":
        start += 1
    return [{"label": choice, "kind": _COMPLETION_VALUE,
             "detail": "default" if choice == default else spec.name,
             "textEdit": _edit(analysis, cursor, start, choice)} for choice in sorted(choices)]
